//===- Ops.cpp - The tensor ops of the public API -------------------------===//
//
// Each op builds its OpAttrs in the IR's normalised form (non-negative axes,
// explicit sorted reduction axes, explicit perms and slice sizes) and calls
// detail::dispatch. Shape and dtype checks of the operands themselves are the
// kernels' (eager) or the tracer's job; only what needs the attributes to be
// normalised is checked here.
//
//===----------------------------------------------------------------------===//
#include "tfc/frontend/Ops.h"

#include "OpsInternal.h"

#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Ops.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

using namespace tfc;
using namespace tfc::detail;
using kernels::CmpPredicate;

namespace {
/// Shared by every op without attributes; std::vector's default constructor
/// is constexpr, so this needs no dynamic initialisation.
constinit const OpAttrs noAttrs{};

Tensor unary(OpKind kind, const Tensor &x, const std::source_location &loc) {
  return dispatch(kind, &x, 1, noAttrs, loc);
}

Tensor binary(OpKind kind, const Tensor &a, const Tensor &b,
              const OpAttrs &attrs, const std::source_location &loc) {
  const std::array<Tensor, 2> inputs{a, b};
  return dispatch(kind, inputs.data(), inputs.size(), attrs, loc);
}

constexpr OpAttrs cmpAttrs(CmpPredicate predicate) {
  OpAttrs attrs;
  attrs.predicate = predicate;
  return attrs;
}
// One constant per predicate: comparisons stay allocation-free too.
constinit const OpAttrs eqAttrs = cmpAttrs(CmpPredicate::EQ);
constinit const OpAttrs neAttrs = cmpAttrs(CmpPredicate::NE);
constinit const OpAttrs ltAttrs = cmpAttrs(CmpPredicate::LT);
constinit const OpAttrs leAttrs = cmpAttrs(CmpPredicate::LE);
constinit const OpAttrs gtAttrs = cmpAttrs(CmpPredicate::GT);
constinit const OpAttrs geAttrs = cmpAttrs(CmpPredicate::GE);

/// Throws the frontend's own "undefined input" error before the tensor's
/// rank is needed to normalise attributes.
void requireDefined(const char *op, const Tensor &x, const char *what,
                    const std::source_location &loc) {
  if (!x.defined())
    throw_invalid_argument(std::string(op) + ": " + what +
                               " is an undefined tensor (a "
                               "default-constructed tfc::Tensor)",
                           loc);
}

/// `axis` in [-bound, bound) made non-negative, else InvalidArgumentError
/// naming the op, the axis and the shape. `bound` is the rank, or rank + 1
/// where a new dim is inserted.
int64_t normalizeAxis(const char *op, int64_t axis, int64_t bound,
                      const std::vector<int64_t> &shape,
                      const std::source_location &loc) {
  if (axis < -bound || axis >= bound)
    throw_invalid_argument(
        std::string(op) + ": axis " + std::to_string(axis) +
            " is out of range for shape " + shape_to_string(shape) + " (rank " +
            std::to_string(shape.size()) + ", valid axes are [" +
            std::to_string(-bound) + ", " + std::to_string(bound) + "))",
        loc);
  return axis < 0 ? axis + bound : axis;
}

/// Axes made non-negative, sorted, each at most once.
std::vector<int64_t> normalizeAxes(const char *op, std::vector<int64_t> axes,
                                   const std::vector<int64_t> &shape,
                                   const std::source_location &loc) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const std::vector<int64_t> given = axes;
  for (int64_t &axis : axes)
    axis = normalizeAxis(op, axis, rank, shape, loc);
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    throw_invalid_argument(std::string(op) + ": axes " + list_to_string(given) +
                               " name the same axis twice (shape " +
                               shape_to_string(shape) + ")",
                           loc);
  return axes;
}

Tensor reduce(OpKind kind, const char *op, const Tensor &x,
              std::vector<int64_t> axes, bool keepdims,
              const std::source_location &loc) {
  requireDefined(op, x, "input", loc);
  OpAttrs attrs;
  if (axes.empty()) {
    // "All axes", spelled out: the IR never has to interpret an empty list.
    attrs.axes.resize(x.shape().size());
    for (size_t i = 0; i < attrs.axes.size(); ++i)
      attrs.axes[i] = static_cast<int64_t>(i);
  } else {
    attrs.axes = normalizeAxes(op, std::move(axes), x.shape(), loc);
  }
  attrs.keepdims = keepdims;
  return dispatch(kind, &x, 1, attrs, loc);
}

Tensor singleAxis(OpKind kind, const char *op, const Tensor &x, int64_t axis,
                  const std::source_location &loc) {
  requireDefined(op, x, "input", loc);
  OpAttrs attrs;
  attrs.axis = normalizeAxis(op, axis, x.rank(), x.shape(), loc);
  return dispatch(kind, &x, 1, attrs, loc);
}

// Exact representability of C++ scalars in a tensor's dtype.
template <class T> bool fitsInteger(int64_t v) {
  return v >= static_cast<int64_t>(std::numeric_limits<T>::min()) &&
         v <= static_cast<int64_t>(std::numeric_limits<T>::max());
}

[[noreturn]] void throwScalar(const char *op, const std::string &value,
                              DType dtype, const std::source_location &loc) {
  throw_invalid_argument(std::string(op) + ": the scalar " + value +
                             " cannot be represented exactly as " +
                             std::string(to_string(dtype)) +
                             " (the dtype of the tensor it is combined with; "
                             "use tfc::cast to change the tensor's dtype)",
                         loc);
}

template <class T> Tensor makeScalar(DType dtype, T value) {
  Tensor t = Tensor::empty(dtype, {});
  *t.data<T>() = value;
  return t;
}

void requireLike(const char *op, const Tensor &like,
                 const std::source_location &loc) {
  if (!like.defined())
    throw_invalid_argument(std::string(op) +
                               ": the tensor operand is an undefined tensor "
                               "(a default-constructed tfc::Tensor)",
                           loc);
}
} // namespace

// --- Scalars -----------------------------------------------------------------

Tensor tfc::detail::scalar_like(const char *op, const Tensor &like,
                                double value, const std::source_location &loc) {
  requireLike(op, like, loc);
  const DType dtype = like.dtype();
  switch (dtype) {
  case DType::Float32:
    return makeScalar<float>(dtype, static_cast<float>(value));
  case DType::Float64:
    return makeScalar<double>(dtype, value);
  case DType::Int32:
  case DType::Int64:
  case DType::Bool:
    // Integral-valued doubles in range convert exactly; anything else would
    // silently change the user's number.
    if (std::isfinite(value) && value == std::trunc(value) &&
        value >= -9.2233720368547758e18 && value < 9.2233720368547758e18)
      return scalar_like(op, like, static_cast<int64_t>(value), loc);
    throwScalar(op, format_double(value), dtype, loc);
  }
  throwScalar(op, format_double(value), dtype, loc);
}

Tensor tfc::detail::scalar_like(const char *op, const Tensor &like,
                                int64_t value,
                                const std::source_location &loc) {
  requireLike(op, like, loc);
  const DType dtype = like.dtype();
  switch (dtype) {
  case DType::Float32:
    return makeScalar<float>(dtype, static_cast<float>(value));
  case DType::Float64:
    return makeScalar<double>(dtype, static_cast<double>(value));
  case DType::Int32:
    if (!fitsInteger<int32_t>(value))
      break;
    return makeScalar<int32_t>(dtype, static_cast<int32_t>(value));
  case DType::Int64:
    return makeScalar<int64_t>(dtype, value);
  case DType::Bool:
    if (value != 0 && value != 1)
      break;
    return makeScalar<bool>(dtype, value != 0);
  }
  throwScalar(op, std::to_string(value), dtype, loc);
}

Tensor tfc::detail::scalar_like(const char *op, const Tensor &like,
                                uint64_t value,
                                const std::source_location &loc) {
  if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    requireLike(op, like, loc);
    if (!is_floating(like.dtype()))
      throwScalar(op, std::to_string(value), like.dtype(), loc);
    return scalar_like(op, like, static_cast<double>(value), loc);
  }
  return scalar_like(op, like, static_cast<int64_t>(value), loc);
}

// --- Elementwise -------------------------------------------------------------

#define TFC_DEFINE_BINARY(KIND, NAME)                                          \
  Tensor tfc::NAME(const Tensor &a, const Tensor &b,                           \
                   std::source_location loc) {                                 \
    return binary(OpKind::KIND, a, b, noAttrs, loc);                           \
  }
TFC_FOR_EACH_BINARY_ELEMENTWISE_OP(TFC_DEFINE_BINARY)
#undef TFC_DEFINE_BINARY

#define TFC_DEFINE_COMPARE(NAME, ATTRS)                                        \
  Tensor tfc::NAME(const Tensor &a, const Tensor &b,                           \
                   std::source_location loc) {                                 \
    return binary(OpKind::Cmp, a, b, ATTRS, loc);                              \
  }
TFC_DEFINE_COMPARE(equal, eqAttrs)
TFC_DEFINE_COMPARE(not_equal, neAttrs)
TFC_DEFINE_COMPARE(less, ltAttrs)
TFC_DEFINE_COMPARE(less_equal, leAttrs)
TFC_DEFINE_COMPARE(greater, gtAttrs)
TFC_DEFINE_COMPARE(greater_equal, geAttrs)
#undef TFC_DEFINE_COMPARE

#define TFC_DEFINE_UNARY(KIND, NAME)                                           \
  Tensor tfc::NAME(const Tensor &x, std::source_location loc) {                \
    return unary(OpKind::KIND, x, loc);                                        \
  }
TFC_FOR_EACH_UNARY_ELEMENTWISE_OP(TFC_DEFINE_UNARY)
TFC_DEFINE_UNARY(StopGradient, stop_gradient)
#undef TFC_DEFINE_UNARY

Tensor tfc::where(const Tensor &cond, const Tensor &a, const Tensor &b,
                  std::source_location loc) {
  const std::array<Tensor, 3> inputs{cond, a, b};
  return dispatch(OpKind::Select, inputs.data(), inputs.size(), noAttrs, loc);
}

Tensor tfc::cast(const Tensor &x, DType dtype, std::source_location loc) {
  OpAttrs attrs;
  attrs.dtype = dtype;
  return dispatch(OpKind::Cast, &x, 1, attrs, loc);
}

// --- Shape -------------------------------------------------------------------

Tensor tfc::reshape(const Tensor &x, std::vector<int64_t> shape,
                    std::source_location loc) {
  OpAttrs attrs;
  attrs.shape = std::move(shape);
  return dispatch(OpKind::Reshape, &x, 1, attrs, loc);
}

Tensor tfc::transpose(const Tensor &x, std::vector<int64_t> perm,
                      std::source_location loc) {
  requireDefined("transpose", x, "input", loc);
  const int64_t rank = x.rank();
  OpAttrs attrs;
  if (perm.empty()) {
    attrs.axes.resize(static_cast<size_t>(rank));
    for (int64_t i = 0; i < rank; ++i)
      attrs.axes[static_cast<size_t>(i)] = rank - 1 - i;
  } else {
    std::vector<bool> seen(static_cast<size_t>(rank), false);
    bool valid = static_cast<int64_t>(perm.size()) == rank;
    for (int64_t p : perm) {
      int64_t axis = p < 0 ? p + rank : p;
      if (!valid || axis < 0 || axis >= rank ||
          seen[static_cast<size_t>(axis)]) {
        valid = false;
        break;
      }
      seen[static_cast<size_t>(axis)] = true;
      attrs.axes.push_back(axis);
    }
    if (!valid)
      throw_invalid_argument("transpose: perm " + list_to_string(perm) +
                                 " is not a permutation of the " +
                                 std::to_string(rank) + " dims of shape " +
                                 shape_to_string(x.shape()),
                             loc);
  }
  return dispatch(OpKind::Transpose, &x, 1, attrs, loc);
}

Tensor tfc::expand_dims(const Tensor &x, int64_t axis,
                        std::source_location loc) {
  requireDefined("expand_dims", x, "input", loc);
  OpAttrs attrs;
  // The new dim may go anywhere in [0, rank]: rank + 1 positions.
  attrs.axis = normalizeAxis("expand_dims", axis, x.rank() + 1, x.shape(), loc);
  return dispatch(OpKind::ExpandDims, &x, 1, attrs, loc);
}

Tensor tfc::squeeze(const Tensor &x, std::vector<int64_t> axes,
                    std::source_location loc) {
  requireDefined("squeeze", x, "input", loc);
  const std::vector<int64_t> &shape = x.shape();
  OpAttrs attrs;
  if (axes.empty()) {
    for (size_t i = 0; i < shape.size(); ++i)
      if (shape[i] == 1)
        attrs.axes.push_back(static_cast<int64_t>(i));
  } else {
    attrs.axes = normalizeAxes("squeeze", std::move(axes), shape, loc);
    for (int64_t axis : attrs.axes)
      if (shape[static_cast<size_t>(axis)] != 1)
        throw_invalid_argument(
            "squeeze: cannot squeeze axis " + std::to_string(axis) +
                " of shape " + shape_to_string(shape) + ": its size is " +
                std::to_string(shape[static_cast<size_t>(axis)]) + ", not 1",
            loc);
  }
  return dispatch(OpKind::Squeeze, &x, 1, attrs, loc);
}

Tensor tfc::broadcast_to(const Tensor &x, std::vector<int64_t> shape,
                         std::source_location loc) {
  OpAttrs attrs;
  attrs.shape = std::move(shape);
  return dispatch(OpKind::BroadcastTo, &x, 1, attrs, loc);
}

Tensor tfc::broadcast_like(const Tensor &x, const Tensor &like,
                           std::source_location loc) {
  OpAttrs attrs;
  try {
    attrs.shape =
        kernels::broadcast_shapes("broadcast_like", x.shape(), like.shape());
  } catch (...) {
    rethrow_with_location(loc);
  }
  // Only a trace has dynamic (-1) dims; they need `like` as an operand.
  if (!std::count(attrs.shape.begin(), attrs.shape.end(), -1))
    return dispatch(OpKind::BroadcastTo, &x, 1, attrs, loc);
  Tensor both[2] = {x, like};
  return dispatch(OpKind::BroadcastTo, both, 2, attrs, loc);
}

Tensor tfc::concat(const std::vector<Tensor> &values, int64_t axis,
                   std::source_location loc) {
  if (values.empty())
    throw_invalid_argument("concat: needs at least one tensor, got none", loc);
  for (size_t i = 0; i < values.size(); ++i)
    if (!values[i].defined())
      throw_invalid_argument("concat: input " + std::to_string(i) +
                                 " is an undefined tensor (a "
                                 "default-constructed tfc::Tensor)",
                             loc);
  const Tensor &first = values.front();
  OpAttrs attrs;
  attrs.axis = normalizeAxis("concat", axis, first.rank(), first.shape(), loc);
  return dispatch(OpKind::Concat, values.data(), values.size(), attrs, loc);
}

Tensor tfc::slice(const Tensor &x, std::vector<int64_t> begin,
                  std::vector<int64_t> size, std::source_location loc) {
  requireDefined("slice", x, "input", loc);
  const std::vector<int64_t> &shape = x.shape();
  const size_t rank = shape.size();
  auto fail = [&](const std::string &why) {
    throw_invalid_argument("slice: begin " + list_to_string(begin) +
                               " and size " + list_to_string(size) + " " + why +
                               " for shape " + shape_to_string(shape),
                           loc);
  };
  if (begin.size() != rank || size.size() != rank)
    fail("must each have one entry per dim (" + std::to_string(rank) + ")");
  OpAttrs attrs;
  attrs.begin = begin;
  attrs.shape = size;
  for (size_t i = 0; i < rank; ++i) {
    if (begin[i] < 0 || begin[i] > shape[i])
      fail("start outside the tensor in dim " + std::to_string(i));
    if (size[i] == -1)
      attrs.shape[i] = shape[i] - begin[i];
    else if (size[i] < 0 || size[i] > shape[i] - begin[i]) // no overflow
      fail("reach outside the tensor in dim " + std::to_string(i));
  }
  return dispatch(OpKind::Slice, &x, 1, attrs, loc);
}

// --- Linear algebra, reductions, nn ------------------------------------------

Tensor tfc::matmul(const Tensor &a, const Tensor &b, std::source_location loc) {
  return binary(OpKind::Matmul, a, b, noAttrs, loc);
}

Tensor tfc::reduce_sum(const Tensor &x, std::vector<int64_t> axes,
                       bool keepdims, std::source_location loc) {
  return reduce(OpKind::ReduceSum, "reduce_sum", x, std::move(axes), keepdims,
                loc);
}
Tensor tfc::reduce_mean(const Tensor &x, std::vector<int64_t> axes,
                        bool keepdims, std::source_location loc) {
  return reduce(OpKind::ReduceMean, "reduce_mean", x, std::move(axes), keepdims,
                loc);
}
Tensor tfc::reduce_max(const Tensor &x, std::vector<int64_t> axes,
                       bool keepdims, std::source_location loc) {
  return reduce(OpKind::ReduceMax, "reduce_max", x, std::move(axes), keepdims,
                loc);
}
Tensor tfc::reduce_min(const Tensor &x, std::vector<int64_t> axes,
                       bool keepdims, std::source_location loc) {
  return reduce(OpKind::ReduceMin, "reduce_min", x, std::move(axes), keepdims,
                loc);
}
Tensor tfc::reduce_prod(const Tensor &x, std::vector<int64_t> axes,
                        bool keepdims, std::source_location loc) {
  return reduce(OpKind::ReduceProd, "reduce_prod", x, std::move(axes), keepdims,
                loc);
}

Tensor tfc::argmax(const Tensor &x, int64_t axis, std::source_location loc) {
  return singleAxis(OpKind::Argmax, "argmax", x, axis, loc);
}
Tensor tfc::softmax(const Tensor &x, int64_t axis, std::source_location loc) {
  return singleAxis(OpKind::Softmax, "softmax", x, axis, loc);
}
Tensor tfc::log_softmax(const Tensor &x, int64_t axis,
                        std::source_location loc) {
  return singleAxis(OpKind::LogSoftmax, "log_softmax", x, axis, loc);
}

Tensor tfc::softmax_cross_entropy_with_logits(const Tensor &labels,
                                              const Tensor &logits,
                                              std::source_location loc) {
  return binary(OpKind::SoftmaxCrossEntropy, labels, logits, noAttrs, loc);
}

Tensor tfc::one_hot(const Tensor &indices, int64_t depth, DType dtype,
                    std::source_location loc) {
  if (depth < 0)
    throw_invalid_argument(
        "one_hot: depth must be >= 0, got " + std::to_string(depth), loc);
  OpAttrs attrs;
  attrs.depth = depth;
  attrs.dtype = dtype;
  return dispatch(OpKind::OneHot, &indices, 1, attrs, loc);
}

Tensor tfc::sparse_softmax_cross_entropy_with_logits(const Tensor &labels,
                                                     const Tensor &logits,
                                                     std::source_location loc) {
  Tensor in[2] = {labels, logits};
  return dispatch(OpKind::SparseSoftmaxCrossEntropy, in, 2, OpAttrs{}, loc);
}

Tensor tfc::cumsum(const Tensor &x, int64_t axis, bool exclusive, bool reverse,
                   std::source_location loc) {
  int64_t rank = x.rank();
  if (axis < -rank || axis >= rank)
    throw_invalid_argument("cumsum: axis " + std::to_string(axis) +
                               " is out of range for shape " +
                               shape_to_string(x.shape()),
                           loc);
  OpAttrs attrs;
  attrs.axis = axis < 0 ? axis + rank : axis;
  attrs.exclusive = exclusive;
  attrs.reverse = reverse;
  return dispatch(OpKind::Cumsum, &x, 1, attrs, loc);
}

Tensor tfc::gather(const Tensor &params, const Tensor &indices, int64_t axis,
                   std::source_location loc) {
  OpAttrs attrs;
  int64_t rank = params.rank();
  if (rank == 0)
    throw_invalid_argument(
        "gather: params must have rank >= 1, got shape () (" +
            std::string(to_string(params.dtype())) + ")",
        loc);
  if (axis < -rank || axis >= rank)
    throw_invalid_argument("gather: axis " + std::to_string(axis) +
                               " is out of range for params of shape " +
                               shape_to_string(params.shape()),
                           loc);
  attrs.axis = axis < 0 ? axis + rank : axis;
  Tensor in[2] = {params, indices};
  return dispatch(OpKind::Gather, in, 2, attrs, loc);
}

Tensor tfc::unsorted_segment_sum(const Tensor &data, const Tensor &segment_ids,
                                 int64_t num_segments,
                                 std::source_location loc) {
  if (num_segments < 0)
    throw_invalid_argument("unsorted_segment_sum: num_segments must be >= 0, "
                           "got " +
                               std::to_string(num_segments),
                           loc);
  OpAttrs attrs;
  attrs.num_segments = num_segments;
  Tensor in[2] = {data, segment_ids};
  return dispatch(OpKind::UnsortedSegmentSum, in, 2, attrs, loc);
}

namespace {
OpAttrs windowAttrs(std::array<int64_t, 2> strides, Padding padding,
                    std::array<int64_t, 2> dilations) {
  OpAttrs attrs;
  attrs.strides.assign(strides.begin(), strides.end());
  attrs.dilations.assign(dilations.begin(), dilations.end());
  attrs.padding = padding;
  return attrs;
}
} // namespace

Tensor tfc::conv2d(const Tensor &input, const Tensor &filters,
                   std::array<int64_t, 2> strides, Padding padding,
                   std::array<int64_t, 2> dilations, std::source_location loc) {
  OpAttrs attrs = windowAttrs(strides, padding, dilations);
  Tensor in[2] = {input, filters};
  return dispatch(OpKind::Conv2D, in, 2, attrs, loc);
}

Tensor tfc::conv2d_backprop_input(const std::vector<int64_t> &input_shape,
                                  const Tensor &filters, const Tensor &dy,
                                  std::array<int64_t, 2> strides,
                                  Padding padding,
                                  std::array<int64_t, 2> dilations,
                                  std::source_location loc) {
  OpAttrs attrs = windowAttrs(strides, padding, dilations);
  attrs.shape = input_shape;
  Tensor in[2] = {filters, dy};
  return dispatch(OpKind::Conv2DBackpropInput, in, 2, attrs, loc);
}

Tensor tfc::conv2d_backprop_filter(
    const Tensor &input, const std::vector<int64_t> &filter_shape,
    const Tensor &dy, std::array<int64_t, 2> strides, Padding padding,
    std::array<int64_t, 2> dilations, std::source_location loc) {
  OpAttrs attrs = windowAttrs(strides, padding, dilations);
  attrs.shape = filter_shape;
  Tensor in[2] = {input, dy};
  return dispatch(OpKind::Conv2DBackpropFilter, in, 2, attrs, loc);
}

namespace {
OpAttrs poolAttrs(std::array<int64_t, 2> ksize, std::array<int64_t, 2> strides,
                  Padding padding) {
  OpAttrs attrs;
  attrs.ksize.assign(ksize.begin(), ksize.end());
  attrs.strides.assign(strides.begin(), strides.end());
  attrs.padding = padding;
  return attrs;
}
} // namespace

Tensor tfc::max_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                       std::array<int64_t, 2> strides, Padding padding,
                       std::source_location loc) {
  OpAttrs attrs = poolAttrs(ksize, strides, padding);
  return dispatch(OpKind::MaxPool2D, &input, 1, attrs, loc);
}

Tensor tfc::avg_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                       std::array<int64_t, 2> strides, Padding padding,
                       std::source_location loc) {
  OpAttrs attrs = poolAttrs(ksize, strides, padding);
  return dispatch(OpKind::AvgPool2D, &input, 1, attrs, loc);
}

Tensor tfc::max_pool2d_grad(const Tensor &input, const Tensor &dy,
                            std::array<int64_t, 2> ksize,
                            std::array<int64_t, 2> strides, Padding padding,
                            std::source_location loc) {
  OpAttrs attrs = poolAttrs(ksize, strides, padding);
  Tensor in[2] = {input, dy};
  return dispatch(OpKind::MaxPool2DGrad, in, 2, attrs, loc);
}

Tensor tfc::max_pool2d_grad_grad(const Tensor &input, const Tensor &grad,
                                 std::array<int64_t, 2> ksize,
                                 std::array<int64_t, 2> strides,
                                 Padding padding, std::source_location loc) {
  OpAttrs attrs = poolAttrs(ksize, strides, padding);
  Tensor in[2] = {input, grad};
  return dispatch(OpKind::MaxPool2DGradGrad, in, 2, attrs, loc);
}

Tensor tfc::avg_pool2d_grad(const std::vector<int64_t> &input_shape,
                            const Tensor &dy, std::array<int64_t, 2> ksize,
                            std::array<int64_t, 2> strides, Padding padding,
                            std::source_location loc) {
  OpAttrs attrs = poolAttrs(ksize, strides, padding);
  attrs.shape = input_shape;
  return dispatch(OpKind::AvgPool2DGrad, &dy, 1, attrs, loc);
}

// --- Operators ---------------------------------------------------------------
// No location: operators cannot have default arguments.

Tensor tfc::operator+(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Add, a, b, noAttrs, {});
}
Tensor tfc::operator-(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Sub, a, b, noAttrs, {});
}
Tensor tfc::operator*(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Mul, a, b, noAttrs, {});
}
Tensor tfc::operator/(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Div, a, b, noAttrs, {});
}
Tensor tfc::operator%(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Mod, a, b, noAttrs, {});
}
Tensor tfc::operator-(const Tensor &x) { return unary(OpKind::Neg, x, {}); }
Tensor tfc::operator==(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Cmp, a, b, eqAttrs, {});
}
Tensor tfc::operator!=(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Cmp, a, b, neAttrs, {});
}
Tensor tfc::operator<(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Cmp, a, b, ltAttrs, {});
}
Tensor tfc::operator<=(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Cmp, a, b, leAttrs, {});
}
Tensor tfc::operator>(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Cmp, a, b, gtAttrs, {});
}
Tensor tfc::operator>=(const Tensor &a, const Tensor &b) {
  return binary(OpKind::Cmp, a, b, geAttrs, {});
}
Tensor tfc::operator&(const Tensor &a, const Tensor &b) {
  return binary(OpKind::LogicalAnd, a, b, noAttrs, {});
}
Tensor tfc::operator|(const Tensor &a, const Tensor &b) {
  return binary(OpKind::LogicalOr, a, b, noAttrs, {});
}
Tensor tfc::operator~(const Tensor &x) {
  return unary(OpKind::LogicalNot, x, {});
}
Tensor tfc::operator!(const Tensor &x) {
  return unary(OpKind::LogicalNot, x, {});
}
