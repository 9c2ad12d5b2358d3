//===- Optimizers.cpp - Keras 3 optimizers and learning-rate schedules ----===//
//
// Every update is written with tensor ops and Variable assignments only, so
// one code path runs eagerly and inside a tfc::function (where tensors are
// symbolic): the learning rate comes from the `iterations` Variable through
// tensor ops, never from a host value.
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Optimizers.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Log.h"

#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <unordered_map>

namespace tfc::keras {

//===----------------------------------------------------------------------===//
// Learning-rate schedules
//===----------------------------------------------------------------------===//

LearningRateSchedule::LearningRateSchedule(std::string name, Fn fn)
    : name_(std::move(name)), fn_(std::move(fn)) {}

Tensor LearningRateSchedule::operator()(const Tensor &step) const {
  std::string who = "LearningRateSchedule " + name_;
  if (!fn_)
    throw InvalidArgumentError("LearningRateSchedule: empty schedule");
  if (!step.defined() || step.rank() != 0 ||
      (step.dtype() != DType::Int32 && step.dtype() != DType::Int64))
    throw InvalidArgumentError(
        who + ": the step must be an int32 or int64 scalar, got " +
        (step.defined() ? std::string(to_string(step.dtype())) + " of shape " +
                              shape_to_string(step.shape())
                        : std::string("an undefined tensor")));
  Tensor lr = fn_(cast(step, DType::Int64));
  if (!lr.defined() || lr.rank() != 0 ||
      (lr.dtype() != DType::Float32 && lr.dtype() != DType::Float64))
    throw InvalidArgumentError(who +
                               ": the schedule must return a float scalar");
  return cast(lr, DType::Float32);
}

namespace schedules {

namespace {
void requirePositiveSteps(const char *who, int64_t decay_steps) {
  if (decay_steps <= 0)
    throw InvalidArgumentError(std::string(who) +
                               ": decay_steps must be > 0, got " +
                               std::to_string(decay_steps));
}
void requireFinite(const char *who, const char *what, double v) {
  if (!std::isfinite(v))
    throw InvalidArgumentError(std::string(who) + ": " + what +
                               " must be finite");
}
} // namespace

LearningRateSchedule ExponentialDecay(double initial_learning_rate,
                                      int64_t decay_steps, double decay_rate,
                                      bool staircase) {
  const char *who = "ExponentialDecay";
  requirePositiveSteps(who, decay_steps);
  requireFinite(who, "initial_learning_rate", initial_learning_rate);
  if (!(decay_rate > 0) || !std::isfinite(decay_rate))
    throw InvalidArgumentError("ExponentialDecay: decay_rate must be > 0");
  return {who, [=](const Tensor &step) {
            Tensor p = cast(step, DType::Float32) / double(decay_steps);
            if (staircase)
              p = floor(p);
            return initial_learning_rate * pow(decay_rate, p);
          }};
}

LearningRateSchedule PiecewiseConstantDecay(std::vector<int64_t> boundaries,
                                            std::vector<double> values) {
  if (values.size() != boundaries.size() + 1)
    throw InvalidArgumentError(
        "PiecewiseConstantDecay: values needs one more entry than "
        "boundaries, got " +
        std::to_string(values.size()) + " values and " +
        std::to_string(boundaries.size()) + " boundaries");
  for (size_t i = 1; i < boundaries.size(); ++i)
    if (boundaries[i] <= boundaries[i - 1])
      throw InvalidArgumentError(
          "PiecewiseConstantDecay: boundaries must increase strictly");
  for (double v : values)
    requireFinite("PiecewiseConstantDecay", "every value", v);
  return {"PiecewiseConstantDecay", [=](const Tensor &step) {
            Tensor lr = full({}, values.back(), DType::Float32);
            for (size_t i = boundaries.size(); i-- > 0;)
              lr = where(step <= boundaries[i], values[i], lr);
            return lr;
          }};
}

LearningRateSchedule CosineDecay(double initial_learning_rate,
                                 int64_t decay_steps, double alpha) {
  const char *who = "CosineDecay";
  requirePositiveSteps(who, decay_steps);
  requireFinite(who, "initial_learning_rate", initial_learning_rate);
  if (!(alpha >= 0 && alpha <= 1))
    throw InvalidArgumentError("CosineDecay: alpha must be in [0, 1]");
  return {who, [=](const Tensor &step) {
            Tensor s = minimum(cast(step, DType::Float32), double(decay_steps));
            Tensor fraction = s / double(decay_steps);
            Tensor cosine = 0.5 * (1.0 + cos(std::numbers::pi * fraction));
            return initial_learning_rate * ((1 - alpha) * cosine + alpha);
          }};
}

} // namespace schedules

//===----------------------------------------------------------------------===//
// OptimizerState: what every optimizer shares
//===----------------------------------------------------------------------===//

namespace detail {

/// Clipping and learning-rate options common to every optimizer.
struct CommonOptions {
  double learning_rate;
  std::optional<double> clipnorm, clipvalue, global_clipnorm;
  LearningRateSchedule schedule;
};

/// The shared state of an Optimizer handle; each optimizer derives and
/// supplies its slot names and its per-variable update rule.
struct OptimizerState {
  OptimizerState(std::string name, CommonOptions options)
      : name(std::move(name)), options(std::move(options)),
        iterations(zeros({}, DType::Int64), "iteration", /*trainable=*/false) {}
  virtual ~OptimizerState() = default;

  /// The slots each variable gets, in order (may be empty: plain SGD).
  virtual std::vector<std::string> slotNames() const = 0;
  /// One variable's update. `grad` is clipped and has the variable's dtype;
  /// `lr` is the learning rate and `step` the 1-based step number, both
  /// scalars of the variable's dtype.
  virtual void update(Variable var, const Tensor &grad,
                      std::vector<Variable> &slots, const Tensor &lr,
                      const Tensor &step) = 0;

  /// The learning rate at iteration `iteration` (float32 scalar).
  Tensor learningRate(const Tensor &iteration) const {
    if (options.schedule)
      return options.schedule(iteration);
    return full({}, options.learning_rate, DType::Float32);
  }

  struct Entry {
    Variable var;
    std::vector<Variable> slots;
  };
  std::string name;
  CommonOptions options;
  Variable iterations;
  std::vector<Entry> entries;                // build order
  std::unordered_map<uint64_t, size_t> byId; // Variable::id -> entries index
};

} // namespace detail

namespace {

using detail::CommonOptions;
using detail::OptimizerState;

/// "variable 'dense/kernel' (#0)" for error messages.
std::string describe(const Variable &v, size_t i) {
  return "variable '" + v.name() + "' (#" + std::to_string(i) + ")";
}

void requireRange(const std::string &who, const char *what, double v, double lo,
                  bool loOpen, double hi, bool hiOpen) {
  bool ok = std::isfinite(v) && (loOpen ? v > lo : v >= lo) &&
            (hiOpen ? v < hi : v <= hi);
  if (!ok) {
    std::ostringstream os;
    os << who << ": " << what << " must be in " << (loOpen ? "(" : "[") << lo
       << ", " << hi << (hiOpen ? ")" : "]") << ", got " << v;
    throw InvalidArgumentError(os.str());
  }
}
constexpr double kInf = std::numeric_limits<double>::infinity();

CommonOptions validateCommon(const std::string &who, double learning_rate,
                             std::optional<double> clipnorm,
                             std::optional<double> clipvalue,
                             std::optional<double> global_clipnorm,
                             LearningRateSchedule schedule) {
  requireRange(who, "learning_rate", learning_rate, 0, true, kInf, true);
  if (clipnorm && global_clipnorm)
    throw InvalidArgumentError(who +
                               ": only one of clipnorm and global_clipnorm "
                               "can be set");
  if (clipnorm)
    requireRange(who, "clipnorm", *clipnorm, 0, true, kInf, true);
  if (clipvalue)
    requireRange(who, "clipvalue", *clipvalue, 0, true, kInf, true);
  if (global_clipnorm)
    requireRange(who, "global_clipnorm", *global_clipnorm, 0, true, kInf, true);
  return {learning_rate, clipnorm, clipvalue, global_clipnorm,
          std::move(schedule)};
}

/// Keras's clip_by_norm: g * c / max(||g||, c); the guarded square root
/// keeps a zero gradient zero.
Tensor clipByNorm(const Tensor &g, double c) {
  Tensor l2sum = reduce_sum(square(g));
  Tensor positive = l2sum > 0;
  Tensor norm = where(positive, sqrt(where(positive, l2sum, 1.0)), l2sum);
  return g * c / maximum(norm, c);
}

/// Keras's clip_by_global_norm: every gradient times
/// c * min(1 / global_norm, 1 / c) (NaN if the norm is).
std::vector<Tensor> clipByGlobalNorm(const std::vector<Tensor> &grads,
                                     double c) {
  Tensor sumsq = zeros({}, DType::Float32);
  for (const Tensor &g : grads)
    sumsq = sumsq + cast(reduce_sum(square(g)), DType::Float32);
  Tensor norm = sqrt(sumsq);
  Tensor scale = c * minimum(1.0 / norm, 1.0 / c) + (norm - norm);
  std::vector<Tensor> out;
  for (const Tensor &g : grads)
    out.push_back(g * cast(scale, g.dtype()));
  return out;
}

/// Keras's _clip_gradients: clipnorm, else global_clipnorm, else clipvalue
/// (Keras applies only the first one set).
std::vector<Tensor> clipGradients(const CommonOptions &o,
                                  std::vector<Tensor> grads) {
  if (o.clipnorm) {
    for (Tensor &g : grads)
      g = clipByNorm(g, *o.clipnorm);
  } else if (o.global_clipnorm) {
    grads = clipByGlobalNorm(grads, *o.global_clipnorm);
  } else if (o.clipvalue) {
    for (Tensor &g : grads)
      g = clip_by_value(g, -*o.clipvalue, *o.clipvalue);
  }
  return grads;
}

//===----------------------------------------------------------------------===//
// The four optimizers
//===----------------------------------------------------------------------===//

struct SGDState : OptimizerState {
  explicit SGDState(const optimizers::SGDOptions &o)
      : OptimizerState("SGD", validateCommon("SGD", o.learning_rate, o.clipnorm,
                                             o.clipvalue, o.global_clipnorm,
                                             o.schedule)),
        momentum(o.momentum), nesterov(o.nesterov) {
    requireRange(name, "momentum", momentum, 0, false, kInf, true);
  }
  std::vector<std::string> slotNames() const override {
    if (momentum == 0)
      return {};
    return {"momentum"};
  }
  void update(Variable var, const Tensor &g, std::vector<Variable> &slots,
              const Tensor &lr, const Tensor &) override {
    if (momentum == 0) {
      var.assign_sub(g * lr);
      return;
    }
    Variable &m = slots[0];
    Tensor v = m.value() * momentum - g * lr;
    m.assign(v);
    var.assign_add(nesterov ? v * momentum - g * lr : v);
  }
  double momentum;
  bool nesterov;
};

/// Adam and AdamW (AdamW adds the decoupled weight decay first).
struct AdamState : OptimizerState {
  AdamState(std::string name, CommonOptions common, double beta_1,
            double beta_2, double epsilon, bool amsgrad, double weight_decay)
      : OptimizerState(std::move(name), std::move(common)), beta1(beta_1),
        beta2(beta_2), epsilon(epsilon), amsgrad(amsgrad),
        weightDecay(weight_decay) {
    requireRange(this->name, "beta_1", beta1, 0, false, 1, true);
    requireRange(this->name, "beta_2", beta2, 0, false, 1, true);
    requireRange(this->name, "epsilon", epsilon, 0, false, kInf, true);
    requireRange(this->name, "weight_decay", weightDecay, 0, false, kInf, true);
  }
  std::vector<std::string> slotNames() const override {
    if (amsgrad)
      return {"m", "v", "vhat"};
    return {"m", "v"};
  }
  void update(Variable var, const Tensor &g, std::vector<Variable> &slots,
              const Tensor &lr, const Tensor &step) override {
    if (weightDecay != 0)
      var.assign(var.value() - var.value() * weightDecay * lr);
    Tensor alpha = lr * sqrt(1 - pow(beta2, step)) / (1 - pow(beta1, step));
    Variable &m = slots[0], &v = slots[1];
    Tensor mNew = m.value() + (g - m.value()) * (1 - beta1);
    Tensor vNew = v.value() + (square(g) - v.value()) * (1 - beta2);
    m.assign(mNew);
    v.assign(vNew);
    if (amsgrad) {
      vNew = maximum(slots[2].value(), vNew);
      slots[2].assign(vNew);
    }
    var.assign_sub(mNew * alpha / (sqrt(vNew) + epsilon));
  }
  double beta1, beta2, epsilon;
  bool amsgrad;
  double weightDecay;
};

struct RMSpropState : OptimizerState {
  explicit RMSpropState(const optimizers::RMSpropOptions &o)
      : OptimizerState("RMSprop",
                       validateCommon("RMSprop", o.learning_rate, o.clipnorm,
                                      o.clipvalue, o.global_clipnorm,
                                      o.schedule)),
        rho(o.rho), momentum(o.momentum), epsilon(o.epsilon),
        centered(o.centered) {
    requireRange(name, "rho", rho, 0, false, 1, true);
    requireRange(name, "momentum", momentum, 0, false, kInf, true);
    requireRange(name, "epsilon", epsilon, 0, false, kInf, true);
  }
  std::vector<std::string> slotNames() const override {
    std::vector<std::string> names = {"velocity"};
    if (momentum > 0)
      names.push_back("momentum");
    if (centered)
      names.push_back("average_gradient");
    return names;
  }
  void update(Variable var, const Tensor &g, std::vector<Variable> &slots,
              const Tensor &lr, const Tensor &) override {
    Variable &velocity = slots[0];
    Tensor vel = rho * velocity.value() + (1 - rho) * square(g);
    velocity.assign(vel);
    Tensor denominator;
    if (centered) {
      Variable &avg = slots.back();
      Tensor a = rho * avg.value() + (1 - rho) * g;
      avg.assign(a);
      denominator = vel - square(a) + epsilon;
    } else {
      denominator = vel + epsilon;
    }
    Tensor increment = lr * g / sqrt(denominator);
    if (momentum > 0) {
      Tensor mom = momentum * slots[1].value() + increment;
      slots[1].assign(mom);
      var.assign_sub(mom);
    } else {
      var.assign_sub(increment);
    }
  }
  double rho, momentum, epsilon;
  bool centered;
};

const std::shared_ptr<OptimizerState> &
require(const std::shared_ptr<OptimizerState> &s, const char *what) {
  if (!s)
    throw InvalidArgumentError(std::string("Optimizer::") + what +
                               ": empty optimizer handle");
  return s;
}

/// Keras names a slot after its variable's path: "dense_kernel_momentum".
std::string slotVariableName(const Variable &of, const std::string &slot) {
  std::string base = of.name();
  for (char &c : base)
    if (c == '/')
      c = '_';
  return base.empty() ? slot : base + "_" + slot;
}

} // namespace

//===----------------------------------------------------------------------===//
// Optimizer
//===----------------------------------------------------------------------===//

Optimizer::Optimizer(std::shared_ptr<detail::OptimizerState> state)
    : state_(std::move(state)) {}

void Optimizer::build(const std::vector<Variable> &vars) {
  OptimizerState &s = *require(state_, "build");
  std::vector<std::string> names = s.slotNames();
  for (size_t i = 0; i < vars.size(); ++i) {
    const Variable &v = vars[i];
    if (s.byId.count(v.id()))
      continue;
    if (v.dtype() != DType::Float32 && v.dtype() != DType::Float64)
      throw InvalidArgumentError(
          s.name + ": cannot optimize " + describe(v, i) + " of dtype " +
          std::string(to_string(v.dtype())) + " (float32 or float64 only)");
    if (tfc::detail::active_trace_hook())
      throw InvalidArgumentError(
          s.name + ": " + describe(v, i) +
          " has no optimizer slots yet and they cannot be created inside a "
          "tfc::function; call optimizer.build(variables) eagerly before "
          "tracing");
  }
  for (const Variable &v : vars) {
    if (s.byId.count(v.id()))
      continue;
    detail::OptimizerState::Entry e{v, {}};
    for (const std::string &slot : names)
      e.slots.emplace_back(zeros(v.shape(), v.dtype()),
                           slotVariableName(v, slot), /*trainable=*/false);
    s.byId.emplace(v.id(), s.entries.size());
    s.entries.push_back(std::move(e));
  }
}

void Optimizer::apply_gradients(const std::vector<Tensor> &grads,
                                const std::vector<Variable> &vars) {
  OptimizerState &s = *require(state_, "apply_gradients");
  std::string who = s.name + ".apply_gradients";
  if (grads.size() != vars.size())
    throw InvalidArgumentError(who + ": got " + std::to_string(grads.size()) +
                               " gradients for " + std::to_string(vars.size()) +
                               " variables");
  // Keras skips variables without a gradient, with a warning.
  std::vector<Tensor> kept;
  std::vector<Variable> keptVars;
  std::string missing;
  for (size_t i = 0; i < vars.size(); ++i) {
    const Tensor &g = grads[i];
    const Variable &v = vars[i];
    if (!g.defined()) {
      missing += (missing.empty() ? "" : ", ") + describe(v, i);
      continue;
    }
    if (g.dtype() != v.dtype() || g.shape() != v.shape())
      throw InvalidArgumentError(who + ": the gradient of " + describe(v, i) +
                                 " is " + std::string(to_string(g.dtype())) +
                                 " of shape " + shape_to_string(g.shape()) +
                                 " but the variable is " +
                                 std::string(to_string(v.dtype())) +
                                 " of shape " + shape_to_string(v.shape()));
    kept.push_back(g);
    keptVars.push_back(v);
  }
  if (keptVars.empty() && !vars.empty())
    throw InvalidArgumentError(who + ": no gradient provided for any "
                                     "variable");
  if (!missing.empty() && logging::enabled(logging::Category::Warnings))
    logging::emit("tfc warning: " + who + ": no gradient for " + missing +
                  "; skipping them");
  build(keptVars); // eager: creates missing slots; traced: throws if any

  std::vector<Tensor> clipped = clipGradients(s.options, std::move(kept));
  Tensor iteration = s.iterations.value();
  Tensor lr = s.learningRate(iteration);
  Tensor step = iteration + int64_t(1);
  for (size_t i = 0; i < keptVars.size(); ++i) {
    DType dt = keptVars[i].dtype();
    auto &entry = s.entries[s.byId.at(keptVars[i].id())];
    s.update(keptVars[i], clipped[i], entry.slots, cast(lr, dt),
             cast(step, dt));
  }
  s.iterations.assign_add(int64_t(1));
}

std::vector<Variable> Optimizer::variables() const {
  const OptimizerState &s = *require(state_, "variables");
  std::vector<Variable> out = {s.iterations};
  for (const auto &e : s.entries)
    out.insert(out.end(), e.slots.begin(), e.slots.end());
  return out;
}

std::vector<SlotVariable> Optimizer::slot_variables() const {
  const OptimizerState &s = *require(state_, "slot_variables");
  std::vector<std::string> names = s.slotNames();
  std::vector<SlotVariable> out;
  for (const auto &e : s.entries)
    for (size_t k = 0; k < e.slots.size(); ++k)
      out.push_back({names[k], e.var, e.slots[k]});
  return out;
}

Variable Optimizer::iterations() const {
  return require(state_, "iterations")->iterations;
}

Tensor Optimizer::learning_rate() const {
  const OptimizerState &s = *require(state_, "learning_rate");
  return s.learningRate(s.iterations.value());
}

const std::string &Optimizer::name() const {
  return require(state_, "name")->name;
}

namespace optimizers {

Optimizer SGD(SGDOptions o) { return Optimizer(std::make_shared<SGDState>(o)); }

Optimizer Adam(AdamOptions o) {
  return Optimizer(std::make_shared<AdamState>(
      "Adam",
      validateCommon("Adam", o.learning_rate, o.clipnorm, o.clipvalue,
                     o.global_clipnorm, o.schedule),
      o.beta_1, o.beta_2, o.epsilon, o.amsgrad, /*weight_decay=*/0));
}

Optimizer AdamW(AdamWOptions o) {
  return Optimizer(std::make_shared<AdamState>(
      "AdamW",
      validateCommon("AdamW", o.learning_rate, o.clipnorm, o.clipvalue,
                     o.global_clipnorm, o.schedule),
      o.beta_1, o.beta_2, o.epsilon, o.amsgrad, o.weight_decay));
}

Optimizer RMSprop(RMSpropOptions o) {
  return Optimizer(std::make_shared<RMSpropState>(o));
}

} // namespace optimizers

} // namespace tfc::keras
