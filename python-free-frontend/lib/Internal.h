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

// --- Stacks in a trace (GradientTape.cpp) ------------------------------------
struct TraceHook;

/// A `!tfc.stack` built in a tfc::function trace. The tape's gradient of a
/// traced while_loop saves the loop variables entering each iteration on
/// stacks and pops them in the backward loop (O(N) instead of recomputing).
/// Stack ops have no public op: they only exist in traced code.
struct TracedStack {
  TraceSession *session = nullptr;
  mlir::Value handle;
};

/// `tfc.stack_new` at the current insertion point of the trace `hook` is,
/// for entries of `dtype` and `shape`. Empty when `hook` is not a
/// tfc::function trace, or when `shape` has a dynamic dim (-1): stack
/// entries have a fixed size.
std::optional<TracedStack> trace_stack_new(TraceHook *hook, DType dtype,
                                           const std::vector<int64_t> &shape);
/// `tfc.stack_push` of `value` (of the stack's dtype and shape) at the
/// current insertion point.
void trace_stack_push(const TracedStack &stack, const Tensor &value);
/// `tfc.stack_pop` at the current insertion point.
Tensor trace_stack_pop(const TracedStack &stack);
/// `tfc.stack_free`: no use of the stack may follow.
void trace_stack_free(const TracedStack &stack);
// --- end stacks --------------------------------------------------------------
} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_FRONTEND_LIB_INTERNAL_H
