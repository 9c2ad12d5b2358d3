//===- OptimizersTest.cpp - keras optimizers and schedules ----------------===//
//
// Every optimizer and option against a double-precision reference written
// from Keras 3's formulas (Ref* below), eagerly and inside a tfc::function
// (one trace for several steps), plus a few literal hand-computed steps.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include "tfc/keras/Losses.h"
#include "tfc/keras/Metrics.h"
#include "tfc/keras/Optimizers.h"

#include <gtest/gtest.h>

#include "TestCacheDir.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

using namespace tfc;
using namespace tfc::keras;

namespace {

TFC_TEST_PRIVATE_CACHE_DIR("tfc-optimizer-tests");

using Vec = std::vector<double>;

Vec toDouble(const Tensor &t) {
  if (t.dtype() == DType::Float64)
    return t.to_vector<double>();
  std::vector<float> f = t.to_vector<float>();
  return Vec(f.begin(), f.end());
}

/// |a - b| <= rtol * max(|a|, |b|) + atol, elementwise.
void expectClose(const Vec &actual, const Vec &expected, double rtol,
                 double atol, const std::string &what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (size_t i = 0; i < actual.size(); ++i)
    EXPECT_LE(std::fabs(actual[i] - expected[i]),
              rtol * std::max(std::fabs(actual[i]), std::fabs(expected[i])) +
                  atol)
        << what << " element " << i << ": " << actual[i] << " vs "
        << expected[i];
}

// --- The reference: Keras 3's update rules in double ------------------------

/// Clipping and learning rate as the reference sees them.
struct RefCommon {
  std::function<double(int64_t iteration)> lr;
  double clipnorm = 0, clipvalue = 0, global_clipnorm = 0;
};

std::vector<Vec> refClip(const RefCommon &c, std::vector<Vec> g) {
  if (c.clipnorm > 0) {
    for (Vec &x : g) {
      double n = 0;
      for (double e : x)
        n += e * e;
      n = std::sqrt(n);
      for (double &e : x)
        e = e * c.clipnorm / std::max(n, c.clipnorm);
    }
  } else if (c.global_clipnorm > 0) {
    double n = 0;
    for (const Vec &x : g)
      for (double e : x)
        n += e * e;
    n = std::sqrt(n);
    double scale = c.global_clipnorm * std::min(1 / n, 1 / c.global_clipnorm);
    for (Vec &x : g)
      for (double &e : x)
        e *= scale;
  } else if (c.clipvalue > 0) {
    for (Vec &x : g)
      for (double &e : x)
        e = std::clamp(e, -c.clipvalue, c.clipvalue);
  }
  return g;
}

/// Runs `steps` (one gradient list per step) on `w` with `update(w, g, lr,
/// t, slotIndex)` per element, where t is the 1-based step.
struct RefOptimizer {
  RefCommon common;
  /// Per element: w, g, lr, t, and the element's slots (3 doubles).
  std::function<void(double &w, double g, double lr, double t, double *s)>
      update;
  std::vector<Vec> run(std::vector<Vec> w,
                       const std::vector<std::vector<Vec>> &steps) const {
    std::vector<std::vector<std::array<double, 3>>> slots;
    for (const Vec &x : w)
      slots.emplace_back(x.size(), std::array<double, 3>{0, 0, 0});
    for (size_t t = 0; t < steps.size(); ++t) {
      std::vector<Vec> g = refClip(common, steps[t]);
      double lr = common.lr(int64_t(t));
      for (size_t v = 0; v < w.size(); ++v)
        for (size_t i = 0; i < w[v].size(); ++i)
          update(w[v][i], g[v][i], lr, double(t + 1), slots[v][i].data());
    }
    return w;
  }
};

RefOptimizer refSGD(RefCommon c, double momentum, bool nesterov) {
  return {c, [=](double &w, double g, double lr, double, double *s) {
            if (momentum == 0) {
              w -= lr * g;
              return;
            }
            s[0] = momentum * s[0] - lr * g;
            w += nesterov ? momentum * s[0] - lr * g : s[0];
          }};
}

RefOptimizer refAdam(RefCommon c, double b1, double b2, double eps,
                     bool amsgrad, double wd = 0) {
  return {c, [=](double &w, double g, double lr, double t, double *s) {
            w -= w * wd * lr;
            double alpha =
                lr * std::sqrt(1 - std::pow(b2, t)) / (1 - std::pow(b1, t));
            s[0] += (g - s[0]) * (1 - b1);
            s[1] += (g * g - s[1]) * (1 - b2);
            s[2] = std::max(s[2], s[1]);
            double v = amsgrad ? s[2] : s[1];
            w -= alpha * s[0] / (std::sqrt(v) + eps);
          }};
}

RefOptimizer refRMSprop(RefCommon c, double rho, double momentum, double eps,
                        bool centered) {
  return {c, [=](double &w, double g, double lr, double, double *s) {
            s[0] = rho * s[0] + (1 - rho) * g * g;
            double denominator = s[0] + eps;
            if (centered) {
              s[2] = rho * s[2] + (1 - rho) * g;
              denominator = s[0] - s[2] * s[2] + eps;
            }
            double increment = lr * g / std::sqrt(denominator);
            if (momentum > 0) {
              s[1] = momentum * s[1] + increment;
              w -= s[1];
            } else {
              w -= increment;
            }
          }};
}

RefCommon constantLr(double lr) {
  return {[lr](int64_t) { return lr; }};
}

// --- The tfc side ------------------------------------------------------------

const std::vector<Vec> kInitial = {{1.0, -2.0, 0.5}, {0.25, -0.75}};
const std::vector<std::vector<Vec>> kGrads = {
    {{0.5, -1.5, 0.1}, {2.0, -0.25}},
    {{-0.3, 0.8, 0.0}, {1.0, 0.5}},
    {{0.9, 0.2, -0.4}, {-1.5, 3.0}},
};

std::vector<Variable> makeVars() {
  std::vector<Variable> vars;
  for (size_t i = 0; i < kInitial.size(); ++i) {
    std::vector<float> f(kInitial[i].begin(), kInitial[i].end());
    vars.emplace_back(from_vector(f, {int64_t(f.size())}),
                      std::string(i == 0 ? "w0" : "w1"));
  }
  return vars;
}

std::vector<Tensor> gradTensors(const std::vector<Vec> &g) {
  std::vector<Tensor> out;
  for (const Vec &x : g)
    out.push_back(from_vector(std::vector<float>(x.begin(), x.end()),
                              {int64_t(x.size())}));
  return out;
}

std::vector<Vec> values(const std::vector<Variable> &vars) {
  std::vector<Vec> out;
  for (const Variable &v : vars)
    out.push_back(toDouble(v.value()));
  return out;
}

/// Runs kGrads through `makeOptimizer()` eagerly and inside a tfc::function,
/// checks both against the reference and each other, and that the function
/// traced once. Returns the eager optimizer (for slot checks).
///
/// Against the reference the tolerance is absolute, `atol` (about 1e-4 of a
/// step of 0.1): float32's 1 - beta_2^t loses about 1e-5 of alpha to
/// cancellation (0.999f is 0.99900001), as in Keras.
Optimizer checkOptimizer(const std::function<Optimizer()> &makeOptimizer,
                         const RefOptimizer &ref, const std::string &what,
                         double atol = 1e-5) {
  std::vector<Vec> expected = ref.run(kInitial, kGrads);

  Optimizer eager = makeOptimizer();
  std::vector<Variable> eagerVars = makeVars();
  for (const auto &g : kGrads)
    eager.apply_gradients(gradTensors(g), eagerVars);

  Optimizer traced = makeOptimizer();
  std::vector<Variable> tracedVars = makeVars();
  traced.build(tracedVars);
  auto step = function([&](const Tensor &g0, const Tensor &g1) {
    traced.apply_gradients({g0, g1}, tracedVars);
    return traced.iterations().value();
  });
  for (const auto &g : kGrads) {
    std::vector<Tensor> gt = gradTensors(g);
    step(gt[0], gt[1]);
  }
  EXPECT_EQ(step.tracing_count(), 1) << what;
  EXPECT_EQ(eager.iterations().value().item<int64_t>(), 3) << what;
  EXPECT_EQ(traced.iterations().value().item<int64_t>(), 3) << what;

  std::vector<Vec> e = values(eagerVars), t = values(tracedVars);
  for (size_t v = 0; v < e.size(); ++v) {
    expectClose(e[v], expected[v], 1e-5, atol,
                what + " eager vs reference, w" + std::to_string(v));
    expectClose(t[v], e[v], 1e-6, 1e-7, what + " traced vs eager");
  }
  // The slots agree too.
  std::vector<Variable> es = eager.variables(), ts = traced.variables();
  EXPECT_EQ(es.size(), ts.size()) << what;
  for (size_t i = 1; i < std::min(es.size(), ts.size()); ++i)
    expectClose(toDouble(ts[i].value()), toDouble(es[i].value()), 1e-6, 1e-7,
                what + " slot " + es[i].name());
  return eager;
}

std::vector<std::string> slotNames(const Optimizer &o) {
  std::vector<std::string> names;
  for (const SlotVariable &s : o.slot_variables())
    if (s.of.name() == "w0")
      names.push_back(s.slot);
  return names;
}

// --- Update rules ------------------------------------------------------------

TEST(Optimizers, SGDPlain) {
  Optimizer o =
      checkOptimizer([] { return optimizers::SGD({.learning_rate = 0.1}); },
                     refSGD(constantLr(0.1), 0, false), "SGD");
  EXPECT_TRUE(o.slot_variables().empty());
  EXPECT_EQ(o.name(), "SGD");
}

TEST(Optimizers, SGDMomentum) {
  Optimizer o = checkOptimizer(
      [] { return optimizers::SGD({.learning_rate = 0.1, .momentum = 0.9}); },
      refSGD(constantLr(0.1), 0.9, false), "SGD momentum");
  EXPECT_EQ(slotNames(o), (std::vector<std::string>{"momentum"}));
}

TEST(Optimizers, SGDNesterov) {
  checkOptimizer(
      [] {
        return optimizers::SGD(
            {.learning_rate = 0.1, .momentum = 0.9, .nesterov = true});
      },
      refSGD(constantLr(0.1), 0.9, true), "SGD nesterov");
}

TEST(Optimizers, SGDMomentumByHand) {
  // v = 0.9 v - 0.1 g; w += v with g = 1: v = -0.1, w = 0.9; v = -0.19,
  // w = 0.71. Nesterov: w += 0.9 v - 0.1 g: 1 - 0.19 = 0.81, then
  // v = -0.19, w = 0.81 - 0.271 = 0.539.
  for (bool nesterov : {false, true}) {
    Variable w(constant({1.f}), "w");
    Optimizer o = optimizers::SGD(
        {.learning_rate = 0.1, .momentum = 0.9, .nesterov = nesterov});
    o.apply_gradients({constant({1.f})}, {w});
    EXPECT_NEAR(w.value().to_vector<float>()[0], nesterov ? 0.81 : 0.9, 1e-6);
    o.apply_gradients({constant({1.f})}, {w});
    EXPECT_NEAR(w.value().to_vector<float>()[0], nesterov ? 0.539 : 0.71, 1e-6);
  }
}

TEST(Optimizers, Adam) {
  Optimizer o =
      checkOptimizer([] { return optimizers::Adam({.learning_rate = 0.1}); },
                     refAdam(constantLr(0.1), 0.9, 0.999, 1e-7, false), "Adam");
  EXPECT_EQ(slotNames(o), (std::vector<std::string>{"m", "v"}));
  EXPECT_EQ(o.name(), "Adam");
}

TEST(Optimizers, AdamCustomBetas) {
  checkOptimizer(
      [] {
        return optimizers::Adam({.learning_rate = 0.05,
                                 .beta_1 = 0.5,
                                 .beta_2 = 0.75,
                                 .epsilon = 1e-3});
      },
      refAdam(constantLr(0.05), 0.5, 0.75, 1e-3, false), "Adam betas");
}

TEST(Optimizers, AdamAmsgrad) {
  Optimizer o = checkOptimizer(
      [] {
        return optimizers::Adam(
            {.learning_rate = 0.1, .beta_2 = 0.5, .amsgrad = true});
      },
      refAdam(constantLr(0.1), 0.9, 0.5, 1e-7, true), "Adam amsgrad");
  EXPECT_EQ(slotNames(o), (std::vector<std::string>{"m", "v", "vhat"}));
}

TEST(Optimizers, AdamFirstStepByHand) {
  // m = 0.05, v = 0.00025, alpha = 0.1 sqrt(0.001) / 0.1 = 0.0316227766;
  // w = 1 - alpha m / (sqrt(v) + 1e-7) = 1 - 0.0999993675 = 0.9000006325.
  Variable w(constant({1.f}), "w");
  Optimizer o = optimizers::Adam({.learning_rate = 0.1});
  o.apply_gradients({constant({0.5f})}, {w});
  EXPECT_NEAR(w.value().to_vector<float>()[0], 0.9000006325, 2e-6);
  std::vector<SlotVariable> slots = o.slot_variables();
  ASSERT_EQ(slots.size(), 2u);
  EXPECT_NEAR(slots[0].value.value().to_vector<float>()[0], 0.05, 1e-8);
  EXPECT_NEAR(slots[1].value.value().to_vector<float>()[0], 0.00025, 1e-9);
}

TEST(Optimizers, AdamW) {
  Optimizer o = checkOptimizer(
      [] {
        return optimizers::AdamW({.learning_rate = 0.1, .weight_decay = 0.5});
      },
      refAdam(constantLr(0.1), 0.9, 0.999, 1e-7, false, 0.5), "AdamW");
  EXPECT_EQ(o.name(), "AdamW");
  EXPECT_EQ(slotNames(o), (std::vector<std::string>{"m", "v"}));
}

TEST(Optimizers, AdamWAmsgrad) {
  checkOptimizer(
      [] {
        return optimizers::AdamW(
            {.learning_rate = 0.1, .weight_decay = 0.1, .amsgrad = true});
      },
      refAdam(constantLr(0.1), 0.9, 0.999, 1e-7, true, 0.1), "AdamW amsgrad");
}

TEST(Optimizers, AdamWDecayByHand) {
  // A zero gradient leaves only the decay: w -= w * 0.5 * 0.1 -> 0.95.
  Variable w(constant({1.f}), "w");
  Optimizer o = optimizers::AdamW({.learning_rate = 0.1, .weight_decay = 0.5});
  o.apply_gradients({constant({0.f})}, {w});
  EXPECT_NEAR(w.value().to_vector<float>()[0], 0.95, 1e-7);
}

TEST(Optimizers, RMSprop) {
  Optimizer o = checkOptimizer(
      [] { return optimizers::RMSprop({.learning_rate = 0.01}); },
      refRMSprop(constantLr(0.01), 0.9, 0, 1e-7, false), "RMSprop");
  EXPECT_EQ(slotNames(o), (std::vector<std::string>{"velocity"}));
  EXPECT_EQ(o.name(), "RMSprop");
}

TEST(Optimizers, RMSpropMomentumCentered) {
  Optimizer o = checkOptimizer(
      [] {
        return optimizers::RMSprop({.learning_rate = 0.01,
                                    .rho = 0.8,
                                    .momentum = 0.5,
                                    .centered = true});
      },
      refRMSprop(constantLr(0.01), 0.8, 0.5, 1e-7, true),
      "RMSprop momentum centered");
  EXPECT_EQ(slotNames(o), (std::vector<std::string>{"velocity", "momentum",
                                                    "average_gradient"}));
}

TEST(Optimizers, RMSpropCentered) {
  Optimizer o = checkOptimizer(
      [] {
        return optimizers::RMSprop({.learning_rate = 0.01, .centered = true});
      },
      refRMSprop(constantLr(0.01), 0.9, 0, 1e-7, true), "RMSprop centered");
  EXPECT_EQ(slotNames(o),
            (std::vector<std::string>{"velocity", "average_gradient"}));
}

TEST(Optimizers, RMSpropByHand) {
  // velocity = 0.1 g^2 = 0.4; w = 1 - 0.01 * 2 / sqrt(0.4 + 1e-7).
  Variable w(constant({1.f}), "w");
  Optimizer o = optimizers::RMSprop({.learning_rate = 0.01});
  o.apply_gradients({constant({2.f})}, {w});
  EXPECT_NEAR(w.value().to_vector<float>()[0], 1 - 0.02 / std::sqrt(0.4 + 1e-7),
              1e-7);
}

// --- Clipping ----------------------------------------------------------------

TEST(Optimizers, Clipnorm) {
  RefCommon c = constantLr(0.1);
  c.clipnorm = 1.0;
  checkOptimizer(
      [] { return optimizers::SGD({.learning_rate = 0.1, .clipnorm = 1.0}); },
      refSGD(c, 0, false), "SGD clipnorm");
  checkOptimizer(
      [] { return optimizers::Adam({.learning_rate = 0.1, .clipnorm = 1.0}); },
      refAdam(c, 0.9, 0.999, 1e-7, false), "Adam clipnorm");
}

TEST(Optimizers, GlobalClipnorm) {
  RefCommon c = constantLr(0.1);
  c.global_clipnorm = 1.5;
  checkOptimizer(
      [] {
        return optimizers::SGD(
            {.learning_rate = 0.1, .momentum = 0.5, .global_clipnorm = 1.5});
      },
      refSGD(c, 0.5, false), "SGD global_clipnorm");
  checkOptimizer(
      [] {
        return optimizers::RMSprop(
            {.learning_rate = 0.1, .global_clipnorm = 1.5});
      },
      refRMSprop(c, 0.9, 0, 1e-7, false), "RMSprop global_clipnorm");
}

TEST(Optimizers, Clipvalue) {
  RefCommon c = constantLr(0.1);
  c.clipvalue = 0.6;
  checkOptimizer(
      [] { return optimizers::SGD({.learning_rate = 0.1, .clipvalue = 0.6}); },
      refSGD(c, 0, false), "SGD clipvalue");
  checkOptimizer(
      [] {
        return optimizers::AdamW({.learning_rate = 0.1, .clipvalue = 0.6});
      },
      refAdam(c, 0.9, 0.999, 1e-7, false, 0.004), "AdamW clipvalue");
}

TEST(Optimizers, ClipByHand) {
  // g = (3, 4), |g| = 5. clipnorm 1 -> (0.6, 0.8); clipvalue 1 -> (1, 1);
  // global_clipnorm 2.5 over (3, 4) and (0,) -> (1.5, 2).
  auto stepOf = [](optimizers::SGDOptions options) {
    Variable w(constant({0.f, 0.f}), "w");
    optimizers::SGD(options).apply_gradients({constant({3.f, 4.f})}, {w});
    return toDouble(w.value());
  };
  expectClose(stepOf({.learning_rate = 1, .clipnorm = 1.0}), {-0.6, -0.8}, 1e-7,
              0, "clipnorm");
  expectClose(stepOf({.learning_rate = 1, .clipvalue = 1.0}), {-1, -1}, 0, 0,
              "clipvalue");
  expectClose(stepOf({.learning_rate = 1, .global_clipnorm = 2.5}), {-1.5, -2},
              1e-7, 0, "global_clipnorm");
  // Below the threshold nothing changes; a zero gradient stays zero.
  expectClose(stepOf({.learning_rate = 1, .clipnorm = 10.0}), {-3, -4}, 1e-7, 0,
              "clipnorm above the norm");
  Variable z(constant({0.f}), "z");
  optimizers::SGD({.learning_rate = 1, .clipnorm = 1.0})
      .apply_gradients({constant({0.f})}, {z});
  EXPECT_EQ(z.value().to_vector<float>(), (std::vector<float>{0.f}));
}

// --- Schedules ---------------------------------------------------------------

/// The schedule at each step, eagerly and traced (one trace).
std::vector<double> scheduleValues(const LearningRateSchedule &s,
                                   const std::vector<int64_t> &steps) {
  auto traced = function([&](const Tensor &step) { return s(step); });
  std::vector<double> out;
  for (int64_t step : steps) {
    Tensor st = constant(step);
    Tensor e = s(st);
    EXPECT_EQ(e.dtype(), DType::Float32);
    EXPECT_EQ(e.rank(), 0);
    Tensor t = traced(st);
    EXPECT_NEAR(t.item<float>(), e.item<float>(),
                1e-6 * std::fabs(e.item<float>()))
        << s.name() << " step " << step;
    out.push_back(e.item<float>());
  }
  EXPECT_EQ(traced.tracing_count(), 1);
  return out;
}

TEST(Schedules, ExponentialDecay) {
  auto s = schedules::ExponentialDecay(0.1, 10, 0.5);
  expectClose(
      scheduleValues(s, {0, 5, 10, 15, 40}),
      {0.1, 0.1 * std::pow(0.5, 0.5), 0.05, 0.1 * std::pow(0.5, 1.5), 0.1 / 16},
      1e-6, 0, "ExponentialDecay");
  auto st = schedules::ExponentialDecay(0.1, 10, 0.5, /*staircase=*/true);
  expectClose(scheduleValues(st, {0, 9, 10, 15, 29, 30}),
              {0.1, 0.1, 0.05, 0.05, 0.025, 0.0125}, 1e-6, 0,
              "ExponentialDecay staircase");
  EXPECT_EQ(s.name(), "ExponentialDecay");
}

TEST(Schedules, PiecewiseConstantDecay) {
  auto s = schedules::PiecewiseConstantDecay({10, 20}, {1.0, 0.5, 0.1});
  expectClose(scheduleValues(s, {0, 10, 11, 20, 21, 1000}),
              {1.0, 1.0, 0.5, 0.5, 0.1, 0.1}, 1e-7, 0,
              "PiecewiseConstantDecay");
}

TEST(Schedules, CosineDecay) {
  auto s = schedules::CosineDecay(1.0, 100, 0.1);
  auto ref = [](double step) {
    step = std::min(step, 100.0);
    double cosine = 0.5 * (1 + std::cos(M_PI * step / 100));
    return 0.9 * cosine + 0.1;
  };
  expectClose(scheduleValues(s, {0, 25, 50, 99, 100, 200}),
              {ref(0), ref(25), ref(50), ref(99), ref(100), ref(200)}, 1e-6,
              1e-7, "CosineDecay");
  EXPECT_NEAR(scheduleValues(s, {50})[0], 0.55, 1e-6);
}

TEST(Schedules, Errors) {
  EXPECT_THROW(schedules::ExponentialDecay(0.1, 0, 0.5), InvalidArgumentError);
  EXPECT_THROW(schedules::PiecewiseConstantDecay({10}, {1.0}),
               InvalidArgumentError);
  EXPECT_THROW(schedules::PiecewiseConstantDecay({10, 5}, {1.0, 2.0, 3.0}),
               InvalidArgumentError);
  EXPECT_THROW(schedules::CosineDecay(0.1, -1), InvalidArgumentError);
  auto s = schedules::CosineDecay(0.1, 10);
  EXPECT_THROW(s(constant(1.f)), InvalidArgumentError);    // float step
  EXPECT_THROW(s(constant({1, 2})), InvalidArgumentError); // not a scalar
  EXPECT_THROW(LearningRateSchedule()(constant(1)), InvalidArgumentError);
}

TEST(Optimizers, ScheduleDrivesTheLearningRate) {
  // Step 1 runs at iteration 0 (lr 1), steps 2 and 3 at lr 0.1 and 0.01.
  auto schedule = schedules::PiecewiseConstantDecay({0, 1}, {1.0, 0.1, 0.01});
  RefCommon c{[](int64_t it) { return it == 0 ? 1.0 : it == 1 ? 0.1 : 0.01; }};
  Optimizer o = checkOptimizer(
      [&] { return optimizers::SGD({.momentum = 0.9, .schedule = schedule}); },
      refSGD(c, 0.9, false), "SGD schedule");
  EXPECT_NEAR(o.learning_rate().item<float>(), 0.01, 1e-9);
  RefCommon e{[](int64_t it) { return 0.5 * std::pow(0.5, double(it) / 2); }};
  checkOptimizer(
      [] {
        return optimizers::Adam(
            {.schedule = schedules::ExponentialDecay(0.5, 2, 0.5)});
      },
      refAdam(e, 0.9, 0.999, 1e-7, false), "Adam ExponentialDecay", 5e-5);
}

// --- State, building, errors
// ---------------------------------------------------

TEST(Optimizers, StateVariables) {
  Optimizer o = optimizers::Adam({.amsgrad = true});
  std::vector<Variable> vars = makeVars();
  EXPECT_EQ(o.variables().size(), 1u); // iterations only before build
  o.build(vars);
  o.build(vars); // idempotent
  std::vector<Variable> state = o.variables();
  ASSERT_EQ(state.size(), 1u + 3 * vars.size());
  EXPECT_EQ(state[0].dtype(), DType::Int64);
  EXPECT_EQ(state[0].rank(), 0);
  EXPECT_FALSE(state[0].trainable());
  EXPECT_EQ(state[0].name(), "iteration");
  EXPECT_EQ(state[1].name(), "w0_m");
  for (size_t i = 1; i < state.size(); ++i) {
    EXPECT_FALSE(state[i].trainable());
    EXPECT_EQ(state[i].dtype(), DType::Float32);
  }
  std::vector<SlotVariable> slots = o.slot_variables();
  ASSERT_EQ(slots.size(), 6u);
  EXPECT_EQ(slots[3].slot, "m");
  EXPECT_EQ(slots[3].of.id(), vars[1].id());
  EXPECT_EQ(slots[3].value.shape(), vars[1].shape());
  EXPECT_EQ(o.iterations().value().item<int64_t>(), 0);
  EXPECT_NEAR(o.learning_rate().item<float>(), 0.001, 1e-10);
}

TEST(Optimizers, EagerApplyBuildsMissingSlots) {
  Optimizer o = optimizers::SGD({.momentum = 0.5});
  std::vector<Variable> vars = makeVars();
  o.apply_gradients(gradTensors(kGrads[0]), vars);
  EXPECT_EQ(o.slot_variables().size(), 2u);
  Variable extra(constant({1.f}), "extra");
  o.apply_gradients({constant({1.f})}, {extra});
  EXPECT_EQ(o.slot_variables().size(), 3u);
  EXPECT_EQ(o.iterations().value().item<int64_t>(), 2);
}

TEST(Optimizers, TracedApplyNeedsBuild) {
  Optimizer o = optimizers::Adam();
  Variable w(constant({1.f, 2.f}), "unbuilt_w");
  auto step = function([&](const Tensor &g) {
    o.apply_gradients({g}, {w});
    return w.value();
  });
  try {
    step(constant({1.f, 1.f}));
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgumentError &e) {
    std::string m = e.what();
    EXPECT_NE(m.find("build"), std::string::npos) << m;
    EXPECT_NE(m.find("unbuilt_w"), std::string::npos) << m;
  }
  EXPECT_EQ(w.value().to_vector<float>(), (std::vector<float>{1.f, 2.f}));
  // Built eagerly first, the same step traces and runs.
  o.build({w});
  auto step2 = function([&](const Tensor &g) {
    o.apply_gradients({g}, {w});
    return w.value();
  });
  step2(constant({1.f, 1.f}));
  EXPECT_NEAR(w.value().to_vector<float>()[0], 1 - 0.001, 1e-6);
}

TEST(Optimizers, MissingGradientIsSkipped) {
  Optimizer o = optimizers::SGD({.learning_rate = 0.5});
  std::vector<Variable> vars = makeVars();
  o.apply_gradients({Tensor(), gradTensors(kGrads[0])[1]}, vars);
  EXPECT_EQ(toDouble(vars[0].value()), kInitial[0]);
  expectClose(toDouble(vars[1].value()), {0.25 - 1.0, -0.75 + 0.125}, 1e-7, 0,
              "updated");
  EXPECT_EQ(o.iterations().value().item<int64_t>(), 1);
  EXPECT_THROW(o.apply_gradients({Tensor(), Tensor()}, vars),
               InvalidArgumentError);
}

TEST(Optimizers, MismatchesNameTheVariable) {
  Optimizer o = optimizers::Adam();
  std::vector<Variable> vars = makeVars();
  auto message = [&](const std::vector<Tensor> &grads) {
    try {
      o.apply_gradients(grads, vars);
    } catch (const InvalidArgumentError &e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string m = message({constant({1.f, 2.f, 3.f})});
  EXPECT_NE(m.find("1 gradients for 2 variables"), std::string::npos) << m;
  m = message({constant({1.f, 2.f, 3.f}), constant({1.f, 2.f, 3.f})});
  EXPECT_NE(m.find("w1"), std::string::npos) << m;
  EXPECT_NE(m.find("(3,)"), std::string::npos) << m;
  EXPECT_NE(m.find("(2,)"), std::string::npos) << m;
  m = message({constant({1.f, 2.f, 3.f}), constant({1.0, 2.0})});
  EXPECT_NE(m.find("w1"), std::string::npos) << m;
  EXPECT_NE(m.find("float64"), std::string::npos) << m;
  // Failed calls changed nothing.
  EXPECT_EQ(toDouble(vars[0].value()), kInitial[0]);
  EXPECT_EQ(o.iterations().value().item<int64_t>(), 0);
  Variable ints(constant({1, 2}), "ints");
  EXPECT_THROW(o.apply_gradients({constant({1, 1})}, {ints}),
               InvalidArgumentError);
}

TEST(Optimizers, OptionErrors) {
  EXPECT_THROW(optimizers::SGD({.learning_rate = 0}), InvalidArgumentError);
  EXPECT_THROW(optimizers::SGD({.learning_rate = -1}), InvalidArgumentError);
  EXPECT_THROW(optimizers::SGD({.momentum = -0.1}), InvalidArgumentError);
  EXPECT_NO_THROW(optimizers::SGD({.momentum = 1.5}));
  EXPECT_THROW(optimizers::Adam({.beta_1 = 1.0}), InvalidArgumentError);
  EXPECT_THROW(optimizers::Adam({.beta_2 = -0.1}), InvalidArgumentError);
  EXPECT_THROW(optimizers::Adam({.epsilon = -1e-7}), InvalidArgumentError);
  EXPECT_THROW(optimizers::AdamW({.weight_decay = -1}), InvalidArgumentError);
  EXPECT_THROW(optimizers::RMSprop({.rho = 1.0}), InvalidArgumentError);
  EXPECT_THROW(optimizers::SGD({.clipnorm = 1.0, .global_clipnorm = 1.0}),
               InvalidArgumentError);
  EXPECT_THROW(optimizers::SGD({.clipvalue = -1.0}), InvalidArgumentError);
  EXPECT_THROW(Optimizer().apply_gradients({}, {}), InvalidArgumentError);
}

TEST(Optimizers, Float64Variables) {
  Variable w(constant({1.0, -2.0}), "w64");
  Optimizer o = optimizers::Adam({.learning_rate = 0.5});
  for (int i = 0; i < 3; ++i)
    o.apply_gradients({constant({0.5, -1.5})}, {w});
  // The learning rate is a float32 value (as Keras's), the rest float64.
  double lr = double(0.5f);
  std::vector<Vec> ref =
      refAdam(constantLr(lr), 0.9, 0.999, 1e-7, false)
          .run({{1.0, -2.0}}, std::vector<std::vector<Vec>>(3, {{0.5, -1.5}}));
  expectClose(w.value().to_vector<double>(), ref[0], 1e-12, 0, "float64");
}

// --- A whole compiled train step
// ----------------------------------------------

/// fit()'s step: forward, loss, tape gradient, apply_gradients, metrics, all
/// in one tfc::function; against the same step run eagerly.
TEST(Optimizers, CompiledTrainStepMatchesEager) {
  Tensor x = constant({{0.5f, -1.f, 2.f},
                       {1.5f, 0.25f, -0.5f},
                       {-1.f, 1.f, 0.f},
                       {2.f, 0.f, 1.f}});
  Tensor y = constant({0, 2, 1, 2});
  struct Model {
    Variable w{
        constant(
            {{0.1f, -0.2f, 0.3f}, {0.0f, 0.5f, -0.4f}, {0.2f, 0.1f, -0.1f}}),
        "w"};
    Variable b{constant({0.f, 0.1f, -0.1f}), "b"};
    Optimizer opt = optimizers::Adam({.learning_rate = 0.05, .amsgrad = true});
    Loss loss = losses::SparseCategoricalCrossentropy({.from_logits = true});
    Metric mean = metrics::Mean("loss");
    Metric acc = metrics::SparseCategoricalAccuracy();
  };
  auto makeStep = [](Model &m) {
    return [&m](const Tensor &x, const Tensor &y) {
      GradientTape tape;
      Tensor logits = matmul(x, m.w.value()) + m.b.value();
      Tensor l = m.loss(y, logits);
      std::vector<Tensor> g = tape.gradient(l, std::vector<Variable>{m.w, m.b});
      m.opt.apply_gradients(g, {m.w, m.b});
      m.mean.update_state(l);
      m.acc.update_state(y, logits);
      return l;
    };
  };
  Model eager, compiled;
  compiled.opt.build({compiled.w, compiled.b});
  auto eagerStep = makeStep(eager);
  auto compiledStep = function(makeStep(compiled));
  for (int i = 0; i < 4; ++i) {
    float le = eagerStep(x, y).item<float>();
    float lc = compiledStep(x, y).item<float>();
    EXPECT_NEAR(lc, le, 1e-6 * std::fabs(le)) << "step " << i;
  }
  EXPECT_EQ(compiledStep.tracing_count(), 1);
  expectClose(toDouble(compiled.w.value()), toDouble(eager.w.value()), 1e-6,
              1e-7, "w");
  expectClose(toDouble(compiled.b.value()), toDouble(eager.b.value()), 1e-6,
              1e-7, "b");
  EXPECT_NEAR(compiled.mean.result().item<float>(),
              eager.mean.result().item<float>(), 1e-6);
  EXPECT_EQ(compiled.acc.result().item<float>(),
            eager.acc.result().item<float>());
  EXPECT_EQ(compiled.opt.iterations().value().item<int64_t>(), 4);
  // Training lowered the loss.
  EXPECT_LT(
      eager.loss(y, matmul(x, eager.w.value()) + eager.b.value()).item<float>(),
      eager.mean.result().item<float>());
}

} // namespace
