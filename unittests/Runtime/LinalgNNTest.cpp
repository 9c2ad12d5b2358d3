//===- LinalgNNTest.cpp - matmul, softmax family, one_hot -----------------===//

#include "TestUtil.h"

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

template <class T> class Matmul : public ::testing::Test {};
using NumericTypes = ::testing::Types<int32_t, int64_t, float, double>;
TYPED_TEST_SUITE(Matmul, NumericTypes);

TYPED_TEST(Matmul, TwoByThreeTimesThreeByTwo) {
  using T = TypeParam;
  Tensor a = make<T>({T(1), T(2), T(3), T(4), T(5), T(6)}, {2, 3});
  Tensor b = make<T>({T(7), T(8), T(9), T(10), T(11), T(12)}, {3, 2});
  // [[1*7+2*9+3*11, 1*8+2*10+3*12], [4*7+5*9+6*11, 4*8+5*10+6*12]]
  expectEq<T>(k::matmul(a, b), {2, 2}, {T(58), T(64), T(139), T(154)});
}

TYPED_TEST(Matmul, BatchedAndBroadcastBatch) {
  using T = TypeParam;
  Tensor a = make<T>({T(1), T(0), T(0), T(1), T(2), T(0), T(0), T(2)}, {2, 2, 2});
  Tensor b = make<T>({T(1), T(2), T(3), T(4), T(5), T(6), T(7), T(8)}, {2, 2, 2});
  expectEq<T>(k::matmul(a, b), {2, 2, 2},
              {T(1), T(2), T(3), T(4), T(10), T(12), T(14), T(16)});
  // [1, 2, 2] against [2, 2, 2]: the first operand repeats per batch.
  Tensor one = make<T>({T(0), T(1), T(1), T(0)}, {1, 2, 2});
  expectEq<T>(k::matmul(one, b), {2, 2, 2},
              {T(3), T(4), T(1), T(2), T(7), T(8), T(5), T(6)});
  // Rank 2 against rank 3.
  expectEq<T>(k::matmul(make<T>({T(0), T(1), T(1), T(0)}, {2, 2}), b), {2, 2, 2},
              {T(3), T(4), T(1), T(2), T(7), T(8), T(5), T(6)});
}

TYPED_TEST(Matmul, EmptyAndZeroInner) {
  using T = TypeParam;
  expectEq<T>(k::matmul(make<T>({}, {2, 0}), make<T>({}, {0, 3})), {2, 3},
              std::vector<T>(6, T(0)));
  expectEq<T>(k::matmul(make<T>({}, {0, 4}), make<T>(std::vector<T>(8, T(1)), {4, 2})),
              {0, 2}, {});
}

TYPED_TEST(Matmul, LargerMatchesNaive) {
  using T = TypeParam;
  const int M = 37, K = 150, N = 65;
  std::vector<T> a(M * K), b(K * N);
  for (int i = 0; i < M * K; ++i)
    a[i] = T((i * 7) % 11) - T(5);
  for (int i = 0; i < K * N; ++i)
    b[i] = T((i * 3) % 13) - T(6);
  std::vector<T> want(M * N, T(0));
  for (int i = 0; i < M; ++i)
    for (int kk = 0; kk < K; ++kk)
      for (int j = 0; j < N; ++j)
        want[i * N + j] += a[i * K + kk] * b[kk * N + j];
  expectEq<T>(k::matmul(make<T>(a, {M, K}), make<T>(b, {K, N})), {M, N}, want);
}

template <class T> class NN : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(NN, FloatTypes);

TYPED_TEST(NN, SoftmaxLastAndFirstAxis) {
  using T = TypeParam;
  Tensor x = make<T>({T(1), T(2), T(3), T(1), T(1), T(1)}, {2, 3});
  double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0);
  double s = e1 + e2 + e3;
  expectNear<T>(k::softmax(x, -1), {2, 3},
                {e1 / s, e2 / s, e3 / s, 1 / 3.0, 1 / 3.0, 1 / 3.0}, 1e-6);
  expectNear<T>(k::log_softmax(x, 1), {2, 3},
                {1 - std::log(s), 2 - std::log(s), 3 - std::log(s),
                 -std::log(3.0), -std::log(3.0), -std::log(3.0)},
                1e-6);
  // Axis 0: columns (1,1), (2,1), (3,1).
  auto col = [](double a, double b) { return std::exp(a) / (std::exp(a) + std::exp(b)); };
  expectNear<T>(k::softmax(x, 0), {2, 3},
                {col(1, 1), col(2, 1), col(3, 1), col(1, 1), col(1, 2), col(1, 3)},
                1e-6);
  expectNear<T>(k::log_softmax(x, 0), {2, 3},
                {std::log(col(1, 1)), std::log(col(2, 1)), std::log(col(3, 1)),
                 std::log(col(1, 1)), std::log(col(1, 2)), std::log(col(1, 3))},
                1e-6);
}

TYPED_TEST(NN, SoftmaxIsStableForHugeLogits) {
  using T = TypeParam;
  Tensor x = make<T>({T(1000), T(1000), T(-1000)}, {3});
  expectNear<T>(k::softmax(x, 0), {3}, {0.5, 0.5, 0.0}, 1e-6);
  expectNear<T>(k::log_softmax(x, 0), {3}, {-std::log(2.0), -std::log(2.0), -2000 - std::log(2.0)},
                1e-6);
  expectEq<T>(k::softmax(make<T>({}, {2, 0}), 1), {2, 0}, {});
}

TYPED_TEST(NN, CrossEntropy) {
  using T = TypeParam;
  Tensor labels = make<T>({T(0), T(1), T(0), T(0.5), T(0.5), T(0)}, {2, 3});
  Tensor logits = make<T>({T(1), T(2), T(3), T(0), T(0), T(0)}, {2, 3});
  double s = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  expectNear<T>(k::softmax_cross_entropy_with_logits(labels, logits), {2},
                {std::log(s) - 2.0, std::log(3.0)}, 1e-6);
  // Rank 1: a scalar loss.
  expectNear<T>(k::softmax_cross_entropy_with_logits(make<T>({T(1), T(0)}, {2}),
                                                     make<T>({T(1000), T(0)}, {2})),
                {}, {0.0}, 1e-6);
}

TEST(NN, OneHot) {
  expectEq<float>(k::one_hot(make<int32_t>({0, 2, -1, 3}, {4}), 3, DType::Float32),
                  {4, 3}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  expectEq<int64_t>(k::one_hot(make<int64_t>({1, 0}, {2, 1}), 2, DType::Int64),
                    {2, 1, 2}, {0, 1, 1, 0});
  expectEq<bool>(k::one_hot(scalar<int32_t>(1), 2, DType::Bool), {2},
                 {false, true});
  expectEq<double>(k::one_hot(make<int32_t>({0}, {1}), 0, DType::Float64), {1, 0}, {});
  expectEq<int32_t>(k::one_hot(make<int32_t>({1}, {1}), 2, DType::Int32), {1, 2}, {0, 1});
}

} // namespace
