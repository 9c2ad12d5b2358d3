//===- Ops.h - The op table: one kernel per tfc op, keyed by op -*- C++ -*-===//
//
// DESIGN.md's "one dispatch table keyed by op": the eager API, the
// interpreter and (later) the autodiff rules all name ops by OpKind, whose
// names match the tfc dialect's mnemonics ("add" is tfc.add). `execute` runs
// the kernel for one op on concrete tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_OPS_H
#define TFC_RUNTIME_OPS_H

#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/OpList.h"
#include "tfc/runtime/Tensor.h"

#include <optional>
#include <string_view>
#include <vector>

namespace tfc {

enum class OpKind {
#define TFC_OP_ENUM(e, name) e,
  TFC_FOR_EACH_OP(TFC_OP_ENUM)
#undef TFC_OP_ENUM
};

/// The dialect mnemonic ("add", "reduce_sum", ...).
std::string_view op_name(OpKind);
/// Inverse of op_name; nullopt for unknown names.
std::optional<OpKind> op_kind_from_name(std::string_view);

/// Non-tensor operands of an op, one field per meaning (the dialect's
/// attribute of the same name). Only the fields an op uses are read.
struct OpAttrs {
  /// Reductions and squeeze: the axes; transpose: the permutation (`perm`).
  std::vector<int64_t> axes;
  /// reshape/broadcast_to, philox_random: the result shape; slice: the size;
  /// conv2d_backprop_input/_filter, avg_pool2d_grad: the result shape (the
  /// dialect's input_shape/filter_shape).
  std::vector<int64_t> shape;
  /// slice: the start index per dim.
  std::vector<int64_t> begin;
  /// expand_dims, concat, argmax, softmax, log_softmax, gather, cumsum.
  int64_t axis = 0;
  /// unsorted_segment_sum: the number of result rows.
  int64_t num_segments = 0;
  /// one_hot: the number of classes.
  int64_t depth = 0;
  /// Reductions.
  bool keepdims = false;
  /// cumsum.
  bool exclusive = false, reverse = false;
  /// top_k_indices: how many.
  int64_t k = 0;
  /// cast and one_hot: the result dtype.
  DType dtype = DType::Float32;
  /// philox_random.
  kernels::RandomDistribution distribution =
      kernels::RandomDistribution::Uniform;
  /// cmp.
  kernels::CmpPredicate predicate = kernels::CmpPredicate::EQ;
  /// conv2d, pooling and their gradients: (height, width) each.
  std::vector<int64_t> strides, dilations;
  /// Pooling and its gradients: the window (height, width).
  std::vector<int64_t> ksize;
  /// conv2d, pooling and their gradients.
  Padding padding = Padding::Valid;
  /// all_reduce.
  distribute::ReduceOp reduce_op = distribute::ReduceOp::Sum;
};

/// Runs the kernel of `kind` on concrete inputs. Throws InvalidArgumentError
/// on a wrong operand count or bad operands (messages name op, shapes, dtypes).
Tensor execute(OpKind kind, const Tensor *inputs, size_t numInputs,
               const OpAttrs &attrs);
inline Tensor execute(OpKind kind, const std::vector<Tensor> &inputs,
                      const OpAttrs &attrs = {}) {
  return execute(kind, inputs.data(), inputs.size(), attrs);
}

namespace detail {
/// What the dispatch funnel runs for an eager op. `execute` once the op
/// table (Ops.cpp) is linked, which registers it; until then a function
/// that throws RuntimeError. Reached through this pointer so that the ops
/// layer (dispatch, the gradient rules) does not name every kernel: the
/// compiler's tools run the rules on IR only and link none.
using EagerExecutor = Tensor (*)(OpKind, const Tensor *, size_t,
                                 const OpAttrs &);
extern EagerExecutor eager_executor;
void set_eager_executor(EagerExecutor executor);
} // namespace detail

} // namespace tfc

#endif // TFC_RUNTIME_OPS_H
