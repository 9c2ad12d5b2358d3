//===- KerasLayersTest.cpp - layers: building, weights, values ------------===//
//
// Each built-in layer against values computed independently in the test,
// Keras's defaults (initializer ranges, BatchNormalization's statistics),
// the weight order and paths checkpoints rely on, and the errors.
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Layers.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Function.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tfc;
using namespace tfc::keras;

namespace {

std::vector<float> values(const Tensor &t) {
  return cast(t, DType::Float32).to_vector<float>();
}

void expectNear(const std::vector<float> &got, const std::vector<double> &want,
                double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol * (1 + std::fabs(want[i]))) << "at " << i;
}

TEST(KerasLayers, DenseBuildsFromTheInputAndComputesAffine) {
  Layer d = layers::Dense(2, {.activation = "relu",
                              .kernel_initializer = initializers::constant(0.5),
                              .bias_initializer = initializers::constant(-1)});
  EXPECT_FALSE(d.built());
  Tensor x = constant({{1.f, 2.f, 3.f}, {-1.f, 0.f, 0.f}});
  Tensor y = d(x);
  EXPECT_TRUE(d.built());
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 2}));
  // relu(0.5 * sum(x) - 1): row 0: 2, row 1: relu(-1.5) = 0.
  expectNear(values(y), {2, 2, 0, 0});
  ASSERT_EQ(d.trainable_variables().size(), 2u);
  EXPECT_EQ(d.trainable_variables()[0].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(d.count_params(), 3 * 2 + 2);
  auto named = d.named_variables();
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[0].first, "kernel");
  EXPECT_EQ(named[1].first, "bias");
}

TEST(KerasLayers, DenseOnRank3AppliesToTheLastAxis) {
  Layer d = layers::Dense(
      1, {.use_bias = false, .kernel_initializer = initializers::ones()});
  Tensor x = reshape(cast(constant({1, 2, 3, 4, 5, 6, 7, 8}), DType::Float32),
                     {2, 2, 2});
  Tensor y = d(x);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 2, 1}));
  expectNear(values(y), {3, 7, 11, 15});
  EXPECT_EQ(d.trainable_variables().size(), 1u);
}

TEST(KerasLayers, GlorotUniformStaysInKerasLimit) {
  Layer d = layers::Dense(300);
  d(zeros({1, 200}));
  std::vector<float> k = values(d.trainable_variables()[0].value());
  const double limit = std::sqrt(6.0 / (200 + 300));
  double sumsq = 0;
  for (float v : k) {
    ASSERT_LE(std::fabs(v), limit);
    sumsq += double(v) * v;
  }
  // Uniform(-l, l) has variance l^2 / 3.
  EXPECT_NEAR(sumsq / double(k.size()), limit * limit / 3,
              0.02 * limit * limit);
  for (float b : values(d.trainable_variables()[1].value()))
    EXPECT_EQ(b, 0.f);
}

TEST(KerasLayers, SeededInitializersRepeatUnseededDiffer) {
  auto a = initializers::glorot_uniform(42)({4, 4});
  auto b = initializers::glorot_uniform(42)({4, 4});
  EXPECT_EQ(values(a), values(b));
  auto c = initializers::glorot_uniform()({4, 4});
  auto d = initializers::glorot_uniform()({4, 4});
  EXPECT_NE(values(c), values(d));
  set_random_seed(7);
  auto e = initializers::he_normal()({4, 4});
  set_random_seed(7);
  auto f = initializers::he_normal()({4, 4});
  EXPECT_EQ(values(e), values(f));
}

TEST(KerasLayers, OrthogonalIsOrthonormal) {
  for (std::vector<int64_t> shape : {std::vector<int64_t>{6, 4}, {4, 6}}) {
    Tensor q = initializers::orthogonal(1, 3)(shape, DType::Float64);
    // The smaller side's Gram matrix is the identity.
    Tensor g = shape[0] >= shape[1] ? matmul(transpose(q), q)
                                    : matmul(q, transpose(q));
    int64_t m = g.shape()[0];
    std::vector<double> gv = g.to_vector<double>();
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j)
        EXPECT_NEAR(gv[size_t(i * m + j)], i == j ? 1.0 : 0.0, 1e-12);
  }
}

TEST(KerasLayers, Conv2DAndPoolingShapesAndValues) {
  Layer conv = layers::Conv2D(
      2, {3, 3},
      {.padding = Padding::Same, .kernel_initializer = initializers::ones()});
  Tensor x = ones({1, 4, 4, 1});
  Tensor y = conv(x);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{1, 4, 4, 2}));
  // A corner sees 4 ones, an edge 6, the inside 9.
  std::vector<float> v = values(y);
  EXPECT_EQ(v[0], 4.f);
  EXPECT_EQ(v[2], 6.f);
  EXPECT_EQ(v[(1 * 4 + 1) * 2], 9.f);
  EXPECT_EQ(conv.count_params(), 3 * 3 * 1 * 2 + 2);

  Tensor img = reshape(
      cast(constant({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}),
           DType::Float32),
      {1, 4, 4, 1});
  expectNear(values(layers::MaxPooling2D()(img)), {6, 8, 14, 16});
  expectNear(values(layers::AveragePooling2D()(img)), {3.5, 5.5, 11.5, 13.5});
  expectNear(values(layers::GlobalAveragePooling2D()(img)), {8.5});
  Tensor flat = layers::Flatten()(reshape(img, {2, 2, 2, 2}));
  EXPECT_EQ(flat.shape(), (std::vector<int64_t>{2, 8}));
}

TEST(KerasLayers, DropoutOnlyInTrainingAndScales) {
  Layer drop = layers::Dropout(0.5, 9);
  Tensor x = ones({1000});
  EXPECT_EQ(values(drop(x, false)), values(x));
  std::vector<float> y = values(drop(x, true));
  int kept = 0;
  for (float v : y) {
    ASSERT_TRUE(v == 0.f || v == 2.f);
    kept += v == 2.f;
  }
  EXPECT_GT(kept, 400);
  EXPECT_LT(kept, 600);
  // A new call draws a new mask.
  EXPECT_NE(values(drop(x, true)), y);
  EXPECT_THROW(layers::Dropout(1.0), InvalidArgumentError);
}

TEST(KerasLayers, BatchNormalizationTrainsAndInfers) {
  Layer bn = layers::BatchNormalization();
  Tensor x = constant({{1.f, 10.f}, {3.f, 30.f}});
  Tensor y = bn(x, true);
  // Batch statistics: mean (2, 20), biased variance (1, 100).
  const double e = 1e-3;
  expectNear(values(y), {-1 / std::sqrt(1 + e), -10 / std::sqrt(100 + e),
                         1 / std::sqrt(1 + e), 10 / std::sqrt(100 + e)});
  ASSERT_EQ(bn.non_trainable_variables().size(), 2u);
  // moving = 0.99 * moving + 0.01 * batch.
  expectNear(values(bn.non_trainable_variables()[0].value()), {0.02, 0.2});
  expectNear(values(bn.non_trainable_variables()[1].value()),
             {0.99 + 0.01, 0.99 + 1.0});
  // Inference uses the moving statistics and leaves them alone.
  Tensor z = bn(x, false);
  expectNear(values(z),
             {(1 - 0.02) / std::sqrt(1.0 + e), (10 - 0.2) / std::sqrt(1.99 + e),
              (3 - 0.02) / std::sqrt(1.0 + e),
              (30 - 0.2) / std::sqrt(1.99 + e)});
  expectNear(values(bn.non_trainable_variables()[0].value()), {0.02, 0.2});
  EXPECT_EQ(bn.trainable_variables().size(), 2u);
  EXPECT_EQ(bn.count_params(), 8);
}

TEST(KerasLayers, LayerNormalizationNormalisesEachRow) {
  Layer ln = layers::LayerNormalization();
  Tensor y = ln(constant({{1.f, 3.f}, {10.f, 10.f}}));
  const double e = 1e-3;
  expectNear(values(y), {-1 / std::sqrt(1 + e), 1 / std::sqrt(1 + e), 0, 0});
}

TEST(KerasLayers, EmbeddingGathersRows) {
  Layer emb = layers::Embedding(5, 3);
  Tensor ids = constant({{0, 4}, {4, 1}});
  Tensor y = emb(ids);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 2, 3}));
  std::vector<float> table = values(emb.trainable_variables()[0].value());
  for (float v : table)
    EXPECT_LE(std::fabs(v), 0.05f);
  std::vector<float> got = values(y);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(got[size_t(j)], table[size_t(j)]);
    EXPECT_EQ(got[size_t(3 + j)], table[size_t(12 + j)]);
    EXPECT_EQ(got[size_t(9 + j)], table[size_t(3 + j)]);
  }
  EXPECT_THROW(emb(constant({7})), InvalidArgumentError);
}

TEST(KerasLayers, ActivationsByName) {
  Tensor x = constant({-1.f, 0.f, 2.f});
  expectNear(values(layers::Activation("relu")(x)), {0, 0, 2});
  expectNear(values(layers::Activation("sigmoid")(x)),
             {1 / (1 + std::exp(1.0)), 0.5, 1 / (1 + std::exp(-2.0))});
  expectNear(values(activation("silu", x)),
             {-1 / (1 + std::exp(1.0)), 0, 2 / (1 + std::exp(-2.0))});
  EXPECT_THROW(layers::Activation("relu6x"), InvalidArgumentError);
  EXPECT_THROW(layers::Dense(3, {.activation = "nope"}), InvalidArgumentError);
}

/// A subclassed layer: own weight, then two tracked Dense layers.
class TwoDense : public LayerBase {
public:
  TwoDense() {
    a = track(layers::Dense(4));
    b = track(layers::Dense(2));
  }
  void build(const Shape &in) override {
    scale = add_weight("scale", {in.back()}, initializers::ones());
  }
  Tensor call(const Tensor &x, bool training) override {
    return b(a(x * scale->value(), training), training);
  }
  Layer a, b;
  std::optional<Variable> scale;
};

TEST(KerasLayers, SubclassedLayerOrdersWeightsAndNamesPaths) {
  Layer l = make_layer<TwoDense>();
  Tensor y = l(ones({3, 5}));
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{3, 2}));
  auto named = l.named_variables();
  std::vector<std::string> paths;
  for (auto &[p, v] : named)
    paths.push_back(p);
  EXPECT_EQ(paths,
            (std::vector<std::string>{"scale", "dense/kernel", "dense/bias",
                                      "dense_1/kernel", "dense_1/bias"}));
  EXPECT_EQ(l.count_params(), 5 + 5 * 4 + 4 + 4 * 2 + 2);
  EXPECT_EQ(l.layers().size(), 2u);
  EXPECT_EQ(l.class_name(), "TwoDense");
}

TEST(KerasLayers, UniqueNamesAndErrors) {
  Layer a = layers::Dense(1), b = layers::Dense(1);
  EXPECT_NE(a.name(), b.name());
  EXPECT_EQ(a.name().rfind("dense", 0), 0u);
  EXPECT_EQ(layers::MaxPooling2D().name().rfind("max_pooling2d", 0), 0u);
  EXPECT_THROW(layers::Dense(0), InvalidArgumentError);
  Layer d = layers::Dense(2);
  d(ones({1, 3}));
  try {
    d(ones({1, 4}));
    FAIL() << "expected an error";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("(1, 4)"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(Layer()(ones({1})), InvalidArgumentError);
  EXPECT_THROW(layers::Conv2D(2, {3, 3})(ones({4, 4})), InvalidArgumentError);
}

TEST(KerasLayers, FirstCallWhileTracingIsRejectedAfterBuildItWorks) {
  Layer d = layers::Dense(2);
  auto f = function([d](const Tensor &x) { return d(x); });
  EXPECT_THROW(f(ones({1, 3})), InvalidArgumentError);
  d(ones({1, 3}));
  Tensor eager = d(constant({{1.f, 2.f, 3.f}}));
  Tensor compiled = f(constant({{1.f, 2.f, 3.f}}));
  // The compiled matmul may sum in another order: last-bit differences.
  std::vector<double> want;
  for (float v : values(eager))
    want.push_back(v);
  expectNear(values(compiled), want, 1e-6);
}

TEST(KerasLayers, GradientsFlowToEveryTrainableWeight) {
  Layer l = make_layer<TwoDense>();
  Tensor x = ones({2, 3});
  l(x);
  GradientTape tape;
  Tensor loss = reduce_sum(square(l(x, true)));
  auto grads = tape.gradient(loss, l.trainable_variables());
  ASSERT_EQ(grads.size(), 5u);
  for (const Tensor &g : grads)
    EXPECT_TRUE(g.defined());
}

/// The recurrences written out in double, from the layers' own weights:
/// h (and c) per step; returns every step's h, row-major (batch, time,
/// units).
std::vector<double> referenceRnn(bool lstm, const Tensor &x,
                                 const std::vector<Variable> &w,
                                 int64_t units) {
  const int64_t B = x.shape()[0], T = x.shape()[1], F = x.shape()[2];
  const int64_t G = lstm ? 4 : 3;
  auto xv = cast(x, DType::Float64).to_vector<double>();
  auto k = cast(w[0].value(), DType::Float64).to_vector<double>();
  auto u = cast(w[1].value(), DType::Float64).to_vector<double>();
  auto b = cast(w[2].value(), DType::Float64).to_vector<double>();
  auto sig = [](double v) { return 1 / (1 + std::exp(-v)); };
  std::vector<double> h(size_t(B * units), 0), c(h), out;
  std::vector<double> seq(size_t(B * T * units));
  for (int64_t t = 0; t < T; ++t) {
    std::vector<double> nh(h.size()), nc(c.size());
    for (int64_t n = 0; n < B; ++n) {
      std::vector<double> xz(size_t(G * units)), hz(size_t(G * units));
      for (int64_t j = 0; j < G * units; ++j) {
        double a = b[size_t(j)], r = lstm ? 0 : b[size_t(G * units + j)];
        for (int64_t f = 0; f < F; ++f)
          a += xv[size_t((n * T + t) * F + f)] * k[size_t(f * G * units + j)];
        for (int64_t q = 0; q < units; ++q)
          r += h[size_t(n * units + q)] * u[size_t(q * G * units + j)];
        xz[size_t(j)] = a, hz[size_t(j)] = r;
      }
      for (int64_t q = 0; q < units; ++q) {
        auto g = [&](int gi) { return size_t(gi * units + q); };
        size_t at = size_t(n * units + q);
        if (lstm) {
          double z[4];
          for (int gi = 0; gi < 4; ++gi)
            z[gi] = xz[g(gi)] + hz[g(gi)];
          nc[at] = sig(z[1]) * c[at] + sig(z[0]) * std::tanh(z[2]);
          nh[at] = sig(z[3]) * std::tanh(nc[at]);
        } else {
          double zg = sig(xz[g(0)] + hz[g(0)]), rg = sig(xz[g(1)] + hz[g(1)]);
          double cand = std::tanh(xz[g(2)] + rg * hz[g(2)]);
          nh[at] = zg * h[at] + (1 - zg) * cand;
        }
        seq[size_t((n * T + t) * units + q)] = nh[at];
      }
    }
    h = nh, c = nc;
  }
  return seq;
}

class Recurrent : public ::testing::TestWithParam<bool> {};

TEST_P(Recurrent, MatchesTheRecurrenceEagerAndCompiled) {
  const bool lstm = GetParam();
  const int64_t units = 3;
  Layer seqLayer = lstm ? layers::LSTM(units, true) : layers::GRU(units, true);
  Tensor x = random::Generator::from_seed(5).normal({2, 4, 5});
  Tensor all = seqLayer(x);
  ASSERT_EQ(all.shape(), (std::vector<int64_t>{2, 4, units}));
  auto w = seqLayer.trainable_variables();
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[1].shape(),
            (std::vector<int64_t>{units, (lstm ? 4 : 3) * units}));
  if (lstm) {
    // Keras's unit_forget_bias: the forget gate's bias starts at one.
    expectNear(values(w[2].value()), {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0});
  } else {
    EXPECT_EQ(w[2].shape(), (std::vector<int64_t>{2, 3 * units}));
  }
  // Non-zero biases, so the reference checks where each bias goes.
  w[2].assign(random::Generator::from_seed(6).normal(w[2].shape()));
  all = seqLayer(x);
  std::vector<double> ref = referenceRnn(lstm, x, w, units);
  expectNear(values(all), ref, 1e-5);

  // The last step alone, eagerly and compiled.
  auto compiled =
      function([seqLayer](const Tensor &in) { return seqLayer(in); });
  Tensor traced = compiled(x);
  expectNear(values(traced), ref, 1e-5);
}

TEST_P(Recurrent, GradientsMatchFiniteDifferencesEagerAndCompiled) {
  const bool lstm = GetParam();
  Layer l = lstm ? layers::LSTM(2) : layers::GRU(2);
  // Float32 weights: central differences with a loose tolerance.
  Tensor x32 = random::Generator::from_seed(8).normal({2, 3, 2});
  l(x32);
  Variable k = l.trainable_variables()[0];
  auto lossOf = [&]() { return reduce_sum(square(l(x32, true))); };
  GradientTape tape;
  Tensor loss = lossOf();
  Tensor g = tape.gradient(loss, k);
  auto step = function([l, k, x32](const Tensor &) {
    GradientTape t;
    Tensor y = reduce_sum(square(l(x32, true)));
    return t.gradient(y, k);
  });
  Tensor gc = step(constant(0.f));
  std::vector<float> ge = values(g), gcv = values(gc);
  std::vector<float> kv = values(k.value());
  const float h = 1e-2f;
  for (size_t i = 0; i < kv.size(); ++i) {
    std::vector<float> plus = kv, minus = kv;
    plus[i] += h, minus[i] -= h;
    k.assign(from_vector(plus, k.shape()));
    double lp = lossOf().item<float>();
    k.assign(from_vector(minus, k.shape()));
    double lm = lossOf().item<float>();
    k.assign(from_vector(kv, k.shape()));
    double fd = (lp - lm) / (2 * h);
    EXPECT_NEAR(ge[i], fd, 2e-2 * (1 + std::fabs(fd))) << "element " << i;
    EXPECT_NEAR(gcv[i], ge[i], 1e-4 * (1 + std::fabs(ge[i])))
        << "element " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(LstmAndGru, Recurrent, ::testing::Bool(),
                         [](const auto &info) {
                           return info.param ? "LSTM" : "GRU";
                         });

} // namespace
