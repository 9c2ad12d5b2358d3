//===- ConvTest.cpp - conv2d eagerly, compiled, and its gradients ---------===//
//
// tfc::conv2d (and conv2d_backprop_input/_filter, its gradients) through the
// public API: values against a direct loop, compiled (both the runtime's
// im2col+GEMM call and the plain linalg loops) against eager, gradients of
// every mode against float64 finite differences, second derivatives, and
// errors that name the op and the shapes.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

#include <random>

using namespace tfc;
using namespace tfc::gradtest;

namespace {

struct Geometry {
  std::vector<int64_t> input, filter;
  std::array<int64_t, 2> strides{1, 1}, dilations{1, 1};
  Padding padding = Padding::Valid;
};

/// tf.nn.conv2d by its definition, in double.
std::vector<double> directConv(const Tensor &x, const Tensor &f,
                               const Geometry &g, std::vector<int64_t> &shape) {
  const auto &is = g.input, &fs = g.filter;
  int64_t n = is[0], h = is[1], w = is[2], c = is[3], kh = fs[0], kw = fs[1],
          o = fs[3];
  int64_t oh = 0, ow = 0, pt = 0, pl = 0;
  for (int d = 0; d < 2; ++d) {
    auto dim = kernels::window_dim(is[1 + d], fs[d], g.strides[d],
                                   g.dilations[d], g.padding == Padding::Same);
    (d == 0 ? oh : ow) = dim->out;
    (d == 0 ? pt : pl) = dim->padBefore;
  }
  shape = {n, oh, ow, o};
  std::vector<double> xv = cast(x, DType::Float64).to_vector<double>(),
                      fv = cast(f, DType::Float64).to_vector<double>(),
                      y(n * oh * ow * o, 0.0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t q = 0; q < o; ++q) {
          double s = 0;
          for (int64_t a = 0; a < kh; ++a)
            for (int64_t e = 0; e < kw; ++e) {
              int64_t r = i * g.strides[0] + a * g.dilations[0] - pt;
              int64_t t = j * g.strides[1] + e * g.dilations[1] - pl;
              if (r < 0 || r >= h || t < 0 || t >= w)
                continue;
              for (int64_t k = 0; k < c; ++k)
                s += xv[((b * h + r) * w + t) * c + k] *
                     fv[((a * kw + e) * c + k) * o + q];
            }
          y[((b * oh + i) * ow + j) * o + q] = s;
        }
  return y;
}

std::vector<Geometry> geometries() {
  std::vector<Geometry> gs;
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  };
  for (int k = 0; k < 24; ++k) {
    Geometry g;
    g.filter = {pick(1, 3), pick(1, 3), pick(1, 3), pick(1, 4)};
    g.strides = {pick(1, 3), pick(1, 3)};
    g.dilations = {pick(1, 2), pick(1, 2)};
    g.padding = k % 2 ? Padding::Same : Padding::Valid;
    // Big enough for VALID windows.
    int64_t minH = (g.filter[0] - 1) * g.dilations[0] + 1;
    int64_t minW = (g.filter[1] - 1) * g.dilations[1] + 1;
    g.input = {pick(1, 2), minH + pick(0, 4), minW + pick(0, 4), g.filter[2]};
    gs.push_back(g);
  }
  return gs;
}

std::string describe(const Geometry &g) {
  return "input " + shape_to_string(g.input) + " filter " +
         shape_to_string(g.filter) + " strides " +
         std::to_string(g.strides[0]) + "," + std::to_string(g.strides[1]) +
         " dilations " + std::to_string(g.dilations[0]) + "," +
         std::to_string(g.dilations[1]) +
         (g.padding == Padding::Same ? " SAME" : " VALID");
}

TEST(Conv2D, EagerAndCompiledMatchTheDefinition) {
  int seed = 100;
  for (const Geometry &g : geometries()) {
    SCOPED_TRACE(describe(g));
    for (DType dt : {DType::Float32, DType::Float64}) {
      Tensor x = cast(rand64(g.input, -1, 1, seed++), dt);
      Tensor f = cast(rand64(g.filter, -1, 1, seed++), dt);
      std::vector<int64_t> shape;
      std::vector<double> want = directConv(x, f, g, shape);
      Tensor eager = conv2d(x, f, g.strides, g.padding, g.dilations);
      auto fn = function([&](const Tensor &a, const Tensor &b) {
        return conv2d(a, b, g.strides, g.padding, g.dilations);
      });
      Tensor compiled = fn(x, f);
      ASSERT_EQ(eager.shape(), shape);
      ASSERT_EQ(compiled.shape(), shape);
      double tol = dt == DType::Float32 ? 1e-5 : 1e-12;
      std::vector<double> e = cast(eager, DType::Float64).to_vector<double>(),
                          c = cast(compiled, DType::Float64)
                                  .to_vector<double>();
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_NEAR(e[i], want[i], tol * (1 + std::abs(want[i]))) << i;
        ASSERT_NEAR(c[i], want[i], tol * (1 + std::abs(want[i]))) << i;
      }
    }
  }
}

TEST(Conv2D, CompiledCallsTheRuntimeKernelsWhenLarge) {
  // Large enough for tfc-linalg-to-blas: the forward and the input gradient
  // become tfc_rt_conv2d calls, the filter gradient
  // tfc_rt_conv2d_backprop_filter; the values still match eagerly.
  Tensor x = rand64({2, 12, 12, 3}, -1, 1, 1),
         f = rand64({3, 3, 3, 8}, -1, 1, 2);
  auto step = function([](const Tensor &a, const Tensor &b) {
    GradientTape tape;
    tape.watch({a, b});
    Tensor y = conv2d(a, b, {2, 2}, Padding::Same);
    return tape.gradient(reduce_sum(y * y), {a, b});
  });
  std::vector<Tensor> got = step(x, f);
  GradientTape tape;
  tape.watch({x, f});
  Tensor y = conv2d(x, f, {2, 2}, Padding::Same);
  std::vector<Tensor> want = tape.gradient(reduce_sum(y * y), {x, f});
  EXPECT_TRUE(allClose(got[0], want[0], 1e-10));
  EXPECT_TRUE(allClose(got[1], want[1], 1e-10));
  std::string ir = step.ir("optimized");
  EXPECT_EQ(ir.find("tfc.conv2d"), std::string::npos);
  std::string llvm = step.ir("llvm-dialect");
  EXPECT_NE(llvm.find("tfc_rt_conv2d_f64"), std::string::npos);
  EXPECT_NE(llvm.find("tfc_rt_conv2d_backprop_filter_f64"), std::string::npos);
}

TEST(Conv2D, GradientsInEveryModeMatchFiniteDifferences) {
  int seed = 500;
  std::vector<Geometry> gs = geometries();
  for (size_t k = 0; k < gs.size(); k += 3) {
    const Geometry &g = gs[k];
    auto fn = [g](const std::vector<Tensor> &v) {
      return conv2d(v[0], v[1], g.strides, g.padding, g.dilations);
    };
    checkGradients(
        describe(g), fn,
        {rand64(g.input, -1, 1, seed), rand64(g.filter, -1, 1, seed + 1)});
    seed += 2;
  }
}

TEST(Conv2D, TheGradientOpsAreDifferentiable) {
  // The input and filter gradients as functions of their own operands:
  // their rules are the other two ops (bilinear adjoints).
  Geometry g;
  g.input = {2, 5, 6, 2};
  g.filter = {2, 3, 2, 3};
  g.strides = {2, 1};
  g.dilations = {1, 2};
  g.padding = Padding::Same;
  std::vector<int64_t> yShape;
  directConv(zeros(g.input, DType::Float64), zeros(g.filter, DType::Float64), g,
             yShape);
  auto dInput = [g](const std::vector<Tensor> &v) {
    return conv2d_backprop_input(g.input, v[0], v[1], g.strides, g.padding,
                                 g.dilations);
  };
  auto dFilter = [g](const std::vector<Tensor> &v) {
    return conv2d_backprop_filter(v[0], g.filter, v[1], g.strides, g.padding,
                                  g.dilations);
  };
  checkGradients("backprop_input", dInput,
                 {rand64(g.filter, -1, 1, 31), rand64(yShape, -1, 1, 32)});
  checkGradients("backprop_filter", dFilter,
                 {rand64(g.input, -1, 1, 33), rand64(yShape, -1, 1, 34)});
}

TEST(Conv2D, SecondDerivative) {
  // d/dx of sum(d/dx sum(conv(x, f)^2)) through the compiled gradient ops.
  Tensor x = rand64({1, 4, 4, 2}, -1, 1, 41),
         f = rand64({2, 2, 2, 2}, -1, 1, 42);
  auto inner = [&](const Tensor &a) {
    GradientTape t;
    t.watch(a);
    Tensor y = conv2d(a, f, {1, 1}, Padding::Same);
    return reduce_sum(t.gradient(reduce_sum(y * y * y), a));
  };
  auto outer = [&](const Tensor &a) {
    GradientTape t;
    t.watch(a);
    return t.gradient(inner(a), a);
  };
  Tensor eager = outer(x);
  Tensor compiled = function(outer)(x);
  EXPECT_TRUE(allClose(compiled, eager, 1e-10));
  // Central differences of `inner` along each input element.
  std::vector<double> xv = x.to_vector<double>(), g = eager.to_vector<double>();
  for (size_t i = 0; i < xv.size(); i += 5) {
    std::vector<double> hi = xv, lo = xv;
    hi[i] += 1e-6;
    lo[i] -= 1e-6;
    double d = (inner(from_vector<double>(hi, x.shape())).item<double>() -
                inner(from_vector<double>(lo, x.shape())).item<double>()) /
               2e-6;
    EXPECT_NEAR(g[i], d, 1e-5 * (1 + std::abs(d))) << i;
  }
}

TEST(Conv2D, ErrorsNameTheOpAndTheShapes) {
  Tensor x = zeros({1, 5, 5, 3}), f = zeros({3, 3, 2, 4});
  // Channels: 3 in the input, 2 in the filter; eagerly and compiled.
  expectError([&] { conv2d(x, f); }, "conv2d");
  expectError([&] { conv2d(x, f); }, "(1, 5, 5, 3)");
  auto fn =
      function([](const Tensor &a, const Tensor &b) { return conv2d(a, b); });
  expectError([&] { fn(x, f); }, "conv2d");
  expectError([&] { fn(x, f); }, "channels");
  Tensor g = zeros({3, 3, 3, 4});
  expectError([&] { conv2d(x, g, {0, 1}); }, "conv2d");
  expectError([&] { conv2d(x, g, {1, 1}, Padding::Valid, {1, -2}); }, "conv2d");
  // A VALID window larger than the input.
  expectError([&] { conv2d(x, zeros({6, 1, 3, 1})); }, "conv2d");
  expectError([&] { conv2d(zeros({1, 5, 5}), g); }, "conv2d");
  expectError([&] { conv2d(x, cast(g, DType::Float64)); }, "conv2d");
  expectError([&] { conv2d(cast(x, DType::Int32), cast(g, DType::Int32)); },
              "conv2d");
  // dy of the wrong shape for the gradient ops.
  expectError(
      [&] {
        conv2d_backprop_input({1, 5, 5, 3}, g, zeros({1, 2, 2, 4}));
      },
      "conv2d_backprop_input");
  expectError(
      [&] {
        conv2d_backprop_filter(x, {3, 3, 3, 4}, zeros({1, 3, 3, 5}));
      },
      "conv2d_backprop_filter");
}

TEST(Conv2D, EmptyBatch) {
  Tensor y =
      conv2d(zeros({0, 4, 4, 2}), ones({3, 3, 2, 5}), {1, 1}, Padding::Same);
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{0, 4, 4, 5}));
}

} // namespace
