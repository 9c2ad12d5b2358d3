//===- ControlFlow.cpp - cond, while_loop, print, assert_true -------------===//
#include "tfc/frontend/ControlFlow.h"

#include "OpsInternal.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Print.h"
#include "tfc/runtime/PrintSink.h"

#include <string>

using namespace tfc;
using namespace tfc::detail;

namespace {
/// "dtype int32 and shape (3,)".
std::string describeTensor(const Tensor &t) {
  return "dtype " + std::string(to_string(t.dtype())) + " and shape " +
         shape_to_string(t.shape());
}
} // namespace

// --- Traced control flow -----------------------------------------------------
// The tracer (tfc::function) implements these through its TraceHook.

std::vector<Tensor>
tfc::detail::traced_cond(const Tensor &pred,
                         std::function<std::vector<Tensor>()> thenFn,
                         std::function<std::vector<Tensor>()> elseFn,
                         const std::source_location &loc) {
  TraceHook *hook = active_trace_hook();
  if (!hook)
    throw_invalid_argument("cond: traced_cond called while not tracing", loc);
  return hook->cond(pred, thenFn, elseFn, loc);
}

std::vector<Tensor> tfc::detail::traced_while_loop(
    std::function<Tensor(const std::vector<Tensor> &)> condFn,
    std::function<std::vector<Tensor>(const std::vector<Tensor> &)> bodyFn,
    std::vector<Tensor> loopVars, int64_t maximumIterations,
    const std::source_location &loc) {
  TraceHook *hook = active_trace_hook();
  if (!hook)
    throw_invalid_argument(
        "while_loop: traced_while_loop called while not tracing", loc);
  check_loop_vars(loopVars, loopVars, loc);
  return hook->while_loop(condFn, bodyFn, loopVars, maximumIterations, loc);
}

void tfc::detail::throw_cond_structure_mismatch(
    const std::vector<size_t> &thenStructure,
    const std::vector<size_t> &elseStructure, const std::source_location &loc) {
  auto sizes = [](const std::vector<size_t> &s) {
    std::vector<int64_t> v(s.begin(), s.end());
    return list_to_string(v);
  };
  throw_invalid_argument("cond: the branches return vectors of different "
                         "sizes: " +
                             sizes(thenStructure) + " and " +
                             sizes(elseStructure) +
                             " (both branches must return the same number of "
                             "tensors)",
                         loc);
}

void tfc::detail::check_bool_scalar(std::string_view what, const Tensor &pred,
                                    const std::source_location &loc) {
  const std::string prefix(what);
  if (!pred.defined())
    throw_invalid_argument(prefix + ": the predicate is an undefined tensor (a "
                                    "default-constructed tfc::Tensor)",
                           loc);
  if (pred.dtype() != DType::Bool || pred.rank() != 0)
    throw_invalid_argument(prefix +
                               ": the predicate must be a bool scalar "
                               "(shape ()), but it has " +
                               describeTensor(pred),
                           loc);
  if (pred.is_symbolic() && !active_trace_hook())
    throw_invalid_argument(prefix + ": the predicate is a symbolic tensor from "
                                    "a tfc::function trace; it has no value "
                                    "outside that trace",
                           loc);
}

void tfc::detail::check_loop_vars(const std::vector<Tensor> &before,
                                  const std::vector<Tensor> &after,
                                  const std::source_location &loc) {
  if (after.size() != before.size())
    throw_invalid_argument("while_loop: the body returned " +
                               std::to_string(after.size()) +
                               " loop variables, but the loop has " +
                               std::to_string(before.size()),
                           loc);
  const bool entering = &before == &after;
  for (size_t i = 0; i < before.size(); ++i) {
    const std::string var = "while_loop: loop variable " + std::to_string(i);
    if (!after[i].defined())
      throw_invalid_argument(var + (entering ? " is an undefined tensor"
                                             : " is an undefined tensor "
                                               "after one iteration"),
                             loc);
    if (entering)
      continue;
    if (after[i].dtype() != before[i].dtype())
      throw_invalid_argument(
          var + " has dtype " + std::string(to_string(before[i].dtype())) +
              " before the loop, but dtype " +
              std::string(to_string(after[i].dtype())) + " after one iteration",
          loc);
    if (after[i].shape() != before[i].shape())
      throw_invalid_argument(
          var + " has shape " + loop_shape_to_string(before[i].shape()) +
              " before the loop, but shape " +
              loop_shape_to_string(after[i].shape()) + " after one iteration",
          loc);
  }
}

// --- print / assert_true -----------------------------------------------------

std::string tfc::detail::format_print_line(std::string_view label,
                                           const std::vector<Tensor> &tensors) {
  std::string line(label);
  for (const Tensor &t : tensors) {
    if (!line.empty())
      line += ' ';
    line += format_data(t);
  }
  return line;
}

void tfc::detail::emit_print(std::string_view line) { print_line(line); }

void tfc::detail::print_tensors(std::string_view label,
                                const std::vector<Tensor> &tensors,
                                const std::source_location &loc) {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (!tensors[i].defined())
      throw_invalid_argument("print: tensor " + std::to_string(i) +
                                 " is an undefined tensor (a "
                                 "default-constructed tfc::Tensor)",
                             loc);
  if (TraceHook *hook = active_trace_hook()) {
    hook->print(label, tensors);
    return;
  }
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].is_symbolic())
      throw_invalid_argument("print: tensor " + std::to_string(i) +
                                 " is a symbolic tensor from a tfc::function "
                                 "trace; it has no value outside that trace",
                             loc);
  emit_print(format_print_line(label, tensors));
}

void tfc::set_print_sink(std::function<void(std::string_view)> sink) {
  // The runtime owns the sink so that compiled code's tfc.print shares it.
  set_runtime_print_sink(std::move(sink));
}

void tfc::assert_true(const Tensor &pred, std::string_view message,
                      std::source_location loc) {
  if (!pred.defined())
    throw_invalid_argument("assert_true: the predicate is an undefined tensor "
                           "(a default-constructed tfc::Tensor)",
                           loc);
  if (pred.dtype() != DType::Bool)
    throw_invalid_argument("assert_true: the predicate must be a bool tensor, "
                           "but it has " +
                               describeTensor(pred),
                           loc);
  if (TraceHook *hook = active_trace_hook()) {
    hook->assert_true(pred, message, loc);
    return;
  }
  if (pred.is_symbolic())
    throw_invalid_argument("assert_true: the predicate is a symbolic tensor "
                           "from a tfc::function trace; it has no value "
                           "outside that trace",
                           loc);
  const bool *data = pred.data<bool>();
  const int64_t n = pred.numel();
  for (int64_t i = 0; i < n; ++i) {
    if (!data[i]) {
      std::string msg = "assertion failed: ";
      msg += message;
      if (n > 1)
        msg += " (element " + std::to_string(i) + " of the predicate, shape " +
               shape_to_string(pred.shape()) + ", is false)";
      msg += location_suffix(loc);
      throw RuntimeError(msg);
    }
  }
}
