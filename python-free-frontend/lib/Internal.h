//===- Internal.h - Helpers shared by the frontend's sources ----*- C++ -*-===//
//
// Not installed, not part of the API. The MLIR-free helpers of the ops layer
// are in ops/lib/OpsInternal.h.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_LIB_INTERNAL_H
#define TFC_FRONTEND_LIB_INTERNAL_H

#include "tfc/JIT/JIT.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Tensor.h"

#include "mlir/IR/Builders.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {
/// A compiled function a GradientTape can differentiate
/// (CompiledCallGradient.cpp): its compiled code and its tfc IR, kept as
/// text and differentiated by the tfc-vjp pass when a tape first records a
/// call of it. The gradient code (@f_fwd, @f_bwd, @f_vjp) is compiled once
/// and shared by every call; @f_vjp is itself differentiable (higher
/// orders).
struct DifferentiableFunction {
  std::string ir;   ///< A module holding `name`, printed with locations.
  std::string name; ///< The function's symbol.
  jit::CompileOptions options;
  /// FunctionOptions::recompute_gradient: keep no residuals.
  bool recompute = false;
  std::shared_ptr<jit::CompiledModule::Impl> module;
  const jit::FunctionSignature *signature = nullptr;

  struct Gradient;
  /// Builds the gradient code on first use; throws InvalidArgumentError
  /// naming the function and saying why when it cannot be differentiated
  /// (every later call throws the same).
  Gradient &gradient();

private:
  std::mutex mutex;
  std::shared_ptr<Gradient> built;
  std::string error;
};

/// The backward of a node with several outputs: one dy per output
/// (undefined where no gradient reached it) and which inputs need a
/// gradient -> one gradient per input (undefined where not needed).
using MultiBackward = std::function<std::vector<Tensor>(
    const std::vector<Tensor> &dys, const std::vector<bool> &needed)>;

/// Records `values = f(inputs)` (eagerly, on every recording tape in scope
/// that watches an input) as one node whose gradient is `backward`.
/// Returns the outputs to hand on: fresh handles of `values`.
std::vector<Tensor>
record_multi_output_gradient(const std::vector<Tensor> &inputs,
                             std::vector<Tensor> values,
                             MultiBackward backward);

/// Whether a node with these inputs would be recorded now: some tape in
/// scope is recording and watches one of them (GradientTape.cpp).
bool any_tape_records(const std::vector<Tensor> &inputs);

/// Calls `fn` on `inputs` (its arguments, in order). Under a recording
/// GradientTape, each floating result among the first `numRecorded` is
/// recorded as one node whose gradient runs the function's compiled VJP:
/// @f_bwd on the residuals @f_fwd kept, or, when the backward pass is
/// itself being recorded (higher orders), a recorded call of @f_vjp.
/// `inputs` that are Variables' values must be the handles the tapes saw
/// read (notify_variable_read).
std::vector<Tensor>
call_differentiable(const std::shared_ptr<DifferentiableFunction> &fn,
                    const std::vector<Tensor> &inputs, size_t numRecorded);

class TraceSession;

// --- Traced nodes a tape differentiates with tfc-autodiff -------------------

/// A traced `tfc.if` or `tfc.while` (a `cond`/`while_loop` with a symbolic
/// predicate), or the `tfc.grad` that the gradient of such a node emitted,
/// recorded on a tape as one node (GradientTape.cpp). Its gradient is a
/// `tfc.grad` of a function holding a copy of the op: the tfc-autodiff pass
/// differentiates it when the trace is compiled, so activity analysis, if
/// adjoints and loop stacks exist once, in the pass.
struct TracedNode {
  TraceSession *session = nullptr;
  mlir::Operation *op = nullptr;
  /// What the op reads from outside (its operands, then the values its
  /// regions use from above), as fresh symbolic tensors.
  std::vector<Tensor> externals;
  /// The variables its regions read, in order.
  std::vector<std::shared_ptr<VariableState>> variables;
};

/// The traced value behind a symbolic tensor, as an opaque key (handles of
/// the same value share it); null for a concrete tensor.
const void *traced_value_key(const Tensor &t);

/// The node of the op of a tfc::function trace whose results are `outputs`
/// (in order; a while_loop's hidden iteration counter may follow); empty
/// when there is none.
std::optional<TracedNode> traced_node(const std::vector<Tensor> &outputs);

/// Emits the node's vector-Jacobian product at the trace's insertion point
/// as a `tfc.grad` of an outlined copy of the op. `inputs`: the node's
/// externals (maybe other handles of the same values), then one value per
/// variable (what the copy reads for it); `dys`: one per op result
/// (undefined: no adjoint). Returns one gradient per input, undefined where
/// not `needed`. Throws InvalidArgumentError, saying why, for an op whose
/// regions assign a variable or hold a dynamically shaped value.
std::vector<Tensor> traced_node_vjp(const TracedNode &node,
                                    const std::vector<Tensor> &inputs,
                                    const std::vector<Tensor> &dys,
                                    const std::vector<bool> &needed);
} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_FRONTEND_LIB_INTERNAL_H
