//===- ElementwiseTest.cpp - Unary, binary, compare, select, cast ---------===//

#include "TestUtil.h"

#include <limits>

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kE = 2.71828182845904523536;

//===----------------------------------------------------------------------===//
// Unary, every accepted dtype
//===----------------------------------------------------------------------===//

template <class T> class SignedNumeric : public ::testing::Test {};
using NumericTypes = ::testing::Types<int32_t, int64_t, float, double>;
TYPED_TEST_SUITE(SignedNumeric, NumericTypes);

TYPED_TEST(SignedNumeric, NegAbsSquareRelu) {
  using T = TypeParam;
  Tensor x = make<T>({T(3), T(-2), T(0), T(5)}, {2, 2});
  expectEq<T>(k::neg(x), {2, 2}, {T(-3), T(2), T(0), T(-5)});
  expectEq<T>(k::abs(x), {2, 2}, {T(3), T(2), T(0), T(5)});
  expectEq<T>(k::square(x), {2, 2}, {T(9), T(4), T(0), T(25)});
  expectEq<T>(k::relu(x), {2, 2}, {T(3), T(0), T(0), T(5)});
}

TYPED_TEST(SignedNumeric, ArithmeticSameShape) {
  using T = TypeParam;
  Tensor a = make<T>({T(7), T(-7), T(2), T(0)}, {4});
  Tensor b = make<T>({T(2), T(2), T(-5), T(3)}, {4});
  expectEq<T>(k::add(a, b), {4}, {T(9), T(-5), T(-3), T(3)});
  expectEq<T>(k::sub(a, b), {4}, {T(5), T(-9), T(7), T(-3)});
  expectEq<T>(k::mul(a, b), {4}, {T(14), T(-14), T(-10), T(0)});
  expectEq<T>(k::maximum(a, b), {4}, {T(7), T(2), T(2), T(3)});
  expectEq<T>(k::minimum(a, b), {4}, {T(2), T(-7), T(-5), T(0)});
}

TYPED_TEST(SignedNumeric, PythonFlooringDivAndMod) {
  using T = TypeParam;
  // Python: -7 // 2 == -4, 7 // -2 == -4, -7 % 3 == 2, 7 % -3 == -2.
  Tensor a = make<T>({T(-7), T(7), T(-7), T(7), T(6), T(-6)}, {6});
  Tensor b = make<T>({T(2), T(-2), T(3), T(-3), T(3), T(-3)}, {6});
  expectEq<T>(k::floor_div(a, b), {6}, {T(-4), T(-4), T(-3), T(-3), T(2), T(2)});
  expectEq<T>(k::mod(a, b), {6}, {T(1), T(-1), T(2), T(-2), T(0), T(0)});
}

TYPED_TEST(SignedNumeric, PowIntegralValues) {
  using T = TypeParam;
  Tensor a = make<T>({T(2), T(3), T(-2), T(5)}, {4});
  Tensor b = make<T>({T(10), T(0), T(3), T(1)}, {4});
  expectEq<T>(k::pow(a, b), {4}, {T(1024), T(1), T(-8), T(5)});
}

TYPED_TEST(SignedNumeric, CompareAllPredicates) {
  using T = TypeParam;
  Tensor a = make<T>({T(1), T(2), T(3)}, {3});
  Tensor b = make<T>({T(2), T(2), T(2)}, {3});
  using P = k::CmpPredicate;
  expectEq<bool>(k::compare(P::EQ, a, b), {3}, {false, true, false});
  expectEq<bool>(k::compare(P::NE, a, b), {3}, {true, false, true});
  expectEq<bool>(k::compare(P::LT, a, b), {3}, {true, false, false});
  expectEq<bool>(k::compare(P::LE, a, b), {3}, {true, true, false});
  expectEq<bool>(k::compare(P::GT, a, b), {3}, {false, false, true});
  expectEq<bool>(k::compare(P::GE, a, b), {3}, {false, true, true});
}

TYPED_TEST(SignedNumeric, SelectBroadcasts) {
  using T = TypeParam;
  Tensor c = make<bool>({true, false, true}, {3});
  Tensor a = make<T>({T(1), T(2), T(3), T(4), T(5), T(6)}, {2, 3});
  Tensor b = scalar<T>(T(-1));
  expectEq<T>(k::select(c, a, b), {2, 3},
              {T(1), T(-1), T(3), T(4), T(-1), T(6)});
}

template <class T> class Floating : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(Floating, FloatTypes);

TYPED_TEST(Floating, Transcendentals) {
  using T = TypeParam;
  double tol = std::is_same_v<T, float> ? 2e-6 : 1e-12;
  expectNear<T>(k::exp(make<T>({T(0), T(1), T(-1)}, {3})), {3},
                {1.0, kE, 1.0 / kE}, tol);
  expectNear<T>(k::log(make<T>({T(1), T(kE), T(0.5)}, {3})), {3},
                {0.0, 1.0, std::log(0.5)}, tol);
  expectNear<T>(k::log1p(make<T>({T(0), T(kE - 1), T(1e-10)}, {3})), {3},
                {0.0, 1.0, 1e-10}, tol);
  expectNear<T>(k::sqrt(make<T>({T(4), T(9), T(2)}, {3})), {3},
                {2.0, 3.0, std::sqrt(2.0)}, tol);
  expectNear<T>(k::sin(make<T>({T(0), T(kPi / 2), T(kPi / 6)}, {3})), {3},
                {0.0, 1.0, 0.5}, tol);
  expectNear<T>(k::cos(make<T>({T(0), T(kPi), T(kPi / 3)}, {3})), {3},
                {1.0, -1.0, 0.5}, tol);
  expectNear<T>(k::tanh(make<T>({T(0), T(1), T(-20)}, {3})), {3},
                {0.0, 0.7615941559557649, -1.0}, tol);
  expectNear<T>(k::sigmoid(make<T>({T(0), T(2), T(-2)}, {3})), {3},
                {0.5, 0.8807970779778823, 0.11920292202211755}, tol);
  // Domain errors give NaN, not exceptions (as TensorFlow).
  expectEq<T>(k::log(make<T>({T(-1)}, {1})), {1},
              {std::numeric_limits<T>::quiet_NaN()});
  expectEq<T>(k::sqrt(make<T>({T(-4)}, {1})), {1},
              {std::numeric_limits<T>::quiet_NaN()});
}

TYPED_TEST(Floating, SigmoidTailsStayExact) {
  using T = TypeParam;
  Tensor s = k::sigmoid(make<T>({T(-100), T(100), T(-30)}, {3}));
  std::vector<T> v = s.template to_vector<T>();
  EXPECT_EQ(v[1], T(1));
  EXPECT_NEAR(static_cast<double>(v[2]), 9.357622968840175e-14,
              9.357622968840175e-14 * 1e-5);
  EXPECT_GE(v[0], T(0));
  EXPECT_LT(static_cast<double>(v[0]), 1e-30);
}

TYPED_TEST(Floating, LargeUnaryMatchesLibm) {
  using T = TypeParam;
  // Above the parallel threshold: exercises the threaded Eigen path.
  const int64_t n = 200003;
  std::vector<T> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = T(-10.0 + 20.0 * double(i) / double(n));
  Tensor x = make<T>(v, {n});
  std::vector<T> e = k::exp(x).template to_vector<T>();
  std::vector<T> t = k::tanh(x).template to_vector<T>();
  double tol = std::is_same_v<T, float> ? 1e-5 : 1e-12;
  for (int64_t i = 0; i < n; i += 997) {
    EXPECT_NEAR(e[i], std::exp(v[i]), tol * std::exp(v[i])) << i;
    EXPECT_NEAR(t[i], std::tanh(v[i]), tol) << i;
  }
}

TYPED_TEST(Floating, DivAndFloatFlooring) {
  using T = TypeParam;
  Tensor a = make<T>({T(-7), T(7), T(-7.5), T(1)}, {4});
  Tensor b = make<T>({T(2), T(-2), T(2), T(4)}, {4});
  expectEq<T>(k::div(a, b), {4}, {T(-3.5), T(-3.5), T(-3.75), T(0.25)});
  expectEq<T>(k::floor_div(a, b), {4}, {T(-4), T(-4), T(-4), T(0)});
  // The remainder takes the divisor's sign.
  expectEq<T>(k::mod(a, b), {4}, {T(1), T(-1), T(0.5), T(1)});
  expectEq<T>(k::mod(make<T>({T(-7)}, {}), make<T>({T(3)}, {})), {}, {T(2)});
  // Floating division by zero follows IEEE.
  Tensor z = k::div(make<T>({T(1), T(-1)}, {2}), make<T>({T(0), T(0)}, {2}));
  std::vector<T> zv = z.template to_vector<T>();
  EXPECT_TRUE(std::isinf(zv[0]) && zv[0] > 0);
  EXPECT_TRUE(std::isinf(zv[1]) && zv[1] < 0);
}

TYPED_TEST(Floating, PowAndNaNPropagation) {
  using T = TypeParam;
  T nan = std::numeric_limits<T>::quiet_NaN();
  expectNear<T>(k::pow(make<T>({T(2), T(4), T(-8)}, {3}),
                       make<T>({T(0.5), T(-1), T(2)}, {3})),
                {3}, {std::sqrt(2.0), 0.25, 64.0}, 1e-6);
  Tensor a = make<T>({nan, T(1), T(2)}, {3});
  Tensor b = make<T>({T(1), nan, T(1)}, {3});
  expectEq<T>(k::maximum(a, b), {3}, {nan, nan, T(2)});
  expectEq<T>(k::minimum(a, b), {3}, {nan, nan, T(1)});
  expectEq<T>(k::relu(make<T>({nan, T(-1)}, {2})), {2}, {nan, T(0)});
  expectEq<bool>(k::compare(k::CmpPredicate::NE, a, a), {3},
                 {true, false, false});
}

TEST(Elementwise, IntegerWrapAroundIsDefined) {
  int32_t mn = std::numeric_limits<int32_t>::min();
  int32_t mx = std::numeric_limits<int32_t>::max();
  expectEq<int32_t>(k::neg(make<int32_t>({mn}, {1})), {1}, {mn});
  expectEq<int32_t>(k::abs(make<int32_t>({mn}, {1})), {1}, {mn});
  expectEq<int32_t>(k::add(make<int32_t>({mx}, {1}), make<int32_t>({1}, {1})),
                    {1}, {mn});
  // INT_MIN // -1 must not trap.
  expectEq<int32_t>(
      k::floor_div(make<int32_t>({mn, 7}, {2}), make<int32_t>({-1, -1}, {2})),
      {2}, {mn, -7});
  expectEq<int32_t>(
      k::mod(make<int32_t>({mn, 7}, {2}), make<int32_t>({-1, -1}, {2})), {2},
      {0, 0});
  expectEq<int64_t>(k::pow(make<int64_t>({2}, {}), make<int64_t>({62}, {})), {},
                    {int64_t(1) << 62});
}

TEST(Elementwise, LogicalOps) {
  Tensor a = make<bool>({true, true, false, false}, {4});
  Tensor b = make<bool>({true, false, true, false}, {4});
  expectEq<bool>(k::logical_and(a, b), {4}, {true, false, false, false});
  expectEq<bool>(k::logical_or(a, b), {4}, {true, true, true, false});
  expectEq<bool>(k::logical_not(a), {4}, {false, false, true, true});
  expectEq<bool>(k::compare(k::CmpPredicate::EQ, a, b), {4},
                 {true, false, false, true});
  expectEq<bool>(k::compare(k::CmpPredicate::NE, a, b), {4},
                 {false, true, true, false});
  // Broadcast a bool scalar.
  expectEq<bool>(k::logical_and(a, scalar<bool>(true)), {4},
                 {true, true, false, false});
}

TEST(Elementwise, CastBetweenEveryPair) {
  Tensor f = make<float>({-1.7f, 0.f, 2.5f}, {3});
  expectEq<int32_t>(k::cast(f, DType::Int32), {3}, {-1, 0, 2});
  expectEq<int64_t>(k::cast(f, DType::Int64), {3}, {-1, 0, 2});
  expectEq<bool>(k::cast(f, DType::Bool), {3}, {true, false, true});
  expectEq<double>(k::cast(f, DType::Float64), {3}, {-1.7f, 0.0, 2.5});
  expectEq<float>(k::cast(f, DType::Float32), {3}, {-1.7f, 0.f, 2.5f});
  Tensor b = make<bool>({true, false}, {2});
  expectEq<int32_t>(k::cast(b, DType::Int32), {2}, {1, 0});
  expectEq<int64_t>(k::cast(b, DType::Int64), {2}, {1, 0});
  expectEq<float>(k::cast(b, DType::Float32), {2}, {1.f, 0.f});
  expectEq<double>(k::cast(b, DType::Float64), {2}, {1.0, 0.0});
  Tensor i = make<int64_t>({-3, 0, 1ll << 40}, {3});
  expectEq<int32_t>(k::cast(i, DType::Int32), {3}, {-3, 0, 0}); // wraps
  expectEq<bool>(k::cast(i, DType::Bool), {3}, {true, false, true});
  expectEq<double>(k::cast(i, DType::Float64), {3}, {-3.0, 0.0, 1099511627776.0});
  Tensor j = make<int32_t>({7, -8}, {2});
  expectEq<int64_t>(k::cast(j, DType::Int64), {2}, {7, -8});
  expectEq<float>(k::cast(j, DType::Float32), {2}, {7.f, -8.f});
  Tensor d = make<double>({1e300, std::nan(""), -2.9}, {3});
  // NaN and out-of-range floats give the integer minimum (x86, TF, NumPy).
  expectEq<int32_t>(k::cast(d, DType::Int32), {3},
                    {std::numeric_limits<int32_t>::min(),
                     std::numeric_limits<int32_t>::min(), -2});
  expectEq<bool>(k::cast(d, DType::Bool), {3}, {true, true, true});
}

/// Values 0, 1, 2 survive a cast between any two dtypes except into bool,
/// where they become false, true, true.
template <class From> void castMatrixFrom() {
  Tensor x = make<From>({From(0), From(1), From(2)}, {3});
  expectEq<bool>(k::cast(x, DType::Bool), {3}, {false, true, true});
  if constexpr (!std::is_same_v<From, bool>) {
    expectEq<int32_t>(k::cast(x, DType::Int32), {3}, {0, 1, 2});
    expectEq<int64_t>(k::cast(x, DType::Int64), {3}, {0, 1, 2});
    expectEq<float>(k::cast(x, DType::Float32), {3}, {0, 1, 2});
    expectEq<double>(k::cast(x, DType::Float64), {3}, {0, 1, 2});
  }
}

TEST(Elementwise, CastMatrix) {
  castMatrixFrom<bool>();
  castMatrixFrom<int32_t>();
  castMatrixFrom<int64_t>();
  castMatrixFrom<float>();
  castMatrixFrom<double>();
  Tensor b = make<bool>({false, true}, {2});
  expectEq<bool>(k::cast(b, DType::Bool), {2}, {false, true});
  expectEq<float>(k::cast(b, DType::Float32), {2}, {0, 1});
  expectEq<int64_t>(k::cast(make<double>({-2.5, 1e19}, {2}), DType::Int64), {2},
                    {-2, std::numeric_limits<int64_t>::min()});
  expectEq<float>(k::cast(make<double>({0.1}, {1}), DType::Float32), {1}, {0.1f});
}

TEST(Elementwise, SelectBoolValuesAndCondBroadcast) {
  Tensor c = make<bool>({true, false}, {2, 1});
  Tensor a = make<bool>({true, true, true}, {3});
  Tensor b = make<bool>({false, false, false}, {3});
  expectEq<bool>(k::select(c, a, b), {2, 3}, {true, true, true, false, false, false});
  expectEq<int64_t>(k::select(scalar(false), make<int64_t>({1, 2}, {2}),
                              make<int64_t>({3, 4}, {2})),
                    {2}, {3, 4});
}

TEST(Elementwise, CastToSameDTypeSharesData) {
  Tensor f = make<float>({1.f, 2.f}, {2});
  Tensor g = k::cast(f, DType::Float32);
  EXPECT_EQ(g.raw_data(), f.raw_data());
  EXPECT_NE(g.id(), f.id()); // a fresh handle for autograd state
}

TEST(Elementwise, RankZeroAndEmpty) {
  expectEq<float>(k::add(scalar(1.5f), scalar(2.f)), {}, {3.5f});
  expectEq<int64_t>(k::neg(scalar<int64_t>(4)), {}, {-4});
  Tensor e = make<float>({}, {0, 3});
  expectEq<float>(k::exp(e), {0, 3}, {});
  expectEq<float>(k::add(e, make<float>({1, 2, 3}, {3})), {0, 3}, {});
  expectEq<float>(k::mul(e, scalar(2.f)), {0, 3}, {});
  expectEq<bool>(k::compare(k::CmpPredicate::LT, e, e), {0, 3}, {});
  // Division by zero is not checked when nothing is computed.
  Tensor ei = make<int32_t>({}, {0});
  expectEq<int32_t>(k::floor_div(ei, scalar<int32_t>(0)), {0}, {});
  expectEq<float>(k::select(make<bool>({}, {0, 1}), e, scalar(1.f)), {0, 3}, {});
}

TEST(Elementwise, BigBinaryUsesThreadsAndMatchesLoop) {
  const int64_t n = (1 << 20) + 7;
  std::vector<float> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = float(i % 1000) * 0.5f;
    b[i] = float(i % 77) - 30.f;
  }
  Tensor ta = make<float>(a, {n}), tb = make<float>(b, {n});
  std::vector<float> s = k::add(ta, tb).to_vector<float>();
  std::vector<float> m = k::mul(ta, scalar(3.f)).to_vector<float>();
  for (int64_t i = 0; i < n; i += 101) {
    ASSERT_EQ(s[i], a[i] + b[i]) << i;
    ASSERT_EQ(m[i], a[i] * 3.f) << i;
  }
  ASSERT_EQ(s[n - 1], a[n - 1] + b[n - 1]);
}

} // namespace
