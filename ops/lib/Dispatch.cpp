//===- Dispatch.cpp - The one funnel every tfc op goes through ------------===//
//
// Hot path: `dispatch` for an eager op. Everything that is not needed when
// the op succeeds (messages, observer iteration) is kept out of line.
//
//===----------------------------------------------------------------------===//
#include "tfc/frontend/Dispatch.h"

#include "tfc/runtime/Error.h"

#include <algorithm>
#include <string>
#include <utility>

using namespace tfc;
using namespace tfc::detail;

namespace {
/// Per-thread state read on every op. Trivially destructible and constant
/// initialised, so accessing it needs no TLS guard; initial-exec, so reading
/// it is one load instead of a __tls_get_addr call (libtfc.so is loaded
/// with the program, as the JIT's call scope assumes too).
struct ThreadState {
  TraceHook *hook = nullptr;
  size_t numObservers = 0;
};
[[gnu::tls_model(
    "initial-exec")]] constinit thread_local ThreadState threadState;
/// The observers themselves; only touched when numObservers > 0.
thread_local std::vector<OpObserver *> threadObservers;

[[noreturn, gnu::noinline, gnu::cold]] void
throwBadInput(OpKind kind, const OpAttrs &attrs, size_t index,
              const Tensor &input, const std::source_location &loc) {
  std::string msg(api_op_name(kind, attrs));
  msg += ": input ";
  msg += std::to_string(index);
  if (!input.defined())
    msg += " is an undefined tensor (a default-constructed tfc::Tensor)";
  else
    msg += " is a symbolic tensor from a tfc::function trace; it has no value "
           "outside that trace";
  throw_invalid_argument(std::move(msg), loc);
}

/// Kernels name ops by their dialect mnemonic ("cmp lt: ...", "select: ...");
/// users called `less` / `where`, so the message is rephrased in their terms.
[[noreturn, gnu::noinline, gnu::cold]] void
rethrowInApiTerms(OpKind kind, const OpAttrs &attrs,
                  const std::source_location &loc) {
  std::string_view apiName = api_op_name(kind, attrs);
  if (apiName == op_name(kind))
    rethrow_with_location(loc);
  try {
    throw;
  } catch (const Error &e) {
    std::string msg = e.what();
    size_t colon = msg.find(": ");
    if (colon != std::string::npos &&
        msg.compare(0, op_name(kind).size(), op_name(kind)) == 0)
      msg.replace(0, colon, apiName);
    msg += location_suffix(loc);
    if (dynamic_cast<const InvalidArgumentError *>(&e))
      throw InvalidArgumentError(msg);
    if (dynamic_cast<const CompileError *>(&e))
      throw CompileError(msg);
    if (dynamic_cast<const RuntimeError *>(&e))
      throw RuntimeError(msg);
    throw Error(msg);
  }
}

[[gnu::noinline]] void notifyObservers(OpKind kind, const Tensor *inputs,
                                       size_t numInputs, const OpAttrs &attrs,
                                       const Tensor &output) {
  // Index-based: an observer may push or pop observers while being notified.
  for (size_t i = 0; i < threadObservers.size(); ++i)
    threadObservers[i]->recorded(kind, inputs, numInputs, attrs, output);
}
} // namespace

TraceHook::~TraceHook() = default;
void TraceHook::variable_created(const std::shared_ptr<VariableState> &) {}
Tensor TraceHook::custom_gradient(
    const std::vector<Tensor> &, const Tensor &value,
    const std::function<std::vector<Tensor>(const Tensor &)> &) {
  return value;
}
OpObserver::~OpObserver() = default;
void OpObserver::variable_read(const VariableState &, const Tensor &) {}

TraceHook *tfc::detail::active_trace_hook() { return threadState.hook; }

TraceHook *tfc::detail::set_active_trace_hook(TraceHook *hook) {
  return std::exchange(threadState.hook, hook);
}

void tfc::detail::push_op_observer(OpObserver *observer) {
  threadObservers.push_back(observer);
  threadState.numObservers = threadObservers.size();
}

void tfc::detail::pop_op_observer(OpObserver *observer) {
  auto it =
      std::find(threadObservers.rbegin(), threadObservers.rend(), observer);
  if (it != threadObservers.rend())
    threadObservers.erase(std::next(it).base());
  threadState.numObservers = threadObservers.size();
}

bool tfc::detail::has_op_observers() { return threadState.numObservers != 0; }

void tfc::detail::notify_variable_read(const VariableState &var,
                                       const Tensor &value) {
  if (threadState.numObservers == 0)
    return;
  for (size_t i = 0; i < threadObservers.size(); ++i)
    threadObservers[i]->variable_read(var, value);
}

Tensor tfc::detail::dispatch(OpKind kind, const Tensor *inputs,
                             size_t numInputs, const OpAttrs &attrs,
                             const std::source_location &loc) {
  ThreadState &state = threadState;
  if (state.hook) [[unlikely]] {
    for (size_t i = 0; i < numInputs; ++i)
      if (!inputs[i].defined()) [[unlikely]]
        throwBadInput(kind, attrs, i, inputs[i], loc);
    return state.hook->op(kind, inputs, numInputs, attrs, loc);
  }
  for (size_t i = 0; i < numInputs; ++i) {
    const detail::TensorImpl *impl = inputs[i].unsafe_impl();
    if (!impl || impl->symbolic) [[unlikely]]
      throwBadInput(kind, attrs, i, inputs[i], loc);
  }
  Tensor output;
  try {
    output = eager_executor(kind, inputs, numInputs, attrs);
  } catch (const Error &) {
    rethrowInApiTerms(kind, attrs, loc);
  }
  if (state.numObservers) [[unlikely]]
    notifyObservers(kind, inputs, numInputs, attrs, output);
  return output;
}

std::string_view tfc::detail::api_op_name(OpKind kind, const OpAttrs &attrs) {
  switch (kind) {
  case OpKind::Cmp:
    switch (attrs.predicate) {
    case kernels::CmpPredicate::EQ:
      return "equal";
    case kernels::CmpPredicate::NE:
      return "not_equal";
    case kernels::CmpPredicate::LT:
      return "less";
    case kernels::CmpPredicate::LE:
      return "less_equal";
    case kernels::CmpPredicate::GT:
      return "greater";
    case kernels::CmpPredicate::GE:
      return "greater_equal";
    }
    return "cmp";
  case OpKind::Select:
    return "where";
  case OpKind::SoftmaxCrossEntropy:
    return "softmax_cross_entropy_with_logits";
  default:
    return op_name(kind);
  }
}

std::string tfc::detail::location_suffix(const std::source_location &loc) {
  if (loc.line() == 0)
    return {};
  std::string_view file = loc.file_name();
  if (size_t slash = file.find_last_of("/\\"); slash != std::string_view::npos)
    file.remove_prefix(slash + 1);
  std::string suffix = " (at ";
  suffix += file;
  suffix += ':';
  suffix += std::to_string(loc.line());
  suffix += ')';
  return suffix;
}

void tfc::detail::throw_invalid_argument(std::string message,
                                         const std::source_location &loc) {
  message += location_suffix(loc);
  throw InvalidArgumentError(message);
}

void tfc::detail::rethrow_with_location(const std::source_location &loc) {
  if (loc.line() == 0)
    throw;
  // Most derived classes first; the class is preserved so callers can still
  // catch exactly what the kernel threw.
  try {
    throw;
  } catch (const InvalidArgumentError &e) {
    throw InvalidArgumentError(e.what() + location_suffix(loc));
  } catch (const CompileError &e) {
    throw CompileError(e.what() + location_suffix(loc));
  } catch (const RuntimeError &e) {
    throw RuntimeError(e.what() + location_suffix(loc));
  } catch (const Error &e) {
    throw Error(e.what() + location_suffix(loc));
  }
}
