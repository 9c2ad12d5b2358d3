//===- CompiledCallGradient.cpp - Tapes around compiled calls ----*- C++
//-*-===//
//
// A GradientTape alive around a call of a tfc::function does not see the ops
// inside the call (they run as compiled code, not through the dispatch
// funnel). Until the call is recorded with a compiled vector-Jacobian product
// (the autodiff pass), the tape records each floating result as one node
// whose gradient throws: a gradient that reaches the call says why it cannot
// be computed instead of silently being zero. A gradient that does not reach
// the call (another path, or sources the call does not touch) is unaffected.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/runtime/Error.h"

#include <memory>
#include <string>

using namespace tfc;
using namespace tfc::detail;

void tfc::detail::record_compiled_call(
    const std::string &function, const Tensor *const *args, size_t numArgs,
    const std::vector<std::shared_ptr<VariableState>> &variables,
    const std::vector<Tensor> &values, Tensor *results, size_t numResults) {
  std::vector<Tensor> inputs;
  for (size_t i = 0; i < numArgs; ++i)
    if (is_floating(args[i]->dtype()))
      inputs.push_back(*args[i]);
  for (size_t i = 0; i < variables.size() && i < values.size(); ++i) {
    if (!variables[i]->trainable || !is_floating(values[i].dtype()))
      continue;
    // Tapes watch trainable variables on their first read; the compiled
    // code read this one.
    notify_variable_read(*variables[i], values[i]);
    inputs.push_back(values[i]);
  }
  if (inputs.empty())
    return;
  auto why = std::make_shared<std::string>(
      "gradient: the gradient flows through a call of the compiled function '" +
      function +
      "', which a GradientTape outside the function cannot differentiate "
      "yet (it does not see the ops inside compiled code). Put the tape "
      "inside the function (tfc::function([](...) { GradientTape tape; ...; "
      "return tape.gradient(...); })), or call the function's body without "
      "tfc::function");
  for (size_t i = 0; i < numResults; ++i) {
    if (!is_floating(results[i].dtype()))
      continue;
    results[i] =
        record_custom_gradient(inputs, std::move(results[i]),
                               [why](const Tensor &) -> std::vector<Tensor> {
                                 throw InvalidArgumentError(*why);
                               });
  }
}
