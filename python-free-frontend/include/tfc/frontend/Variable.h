//===- Variable.h - Mutable state: tfc::Variable ----------------*- C++ -*-===//
//
// A Variable is a handle to one mutable tensor slot: copies share the slot,
// assignments through any copy are seen through all. Its dtype and shape are
// fixed at construction. Inside a `tfc::function` trace, reads and writes go
// through the trace hook and become IR on the variable's handle.
//
// Thread-safety: copying handles across threads is safe; concurrent writes
// (or a write concurrent with reads) of one variable must be synchronised by
// the caller, as with any C++ object.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_VARIABLE_H
#define TFC_FRONTEND_VARIABLE_H

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Tensor.h"

#include <memory>
#include <source_location>
#include <string>
#include <vector>

namespace tfc {

/// Mutable, shared tensor state (like tf.Variable).
///
///   Variable w(zeros({3}), "w");
///   Variable alias = w;            // same storage
///   alias.assign_add(ones({3}));   // w.value() is now [1. 1. 1.]
class Variable {
public:
  /// A variable holding `initial` (which must be a defined tensor). A
  /// trainable variable read while a GradientTape is alive is watched by it.
  explicit Variable(Tensor initial, std::string name = "",
                    bool trainable = true,
                    std::source_location loc = std::source_location::current());
  /// A variable initialised from literals: `Variable v({1.f, 2.f})`.
  explicit Variable(const NestedList &initial, std::string name = "",
                    bool trainable = true,
                    std::source_location loc = std::source_location::current());

  /// Another handle of an existing variable's state (what the gradient
  /// machinery hands a custom gradient's backward function).
  explicit Variable(std::shared_ptr<detail::VariableState> state)
      : state_(std::move(state)) {}

  /// The current value (a snapshot: later assignments do not change it).
  Tensor value() const;
  /// Same as value(), so a Variable can be passed wherever a Tensor is taken.
  operator Tensor() const { return value(); }

  /// Replaces the value. `value` must have the variable's dtype and shape;
  /// otherwise InvalidArgumentError and the variable is left unchanged.
  void assign(const Tensor &value,
              std::source_location loc = std::source_location::current());
  /// value += delta. `delta` has the variable's dtype and broadcasts to its
  /// shape (a C++ scalar takes the variable's dtype).
  void assign_add(const Tensor &delta,
                  std::source_location loc = std::source_location::current());
  /// value -= delta, with the rules of assign_add.
  void assign_sub(const Tensor &delta,
                  std::source_location loc = std::source_location::current());
  /// assign_add of a C++ scalar: `v.assign_add(1)`.
  template <Scalar S>
  void assign_add(S delta,
                  std::source_location loc = std::source_location::current()) {
    assign_add(detail::scalar_like("assign_add", state_->value, delta, loc),
               loc);
  }
  /// assign_sub of a C++ scalar.
  template <Scalar S>
  void assign_sub(S delta,
                  std::source_location loc = std::source_location::current()) {
    assign_sub(detail::scalar_like("assign_sub", state_->value, delta, loc),
               loc);
  }

  DType dtype() const { return state_->value.dtype(); }
  const std::vector<int64_t> &shape() const { return state_->value.shape(); }
  int64_t rank() const { return state_->value.rank(); }
  /// The name given at construction ("" if none).
  const std::string &name() const { return state_->name; }
  bool trainable() const { return state_->trainable; }
  /// Unique per variable (shared by its copies), never reused in a process.
  uint64_t id() const { return state_->id; }
  /// The shared state, for the tracer and the gradient tape.
  const std::shared_ptr<detail::VariableState> &state() const { return state_; }

private:
  void write(detail::AssignKind how, const Tensor &value,
             const std::source_location &loc);
  std::shared_ptr<detail::VariableState> state_;
};

} // namespace tfc

#endif // TFC_FRONTEND_VARIABLE_H
