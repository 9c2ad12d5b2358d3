//===- CreationTest.cpp - full, range, random -----------------------------===//

#include "TestUtil.h"

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

TEST(Creation, FullEveryDType) {
  expectEq<float>(k::full({2, 2}, 1.5, DType::Float32), {2, 2}, {1.5f, 1.5f, 1.5f, 1.5f});
  expectEq<double>(k::full({3}, -2.25, DType::Float64), {3}, {-2.25, -2.25, -2.25});
  expectEq<int32_t>(k::full({2}, 7, DType::Int32), {2}, {7, 7});
  expectEq<int64_t>(k::full({}, -3, DType::Int64), {}, {-3});
  expectEq<bool>(k::full({2}, 1, DType::Bool), {2}, {true, true});
  expectEq<bool>(k::full({1}, 0, DType::Bool), {1}, {false});
  expectEq<float>(k::full({0, 5}, 1, DType::Float32), {0, 5}, {});
  // Big: the threaded fill.
  std::vector<float> big = k::full({300000}, 2, DType::Float32).to_vector<float>();
  for (size_t i = 0; i < big.size(); i += 4999)
    ASSERT_EQ(big[i], 2.f);
}

TEST(Creation, Range) {
  expectEq<int64_t>(k::range(0, 5, 1, DType::Int64), {5}, {0, 1, 2, 3, 4});
  expectEq<int32_t>(k::range(1, 10, 3, DType::Int32), {3}, {1, 4, 7});
  expectEq<int32_t>(k::range(5, 0, -2, DType::Int32), {3}, {5, 3, 1});
  expectEq<float>(k::range(0, 3, 1, DType::Float32), {3}, {0, 1, 2});
  expectEq<double>(k::range(-2, 0, 1, DType::Float64), {2}, {-2, -1});
  expectEq<int64_t>(k::range(3, 3, 1, DType::Int64), {0}, {});
  expectEq<int64_t>(k::range(5, 0, 1, DType::Int64), {0}, {});
}

TEST(Creation, RandomUniformIsDeterministicAndInRange) {
  Tensor a = k::random_uniform({1000}, -2, 3, 42, DType::Float32);
  Tensor b = k::random_uniform({1000}, -2, 3, 42, DType::Float32);
  Tensor c = k::random_uniform({1000}, -2, 3, 43, DType::Float32);
  std::vector<float> av = a.to_vector<float>(), bv = b.to_vector<float>(),
                     cv = c.to_vector<float>();
  EXPECT_EQ(av, bv);
  EXPECT_NE(av, cv);
  double mean = 0;
  for (float v : av) {
    ASSERT_GE(v, -2.f);
    ASSERT_LT(v, 3.f);
    mean += v;
  }
  mean /= av.size();
  EXPECT_NEAR(mean, 0.5, 0.15);
  std::vector<int32_t> iv =
      k::random_uniform({2000}, 0, 5, 7, DType::Int32).to_vector<int32_t>();
  int seen[5] = {};
  for (int32_t v : iv) {
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 5);
    ++seen[v];
  }
  for (int s : seen)
    EXPECT_GT(s, 300);
  std::vector<double> dv =
      k::random_uniform({10}, 1, 1, 7, DType::Float64).to_vector<double>();
  for (double v : dv)
    EXPECT_EQ(v, 1.0);
  std::vector<int64_t> lv =
      k::random_uniform({100}, -3, -1, 9, DType::Int64).to_vector<int64_t>();
  for (int64_t v : lv)
    EXPECT_TRUE(v == -3 || v == -2);
}

TEST(Creation, RandomNormalMoments) {
  Tensor a = k::random_normal({20001}, 1.0, 2.0, 123, DType::Float64);
  Tensor b = k::random_normal({20001}, 1.0, 2.0, 123, DType::Float64);
  std::vector<double> v = a.to_vector<double>();
  EXPECT_EQ(v, b.to_vector<double>());
  double m = 0, s2 = 0;
  for (double x : v)
    m += x;
  m /= v.size();
  for (double x : v)
    s2 += (x - m) * (x - m);
  s2 /= v.size();
  EXPECT_NEAR(m, 1.0, 0.05);
  EXPECT_NEAR(std::sqrt(s2), 2.0, 0.05);
  std::vector<float> f =
      k::random_normal({3}, 0, 0, 1, DType::Float32).to_vector<float>();
  EXPECT_EQ(f, (std::vector<float>{0, 0, 0}));
}

} // namespace
