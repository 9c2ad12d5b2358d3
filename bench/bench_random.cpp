//===- bench_random.cpp - Philox draws against write bandwidth ------------===//
//
//   build/bin/tfc-bench-random --benchmark_min_time=0.2
//
// 16M float32 draws (64 MiB written, four times the L3) from a
// random::Generator:
//
//   Random/{Uniform,Normal,TruncatedNormal}/Eager     gen.uniform(...) etc.
//   Random/{Uniform,Normal,TruncatedNormal}/Compiled  the same in a
//                                                    tfc::function
//   Random/Fill                                      std::fill of the same
//                                                    buffer: the write
//                                                    bandwidth a draw is
//                                                    bound by at best
//
// Counter GB/s: bytes written per second (the draws read nothing).
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

namespace {

constexpr int64_t kN = int64_t(1) << 24;

void setBytes(benchmark::State &st) {
  st.counters["GB/s"] =
      benchmark::Counter(4.0 * kN * static_cast<double>(st.iterations()) / 1e9,
                         benchmark::Counter::kIsRate);
}

enum class Dist { Uniform, Normal, Truncated };

tfc::Tensor draw(tfc::random::Generator &g, Dist d) {
  switch (d) {
  case Dist::Uniform:
    return g.uniform({kN});
  case Dist::Normal:
    return g.normal({kN});
  default:
    return g.truncated_normal({kN});
  }
}

void BM_Eager(benchmark::State &st, Dist d) {
  auto g = tfc::random::Generator::from_seed(1);
  for (auto _ : st)
    benchmark::DoNotOptimize(draw(g, d));
  setBytes(st);
}

void BM_Compiled(benchmark::State &st, Dist d) {
  auto g = tfc::random::Generator::from_seed(1);
  auto f = tfc::function([&]() { return draw(g, d); });
  f();
  for (auto _ : st)
    benchmark::DoNotOptimize(f());
  setBytes(st);
}

void BM_Fill(benchmark::State &st) {
  std::vector<float> v(kN);
  float x = 0;
  for (auto _ : st) {
    std::fill(v.begin(), v.end(), x += 1);
    benchmark::ClobberMemory();
  }
  setBytes(st);
}

BENCHMARK_CAPTURE(BM_Eager, uniform, Dist::Uniform)
    ->Name("Random/Uniform/Eager")
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Compiled, uniform, Dist::Uniform)
    ->Name("Random/Uniform/Compiled")
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Eager, normal, Dist::Normal)
    ->Name("Random/Normal/Eager")
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Compiled, normal, Dist::Normal)
    ->Name("Random/Normal/Compiled")
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Eager, truncated, Dist::Truncated)
    ->Name("Random/TruncatedNormal/Eager")
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_Compiled, truncated, Dist::Truncated)
    ->Name("Random/TruncatedNormal/Compiled")
    ->UseRealTime();
BENCHMARK(BM_Fill)->Name("Random/Fill")->UseRealTime();

} // namespace
