//===- conv_cases.h - The conv2d shapes of tfc-bench-conv -------*- C++ -*-===//
//
// Shared by bench_conv.cpp (tfc's kernels, the GEMM floor) and
// bench_conv_torch.cpp (libtorch), so both time the same convolutions and
// report the same counters.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_CONV_CASES_H
#define TFC_BENCH_CONV_CASES_H

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

namespace convbench {

/// Float32 FMA peak of this machine: 2 cores x 2445 MHz base clock x 32
/// flops per cycle (two 8-wide FMA pipes), as docs/performance.md quotes.
constexpr double kPeakGflops = 157.0;

/// A 3x3 SAME convolution with stride 1 (so oh = h, ow = w): TensorFlow's
/// image-classifier layers.
struct ConvCase {
  const char *name;
  int64_t n, h, w, c, o, k;
  double flops() const { return 2.0 * n * h * w * o * k * k * c; }
};
inline constexpr ConvCase kCases[] = {
    {"A", 128, 28, 28, 1, 32, 3},  // first layer of an MNIST classifier
    {"B", 128, 14, 14, 32, 64, 3}, // its second layer
    {"C", 32, 56, 56, 64, 64, 3},  // a ResNet stage-1 layer
};

/// GFLOP/s and the fraction of kPeakGflops, both per second of real time.
inline void setCounters(benchmark::State &st, double flops) {
  st.counters["GFLOP/s"] = benchmark::Counter(
      flops / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  st.counters["peak"] = benchmark::Counter(
      flops / 1e9 / kPeakGflops, benchmark::Counter::kIsIterationInvariantRate);
}

/// n floats uniform in [-1, 1), the same for a given seed.
inline std::vector<float> randomFloats(int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (auto &e : v)
    e = u(rng);
  return v;
}

} // namespace convbench

#endif // TFC_BENCH_CONV_CASES_H
