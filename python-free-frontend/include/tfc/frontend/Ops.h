//===- Ops.h - The tensor ops of the public API -----------------*- C++ -*-===//
//
// Free functions in TensorFlow's names, and the C++ operators. Every function
// runs eagerly (or is traced inside `tfc::function`) through
// `detail::dispatch`, and takes a trailing defaulted `std::source_location` so
// that errors say where in the user's code they happened:
//   add: incompatible shapes (2, 3) and (4,) (float32 vs float32)
//   (at model.cpp:42)
//
// Broadcasting: binary ops and `where` follow NumPy's rules. Operands of a
// binary op must share a dtype (use `cast`); a C++ scalar next to a tensor
// (`x * 2`, `1 + x`, `x == 3`) takes the tensor's dtype, and must be exactly
// representable in it when that dtype is an integer or bool (so `x * 2.5`
// with an int32 `x` throws instead of silently truncating).
//
// Axes may be negative (counting from the end); out-of-range axes throw
// InvalidArgumentError naming the op, the axis and the shape.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_OPS_H
#define TFC_FRONTEND_OPS_H

#include "tfc/runtime/ConvGeometry.h"
#include "tfc/runtime/Tensor.h"

#include <array>
#include <concepts>
#include <source_location>
#include <type_traits>
#include <utility>
#include <vector>

namespace tfc {

/// A C++ arithmetic type usable next to a tensor (int, float, double, bool...).
template <class S>
concept Scalar = std::is_arithmetic_v<S>;

namespace detail {
/// A rank-0 tensor with the dtype of `like` holding `value`. Throws
/// InvalidArgumentError (naming `op`) if `like` is undefined, or if `value`
/// is not exactly representable in an integer or bool dtype. Integers are
/// passed as int64/uint64 so that large literals stay exact.
Tensor scalar_like(const char *op, const Tensor &like, double value,
                   const std::source_location &loc);
Tensor scalar_like(const char *op, const Tensor &like, int64_t value,
                   const std::source_location &loc);
Tensor scalar_like(const char *op, const Tensor &like, uint64_t value,
                   const std::source_location &loc);
template <Scalar S>
Tensor scalar_like(const char *op, const Tensor &like, S value,
                   const std::source_location &loc) {
  if constexpr (std::is_floating_point_v<S>)
    return scalar_like(op, like, static_cast<double>(value), loc);
  else if constexpr (std::is_unsigned_v<S> && !std::is_same_v<S, bool>)
    return scalar_like(op, like, static_cast<uint64_t>(value), loc);
  else
    return scalar_like(op, like, static_cast<int64_t>(value), loc);
}
} // namespace detail

// --- Binary elementwise ops --------------------------------------------------
// Each takes two tensors of one dtype that broadcast together, or a tensor and
// a C++ scalar on either side (the scalar takes the tensor's dtype).
/// a + b (int32, int64, float32, float64).
Tensor add(const Tensor &a, const Tensor &b,
           std::source_location loc = std::source_location::current());
/// a - b (int32, int64, float32, float64).
Tensor sub(const Tensor &a, const Tensor &b,
           std::source_location loc = std::source_location::current());
/// a * b (int32, int64, float32, float64).
Tensor mul(const Tensor &a, const Tensor &b,
           std::source_location loc = std::source_location::current());
/// a / b; float32 and float64 only (use floor_div for integers).
Tensor div(const Tensor &a, const Tensor &b,
           std::source_location loc = std::source_location::current());
/// a raised to the power b (int32, int64, float32, float64).
Tensor pow(const Tensor &a, const Tensor &b,
           std::source_location loc = std::source_location::current());
/// Elementwise max(a, b).
Tensor maximum(const Tensor &a, const Tensor &b,
               std::source_location loc = std::source_location::current());
/// Elementwise min(a, b).
Tensor minimum(const Tensor &a, const Tensor &b,
               std::source_location loc = std::source_location::current());
/// floor(a / b), rounding toward negative infinity as Python
/// does: floor_div(-7, 2) == -4. Integer division by zero throws.
Tensor floor_div(const Tensor &a, const Tensor &b,
                 std::source_location loc = std::source_location::current());
/// Python's modulo a - floor_div(a, b) * b; the sign follows b:
/// mod(-7, 2) == 1, mod(7, -2) == -1. Also for floats.
Tensor mod(const Tensor &a, const Tensor &b,
           std::source_location loc = std::source_location::current());

// --- Comparison and logic ----------------------------------------------------
/// a == b elementwise (any dtype); Bool result.
Tensor equal(const Tensor &a, const Tensor &b,
             std::source_location loc = std::source_location::current());
/// a != b elementwise (any dtype); Bool result.
Tensor not_equal(const Tensor &a, const Tensor &b,
                 std::source_location loc = std::source_location::current());
/// a < b elementwise (numeric dtypes); Bool result.
Tensor less(const Tensor &a, const Tensor &b,
            std::source_location loc = std::source_location::current());
/// a <= b elementwise (numeric dtypes); Bool result.
Tensor less_equal(const Tensor &a, const Tensor &b,
                  std::source_location loc = std::source_location::current());
/// a > b elementwise (numeric dtypes); Bool result.
Tensor greater(const Tensor &a, const Tensor &b,
               std::source_location loc = std::source_location::current());
/// a >= b elementwise (numeric dtypes); Bool result.
Tensor
greater_equal(const Tensor &a, const Tensor &b,
              std::source_location loc = std::source_location::current());
/// a AND b elementwise; both Bool.
Tensor logical_and(const Tensor &a, const Tensor &b,
                   std::source_location loc = std::source_location::current());
/// a OR b elementwise; both Bool.
Tensor logical_or(const Tensor &a, const Tensor &b,
                  std::source_location loc = std::source_location::current());

// The scalar overloads of the binary ops above.
#define TFC_DECLARE_SCALAR_OVERLOADS(NAME)                                     \
  template <Scalar S>                                                          \
  Tensor NAME(const Tensor &a, S b,                                            \
              std::source_location loc = std::source_location::current()) {    \
    return NAME(a, detail::scalar_like(#NAME, a, b, loc), loc);                \
  }                                                                            \
  template <Scalar S>                                                          \
  Tensor NAME(S a, const Tensor &b,                                            \
              std::source_location loc = std::source_location::current()) {    \
    return NAME(detail::scalar_like(#NAME, b, a, loc), b, loc);                \
  }
TFC_DECLARE_SCALAR_OVERLOADS(add)
TFC_DECLARE_SCALAR_OVERLOADS(sub)
TFC_DECLARE_SCALAR_OVERLOADS(mul)
TFC_DECLARE_SCALAR_OVERLOADS(div)
TFC_DECLARE_SCALAR_OVERLOADS(pow)
TFC_DECLARE_SCALAR_OVERLOADS(maximum)
TFC_DECLARE_SCALAR_OVERLOADS(minimum)
TFC_DECLARE_SCALAR_OVERLOADS(floor_div)
TFC_DECLARE_SCALAR_OVERLOADS(mod)
TFC_DECLARE_SCALAR_OVERLOADS(equal)
TFC_DECLARE_SCALAR_OVERLOADS(not_equal)
TFC_DECLARE_SCALAR_OVERLOADS(less)
TFC_DECLARE_SCALAR_OVERLOADS(less_equal)
TFC_DECLARE_SCALAR_OVERLOADS(greater)
TFC_DECLARE_SCALAR_OVERLOADS(greater_equal)
TFC_DECLARE_SCALAR_OVERLOADS(logical_and)
TFC_DECLARE_SCALAR_OVERLOADS(logical_or)
#undef TFC_DECLARE_SCALAR_OVERLOADS

/// NOT x; x must be Bool.
Tensor logical_not(const Tensor &x,
                   std::source_location loc = std::source_location::current());

/// Elementwise `cond ? a : b`; `cond` is Bool, `a` and `b` share a dtype, and
/// all three broadcast together (NumPy rules).
Tensor where(const Tensor &cond, const Tensor &a, const Tensor &b,
             std::source_location loc = std::source_location::current());
/// `where` with a C++ scalar for `b`, taking the dtype of `a`.
template <Scalar S>
Tensor where(const Tensor &cond, const Tensor &a, S b,
             std::source_location loc = std::source_location::current()) {
  return where(cond, a, detail::scalar_like("where", a, b, loc), loc);
}
/// `where` with a C++ scalar for `a`, taking the dtype of `b`.
template <Scalar S>
Tensor where(const Tensor &cond, S a, const Tensor &b,
             std::source_location loc = std::source_location::current()) {
  return where(cond, detail::scalar_like("where", b, a, loc), b, loc);
}

// --- Unary math --------------------------------------------------------------
/// -x (int32 int64 float32 float64).
Tensor neg(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// |x| (int32 int64 float32 float64).
Tensor abs(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// e^x (float32 float64; cast integers first).
Tensor exp(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// Natural log (float32 float64).
Tensor log(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// log(1 + x), accurate near 0 (float32 float64).
Tensor log1p(const Tensor &x,
             std::source_location loc = std::source_location::current());
/// The largest integer not greater than x, as a float (float32 float64;
/// tf.math.floor). Not differentiable: a tape gives it no gradient.
Tensor floor(const Tensor &x,
             std::source_location loc = std::source_location::current());
/// The error function (float32 float64; tf.math.erf).
Tensor erf(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// Square root (float32 float64).
Tensor sqrt(const Tensor &x,
            std::source_location loc = std::source_location::current());
/// x * x (int32 int64 float32 float64).
Tensor square(const Tensor &x,
              std::source_location loc = std::source_location::current());
/// Sine (float32 float64).
Tensor sin(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// Cosine (float32 float64).
Tensor cos(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// Hyperbolic tangent (float32 float64).
Tensor tanh(const Tensor &x,
            std::source_location loc = std::source_location::current());
/// 1 / (1 + e^-x) (float32 float64).
Tensor sigmoid(const Tensor &x,
               std::source_location loc = std::source_location::current());
/// max(x, 0) (int32 int64 float32 float64).
Tensor relu(const Tensor &x,
            std::source_location loc = std::source_location::current());

/// `x` converted to `dtype` (C++ conversion: float -> int truncates toward
/// zero; anything -> bool is `x != 0`).
Tensor cast(const Tensor &x, DType dtype,
            std::source_location loc = std::source_location::current());

// --- Shape -------------------------------------------------------------------
/// The elements of `x` in a new shape with the same element count; one dim
/// may be -1 (inferred). Shares storage with `x`.
Tensor reshape(const Tensor &x, std::vector<int64_t> shape,
               std::source_location loc = std::source_location::current());
/// Permutes the dims: result dim i is `x` dim perm[i]. Empty perm reverses
/// the dims (a matrix transpose for rank 2).
Tensor transpose(const Tensor &x, std::vector<int64_t> perm = {},
                 std::source_location loc = std::source_location::current());
/// Inserts a size-1 dim at `axis`, in [-(rank+1), rank].
Tensor expand_dims(const Tensor &x, int64_t axis,
                   std::source_location loc = std::source_location::current());
/// Removes the listed size-1 dims (empty: every size-1 dim). Listing a dim
/// whose size is not 1 throws InvalidArgumentError.
Tensor squeeze(const Tensor &x, std::vector<int64_t> axes = {},
               std::source_location loc = std::source_location::current());
/// `x` broadcast to `shape` by NumPy's rules.
Tensor broadcast_to(const Tensor &x, std::vector<int64_t> shape,
                    std::source_location loc = std::source_location::current());
/// `x` broadcast to `broadcast_shapes(x.shape(), like.shape())`; only
/// `like`'s shape is read (never differentiated). Unlike broadcast_to with
/// `like.shape()`, a traced function with dynamic dims (reduce_retracing)
/// takes their sizes from `like` at run time: `broadcast_like(zeros({1, n}),
/// column)` is a zero state for any batch.
Tensor
broadcast_like(const Tensor &x, const Tensor &like,
               std::source_location loc = std::source_location::current());
/// Joins tensors of one rank and dtype along `axis`; the other dims must
/// match. At least one tensor.
Tensor concat(const std::vector<Tensor> &values, int64_t axis,
              std::source_location loc = std::source_location::current());
/// The block starting at `begin` with extent `size` per dim (size -1: to the
/// end of that dim), like tf.slice. The block must lie inside `x`.
Tensor slice(const Tensor &x, std::vector<int64_t> begin,
             std::vector<int64_t> size,
             std::source_location loc = std::source_location::current());

// --- Linear algebra ----------------------------------------------------------
/// Matrix product: a (m, k) x b (k, n) -> (m, n); for rank > 2 the leading
/// (batch) dims must be equal. int32 int64 float32 float64.
Tensor matmul(const Tensor &a, const Tensor &b,
              std::source_location loc = std::source_location::current());

// --- Reductions --------------------------------------------------------------
// `axes` empty: reduce over every axis. Negative axes count from the end;
// listing an axis twice is an error. `keepdims` keeps reduced dims as size 1.
/// Sum over `axes`.
Tensor reduce_sum(const Tensor &x, std::vector<int64_t> axes = {},
                  bool keepdims = false,
                  std::source_location loc = std::source_location::current());
/// Mean over `axes`; integer means truncate toward zero, like
/// TensorFlow.
Tensor reduce_mean(const Tensor &x, std::vector<int64_t> axes = {},
                   bool keepdims = false,
                   std::source_location loc = std::source_location::current());
/// Maximum over `axes`; reducing an empty set throws.
Tensor reduce_max(const Tensor &x, std::vector<int64_t> axes = {},
                  bool keepdims = false,
                  std::source_location loc = std::source_location::current());
/// Minimum over `axes`; reducing an empty set throws.
Tensor reduce_min(const Tensor &x, std::vector<int64_t> axes = {},
                  bool keepdims = false,
                  std::source_location loc = std::source_location::current());
/// Product over `axes`.
Tensor reduce_prod(const Tensor &x, std::vector<int64_t> axes = {},
                   bool keepdims = false,
                   std::source_location loc = std::source_location::current());

// Single-axis overloads: reduce_sum(x, 1). A template, so that `{}` still
// means "all axes" rather than axis 0.
#define TFC_DECLARE_SINGLE_AXIS(NAME)                                          \
  template <std::integral I>                                                   \
  requires(!std::same_as<I, bool>) Tensor NAME(                                \
      const Tensor &x, I axis, bool keepdims = false,                          \
      std::source_location loc = std::source_location::current()) {            \
    return NAME(x, std::vector<int64_t>{static_cast<int64_t>(axis)}, keepdims, \
                loc);                                                          \
  }
TFC_DECLARE_SINGLE_AXIS(reduce_sum)
TFC_DECLARE_SINGLE_AXIS(reduce_mean)
TFC_DECLARE_SINGLE_AXIS(reduce_max)
TFC_DECLARE_SINGLE_AXIS(reduce_min)
TFC_DECLARE_SINGLE_AXIS(reduce_prod)
#undef TFC_DECLARE_SINGLE_AXIS

/// Index (int64) of the first maximum along `axis`.
Tensor argmax(const Tensor &x, int64_t axis,
              std::source_location loc = std::source_location::current());

// --- Neural-network helpers --------------------------------------------------
/// exp(x) / sum(exp(x)) along `axis` (float32 float64), computed stably.
Tensor softmax(const Tensor &x, int64_t axis = -1,
               std::source_location loc = std::source_location::current());
/// x - log(sum(exp(x))) along `axis`, computed stably.
Tensor log_softmax(const Tensor &x, int64_t axis = -1,
                   std::source_location loc = std::source_location::current());
/// Per-example cross entropy over the last axis:
/// -sum(labels * log_softmax(logits), -1). Same shapes and dtype.
Tensor softmax_cross_entropy_with_logits(
    const Tensor &labels, const Tensor &logits,
    std::source_location loc = std::source_location::current());
/// `indices` (int32 or int64) as one-hot vectors of length `depth` on a new
/// last axis; indices outside [0, depth) give all-zero rows (as TensorFlow).
Tensor one_hot(const Tensor &indices, int64_t depth,
               DType dtype = DType::Float32,
               std::source_location loc = std::source_location::current());
/// tf.nn.sparse_softmax_cross_entropy_with_logits: per example
/// logsumexp(logits) - logits[label] over the last dim (stable: the maximum
/// subtracted first). `labels` int32/int64 shaped like logits without the
/// last dim; a label outside [0, classes) raises InvalidArgumentError,
/// eagerly and in compiled code.
Tensor sparse_softmax_cross_entropy_with_logits(
    const Tensor &labels, const Tensor &logits,
    std::source_location loc = std::source_location::current());
/// tf.math.cumsum: running sums along `axis` (negative counts from the
/// end); `exclusive` leaves out the element itself, `reverse` sums from the
/// end. Numeric dtypes.
Tensor cumsum(const Tensor &x, int64_t axis, bool exclusive = false,
              bool reverse = false,
              std::source_location loc = std::source_location::current());
/// tf.math.top_k (sorted): the k largest elements of each row of the last
/// dim, largest first, and their int32 indices; equal values in index
/// order, NaN larger than any number. Gradients flow to the picked values.
std::pair<Tensor, Tensor>
top_k(const Tensor &x, int64_t k,
      std::source_location loc = std::source_location::current());
/// tf.reverse: `x` with the order of each dim in `axes` reversed (negative
/// axes count from the end). Static dims.
Tensor reverse(const Tensor &x, std::vector<int64_t> axes,
               std::source_location loc = std::source_location::current());
/// tf.nn.gelu: x * Phi(x) with Phi the standard normal CDF (via erf);
/// `approximate` uses TensorFlow's tanh form.
Tensor gelu(const Tensor &x, bool approximate = false,
            std::source_location loc = std::source_location::current());
/// tf.gather(params, indices, axis): slices of `params` along `axis` picked
/// by `indices` (int32 or int64); the result has shape params.shape[:axis] +
/// indices.shape + params.shape[axis + 1:]. A negative axis counts from the
/// end. An index outside [0, params.shape[axis]) raises InvalidArgumentError
/// (as TensorFlow on the CPU), eagerly and in compiled code. The gradient
/// with respect to `params` is an unsorted_segment_sum.
Tensor gather(const Tensor &params, const Tensor &indices, int64_t axis = 0,
              std::source_location loc = std::source_location::current());
/// tf.math.unsorted_segment_sum: row s of the result (shape [num_segments] +
/// data.shape[rank(segment_ids):]) sums the slices data[i...] whose
/// segment_ids[i...] == s; segment_ids' shape is a prefix of data's. A
/// negative id drops its slice; an id >= num_segments raises.
Tensor unsorted_segment_sum(
    const Tensor &data, const Tensor &segment_ids, int64_t num_segments,
    std::source_location loc = std::source_location::current());
/// tf.nn.conv2d: `input` NHWC (batch, height, width, channels), `filters`
/// HWIO (height, width, in channels, out channels), one float dtype.
/// VALID keeps every window inside the input; SAME pads with zeros so that
/// the output is ceil(input / stride) (the smaller half of the padding
/// before). Strides and dilations are (height, width), each at least 1.
Tensor conv2d(const Tensor &input, const Tensor &filters,
              std::array<int64_t, 2> strides = {1, 1},
              Padding padding = Padding::Valid,
              std::array<int64_t, 2> dilations = {1, 1},
              std::source_location loc = std::source_location::current());
/// The gradient of `conv2d` with respect to its input (of shape
/// `input_shape`), given the filters and the gradient `dy` of its result
/// (tf.nn.conv2d_backprop_input; `conv2d`'s gradient rule).
Tensor conv2d_backprop_input(
    const std::vector<int64_t> &input_shape, const Tensor &filters,
    const Tensor &dy, std::array<int64_t, 2> strides = {1, 1},
    Padding padding = Padding::Valid, std::array<int64_t, 2> dilations = {1, 1},
    std::source_location loc = std::source_location::current());
/// The gradient of `conv2d` with respect to its filters (of shape
/// `filter_shape`), given the input and `dy`
/// (tf.nn.conv2d_backprop_filter).
Tensor conv2d_backprop_filter(
    const Tensor &input, const std::vector<int64_t> &filter_shape,
    const Tensor &dy, std::array<int64_t, 2> strides = {1, 1},
    Padding padding = Padding::Valid, std::array<int64_t, 2> dilations = {1, 1},
    std::source_location loc = std::source_location::current());
/// tf.nn.max_pool2d on an NHWC float tensor: the maximum of each `ksize`
/// window moved by `strides` (height, width). SAME padding never wins.
Tensor max_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                  std::array<int64_t, 2> strides,
                  Padding padding = Padding::Valid,
                  std::source_location loc = std::source_location::current());
/// tf.nn.avg_pool2d: the mean of each window's elements inside the input
/// (SAME padding is not counted).
Tensor avg_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                  std::array<int64_t, 2> strides,
                  Padding padding = Padding::Valid,
                  std::source_location loc = std::source_location::current());
/// max_pool2d's gradient: each element of `dy` goes to the first maximum
/// of its window of `input` (row-major within the window).
Tensor
max_pool2d_grad(const Tensor &input, const Tensor &dy,
                std::array<int64_t, 2> ksize, std::array<int64_t, 2> strides,
                Padding padding = Padding::Valid,
                std::source_location loc = std::source_location::current());
/// The gradient of max_pool2d_grad with respect to its dy: `grad` (shaped
/// like `input`) read at each window's first maximum.
Tensor max_pool2d_grad_grad(
    const Tensor &input, const Tensor &grad, std::array<int64_t, 2> ksize,
    std::array<int64_t, 2> strides, Padding padding = Padding::Valid,
    std::source_location loc = std::source_location::current());
/// avg_pool2d's gradient for an input of `input_shape`.
Tensor
avg_pool2d_grad(const std::vector<int64_t> &input_shape, const Tensor &dy,
                std::array<int64_t, 2> ksize, std::array<int64_t, 2> strides,
                Padding padding = Padding::Valid,
                std::source_location loc = std::source_location::current());
// --- Compositions (ops/lib/CompositeOps.cpp)
// ---------------------------------- Written with the ops above, as TensorFlow
// writes these: eager, traced and differentiated like the ops they are made of.

/// min(max(x, lo), hi); lo <= hi.
Tensor
clip_by_value(const Tensor &x, double lo, double hi,
              std::source_location loc = std::source_location::current());
/// Joins tensors of one shape and dtype along a new axis.
Tensor stack(const std::vector<Tensor> &values, int64_t axis = 0,
             std::source_location loc = std::source_location::current());
/// The slices of `x` along `axis`, that axis removed.
std::vector<Tensor>
unstack(const Tensor &x, int64_t axis = 0,
        std::source_location loc = std::source_location::current());
/// Consecutive pieces of `sizes` along `axis` (one -1: the rest).
std::vector<Tensor>
split(const Tensor &x, std::vector<int64_t> sizes, int64_t axis = 0,
      std::source_location loc = std::source_location::current());
/// `x` with (before, after) elements of `constant_value` around each dim.
Tensor pad(const Tensor &x, std::vector<std::pair<int64_t, int64_t>> paddings,
           double constant_value = 0,
           std::source_location loc = std::source_location::current());
/// `x` repeated `multiples[d]` times along each dim d.
Tensor tile(const Tensor &x, std::vector<int64_t> multiples,
            std::source_location loc = std::source_location::current());
/// matmul of `a` and `b`, each with its last two dims swapped first when
/// its flag says so (tf.linalg.matmul's transpose_a / transpose_b).
Tensor matmul(const Tensor &a, const Tensor &b, bool transpose_a,
              bool transpose_b,
              std::source_location loc = std::source_location::current());
/// Int64 index of the first minimum along `axis` (as argmax).
Tensor argmin(const Tensor &x, int64_t axis,
              std::source_location loc = std::source_location::current());
/// Whether any / every element of a bool tensor is true over `axes` (empty:
/// all); false / true for no element, as TensorFlow.
Tensor reduce_any(const Tensor &x, std::vector<int64_t> axes = {},
                  bool keepdims = false,
                  std::source_location loc = std::source_location::current());
Tensor reduce_all(const Tensor &x, std::vector<int64_t> axes = {},
                  bool keepdims = false,
                  std::source_location loc = std::source_location::current());
/// x where x > 0, alpha * x elsewhere.
Tensor leaky_relu(const Tensor &x, double alpha = 0.2,
                  std::source_location loc = std::source_location::current());
/// x where x > 0, exp(x) - 1 elsewhere.
Tensor elu(const Tensor &x,
           std::source_location loc = std::source_location::current());
/// log(1 + exp(x)), finite for every x.
Tensor softplus(const Tensor &x,
                std::source_location loc = std::source_location::current());
/// 1 / x and 1 / sqrt(x).
Tensor reciprocal(const Tensor &x,
                  std::source_location loc = std::source_location::current());
Tensor rsqrt(const Tensor &x,
             std::source_location loc = std::source_location::current());
/// -1, 0 or 1 (0, -0 and NaN kept); no gradient flows.
Tensor sign(const Tensor &x,
            std::source_location loc = std::source_location::current());
/// Rounding up, and to the nearest integer with halves to even.
Tensor ceil(const Tensor &x,
            std::source_location loc = std::source_location::current());
Tensor round(const Tensor &x,
             std::source_location loc = std::source_location::current());

/// `x` itself, but gradients do not flow through it.
Tensor
stop_gradient(const Tensor &x,
              std::source_location loc = std::source_location::current());

// --- Operators ---------------------------------------------------------------
// Operators cannot carry a source location, so their errors name the op but not
// the line; use the named functions where that matters.
Tensor operator+(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &a, const Tensor &b);
Tensor operator*(const Tensor &a, const Tensor &b);
Tensor operator/(const Tensor &a, const Tensor &b);
Tensor operator%(const Tensor &a, const Tensor &b);
Tensor operator-(const Tensor &x);
/// Comparisons give Bool tensors (not C++ bools): use `.item<bool>()` to
/// drive C++ control flow, or `tfc::cond` / `tfc::where`.
Tensor operator==(const Tensor &a, const Tensor &b);
Tensor operator!=(const Tensor &a, const Tensor &b);
Tensor operator<(const Tensor &a, const Tensor &b);
Tensor operator<=(const Tensor &a, const Tensor &b);
Tensor operator>(const Tensor &a, const Tensor &b);
Tensor operator>=(const Tensor &a, const Tensor &b);
/// Elementwise logic on Bool tensors (TensorFlow's `&`, `|`, `~`).
Tensor operator&(const Tensor &a, const Tensor &b);
Tensor operator|(const Tensor &a, const Tensor &b);
Tensor operator~(const Tensor &x);
Tensor operator!(const Tensor &x);

#define TFC_DECLARE_SCALAR_OPERATOR(OP, FN)                                    \
  template <Scalar S> Tensor operator OP(const Tensor &a, S b) {               \
    return FN(a, detail::scalar_like(#FN, a, b, {}), {});                      \
  }                                                                            \
  template <Scalar S> Tensor operator OP(S a, const Tensor &b) {               \
    return FN(detail::scalar_like(#FN, b, a, {}), b, {});                      \
  }
TFC_DECLARE_SCALAR_OPERATOR(+, add)
TFC_DECLARE_SCALAR_OPERATOR(-, sub)
TFC_DECLARE_SCALAR_OPERATOR(*, mul)
TFC_DECLARE_SCALAR_OPERATOR(/, div)
TFC_DECLARE_SCALAR_OPERATOR(%, mod)
TFC_DECLARE_SCALAR_OPERATOR(==, equal)
TFC_DECLARE_SCALAR_OPERATOR(!=, not_equal)
TFC_DECLARE_SCALAR_OPERATOR(<, less)
TFC_DECLARE_SCALAR_OPERATOR(<=, less_equal)
TFC_DECLARE_SCALAR_OPERATOR(>, greater)
TFC_DECLARE_SCALAR_OPERATOR(>=, greater_equal)
TFC_DECLARE_SCALAR_OPERATOR(&, logical_and)
TFC_DECLARE_SCALAR_OPERATOR(|, logical_or)
#undef TFC_DECLARE_SCALAR_OPERATOR

/// Compound assignment rebinds the handle (`x += 1` is `x = x + 1`); the old
/// value is unchanged, as tensors are immutable.
#define TFC_DECLARE_COMPOUND_OPERATOR(OP)                                      \
  inline Tensor &operator OP##=(Tensor &a, const Tensor &b) {                  \
    return a = a OP b;                                                         \
  }                                                                            \
  template <Scalar S> Tensor &operator OP##=(Tensor &a, S b) {                 \
    return a = a OP b;                                                         \
  }
TFC_DECLARE_COMPOUND_OPERATOR(+)
TFC_DECLARE_COMPOUND_OPERATOR(-)
TFC_DECLARE_COMPOUND_OPERATOR(*)
TFC_DECLARE_COMPOUND_OPERATOR(/)
TFC_DECLARE_COMPOUND_OPERATOR(%)
#undef TFC_DECLARE_COMPOUND_OPERATOR

} // namespace tfc

#endif // TFC_FRONTEND_OPS_H
