//===- bench_fusion.cpp - Fusion and CPU speed (issue 6) ------------------===//
//
// Each compiled figure next to its reference, in one run:
//   Chain8/{Compiled,CompiledUnfused,Eager,HandFused}/threads
//       y = ((tanh(x*a + b) * sigmoid(x) + x) * c - d) on 16M floats: 8 tfc
//       ops. HandFused is one OpenMP loop built with -O3 -march=native
//       -ffast-math (glibc's vector tanhf/expf). bytes_per_second counts
//       one read and one write of the data (the minimum traffic).
//   Triad/threads        STREAM triad c = a + s*b: the bandwidth reference.
//   LstmCell/{Compiled,Eager,HandFused}/batch/hidden
//       one LSTM cell step, input = hidden; HandFused = two sgemv/sgemm + one
//       fused gate loop. Those cases are in bench_lstm.cpp, which is linked
//       into tfc-bench-torch too (next to libtorch's step).
//   Dense/{Compiled,Sgemm}   relu(x @ W + b), 256 x 1024 x 1024, against
//       cblas_sgemm alone (the epilogue's cost is the difference).
//
// Threads: the /threads argument sets OpenMP's and OpenBLAS's thread counts
// for that case (tfc's compiled loops and the hand loop both use OpenMP).
//
//===----------------------------------------------------------------------===//

#include "bench_fusion_ref.h"

#include <tfc/tfc.h>

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "bench_fusion: %s gave a wrong result\n", what);
    std::exit(1);
  }
}

float maxRelDiff(const float *a, const float *b, int64_t n) {
  float d = 0;
  for (int64_t i = 0; i < n; ++i)
    d = std::max(d, std::fabs(a[i] - b[i]) / (1.0f + std::fabs(b[i])));
  return d;
}

void setThreads(int n) {
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
  tfc::kernels::set_num_threads(n);
}

//===----------------------------------------------------------------------===//
// 8-op elementwise chain
//===----------------------------------------------------------------------===//

constexpr int64_t kChainN = 16 << 20;
constexpr float kA = 0.7f, kB = 0.1f, kC = 1.3f, kD = 0.2f;

tfc::Tensor chain8(const tfc::Tensor &x) {
  return (tfc::tanh(x * kA + kB) * tfc::sigmoid(x) + x) * kC - kD;
}

const tfc::Tensor &chainInput() {
  static tfc::Tensor x = tfc::random_uniform({kChainN}, -3, 3, 7);
  return x;
}

const std::vector<float> &chainExpected() {
  static std::vector<float> y = [] {
    std::vector<float> out(kChainN);
    ref::chain8(chainInput().data<float>(), out.data(), kChainN, kA, kB, kC,
                kD);
    return out;
  }();
  return y;
}

void chainCompiled(benchmark::State &st, bool fuse) {
  setThreads(int(st.range(0)));
  tfc::FunctionOptions options;
  options.fuse = fuse;
  auto f = tfc::function(chain8, options);
  const tfc::Tensor &x = chainInput();
  tfc::Tensor y = f(x);
  check(maxRelDiff(y.data<float>(), chainExpected().data(), kChainN) < 1e-5f,
        "Chain8/Compiled");
  for (auto _ : st) {
    tfc::Tensor r = f(x);
    benchmark::DoNotOptimize(r.unsafe_impl());
  }
  st.SetBytesProcessed(st.iterations() * kChainN * 8);
}
void BM_Chain8Compiled(benchmark::State &st) { chainCompiled(st, true); }
void BM_Chain8CompiledUnfused(benchmark::State &st) {
  chainCompiled(st, false);
}

void BM_Chain8Eager(benchmark::State &st) {
  setThreads(int(st.range(0)));
  const tfc::Tensor &x = chainInput();
  tfc::Tensor y = chain8(x);
  check(maxRelDiff(y.data<float>(), chainExpected().data(), kChainN) < 1e-5f,
        "Chain8/Eager");
  for (auto _ : st) {
    tfc::Tensor r = chain8(x);
    benchmark::DoNotOptimize(r.unsafe_impl());
  }
  st.SetBytesProcessed(st.iterations() * kChainN * 8);
}

void BM_Chain8HandFused(benchmark::State &st) {
  setThreads(int(st.range(0)));
  const float *x = chainInput().data<float>();
  std::vector<float> y(kChainN);
  for (auto _ : st) {
    ref::chain8(x, y.data(), kChainN, kA, kB, kC, kD);
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(st.iterations() * kChainN * 8);
}

void BM_Triad(benchmark::State &st) {
  setThreads(int(st.range(0)));
  std::vector<float> a(kChainN, 1.0f), b(kChainN, 2.0f), c(kChainN);
  for (auto _ : st) {
    ref::triad(a.data(), b.data(), c.data(), kChainN, 3.0f);
    benchmark::ClobberMemory();
  }
  st.SetBytesProcessed(st.iterations() * kChainN * 12);
}

//===----------------------------------------------------------------------===//
// Dense layer
//===----------------------------------------------------------------------===//

constexpr int64_t kBatch = 256, kIn = 1024, kOut = 1024;

tfc::Tensor dense(const tfc::Tensor &x, const tfc::Tensor &w,
                  const tfc::Tensor &b) {
  return tfc::relu(tfc::matmul(x, w) + b);
}

struct Dense {
  tfc::Tensor x = tfc::random_uniform({kBatch, kIn}, -1, 1, 11);
  tfc::Tensor w = tfc::random_uniform({kIn, kOut}, -0.05, 0.05, 12);
  tfc::Tensor b = tfc::random_uniform({kOut}, -0.1, 0.1, 13);
};

void BM_DenseCompiled(benchmark::State &st) {
  setThreads(int(st.range(0)));
  Dense d;
  auto f = tfc::function(dense);
  tfc::Tensor y = f(d.x, d.w, d.b);
  tfc::Tensor e = dense(d.x, d.w, d.b);
  check(maxRelDiff(y.data<float>(), e.data<float>(), kBatch * kOut) < 1e-4f,
        "Dense/Compiled");
  for (auto _ : st) {
    tfc::Tensor r = f(d.x, d.w, d.b);
    benchmark::DoNotOptimize(r.unsafe_impl());
  }
  st.SetItemsProcessed(st.iterations() * 2 * kBatch * kIn * kOut);
}

void BM_DenseSgemm(benchmark::State &st) {
  setThreads(int(st.range(0)));
  Dense d;
  std::vector<float> y(size_t(kBatch * kOut));
  for (auto _ : st) {
    ref::sgemm(d.x.data<float>(), d.w.data<float>(), y.data(), kBatch, kIn,
               kOut);
    benchmark::ClobberMemory();
  }
  st.SetItemsProcessed(st.iterations() * 2 * kBatch * kIn * kOut);
}

} // namespace

BENCHMARK(BM_Triad)->Arg(1)->Arg(2)->UseRealTime()->Unit(
    benchmark::kMillisecond);
BENCHMARK(BM_Chain8HandFused)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain8Compiled)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain8CompiledUnfused)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain8Eager)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseSgemm)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DenseCompiled)
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
