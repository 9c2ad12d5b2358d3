//===- ReductionTest.cpp - reduce_* and argmax ----------------------------===//

#include "TestUtil.h"

#include <limits>

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;
using RK = k::ReduceKind;

namespace {

template <class T> class Reduce : public ::testing::Test {};
using NumericTypes = ::testing::Types<int32_t, int64_t, float, double>;
TYPED_TEST_SUITE(Reduce, NumericTypes);

// x = [[1, -2, 3],
//      [4,  5, -6]]
TYPED_TEST(Reduce, EachAxisWithAndWithoutKeepdims) {
  using T = TypeParam;
  Tensor x = make<T>({T(1), T(-2), T(3), T(4), T(5), T(-6)}, {2, 3});
  expectEq<T>(k::reduce(RK::Sum, x, {}, false), {}, {T(5)});
  expectEq<T>(k::reduce(RK::Sum, x, {}, true), {1, 1}, {T(5)});
  expectEq<T>(k::reduce(RK::Sum, x, {0}, false), {3}, {T(5), T(3), T(-3)});
  expectEq<T>(k::reduce(RK::Sum, x, {0}, true), {1, 3}, {T(5), T(3), T(-3)});
  expectEq<T>(k::reduce(RK::Sum, x, {1}, false), {2}, {T(2), T(3)});
  expectEq<T>(k::reduce(RK::Sum, x, {-1}, true), {2, 1}, {T(2), T(3)});
  expectEq<T>(k::reduce(RK::Sum, x, {0, 1}, false), {}, {T(5)});
  expectEq<T>(k::reduce(RK::Prod, x, {}, false), {}, {T(720)});
  expectEq<T>(k::reduce(RK::Prod, x, {0}, false), {3}, {T(4), T(-10), T(-18)});
  expectEq<T>(k::reduce(RK::Prod, x, {1}, true), {2, 1}, {T(-6), T(-120)});
  expectEq<T>(k::reduce(RK::Max, x, {}, false), {}, {T(5)});
  expectEq<T>(k::reduce(RK::Max, x, {0}, false), {3}, {T(4), T(5), T(3)});
  expectEq<T>(k::reduce(RK::Max, x, {1}, true), {2, 1}, {T(3), T(5)});
  expectEq<T>(k::reduce(RK::Min, x, {}, true), {1, 1}, {T(-6)});
  expectEq<T>(k::reduce(RK::Min, x, {0}, true), {1, 3}, {T(1), T(-2), T(-6)});
  expectEq<T>(k::reduce(RK::Min, x, {1}, false), {2}, {T(-2), T(-6)});
  if constexpr (std::is_integral_v<T>) {
    // Truncates toward zero, as TensorFlow: 5/6 -> 0, 3/2 -> 1, -3/2 -> -1.
    expectEq<T>(k::reduce(RK::Mean, x, {}, false), {}, {T(0)});
    expectEq<T>(k::reduce(RK::Mean, x, {0}, false), {3}, {T(2), T(1), T(-1)});
    expectEq<T>(k::reduce(RK::Mean, x, {1}, true), {2, 1}, {T(0), T(1)});
  } else {
    expectNear<T>(k::reduce(RK::Mean, x, {}, false), {}, {5.0 / 6.0});
    expectNear<T>(k::reduce(RK::Mean, x, {0}, false), {3}, {2.5, 1.5, -1.5});
    expectNear<T>(k::reduce(RK::Mean, x, {1}, true), {2, 1}, {2.0 / 3.0, 1.0});
  }
}

TYPED_TEST(Reduce, ThreeDimsEveryAxisSet) {
  using T = TypeParam;
  std::vector<T> v(24);
  for (int i = 0; i < 24; ++i)
    v[i] = T(i);
  Tensor x = make<T>(v, {2, 3, 4});
  auto sumOver = [&](bool a0, bool a1, bool a2) {
    std::vector<T> out;
    for (int i = 0; i < (a0 ? 1 : 2); ++i)
      for (int j = 0; j < (a1 ? 1 : 3); ++j)
        for (int l = 0; l < (a2 ? 1 : 4); ++l) {
          T s = 0;
          for (int ii = 0; ii < 2; ++ii)
            for (int jj = 0; jj < 3; ++jj)
              for (int ll = 0; ll < 4; ++ll)
                if ((a0 || ii == i) && (a1 || jj == j) && (a2 || ll == l))
                  s += v[ii * 12 + jj * 4 + ll];
          out.push_back(s);
        }
    return out;
  };
  expectEq<T>(k::reduce(RK::Sum, x, {0}, false), {3, 4}, sumOver(1, 0, 0));
  expectEq<T>(k::reduce(RK::Sum, x, {1}, false), {2, 4}, sumOver(0, 1, 0));
  expectEq<T>(k::reduce(RK::Sum, x, {2}, false), {2, 3}, sumOver(0, 0, 1));
  expectEq<T>(k::reduce(RK::Sum, x, {0, 1}, false), {4}, sumOver(1, 1, 0));
  expectEq<T>(k::reduce(RK::Sum, x, {1, 2}, false), {2}, sumOver(0, 1, 1));
  // Interleaved axes take the transpose path.
  expectEq<T>(k::reduce(RK::Sum, x, {0, 2}, false), {3}, sumOver(1, 0, 1));
  expectEq<T>(k::reduce(RK::Sum, x, {2, 0}, true), {1, 3, 1}, sumOver(1, 0, 1));
  expectEq<T>(k::reduce(RK::Max, x, {0, 2}, false), {3}, {T(15), T(19), T(23)});
  expectEq<T>(k::reduce(RK::Min, x, {1}, false), {2, 4},
              {T(0), T(1), T(2), T(3), T(12), T(13), T(14), T(15)});
}

TYPED_TEST(Reduce, RankZeroAndEmpty) {
  using T = TypeParam;
  expectEq<T>(k::reduce(RK::Sum, scalar<T>(T(7)), {}, false), {}, {T(7)});
  expectEq<T>(k::reduce(RK::Max, scalar<T>(T(7)), {}, true), {}, {T(7)});
  Tensor e = make<T>({}, {0, 3});
  expectEq<T>(k::reduce(RK::Sum, e, {0}, false), {3}, {T(0), T(0), T(0)});
  expectEq<T>(k::reduce(RK::Prod, e, {}, false), {}, {T(1)});
  expectEq<T>(k::reduce(RK::Sum, e, {1}, false), {0}, {});
  expectEq<T>(k::reduce(RK::Max, e, {1}, true), {0, 1}, {});
  if constexpr (std::is_floating_point_v<T>)
    expectEq<T>(k::reduce(RK::Mean, e, {0}, false), {3},
                {std::numeric_limits<T>::quiet_NaN(),
                 std::numeric_limits<T>::quiet_NaN(),
                 std::numeric_limits<T>::quiet_NaN()});
}

TEST(Reduce, NaNPropagatesThroughMaxMin) {
  double nan = std::nan("");
  Tensor x = make<double>({1, nan, 3, 4}, {2, 2});
  expectEq<double>(k::reduce(RK::Max, x, {}, false), {}, {nan});
  expectEq<double>(k::reduce(RK::Max, x, {0}, false), {2}, {3, nan});
  expectEq<double>(k::reduce(RK::Min, x, {1}, false), {2}, {nan, 3});
}

TEST(Reduce, LargeSumsAreAccurateAndThreaded) {
  const int64_t n = 1 << 21;
  std::vector<float> v(n, 0.5f);
  Tensor x = make<float>(v, {n});
  expectEq<float>(k::reduce(RK::Sum, x, {}, false), {}, {float(n) * 0.5f});
  Tensor m = k::reshape(x, {1024, 2048});
  std::vector<float> rows = k::reduce(RK::Sum, m, {1}, false).to_vector<float>();
  std::vector<float> cols = k::reduce(RK::Sum, m, {0}, false).to_vector<float>();
  ASSERT_EQ(rows.size(), 1024u);
  ASSERT_EQ(cols.size(), 2048u);
  for (float r : rows)
    ASSERT_EQ(r, 1024.f);
  for (float c : cols)
    ASSERT_EQ(c, 512.f);
  std::vector<int64_t> iv(n);
  for (int64_t i = 0; i < n; ++i)
    iv[i] = i;
  expectEq<int64_t>(k::reduce(RK::Sum, make<int64_t>(iv, {n}), {}, false), {},
                    {n * (n - 1) / 2});
  expectEq<int64_t>(k::reduce(RK::Max, make<int64_t>(iv, {n}), {}, false), {},
                    {n - 1});
}

TEST(Argmax, AxesDTypesAndTies) {
  Tensor x = make<float>({1, 9, 9, 4, 2, 8}, {2, 3});
  expectEq<int64_t>(k::argmax(x, 1), {2}, {1, 2});
  expectEq<int64_t>(k::argmax(x, 0), {3}, {1, 0, 0});
  expectEq<int64_t>(k::argmax(x, -1), {2}, {1, 2});
  expectEq<int64_t>(k::argmax(make<int32_t>({3, 7, 7, -1}, {4}), 0), {}, {1});
  expectEq<int64_t>(k::argmax(make<int64_t>({-5, -2}, {2}), 0), {}, {1});
  expectEq<int64_t>(k::argmax(make<double>({1, std::nan(""), 5}, {3}), 0), {}, {1});
  expectEq<int64_t>(k::argmax(make<bool>({false, true, true}, {3}), 0), {}, {1});
  Tensor y = make<int32_t>({0, 5, 2, 7, 1, 1, 9, 0}, {2, 2, 2});
  expectEq<int64_t>(k::argmax(y, 1), {2, 2}, {1, 1, 1, 0});
  expectEq<int64_t>(k::argmax(make<float>({}, {0, 3}), 1), {0}, {});
}

} // namespace
