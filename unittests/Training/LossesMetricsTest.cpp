//===- LossesMetricsTest.cpp - keras losses and metrics -------------------===//
//
// Loss values against hand-computed ones (double-precision formulas in the
// test), their gradients against central finite differences, and metrics'
// running results; everything eagerly and inside a tfc::function.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include "tfc/keras/Losses.h"
#include "tfc/keras/Metrics.h"

#include <gtest/gtest.h>

#include "TestCacheDir.h"

#include <cmath>
#include <string>
#include <vector>

using namespace tfc;
using namespace tfc::keras;

namespace {

TFC_TEST_PRIVATE_CACHE_DIR("tfc-loss-metric-tests");

using Vec = std::vector<double>;

double lse(const Vec &x) {
  double s = 0;
  for (double e : x)
    s += std::exp(e);
  return std::log(s);
}
double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double mean(const Vec &x) {
  double s = 0;
  for (double e : x)
    s += e;
  return s / double(x.size());
}

/// loss(y_true, y_pred) eagerly, checked against the same loss inside a
/// tfc::function (relative 1e-6) and against `expected`.
void expectLoss(const Loss &loss, const Tensor &y_true, const Tensor &y_pred,
                double expected, double rtol = 1e-6) {
  Tensor eager = loss(y_true, y_pred);
  ASSERT_EQ(eager.rank(), 0) << loss.name();
  EXPECT_EQ(eager.dtype(), y_pred.dtype()) << loss.name();
  auto traced =
      function([&](const Tensor &t, const Tensor &p) { return loss(t, p); });
  Tensor compiled = traced(y_true, y_pred);
  double e = eager.dtype() == DType::Float32 ? eager.item<float>()
                                             : eager.item<double>();
  double c = compiled.dtype() == DType::Float32 ? compiled.item<float>()
                                                : compiled.item<double>();
  EXPECT_NEAR(e, expected, rtol * std::fabs(expected) + 1e-7) << loss.name();
  EXPECT_NEAR(c, e, 1e-6 * std::fabs(e) + 1e-7) << loss.name() << " traced";
}

/// The tape's gradient of loss(y_true, y_pred) with respect to y_pred
/// (float64) against central differences, eagerly and traced.
void expectGradientMatchesFiniteDifferences(const Loss &loss,
                                            const Tensor &y_true,
                                            const Tensor &y_pred) {
  ASSERT_EQ(y_pred.dtype(), DType::Float64);
  auto gradOf = [&](const Tensor &t, const Tensor &p) {
    GradientTape tape;
    tape.watch(p);
    Tensor l = loss(t, p);
    return tape.gradient(l, p);
  };
  Tensor g = gradOf(y_true, y_pred);
  Tensor gt = function(gradOf)(y_true, y_pred);
  std::vector<double> p = y_pred.to_vector<double>();
  std::vector<double> ge = g.to_vector<double>(), gc = gt.to_vector<double>();
  const double h = 1e-6;
  for (size_t i = 0; i < p.size(); ++i) {
    std::vector<double> plus = p, minus = p;
    plus[i] += h;
    minus[i] -= h;
    double fd =
        (loss(y_true, from_vector(plus, y_pred.shape())).item<double>() -
         loss(y_true, from_vector(minus, y_pred.shape())).item<double>()) /
        (2 * h);
    EXPECT_NEAR(ge[i], fd, 1e-6 + 1e-5 * std::fabs(fd))
        << loss.name() << " element " << i;
    EXPECT_NEAR(gc[i], ge[i], 1e-9 + 1e-6 * std::fabs(ge[i]))
        << loss.name() << " traced gradient, element " << i;
  }
}

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const InvalidArgumentError &e) {
    return e.what();
  }
  return "no error";
}

// --- Losses ------------------------------------------------------------------

TEST(Losses, SparseCategoricalCrossentropyFromLogits) {
  Loss loss = losses::SparseCategoricalCrossentropy({.from_logits = true});
  EXPECT_EQ(loss.name(), "sparse_categorical_crossentropy");
  Tensor logits = constant({{1.f, 2.f, 3.f}, {1.f, 0.f, -1.f}});
  double expected =
      mean({lse({1, 2, 3}) - 3, lse({1, 0, -1}) - 0}); // labels 2, 1
  expectLoss(loss, constant({2, 1}), logits, expected);
  // Labels of shape (N, 1), int64.
  expectLoss(loss, constant({{int64_t(2)}, {int64_t(1)}}), logits, expected);
  // Per-sample values.
  Tensor per = loss.call(constant({2, 1}), logits);
  EXPECT_EQ(per.shape(), (std::vector<int64_t>{2}));
  EXPECT_NEAR(per.to_vector<float>()[1], lse({1, 0, -1}), 1e-6);
}

TEST(Losses, SparseCategoricalCrossentropyProbabilities) {
  Loss loss = losses::SparseCategoricalCrossentropy();
  Tensor probs = constant({{0.2f, 0.3f, 0.5f}, {0.7f, 0.1f, 0.2f}});
  expectLoss(loss, constant({2, 0}), probs,
             mean({-std::log(0.5), -std::log(0.7)}));
  // A zero probability is clipped to 1e-7 (Keras's epsilon), not infinite.
  Tensor zero = constant({{0.f, 1.f}});
  double clipped = -std::log(1e-7) + std::log(1e-7 + (1 - 1e-7));
  expectLoss(loss, constant({0}), zero, clipped, 1e-5);
}

TEST(Losses, CategoricalCrossentropy) {
  Loss probs = losses::CategoricalCrossentropy();
  EXPECT_EQ(probs.name(), "categorical_crossentropy");
  Tensor yt = constant({{0.f, 0.f, 1.f}, {1.f, 0.f, 0.f}});
  // Rows are normalised first: (1, 1, 2) -> (0.25, 0.25, 0.5).
  Tensor yp = constant({{1.f, 1.f, 2.f}, {0.6f, 0.3f, 0.1f}});
  expectLoss(probs, yt, yp, mean({-std::log(0.5), -std::log(0.6)}));
  Loss logits = losses::CategoricalCrossentropy({.from_logits = true});
  Tensor z = constant({{1.f, 2.f, 3.f}, {0.5f, -1.f, 2.f}});
  expectLoss(logits, yt, z,
             mean({lse({1, 2, 3}) - 3, lse({0.5, -1, 2}) - 0.5}));
  // Label smoothing 0.3 over 3 classes: 1 -> 0.8, 0 -> 0.1.
  Loss smooth = losses::CategoricalCrossentropy(
      {.from_logits = true, .label_smoothing = 0.3});
  auto smoothed = [](const Vec &x, int label) {
    double l = lse(x), s = 0;
    for (int i = 0; i < 3; ++i)
      s += (i == label ? 0.8 : 0.1) * (l - x[size_t(i)]);
    return s;
  };
  expectLoss(smooth, yt, z,
             mean({smoothed({1, 2, 3}, 2), smoothed({0.5, -1, 2}, 0)}));
}

TEST(Losses, BinaryCrossentropy) {
  Loss probs = losses::BinaryCrossentropy();
  EXPECT_EQ(probs.name(), "binary_crossentropy");
  auto bce = [](double z, double p) {
    return -(z * std::log(p) + (1 - z) * std::log(1 - p));
  };
  Tensor yt = constant({{1.f}, {0.f}, {1.f}});
  Tensor p = constant({{0.9f}, {0.2f}, {0.4f}});
  double expected = mean({bce(1, 0.9), bce(0, 0.2), bce(1, 0.4)});
  expectLoss(probs, yt, p, expected);
  // y_true of shape (N,) against y_pred (N, 1), integer targets.
  expectLoss(probs, constant({1, 0, 1}), p, expected);
  Loss logits = losses::BinaryCrossentropy({.from_logits = true});
  Tensor x = constant({{2.f, -1.f}, {0.5f, 30.f}});
  Tensor zt = constant({{1.f, 0.f}, {0.f, 0.f}});
  // Large logits stay finite: log(1 + e^30) - 0 = 30 + log1p(e^-30).
  expectLoss(logits, zt, x,
             mean({bce(1, sigmoid(2)), bce(0, sigmoid(-1)),
                   bce(0, sigmoid(0.5)), 30 + std::log1p(std::exp(-30))}));
  // Label smoothing 0.2: 1 -> 0.9, 0 -> 0.1.
  Loss smooth = losses::BinaryCrossentropy({.label_smoothing = 0.2});
  expectLoss(smooth, yt, p,
             mean({bce(0.9, 0.9), bce(0.1, 0.2), bce(0.9, 0.4)}));
}

TEST(Losses, RegressionLosses) {
  Tensor yt = constant({{1.f, 2.f}, {3.f, -1.f}});
  Tensor yp = constant({{1.5f, 0.f}, {3.f, 2.f}});
  // errors 0.5, -2, 0, 3
  Loss mse = losses::MeanSquaredError();
  EXPECT_EQ(mse.name(), "mean_squared_error");
  expectLoss(mse, yt, yp, (0.25 + 4 + 0 + 9) / 4);
  Loss mae = losses::MeanAbsoluteError();
  EXPECT_EQ(mae.name(), "mean_absolute_error");
  expectLoss(mae, yt, yp, (0.5 + 2 + 0 + 3) / 4);
  Loss huber = losses::Huber();
  EXPECT_EQ(huber.name(), "huber_loss");
  expectLoss(huber, yt, yp, (0.125 + 1.5 + 0 + 2.5) / 4);
  Loss huber2 = losses::Huber(2.5);
  expectLoss(huber2, yt, yp, (0.125 + 2 + 0 + (7.5 - 3.125)) / 4);
  // Per-sample: the mean over the last axis.
  Tensor per = mse.call(yt, yp);
  EXPECT_EQ(per.shape(), (std::vector<int64_t>{2}));
  EXPECT_NEAR(per.to_vector<float>()[1], 4.5, 1e-6);
  // (N,) against (N, 1).
  expectLoss(mse, constant({1.f, 2.f}), constant({{2.f}, {4.f}}), 2.5);
}

TEST(Losses, EmptyBatchIsZero) {
  Tensor loss = losses::MeanSquaredError()(zeros({0, 3}), zeros({0, 3}));
  EXPECT_EQ(loss.item<float>(), 0.f);
}

TEST(Losses, GradientsMatchFiniteDifferences) {
  Tensor p = constant({{0.2, 0.3, 0.5}, {0.6, 0.15, 0.25}});
  Tensor logits = constant({{1.0, -0.5, 2.0}, {0.3, 0.1, -1.2}});
  Tensor onehot = constant({{0.0, 0.0, 1.0}, {0.0, 1.0, 0.0}});
  Tensor labels = constant({2, 1});
  expectGradientMatchesFiniteDifferences(
      losses::SparseCategoricalCrossentropy(), labels, p);
  expectGradientMatchesFiniteDifferences(
      losses::SparseCategoricalCrossentropy({.from_logits = true}), labels,
      logits);
  expectGradientMatchesFiniteDifferences(losses::CategoricalCrossentropy(),
                                         onehot, p);
  expectGradientMatchesFiniteDifferences(
      losses::CategoricalCrossentropy(
          {.from_logits = true, .label_smoothing = 0.1}),
      onehot, logits);
  Tensor binary = constant({{1.0, 0.0, 1.0}, {0.0, 0.0, 1.0}});
  expectGradientMatchesFiniteDifferences(
      losses::BinaryCrossentropy({.label_smoothing = 0.1}), binary, p);
  expectGradientMatchesFiniteDifferences(
      losses::BinaryCrossentropy({.from_logits = true}), binary, logits);
  Tensor target = constant({{0.2, 1.0, 0.5}, {1.0, -1.0, 2.0}});
  expectGradientMatchesFiniteDifferences(losses::MeanSquaredError(), target,
                                         logits);
  expectGradientMatchesFiniteDifferences(losses::MeanAbsoluteError(), target,
                                         logits);
  expectGradientMatchesFiniteDifferences(losses::Huber(1.0), target, logits);
}

TEST(Losses, MismatchesNameTheLossAndShapes) {
  std::string m = errorOf([] {
    losses::MeanSquaredError()(zeros({2, 3}), zeros({2, 4}));
  });
  EXPECT_NE(m.find("MeanSquaredError"), std::string::npos) << m;
  EXPECT_NE(m.find("(2, 3)"), std::string::npos) << m;
  EXPECT_NE(m.find("(2, 4)"), std::string::npos) << m;
  // (3,) against (3, 2) would broadcast in NumPy; a loss refuses it.
  m = errorOf([] { losses::Huber()(zeros({3}), zeros({3, 2})); });
  EXPECT_NE(m.find("Huber"), std::string::npos) << m;
  m = errorOf([] {
    losses::SparseCategoricalCrossentropy()(constant({0, 1, 2}), zeros({2, 3}));
  });
  EXPECT_NE(m.find("SparseCategoricalCrossentropy"), std::string::npos) << m;
  EXPECT_NE(m.find("(3,)"), std::string::npos) << m;
  EXPECT_NE(m.find("(2, 3)"), std::string::npos) << m;
  m = errorOf([] {
    losses::SparseCategoricalCrossentropy()(constant({0.f, 1.f}),
                                            zeros({2, 3}));
  });
  EXPECT_NE(m.find("int32 or int64"), std::string::npos) << m;
  m = errorOf([] {
    losses::BinaryCrossentropy()(zeros({2}, DType::Float64), zeros({2}));
  });
  EXPECT_NE(m.find("dtypes"), std::string::npos) << m;
  m = errorOf([] {
    losses::CategoricalCrossentropy()(zeros({2, 3}),
                                      zeros({2, 3}, DType::Int32));
  });
  EXPECT_NE(m.find("float32 or float64"), std::string::npos) << m;
  EXPECT_THROW(losses::CategoricalCrossentropy({.label_smoothing = 1.5}),
               InvalidArgumentError);
  EXPECT_THROW(losses::Huber(0), InvalidArgumentError);
  EXPECT_THROW(Loss()(zeros({1}), zeros({1})), InvalidArgumentError);
  // A label out of range raises instead of giving a made-up loss.
  EXPECT_THROW(losses::SparseCategoricalCrossentropy({.from_logits = true})(
                   constant({3}), zeros({1, 3})),
               Error);
}

// --- Metrics -----------------------------------------------------------------

/// Runs `updates` (each a list of update_state arguments: one tensor for
/// values, two for y_true and y_pred) on a fresh metric eagerly and on
/// another inside a tfc::function (one trace per argument count and shape),
/// and checks both results against `expected`.
void expectMetric(const std::function<Metric()> &make,
                  const std::vector<std::vector<Tensor>> &updates,
                  double expected) {
  Metric eager = make(), traced = make();
  auto one = function([&](const Tensor &v) {
    traced.update_state(v);
    return traced.result();
  });
  auto two = function([&](const Tensor &t, const Tensor &p) {
    traced.update_state(t, p);
    return traced.result();
  });
  for (const auto &u : updates) {
    if (u.size() == 1) {
      eager.update_state(u[0]);
      one(u[0]);
    } else {
      eager.update_state(u[0], u[1]);
      two(u[0], u[1]);
    }
  }
  Tensor r = eager.result();
  EXPECT_EQ(r.dtype(), DType::Float32) << eager.name();
  EXPECT_EQ(r.rank(), 0) << eager.name();
  EXPECT_NEAR(r.item<float>(), expected, 1e-6 * std::fabs(expected) + 1e-7)
      << eager.name();
  EXPECT_NEAR(traced.result().item<float>(), r.item<float>(),
              1e-6 * std::fabs(expected) + 1e-7)
      << eager.name() << " traced";
}

TEST(Metrics, Mean) {
  auto make = [] { return metrics::Mean(); };
  expectMetric(make, {{constant({1.f, 2.f, 3.f})}, {constant(4.f)}}, 2.5);
  // Rank 2: one value per sample (the mean of its row), counted per sample.
  expectMetric(make, {{constant({{1.f, 2.f}, {3.f, 5.f}})}, {constant(0.f)}},
               (1.5 + 4 + 0) / 3);
  // Integers are converted.
  expectMetric(make, {{constant({1, 2})}}, 1.5);
  Metric m = metrics::Mean();
  EXPECT_EQ(m.name(), "mean");
  EXPECT_EQ(m.result().item<float>(), 0.f); // empty: 0, not NaN
  m.update_state(constant({2.f, 4.f}));
  std::vector<Variable> vars = m.variables();
  ASSERT_EQ(vars.size(), 2u);
  EXPECT_EQ(vars[0].name(), "mean/total");
  EXPECT_EQ(vars[1].name(), "mean/count");
  EXPECT_FALSE(vars[0].trainable());
  EXPECT_EQ(vars[0].value().item<float>(), 6.f);
  EXPECT_EQ(vars[1].value().item<float>(), 2.f);
  Metric alias = m; // a handle
  alias.reset_state();
  EXPECT_EQ(m.result().item<float>(), 0.f);
  EXPECT_EQ(vars[1].value().item<float>(), 0.f);
}

TEST(Metrics, Sum) {
  expectMetric([] { return metrics::Sum(); },
               {{constant({1.f, 2.f})}, {constant({{3.f, 4.f}})}}, 10);
  EXPECT_EQ(metrics::Sum().variables().size(), 1u);
  EXPECT_EQ(metrics::Sum().name(), "sum");
}

TEST(Metrics, Accuracy) {
  auto make = [] { return metrics::Accuracy(); };
  expectMetric(make,
               {{constant({1, 2, 3, 4}), constant({1.f, 2.f, 0.f, 4.f})},
                {constant({1}), constant({1.f})}},
               0.8);
  // (N, 1) against (N,).
  expectMetric(make, {{constant({{1}, {2}}), constant({1, 0})}}, 0.5);
  EXPECT_EQ(metrics::Accuracy().name(), "accuracy");
}

TEST(Metrics, BinaryAccuracy) {
  // 0.7 > 0.5 -> 1 (right), 0.4 -> 0 (right), 0.6 -> 1 (wrong), 0.5 -> 0
  // (right: not above the threshold).
  Tensor yt = constant({{1.f}, {0.f}, {0.f}, {0.f}});
  Tensor yp = constant({{0.7f}, {0.4f}, {0.6f}, {0.5f}});
  expectMetric([] { return metrics::BinaryAccuracy(); }, {{yt, yp}}, 0.75);
  // Integer targets of shape (N,); another threshold.
  expectMetric([] { return metrics::BinaryAccuracy("b", 0.65); },
               {{constant({1, 0, 0, 0}), yp}}, 1);
  EXPECT_EQ(metrics::BinaryAccuracy().name(), "binary_accuracy");
}

TEST(Metrics, SparseCategoricalAccuracy) {
  auto make = [] { return metrics::SparseCategoricalAccuracy(); };
  Tensor p =
      constant({{0.1f, 0.6f, 0.3f}, {0.8f, 0.1f, 0.1f}, {0.2f, 0.3f, 0.5f}});
  expectMetric(make, {{constant({1, 0, 0}), p}}, 2.0 / 3);
  expectMetric(make,
               {{constant({{int64_t(1)}, {int64_t(1)}, {int64_t(2)}}), p},
                {constant({2}), constant({{0.f, 0.f, 1.f}})}},
               3.0 / 4);
  EXPECT_EQ(metrics::SparseCategoricalAccuracy().name(),
            "sparse_categorical_accuracy");
}

TEST(Metrics, CategoricalAccuracy) {
  Tensor yt = constant({{0.f, 1.f, 0.f}, {1.f, 0.f, 0.f}});
  Tensor yp = constant({{0.1f, 0.6f, 0.3f}, {0.2f, 0.7f, 0.1f}});
  expectMetric([] { return metrics::CategoricalAccuracy(); }, {{yt, yp}}, 0.5);
  EXPECT_EQ(metrics::CategoricalAccuracy().name(), "categorical_accuracy");
}

TEST(Metrics, TopKCategoricalAccuracy) {
  Tensor yp = constant({{0.1f, 0.4f, 0.3f, 0.2f},
                        {0.5f, 0.1f, 0.2f, 0.2f},
                        {0.3f, 0.3f, 0.3f, 0.1f}});
  // k = 2. Row 0: class 2 (0.3) is second: in. Row 1: class 3 (0.2) ties
  // with class 2 for second: in (tf.math.in_top_k). Row 2: class 3 last:
  // out.
  Tensor labels = constant({2, 3, 3});
  expectMetric([] { return metrics::SparseTopKCategoricalAccuracy(2); },
               {{labels, yp}}, 2.0 / 3);
  Tensor onehot = one_hot(labels, 4);
  expectMetric([] { return metrics::TopKCategoricalAccuracy(2); },
               {{onehot, yp}}, 2.0 / 3);
  // k = 1 is categorical accuracy; k >= classes accepts every valid label.
  expectMetric([] { return metrics::SparseTopKCategoricalAccuracy(1); },
               {{constant({1, 0, 0}), yp}}, 1);
  expectMetric([] { return metrics::SparseTopKCategoricalAccuracy(); },
               {{labels, yp}}, 1);
  // An out-of-range label is never in the top k.
  expectMetric([] { return metrics::SparseTopKCategoricalAccuracy(); },
               {{constant({7, 3, 3}), yp}}, 2.0 / 3);
  EXPECT_EQ(metrics::TopKCategoricalAccuracy().name(),
            "top_k_categorical_accuracy");
  EXPECT_EQ(metrics::SparseTopKCategoricalAccuracy().name(),
            "sparse_top_k_categorical_accuracy");
  EXPECT_THROW(metrics::TopKCategoricalAccuracy(0), InvalidArgumentError);
}

TEST(Metrics, LossWrappers) {
  Tensor yt = constant({{1.f, 2.f}, {3.f, -1.f}});
  Tensor yp = constant({{1.5f, 0.f}, {3.f, 2.f}});
  expectMetric([] { return metrics::MeanSquaredError(); }, {{yt, yp}},
               (0.25 + 4 + 0 + 9) / 4);
  expectMetric(
      [] {
        return metrics::MeanMetricWrapper(losses::MeanAbsoluteError(), "mae");
      },
      {{yt, yp}, {constant({{0.f, 0.f}}), constant({{1.f, 1.f}})}},
      ((0.5 + 2) / 2 + (0 + 3) / 2.0 + 1) / 3);
  EXPECT_EQ(metrics::MeanSquaredError().name(), "mean_squared_error");
}

TEST(Metrics, TracedUpdatesTraceOnce) {
  Metric acc = metrics::SparseCategoricalAccuracy();
  auto step = function([&](const Tensor &y, const Tensor &p) {
    acc.update_state(y, p);
    return acc.result();
  });
  Tensor p = constant({{0.1f, 0.9f}, {0.8f, 0.2f}});
  EXPECT_EQ(step(constant({1, 0}), p).item<float>(), 1.f);
  EXPECT_EQ(step(constant({0, 0}), p).item<float>(), 0.75f);
  EXPECT_EQ(step(constant({0, 1}), p).item<float>(), 0.5f);
  EXPECT_EQ(step.tracing_count(), 1);
  acc.reset_state();
  EXPECT_EQ(acc.result().item<float>(), 0.f);
  EXPECT_EQ(step(constant({1, 0}), p).item<float>(), 1.f);
  // reset_state inside a trace, too.
  auto reset = function([&]() {
    acc.reset_state();
    return acc.result();
  });
  EXPECT_EQ(reset().item<float>(), 0.f);
  EXPECT_EQ(acc.variables()[1].value().item<float>(), 0.f);
}

TEST(Metrics, DynamicBatchDim) {
  // With reduce_retracing the batch dim becomes dynamic after the second
  // shape: the metric counts samples and the loss averages at run time.
  FunctionOptions options;
  options.reduce_retracing = true;
  Metric mean = metrics::Mean(), acc = metrics::SparseCategoricalAccuracy();
  Loss loss = losses::SparseCategoricalCrossentropy({.from_logits = true});
  auto step = function(
      [&](const Tensor &y, const Tensor &logits) {
        Tensor l = loss(y, logits);
        mean.update_state(loss.call(y, logits));
        acc.update_state(y, logits);
        return l;
      },
      options);
  Tensor logits = constant({{2.f, 0.f}, {0.f, 1.f}, {3.f, 1.f}, {0.f, 0.5f}});
  Tensor labels = constant({0, 0, 0, 1});
  double sum = 0, right = 0;
  for (int64_t n : {2, 3, 4, 1}) {
    Tensor y = slice(labels, {0}, {n}), x = slice(logits, {0, 0}, {n, 2});
    Tensor per = loss.call(y, x);
    float l = step(y, x).item<float>();
    EXPECT_NEAR(l, loss(y, x).item<float>(), 1e-6) << n;
    for (float v : per.to_vector<float>())
      sum += v;
    std::vector<int32_t> yv = y.to_vector<int32_t>();
    std::vector<float> xv = x.to_vector<float>();
    for (int64_t i = 0; i < n; ++i)
      right +=
          (xv[size_t(2 * i + 1)] > xv[size_t(2 * i)]) == (yv[size_t(i)] == 1);
  }
  EXPECT_NEAR(mean.result().item<float>(), sum / 10, 1e-6);
  EXPECT_NEAR(acc.result().item<float>(), right / 10, 1e-6);
  EXPECT_LE(step.tracing_count(), 3);
}

TEST(Metrics, Errors) {
  std::string m =
      errorOf([] { metrics::Mean().update_state(zeros({2}), zeros({2})); });
  EXPECT_NE(m.find("mean"), std::string::npos) << m;
  EXPECT_NE(m.find("one tensor"), std::string::npos) << m;
  m = errorOf([] { metrics::Accuracy().update_state(zeros({2})); });
  EXPECT_NE(m.find("(y_true, y_pred)"), std::string::npos) << m;
  m = errorOf([] {
    metrics::SparseCategoricalAccuracy().update_state(constant({0, 1, 2}),
                                                      zeros({2, 3}));
  });
  EXPECT_NE(m.find("(3,)"), std::string::npos) << m;
  EXPECT_NE(m.find("(2, 3)"), std::string::npos) << m;
  m = errorOf([] {
    metrics::CategoricalAccuracy().update_state(zeros({2, 3}), zeros({2, 4}));
  });
  EXPECT_NE(m.find("CategoricalAccuracy"), std::string::npos) << m;
  EXPECT_THROW(metrics::Accuracy().update_state(zeros({3}), zeros({2})),
               InvalidArgumentError);
  EXPECT_THROW(Metric().result(), InvalidArgumentError);
  EXPECT_THROW(metrics::MeanMetricWrapper(Loss(), "x"), InvalidArgumentError);
  // A failed update leaves the state as it was.
  Metric acc = metrics::CategoricalAccuracy();
  acc.update_state(constant({{1.f, 0.f}}), constant({{0.9f, 0.1f}}));
  EXPECT_THROW(acc.update_state(zeros({1, 2}), zeros({1, 3})),
               InvalidArgumentError);
  EXPECT_EQ(acc.result().item<float>(), 1.f);
  EXPECT_EQ(acc.variables()[1].value().item<float>(), 1.f);
}

} // namespace
