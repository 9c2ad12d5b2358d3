//===- CompositeOps.cpp - Ops written with other ops ----------------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// API ops that are compositions of the op table's ops, as TensorFlow writes
// tf.clip_by_value, tf.pad's constant mode or tf.nn.elu's gradient-friendly
// forms in terms of its kernels: they run eagerly, trace into the same
// dialect ops (so they fuse and compile like hand-written code), and their
// gradients are those of the ops they are made of. Each checks its own
// arguments first and names itself in errors.
//
//===----------------------------------------------------------------------===//
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Ops.h"

#include "tfc/runtime/Ops.h"

#include <algorithm>
#include <numeric>
#include <string>

using namespace tfc;

namespace {

[[noreturn]] void fail(const char *op, const std::string &what,
                       const std::source_location &loc) {
  detail::throw_invalid_argument(std::string(op) + ": " + what, loc);
}

void requireDefined(const char *op, const Tensor &x,
                    const std::source_location &loc) {
  if (!x.defined())
    fail(op, "the input is an undefined tensor", loc);
}

/// `axis` in [-bound, bound) made non-negative.
int64_t axisIn(const char *op, int64_t axis, int64_t bound, const Tensor &x,
               const std::source_location &loc) {
  if (axis < -bound || axis >= bound)
    fail(op,
         "axis " + std::to_string(axis) + " is out of range for shape " +
             shape_to_string(x.shape()) + " (valid axes are [" +
             std::to_string(-bound) + ", " + std::to_string(bound) + "))",
         loc);
  return axis < 0 ? axis + bound : axis;
}

void requireFloat(const char *op, const Tensor &x,
                  const std::source_location &loc) {
  requireDefined(op, x, loc);
  if (!is_floating(x.dtype()))
    fail(op,
         "expected a float32 or float64 tensor but got " +
             std::string(to_string(x.dtype())) + " " +
             shape_to_string(x.shape()),
         loc);
}

} // namespace

Tensor tfc::clip_by_value(const Tensor &x, double lo, double hi,
                          std::source_location loc) {
  requireDefined("clip_by_value", x, loc);
  if (lo > hi)
    fail("clip_by_value",
         "clip_value_min " + std::to_string(lo) +
             " is greater than "
             "clip_value_max " +
             std::to_string(hi),
         loc);
  return minimum(
      maximum(x, detail::scalar_like("clip_by_value", x, lo, loc), loc),
      detail::scalar_like("clip_by_value", x, hi, loc), loc);
}

Tensor tfc::stack(const std::vector<Tensor> &values, int64_t axis,
                  std::source_location loc) {
  if (values.empty())
    fail("stack", "needs at least one tensor", loc);
  for (size_t i = 0; i < values.size(); ++i) {
    requireDefined("stack", values[i], loc);
    if (values[i].shape() != values[0].shape() ||
        values[i].dtype() != values[0].dtype())
      fail("stack",
           "value " + std::to_string(i) + " is " +
               std::string(to_string(values[i].dtype())) + " " +
               shape_to_string(values[i].shape()) + " but value 0 is " +
               std::string(to_string(values[0].dtype())) + " " +
               shape_to_string(values[0].shape()),
           loc);
  }
  int64_t a = axisIn("stack", axis, values[0].rank() + 1, values[0], loc);
  std::vector<Tensor> expanded;
  for (const Tensor &v : values)
    expanded.push_back(expand_dims(v, a, loc));
  return expanded.size() == 1 ? expanded[0] : concat(expanded, a, loc);
}

std::vector<Tensor> tfc::split(const Tensor &x, std::vector<int64_t> sizes,
                               int64_t axis, std::source_location loc) {
  requireDefined("split", x, loc);
  int64_t a = axisIn("split", axis, x.rank(), x, loc);
  int64_t dim = x.shape()[a], known = 0, inferred = -1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] == -1 && inferred < 0) {
      inferred = static_cast<int64_t>(i);
      continue;
    }
    if (sizes[i] < 0)
      fail("split", "sizes may hold one -1 and otherwise sizes >= 0", loc);
    known += sizes[i];
  }
  if (inferred >= 0 && known <= dim)
    sizes[inferred] = dim - known;
  else if (known != dim || inferred >= 0)
    fail("split",
         "sizes add up to " + std::to_string(known) + " but dim " +
             std::to_string(a) + " of " + shape_to_string(x.shape()) + " is " +
             std::to_string(dim),
         loc);
  std::vector<Tensor> parts;
  std::vector<int64_t> begin(x.rank(), 0), size = x.shape();
  for (int64_t s : sizes) {
    size[a] = s;
    parts.push_back(slice(x, begin, size, loc));
    begin[a] += s;
  }
  return parts;
}

std::vector<Tensor> tfc::unstack(const Tensor &x, int64_t axis,
                                 std::source_location loc) {
  requireDefined("unstack", x, loc);
  if (x.rank() == 0)
    fail("unstack", "cannot unstack a scalar", loc);
  int64_t a = axisIn("unstack", axis, x.rank(), x, loc);
  std::vector<Tensor> parts =
      split(x, std::vector<int64_t>(x.shape()[a], 1), a, loc);
  for (Tensor &p : parts)
    p = squeeze(p, {a}, loc);
  return parts;
}

Tensor tfc::pad(const Tensor &x,
                std::vector<std::pair<int64_t, int64_t>> paddings,
                double constant_value, std::source_location loc) {
  requireDefined("pad", x, loc);
  if (static_cast<int64_t>(paddings.size()) != x.rank())
    fail("pad",
         "expected one (before, after) pair per dim of " +
             shape_to_string(x.shape()) + " but got " +
             std::to_string(paddings.size()),
         loc);
  Tensor fill = detail::scalar_like("pad", x, constant_value, loc);
  Tensor y = x;
  for (int64_t d = 0; d < x.rank(); ++d) {
    auto [before, after] = paddings[d];
    if (before < 0 || after < 0)
      fail("pad",
           "paddings must be >= 0 but dim " + std::to_string(d) + " has (" +
               std::to_string(before) + ", " + std::to_string(after) + ")",
           loc);
    std::vector<Tensor> pieces;
    std::vector<int64_t> shape = y.shape();
    for (int64_t n : {before, int64_t(-1), after}) {
      if (n == -1) {
        pieces.push_back(y);
      } else if (n > 0) {
        shape[d] = n;
        pieces.push_back(broadcast_to(fill, shape, loc));
      }
    }
    if (pieces.size() > 1)
      y = concat(pieces, d, loc);
  }
  return y;
}

Tensor tfc::tile(const Tensor &x, std::vector<int64_t> multiples,
                 std::source_location loc) {
  requireDefined("tile", x, loc);
  if (static_cast<int64_t>(multiples.size()) != x.rank())
    fail("tile",
         "expected one multiple per dim of " + shape_to_string(x.shape()) +
             " but got " + std::to_string(multiples.size()),
         loc);
  Tensor y = x;
  for (int64_t d = 0; d < x.rank(); ++d) {
    int64_t m = multiples[d];
    if (m < 0)
      fail("tile",
           "multiples must be >= 0 but dim " + std::to_string(d) + " has " +
               std::to_string(m),
           loc);
    if (m == 0) {
      std::vector<int64_t> size = y.shape();
      size[d] = 0;
      y = slice(y, std::vector<int64_t>(y.rank(), 0), size, loc);
    } else if (m > 1) {
      y = concat(std::vector<Tensor>(static_cast<size_t>(m), y), d, loc);
    }
  }
  return y;
}

Tensor tfc::argmin(const Tensor &x, int64_t axis, std::source_location loc) {
  requireDefined("argmin", x, loc);
  int64_t a = axisIn("argmin", axis, x.rank(), x, loc);
  // The first position equal to the minimum: argmax of that mask.
  Tensor atMin = equal(x, reduce_min(x, {a}, /*keepdims=*/true, loc), loc);
  return argmax(cast(atMin, DType::Int32, loc), a, loc);
}

namespace {
/// The number of true elements of `x` over `axes`, as int64.
Tensor countTrue(const char *op, const Tensor &x, std::vector<int64_t> axes,
                 bool keepdims, const std::source_location &loc) {
  requireDefined(op, x, loc);
  if (x.dtype() != DType::Bool)
    fail(op,
         "expected a bool tensor but got " + std::string(to_string(x.dtype())) +
             " " + shape_to_string(x.shape()),
         loc);
  return reduce_sum(cast(x, DType::Int64, loc), std::move(axes), keepdims, loc);
}
} // namespace

Tensor tfc::reduce_any(const Tensor &x, std::vector<int64_t> axes,
                       bool keepdims, std::source_location loc) {
  return countTrue("reduce_any", x, std::move(axes), keepdims, loc) > 0;
}

Tensor tfc::reduce_all(const Tensor &x, std::vector<int64_t> axes,
                       bool keepdims, std::source_location loc) {
  return countTrue("reduce_all", logical_not(x, loc), std::move(axes), keepdims,
                   loc) == 0;
}

Tensor tfc::leaky_relu(const Tensor &x, double alpha,
                       std::source_location loc) {
  requireFloat("leaky_relu", x, loc);
  return where(x > 0.0, x, x * alpha, loc);
}

Tensor tfc::elu(const Tensor &x, std::source_location loc) {
  requireFloat("elu", x, loc);
  // exp of min(x, 0): the untaken branch never overflows (its gradient,
  // 0 * exp(x), would be NaN for large x).
  return where(
      x > 0.0, x,
      exp(minimum(x, detail::scalar_like("elu", x, 0.0, loc)), loc) - 1.0, loc);
}

Tensor tfc::softplus(const Tensor &x, std::source_location loc) {
  requireFloat("softplus", x, loc);
  // log(1 + e^x) = log1p(e^-|x|) + max(x, 0), finite for every x.
  return log1p(exp(neg(abs(x, loc), loc), loc), loc) +
         maximum(x, detail::scalar_like("softplus", x, 0.0, loc), loc);
}

Tensor tfc::reciprocal(const Tensor &x, std::source_location loc) {
  requireFloat("reciprocal", x, loc);
  return 1.0 / x;
}

Tensor tfc::rsqrt(const Tensor &x, std::source_location loc) {
  requireFloat("rsqrt", x, loc);
  return 1.0 / sqrt(x, loc);
}

Tensor tfc::sign(const Tensor &x, std::source_location loc) {
  requireFloat("sign", x, loc);
  // where(x > 0, 1, where(x < 0, -1, x)): +-1, and 0 / -0 / NaN kept as
  // tf.math.sign keeps them; no gradient flows (the branches are
  // constants, and x only where it is 0 or NaN).
  Tensor one = detail::scalar_like("sign", x, 1.0, loc);
  return where(x > 0.0, one, where(x < 0.0, -one, stop_gradient(x), loc), loc);
}

Tensor tfc::ceil(const Tensor &x, std::source_location loc) {
  requireFloat("ceil", x, loc);
  return neg(floor(neg(x, loc), loc), loc);
}

Tensor tfc::round(const Tensor &x, std::source_location loc) {
  requireFloat("round", x, loc);
  // Half to even, as tf.math.round. x - floor(x) is exact, so the
  // comparisons with 0.5 are too (floor(x + 0.5) is not: 0.49999997f + 0.5f
  // rounds to 1).
  Tensor f = floor(x, loc);
  Tensor d = x - f;
  Tensor half = detail::scalar_like("round", x, 0.5, loc);
  Tensor odd = not_equal(mod(f, detail::scalar_like("round", x, 2.0, loc), loc),
                         detail::scalar_like("round", x, 0.0, loc), loc);
  Tensor up = logical_or(greater(d, half, loc),
                         logical_and(equal(d, half, loc), odd, loc), loc);
  return where(up, f + 1.0, f, loc);
}

Tensor tfc::matmul(const Tensor &a, const Tensor &b, bool transpose_a,
                   bool transpose_b, std::source_location loc) {
  auto swapLast2 = [&](const Tensor &x, const char *what) {
    requireDefined("matmul", x, loc);
    if (x.rank() < 2)
      fail("matmul",
           std::string(what) + " has shape " + shape_to_string(x.shape()) +
               "; transposing needs rank >= 2",
           loc);
    std::vector<int64_t> perm(static_cast<size_t>(x.rank()));
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
    return transpose(x, perm, loc);
  };
  return matmul(transpose_a ? swapLast2(a, "a") : a,
                transpose_b ? swapLast2(b, "b") : b, loc);
}

std::pair<Tensor, Tensor> tfc::top_k(const Tensor &x, int64_t k,
                                     std::source_location loc) {
  const std::vector<int64_t> &shape = x.shape();
  if (shape.empty())
    detail::throw_invalid_argument(
        "top_k: expected a tensor of rank >= 1, got shape "
        "() (" +
            std::string(to_string(x.dtype())) + ")",
        loc);
  int64_t n = shape.back();
  if (k < 0 || (n >= 0 && k > n))
    detail::throw_invalid_argument(
        "top_k: k must be in [0, " + std::to_string(n) +
            "] (the last dim of shape " + shape_to_string(shape) + "), got " +
            std::to_string(k),
        loc);
  OpAttrs attrs;
  attrs.k = k;
  Tensor idx = detail::dispatch(OpKind::TopKIndices, &x, 1, attrs, loc);
  // The values: a gather from the flattened rows at idx + row * n.
  int64_t rows = 1;
  for (int64_t d : shape) {
    if (d < 0)
      detail::throw_invalid_argument(
          "top_k: the shape " + shape_to_string(shape) +
              " must be static (the values are gathered "
              "from the flattened rows)",
          loc);
    rows *= d;
  }
  rows = n == 0 ? 0 : rows / n;
  std::vector<int64_t> kept = shape;
  kept.back() = 1;
  Tensor offsets =
      reshape(range(0, rows * n, std::max<int64_t>(n, 1), DType::Int32, loc),
              kept, loc);
  Tensor flat = reshape(x, {rows * n}, loc);
  Tensor values = gather(flat, add(idx, offsets, loc), 0, loc);
  return {values, idx};
}

Tensor tfc::reverse(const Tensor &x, std::vector<int64_t> axes,
                    std::source_location loc) {
  int64_t rank = x.rank();
  std::vector<bool> seen(static_cast<size_t>(rank));
  Tensor y = x;
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      detail::throw_invalid_argument("reverse: axis " + std::to_string(a) +
                                         " is out of range for shape " +
                                         shape_to_string(x.shape()),
                                     loc);
    int64_t axis = a < 0 ? a + rank : a;
    if (seen[static_cast<size_t>(axis)])
      detail::throw_invalid_argument(
          "reverse: axis " + std::to_string(a) + " is listed twice", loc);
    seen[static_cast<size_t>(axis)] = true;
    int64_t n = x.shape()[static_cast<size_t>(axis)];
    if (n < 0)
      detail::throw_invalid_argument(
          "reverse: dim " + std::to_string(axis) + " of shape " +
              shape_to_string(x.shape()) + " must be static",
          loc);
    if (n > 1)
      y = gather(y, range(n - 1, -1, -1, DType::Int32, loc), axis, loc);
  }
  return y;
}

Tensor tfc::gelu(const Tensor &x, bool approximate, std::source_location loc) {
  if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
    detail::throw_invalid_argument("gelu: expected float32 or float64, got " +
                                       std::string(to_string(x.dtype())),
                                   loc);
  auto c = [&](double v) { return detail::scalar_like("gelu", x, v, loc); };
  if (approximate) {
    // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
    Tensor inner = mul(
        c(0.7978845608028654),
        add(x, mul(c(0.044715), mul(x, square(x, loc), loc), loc), loc), loc);
    return mul(mul(c(0.5), x, loc), add(c(1.0), tanh(inner, loc), loc), loc);
  }
  // 0.5 x (1 + erf(x / sqrt(2)))
  return mul(mul(c(0.5), x, loc),
             add(c(1.0), erf(mul(x, c(0.7071067811865476), loc), loc), loc),
             loc);
}
