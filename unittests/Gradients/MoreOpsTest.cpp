//===- MoreOpsTest.cpp - erf, gelu, sparse cross entropy, cumsum, top_k ---===//
//
// Through the public API: hand-computed values, compiled code (library
// calls on the CPU) against the eager kernels, errors raised eagerly and
// compiled, and gradients of every mode against float64 finite
// differences.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

#include <cmath>
#include <limits>

using namespace tfc;
using namespace tfc::gradtest;

namespace {

TEST(MoreOps, ErfAndGelu) {
  Tensor x = constant({-2.0, -0.5, 0.0, 0.5, 3.0});
  std::vector<double> want, exact, geluTanh;
  for (double v : x.to_vector<double>()) {
    want.push_back(std::erf(v));
    exact.push_back(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
    geluTanh.push_back(
        0.5 * v *
        (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
  }
  auto f = function([](const Tensor &a) {
    return std::vector<Tensor>{erf(a), gelu(a), gelu(a, true)};
  });
  for (const std::vector<Tensor> &got :
       {std::vector<Tensor>{erf(x), tfc::gelu(x), tfc::gelu(x, true)}, f(x)}) {
    EXPECT_TRUE(allClose(got[0], from_vector<double>(want, {5}), 1e-15));
    EXPECT_TRUE(allClose(got[1], from_vector<double>(exact, {5}), 1e-15));
    EXPECT_TRUE(allClose(got[2], from_vector<double>(geluTanh, {5}), 1e-15));
  }
  // float32 compiled (a polynomial on the CPU) within 2 ulp-ish of libm.
  Tensor x32 = cast(rand64({1000}, -4, 4, 3), DType::Float32);
  auto g = function([](const Tensor &a) { return erf(a); });
  EXPECT_TRUE(allClose(g(x32), erf(x32), 1e-6));
  EXPECT_TRUE(std::isnan(erf(constant(double(NAN))).item<double>()));
  expectError([&] { erf(constant({1, 2})); }, "erf");
  checkGradients("erf", [](const std::vector<Tensor> &v) { return erf(v[0]); },
                 {rand64({6}, -2, 2, 4)});
  checkGradients("gelu",
                 [](const std::vector<Tensor> &v) { return tfc::gelu(v[0]); },
                 {rand64({6}, -3, 3, 5)});
  checkGradients(
      "gelu approximate",
      [](const std::vector<Tensor> &v) { return tfc::gelu(v[0], true); },
      {rand64({6}, -3, 3, 6)});
}

TEST(MoreOps, SparseSoftmaxCrossEntropy) {
  Tensor logits = constant({{1.0, 2.0, 3.0}, {1000.0, 0.0, -1000.0}});
  Tensor labels = constant({2, 1});
  double lse0 = 3 + std::log(std::exp(-2.0) + std::exp(-1.0) + 1.0);
  std::vector<double> want = {lse0 - 3.0, 1000.0};
  auto f = function([](const Tensor &l, const Tensor &z) {
    return sparse_softmax_cross_entropy_with_logits(l, z);
  });
  EXPECT_TRUE(allClose(sparse_softmax_cross_entropy_with_logits(labels, logits),
                       from_vector<double>(want, {2}), 1e-12));
  EXPECT_TRUE(
      allClose(f(labels, logits), from_vector<double>(want, {2}), 1e-12));
  // Equal to the dense op on one-hot labels, float32, int64 labels, rank 3.
  Tensor z = cast(rand64({4, 3, 7}, -5, 5, 7), DType::Float32);
  Tensor y = cast(floor(rand64({4, 3}, 0, 7, 8)), DType::Int64);
  Tensor dense =
      softmax_cross_entropy_with_logits(one_hot(y, 7, DType::Float32), z);
  EXPECT_TRUE(
      allClose(sparse_softmax_cross_entropy_with_logits(y, z), dense, 1e-6));
  EXPECT_TRUE(allClose(f(y, z), dense, 1e-6));
  // Out-of-range labels raise, eagerly and compiled.
  for (Tensor bad : {constant({3, 0}), constant({0, -1})}) {
    expectError([&] { sparse_softmax_cross_entropy_with_logits(bad, logits); },
                "outside the valid range of classes [0, 3)");
    expectError([&] { f(bad, logits); }, "[0, 3)");
  }
  expectError(
      [&] { sparse_softmax_cross_entropy_with_logits(constant({0}), logits); },
      "sparse_softmax_cross_entropy");
  expectError(
      [&] {
        sparse_softmax_cross_entropy_with_logits(constant({0.f, 1.f}), logits);
      },
      "sparse_softmax_cross_entropy");
  Tensor lab = constant({4, 0, 2});
  checkGradients("sparse cross entropy",
                 [lab](const std::vector<Tensor> &v) {
                   return sparse_softmax_cross_entropy_with_logits(lab, v[0]);
                 },
                 {rand64({3, 5}, -3, 3, 9)});
}

TEST(MoreOps, Cumsum) {
  Tensor x = constant({{1, 2, 3}, {4, 5, 6}});
  struct Case {
    int64_t axis;
    bool exclusive, reverse;
    std::vector<int32_t> want;
  };
  std::vector<Case> cases = {{1, false, false, {1, 3, 6, 4, 9, 15}},
                             {1, true, false, {0, 1, 3, 0, 4, 9}},
                             {1, false, true, {6, 5, 3, 15, 11, 6}},
                             {1, true, true, {5, 3, 0, 11, 6, 0}},
                             {0, false, false, {1, 2, 3, 5, 7, 9}},
                             {-2, true, true, {4, 5, 6, 0, 0, 0}}};
  for (const Case &c : cases) {
    SCOPED_TRACE(std::to_string(c.axis) + (c.exclusive ? " exclusive" : "") +
                 (c.reverse ? " reverse" : ""));
    auto f = function([&c](const Tensor &a) {
      return cumsum(a, c.axis, c.exclusive, c.reverse);
    });
    EXPECT_EQ(cumsum(x, c.axis, c.exclusive, c.reverse).to_vector<int32_t>(),
              c.want);
    EXPECT_EQ(f(x).to_vector<int32_t>(), c.want);
    Tensor xf = rand64({3, 4, 5}, -1, 1, 10);
    auto g = function([&c](const Tensor &a) {
      return cumsum(a, c.axis, c.exclusive, c.reverse);
    });
    EXPECT_TRUE(
        allClose(g(xf), cumsum(xf, c.axis, c.exclusive, c.reverse), 1e-12));
    checkGradients("cumsum",
                   [&c](const std::vector<Tensor> &v) {
                     return cumsum(v[0], c.axis, c.exclusive, c.reverse);
                   },
                   {rand64({3, 4}, -1, 1, 11)});
  }
  expectError([&] { cumsum(x, 2); }, "axis 2 is out of range");
  expectError([&] { cumsum(constant({true, false}), 0); }, "cumsum");
}

TEST(MoreOps, TopK) {
  Tensor x = constant({{3.0, 1.0, 3.0, NAN, -1.0}, {0.0, 5.0, 2.0, 4.0, 5.0}});
  auto [values, indices] = top_k(x, 3);
  EXPECT_EQ(indices.dtype(), DType::Int32);
  // NaN ranks first; equal values in index order.
  EXPECT_EQ(indices.to_vector<int32_t>(),
            (std::vector<int32_t>{3, 0, 2, 1, 4, 3}));
  std::vector<double> v = values.to_vector<double>();
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(std::vector<double>(v.begin() + 1, v.end()),
            (std::vector<double>{3, 3, 5, 5, 4}));
  auto f = function([](const Tensor &a) {
    auto [vals, idx] = top_k(a, 3);
    return std::vector<Tensor>{vals, idx};
  });
  std::vector<Tensor> c = f(x);
  EXPECT_TRUE(allClose(c[0], values, 0));
  EXPECT_EQ(c[1].to_vector<int32_t>(), indices.to_vector<int32_t>());
  // Random rows, ints too, compiled == eager.
  for (DType dt : {DType::Float32, DType::Int32}) {
    Tensor r = cast(rand64({6, 40}, -100, 100, 12), dt);
    std::vector<Tensor> got = f(r);
    auto [ev, ei] = top_k(r, 3);
    EXPECT_TRUE(allClose(got[0], ev, 0));
    EXPECT_EQ(got[1].to_vector<int32_t>(), ei.to_vector<int32_t>());
  }
  expectError([&] { top_k(x, 6); }, "k must be in [0, 5]");
  expectError([&] { top_k(constant(1.0), 1); }, "rank >= 1");
  // The values' gradient goes to the picked positions.
  checkGradients(
      "top_k values",
      [](const std::vector<Tensor> &v) { return top_k(v[0], 2).first; },
      {rand64({3, 6}, -1, 1, 13)});
}

TEST(MoreOps, Reverse) {
  Tensor x = constant({{1, 2, 3}, {4, 5, 6}});
  EXPECT_EQ(reverse(x, {1}).to_vector<int32_t>(),
            (std::vector<int32_t>{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(reverse(x, {0, -1}).to_vector<int32_t>(),
            (std::vector<int32_t>{6, 5, 4, 3, 2, 1}));
  auto f = function([](const Tensor &a) { return reverse(a, {0}); });
  EXPECT_EQ(f(x).to_vector<int32_t>(),
            (std::vector<int32_t>{4, 5, 6, 1, 2, 3}));
  expectError([&] { reverse(x, {2}); }, "axis 2 is out of range");
  expectError([&] { reverse(x, {1, 1}); }, "listed twice");
  checkGradients("reverse",
                 [](const std::vector<Tensor> &v) {
                   return reverse(v[0], {0, 1});
                 },
                 {rand64({3, 4}, -1, 1, 14)});
}

} // namespace
