//===- ConvKernelsTest.cpp - conv2d kernels against direct loops ----------===//
//
// The kernels (im2col + GEMM; oneDNN for float32 when tfc is built with it)
// against the definitions written as direct loops in double, over a random
// sweep of geometries (strides, dilations, SAME and VALID), the adjoint
// identity that ties the three kernels together, thread counts and
// concurrent calls, TensorFlow's shape rules and the errors.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/ConvKernels.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace tfc;
using namespace tfc::kernels;

namespace {

using Shape = std::vector<int64_t>;

/// Calls f(n, i, j, a, b, ch, iy, ix) for every tap of the convolution that
/// reads an in-range input element x[n, iy, ix, ch] (the rest read zeros).
template <class F> void forEachTap(const Conv2DShape &s, F &&f) {
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t i = 0; i < s.oh; ++i)
      for (int64_t j = 0; j < s.ow; ++j)
        for (int64_t a = 0; a < s.kh; ++a)
          for (int64_t b = 0; b < s.kw; ++b) {
            int64_t iy = i * s.strideH + a * s.dilationH - s.padTop;
            int64_t ix = j * s.strideW + b * s.dilationW - s.padLeft;
            if (iy < 0 || iy >= s.h || ix < 0 || ix >= s.w)
              continue;
            for (int64_t ch = 0; ch < s.c; ++ch)
              f(n, i, j, a, b, ch, iy, ix);
          }
}

int64_t xIndex(const Conv2DShape &s, int64_t n, int64_t y, int64_t x,
               int64_t ch) {
  return ((n * s.h + y) * s.w + x) * s.c + ch;
}
int64_t yIndex(const Conv2DShape &s, int64_t n, int64_t i, int64_t j,
               int64_t o) {
  return ((n * s.oh + i) * s.ow + j) * s.o + o;
}
int64_t fIndex(const Conv2DShape &s, int64_t a, int64_t b, int64_t ch,
               int64_t o) {
  return ((a * s.kw + b) * s.c + ch) * s.o + o;
}

template <class T>
std::vector<double> refConv(const Conv2DShape &s, const std::vector<T> &x,
                            const std::vector<T> &f) {
  std::vector<double> y(s.n * s.oh * s.ow * s.o, 0.0);
  forEachTap(s, [&](int64_t n, int64_t i, int64_t j, int64_t a, int64_t b,
                    int64_t ch, int64_t iy, int64_t ix) {
    for (int64_t o = 0; o < s.o; ++o)
      y[yIndex(s, n, i, j, o)] += double(x[xIndex(s, n, iy, ix, ch)]) *
                                  double(f[fIndex(s, a, b, ch, o)]);
  });
  return y;
}

template <class T>
std::vector<double> refBackpropInput(const Conv2DShape &s,
                                     const std::vector<T> &dy,
                                     const std::vector<T> &f) {
  std::vector<double> dx(s.n * s.h * s.w * s.c, 0.0);
  forEachTap(s, [&](int64_t n, int64_t i, int64_t j, int64_t a, int64_t b,
                    int64_t ch, int64_t iy, int64_t ix) {
    for (int64_t o = 0; o < s.o; ++o)
      dx[xIndex(s, n, iy, ix, ch)] +=
          double(dy[yIndex(s, n, i, j, o)]) * double(f[fIndex(s, a, b, ch, o)]);
  });
  return dx;
}

template <class T>
std::vector<double> refBackpropFilter(const Conv2DShape &s,
                                      const std::vector<T> &x,
                                      const std::vector<T> &dy) {
  std::vector<double> df(s.kh * s.kw * s.c * s.o, 0.0);
  forEachTap(s, [&](int64_t n, int64_t i, int64_t j, int64_t a, int64_t b,
                    int64_t ch, int64_t iy, int64_t ix) {
    for (int64_t o = 0; o < s.o; ++o)
      df[fIndex(s, a, b, ch, o)] += double(x[xIndex(s, n, iy, ix, ch)]) *
                                    double(dy[yIndex(s, n, i, j, o)]);
  });
  return df;
}

template <class T> std::vector<T> randomVec(std::mt19937 &rng, int64_t n) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto &e : v)
    e = T(u(rng));
  return v;
}

/// Elementwise |got - want| <= tol * (1 + max |want|): the values are sums
/// of up to kh*kw*c products of numbers in [-1, 1].
template <class T>
void expectNear(const std::vector<T> &got, const std::vector<double> &want,
                double tol, const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 1.0;
  for (double w : want)
    scale = std::max(scale, std::abs(w));
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(double(got[i]), want[i], tol * scale) << what << " at " << i;
}

std::string describe(const Conv2DShape &s) {
  return "n=" + std::to_string(s.n) + " h=" + std::to_string(s.h) +
         " w=" + std::to_string(s.w) + " c=" + std::to_string(s.c) +
         " k=" + std::to_string(s.kh) + "x" + std::to_string(s.kw) +
         " o=" + std::to_string(s.o) + " stride=" + std::to_string(s.strideH) +
         "," + std::to_string(s.strideW) +
         " dil=" + std::to_string(s.dilationH) + "," +
         std::to_string(s.dilationW) + " pad=" + std::to_string(s.padTop) +
         "," + std::to_string(s.padLeft);
}

/// All three kernels against the references on one geometry.
template <class T>
void checkAll(const Conv2DShape &s, std::mt19937 &rng, double tol) {
  std::string what = describe(s);
  auto x = randomVec<T>(rng, s.n * s.h * s.w * s.c);
  auto f = randomVec<T>(rng, s.kh * s.kw * s.c * s.o);
  auto dy = randomVec<T>(rng, s.n * s.oh * s.ow * s.o);
  // Poisoned outputs: every element must be written.
  std::vector<T> y(dy.size(), T(NAN)), dx(x.size(), T(NAN)),
      df(f.size(), T(NAN));
  conv2d<T>(s, x.data(), f.data(), y.data());
  expectNear(y, refConv(s, x, f), tol, "conv2d " + what);
  conv2d_backprop_input<T>(s, dy.data(), f.data(), dx.data());
  expectNear(dx, refBackpropInput(s, dy, f), tol, "backprop_input " + what);
  conv2d_backprop_filter<T>(s, x.data(), dy.data(), df.data());
  expectNear(df, refBackpropFilter(s, x, dy), tol, "backprop_filter " + what);
}

/// A random geometry that conv2d_shape accepts (VALID draws are redrawn
/// until the window fits), with cMin to cMax input channels.
Conv2DShape randomShape(std::mt19937 &rng, int cMin = 1, int cMax = 5) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  while (true) {
    int64_t n = pick(1, 3), h = pick(1, 9), w = pick(1, 9);
    int64_t c = pick(cMin, cMax);
    int64_t o = pick(1, 4), kh = pick(1, 4), kw = pick(1, 4);
    std::array<int64_t, 2> st{pick(1, 3), pick(1, 3)};
    std::array<int64_t, 2> dil{pick(1, 3), pick(1, 3)};
    bool same = pick(0, 1) == 1;
    if (!same && ((kh - 1) * dil[0] + 1 > h || (kw - 1) * dil[1] + 1 > w))
      continue;
    return conv2d_shape("conv2d", {n, h, w, c}, {kh, kw, c, o}, st, dil, same);
  }
}

template <class T> class ConvKernels : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(ConvKernels, FloatTypes);

TYPED_TEST(ConvKernels, RandomGeometriesMatchDirectLoops) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 400; ++trial)
    checkAll<T>(randomShape(rng), rng, tol);
}

// Wide enough inputs that every float kernel runs on oneDNN (with few
// channels the input gradient stays on col2im).
TYPED_TEST(ConvKernels, RandomWideGeometriesMatchDirectLoops) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
  std::mt19937 rng(4321);
  for (int trial = 0; trial < 60; ++trial)
    checkAll<T>(randomShape(rng, 8, 20), rng, tol);
}

TYPED_TEST(ConvKernels, PointwiseUsesInputAsColumns) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
  std::mt19937 rng(7);
  for (bool same : {false, true})
    checkAll<T>(conv2d_shape("conv2d", {3, 5, 4, 6}, {1, 1, 6, 3}, {1, 1},
                             {2, 3}, same),
                rng, tol);
}

TYPED_TEST(ConvKernels, BigBatchMatchesDirectLoops) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
  std::mt19937 rng(99);
  checkAll<T>(conv2d_shape("conv2d", {4, 28, 28, 8}, {3, 3, 8, 16}, {1, 1},
                           {1, 1}, true),
              rng, tol);
}

// VALID windows with stride > 1 that leave the input's last rows or columns
// unread (oneDNN would see negative bottom/right padding). oneDNN 2.6's 1x1
// backward-weights kernel gets these wrong and corrupts the heap, so they
// stay on im2col: seed 950139 of tfc-difftest-grad found it.
TYPED_TEST(ConvKernels, UnreadTrailingInputMatchesDirectLoops) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
  std::mt19937 rng(950139);
  for (int repeat = 0; repeat < 20; ++repeat) {
    checkAll<T>(conv2d_shape("conv2d", {1, 6, 14, 3}, {1, 1, 3, 2}, {1, 2},
                             {1, 2}, false),
                rng, tol);
    checkAll<T>(conv2d_shape("conv2d", {2, 28, 28, 16}, {3, 3, 16, 8}, {2, 2},
                             {1, 1}, false),
                rng, tol);
    checkAll<T>(conv2d_shape("conv2d", {2, 9, 10, 12}, {1, 1, 12, 4}, {2, 3},
                             {1, 1}, false),
                rng, tol);
  }
}

// A column matrix of 3*32*32 rows by 7*7*16 columns (9.6 MB in float, 19 MB
// in double) is split into several chunks of the kernels' 4 MiB bound whose
// edges fall inside images, so col2im and the accumulating filter GEMM see
// partial images.
TYPED_TEST(ConvKernels, ChunkedColumnMatrixMatchesDirectLoops) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, float> ? 1e-4 : 1e-12;
  std::mt19937 rng(5);
  checkAll<T>(conv2d_shape("conv2d", {3, 32, 32, 16}, {7, 7, 16, 2}, {1, 1},
                           {1, 1}, true),
              rng, tol);
}

// oneDNN's primitives are built per thread count and must give the same
// results on each, and calls from several threads at once must not share
// state.
TEST(ConvKernels, ThreadCountsAndConcurrentCalls) {
  const int saved = num_threads();
  std::mt19937 rng(11);
  for (int n : {1, 2, 3}) {
    set_num_threads(n);
    checkAll<float>(conv2d_shape("conv2d", {5, 12, 12, 16}, {3, 3, 16, 24},
                                 {1, 1}, {1, 1}, true),
                    rng, 1e-4);
  }
  set_num_threads(saved);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      std::mt19937 local(100 + t);
      for (int i = 0; i < 10; ++i)
        checkAll<float>(randomShape(local, 1, 20), local, 1e-4);
    });
  for (auto &t : threads)
    t.join();
}

TEST(ConvKernels, AdjointIdentity) {
  std::mt19937 rng(42);
  for (int trial = 0; trial < 100; ++trial) {
    Conv2DShape s = randomShape(rng);
    auto x = randomVec<double>(rng, s.n * s.h * s.w * s.c);
    auto f = randomVec<double>(rng, s.kh * s.kw * s.c * s.o);
    auto dy = randomVec<double>(rng, s.n * s.oh * s.ow * s.o);
    std::vector<double> y(dy.size()), dx(x.size()), df(f.size());
    conv2d(s, x.data(), f.data(), y.data());
    conv2d_backprop_input(s, dy.data(), f.data(), dx.data());
    conv2d_backprop_filter(s, x.data(), dy.data(), df.data());
    auto dot = [](const std::vector<double> &a, const std::vector<double> &b) {
      double r = 0, mag = 0;
      for (size_t i = 0; i < a.size(); ++i) {
        r += a[i] * b[i];
        mag += std::abs(a[i] * b[i]);
      }
      return std::pair(r, mag);
    };
    auto [yDy, mag] = dot(y, dy);
    double tol = 1e-10 * std::max(1.0, mag);
    EXPECT_NEAR(yDy, dot(x, dx).first, tol) << describe(s);
    EXPECT_NEAR(yDy, dot(f, df).first, tol) << describe(s);
  }
}

TEST(ConvKernels, TensorFlowSameAndValidShapes) {
  // SAME: out = ceil(in / stride); the odd padding pixel goes after.
  Conv2DShape s =
      conv2d_shape("conv2d", {1, 5, 5, 1}, {2, 2, 1, 1}, {2, 2}, {1, 1}, true);
  EXPECT_EQ(s.oh, 3);
  EXPECT_EQ(s.ow, 3);
  EXPECT_EQ(s.padTop, 0); // total padding 1: 0 before, 1 after
  s = conv2d_shape("conv2d", {1, 4, 4, 1}, {3, 3, 1, 1}, {1, 1}, {1, 1}, true);
  EXPECT_EQ(s.oh, 4);
  EXPECT_EQ(s.padTop, 1);
  EXPECT_EQ(s.padLeft, 1);
  s = conv2d_shape("conv2d", {1, 7, 10, 1}, {4, 1, 1, 1}, {3, 4}, {1, 1}, true);
  EXPECT_EQ(s.oh, 3); // padding (3-1)*3+4-7 = 3: 1 before
  EXPECT_EQ(s.padTop, 1);
  EXPECT_EQ(s.ow, 3);
  EXPECT_EQ(s.padLeft, 0);
  // Dilation 2 makes a 3-tap filter span 5 rows: padding 4, 2 before.
  s = conv2d_shape("conv2d", {1, 6, 6, 1}, {3, 3, 1, 1}, {1, 1}, {2, 2}, true);
  EXPECT_EQ(s.oh, 6);
  EXPECT_EQ(s.padTop, 2);
  // A filter larger than the input is fine with SAME.
  s = conv2d_shape("conv2d", {2, 2, 3, 1}, {5, 5, 1, 4}, {1, 1}, {1, 1}, true);
  EXPECT_EQ(s.oh, 2);
  EXPECT_EQ(s.ow, 3);
  EXPECT_EQ(s.padTop, 2);
  EXPECT_EQ(s.padLeft, 2);
  // VALID: out = ceil((in - span + 1) / stride), no padding.
  s = conv2d_shape("conv2d", {2, 7, 9, 3}, {3, 2, 3, 5}, {2, 3}, {1, 1}, false);
  EXPECT_EQ(s.n, 2);
  EXPECT_EQ(s.oh, 3);
  EXPECT_EQ(s.ow, 3);
  EXPECT_EQ(s.padTop, 0);
  EXPECT_EQ(s.padLeft, 0);
  EXPECT_EQ(s.o, 5);
  s = conv2d_shape("conv2d", {1, 9, 9, 1}, {3, 3, 1, 1}, {1, 1}, {4, 4}, false);
  EXPECT_EQ(s.oh, 1);
  EXPECT_EQ(s.ow, 1);
}

TEST(ConvKernels, HandComputedValues) {
  // 3x3 ones, 2x2 ones filter, VALID: every window sums four ones.
  Conv2DShape s =
      conv2d_shape("conv2d", {1, 3, 3, 1}, {2, 2, 1, 1}, {1, 1}, {1, 1}, false);
  std::vector<float> x(9, 1.0f), f(4, 1.0f), y(4, 0.0f);
  conv2d(s, x.data(), f.data(), y.data());
  EXPECT_EQ(y, std::vector<float>(4, 4.0f));
  // SAME on the same input: the right column and bottom row see padding.
  s = conv2d_shape("conv2d", {1, 3, 3, 1}, {2, 2, 1, 1}, {1, 1}, {1, 1}, true);
  std::vector<float> ys(9);
  conv2d(s, x.data(), f.data(), ys.data());
  EXPECT_EQ(ys, (std::vector<float>{4, 4, 2, 4, 4, 2, 2, 2, 1}));
  // Backprop input of all-ones dy: how many windows cover each pixel.
  std::vector<float> dy(4, 1.0f), dx(9);
  s = conv2d_shape("conv2d", {1, 3, 3, 1}, {2, 2, 1, 1}, {1, 1}, {1, 1}, false);
  conv2d_backprop_input(s, dy.data(), f.data(), dx.data());
  EXPECT_EQ(dx, (std::vector<float>{1, 2, 1, 2, 4, 2, 1, 2, 1}));
  // Two channels in, two out: y[o] = sum_c x[c] * f[c, o] per pixel.
  s = conv2d_shape("conv2d", {1, 1, 1, 2}, {1, 1, 2, 2}, {1, 1}, {1, 1}, false);
  std::vector<double> x2{1, 2}, f2{1, 2, 3, 4}, y2(2);
  conv2d(s, x2.data(), f2.data(), y2.data());
  EXPECT_EQ(y2, (std::vector<double>{7, 10}));
}

TEST(ConvKernels, EmptyBatch) {
  Conv2DShape s =
      conv2d_shape("conv2d", {0, 5, 5, 2}, {3, 3, 2, 4}, {1, 1}, {1, 1}, true);
  EXPECT_EQ(s.n, 0);
  EXPECT_EQ(s.oh, 5);
  std::vector<float> f(3 * 3 * 2 * 4, 1.0f), df(f.size(), NAN);
  conv2d<float>(s, nullptr, f.data(), nullptr);
  conv2d_backprop_input<float>(s, nullptr, f.data(), nullptr);
  conv2d_backprop_filter<float>(s, nullptr, nullptr, df.data());
  EXPECT_EQ(df, std::vector<float>(f.size(), 0.0f));
}

/// conv2d_shape throws InvalidArgumentError naming the op, both shapes and
/// `what`.
void expectShapeError(const Shape &input, const Shape &filter,
                      std::array<int64_t, 2> strides,
                      std::array<int64_t, 2> dilations, bool same,
                      const std::string &what) {
  try {
    conv2d_shape("my_conv", input, filter, strides, dilations, same);
    ADD_FAILURE() << "no error for " << what;
  } catch (const InvalidArgumentError &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("my_conv"), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_NE(msg.find("input shape " + shape_to_string(input)),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("filter shape " + shape_to_string(filter)),
              std::string::npos)
        << msg;
  }
}

TEST(ConvKernels, InvalidArguments) {
  expectShapeError({1, 5, 5}, {3, 3, 1, 1}, {1, 1}, {1, 1}, true, "rank-4");
  expectShapeError({1, 5, 5, 1}, {3, 3, 1}, {1, 1}, {1, 1}, true, "rank-4");
  expectShapeError({1, 5, 5, 2}, {3, 3, 3, 1}, {1, 1}, {1, 1}, true,
                   "input channels (2) differ from the filter's (3)");
  expectShapeError({1, 5, 5, 1}, {3, 3, 1, 1}, {0, 1}, {1, 1}, true,
                   "strides must be >= 1");
  expectShapeError({1, 5, 5, 1}, {3, 3, 1, 1}, {1, -2}, {1, 1}, false,
                   "strides must be >= 1");
  expectShapeError({1, 5, 5, 1}, {3, 3, 1, 1}, {1, 1}, {1, 0}, true,
                   "dilations must be >= 1");
  expectShapeError({1, 5, 5, 1}, {3, 3, 1, 1}, {1, 1}, {3, 1}, false,
                   "larger than the input");
  expectShapeError({1, 2, 5, 1}, {3, 3, 1, 1}, {1, 1}, {1, 1}, false,
                   "larger than the input");
  expectShapeError({1, 5, 2, 1}, {1, 3, 1, 1}, {1, 1}, {1, 1}, false,
                   "larger than the input");
  expectShapeError({-1, 5, 5, 1}, {3, 3, 1, 1}, {1, 1}, {1, 1}, true,
                   "negative batch");
  expectShapeError({1, 0, 5, 1}, {3, 3, 1, 1}, {1, 1}, {1, 1}, true,
                   "input dims must be positive");
  expectShapeError({1, 5, 5, 0}, {3, 3, 0, 1}, {1, 1}, {1, 1}, true,
                   "input dims must be positive");
  expectShapeError({1, 5, 5, 1}, {3, 0, 1, 1}, {1, 1}, {1, 1}, true,
                   "filter dims must be positive");
  expectShapeError({1, 5, 5, 1}, {3, 3, 1, 0}, {1, 1}, {1, 1}, true,
                   "filter dims must be positive");
  // Overflowing sizes are rejected, not wrapped.
  const int64_t big = int64_t(1) << 40;
  expectShapeError({big, big, 4, 1}, {1, 1, 1, 1}, {1, 1}, {1, 1}, true,
                   "too many elements");
  expectShapeError({1, 5, 5, 1}, {3, 3, 1, 1}, {1, 1}, {int64_t(1) << 62, 1},
                   true, "window is too large");
  expectShapeError({1, 4, 4, 1 << 20}, {64, 64, 1 << 20, 1}, {1, 1}, {1, 1},
                   true, "BLAS limit");
  expectShapeError({2, big, big, big}, {1, 1, big, 1}, {1, 1}, {1, 1}, true,
                   "too many elements");
}

} // namespace
