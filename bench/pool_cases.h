//===- pool_cases.h - The pooling shapes of tfc-bench-pool ------*- C++ -*-===//
//
// Shared by bench_pool.cpp (tfc's kernels, the STREAM triad) and
// bench_pool_torch.cpp (libtorch), so both time the same pools and report
// the same counters.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_POOL_CASES_H
#define TFC_BENCH_POOL_CASES_H

#include "tfc/runtime/ConvGeometry.h"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace poolbench {

/// A float32 NHWC pool with a k x k window moved by `stride` both ways.
struct PoolCase {
  const char *name;
  int64_t n, h, w, c, k, stride;
  bool same;
  /// TensorFlow's output size (tfc's shared window geometry).
  int64_t oh() const {
    return tfc::kernels::window_dim(h, k, stride, 1, same)->out;
  }
  int64_t ow() const {
    return tfc::kernels::window_dim(w, k, stride, 1, same)->out;
  }
  int64_t inputElems() const { return n * h * w * c; }
  int64_t outputElems() const { return n * oh() * ow() * c; }
};
inline constexpr PoolCase kCases[] = {
    // The small MNIST classifier's pooling (after its 32-channel conv).
    {"Mnist", 128, 28, 28, 32, 2, 2, false},
    // ResNet's stem pool.
    {"ResNetStem", 32, 112, 112, 64, 3, 2, true},
};

enum class Kind { MaxForward, MaxGrad, AvgForward, AvgGrad };
inline constexpr std::pair<Kind, const char *> kKinds[] = {
    {Kind::MaxForward, "MaxForward"},
    {Kind::MaxGrad, "MaxGrad"},
    {Kind::AvgForward, "AvgForward"},
    {Kind::AvgGrad, "AvgGrad"}};

/// Bytes a kernel must move at least: each operand read once (forward: x;
/// max grad: x and dy; avg grad: dy) and its result written once.
inline double bytesMoved(const PoolCase &c, Kind kind) {
  const double in = double(c.inputElems()) * 4,
               out = double(c.outputElems()) * 4;
  switch (kind) {
  case Kind::MaxForward:
  case Kind::AvgForward:
    return in + out;
  case Kind::MaxGrad:
    return in + out + in;
  case Kind::AvgGrad:
    return out + in;
  }
  return 0;
}

/// GB/s of the STREAM triad c = a + s b on buffers far larger than the
/// caches, all cores (bench_pool.cpp; measured once per process).
double triadGBps();

/// GB/s of bytesMoved per second of real time, and `bw`: that as a fraction
/// of triadGBps().
inline void setCounters(benchmark::State &st, double bytes) {
  st.counters["GB/s"] = benchmark::Counter(
      bytes / 1e9, benchmark::Counter::kIsIterationInvariantRate);
  st.counters["bw"] = benchmark::Counter(
      bytes / 1e9 / triadGBps(), benchmark::Counter::kIsIterationInvariantRate);
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

} // namespace poolbench

#endif // TFC_BENCH_POOL_CASES_H
