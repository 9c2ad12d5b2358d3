//===- PoolKernelsTest.cpp - pooling kernels against direct loops ---------===//
//
// The pooling kernels against their definitions written as direct loops
// in double over a random sweep of geometries (with ties and NaNs), the
// gradient identities (avg: adjoint; max: directional derivative),
// TensorFlow's rules on hand-computed values and the errors.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/PoolKernels.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Tensor.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace tfc;
using namespace tfc::kernels;

namespace {

using Shape = std::vector<int64_t>;

int64_t xIndex(const Pool2DShape &s, int64_t n, int64_t y, int64_t x,
               int64_t ch) {
  return ((n * s.h + y) * s.w + x) * s.c + ch;
}
int64_t yIndex(const Pool2DShape &s, int64_t n, int64_t i, int64_t j,
               int64_t ch) {
  return ((n * s.oh + i) * s.ow + j) * s.c + ch;
}

/// Calls f(out, in) for each output element and, in row-major window order,
/// each input element of its window that lies inside the input.
template <class F> void forEachWindow(const Pool2DShape &s, F &&f) {
  for (int64_t n = 0; n < s.n; ++n)
    for (int64_t i = 0; i < s.oh; ++i)
      for (int64_t j = 0; j < s.ow; ++j)
        for (int64_t ch = 0; ch < s.c; ++ch) {
          std::vector<int64_t> in;
          for (int64_t a = 0; a < s.kh; ++a)
            for (int64_t b = 0; b < s.kw; ++b) {
              int64_t iy = i * s.strideH + a - s.padTop;
              int64_t ix = j * s.strideW + b - s.padLeft;
              if (iy >= 0 && iy < s.h && ix >= 0 && ix < s.w)
                in.push_back(xIndex(s, n, iy, ix, ch));
            }
          f(yIndex(s, n, i, j, ch), in);
        }
}

/// The window's first maximum, or its first NaN.
template <class T>
int64_t refArgmax(const std::vector<T> &x, const std::vector<int64_t> &in) {
  int64_t best = -1;
  for (int64_t k : in) {
    if (std::isnan(double(x[k])))
      return k;
    if (best < 0 || double(x[k]) > double(x[best]))
      best = k;
  }
  return best;
}

template <class T>
std::vector<double> refMax(const Pool2DShape &s, const std::vector<T> &x) {
  std::vector<double> y(s.n * s.oh * s.ow * s.c);
  forEachWindow(s, [&](int64_t o, const std::vector<int64_t> &in) {
    y[o] = double(x[refArgmax(x, in)]);
  });
  return y;
}

template <class T>
std::vector<double> refMaxGrad(const Pool2DShape &s, const std::vector<T> &x,
                               const std::vector<T> &dy) {
  std::vector<double> dx(x.size(), 0.0);
  forEachWindow(s, [&](int64_t o, const std::vector<int64_t> &in) {
    dx[refArgmax(x, in)] += double(dy[o]);
  });
  return dx;
}

template <class T>
std::vector<double> refMaxGradGrad(const Pool2DShape &s,
                                   const std::vector<T> &x,
                                   const std::vector<T> &g) {
  std::vector<double> y(s.n * s.oh * s.ow * s.c);
  forEachWindow(s, [&](int64_t o, const std::vector<int64_t> &in) {
    y[o] = double(g[refArgmax(x, in)]);
  });
  return y;
}

template <class T>
std::vector<double> refAvg(const Pool2DShape &s, const std::vector<T> &x) {
  std::vector<double> y(s.n * s.oh * s.ow * s.c);
  forEachWindow(s, [&](int64_t o, const std::vector<int64_t> &in) {
    double sum = 0;
    for (int64_t k : in)
      sum += double(x[k]);
    y[o] = sum / double(in.size());
  });
  return y;
}

template <class T>
std::vector<double> refAvgGrad(const Pool2DShape &s, const std::vector<T> &dy,
                               int64_t inputElems) {
  std::vector<double> dx(inputElems, 0.0);
  forEachWindow(s, [&](int64_t o, const std::vector<int64_t> &in) {
    for (int64_t k : in)
      dx[k] += double(dy[o]) / double(in.size());
  });
  return dx;
}

/// Elementwise |got - want| <= tol * (1 + |want|), NaN exactly where want
/// is NaN.
template <class T>
void expectNear(const std::vector<T> &got, const std::vector<double> &want,
                double tol, const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      ASSERT_TRUE(std::isnan(double(got[i]))) << what << " at " << i;
      continue;
    }
    ASSERT_NEAR(double(got[i]), want[i], tol * (1 + std::abs(want[i])))
        << what << " at " << i;
  }
}

std::string describe(const Pool2DShape &s) {
  return "n=" + std::to_string(s.n) + " h=" + std::to_string(s.h) +
         " w=" + std::to_string(s.w) + " c=" + std::to_string(s.c) +
         " k=" + std::to_string(s.kh) + "x" + std::to_string(s.kw) +
         " stride=" + std::to_string(s.strideH) + "," +
         std::to_string(s.strideW) + " pad=" + std::to_string(s.padTop) + "," +
         std::to_string(s.padLeft) + " out=" + std::to_string(s.oh) + "x" +
         std::to_string(s.ow);
}

/// How the random inputs are drawn.
enum class Values {
  Uniform, ///< uniform in [-1, 1)
  Ties,    ///< small integers: windows with several maxima
  NaNs,    ///< uniform, about one element in ten NaN
};

template <class T>
std::vector<T> randomVec(std::mt19937 &rng, int64_t n,
                         Values kind = Values::Uniform) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<int> small(-2, 2), tenth(0, 9);
  std::vector<T> v(n);
  for (auto &e : v) {
    e = kind == Values::Ties ? T(small(rng)) : T(u(rng));
    if (kind == Values::NaNs && tenth(rng) == 0)
      e = std::numeric_limits<T>::quiet_NaN();
  }
  return v;
}

/// All five kernels against the references on one geometry; outputs start
/// as NaN, so an element left unwritten fails (inputs without NaNs).
template <class T>
void checkAll(const Pool2DShape &s, std::mt19937 &rng, Values kind,
              double tol) {
  std::string what = describe(s);
  auto x = randomVec<T>(rng, s.n * s.h * s.w * s.c, kind);
  auto dy = randomVec<T>(rng, s.n * s.oh * s.ow * s.c);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> y(dy.size(), nan), dx(x.size(), nan);
  max_pool2d<T>(s, x.data(), y.data());
  expectNear(y, refMax(s, x), 0.0, "max_pool2d " + what);
  max_pool2d_grad<T>(s, x.data(), dy.data(), dx.data());
  expectNear(dx, refMaxGrad(s, x, dy), tol, "max_pool2d_grad " + what);
  auto g = randomVec<T>(rng, s.n * s.h * s.w * s.c);
  std::fill(y.begin(), y.end(), nan);
  max_pool2d_grad_grad<T>(s, x.data(), g.data(), y.data());
  expectNear(y, refMaxGradGrad(s, x, g), 0.0, "max_pool2d_grad_grad " + what);
  std::fill(y.begin(), y.end(), nan);
  avg_pool2d<T>(s, x.data(), y.data());
  expectNear(y, refAvg(s, x), tol, "avg_pool2d " + what);
  std::fill(dx.begin(), dx.end(), nan);
  avg_pool2d_grad<T>(s, dy.data(), dx.data());
  expectNear(dx, refAvgGrad(s, dy, int64_t(x.size())), tol,
             "avg_pool2d_grad " + what);
}

/// A random geometry that pool2d_shape accepts (VALID draws are redrawn
/// until the window fits).
Pool2DShape randomShape(std::mt19937 &rng) {
  auto pick = [&](int lo, int hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  while (true) {
    int64_t n = pick(0, 2), h = pick(1, 9), w = pick(1, 9), c = pick(1, 5);
    int64_t kh = pick(1, 4), kw = pick(1, 4);
    std::array<int64_t, 2> st{pick(1, 3), pick(1, 3)};
    bool same = pick(0, 1) == 1;
    if (!same && (kh > h || kw > w))
      continue;
    return pool2d_shape("pool", {n, h, w, c}, {kh, kw}, st, same);
  }
}

template <class T> class PoolKernels : public ::testing::Test {
protected:
  static constexpr double kTol = std::is_same_v<T, float> ? 1e-5 : 1e-13;
};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(PoolKernels, FloatTypes);

TYPED_TEST(PoolKernels, RandomGeometriesMatchDirectLoops) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 400; ++trial)
    checkAll<TypeParam>(randomShape(rng), rng, Values::Uniform, this->kTol);
}

TYPED_TEST(PoolKernels, RandomTiesGoToTheFirstMaximum) {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 200; ++trial)
    checkAll<TypeParam>(randomShape(rng), rng, Values::Ties, this->kTol);
}

TYPED_TEST(PoolKernels, RandomNaNsPropagate) {
  std::mt19937 rng(31);
  for (int trial = 0; trial < 200; ++trial)
    checkAll<TypeParam>(randomShape(rng), rng, Values::NaNs, this->kTol);
}

// Big enough that the kernels split rows across threads; overlapping
// windows (3x3, stride 1 or 2) accumulate across the threads' row ranges.
TYPED_TEST(PoolKernels, ParallelRowsMatchDirectLoops) {
  std::mt19937 rng(5);
  for (Values kind : {Values::Uniform, Values::Ties})
    for (auto [k, st, same] :
         {std::tuple{3, 2, true}, std::tuple{3, 1, true},
          std::tuple{2, 2, false}, std::tuple{3, 2, false}})
      checkAll<TypeParam>(
          pool2d_shape("pool", {3, 37, 41, 16}, {k, k}, {st, st}, same), rng,
          kind, this->kTol);
}

// More channels than the kernels' accumulator block (256).
TYPED_TEST(PoolKernels, ManyChannelsMatchDirectLoops) {
  std::mt19937 rng(6);
  checkAll<TypeParam>(
      pool2d_shape("pool", {2, 5, 4, 600}, {3, 2}, {1, 2}, true), rng,
      Values::Ties, this->kTol);
}

TEST(PoolKernels, TensorFlowSameAndValidShapes) {
  // SAME: out = ceil(in / stride); the odd padding pixel goes after.
  Pool2DShape s = pool2d_shape("pool", {1, 5, 5, 1}, {2, 2}, {2, 2}, true);
  EXPECT_EQ(s.oh, 3);
  EXPECT_EQ(s.ow, 3);
  EXPECT_EQ(s.padTop, 0); // total padding 1: 0 before, 1 after
  s = pool2d_shape("pool", {1, 4, 4, 1}, {3, 3}, {1, 1}, true);
  EXPECT_EQ(s.oh, 4);
  EXPECT_EQ(s.padTop, 1);
  EXPECT_EQ(s.padLeft, 1);
  s = pool2d_shape("pool", {1, 7, 10, 1}, {4, 1}, {3, 4}, true);
  EXPECT_EQ(s.oh, 3); // padding (3-1)*3+4-7 = 3: 1 before
  EXPECT_EQ(s.padTop, 1);
  EXPECT_EQ(s.ow, 3);
  EXPECT_EQ(s.padLeft, 0);
  s = pool2d_shape("pool", {1, 112, 112, 64}, {3, 3}, {2, 2}, true);
  EXPECT_EQ(s.oh, 56); // ResNet's stem: padding 1, 0 before
  EXPECT_EQ(s.padTop, 0);
  // VALID: out = (in - k) / stride + 1, no padding.
  s = pool2d_shape("pool", {2, 7, 9, 3}, {3, 2}, {2, 3}, false);
  EXPECT_EQ(s.n, 2);
  EXPECT_EQ(s.c, 3);
  EXPECT_EQ(s.oh, 3);
  EXPECT_EQ(s.ow, 3);
  EXPECT_EQ(s.padTop, 0);
  EXPECT_EQ(s.padLeft, 0);
  s = pool2d_shape("pool", {128, 28, 28, 32}, {2, 2}, {2, 2}, false);
  EXPECT_EQ(s.oh, 14);
  EXPECT_EQ(s.ow, 14);
}

TEST(PoolKernels, AverageExcludesPadding) {
  // 2x2 ones, 3x3 window SAME stride 1: every window holds some padding.
  Pool2DShape s =
      pool2d_shape("avg_pool2d", {1, 2, 2, 1}, {3, 3}, {1, 1}, true);
  std::vector<float> ones(4, 1.0f), y(4);
  avg_pool2d(s, ones.data(), y.data());
  EXPECT_EQ(y, std::vector<float>(4, 1.0f));
  // 3x3 input 1..9, 2x2 window SAME stride 2: padding 1 after, so the
  // windows hold 4, 2, 2 and 1 elements.
  std::vector<double> x(9);
  std::iota(x.begin(), x.end(), 1.0);
  s = pool2d_shape("avg_pool2d", {1, 3, 3, 1}, {2, 2}, {2, 2}, true);
  std::vector<double> y2(4), m2(4);
  avg_pool2d(s, x.data(), y2.data());
  EXPECT_EQ(y2, (std::vector<double>{3, 4.5, 7.5, 9}));
  max_pool2d(s, x.data(), m2.data());
  EXPECT_EQ(m2, (std::vector<double>{5, 6, 8, 9}));
  // 3x3 window SAME stride 1 on the same input: corner 4, edge 6, centre 9.
  s = pool2d_shape("avg_pool2d", {1, 3, 3, 1}, {3, 3}, {1, 1}, true);
  std::vector<double> y3(9);
  avg_pool2d(s, x.data(), y3.data());
  EXPECT_EQ(y3, (std::vector<double>{3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7}));
  // The gradient divides by the same counts: each of the four windows of
  // the 2x2 case above holds all four pixels, so each pixel gets a quarter
  // of each window's dy.
  s = pool2d_shape("avg_pool2d", {1, 2, 2, 1}, {3, 3}, {1, 1}, true);
  std::vector<double> dy(4, 1.0), dx(4);
  avg_pool2d_grad(s, dy.data(), dx.data());
  EXPECT_EQ(dx, std::vector<double>(4, 1.0));
}

TEST(PoolKernels, MaxIgnoresPadding) {
  // Negative inputs: a zero from padding would win if it counted.
  Pool2DShape s =
      pool2d_shape("max_pool2d", {1, 3, 3, 1}, {3, 3}, {2, 2}, true);
  std::vector<float> x(9, -5.0f), y(4);
  x[8] = -7.0f;
  max_pool2d(s, x.data(), y.data());
  EXPECT_EQ(y, std::vector<float>(4, -5.0f));
}

TEST(PoolKernels, WindowLargerThanInputWithSame) {
  // A huge SAME window pools the whole input (TensorFlow's global pool).
  const int64_t big = std::numeric_limits<int64_t>::max();
  Pool2DShape s =
      pool2d_shape("avg_pool2d", {1, 2, 2, 1}, {big, big}, {big, big}, true);
  EXPECT_EQ(s.oh, 1);
  EXPECT_EQ(s.ow, 1);
  std::vector<double> x{1, 2, 9, 4}, y(1), m(1), dy{8}, dx(4);
  avg_pool2d(s, x.data(), y.data());
  EXPECT_EQ(y[0], 4.0);
  max_pool2d(s, x.data(), m.data());
  EXPECT_EQ(m[0], 9.0);
  max_pool2d_grad(s, x.data(), dy.data(), dx.data());
  EXPECT_EQ(dx, (std::vector<double>{0, 0, 8, 0}));
  avg_pool2d_grad(s, dy.data(), dx.data());
  EXPECT_EQ(dx, std::vector<double>(4, 2.0));
}

TEST(PoolKernels, MaxGradRoutesToTheFirstMaximum) {
  // All equal: the whole dy goes to the window's first element.
  Pool2DShape s =
      pool2d_shape("max_pool2d", {1, 2, 2, 1}, {2, 2}, {1, 1}, false);
  std::vector<float> x(4, 1.0f), dy{3.0f}, dx(4, NAN);
  max_pool2d_grad(s, x.data(), dy.data(), dx.data());
  EXPECT_EQ(dx, (std::vector<float>{3, 0, 0, 0}));
  // Tie between (0, 1) and (1, 0): row-major order picks (0, 1).
  x = {1, 3, 3, 2};
  max_pool2d_grad(s, x.data(), dy.data(), dx.data());
  EXPECT_EQ(dx, (std::vector<float>{0, 3, 0, 0}));
  // -inf everywhere is still a maximum.
  x.assign(4, -INFINITY);
  max_pool2d_grad(s, x.data(), dy.data(), dx.data());
  EXPECT_EQ(dx, (std::vector<float>{3, 0, 0, 0}));
  // Overlapping windows that share their maximum add up.
  s = pool2d_shape("max_pool2d", {1, 1, 3, 1}, {1, 2}, {1, 1}, false);
  std::vector<float> x3{1, 5, 2}, dy3{1, 2}, dx3(3, NAN);
  max_pool2d_grad(s, x3.data(), dy3.data(), dx3.data());
  EXPECT_EQ(dx3, (std::vector<float>{0, 3, 0}));
  // Channels are independent: each routes to its own maximum.
  s = pool2d_shape("max_pool2d", {1, 1, 2, 2}, {1, 2}, {1, 1}, false);
  std::vector<double> xc{1, 8, 4, 2}, dyc{10, 20}, dxc(4);
  max_pool2d_grad(s, xc.data(), dyc.data(), dxc.data());
  EXPECT_EQ(dxc, (std::vector<double>{0, 20, 10, 0}));
}

TEST(PoolKernels, NaNPropagates) {
  Pool2DShape s =
      pool2d_shape("max_pool2d", {1, 2, 2, 1}, {2, 2}, {1, 1}, false);
  for (int first : {0, 1, 3}) {
    std::vector<float> x{1, 2, 3, 4}, y(1), dy{5}, dx(4);
    x[first] = NAN;
    x[3] = NAN;
    max_pool2d(s, x.data(), y.data());
    EXPECT_TRUE(std::isnan(y[0])) << first;
    // The gradient goes to the first NaN.
    max_pool2d_grad(s, x.data(), dy.data(), dx.data());
    std::vector<float> want(4, 0.0f);
    want[first] = 5;
    EXPECT_EQ(dx, want) << first;
    avg_pool2d(s, x.data(), y.data());
    EXPECT_TRUE(std::isnan(y[0])) << first;
  }
}

TEST(PoolKernels, EmptyBatch) {
  Pool2DShape s =
      pool2d_shape("max_pool2d", {0, 5, 5, 2}, {3, 3}, {2, 2}, true);
  EXPECT_EQ(s.n, 0);
  EXPECT_EQ(s.oh, 3);
  max_pool2d<float>(s, nullptr, nullptr);
  max_pool2d_grad<float>(s, nullptr, nullptr, nullptr);
  max_pool2d_grad_grad<float>(s, nullptr, nullptr, nullptr);
  avg_pool2d<double>(s, nullptr, nullptr);
  avg_pool2d_grad<double>(s, nullptr, nullptr);
}

double dot(const std::vector<double> &a, const std::vector<double> &b,
           double *mag = nullptr) {
  double r = 0, m = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    r += a[i] * b[i];
    m += std::abs(a[i] * b[i]);
  }
  if (mag)
    *mag = m;
  return r;
}

TEST(PoolKernels, AvgGradIsTheAdjoint) {
  // avg_pool2d is linear: <avg(x), dy> = <x, avg_grad(dy)>.
  std::mt19937 rng(42);
  for (int trial = 0; trial < 200; ++trial) {
    Pool2DShape s = randomShape(rng);
    auto x = randomVec<double>(rng, s.n * s.h * s.w * s.c);
    auto dy = randomVec<double>(rng, s.n * s.oh * s.ow * s.c);
    std::vector<double> y(dy.size()), dx(x.size());
    avg_pool2d(s, x.data(), y.data());
    avg_pool2d_grad(s, dy.data(), dx.data());
    double mag;
    double yDy = dot(y, dy, &mag);
    EXPECT_NEAR(yDy, dot(x, dx), 1e-10 * std::max(1.0, mag)) << describe(s);
  }
}

TEST(PoolKernels, MaxGradIsTheDirectionalDerivative) {
  // Distinct values a unit apart: a step of eps * v (|v| < 1) moves no
  // window's maximum, so max_pool2d is linear along it and the difference
  // quotient equals <max_pool2d_grad(x, dy), v> up to rounding.
  std::mt19937 rng(43);
  const double eps = 1e-3;
  for (int trial = 0; trial < 200; ++trial) {
    Pool2DShape s = randomShape(rng);
    std::vector<double> x(s.n * s.h * s.w * s.c);
    std::iota(x.begin(), x.end(), 0.0);
    std::shuffle(x.begin(), x.end(), rng);
    auto v = randomVec<double>(rng, x.size());
    auto dy = randomVec<double>(rng, s.n * s.oh * s.ow * s.c);
    std::vector<double> xv(x.size()), y(dy.size()), yv(dy.size()), dx(x.size());
    for (size_t i = 0; i < x.size(); ++i)
      xv[i] = x[i] + eps * v[i];
    max_pool2d(s, x.data(), y.data());
    max_pool2d(s, xv.data(), yv.data());
    max_pool2d_grad(s, x.data(), dy.data(), dx.data());
    for (size_t i = 0; i < y.size(); ++i)
      yv[i] -= y[i];
    double mag;
    double want = dot(dx, v, &mag);
    EXPECT_NEAR(dot(dy, yv) / eps, want, 1e-8 * std::max(1.0, mag))
        << describe(s);
  }
}

TEST(PoolKernels, MaxGradGradIsTheAdjointOfMaxGrad) {
  // Both are linear in their second operand: <max_grad(x, dy), g> =
  // <dy, max_grad_grad(x, g)>, ties included.
  std::mt19937 rng(44);
  for (int trial = 0; trial < 200; ++trial) {
    Pool2DShape s = randomShape(rng);
    auto x = randomVec<double>(rng, s.n * s.h * s.w * s.c, Values::Ties);
    auto g = randomVec<double>(rng, x.size());
    auto dy = randomVec<double>(rng, s.n * s.oh * s.ow * s.c);
    std::vector<double> dx(x.size()), gy(dy.size());
    max_pool2d_grad(s, x.data(), dy.data(), dx.data());
    max_pool2d_grad_grad(s, x.data(), g.data(), gy.data());
    double mag;
    double want = dot(dx, g, &mag);
    EXPECT_NEAR(dot(dy, gy), want, 1e-10 * std::max(1.0, mag)) << describe(s);
  }
}

/// pool2d_shape throws InvalidArgumentError naming the op, the input shape,
/// the window and `what`.
void expectShapeError(const Shape &input, std::array<int64_t, 2> ksize,
                      std::array<int64_t, 2> strides, bool same,
                      const std::string &what) {
  try {
    pool2d_shape("my_pool", input, ksize, strides, same);
    ADD_FAILURE() << "no error for " << what;
  } catch (const InvalidArgumentError &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("my_pool: "), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_NE(msg.find("(input shape " + shape_to_string(input)),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("ksize [" + std::to_string(ksize[0]) + ", " +
                       std::to_string(ksize[1]) + "]"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find(same ? "SAME padding)" : "VALID padding)"),
              std::string::npos)
        << msg;
  }
}

TEST(PoolKernels, ShapeErrors) {
  expectShapeError({1, 4, 4}, {2, 2}, {1, 1}, true, "rank-4 NHWC");
  expectShapeError({1, 1, 4, 4, 1}, {2, 2}, {1, 1}, false, "rank-4 NHWC");
  expectShapeError({-1, 4, 4, 1}, {2, 2}, {1, 1}, true, "negative batch");
  expectShapeError({1, 0, 4, 1}, {2, 2}, {1, 1}, true, "must be positive");
  expectShapeError({1, 4, 4, 0}, {2, 2}, {1, 1}, false, "must be positive");
  expectShapeError({1, 4, 4, 1}, {0, 2}, {1, 1}, true, "window sizes");
  expectShapeError({1, 4, 4, 1}, {2, -1}, {1, 1}, false, "window sizes");
  expectShapeError({1, 4, 4, 1}, {2, 2}, {0, 1}, true, "strides must be");
  expectShapeError({1, 4, 4, 1}, {2, 2}, {1, -3}, false, "strides must be");
  expectShapeError({1, 4, 4, 1}, {5, 2}, {1, 1}, false,
                   "the window (5 x 2) is larger than the input (4 x 4)");
  expectShapeError({1, 4, 4, 1}, {1, 5}, {1, 1}, false, "VALID padding");
  const int64_t big = int64_t(1) << 40;
  expectShapeError({big, big, 4, 1}, {2, 2}, {1, 1}, true, "too many elements");
  expectShapeError({std::numeric_limits<int64_t>::max(), 4, 4, 4}, {1, 1},
                   {1, 1}, false, "too many elements");
  // The work over every window counts too, not only the buffers.
  expectShapeError({1, big / 4, 1 << 16, 1}, {big, big}, {1, 1}, true,
                   "too many elements");
}

} // namespace
