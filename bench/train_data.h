//===- train_data.h - Deterministic data for the MLP training step
//---------===//
//
// The MLP 784-256-10 of bench_train.cpp and bench_torch.cpp starts from the
// same weights, inputs and labels in both (a plain LCG, no library RNG), so
// their first losses can be checked against each other.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_TRAIN_DATA_H
#define TFC_BENCH_TRAIN_DATA_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace train_data {

constexpr int64_t kBatch = 64, kIn = 784, kHidden = 256, kOut = 10;
constexpr float kLearningRate = 0.01f;

/// n floats uniform in [-scale, scale) from `seed`.
inline std::vector<float> uniform(int64_t n, uint64_t seed, float scale) {
  std::vector<float> v(static_cast<size_t>(n));
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float &x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = scale * (float(double(s >> 40) / double(1ull << 24)) * 2.f - 1.f);
  }
  return v;
}

/// Class labels 0..kOut-1, one per example.
inline std::vector<int64_t> labels() {
  std::vector<int64_t> v(static_cast<size_t>(kBatch));
  for (int64_t i = 0; i < kBatch; ++i)
    v[size_t(i)] = (i * 7 + 3) % kOut;
  return v;
}

// Glorot-like scales keep the logits O(1), so the first loss is about ln 10.
inline std::vector<float> w1() { return uniform(kIn * kHidden, 1, 0.06f); }
inline std::vector<float> b1() { return uniform(kHidden, 2, 0.05f); }
inline std::vector<float> w2() { return uniform(kHidden * kOut, 3, 0.14f); }
inline std::vector<float> b2() { return uniform(kOut, 4, 0.05f); }
inline std::vector<float> x() { return uniform(kBatch * kIn, 5, 1.f); }

/// The mean softmax cross-entropy of the initial model in double precision:
/// the reference both benchmarks check their first loss against.
inline double referenceLoss() {
  std::vector<float> X = x(), W1 = w1(), B1 = b1(), W2 = w2(), B2 = b2();
  std::vector<int64_t> y = labels();
  double total = 0;
  std::vector<double> h(static_cast<size_t>(kHidden));
  for (int64_t n = 0; n < kBatch; ++n) {
    for (int64_t j = 0; j < kHidden; ++j) {
      double acc = B1[size_t(j)];
      for (int64_t k = 0; k < kIn; ++k)
        acc += double(X[size_t(n * kIn + k)]) * W1[size_t(k * kHidden + j)];
      h[size_t(j)] = std::max(acc, 0.0);
    }
    double logits[kOut], top = -1e300;
    for (int64_t c = 0; c < kOut; ++c) {
      double acc = B2[size_t(c)];
      for (int64_t j = 0; j < kHidden; ++j)
        acc += h[size_t(j)] * W2[size_t(j * kOut + c)];
      logits[c] = acc;
      top = std::max(top, acc);
    }
    double sum = 0;
    for (double l : logits)
      sum += std::exp(l - top);
    total += top + std::log(sum) - logits[y[size_t(n)]];
  }
  return total / double(kBatch);
}

} // namespace train_data

#endif // TFC_BENCH_TRAIN_DATA_H
