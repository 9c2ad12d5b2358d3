//===- Dispatch.h - The one funnel every tfc op goes through ----*- C++ -*-===//
//
// Every public op (`tfc::add`, `operator+`, `tfc::reduce_sum`, ...) ends in
// `detail::dispatch`. It checks the inputs, then either hands the op to the
// trace hook installed by `tfc::function` (which builds IR) or runs the
// runtime kernel eagerly and tells the registered observers (GradientTape)
// what ran. Keeping this one funnel is what lets tracing and autodiff plug in
// without touching the op functions.
//
// The eager path is kept cheap on purpose: no std::function, no vectors and
// no string formatting unless something fails; the only heap allocation is
// the kernel's result.
//
// Thread-safety: the trace hook and the observer stack are thread-local, as
// TensorFlow's tapes and graph contexts are: tracing or recording on one
// thread never affects ops run on another.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_DISPATCH_H
#define TFC_FRONTEND_DISPATCH_H

#include "tfc/runtime/Ops.h"
#include "tfc/runtime/Tensor.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <string_view>
#include <vector>

namespace tfc::detail {

/// The storage behind a `tfc::Variable`: every copy of a Variable holds the
/// same `shared_ptr`, so an assignment through one is seen through all.
/// `value` always has the dtype and shape the variable was created with.
struct VariableState : std::enable_shared_from_this<VariableState> {
  Tensor value;          ///< Current value (concrete outside of tracing).
  std::string name;      ///< As given to the constructor (may be empty).
  bool trainable = true; ///< Watched automatically by GradientTape.
  uint64_t id = 0;       ///< Unique per process, never reused.
};

/// How a variable is written.
enum class AssignKind { Assign, Add, Sub };

/// Installed (thread-locally) while a `tfc::function` is being traced. When a
/// hook is installed, ops and variable accesses build IR through it instead of
/// running kernels. Inputs handed to a hook are defined; they may be symbolic
/// (traced values) or concrete (captured tensors and C++ literals, which the
/// hook turns into constants). Attributes are already normalised by the
/// frontend: axes are non-negative, reduction/squeeze axes are explicit,
/// sorted and unique, transpose perms are explicit, slice sizes have no -1.
struct TraceHook {
  virtual ~TraceHook();
  /// One op. Returns a (usually symbolic) tensor of the op's result.
  virtual Tensor op(OpKind kind, const Tensor *inputs, size_t numInputs,
                    const OpAttrs &attrs, const std::source_location &loc) = 0;
  /// A concrete tensor (captured by value or a literal) enters the trace.
  virtual Tensor constant(const Tensor &value) = 0;
  /// Reads a variable inside the trace.
  virtual Tensor var_read(const std::shared_ptr<VariableState> &var) = 0;
  /// Writes a variable inside the trace. `value` has the variable's dtype and
  /// shape (the frontend checked and broadcast it).
  virtual void var_assign(const std::shared_ptr<VariableState> &var,
                          AssignKind how, const Tensor &value) = 0;
  /// A `tfc::Variable` was constructed while tracing. The hook may reject it
  /// (a variable created on a non-first trace) by throwing, or replace a
  /// symbolic initial value. Default: accepted as is.
  virtual void variable_created(const std::shared_ptr<VariableState> &var);
  /// `tfc::print` inside the trace: prints every time the compiled code runs.
  virtual void print(std::string_view label,
                     const std::vector<Tensor> &tensors) = 0;
  /// `tfc::assert_true` inside the trace (pred is a Bool tensor).
  virtual void assert_true(const Tensor &pred, std::string_view message,
                           const std::source_location &loc) = 0;
  /// `tfc::cond` inside the trace: traces both branches into a `tfc.if`.
  /// `pred` is a Bool scalar. Each branch returns its results flattened.
  virtual std::vector<Tensor>
  cond(const Tensor &pred, const std::function<std::vector<Tensor>()> &thenFn,
       const std::function<std::vector<Tensor>()> &elseFn,
       const std::source_location &loc) = 0;
  /// `tfc::custom_gradient` inside the trace: `value` was computed from
  /// `inputs` by ops already traced; the result stands for it with
  /// `backward(dy)` (one gradient per input, undefined for none) as its
  /// gradient rule. Default: `value` as is (the rule is lost).
  virtual Tensor custom_gradient(
      const std::vector<Tensor> &inputs, const Tensor &value,
      const std::function<std::vector<Tensor>(const Tensor &)> &backward);
  /// `tfc::while_loop` inside the trace: traces into a `tfc.while`.
  virtual std::vector<Tensor> while_loop(
      const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
      const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
          &bodyFn,
      const std::vector<Tensor> &loopVars, int64_t maximumIterations,
      const std::source_location &loc) = 0;
};

/// The hook of this thread, or null when ops run eagerly.
TraceHook *active_trace_hook();
/// Installs `hook` for this thread (null: back to eager). Returns the
/// previous hook so that nested traces can restore it.
TraceHook *set_active_trace_hook(TraceHook *hook);

/// Observes eagerly executed ops (GradientTape). Called after the kernel ran,
/// in push order, only on this thread.
struct OpObserver {
  virtual ~OpObserver();
  /// An op ran eagerly: `output = kind(inputs..., attrs)`.
  virtual void recorded(OpKind kind, const Tensor *inputs, size_t numInputs,
                        const OpAttrs &attrs, const Tensor &output) = 0;
  /// A trainable variable was read eagerly and gave `value`. Default: ignored.
  virtual void variable_read(const VariableState &var, const Tensor &value);
};
void push_op_observer(OpObserver *observer);
/// Removes the most recent registration of `observer` (a no-op if absent).
void pop_op_observer(OpObserver *observer);
/// True when at least one observer is registered on this thread.
bool has_op_observers();

/// The funnel: runs (or traces) `kind` on `inputs`. Throws
/// InvalidArgumentError naming the op for undefined inputs, and rethrows
/// kernel errors as the same class with the caller's location appended.
Tensor
dispatch(OpKind kind, const Tensor *inputs, size_t numInputs,
         const OpAttrs &attrs,
         const std::source_location &loc = std::source_location::current());

/// The name users know an op by: "equal" for a `cmp eq`, "where" for
/// `select`, otherwise the dialect mnemonic.
std::string_view api_op_name(OpKind kind, const OpAttrs &attrs);

/// " (at file.cpp:42)", or "" when `loc` carries no line (operators).
std::string location_suffix(const std::source_location &loc);
/// Throws InvalidArgumentError(message + location_suffix(loc)).
[[noreturn]] void throw_invalid_argument(std::string message,
                                         const std::source_location &loc);
/// Inside a catch block: rethrows the current tfc::Error as the same class
/// with location_suffix(loc) appended; anything else is rethrown unchanged.
[[noreturn]] void rethrow_with_location(const std::source_location &loc);

/// Reports an eager read of a trainable variable to the observers.
void notify_variable_read(const VariableState &var, const Tensor &value);

// --- Traced control flow -----------------------------------------------------
// Entry points used by the `tfc::cond` / `tfc::while_loop` templates when a
// trace hook is active; they forward to that hook (the tracer builds `tfc.if` /
// `tfc.while`).
std::vector<Tensor> traced_cond(const Tensor &pred,
                                std::function<std::vector<Tensor>()> thenFn,
                                std::function<std::vector<Tensor>()> elseFn,
                                const std::source_location &loc);
std::vector<Tensor> traced_while_loop(
    std::function<Tensor(const std::vector<Tensor> &)> condFn,
    std::function<std::vector<Tensor>(const std::vector<Tensor> &)> bodyFn,
    std::vector<Tensor> loopVars, int64_t maximumIterations,
    const std::source_location &loc);

/// Checks that `pred` is a defined Bool scalar, for `what` ("cond",
/// "while_loop"); throws InvalidArgumentError naming its dtype and shape.
void check_bool_scalar(std::string_view what, const Tensor &pred,
                       const std::source_location &loc);
/// Checks that one iteration of a while loop kept the number, dtypes and
/// shapes of the loop variables. The message follows docs/api.md: "while_loop:
/// loop variable 0 has shape (1) before the loop, but shape (2) after one
/// iteration". Shared by the eager loop and the tracer.
void check_loop_vars(const std::vector<Tensor> &before,
                     const std::vector<Tensor> &after,
                     const std::source_location &loc);

} // namespace tfc::detail

#endif // TFC_FRONTEND_DISPATCH_H
