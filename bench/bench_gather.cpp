//===- bench_gather.cpp - embedding lookups: gather and its gradient ------===//
//
//   build/bin/tfc-bench-gather --benchmark_min_time=0.2
//
// The embedding shapes of gather_cases.h (50,000 x 256 float32 table, 4,096
// int64 ids):
//
//   Embedding/Forward/{Eager,Compiled}  tfc::gather(table, ids), eagerly
//                                       and in a tfc::function
//   Embedding/Grad/{Eager,Compiled}     tfc::unsorted_segment_sum(dy, ids,
//                                       50000): gather's gradient rule
//   Embedding/Copy                      memcpy of the forward's bytes: the
//                                       bandwidth floor
//
// Counter GB/s: the bytes each op must move (gather_cases.h) per second.
// Built as tfc-bench-gather-torch (bench_gather_torch.cpp), the same binary
// times libtorch's embedding forward and dense backward
// (Embedding/{Forward,Grad}/Torch) in the same run.
//
//===----------------------------------------------------------------------===//

#include "gather_cases.h"

#include <tfc/tfc.h>

#include <benchmark/benchmark.h>

#include <cstring>

using namespace gatherbench;

namespace {

struct Data {
  tfc::Tensor table =
      tfc::from_vector<float>(randomFloats(kRows * kDim, 1), {kRows, kDim});
  tfc::Tensor ids = tfc::from_vector<int64_t>(randomIds(2), {kIds});
  tfc::Tensor dy =
      tfc::from_vector<float>(randomFloats(kIds * kDim, 3), {kIds, kDim});
};

Data &data() {
  static Data d;
  return d;
}

void setBytes(benchmark::State &st, double bytes) {
  st.counters["GB/s"] =
      benchmark::Counter(bytes * static_cast<double>(st.iterations()) / 1e9,
                         benchmark::Counter::kIsRate);
}

void BM_ForwardEager(benchmark::State &st) {
  Data &d = data();
  for (auto _ : st)
    benchmark::DoNotOptimize(tfc::gather(d.table, d.ids));
  setBytes(st, forwardBytes());
}

void BM_ForwardCompiled(benchmark::State &st) {
  Data &d = data();
  auto f = tfc::function([](const tfc::Tensor &t, const tfc::Tensor &i) {
    return tfc::gather(t, i);
  });
  f(d.table, d.ids);
  for (auto _ : st)
    benchmark::DoNotOptimize(f(d.table, d.ids));
  setBytes(st, forwardBytes());
}

void BM_GradEager(benchmark::State &st) {
  Data &d = data();
  for (auto _ : st)
    benchmark::DoNotOptimize(tfc::unsorted_segment_sum(d.dy, d.ids, kRows));
  setBytes(st, gradBytes());
}

void BM_GradCompiled(benchmark::State &st) {
  Data &d = data();
  auto f = tfc::function([](const tfc::Tensor &g, const tfc::Tensor &i) {
    return tfc::unsorted_segment_sum(g, i, kRows);
  });
  f(d.dy, d.ids);
  for (auto _ : st)
    benchmark::DoNotOptimize(f(d.dy, d.ids));
  setBytes(st, gradBytes());
}

void BM_Copy(benchmark::State &st) {
  std::vector<float> src = randomFloats(kIds * kDim, 4), dst(src.size());
  for (auto _ : st) {
    std::memcpy(dst.data(), src.data(), src.size() * sizeof(float));
    benchmark::ClobberMemory();
  }
  setBytes(st, 2.0 * kIds * kDim * 4);
}

BENCHMARK(BM_ForwardEager)->Name("Embedding/Forward/Eager")->UseRealTime();
BENCHMARK(BM_ForwardCompiled)
    ->Name("Embedding/Forward/Compiled")
    ->UseRealTime();
BENCHMARK(BM_GradEager)->Name("Embedding/Grad/Eager")->UseRealTime();
BENCHMARK(BM_GradCompiled)->Name("Embedding/Grad/Compiled")->UseRealTime();
BENCHMARK(BM_Copy)->Name("Embedding/Copy")->UseRealTime();

} // namespace
