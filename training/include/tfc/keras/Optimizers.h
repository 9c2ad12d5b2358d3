//===- Optimizers.h - Keras optimizers and schedules --------*- C++ -*-===//
//
// Optimizers follow Keras 3's update rules. Their state (the iteration
// count and one or more slots per variable) lives in Variables created up
// front by build(), so a compiled train step updates them, checkpoints save
// them and a distributed strategy can broadcast them.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_OPTIMIZERS_H
#define TFC_KERAS_OPTIMIZERS_H

#include "tfc/frontend/Variable.h"
#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tfc::keras {

/// A learning rate as a function of the iteration count (an int64 scalar
/// tensor, possibly symbolic inside a compiled step); returns a float32
/// scalar. Empty: the optimizer's constant learning_rate.
class LearningRateSchedule {
public:
  using Fn = std::function<Tensor(const Tensor &step)>;
  LearningRateSchedule() = default;
  LearningRateSchedule(std::string name, Fn fn);
  Tensor operator()(const Tensor &step) const;
  const std::string &name() const { return name_; }
  explicit operator bool() const { return bool(fn_); }

private:
  std::string name_;
  Fn fn_;
};

namespace schedules {
/// lr * decay_rate ^ (step / decay_steps), the exponent floored if
/// `staircase`.
LearningRateSchedule ExponentialDecay(double initial_learning_rate,
                                      int64_t decay_steps, double decay_rate,
                                      bool staircase = false);
/// values[i] while step <= boundaries[i] (values has one more entry).
LearningRateSchedule PiecewiseConstantDecay(std::vector<int64_t> boundaries,
                                            std::vector<double> values);
/// Cosine decay from initial_learning_rate to initial * alpha over
/// decay_steps, then constant.
LearningRateSchedule CosineDecay(double initial_learning_rate,
                                 int64_t decay_steps, double alpha = 0);
} // namespace schedules

/// One optimizer state variable: slot `slot` ("momentum", "m", "v", ...) of
/// the trained variable `of`.
struct SlotVariable {
  std::string slot;
  Variable of;
  Variable value;
};

namespace detail {
struct OptimizerState;
}

/// A handle (copies share one optimizer).
class Optimizer {
public:
  Optimizer() = default;
  explicit Optimizer(std::shared_ptr<detail::OptimizerState> state);

  /// Creates the slots of every variable of `vars` that has none yet (eager
  /// only: new Variables cannot be created while tracing). fit() calls it
  /// before tracing the train step.
  void build(const std::vector<Variable> &vars);
  /// One update of `vars` with `grads` (same order and shapes), after
  /// clipnorm / clipvalue / global_clipnorm; increments iterations. Eager or
  /// inside a tfc::function (build first). Throws InvalidArgumentError on
  /// mismatched counts, shapes or dtypes, naming the variable.
  void apply_gradients(const std::vector<Tensor> &grads,
                       const std::vector<Variable> &vars);
  /// The state: iterations, then the slots in build order.
  std::vector<Variable> variables() const;
  /// The slots with the variables they belong to, in build order.
  std::vector<SlotVariable> slot_variables() const;
  /// Steps applied so far (int64 scalar Variable).
  Variable iterations() const;
  /// The learning rate at the current iteration (float32 scalar).
  Tensor learning_rate() const;
  /// "SGD", "Adam", "AdamW", "RMSprop".
  const std::string &name() const;

  const std::shared_ptr<detail::OptimizerState> &state() const {
    return state_;
  }
  explicit operator bool() const { return bool(state_); }

private:
  std::shared_ptr<detail::OptimizerState> state_;
};

namespace optimizers {
// Each takes <Name>Options; clip* apply as in Keras (clipnorm per gradient,
// global_clipnorm over all of them, clipvalue elementwise). A non-empty
// `schedule` replaces learning_rate.
struct SGDOptions {
  double learning_rate = 0.01;
  double momentum = 0;
  bool nesterov = false;
  std::optional<double> clipnorm, clipvalue, global_clipnorm;
  LearningRateSchedule schedule;
};
struct AdamOptions {
  double learning_rate = 0.001;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  std::optional<double> clipnorm, clipvalue, global_clipnorm;
  LearningRateSchedule schedule;
};
struct AdamWOptions {
  double learning_rate = 0.001;
  double weight_decay = 0.004;
  double beta_1 = 0.9;
  double beta_2 = 0.999;
  double epsilon = 1e-7;
  bool amsgrad = false;
  std::optional<double> clipnorm, clipvalue, global_clipnorm;
  LearningRateSchedule schedule;
};
struct RMSpropOptions {
  double learning_rate = 0.001;
  double rho = 0.9;
  double momentum = 0;
  double epsilon = 1e-7;
  bool centered = false;
  std::optional<double> clipnorm, clipvalue, global_clipnorm;
  LearningRateSchedule schedule;
};
Optimizer SGD(SGDOptions = {});
Optimizer Adam(AdamOptions = {});
Optimizer AdamW(AdamWOptions = {});
Optimizer RMSprop(RMSpropOptions = {});
} // namespace optimizers

} // namespace tfc::keras

#endif // TFC_KERAS_OPTIMIZERS_H
