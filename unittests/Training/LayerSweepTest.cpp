//===- LayerSweepTest.cpp - every built-in layer, checked three ways ------===//
//
// Each built-in layer configuration (and each activation name) against:
// Keras's parameter count and output shape for the same configuration,
// written as literals from Keras's formulas; the tape's gradients against
// central finite differences of the float32 forward (sums in float64), and
// the tape inside a tfc::function against the eager tape; and the eager
// call against the same call inside a tfc::function, including the state a
// call changes (BatchNormalization's moving statistics, Dropout's
// generator). Also: each activation against Keras's formula in double, the
// sweep against the activation table, and the MLP and CNN counts.
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Layers.h"
#include "tfc/keras/Model.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Function.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"

#include "TestCacheDir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace tfc;
using namespace tfc::keras;

TFC_TEST_PRIVATE_CACHE_DIR("tfc-layer-sweep-tests");

namespace {

/// A case's input and mode, and which checks need special handling.
enum class Kind {
  Inference,       ///< Float input of distinct values away from zero.
  Ids,             ///< Int32 ids (inference): no input gradient.
  DropoutTraining, ///< The mask replaces finite differences.
  BatchStatistics, ///< BatchNormalization in training: updates statistics.
};

struct Case {
  std::string name;
  Kind kind;
  Shape input, output;
  int64_t params;    ///< Keras's count_params() for this configuration.
  int64_t trainable; ///< Keras's trainable parameter count.
  std::function<Layer()> make;
  bool training() const {
    return kind == Kind::DropoutTraining || kind == Kind::BatchStatistics;
  }
};

constexpr double dropoutRate = 0.4;
constexpr uint64_t dropoutSeed = 77;

int64_t numElements(const Shape &s) {
  int64_t n = 1;
  for (int64_t d : s)
    n *= d;
  return n;
}

std::vector<double> values64(const Tensor &t) {
  return cast(t, DType::Float64).to_vector<double>();
}

/// Distinct values evenly spaced in [-2, 2], shuffled: no two elements of a
/// pooling window tie and none sits on relu's kink at zero, so a
/// perturbation of 1e-2 never crosses a non-smooth point.
Tensor distinctInput(const Shape &shape, uint32_t seed) {
  const int64_t n = numElements(shape);
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[size_t(i)] = float(-2.0 + 4.0 * (double(i) + 0.5) / double(n));
  std::shuffle(v.begin(), v.end(), std::mt19937(seed));
  return from_vector(v, shape);
}

/// Ids for Embedding(6, ...): repeats, so gradients must add up per row.
Tensor idsInput(const Shape &shape) {
  std::vector<int32_t> ids(static_cast<size_t>(numElements(shape)));
  for (size_t i = 0; i < ids.size(); ++i)
    ids[i] = int32_t((i * 5 + 2) % 6);
  return from_vector(ids, shape);
}

Tensor inputFor(const Case &c) {
  return c.kind == Kind::Ids ? idsInput(c.input) : distinctInput(c.input, 3);
}

/// Moves every weight off its initial value (zero biases, unit gammas,
/// moving statistics at 0 and 1), so each weight's gradient path is
/// exercised; moving variances stay positive.
void perturbWeights(const Layer &layer, uint64_t seed) {
  auto gen = random::Generator::from_seed(seed);
  for (Variable v : layer.trainable_variables())
    v.assign(v.value() + gen.normal(v.shape(), 0, 0.2));
  for (Variable v : layer.non_trainable_variables())
    v.assign(v.value() + gen.uniform(v.shape(), 0, 0.5));
}

/// |got - want| <= rel * |want| elementwise, with a floor of 1% of the
/// tensor's largest magnitude for elements that cancel to near zero.
void expectClose(const std::vector<double> &got,
                 const std::vector<double> &want, double rel,
                 const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double largest = 0;
  for (double w : want)
    largest = std::max(largest, std::fabs(w));
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], rel * (std::fabs(want[i]) + 0.01 * largest))
        << what << " at " << i;
}

std::string activationCaseName(const std::string &a) {
  return a.empty() ? "default" : a;
}

/// The activation table's names, "" included (activation() in Layers.h).
const std::vector<std::string> &activationNames() {
  static const std::vector<std::string> names = {
      "",         "linear",      "relu", "sigmoid", "tanh",
      "softmax",  "log_softmax", "gelu", "elu",     "selu",
      "softplus", "leaky_relu",  "silu", "swish",   "exponential"};
  return names;
}

// Expected counts: Keras's formulas with the configuration's numbers.
std::vector<Case> cases() {
  std::vector<Case> c;
  auto add = [&c](std::string name, Kind kind, Shape in, Shape out,
                  int64_t params, int64_t trainable,
                  std::function<Layer()> make) {
    c.push_back({std::move(name), kind, std::move(in), std::move(out), params,
                 trainable, std::move(make)});
  };
  const Kind inference = Kind::Inference;
  // units * (d + 1), or d * units without a bias.
  add("Dense", inference, {3, 5}, {3, 4}, 5 * 4 + 4, 24,
      [] { return layers::Dense(4); });
  add("DenseTanhRank3", inference, {2, 3, 4}, {2, 3, 3}, 4 * 3 + 3, 15,
      [] { return layers::Dense(3, {.activation = "tanh"}); });
  add("DenseNoBias", inference, {2, 6}, {2, 3}, 6 * 3, 18,
      [] { return layers::Dense(3, {.use_bias = false}); });
  // kh * kw * cin * filters + filters.
  add("Conv2DValid", inference, {2, 5, 5, 2}, {2, 3, 3, 3}, 3 * 3 * 2 * 3 + 3,
      57, [] {
        return layers::Conv2D(3, {3, 3});
      });
  add("Conv2DSame", inference, {1, 4, 4, 3}, {1, 4, 4, 2}, 3 * 3 * 3 * 2 + 2,
      56, [] {
        return layers::Conv2D(2, {3, 3}, {.padding = Padding::Same});
      });
  // SAME, stride 2: ceil(5 / 2) = 3.
  add("Conv2DStride2Same", inference, {1, 5, 5, 2}, {1, 3, 3, 2},
      3 * 3 * 2 * 2 + 2, 38, [] {
        return layers::Conv2D(2, {3, 3},
                              {.strides = {2, 2}, .padding = Padding::Same});
      });
  // VALID, stride 2: floor((6 - 3) / 2) + 1 = floor((5 - 2) / 2) + 1 = 2.
  add("Conv2DStride2Valid", inference, {1, 6, 5, 2}, {1, 2, 2, 3},
      3 * 2 * 2 * 3 + 3, 39, [] {
        return layers::Conv2D(3, {3, 2}, {.strides = {2, 2}});
      });
  add("MaxPooling2D", inference, {2, 4, 4, 3}, {2, 2, 2, 3}, 0, 0,
      [] { return layers::MaxPooling2D(); });
  // VALID drops the last row and column.
  add("MaxPooling2DOdd", inference, {1, 5, 5, 2}, {1, 2, 2, 2}, 0, 0,
      [] { return layers::MaxPooling2D(); });
  add("AveragePooling2D", inference, {1, 4, 6, 2}, {1, 2, 2, 2}, 0, 0, [] {
    return layers::AveragePooling2D({2, 3});
  });
  add("GlobalAveragePooling2D", inference, {2, 3, 3, 2}, {2, 2}, 0, 0,
      [] { return layers::GlobalAveragePooling2D(); });
  add("Flatten", inference, {2, 3, 2, 2}, {2, 12}, 0, 0,
      [] { return layers::Flatten(); });
  add("DropoutInference", inference, {4, 6}, {4, 6}, 0, 0,
      [] { return layers::Dropout(dropoutRate, dropoutSeed); });
  add("DropoutTraining", Kind::DropoutTraining, {4, 6}, {4, 6}, 0, 0,
      [] { return layers::Dropout(dropoutRate, dropoutSeed); });
  // gamma, beta, moving mean and variance: 4 f, of which 2 f train.
  add("BatchNormalizationTraining", Kind::BatchStatistics, {5, 3}, {5, 3},
      4 * 3, 2 * 3, [] { return layers::BatchNormalization(); });
  add("BatchNormalizationTrainingNHWC", Kind::BatchStatistics, {2, 2, 2, 3},
      {2, 2, 2, 3}, 4 * 3, 2 * 3, [] { return layers::BatchNormalization(); });
  add("BatchNormalizationInference", inference, {2, 2, 3}, {2, 2, 3}, 4 * 3,
      2 * 3, [] { return layers::BatchNormalization(); });
  // Without gamma and beta: the moving statistics alone, 2 f.
  add("BatchNormalizationNoAffine", inference, {4, 3}, {4, 3}, 2 * 3, 0, [] {
    return layers::BatchNormalization({.center = false, .scale = false});
  });
  // gamma and beta: 2 f.
  add("LayerNormalization", inference, {3, 4}, {3, 4}, 2 * 4, 8,
      [] { return layers::LayerNormalization(); });
  add("LayerNormalizationRank3", inference, {2, 2, 4}, {2, 2, 4}, 2 * 4, 8,
      [] { return layers::LayerNormalization(); });
  // input_dim * output_dim.
  add("Embedding", Kind::Ids, {2, 4}, {2, 4, 3}, 6 * 3, 18,
      [] { return layers::Embedding(6, 3); });
  // 4 * (f * units + units * units + units).
  add("LSTM", inference, {2, 3, 2}, {2, 3}, 4 * (2 * 3 + 3 * 3 + 3), 72,
      [] { return layers::LSTM(3); });
  add("LSTMSequences", inference, {2, 3, 2}, {2, 3, 3}, 4 * (2 * 3 + 3 * 3 + 3),
      72, [] { return layers::LSTM(3, true); });
  // reset_after: 3 * (f * units + units * units) + 2 * 3 * units.
  add("GRU", inference, {2, 3, 2}, {2, 3}, 3 * (2 * 3 + 3 * 3) + 2 * 3 * 3, 63,
      [] { return layers::GRU(3); });
  add("GRUSequences", inference, {2, 3, 2}, {2, 3, 3},
      3 * (2 * 3 + 3 * 3) + 2 * 3 * 3, 63, [] { return layers::GRU(3, true); });
  for (const std::string &a : activationNames())
    add("Activation_" + activationCaseName(a), inference, {3, 8}, {3, 8}, 0, 0,
        [a] { return layers::Activation(a); });
  return c;
}

class LayerSweep : public ::testing::TestWithParam<Case> {};

TEST_P(LayerSweep, ParameterCountAndOutputShapeAreKeras) {
  const Case &c = GetParam();
  set_random_seed(10);
  Layer layer = c.make();
  Tensor y = layer(inputFor(c), c.training());
  EXPECT_EQ(y.shape(), c.output);
  EXPECT_EQ(layer.count_params(), c.params);
  int64_t trainable = 0, frozen = 0;
  for (const Variable &v : layer.trainable_variables())
    trainable += numElements(v.shape());
  for (const Variable &v : layer.non_trainable_variables())
    frozen += numElements(v.shape());
  EXPECT_EQ(trainable, c.trainable);
  EXPECT_EQ(frozen, c.params - c.trainable);
}

/// The loss sum(y^2 * r) in float64 of the float32 output y, for a fixed
/// random r: every output element weighs differently.
Tensor lossOf(const Tensor &y, const Tensor &r) {
  return reduce_sum(square(cast(y, DType::Float64)) * r);
}

/// Compares `grad` with central differences of `loss` over `base`, one
/// element perturbed at a time through `set`. The step is 1e-2 scaled to
/// the value; the difference quotient uses the step float32 really took.
void expectFiniteDifferences(const std::string &what, const Tensor &grad,
                             const std::vector<float> &base,
                             const std::function<void(const Tensor &)> &set,
                             const std::function<double()> &loss,
                             const Shape &shape) {
  ASSERT_EQ(grad.shape(), shape) << what;
  std::vector<double> g = values64(grad), fd(base.size());
  double scale = 0;
  for (size_t i = 0; i < base.size(); ++i) {
    const float h = 1e-2f * std::max(1.f, std::fabs(base[i]));
    std::vector<float> p = base;
    p[i] = base[i] + h;
    const float up = p[i];
    set(from_vector(p, shape));
    const double lp = loss();
    p[i] = base[i] - h;
    const float down = p[i];
    set(from_vector(p, shape));
    const double lm = loss();
    fd[i] = (lp - lm) / (double(up) - double(down));
    scale = std::max(scale, std::fabs(fd[i]));
  }
  set(from_vector(base, shape));
  // A gradient that is all but zero would make the comparison vacuous.
  EXPECT_GT(scale, 1e-3) << what << ": the loss does not depend on it";
  for (size_t i = 0; i < base.size(); ++i)
    EXPECT_NEAR(g[i], fd[i], 2e-2 * (std::fabs(fd[i]) + 0.05 * scale) + 1e-4)
        << what << " element " << i;
}

/// Dropout in training: the gradient is the mask scaled by 1 / (1 - rate),
/// read off a twin layer (same seed, so same mask) applied to ones.
void checkDropoutGradient(const Case &c) {
  Tensor x = inputFor(c);
  Tensor pattern = c.make()(ones(c.input), true);
  Layer drop = c.make();
  Tensor r =
      random::Generator::from_seed(5).normal(c.output, 0, 1, DType::Float64);
  GradientTape tape;
  tape.watch(x);
  Tensor y = drop(x, true);
  Tensor g = tape.gradient(reduce_sum(cast(y, DType::Float64) * r), x);
  std::vector<double> pv = values64(pattern), xv = values64(x),
                      yv = values64(y), gv = values64(g), rv = values64(r);
  const double keep = 1 / (1 - dropoutRate);
  int64_t kept = 0;
  for (size_t i = 0; i < pv.size(); ++i) {
    ASSERT_TRUE(pv[i] == 0 || std::fabs(pv[i] - keep) < 1e-6) << pv[i];
    kept += pv[i] != 0;
    EXPECT_NEAR(yv[i], xv[i] * pv[i], 1e-6) << "element " << i;
    EXPECT_NEAR(gv[i], rv[i] * pv[i], 1e-6 * (1 + std::fabs(rv[i])))
        << "element " << i;
  }
  // Neither nothing nor everything dropped (24 elements, rate 0.4).
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, int64_t(pv.size()));
}

TEST_P(LayerSweep, GradientsMatchFiniteDifferencesEagerAndCompiled) {
  const Case &c = GetParam();
  set_random_seed(11);
  if (c.kind == Kind::DropoutTraining)
    return checkDropoutGradient(c);
  Layer layer = c.make();
  Tensor x = inputFor(c);
  layer(x, false);
  perturbWeights(layer, 12);
  Tensor r =
      random::Generator::from_seed(5).normal(c.output, 0, 1, DType::Float64);
  std::vector<Variable> weights = layer.trainable_variables();
  const bool inputGrad = c.kind != Kind::Ids;
  Tensor gx;
  std::vector<Tensor> gw;
  {
    GradientTape tape(/*persistent=*/true);
    if (inputGrad)
      tape.watch(x);
    Tensor loss = lossOf(layer(x, c.training()), r);
    if (inputGrad)
      gx = tape.gradient(loss, x);
    gw = tape.gradient(loss, weights);
  }
  // The same gradients from a tape inside a compiled function.
  const bool training = c.training();
  auto compiled =
      function([layer, r, weights, inputGrad, training](const Tensor &in) {
        GradientTape tape(/*persistent=*/true);
        if (inputGrad)
          tape.watch(in);
        Tensor loss = lossOf(layer(in, training), r);
        std::vector<Tensor> out = tape.gradient(loss, weights);
        if (inputGrad)
          out.push_back(tape.gradient(loss, in));
        return out;
      });
  std::vector<Tensor> gc = compiled(x);
  ASSERT_EQ(gc.size(), gw.size() + (inputGrad ? 1 : 0));
  for (size_t k = 0; k < gw.size(); ++k)
    expectClose(values64(gc[k]), values64(gw[k]), 1e-4,
                "compiled gradient of weight " + std::to_string(k));
  if (inputGrad)
    expectClose(values64(gc.back()), values64(gx), 1e-4,
                "compiled gradient of the input");

  if (inputGrad) {
    Tensor xp = x;
    expectFiniteDifferences(
        "input", gx, x.to_vector<float>(), [&](const Tensor &v) { xp = v; },
        [&] { return lossOf(layer(xp, c.training()), r).item<double>(); },
        c.input);
  }
  ASSERT_EQ(gw.size(), weights.size());
  for (size_t k = 0; k < weights.size(); ++k) {
    Variable w = weights[k];
    expectFiniteDifferences(
        "weight " + std::to_string(k), gw[k], w.value().to_vector<float>(),
        [&](const Tensor &v) { w.assign(v); },
        [&] { return lossOf(layer(x, c.training()), r).item<double>(); },
        w.shape());
  }
}

/// Every variable's value, in variables() order.
std::vector<std::vector<double>> snapshot(const Layer &layer) {
  std::vector<std::vector<double>> out;
  for (const Variable &v : layer.variables())
    out.push_back(values64(v.value()));
  return out;
}

TEST_P(LayerSweep, EagerAndCompiledForwardAgree) {
  const Case &c = GetParam();
  set_random_seed(13);
  // Two layers with the same weights (and Dropout's same seed: the same
  // generator state), one called eagerly, one through a compiled function,
  // so each call's state changes can be compared too.
  Layer eager = c.make(), traced = c.make();
  Tensor x = inputFor(c);
  eager(x, false);
  traced(x, false);
  perturbWeights(eager, 14);
  std::vector<Variable> ev = eager.variables(), tv = traced.variables();
  ASSERT_EQ(ev.size(), tv.size());
  for (size_t i = 0; i < ev.size(); ++i)
    tv[i].assign(ev[i].value());
  const auto start = snapshot(eager);
  const bool training = c.training();
  auto compiled = function(
      [traced, training](const Tensor &in) { return traced(in, training); });

  std::vector<double> first;
  for (int call = 0; call < 2; ++call) {
    const std::string at = "call " + std::to_string(call);
    std::vector<double> ye = values64(eager(x, training));
    std::vector<double> yc = values64(compiled(x));
    expectClose(yc, ye, 1e-5, at + " output");
    auto se = snapshot(eager), sc = snapshot(traced);
    ASSERT_EQ(se.size(), sc.size());
    for (size_t i = 0; i < se.size(); ++i)
      expectClose(sc[i], se[i], 1e-5, at + " variable " + std::to_string(i));
    if (call == 0) {
      first = ye;
    } else if (c.kind == Kind::DropoutTraining) {
      EXPECT_NE(ye, first) << "a second call draws a new mask";
    }
  }

  if (c.kind == Kind::DropoutTraining) {
    EXPECT_NE(first, values64(x)) << "nothing was dropped";
  } else if (c.kind == Kind::BatchStatistics) {
    // Two updates moving = moving * 0.99 + batch * 0.01 from the start, with
    // the batch's mean and biased variance over all but the last axis.
    const int64_t f = c.input.back(), n = numElements(c.input) / f;
    std::vector<double> xv = values64(x), mean(static_cast<size_t>(f), 0),
                        var(static_cast<size_t>(f), 0);
    for (int64_t i = 0; i < n * f; ++i)
      mean[size_t(i % f)] += xv[size_t(i)] / double(n);
    for (int64_t i = 0; i < n * f; ++i)
      var[size_t(i % f)] +=
          std::pow(xv[size_t(i)] - mean[size_t(i % f)], 2) / double(n);
    // variables(): gamma, beta, moving mean, moving variance.
    auto end = snapshot(traced);
    ASSERT_EQ(end.size(), 4u);
    for (size_t j = 0; j < size_t(f); ++j) {
      double m = start[2][j], v = start[3][j];
      for (int k = 0; k < 2; ++k)
        m = m * 0.99 + mean[j] * 0.01, v = v * 0.99 + var[j] * 0.01;
      EXPECT_NEAR(end[2][j], m, 1e-5) << "moving mean " << j;
      EXPECT_NEAR(end[3][j], v, 1e-5) << "moving variance " << j;
    }
  } else {
    // Inference and stateless layers leave every variable alone.
    auto end = snapshot(traced);
    for (size_t i = 0; i < end.size(); ++i)
      expectClose(end[i], start[i], 0, "variable " + std::to_string(i));
  }
}

INSTANTIATE_TEST_SUITE_P(BuiltinLayers, LayerSweep,
                         ::testing::ValuesIn(cases()),
                         [](const auto &info) { return info.param.name; });

/// Keras 3's activations, written out in double.
double activationReference(const std::string &a, const std::vector<double> &row,
                           size_t j) {
  const double x = row[j];
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  auto logSumExp = [&] {
    double m = *std::max_element(row.begin(), row.end()), s = 0;
    for (double v : row)
      s += std::exp(v - m);
    return m + std::log(s);
  };
  if (a.empty() || a == "linear")
    return x;
  if (a == "relu")
    return std::max(x, 0.0);
  if (a == "sigmoid")
    return sigmoid(x);
  if (a == "tanh")
    return std::tanh(x);
  if (a == "softmax")
    return std::exp(x - logSumExp());
  if (a == "log_softmax")
    return x - logSumExp();
  if (a == "gelu") // approximate=False
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  if (a == "elu") // alpha 1
    return x > 0 ? x : std::expm1(x);
  if (a == "selu")
    return 1.0507009873554804934 *
           (x > 0 ? x : 1.6732632423543772848 * std::expm1(x));
  if (a == "softplus")
    return std::log1p(std::exp(x));
  if (a == "leaky_relu") // negative_slope 0.2
    return x > 0 ? x : 0.2 * x;
  if (a == "silu" || a == "swish")
    return x * sigmoid(x);
  if (a == "exponential")
    return std::exp(x);
  ADD_FAILURE() << "no reference for activation '" << a << "'";
  return 0;
}

class ActivationSweep : public ::testing::TestWithParam<std::string> {};

TEST_P(ActivationSweep, MatchesKerasFormula) {
  const std::string &a = GetParam();
  const int64_t rows = 3, cols = 8;
  Tensor x = distinctInput({rows, cols}, 4);
  std::vector<double> xv = values64(x), want;
  for (int64_t r = 0; r < rows; ++r) {
    std::vector<double> row(xv.begin() + r * cols, xv.begin() + (r + 1) * cols);
    for (size_t j = 0; j < size_t(cols); ++j)
      want.push_back(activationReference(a, row, j));
  }
  expectClose(values64(layers::Activation(a)(x)), want, 1e-5, a);
}

INSTANTIATE_TEST_SUITE_P(AllNames, ActivationSweep,
                         ::testing::ValuesIn(activationNames()),
                         [](const auto &info) {
                           return activationCaseName(info.param);
                         });

TEST(LayerSweepCoverage, EveryActivationNameIsSwept) {
  // The error for an unknown name lists the table's names; a name added to
  // the table and missing here fails this test.
  std::string message;
  try {
    activation("no-such-activation", constant({1.f}));
  } catch (const InvalidArgumentError &e) {
    message = e.what();
  }
  const std::string marker = "(known: ";
  size_t at = message.find(marker);
  ASSERT_NE(at, std::string::npos) << message;
  std::string list = message.substr(at + marker.size());
  list = list.substr(0, list.find(')'));
  std::set<std::string> known;
  for (size_t pos = 0; pos <= list.size();) {
    size_t comma = list.find(", ", pos);
    known.insert(list.substr(pos, comma - pos));
    if (comma == std::string::npos)
      break;
    pos = comma + 2;
  }
  std::set<std::string> swept;
  for (const std::string &a : activationNames())
    if (!a.empty())
      swept.insert(a);
  EXPECT_EQ(known, swept);
}

/// Sums each sublayer's count and checks it against Keras's per-layer
/// numbers, then the model's total.
void expectModelParams(const Model &m, const std::vector<int64_t> &perLayer,
                       int64_t total) {
  std::vector<Layer> ls = m.layers();
  ASSERT_EQ(ls.size(), perLayer.size());
  for (size_t i = 0; i < ls.size(); ++i)
    EXPECT_EQ(ls[i].count_params(), perLayer[i]) << ls[i].name();
  EXPECT_EQ(m.count_params(), total);
  int64_t trainable = 0;
  for (const Variable &v : m.trainable_variables())
    trainable += numElements(v.shape());
  EXPECT_EQ(trainable, total);
}

TEST(LayerSweepModels, MlpHasKerasParameterCount) {
  Model m = Sequential(
      {layers::Flatten(), layers::Dense(256, {.activation = "relu"}),
       layers::Dense(128, {.activation = "relu"}), layers::Dense(10)});
  m.build({-1, 28, 28});
  // 784 * 256 + 256 = 200,960; 256 * 128 + 128 = 32,896; 128 * 10 + 10 =
  // 1,290; total 235,146.
  expectModelParams(m, {0, 200960, 32896, 1290}, 235146);
}

TEST(LayerSweepModels, CnnHasKerasParameterCount) {
  Model m = Sequential({layers::Conv2D(32, {3, 3}, {.activation = "relu"}),
                        layers::MaxPooling2D(),
                        layers::Conv2D(64, {3, 3}, {.activation = "relu"}),
                        layers::MaxPooling2D(), layers::Flatten(),
                        layers::Dropout(0.5), layers::Dense(10)});
  m.build({-1, 28, 28, 1});
  // Conv 3*3*1*32 + 32 = 320 (28 -> 26, pooled 13); conv 3*3*32*64 + 64 =
  // 18,496 (13 -> 11, pooled 5); flatten 5*5*64 = 1,600; dense 1600*10 + 10
  // = 16,010; total 320 + 18,496 + 16,010 = 34,826.
  expectModelParams(m, {320, 0, 18496, 0, 0, 0, 16010}, 34826);
  EXPECT_EQ(m(zeros({2, 28, 28, 1})).shape(), (Shape{2, 10}));
}

} // namespace
