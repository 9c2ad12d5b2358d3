//===- CreationTest.cpp - constant, from_vector, zeros, range, random -----===//
#include "TestUtil.h"

using namespace tfc;
using namespace tfc::testing;

namespace {

TEST(NestedList, ScalarLiteralsGiveRankZeroOfTheirDType) {
  EXPECT_TRUE(tensorIs(constant(true), DType::Bool, {}, {1}));
  EXPECT_TRUE(tensorIs(constant(3), DType::Int32, {}, {3}));
  EXPECT_TRUE(tensorIs(constant(int64_t{1} << 40), DType::Int64, {},
                       {1099511627776.0}));
  EXPECT_TRUE(tensorIs(constant(2.5f), DType::Float32, {}, {2.5}));
  EXPECT_TRUE(tensorIs(constant(2.5), DType::Float64, {}, {2.5}));
  // Other integer types are int64.
  EXPECT_TRUE(tensorIs(constant(7u), DType::Int64, {}, {7}));
  EXPECT_TRUE(tensorIs(constant(size_t{9}), DType::Int64, {}, {9}));
  EXPECT_TRUE(tensorIs(constant(5LL), DType::Int64, {}, {5}));
}

TEST(NestedList, NestingDepthIsTheRank) {
  EXPECT_TRUE(tensorIs(constant({2.f}), DType::Float32, {1}, {2}));
  EXPECT_TRUE(tensorIs(constant({{2.f}}), DType::Float32, {1, 1}, {2}));
  EXPECT_TRUE(tensorIs(constant({{{1, 2}}, {{3, 4}}}), DType::Int32, {2, 1, 2},
                       {1, 2, 3, 4}));
  EXPECT_TRUE(tensorIs(constant({{1, 2, 3}, {4, 5, 6}}), DType::Int32, {2, 3},
                       {1, 2, 3, 4, 5, 6}));
}

TEST(NestedList, EmptyListsAreFloat32WithZeroDims) {
  EXPECT_TRUE(tensorIs(constant({}), DType::Float32, {0}, {}));
  EXPECT_TRUE(tensorIs(constant({{}, {}}), DType::Float32, {2, 0}, {}));
}

TEST(NestedList, MixedLiteralsPromote) {
  // bool < int32 < int64 < float32 < float64
  EXPECT_TRUE(tensorIs(constant({true, false}), DType::Bool, {2}, {1, 0}));
  EXPECT_TRUE(tensorIs(constant({true, 2}), DType::Int32, {2}, {1, 2}));
  EXPECT_TRUE(tensorIs(constant({1, int64_t{2}}), DType::Int64, {2}, {1, 2}));
  EXPECT_TRUE(
      tensorIs(constant({int64_t{1}, 2.5f}), DType::Float32, {2}, {1, 2.5}));
  EXPECT_TRUE(tensorIs(constant({1, 2.5}), DType::Float64, {2}, {1, 2.5}));
  EXPECT_TRUE(tensorIs(constant({1.5f, 2.5}), DType::Float64, {2}, {1.5, 2.5}));
  // Promotion looks at every literal, not only the first row.
  EXPECT_TRUE(tensorIs(constant({{1, 2}, {3, 4.5}}), DType::Float64, {2, 2},
                       {1, 2, 3, 4.5}));
  EXPECT_TRUE(
      tensorIs(constant({{true}, {false}}), DType::Bool, {2, 1}, {1, 0}));
}

TEST(NestedList, ExplicitDTypeConvertsLiterals) {
  EXPECT_TRUE(
      tensorIs(constant({1, 2}, DType::Float32), DType::Float32, {2}, {1, 2}));
  EXPECT_TRUE(
      tensorIs(constant({1.0, 2.0}, DType::Int64), DType::Int64, {2}, {1, 2}));
  EXPECT_TRUE(
      tensorIs(constant({0, 1}, DType::Bool), DType::Bool, {2}, {0, 1}));
  EXPECT_TRUE(tensorIs(constant(3, DType::Float64), DType::Float64, {}, {3}));
}

TEST(NestedList, RaggedOrMixedNestingIsRejected) {
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        constant({{1, 2}, {3}});
      },
      {"constant", "ragged", "element [1] has 1 elements", "[0] has 2"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        constant({{1}, 2});
      },
      {"constant", "mixes scalars and lists"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        constant({{{1, 2}}, {{3, 4}, {5, 6}}});
      },
      {"constant", "ragged", "element [1] has 2 elements"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] { constant({2.5}, DType::Int32); }, {"constant", "2.5", "int32"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] { constant({uint64_t{1} << 63}); }, {"constant", "int64"}));
}

TEST(FromVector, CopiesRowMajorData) {
  EXPECT_TRUE(tensorIs(from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3}),
                       DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(tensorIs(from_vector<int32_t>({7}, {}), DType::Int32, {}, {7}));
  EXPECT_TRUE(tensorIs(from_vector<int64_t>({1, 2}, {2, 1}), DType::Int64,
                       {2, 1}, {1, 2}));
  EXPECT_TRUE(
      tensorIs(from_vector<double>({}, {0, 4}), DType::Float64, {0, 4}, {}));
  EXPECT_TRUE(tensorIs(from_vector<bool>({true, false, true}, {3}), DType::Bool,
                       {3}, {1, 0, 1}));
  Tensor t = from_vector<float>({1.5f, -2.f}, {2});
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1.5f, -2.f}));
}

TEST(FromVector, SizeMismatchNamesBothCounts) {
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        from_vector<float>({1, 2, 3, 4, 5}, {2, 3});
      },
      {"from_vector", "5 values", "(2, 3)", "6 elements"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] { from_vector<int32_t>({}, {-1}); }, {"from_vector", "negative"}));
}

TEST(Creation, ZerosOnesFull) {
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                  DType::Float64}) {
    EXPECT_TRUE(tensorIs(zeros({2, 2}, t), t, {2, 2}, {0, 0, 0, 0}));
    EXPECT_TRUE(tensorIs(ones({3}, t), t, {3}, {1, 1, 1}));
  }
  EXPECT_TRUE(tensorIs(zeros({2}), DType::Float32, {2}, {0, 0}));
  EXPECT_TRUE(tensorIs(ones({}), DType::Float32, {}, {1}));
  EXPECT_TRUE(tensorIs(zeros({0, 3}), DType::Float32, {0, 3}, {}));
  EXPECT_TRUE(tensorIs(full({2}, 2.5), DType::Float32, {2}, {2.5, 2.5}));
  EXPECT_TRUE(
      tensorIs(full({2, 1}, 7, DType::Int64), DType::Int64, {2, 1}, {7, 7}));
  EXPECT_TRUE(
      tensorIs(full({}, -1.25, DType::Float64), DType::Float64, {}, {-1.25}));
}

TEST(Creation, RangeIsHalfOpenLikePython) {
  EXPECT_TRUE(tensorIs(range(0, 5), DType::Int64, {5}, {0, 1, 2, 3, 4}));
  EXPECT_TRUE(tensorIs(range(1, 10, 3), DType::Int64, {3}, {1, 4, 7}));
  EXPECT_TRUE(tensorIs(range(5, 0, -2), DType::Int64, {3}, {5, 3, 1}));
  EXPECT_TRUE(tensorIs(range(3, 3), DType::Int64, {0}, {}));
  EXPECT_TRUE(
      tensorIs(range(0, 3, 1, DType::Float32), DType::Float32, {3}, {0, 1, 2}));
  EXPECT_TRUE(
      tensorIs(range(-2, 1, 1, DType::Int32), DType::Int32, {3}, {-2, -1, 0}));
}

TEST(Creation, RandomIsDeterministicPerSeedAndInRange) {
  Tensor a = random_uniform({1000}, -2.0, 3.0, 42);
  Tensor b = random_uniform({1000}, -2.0, 3.0, 42);
  Tensor c = random_uniform({1000}, -2.0, 3.0, 43);
  EXPECT_EQ(a.dtype(), DType::Float32);
  EXPECT_EQ(a.shape(), (std::vector<int64_t>{1000}));
  EXPECT_EQ(a.to_vector<float>(), b.to_vector<float>());
  EXPECT_NE(a.to_vector<float>(), c.to_vector<float>());
  for (float v : a.to_vector<float>()) {
    EXPECT_GE(v, -2.f);
    EXPECT_LT(v, 3.f);
  }
  double mean = reduce_mean(cast(a, DType::Float64)).item<double>();
  EXPECT_NEAR(mean, 0.5, 0.15);

  Tensor n = random_normal({4000}, 1.0, 2.0, 7, DType::Float64);
  EXPECT_EQ(n.dtype(), DType::Float64);
  EXPECT_EQ(
      n.to_vector<double>(),
      random_normal({4000}, 1.0, 2.0, 7, DType::Float64).to_vector<double>());
  double m = reduce_mean(n).item<double>();
  double sd = std::sqrt(reduce_mean(square(n - m)).item<double>());
  EXPECT_NEAR(m, 1.0, 0.15);
  EXPECT_NEAR(sd, 2.0, 0.15);
}

} // namespace
