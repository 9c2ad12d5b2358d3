//===- PoolTest.cpp - max/avg pooling eagerly, compiled, gradients --------===//
//
// tfc::max_pool2d and avg_pool2d (and their gradient ops) through the public
// API: compiled code (linalg.generic bodies that loop over the window)
// against the eager kernels (the runtime's PoolKernels.cpp, tested against
// direct loops in TfcRuntimeTests), gradients of every mode against float64
// finite differences, second derivatives through the gradient ops, and
// errors.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

#include <random>

using namespace tfc;
using namespace tfc::gradtest;

namespace {

struct Window {
  std::vector<int64_t> input;
  std::array<int64_t, 2> ksize{2, 2}, strides{2, 2};
  Padding padding = Padding::Valid;
};

std::vector<Window> windows() {
  std::vector<Window> ws;
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int k = 0; k < 16; ++k) {
    Window w;
    w.ksize = {pick(1, 3), pick(1, 3)};
    w.strides = {pick(1, 3), pick(1, 3)};
    w.padding = k % 2 ? Padding::Same : Padding::Valid;
    w.input = {pick(1, 2), w.ksize[0] + pick(0, 4), w.ksize[1] + pick(0, 4),
               pick(1, 3)};
    ws.push_back(w);
  }
  return ws;
}

std::string describe(const Window &w) {
  return "input " + shape_to_string(w.input) + " ksize " +
         std::to_string(w.ksize[0]) + "x" + std::to_string(w.ksize[1]) +
         " strides " + std::to_string(w.strides[0]) + "x" +
         std::to_string(w.strides[1]) +
         (w.padding == Padding::Same ? " SAME" : " VALID");
}

TEST(Pool2D, CompiledMatchesEager) {
  int seed = 1;
  for (const Window &w : windows()) {
    SCOPED_TRACE(describe(w));
    for (DType dt : {DType::Float32, DType::Float64}) {
      Tensor x = cast(rand64(w.input, -1, 1, seed++), dt);
      Tensor mx = max_pool2d(x, w.ksize, w.strides, w.padding);
      Tensor av = avg_pool2d(x, w.ksize, w.strides, w.padding);
      Tensor dy = cast(rand64(mx.shape(), -1, 1, seed++), dt);
      Tensor gx = cast(rand64(w.input, -1, 1, seed++), dt);
      std::vector<Tensor> eager{
          mx, av, max_pool2d_grad(x, dy, w.ksize, w.strides, w.padding),
          max_pool2d_grad_grad(x, gx, w.ksize, w.strides, w.padding),
          avg_pool2d_grad(w.input, dy, w.ksize, w.strides, w.padding)};
      auto f = function([&](const Tensor &a, const Tensor &d, const Tensor &g) {
        return std::vector<Tensor>{
            max_pool2d(a, w.ksize, w.strides, w.padding),
            avg_pool2d(a, w.ksize, w.strides, w.padding),
            max_pool2d_grad(a, d, w.ksize, w.strides, w.padding),
            max_pool2d_grad_grad(a, g, w.ksize, w.strides, w.padding),
            avg_pool2d_grad(w.input, d, w.ksize, w.strides, w.padding)};
      });
      std::vector<Tensor> compiled = f(x, dy, gx);
      double tol = dt == DType::Float32 ? 1e-5 : 1e-12;
      for (size_t i = 0; i < eager.size(); ++i) {
        ASSERT_EQ(compiled[i].shape(), eager[i].shape()) << i;
        EXPECT_TRUE(allClose(cast(compiled[i], DType::Float64),
                             cast(eager[i], DType::Float64), tol))
            << "output " << i;
      }
    }
  }
}

TEST(Pool2D, NaNAndPaddingFollowTensorFlow) {
  // SAME padding never wins the max and is not counted by the average.
  Tensor x = constant({{{{-5.0}, {-2.0}}, {{-3.0}, {-4.0}}}});
  auto f = function([](const Tensor &a) {
    return std::vector<Tensor>{max_pool2d(a, {3, 3}, {1, 1}, Padding::Same),
                               avg_pool2d(a, {3, 3}, {1, 1}, Padding::Same)};
  });
  for (const std::vector<Tensor> &r :
       {f(x),
        std::vector<Tensor>{max_pool2d(x, {3, 3}, {1, 1}, Padding::Same),
                            avg_pool2d(x, {3, 3}, {1, 1}, Padding::Same)}}) {
    EXPECT_EQ(r[0].to_vector<double>(), std::vector<double>(4, -2.0));
    EXPECT_EQ(r[1].to_vector<double>(), std::vector<double>(4, -3.5));
  }
  // A NaN in a window makes its max NaN, eagerly and compiled.
  Tensor n = constant({{{{1.0}, {NAN}}, {{3.0}, {4.0}}}});
  auto g = function([](const Tensor &a) {
    return max_pool2d(a, {2, 2}, {2, 2});
  });
  EXPECT_TRUE(std::isnan(max_pool2d(n, {2, 2}, {2, 2}).item<double>()));
  EXPECT_TRUE(std::isnan(g(n).item<double>()));
}

TEST(Pool2D, GradientsInEveryModeMatchFiniteDifferences) {
  int seed = 300;
  std::vector<Window> ws = windows();
  for (size_t k = 0; k < ws.size(); k += 2) {
    const Window &w = ws[k];
    auto maxFn = [w](const std::vector<Tensor> &v) {
      return max_pool2d(v[0], w.ksize, w.strides, w.padding);
    };
    auto avgFn = [w](const std::vector<Tensor> &v) {
      return avg_pool2d(v[0], w.ksize, w.strides, w.padding);
    };
    // Distinct values: no ties for the max, smooth there.
    checkGradients("max " + describe(w), maxFn,
                   {rand64(w.input, -1, 1, seed++)});
    checkGradients("avg " + describe(w), avgFn,
                   {rand64(w.input, -1, 1, seed++)});
  }
}

TEST(Pool2D, TheGradientOpsAreDifferentiable) {
  Window w;
  w.input = {2, 5, 4, 3};
  w.ksize = {3, 2};
  w.strides = {2, 1};
  w.padding = Padding::Same;
  Tensor x = rand64(w.input, -1, 1, 61);
  std::vector<int64_t> pooled =
      max_pool2d(x, w.ksize, w.strides, w.padding).shape();
  // Linear in dy / grad (the input only picks the maxima).
  auto maxGrad = [w, x](const std::vector<Tensor> &v) {
    return max_pool2d_grad(x, v[0], w.ksize, w.strides, w.padding);
  };
  auto maxGradGrad = [w, x](const std::vector<Tensor> &v) {
    return max_pool2d_grad_grad(x, v[0], w.ksize, w.strides, w.padding);
  };
  auto avgGrad = [w](const std::vector<Tensor> &v) {
    return avg_pool2d_grad(w.input, v[0], w.ksize, w.strides, w.padding);
  };
  checkGradients("max_pool2d_grad", maxGrad, {rand64(pooled, -1, 1, 62)});
  checkGradients("max_pool2d_grad_grad", maxGradGrad,
                 {rand64(w.input, -1, 1, 63)});
  checkGradients("avg_pool2d_grad", avgGrad, {rand64(pooled, -1, 1, 64)});
}

TEST(Pool2D, ErrorsNameTheOpAndTheShapes) {
  Tensor x = zeros({1, 4, 4, 2});
  expectError([&] { max_pool2d(x, {5, 1}, {1, 1}); }, "max_pool2d");
  expectError([&] { avg_pool2d(x, {2, 2}, {0, 1}); }, "avg_pool2d");
  expectError(
      [&] {
        max_pool2d(zeros({4, 4, 2}), {2, 2}, {2, 2});
      },
      "max_pool2d");
  expectError(
      [&] {
        avg_pool2d(cast(x, DType::Int32), {2, 2}, {2, 2});
      },
      "avg_pool2d");
  expectError(
      [&] {
        max_pool2d_grad(x, zeros({1, 3, 3, 2}), {2, 2}, {2, 2});
      },
      "max_pool2d_grad");
  auto f = function([](const Tensor &a) {
    return max_pool2d(a, {5, 1}, {1, 1});
  });
  expectError([&] { f(x); }, "max_pool2d");
}

} // namespace
