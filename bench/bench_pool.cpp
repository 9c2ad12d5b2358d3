//===- bench_pool.cpp - pooling kernels against memory bandwidth ---------===//
//
//   build/bin/tfc-bench-pool --benchmark_min_time=0.2
//
// Float32 max and average pooling (NHWC) on the shapes of pool_cases.h,
// forward and gradient, next to the bandwidth they are bound by:
//
//   Pool<S>/{Max,Avg}Forward/Tfc   tfc::kernels::{max,avg}_pool2d
//   Pool<S>/{Max,Avg}Grad/Tfc      tfc::kernels::{max,avg}_pool2d_grad
//   Triad                          the STREAM triad c = a + s b on three
//                                  64 MiB buffers (twice the L3), all cores
//
// Counters: GB/s, the bytes each kernel must move (pool_cases.h: operands
// read once, the result written once) per second of real time, and `bw`,
// that as a fraction of the triad's GB/s measured in the same process
// (best of 10 runs, before the first case). Built as tfc-bench-pool-torch
// (bench_pool_torch.cpp), the same binary also times libtorch
// (Pool<S>/<case>/Torch).
//
//===----------------------------------------------------------------------===//

#include "pool_cases.h"

#include "tfc/runtime/PoolKernels.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>

using namespace poolbench;
namespace k = tfc::kernels;

namespace {

/// 16M floats a buffer: the triad's three are 192 MiB in all.
constexpr int64_t kTriadElems = int64_t(1) << 24;

void triad(const float *a, const float *b, float *c, int64_t n, float s) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i)
    c[i] = a[i] + s * b[i];
}

struct TriadBuffers {
  std::vector<float> a = randomFloats(kTriadElems, 7);
  std::vector<float> b = randomFloats(kTriadElems, 8);
  std::vector<float> c = std::vector<float>(kTriadElems);
  void run() { triad(a.data(), b.data(), c.data(), kTriadElems, 3.0f); }
};

constexpr double kTriadBytes = 3.0 * 4 * kTriadElems;

void tfcCase(benchmark::State &st, const PoolCase &c, Kind kind) {
  const k::Pool2DShape s = k::pool2d_shape(
      "pool", {c.n, c.h, c.w, c.c}, {c.k, c.k}, {c.stride, c.stride}, c.same);
  std::vector<float> x = randomFloats(c.inputElems(), 1);
  std::vector<float> dy = randomFloats(c.outputElems(), 2);
  std::vector<float> y(dy.size()), dx(x.size());
  for (auto _ : st) {
    switch (kind) {
    case Kind::MaxForward:
      k::max_pool2d(s, x.data(), y.data());
      break;
    case Kind::MaxGrad:
      k::max_pool2d_grad(s, x.data(), dy.data(), dx.data());
      break;
    case Kind::AvgForward:
      k::avg_pool2d(s, x.data(), y.data());
      break;
    case Kind::AvgGrad:
      k::avg_pool2d_grad(s, dy.data(), dx.data());
      break;
    }
    benchmark::DoNotOptimize(y.data());
    benchmark::DoNotOptimize(dx.data());
    benchmark::ClobberMemory();
  }
  setCounters(st, bytesMoved(c, kind));
}

void triadCase(benchmark::State &st) {
  TriadBuffers t;
  for (auto _ : st) {
    t.run();
    benchmark::DoNotOptimize(t.c.data());
    benchmark::ClobberMemory();
  }
  setCounters(st, kTriadBytes);
}

[[maybe_unused]] const bool gRegistered = [] {
  benchmark::RegisterBenchmark("Triad", triadCase)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  for (const PoolCase &c : kCases)
    for (auto [kind, kindName] : kKinds)
      benchmark::RegisterBenchmark(
          (std::string("Pool") + c.name + "/" + kindName + "/Tfc").c_str(),
          tfcCase, c, kind)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  return true;
}();

} // namespace

double poolbench::triadGBps() {
  static const double gbps = [] {
    TriadBuffers t;
    double best = 1e30;
    for (int rep = 0; rep < 11; ++rep) {
      auto t0 = std::chrono::steady_clock::now();
      t.run();
      std::chrono::duration<double> d = std::chrono::steady_clock::now() - t0;
      if (rep > 0) // the first run pays for page faults
        best = std::min(best, d.count());
    }
    return kTriadBytes / best / 1e9;
  }();
  return gbps;
}
