//===- bench_eager.cpp - Eager API figures of issue 3 against references -===//
//
//   build/bin/tfc-bench-eager [--benchmark_filter=...]
//                             [--benchmark_repetitions=5]
//
// Every tfc figure sits next to its reference in the same binary, so one run
// gives the ratios (docs/performance.md):
//
//   Add/{Tfc,Kernel,Loop}/n      `a + b` on n = 1, 100, 10000 floats through
//                                the public API, the runtime kernel called
//                                directly, and a hand-written loop into a
//                                preallocated buffer (the floor).
//   Add/TensorCopy               copying and dropping one Tensor handle.
//   Chain20/{Tfc,Kernel,Loop}/n  20 small dependent ops (mul, add, tanh, sub,
//                                sigmoid, four times) on n = 1 and 100 floats;
//                                the loop reference does the same 20 passes
//                                over preallocated buffers.
//   Big/{AddTfc,AddKernel,AddLoop,Copy,Triad}
//                                16M floats: tfc's add, a hand-written OpenMP
//                                loop on the same thread count, and STREAM's
//                                copy (c = a) and triad (a = b + s*c) as the
//                                memory-bandwidth limit. Bytes count as STREAM
//                                counts them (3 arrays for add and triad).
//   Matmul/{Tfc,Cblas}/n         n x n float32 matmul through tfc::matmul
//                                against cblas_sgemm on preallocated C, both
//                                on OpenBLAS's thread count (reported).
//   MatmulMlp/{Tfc,Cblas}/M/K/N/threads  the MLP train step's GEMM shapes
//                                (issue 16): tfc::matmul (oneDNN's sgemm for
//                                big float32 products, runtime/lib/Blas.h)
//                                against cblas_sgemm, 1 and 2 threads.
//   GemmLib/{OpenBLAS,oneDNN}/M/K/N  cblas_sgemm against dnnl_sgemm, one
//                                thread (where tfc is built with oneDNN):
//                                where Blas.h's size threshold comes from.
//
// The tfc figures include allocating the result (a caching-allocator hit);
// the references write into preallocated buffers. Every benchmark checks its
// result once before timing. When built into tfc-bench-torch (bench_torch.cpp)
// the same cases run next to libtorch's.
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include "tfc/runtime/Kernels.h"

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#ifdef TFC_BENCH_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

#include <sys/mman.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

constexpr int64_t k16M = int64_t(16) << 20;

/// Aborts the benchmark run with a message when a result is wrong: a
/// benchmark that computes the wrong thing measures nothing.
void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "bench_eager: wrong result in %s\n", what);
    std::abort();
  }
}

bool near(float a, float b) {
  return std::fabs(a - b) <= 1e-5f * (1.f + std::fabs(b));
}

/// Float buffer filled with `value` (pages touched). 64-byte aligned; from
/// 4 MiB on, 2 MiB aligned and madvise'd for transparent huge pages, as the
/// runtime's allocator does for its big blocks (THP is "madvise" here), so
/// the references do not pay TLB misses that tfc's buffers avoid.
struct Buffer {
  explicit Buffer(int64_t n, float value = 0.f) : n(n) {
    size_t bytes = size_t(n) * sizeof(float);
    size_t align = bytes >= (size_t(4) << 20) ? size_t(2) << 20 : 64;
    bytes = (bytes + align - 1) / align * align;
    p = static_cast<float *>(std::aligned_alloc(align, bytes));
    check(p != nullptr, "Buffer");
    if (align > 64)
      madvise(p, bytes, MADV_HUGEPAGE);
    for (int64_t i = 0; i < n; ++i)
      p[i] = value;
  }
  ~Buffer() { std::free(p); }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  int64_t n;
  float *p;
};

void perOpCounter(benchmark::State &st, int ops) {
  // Seconds per op, printed with an SI prefix (e.g. 45.1n).
  st.counters["per_op"] = benchmark::Counter(
      double(ops), benchmark::Counter::kIsIterationInvariantRate |
                       benchmark::Counter::kInvert);
}

//===----------------------------------------------------------------------===//
// a + b, small
//===----------------------------------------------------------------------===//

void BM_AddTfc(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::full({n}, 1.5), b = tfc::full({n}, 2.5);
  check(near((a + b).to_vector<float>()[n - 1], 4.f), "AddTfc");
  for (auto _ : st) {
    tfc::Tensor c = a + b;
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  perOpCounter(st, 1);
}

void BM_AddKernel(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::full({n}, 1.5), b = tfc::full({n}, 2.5);
  check(near(tfc::kernels::add(a, b).to_vector<float>()[n - 1], 4.f),
        "AddKernel");
  for (auto _ : st) {
    tfc::Tensor c = tfc::kernels::add(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  perOpCounter(st, 1);
}

/// c[i] = a[i] + b[i]: no allocation, no dispatch, no shape checks.
[[gnu::noinline]] void addLoop(const float *a, const float *b, float *c,
                               int64_t n, int threads) {
  if (threads > 1) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t i = 0; i < n; ++i)
      c[i] = a[i] + b[i];
  } else {
    for (int64_t i = 0; i < n; ++i)
      c[i] = a[i] + b[i];
  }
}

void BM_AddLoop(benchmark::State &st) {
  int64_t n = st.range(0);
  Buffer a(n, 1.5f), b(n, 2.5f), c(n);
  // Small sizes run on one thread, as tfc's kernels do below their threshold.
  int threads = n >= tfc::kernels::parallel_threshold()
                    ? tfc::kernels::num_threads()
                    : 1;
  addLoop(a.p, b.p, c.p, n, threads);
  check(near(c.p[n - 1], 4.f), "AddLoop");
  for (auto _ : st) {
    addLoop(a.p, b.p, c.p, n, threads);
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  perOpCounter(st, 1);
}

/// One copy and destruction of a Tensor handle (an atomic increment and an
/// atomic decrement of its refcount): what the frontend pays per input
/// when it copies its inputs into an array for dispatch.
void BM_TensorCopy(benchmark::State &st) {
  tfc::Tensor a = tfc::full({1}, 1.5);
  for (auto _ : st) {
    tfc::Tensor c = a;
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  check(a.unsafe_impl()->refcount.load() == 1, "TensorCopy refcount");
}

//===----------------------------------------------------------------------===//
// A chain of 20 small ops
//===----------------------------------------------------------------------===//

constexpr int kChainOps = 20;

/// y = x; 4 x { y = sigmoid(tanh(y * w + b) - w) }: 20 dependent ops.
tfc::Tensor chainTfc(const tfc::Tensor &x, const tfc::Tensor &w,
                     const tfc::Tensor &b) {
  tfc::Tensor y = x;
  for (int i = 0; i < kChainOps / 5; ++i)
    y = tfc::sigmoid(tfc::tanh(y * w + b) - w);
  return y;
}

tfc::Tensor chainKernel(const tfc::Tensor &x, const tfc::Tensor &w,
                        const tfc::Tensor &b) {
  namespace k = tfc::kernels;
  tfc::Tensor y = x;
  for (int i = 0; i < kChainOps / 5; ++i)
    y = k::sigmoid(k::sub(k::tanh(k::add(k::mul(y, w), b)), w));
  return y;
}

float chainScalar(float x, float w, float b) {
  float y = x;
  for (int i = 0; i < kChainOps / 5; ++i)
    y = 1.f / (1.f + std::exp(-(std::tanh(y * w + b) - w)));
  return y;
}

/// The same 20 ops as 20 loops over preallocated buffers (unfused, like
/// eager execution, but with no allocation, dispatch or checks).
[[gnu::noinline]] void chainLoop(const float *x, const float *w,
                                 const float *b, float *t, float *y,
                                 int64_t n) {
  const float *in = x;
  for (int r = 0; r < kChainOps / 5; ++r) {
    for (int64_t i = 0; i < n; ++i)
      t[i] = in[i] * w[i];
    for (int64_t i = 0; i < n; ++i)
      t[i] = t[i] + b[i];
    for (int64_t i = 0; i < n; ++i)
      t[i] = std::tanh(t[i]);
    for (int64_t i = 0; i < n; ++i)
      t[i] = t[i] - w[i];
    for (int64_t i = 0; i < n; ++i)
      y[i] = 1.f / (1.f + std::exp(-t[i]));
    in = y;
  }
}

constexpr float kX = 0.3f, kW = 0.7f, kB = -0.2f;

void BM_Chain20Tfc(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor x = tfc::full({n}, kX), w = tfc::full({n}, kW),
              b = tfc::full({n}, kB);
  check(near(chainTfc(x, w, b).to_vector<float>()[n - 1],
             chainScalar(kX, kW, kB)),
        "Chain20Tfc");
  for (auto _ : st) {
    tfc::Tensor y = chainTfc(x, w, b);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
  perOpCounter(st, kChainOps);
}

void BM_Chain20Kernel(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor x = tfc::full({n}, kX), w = tfc::full({n}, kW),
              b = tfc::full({n}, kB);
  check(near(chainKernel(x, w, b).to_vector<float>()[n - 1],
             chainScalar(kX, kW, kB)),
        "Chain20Kernel");
  for (auto _ : st) {
    tfc::Tensor y = chainKernel(x, w, b);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
  perOpCounter(st, kChainOps);
}

void BM_Chain20Loop(benchmark::State &st) {
  int64_t n = st.range(0);
  Buffer x(n, kX), w(n, kW), b(n, kB), t(n), y(n);
  chainLoop(x.p, w.p, b.p, t.p, y.p, n);
  check(near(y.p[n - 1], chainScalar(kX, kW, kB)), "Chain20Loop");
  for (auto _ : st) {
    chainLoop(x.p, w.p, b.p, t.p, y.p, n);
    benchmark::DoNotOptimize(y.p);
    benchmark::ClobberMemory();
  }
  perOpCounter(st, kChainOps);
}

//===----------------------------------------------------------------------===//
// Big elementwise (16M floats) and the memory-bandwidth limit
//===----------------------------------------------------------------------===//

/// STREAM's convention: bytes of every array read or written once.
void streamBytes(benchmark::State &st, int64_t n, int arrays) {
  st.SetBytesProcessed(int64_t(st.iterations()) * n * arrays *
                       int64_t(sizeof(float)));
}

void BM_BigAddTfc(benchmark::State &st) {
  tfc::Tensor a = tfc::full({k16M}, 1.5), b = tfc::full({k16M}, 2.5);
  {
    // Also warms the caching allocator: the result block is reused below.
    std::vector<float> c = (a + b).to_vector<float>();
    check(near(c.front(), 4.f) && near(c.back(), 4.f), "BigAddTfc");
  }
  for (auto _ : st) {
    tfc::Tensor c = a + b;
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  streamBytes(st, k16M, 3);
  st.counters["nthreads"] = tfc::kernels::num_threads();
}

void BM_BigAddKernel(benchmark::State &st) {
  tfc::Tensor a = tfc::full({k16M}, 1.5), b = tfc::full({k16M}, 2.5);
  check(near(tfc::kernels::add(a, b).data<float>()[k16M - 1], 4.f),
        "BigAddKernel");
  for (auto _ : st) {
    tfc::Tensor c = tfc::kernels::add(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  streamBytes(st, k16M, 3);
  st.counters["nthreads"] = tfc::kernels::num_threads();
}

void BM_BigAddLoop(benchmark::State &st) {
  Buffer a(k16M, 1.5f), b(k16M, 2.5f), c(k16M);
  int threads = tfc::kernels::num_threads();
  addLoop(a.p, b.p, c.p, k16M, threads);
  check(near(c.p[0], 4.f) && near(c.p[k16M - 1], 4.f), "BigAddLoop");
  for (auto _ : st) {
    addLoop(a.p, b.p, c.p, k16M, threads);
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  streamBytes(st, k16M, 3);
  st.counters["nthreads"] = threads;
}

[[gnu::noinline]] void streamCopy(const float *a, float *c, int64_t n,
                                  int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < n; ++i)
    c[i] = a[i];
}

[[gnu::noinline]] void streamTriad(float *a, const float *b, const float *c,
                                   float s, int64_t n, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int64_t i = 0; i < n; ++i)
    a[i] = b[i] + s * c[i];
}

void BM_BigCopy(benchmark::State &st) {
  Buffer a(k16M, 1.5f), c(k16M);
  int threads = tfc::kernels::num_threads();
  streamCopy(a.p, c.p, k16M, threads);
  check(c.p[k16M - 1] == 1.5f, "BigCopy");
  for (auto _ : st) {
    streamCopy(a.p, c.p, k16M, threads);
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  streamBytes(st, k16M, 2);
  st.counters["nthreads"] = threads;
}

void BM_BigTriad(benchmark::State &st) {
  Buffer a(k16M), b(k16M, 1.5f), c(k16M, 2.f);
  int threads = tfc::kernels::num_threads();
  streamTriad(a.p, b.p, c.p, 3.f, k16M, threads);
  check(near(a.p[k16M - 1], 7.5f), "BigTriad");
  for (auto _ : st) {
    streamTriad(a.p, b.p, c.p, 3.f, k16M, threads);
    benchmark::DoNotOptimize(a.p);
    benchmark::ClobberMemory();
  }
  streamBytes(st, k16M, 3);
  st.counters["nthreads"] = threads;
}

//===----------------------------------------------------------------------===//
// Matmul against OpenBLAS
//===----------------------------------------------------------------------===//

void flops(benchmark::State &st, int64_t n) {
  st.counters["GFLOPS"] =
      benchmark::Counter(2.0 * double(n) * double(n) * double(n) / 1e9,
                         benchmark::Counter::kIsIterationInvariantRate);
  st.counters["nthreads"] = openblas_get_num_threads();
}

/// A few entries of c = a b (m x k times k x n) against double sums.
bool productOk(const float *a, const float *b, const float *c, int64_t m,
               int64_t k, int64_t n) {
  for (int64_t i : {int64_t(0), m / 3, m - 1})
    for (int64_t j : {int64_t(0), n / 2, n - 1}) {
      double ref = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        ref += double(a[i * k + kk]) * double(b[kk * n + j]);
      if (std::fabs(ref - c[i * n + j]) > 1e-3 * (1 + std::fabs(ref)))
        return false;
    }
  return true;
}

/// productOk for n x n operands.
bool matmulOk(const float *a, const float *b, const float *c, int64_t n) {
  return productOk(a, b, c, n, n, n);
}

void BM_MatmulTfc(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::random_uniform({n, n}, -1, 1, 1);
  tfc::Tensor b = tfc::random_uniform({n, n}, -1, 1, 2);
  {
    tfc::Tensor c = tfc::matmul(a, b);
    check(matmulOk(a.data<float>(), b.data<float>(), c.data<float>(), n),
          "MatmulTfc");
  }
  for (auto _ : st) {
    tfc::Tensor c = tfc::matmul(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  flops(st, n);
}

void BM_MatmulCblas(benchmark::State &st) {
  int64_t n = st.range(0);
  int ni = static_cast<int>(n);
  tfc::Tensor a = tfc::random_uniform({n, n}, -1, 1, 1);
  tfc::Tensor b = tfc::random_uniform({n, n}, -1, 1, 2);
  Buffer c(n * n);
  auto run = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, ni, ni, ni, 1.0f,
                a.data<float>(), ni, b.data<float>(), ni, 0.0f, c.p, ni);
  };
  run();
  check(matmulOk(a.data<float>(), b.data<float>(), c.p, n), "MatmulCblas");
  for (auto _ : st) {
    run();
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  flops(st, n);
}

/// The GEMM shapes of the Fashion-MNIST MLP's train step (784-256-128-10,
/// batch 128) as M x K x N, on `threads` threads: tfc::matmul (oneDNN's
/// sgemm from 2^21 multiply-adds where tfc has it, runtime/lib/Blas.h)
/// against cblas_sgemm on a preallocated C.
void mlpShape(benchmark::State &st, int64_t &m, int64_t &k, int64_t &n) {
  m = st.range(0), k = st.range(1), n = st.range(2);
  tfc::kernels::set_num_threads(int(st.range(3)));
  st.counters["GFLOPS"] =
      benchmark::Counter(2.0 * double(m) * double(k) * double(n) / 1e9,
                         benchmark::Counter::kIsIterationInvariantRate);
}

void BM_MatmulMlpTfc(benchmark::State &st) {
  int64_t m, k, n;
  mlpShape(st, m, k, n);
  tfc::Tensor a = tfc::random_uniform({m, k}, -1, 1, 1);
  tfc::Tensor b = tfc::random_uniform({k, n}, -1, 1, 2);
  {
    tfc::Tensor c = tfc::matmul(a, b);
    check(productOk(a.data<float>(), b.data<float>(), c.data<float>(), m, k, n),
          "MatmulMlpTfc");
  }
  for (auto _ : st) {
    tfc::Tensor c = tfc::matmul(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  tfc::kernels::set_num_threads(0);
}

void BM_MatmulMlpCblas(benchmark::State &st) {
  int64_t m, k, n;
  mlpShape(st, m, k, n);
  tfc::Tensor a = tfc::random_uniform({m, k}, -1, 1, 1);
  tfc::Tensor b = tfc::random_uniform({k, n}, -1, 1, 2);
  Buffer c(m * n);
  auto run = [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n),
                int(k), 1.0f, a.data<float>(), int(k), b.data<float>(), int(n),
                0.0f, c.p, int(n));
  };
  run();
  check(productOk(a.data<float>(), b.data<float>(), c.p, m, k, n),
        "MatmulMlpCblas");
  for (auto _ : st) {
    run();
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  tfc::kernels::set_num_threads(0);
}

void mlpShapes(benchmark::internal::Benchmark *b) {
  for (int threads : {1, 2})
    for (auto s : {std::array<int64_t, 3>{128, 784, 256},
                   {784, 128, 256},
                   {128, 256, 128},
                   {256, 128, 128},
                   {128, 128, 256},
                   {128, 128, 10}})
      b->Args({s[0], s[1], s[2], threads});
}

#ifdef TFC_BENCH_HAVE_DNNL
/// One library's sgemm on one thread: range(0) 0 = OpenBLAS, 1 = oneDNN.
void BM_GemmLib(benchmark::State &st) {
  const bool dnnl = st.range(0) == 1;
  const int64_t m = st.range(1), k = st.range(2), n = st.range(3);
  tfc::kernels::set_num_threads(1);
  omp_set_num_threads(1); // oneDNN sizes its team by the caller's ICV
  tfc::Tensor a = tfc::random_uniform({m, k}, -1, 1, 1);
  tfc::Tensor b = tfc::random_uniform({k, n}, -1, 1, 2);
  Buffer c(m * n);
  auto run = [&] {
    if (dnnl)
      dnnl_sgemm('N', 'N', m, n, k, 1.0f, a.data<float>(), k, b.data<float>(),
                 n, 0.0f, c.p, n);
    else
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n),
                  int(k), 1.0f, a.data<float>(), int(k), b.data<float>(),
                  int(n), 0.0f, c.p, int(n));
  };
  run();
  check(productOk(a.data<float>(), b.data<float>(), c.p, m, k, n), "GemmLib");
  for (auto _ : st) {
    run();
    benchmark::DoNotOptimize(c.p);
    benchmark::ClobberMemory();
  }
  st.counters["GFLOPS"] =
      benchmark::Counter(2.0 * double(m) * double(k) * double(n) / 1e9,
                         benchmark::Counter::kIsIterationInvariantRate);
  st.counters["macs"] = double(m * k * n);
  tfc::kernels::set_num_threads(0);
  omp_set_num_threads(omp_get_num_procs());
}

void gemmLibShapes(benchmark::internal::Benchmark *b) {
  for (int lib : {0, 1})
    for (auto s : {std::array<int64_t, 3>{16, 16, 16},
                   {32, 32, 32},
                   {64, 64, 64},
                   {100, 100, 100},
                   {128, 64, 128},
                   {128, 128, 128},
                   {128, 256, 64},
                   {256, 256, 256},
                   {128, 784, 256},
                   {2000, 784, 10},
                   {16, 784, 256},
                   {512, 512, 512}})
      b->Args({lib, s[0], s[1], s[2]});
}
#endif

} // namespace

// The small cases run on one thread and are timed in CPU time: on this shared
// machine wall time also counts waiting for a core. The 16M and matmul cases
// run on two threads, so they are timed in real time.
BENCHMARK(BM_AddTfc)->Name("Add/Tfc")->Arg(1)->Arg(100)->Arg(10000);
BENCHMARK(BM_AddKernel)->Name("Add/Kernel")->Arg(1)->Arg(100)->Arg(10000);
BENCHMARK(BM_AddLoop)->Name("Add/Loop")->Arg(1)->Arg(100)->Arg(10000);
BENCHMARK(BM_TensorCopy)->Name("Add/TensorCopy");
BENCHMARK(BM_Chain20Tfc)->Name("Chain20/Tfc")->Arg(1)->Arg(100);
BENCHMARK(BM_Chain20Kernel)->Name("Chain20/Kernel")->Arg(1)->Arg(100);
BENCHMARK(BM_Chain20Loop)->Name("Chain20/Loop")->Arg(1)->Arg(100);
BENCHMARK(BM_BigAddTfc)->Name("Big/AddTfc")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigAddKernel)->Name("Big/AddKernel")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigAddLoop)->Name("Big/AddLoop")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigCopy)->Name("Big/Copy")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BigTriad)->Name("Big/Triad")->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulTfc)->Name("Matmul/Tfc")->Arg(256)->Arg(1024)->Arg(2048)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulCblas)->Name("Matmul/Cblas")->Arg(256)->Arg(1024)->Arg(2048)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MatmulMlpTfc)
    ->Name("MatmulMlp/Tfc")
    ->Apply(mlpShapes)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_MatmulMlpCblas)
    ->Name("MatmulMlp/Cblas")
    ->Apply(mlpShapes)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
#ifdef TFC_BENCH_HAVE_DNNL
BENCHMARK(BM_GemmLib)
    ->Name("GemmLib")
    ->ArgNames({"oneDNN", "M", "K", "N"})
    ->Apply(gemmLibShapes)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
#endif
