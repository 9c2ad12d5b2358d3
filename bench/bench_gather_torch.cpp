//===- bench_gather_torch.cpp - libtorch's embedding for the gather bench -===//
//
// Linked with bench_gather.cpp into tfc-bench-gather-torch (built only when
// libtorch is found), so tfc's and libtorch's figures come from one run:
//
//   build/bin/tfc-bench-gather-torch --benchmark_min_time=0.2
//
//   Embedding/Forward/Torch  torch::embedding(table, ids) under NoGradGuard
//   Embedding/Grad/Torch     torch::embedding_backward(dy, ids, 50000, -1,
//                            false, false): the dense gradient
//
// Same numbers as tfc's cases (gather_cases.h), one intra-op thread per
// core. Each case first checks libtorch's result against a direct loop.
//
//===----------------------------------------------------------------------===//

#include "gather_cases.h"

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <thread>

using namespace gatherbench;

namespace {

struct TorchData {
  std::vector<float> table = randomFloats(kRows * kDim, 1);
  std::vector<int64_t> ids = randomIds(2);
  std::vector<float> dy = randomFloats(kIds * kDim, 3);
  torch::Tensor tTable = torch::from_blob(table.data(), {kRows, kDim});
  torch::Tensor tIds = torch::from_blob(ids.data(), {kIds}, torch::kLong);
  torch::Tensor tDy = torch::from_blob(dy.data(), {kIds, kDim});
};

TorchData &torchData() {
  static TorchData d;
  return d;
}

void threads() {
  const int n = int(std::max(1u, std::thread::hardware_concurrency()));
  if (torch::get_num_threads() != n)
    torch::set_num_threads(n);
}

void setBytes(benchmark::State &st, double bytes) {
  st.counters["GB/s"] =
      benchmark::Counter(bytes * static_cast<double>(st.iterations()) / 1e9,
                         benchmark::Counter::kIsRate);
}

void BM_TorchForward(benchmark::State &st) {
  threads();
  TorchData &d = torchData();
  torch::NoGradGuard guard;
  torch::Tensor y = torch::embedding(d.tTable, d.tIds);
  for (int64_t i : {int64_t(0), kIds - 1})
    for (int64_t j : {int64_t(0), kDim - 1})
      if (y[i][j].item<float>() != d.table[d.ids[i] * kDim + j]) {
        st.SkipWithError("libtorch's embedding disagrees with the table");
        return;
      }
  for (auto _ : st)
    benchmark::DoNotOptimize(torch::embedding(d.tTable, d.tIds));
  setBytes(st, forwardBytes());
}

void BM_TorchGrad(benchmark::State &st) {
  threads();
  TorchData &d = torchData();
  torch::NoGradGuard guard;
  torch::Tensor g =
      torch::embedding_backward(d.tDy, d.tIds, kRows, -1, false, false);
  // Row ids[0]: the sum of dy's rows with that id.
  double want = 0;
  for (int64_t i = 0; i < kIds; ++i)
    if (d.ids[i] == d.ids[0])
      want += d.dy[i * kDim];
  if (std::fabs(g[d.ids[0]][0].item<float>() - want) > 1e-4) {
    st.SkipWithError("libtorch's embedding_backward disagrees");
    return;
  }
  for (auto _ : st)
    benchmark::DoNotOptimize(
        torch::embedding_backward(d.tDy, d.tIds, kRows, -1, false, false));
  setBytes(st, gradBytes());
}

BENCHMARK(BM_TorchForward)->Name("Embedding/Forward/Torch")->UseRealTime();
BENCHMARK(BM_TorchGrad)->Name("Embedding/Grad/Torch")->UseRealTime();

} // namespace
