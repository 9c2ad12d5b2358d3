//===- Kernels.h - One runtime kernel per tfc op ----------------*- C++ -*-===//
//
// The eager API calls these directly (no IR is built on the eager path) and
// the interpreter calls them op by op. Each kernel validates its inputs and
// throws InvalidArgumentError whose message names the op, the shapes and the
// dtypes, e.g. "add: incompatible shapes (2, 3) and (4,) (float32, float32)".
// Binary kernels broadcast by NumPy's rules; operands must share a dtype.
// Inputs must be concrete (not symbolic) tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_KERNELS_H
#define TFC_RUNTIME_KERNELS_H

#include "tfc/runtime/Collectives.h"
#include "tfc/runtime/ConvGeometry.h"
#include "tfc/runtime/OpList.h"
#include "tfc/runtime/Tensor.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace tfc::kernels {

// --- Creation ----------------------------------------------------------------
Tensor full(const std::vector<int64_t> &shape, double value, DType dtype);
/// [start, limit) by delta; delta == 0 is an error.
Tensor range(int64_t start, int64_t limit, int64_t delta, DType dtype);
/// Deterministic for a given seed (std::mt19937_64).
Tensor random_uniform(const std::vector<int64_t> &shape, double lo, double hi,
                      uint64_t seed, DType dtype);
Tensor random_normal(const std::vector<int64_t> &shape, double mean,
                     double stddev, uint64_t seed, DType dtype);

// --- Elementwise unary
// ----------------------------------------------------------- neg/abs/square:
// int32, int64, float32, float64. relu: same. exp log log1p sqrt sin cos tanh
// sigmoid: float32, float64 only.
// floor: float32, float64 (toward -inf). logical_not: bool only.
// One declaration per op of TFC_FOR_EACH_UNARY_ELEMENTWISE_OP (OpList.h).
#define TFC_DECLARE_UNARY_KERNEL(e, name) Tensor name(const Tensor &x);
TFC_FOR_EACH_UNARY_ELEMENTWISE_OP(TFC_DECLARE_UNARY_KERNEL)
#undef TFC_DECLARE_UNARY_KERNEL

// --- Elementwise binary (broadcasting, same dtype)
// ---------------------------- add sub mul maximum minimum floor_div mod pow:
// int32, int64, float32, float64. div: float32, float64. floor_div/mod follow
// Python's flooring rules; integer division by zero throws
// InvalidArgumentError.
// logical_and, logical_or: bool only.
// One declaration per op of TFC_FOR_EACH_BINARY_ELEMENTWISE_OP (OpList.h).
#define TFC_DECLARE_BINARY_KERNEL(e, name)                                     \
  Tensor name(const Tensor &a, const Tensor &b);
TFC_FOR_EACH_BINARY_ELEMENTWISE_OP(TFC_DECLARE_BINARY_KERNEL)
#undef TFC_DECLARE_BINARY_KERNEL

/// Comparison predicates, spelled as in the tfc dialect's `cmp` op.
enum class CmpPredicate { EQ, NE, LT, LE, GT, GE };
std::string_view to_string(CmpPredicate); ///< "eq", "ne", ...
/// Result dtype Bool. All dtypes (bool: eq/ne only).
Tensor compare(CmpPredicate pred, const Tensor &a, const Tensor &b);
/// `cond` must be Bool; a, b same dtype; all three broadcast together.
Tensor select(const Tensor &cond, const Tensor &a, const Tensor &b);
/// Any dtype to any dtype (C++ conversion; float->int truncates; x->bool is x
/// != 0).
Tensor cast(const Tensor &x, DType dtype);

// --- Shape ops -------------------------------------------------------------
/// NumPy broadcasting of `x` to `shape`.
Tensor broadcast_to(const Tensor &x, const std::vector<int64_t> &shape);
/// The broadcast shape of two shapes, or InvalidArgumentError naming `op`.
std::vector<int64_t> broadcast_shapes(std::string_view op,
                                      const std::vector<int64_t> &a,
                                      const std::vector<int64_t> &b);
/// One -1 allowed; shares storage with `x` (no copy).
Tensor reshape(const Tensor &x, const std::vector<int64_t> &shape);
/// Empty perm reverses the dims.
Tensor transpose(const Tensor &x, const std::vector<int64_t> &perm);
/// axis in [-(rank+1), rank].
Tensor expand_dims(const Tensor &x, int64_t axis);
/// Empty axes: all size-1 dims. A listed dim that is not 1 is an error.
Tensor squeeze(const Tensor &x, const std::vector<int64_t> &axes);
Tensor concat(const std::vector<Tensor> &xs, int64_t axis);
/// size -1 means "to the end".
Tensor slice(const Tensor &x, const std::vector<int64_t> &begin,
             const std::vector<int64_t> &size);

// --- Linear algebra ---------------------------------------------------------
/// Rank 2, or rank > 2 with equal batch dims; int32/int64/float32/float64.
/// float32/float64 use OpenBLAS cblas_sgemm/dgemm.
Tensor matmul(const Tensor &a, const Tensor &b);

/// What a Philox draw makes (RandomKernels.h).
enum class RandomDistribution {
  Uniform,         ///< [0, 1)
  Normal,          ///< N(0, 1) (Box-Muller)
  TruncatedNormal, ///< N(0, 1) redrawn (next attempt) until |z| < 2
};

// --- Reductions -------------------------------------------------------------
enum class ReduceKind { Sum, Mean, Max, Min, Prod };
std::string_view to_string(ReduceKind); ///< "reduce_sum", ...
/// Empty axes: all. Negative axes count from the end; duplicates are errors.
/// Mean of ints truncates like TensorFlow. Max/min of an empty set is an error.
Tensor reduce(ReduceKind kind, const Tensor &x,
              const std::vector<int64_t> &axes, bool keepdims);
/// Int64 result; first maximal index.
Tensor argmax(const Tensor &x, int64_t axis);

// --- NN ---------------------------------------------------------------------
Tensor softmax(const Tensor &x, int64_t axis);
Tensor log_softmax(const Tensor &x, int64_t axis);
/// Per example over the last axis: -sum(labels * log_softmax(logits), -1).
Tensor softmax_cross_entropy_with_logits(const Tensor &labels,
                                         const Tensor &logits);
/// indices int32/int64; out-of-range indices give all-zero rows (as TF).
Tensor one_hot(const Tensor &indices, int64_t depth, DType dtype);
/// tf.nn.sparse_softmax_cross_entropy_with_logits: labels int32/int64 of
/// logits' shape without the last dim; a label outside [0, classes) is an
/// InvalidArgumentError.
Tensor sparse_softmax_cross_entropy_with_logits(const Tensor &labels,
                                                const Tensor &logits);
/// tf.math.cumsum along `axis` (in [0, rank)); numeric dtypes.
Tensor cumsum(const Tensor &x, int64_t axis, bool exclusive, bool reverse);
/// The int32 indices of the k largest elements of each last-dim row,
/// largest first, ties by index, NaN largest (ScanKernels.h).
Tensor top_k_indices(const Tensor &x, int64_t k);
/// tf.gather(params, indices, axis): indices int32/int64; one outside
/// [0, params.shape[axis]) is an InvalidArgumentError (as TensorFlow's CPU).
Tensor gather(const Tensor &params, const Tensor &indices, int64_t axis);
/// tf.math.unsorted_segment_sum: negative ids drop their slice; an id >=
/// num_segments is an InvalidArgumentError.
Tensor unsorted_segment_sum(const Tensor &data, const Tensor &segment_ids,
                            int64_t num_segments);
/// A Philox draw of `shape` from state = [key, counter] (int64, shape (2,);
/// RandomKernels.h): standard uniform, normal or truncated normal.
Tensor philox_random(const Tensor &state, const std::vector<int64_t> &shape,
                     DType dtype, RandomDistribution dist);
/// The sum or mean of x over the replicas of distribute::communicator()
/// (a copy of x for one replica); int32/int64/float32/float64.
Tensor all_reduce(const Tensor &x, distribute::ReduceOp op);
/// tf.nn.conv2d: NHWC input, HWIO filter, float32/float64 (ConvKernels.h).
Tensor conv2d(const Tensor &input, const Tensor &filter,
              std::array<int64_t, 2> strides, std::array<int64_t, 2> dilations,
              Padding padding);
/// The gradient of conv2d with respect to its input, of `inputShape`.
Tensor conv2d_backprop_input(const std::vector<int64_t> &inputShape,
                             const Tensor &filter, const Tensor &dy,
                             std::array<int64_t, 2> strides,
                             std::array<int64_t, 2> dilations, Padding padding);
/// tf.nn.max_pool2d / avg_pool2d on NHWC float32/float64 (PoolKernels.h).
Tensor max_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                  std::array<int64_t, 2> strides, Padding padding);
Tensor avg_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                  std::array<int64_t, 2> strides, Padding padding);
/// max_pool2d's gradient: `dy` to each window's first maximum of `input`.
Tensor max_pool2d_grad(const Tensor &input, const Tensor &dy,
                       std::array<int64_t, 2> ksize,
                       std::array<int64_t, 2> strides, Padding padding);
/// The adjoint of max_pool2d_grad in dy: `grad` at each window's first
/// maximum of `input`.
Tensor max_pool2d_grad_grad(const Tensor &input, const Tensor &grad,
                            std::array<int64_t, 2> ksize,
                            std::array<int64_t, 2> strides, Padding padding);
/// avg_pool2d's gradient, of `inputShape`.
Tensor avg_pool2d_grad(const std::vector<int64_t> &inputShape, const Tensor &dy,
                       std::array<int64_t, 2> ksize,
                       std::array<int64_t, 2> strides, Padding padding);
/// The gradient of conv2d with respect to its filter, of `filterShape`.
Tensor conv2d_backprop_filter(const Tensor &input,
                              const std::vector<int64_t> &filterShape,
                              const Tensor &dy, std::array<int64_t, 2> strides,
                              std::array<int64_t, 2> dilations,
                              Padding padding);

// --- Threading
// ----------------------------------------------------------------
/// Elementwise kernels above this many elements split work across threads.
int64_t parallel_threshold();
/// Threads for everything tfc runs in parallel, process-wide and from any
/// thread: eager kernels, OpenBLAS and JIT-compiled parallel loops (read
/// at each parallel region, so cached functions follow). 0: all cores;
/// negative: InvalidArgumentError. Starts at TFC_NUM_THREADS when set
/// (> 0), else OpenMP's default (OMP_NUM_THREADS or the core count).
void set_num_threads(int n);
int num_threads();
int get_num_threads(); ///< Same as num_threads() (PyTorch's name).

} // namespace tfc::kernels

#endif // TFC_RUNTIME_KERNELS_H
