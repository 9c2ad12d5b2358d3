//===- RandomTest.cpp - random::Generator, philox_random, dropout ---------===//
//
// The Philox stream against the published known-answer vectors, the
// distributions on 1M samples (mean, variance, Kolmogorov-Smirnov),
// fresh numbers at every call of a compiled function, the same numbers for
// the same seed eagerly and compiled, split streams, dropout's mask and
// gradient, and errors.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

#include "tfc/runtime/RandomKernels.h"

#include <algorithm>
#include <cmath>

using namespace tfc;
using namespace tfc::gradtest;

namespace {

TEST(Random, PhiloxMatchesTheKnownAnswers) {
  // Random123's kat_vectors for philox4x32_10.
  using tfc::kernels::philox4x32_10;
  auto a = philox4x32_10({0, 0, 0, 0}, 0, 0);
  EXPECT_EQ(a, (std::array<uint32_t, 4>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu,
                                        0x9b00dbd8u}));
  auto b = philox4x32_10({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
                         0xffffffffu, 0xffffffffu);
  EXPECT_EQ(b, (std::array<uint32_t, 4>{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u,
                                        0x6d5451fdu}));
  auto c = philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
                         0xa4093822u, 0x299f31d0u);
  EXPECT_EQ(c, (std::array<uint32_t, 4>{0xd16cfe09u, 0x94fdccebu, 0x5001e420u,
                                        0x24126ea1u}));
}

/// The Kolmogorov-Smirnov statistic of sorted samples against `cdf`.
double ks(std::vector<double> xs, const std::function<double(double)> &cdf) {
  std::sort(xs.begin(), xs.end());
  double n = static_cast<double>(xs.size()), d = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    double f = cdf(xs[i]);
    d = std::max({d, f - i / n, (i + 1) / n - f});
  }
  return d;
}

double normalCdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

TEST(Random, OneMillionSamplesPassMeanVarianceAndKolmogorovSmirnov) {
  const int64_t n = 1 << 20;
  // At n = 2^20 the 0.1% critical value of the KS statistic is
  // 1.95 / sqrt(n) = 0.0019; mean and variance within 5 standard errors.
  const double crit = 1.95 / std::sqrt(static_cast<double>(n));
  auto gen = random::Generator::from_seed(42);
  for (DType dt : {DType::Float32, DType::Float64}) {
    SCOPED_TRACE(std::string(to_string(dt)));
    std::vector<double> u =
        cast(gen.uniform({n}, 0, 1, dt), DType::Float64).to_vector<double>();
    double mean = 0, var = 0;
    for (double x : u) {
      ASSERT_GE(x, 0.0);
      ASSERT_LT(x, 1.0);
      mean += x;
    }
    mean /= n;
    for (double x : u)
      var += (x - mean) * (x - mean);
    var /= n;
    EXPECT_NEAR(mean, 0.5, 5 * std::sqrt(1.0 / 12 / n));
    EXPECT_NEAR(var, 1.0 / 12, 5 * 0.0745 / std::sqrt(double(n)));
    EXPECT_LT(ks(u, [](double x) { return x; }), crit);

    std::vector<double> z =
        cast(gen.normal({n}, 0, 1, dt), DType::Float64).to_vector<double>();
    mean = 0;
    var = 0;
    for (double x : z)
      mean += x;
    mean /= n;
    for (double x : z)
      var += (x - mean) * (x - mean);
    var /= n;
    EXPECT_NEAR(mean, 0.0, 5 / std::sqrt(double(n)));
    EXPECT_NEAR(var, 1.0, 5 * std::sqrt(2.0 / n));
    EXPECT_LT(ks(z, normalCdf), crit);

    std::vector<double> t =
        cast(gen.truncated_normal({n}, 0, 1, dt), DType::Float64)
            .to_vector<double>();
    // Normal conditioned on |z| < 2: variance 1 - 4 phi(2) / (2 Phi(2) - 1).
    double mass = 2 * normalCdf(2) - 1;
    double phi2 = std::exp(-2.0) / std::sqrt(2 * M_PI);
    double tvar = 1 - 4 * phi2 / mass;
    mean = 0;
    var = 0;
    for (double x : t) {
      ASSERT_LT(std::fabs(x), 2.0);
      mean += x;
    }
    mean /= n;
    for (double x : t)
      var += (x - mean) * (x - mean);
    var /= n;
    EXPECT_NEAR(mean, 0.0, 5 * std::sqrt(tvar / n));
    EXPECT_NEAR(var, tvar, 0.01);
    EXPECT_LT(
        ks(t, [&](double x) { return (normalCdf(x) - normalCdf(-2)) / mass; }),
        crit);
  }
  // Scaled draws.
  Tensor s = gen.normal({n}, 3, 2, DType::Float64);
  EXPECT_NEAR(reduce_mean(s).item<double>(), 3.0, 10 / std::sqrt(double(n)));
  Tensor r = gen.uniform({1000}, -5, -4, DType::Float64);
  EXPECT_GE(reduce_min(r).item<double>(), -5.0);
  EXPECT_LT(reduce_max(r).item<double>(), -4.0);
}

TEST(Random, CompiledCallsDrawFreshNumbersAndMatchEager) {
  for (DType dt : {DType::Float32, DType::Float64}) {
    auto eager = random::Generator::from_seed(7);
    auto compiledGen = random::Generator::from_seed(7);
    auto f = function([&]() {
      return std::vector<Tensor>{compiledGen.uniform({3, 5}, 0, 1, dt),
                                 compiledGen.normal({7}, 0, 1, dt),
                                 compiledGen.truncated_normal({4}, 0, 1, dt)};
    });
    std::vector<Tensor> first = f(), second = f();
    // Fresh numbers at every call.
    EXPECT_FALSE(allClose(first[0], second[0], 0));
    EXPECT_FALSE(allClose(first[1], second[1], 0));
    // The same stream as eager draws in the same order, bit for bit.
    for (const std::vector<Tensor> &got : {first, second}) {
      EXPECT_TRUE(allClose(got[0], eager.uniform({3, 5}, 0, 1, dt), 0));
      EXPECT_TRUE(allClose(got[1], eager.normal({7}, 0, 1, dt), 0));
      EXPECT_TRUE(allClose(got[2], eager.truncated_normal({4}, 0, 1, dt), 0));
    }
    EXPECT_TRUE(
        allClose(compiledGen.state().value(), eager.state().value(), 0));
  }
}

TEST(Random, SeedsReproduceAndSplitStreamsDiffer) {
  auto a = random::Generator::from_seed(1), b = random::Generator::from_seed(1);
  EXPECT_TRUE(allClose(a.normal({100}), b.normal({100}), 0));
  EXPECT_FALSE(allClose(random::Generator::from_seed(2).normal({100}),
                        random::Generator::from_seed(3).normal({100}), 0));
  std::vector<random::Generator> kids = a.split(3);
  ASSERT_EQ(kids.size(), 3u);
  std::vector<Tensor> draws;
  for (random::Generator &k : kids)
    draws.push_back(k.uniform({1000}));
  draws.push_back(a.uniform({1000}));
  for (size_t i = 0; i < draws.size(); ++i)
    for (size_t j = i + 1; j < draws.size(); ++j)
      EXPECT_FALSE(allClose(draws[i], draws[j], 0)) << i << " " << j;
  // Copies share the state: a copy's draw advances the original.
  random::Generator c = a;
  Tensor next = c.uniform({4});
  EXPECT_FALSE(allClose(a.uniform({4}), next, 0));
}

TEST(Random, DropoutKeepsScalesAndDifferentiates) {
  auto gen = random::Generator::from_seed(5);
  Tensor x = ones({1 << 16}, DType::Float64);
  Tensor y = dropout(x, 0.25, gen);
  std::vector<double> v = y.to_vector<double>();
  double kept = 0;
  for (double e : v) {
    EXPECT_TRUE(e == 0.0 || std::fabs(e - 1 / 0.75) < 1e-15) << e;
    kept += e != 0.0;
  }
  EXPECT_NEAR(kept / v.size(), 0.75, 0.01);
  EXPECT_TRUE(allClose(dropout(x, 0, gen), x, 0));
  // The gradient is the mask times the scale, eagerly and compiled.
  auto g1 = random::Generator::from_seed(9),
       g2 = random::Generator::from_seed(9);
  Tensor w = rand64({64}, -1, 1, 3);
  GradientTape tape;
  tape.watch(w);
  Tensor out = dropout(w, 0.5, g1);
  Tensor grad = tape.gradient(reduce_sum(out), w);
  EXPECT_TRUE(
      allClose(grad, cast(not_equal(out, 0.0), DType::Float64) * 2.0, 0));
  auto step = function([&](const Tensor &a) {
    GradientTape t;
    t.watch(a);
    Tensor o = dropout(a, 0.5, g2);
    return std::vector<Tensor>{o, t.gradient(reduce_sum(o), a)};
  });
  std::vector<Tensor> c = step(w);
  EXPECT_TRUE(allClose(c[0], out, 0));
  EXPECT_TRUE(allClose(c[1], grad, 0));
  // The next call drops other elements.
  EXPECT_FALSE(allClose(step(w)[0], out, 0));
}

TEST(Random, ErrorsNameTheOp) {
  auto gen = random::Generator::from_seed(0);
  expectError([&] { gen.uniform({2}, 1, 1); }, "uniform: expected lo < hi");
  expectError([&] { gen.normal({-1}); }, "normal");
  expectError([&] { gen.uniform({2}, 0, 1, DType::Int32); }, "float32");
  expectError([&] { dropout(ones({2}), 1.0, gen); }, "rate must be in [0, 1)");
  expectError([&] { dropout(ones({2}, DType::Int32), 0.5, gen); }, "float");
  expectError([&] { random::Generator(Variable(zeros({3}, DType::Int64))); },
              "shape (2,)");
  expectError([&] { gen.split(-1); }, "count");
}

} // namespace
