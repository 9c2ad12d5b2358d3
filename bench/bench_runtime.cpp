//===- bench_runtime.cpp - Runtime kernels against their references ------===//
//
//   tfc-bench-runtime [--benchmark_filter=...]
//
// kernels::add on 1 / 100 / 10000 / 16M floats against a hand-written loop
// (two OpenMP threads for the 16M reference, as the kernel uses both cores),
// the same through the op table (execute), and matmul 256 / 1024 / 2048
// against cblas_sgemm called directly. The tfc figures include allocating
// the output (a caching-allocator hit); the references write into a
// preallocated buffer.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Allocator.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/Ops.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#include <cstdlib>
#include <vector>

using namespace tfc;

namespace {

constexpr int64_t k16M = int64_t(16) << 20;

void setBytes(benchmark::State &st, int64_t n) {
  st.SetBytesProcessed(int64_t(st.iterations()) * n * 3 * int64_t(sizeof(float)));
  st.SetItemsProcessed(int64_t(st.iterations()) * n);
}

void BM_AddTfc(benchmark::State &st) {
  int64_t n = st.range(0);
  Tensor a = kernels::full({n}, 1.5, DType::Float32);
  Tensor b = kernels::full({n}, 2.5, DType::Float32);
  kernels::add(a, b); // Steady state: the output block is now cached.
  for (auto _ : st) {
    Tensor c = kernels::add(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  setBytes(st, n);
}

void BM_AddExecute(benchmark::State &st) {
  int64_t n = st.range(0);
  Tensor in[2] = {kernels::full({n}, 1.5, DType::Float32),
                  kernels::full({n}, 2.5, DType::Float32)};
  OpAttrs attrs;
  execute(OpKind::Add, in, 2, attrs);
  for (auto _ : st) {
    Tensor c = execute(OpKind::Add, in, 2, attrs);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  setBytes(st, n);
}

/// The reference: c[i] = a[i] + b[i] over preallocated, touched buffers.
void BM_AddLoop(benchmark::State &st) {
  int64_t n = st.range(0);
  auto alloc = [n] {
    auto *p = static_cast<float *>(std::aligned_alloc(64, ((n * 4 + 63) / 64) * 64));
    for (int64_t i = 0; i < n; ++i)
      p[i] = 1.5f;
    return p;
  };
  float *a = alloc(), *b = alloc(), *c = alloc();
  bool threaded = n >= kernels::parallel_threshold();
  for (auto _ : st) {
    if (threaded) {
#pragma omp parallel for num_threads(2) schedule(static)
      for (int64_t i = 0; i < n; ++i)
        c[i] = a[i] + b[i];
    } else {
      for (int64_t i = 0; i < n; ++i)
        c[i] = a[i] + b[i];
    }
    benchmark::DoNotOptimize(c);
    benchmark::ClobberMemory();
  }
  setBytes(st, n);
  std::free(a);
  std::free(b);
  std::free(c);
}

void BM_MatmulTfc(benchmark::State &st) {
  int64_t n = st.range(0);
  Tensor a = kernels::random_uniform({n, n}, -1, 1, 1, DType::Float32);
  Tensor b = kernels::random_uniform({n, n}, -1, 1, 2, DType::Float32);
  kernels::matmul(a, b);
  for (auto _ : st) {
    Tensor c = kernels::matmul(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  st.counters["GFLOPS"] = benchmark::Counter(
      2.0 * double(n) * double(n) * double(n) * double(st.iterations()),
      benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

void BM_MatmulCblas(benchmark::State &st) {
  int n = static_cast<int>(st.range(0));
  Tensor a = kernels::random_uniform({n, n}, -1, 1, 1, DType::Float32);
  Tensor b = kernels::random_uniform({n, n}, -1, 1, 2, DType::Float32);
  std::vector<float> c(size_t(n) * n);
  for (auto _ : st) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                a.data<float>(), n, b.data<float>(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  st.counters["GFLOPS"] = benchmark::Counter(
      2.0 * double(n) * double(n) * double(n) * double(st.iterations()),
      benchmark::Counter::kIsRate, benchmark::Counter::kIs1000);
}

/// A small eager chain, the shape of typical per-op overhead in user code.
void BM_EagerChainScalar(benchmark::State &st) {
  Tensor x = kernels::full({}, 0.5, DType::Float32);
  Tensor y = kernels::full({}, 2.0, DType::Float32);
  for (auto _ : st) {
    Tensor z = kernels::mul(kernels::add(x, y), kernels::exp(x));
    benchmark::DoNotOptimize(z.unsafe_impl());
  }
}

} // namespace

BENCHMARK(BM_AddTfc)->Arg(1)->Arg(100)->Arg(10000)->Arg(k16M)->UseRealTime();
BENCHMARK(BM_AddExecute)->Arg(1)->Arg(100)->Arg(10000)->Arg(k16M)->UseRealTime();
BENCHMARK(BM_AddLoop)->Arg(1)->Arg(100)->Arg(10000)->Arg(k16M)->UseRealTime();
BENCHMARK(BM_EagerChainScalar)->UseRealTime();
BENCHMARK(BM_MatmulTfc)->Arg(256)->Arg(1024)->Arg(2048)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulCblas)->Arg(256)->Arg(1024)->Arg(2048)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
