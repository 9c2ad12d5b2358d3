//===- Internal.h - Helpers shared by the frontend's sources ----*- C++ -*-===//
//
// Not installed, not part of the API. The MLIR-free helpers of the ops layer
// are in ops/lib/OpsInternal.h.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_LIB_INTERNAL_H
#define TFC_FRONTEND_LIB_INTERNAL_H

#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Tensor.h"

#include "mlir/IR/Builders.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {
/// Under a recording GradientTape, records each floating result of a call of
/// the compiled function `function` as a node whose gradient throws
/// (CompiledCallGradient.cpp): the tape cannot see inside compiled code, and
/// a gradient through the call must not silently be zero. `variables` are
/// the Variables the compiled code used and `values` their values before
/// the call's writes.
void record_compiled_call(
    const std::string &function, const Tensor *const *args, size_t numArgs,
    const std::vector<std::shared_ptr<VariableState>> &variables,
    const std::vector<Tensor> &values, Tensor *results, size_t numResults);

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
