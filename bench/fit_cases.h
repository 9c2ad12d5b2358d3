//===- fit_cases.h - Data, models and timing for the fit benchmarks -------===//
//
// Shared by bench_fit.cpp and bench_fit_torch.cpp: Fashion-MNIST's 60,000
// training images as float32 in [0, 1] (seeded random data of the same
// shapes when the package is missing), the MLP and CNN of the issue, their
// compile options, and how many steps a timed "epoch" has.
//
// An epoch is 469 steps of 128 (60,000 examples, the last batch 96). The
// benchmarks time a shorter epoch by default: the first 50 * 128 = 6,400
// examples, shuffled, 50 steps, and extrapolate (time / 50 * 469).
// TFC_BENCH_FIT_STEPS=N sets the steps (N * 128 examples); =epoch times
// whole epochs over all 60,000.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_FIT_CASES_H
#define TFC_BENCH_FIT_CASES_H

#include "fit_torch_side.h"

#include <tfc/runtime/Kernels.h>
#include <tfc/tfc.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace fitbench {

constexpr int64_t kBatch = 128, kTrainRows = 60000, kEpochSteps = 469;
constexpr int64_t kDefaultSteps = 50;

[[noreturn]] inline void fail(const std::string &what) {
  std::fprintf(stderr, "bench_fit: %s\n", what.c_str());
  std::abort();
}

inline void check(bool ok, const std::string &what) {
  if (!ok)
    fail("wrong result: " + what);
}

/// Steps per timed epoch: TFC_BENCH_FIT_STEPS (default 50; "epoch" or any
/// value >= 469: whole epochs).
inline int64_t timedSteps() {
  static const int64_t steps = [] {
    const char *env = std::getenv("TFC_BENCH_FIT_STEPS");
    if (!env || !*env)
      return kDefaultSteps;
    if (std::string(env) == "epoch")
      return kEpochSteps;
    long long n = std::atoll(env);
    if (n <= 0)
      fail(std::string("TFC_BENCH_FIT_STEPS must be > 0 or \"epoch\", got ") +
           env);
    return std::min<int64_t>(n, kEpochSteps);
  }();
  return steps;
}

/// The examples a timed epoch covers.
inline int64_t timedRows() {
  return std::min(timedSteps() * kBatch, kTrainRows);
}

inline std::string stepsLabel() {
  return timedSteps() == kEpochSteps
             ? std::string("full epoch")
             : std::to_string(timedSteps()) + " steps, x" +
                   std::to_string(kEpochSteps) + "/" +
                   std::to_string(timedSteps());
}

struct TrainData {
  tfc::Tensor x; ///< (60000, 28, 28) float32 in [0, 1]
  tfc::Tensor y; ///< (60000,) int32 in 0..9
  bool real;     ///< Fashion-MNIST, not the random stand-in
};

/// Random images with a bright 5x5 patch whose place is the label's, so the
/// loss can fall as on the real data.
inline TrainData randomData() {
  std::mt19937_64 gen(42);
  std::uniform_real_distribution<float> noise(0.f, 0.5f);
  std::vector<float> x(static_cast<size_t>(kTrainRows * 28 * 28));
  std::vector<int32_t> y(static_cast<size_t>(kTrainRows));
  for (int64_t i = 0; i < kTrainRows; ++i) {
    int32_t label = int32_t(gen() % 10);
    y[size_t(i)] = label;
    float *img = x.data() + i * 28 * 28;
    for (int64_t p = 0; p < 28 * 28; ++p)
      img[p] = noise(gen);
    int64_t r0 = 2 + (label / 5) * 14, c0 = 1 + (label % 5) * 5;
    for (int64_t r = r0; r < r0 + 5; ++r)
      for (int64_t c = c0; c < c0 + 5; ++c)
        img[r * 28 + c] = 1.f;
  }
  return {tfc::from_vector(std::move(x), {kTrainRows, 28, 28}),
          tfc::from_vector(std::move(y), {kTrainRows}), false};
}

/// Loaded once per process.
inline const TrainData &trainData() {
  static const TrainData data = []() -> TrainData {
    try {
      auto [train, test] = tfc::keras::datasets::fashion_mnist::load_data();
      return {tfc::cast(train.first, tfc::DType::Float32) / 255.0f,
              train.second, true};
    } catch (const tfc::Error &e) {
      std::fprintf(stderr,
                   "bench_fit: no Fashion-MNIST (%s); using random data of "
                   "the same shapes\n",
                   e.what());
      return randomData();
    }
  }();
  return data;
}

inline const char *dataLabel() {
  return trainData().real ? "fashion-mnist" : "random data";
}

/// The first `n` rows of t.
inline tfc::Tensor firstRows(const tfc::Tensor &t, int64_t n) {
  std::vector<int64_t> begin(size_t(t.rank()), 0), size = t.shape();
  size[0] = n;
  return tfc::slice(t, begin, size);
}

/// Rows [begin, begin + n) of t.
inline tfc::Tensor rowRange(const tfc::Tensor &t, int64_t begin, int64_t n) {
  std::vector<int64_t> b(size_t(t.rank()), 0), size = t.shape();
  b[0] = begin;
  size[0] = n;
  return tfc::slice(t, b, size);
}

/// The model's input: (N, 28, 28) for the MLP (it flattens), NHWC
/// (N, 28, 28, 1) for the CNN.
inline tfc::Tensor modelInput(Net net, const tfc::Tensor &x) {
  return net == Net::Cnn ? tfc::expand_dims(x, -1) : x;
}

inline tfc::keras::Shape inputShape(Net net) {
  return net == Net::Cnn ? tfc::keras::Shape{-1, 28, 28, 1}
                         : tfc::keras::Shape{-1, 28, 28};
}

/// MLP 784-256-128-10 (ReLU), or the CNN (Conv 32, pool, Conv 64, pool,
/// Flatten, Dropout 0.5, Dense 10); logits out. Seeded, so every instance
/// starts from the same weights.
inline tfc::keras::Model buildModel(Net net) {
  namespace layers = tfc::keras::layers;
  tfc::keras::set_random_seed(42);
  if (net == Net::Mlp)
    return tfc::keras::Sequential(
        {layers::Flatten(), layers::Dense(256, {.activation = "relu"}),
         layers::Dense(128, {.activation = "relu"}), layers::Dense(10)});
  return tfc::keras::Sequential(
      {layers::Conv2D(32, {3, 3}, {.activation = "relu"}),
       layers::MaxPooling2D(),
       layers::Conv2D(64, {3, 3}, {.activation = "relu"}),
       layers::MaxPooling2D(), layers::Flatten(), layers::Dropout(0.5),
       layers::Dense(10)});
}

/// Adam (lr 1e-3), sparse categorical cross-entropy from logits, no metric
/// beyond fit's loss tracker (libtorch's loop computes none either).
inline tfc::keras::Loss lossFn() {
  return tfc::keras::losses::SparseCategoricalCrossentropy(
      {.from_logits = true});
}
inline tfc::keras::CompileOptions compileOptions() {
  return {.optimizer = tfc::keras::optimizers::Adam({.learning_rate = 1e-3}),
          .loss = lossFn()};
}

/// Real and process CPU seconds around the timed loop: `cores` (CPU / real)
/// shows how many cores a case really kept busy.
class Meter {
public:
  void start() {
    real0_ = now();
    cpu0_ = cpu();
  }
  void stop() {
    real_ = now() - real0_;
    cpu_ = cpu() - cpu0_;
  }
  double real() const { return real_; }
  double cores() const { return real_ > 0 ? cpu_ / real_ : 0; }

private:
  static double now() {
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }
  static double cpu() {
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
  }
  double real0_ = 0, cpu0_ = 0, real_ = 0, cpu_ = 0;
};

} // namespace fitbench

#endif // TFC_BENCH_FIT_CASES_H
