//===- Variable.cpp - Mutable state: tfc::Variable
//-------------------------===//
#include "tfc/frontend/Variable.h"

#include "tfc/runtime/Error.h"

#include <array>
#include <atomic>
#include <string>

using namespace tfc;
using namespace tfc::detail;

namespace {
std::atomic<uint64_t> nextVariableId{1};

/// "variable 'w'" or, for an unnamed one, "variable #3".
std::string describe(const VariableState &state) {
  if (!state.name.empty())
    return "variable '" + state.name + "'";
  return "variable #" + std::to_string(state.id);
}

std::string_view assignName(AssignKind how) {
  switch (how) {
  case AssignKind::Assign:
    return "assign";
  case AssignKind::Add:
    return "assign_add";
  case AssignKind::Sub:
    return "assign_sub";
  }
  return "assign";
}
} // namespace

Variable::Variable(Tensor initial, std::string name, bool trainable,
                   std::source_location loc) {
  if (!initial.defined())
    throw_invalid_argument(
        "Variable: the initial value of " +
            (name.empty() ? std::string("a variable") : "'" + name + "'") +
            " is an undefined tensor (a default-constructed tfc::Tensor)",
        loc);
  state_ = std::make_shared<VariableState>();
  state_->value = std::move(initial);
  state_->name = std::move(name);
  state_->trainable = trainable;
  state_->id = nextVariableId.fetch_add(1, std::memory_order_relaxed);
  if (TraceHook *hook = active_trace_hook())
    hook->variable_created(state_);
  else if (state_->value.is_symbolic())
    throw_invalid_argument("Variable: the initial value of " +
                               describe(*state_) +
                               " is a symbolic tensor from a tfc::function "
                               "trace; it has no value outside that trace",
                           loc);
}

Variable::Variable(const NestedList &initial, std::string name, bool trainable,
                   std::source_location loc)
    : Variable(constant(initial, loc), std::move(name), trainable, loc) {}

Tensor Variable::value() const {
  if (TraceHook *hook = active_trace_hook()) [[unlikely]]
    return hook->var_read(state_);
  if (state_->trainable && has_op_observers()) [[unlikely]]
    notify_variable_read(*state_, state_->value);
  return state_->value;
}

void Variable::assign(const Tensor &value, std::source_location loc) {
  write(AssignKind::Assign, value, loc);
}

void Variable::assign_add(const Tensor &delta, std::source_location loc) {
  write(AssignKind::Add, delta, loc);
}

void Variable::assign_sub(const Tensor &delta, std::source_location loc) {
  write(AssignKind::Sub, delta, loc);
}

void Variable::write(AssignKind how, const Tensor &value,
                     const std::source_location &loc) {
  VariableState &state = *state_;
  const std::string_view op = assignName(how);
  if (!value.defined())
    throw_invalid_argument(std::string(op) + ": the value for " +
                               describe(state) +
                               " is an undefined tensor (a "
                               "default-constructed tfc::Tensor)",
                           loc);
  const Tensor &current = state.value;
  if (how != AssignKind::Assign && current.dtype() == DType::Bool)
    throw_invalid_argument(std::string(op) + ": " + describe(state) +
                               " has dtype bool, which has no addition "
                               "(use assign)",
                           loc);
  if (value.dtype() != current.dtype())
    throw_invalid_argument(
        std::string(op) + ": " + describe(state) + " has dtype " +
            std::string(to_string(current.dtype())) + " and shape " +
            shape_to_string(current.shape()) + ", but the value has dtype " +
            std::string(to_string(value.dtype())) + " and shape " +
            shape_to_string(value.shape()) + " (use tfc::cast)",
        loc);
  if (how == AssignKind::Assign && value.shape() != current.shape())
    throw_invalid_argument(
        "assign: " + describe(state) + " has shape " +
            shape_to_string(current.shape()) + " and dtype " +
            std::string(to_string(current.dtype())) +
            ", but the value has shape " + shape_to_string(value.shape()) +
            " and dtype " + std::string(to_string(value.dtype())) +
            " (a variable's shape is fixed when it is created)",
        loc);

  // An increment may broadcast to the variable's shape (`v.assign_add(1)`);
  // anything else is rejected before the variable is touched.
  Tensor operand = value;
  if (how != AssignKind::Assign && value.shape() != current.shape()) {
    try {
      operand = broadcast_to(value, current.shape(), loc);
    } catch (const InvalidArgumentError &) {
      throw_invalid_argument(
          std::string(op) + ": the value of shape " +
              shape_to_string(value.shape()) + " does not broadcast to " +
              describe(state) + "'s shape " + shape_to_string(current.shape()) +
              " (dtype " + std::string(to_string(current.dtype())) + ")",
          loc);
    }
  }

  if (TraceHook *hook = active_trace_hook()) {
    hook->var_assign(state_, how, operand);
    return;
  }
  if (operand.is_symbolic())
    throw_invalid_argument(std::string(op) + ": the value for " +
                               describe(state) +
                               " is a symbolic tensor from a tfc::function "
                               "trace; it has no value outside that trace",
                           loc);
  switch (how) {
  case AssignKind::Assign:
    state.value = operand;
    return;
  case AssignKind::Add:
  case AssignKind::Sub: {
    // Straight to the kernel: an update is not an op a tape differentiates.
    const std::array<Tensor, 2> inputs{state.value, operand};
    Tensor updated;
    try {
      updated =
          eager_executor(how == AssignKind::Add ? OpKind::Add : OpKind::Sub,
                         inputs.data(), inputs.size(), OpAttrs{});
    } catch (const Error &) {
      rethrow_with_location(loc);
    }
    state.value = std::move(updated);
    return;
  }
  }
}
