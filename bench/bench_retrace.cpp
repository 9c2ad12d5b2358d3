//===- bench_retrace.cpp - reduce_retracing: dynamic vs static code -------===//
//
//   build/bin/tfc-bench-retrace [--benchmark_repetitions=5
//                                --benchmark_enable_random_interleaving=true]
//
// Issue 6 item 6. The same traced function called on one large batch,
// compiled two ways:
//   Static    a plain tfc::function: traced and compiled for that shape.
//   Dynamic   FunctionOptions::reduce_retracing, first called on two other
//             batch sizes, so the code that runs was compiled once with a
//             dynamic batch dim (`?`) and serves every batch size.
// Both check their result against eager execution, and Dynamic checks that
// the function traced twice (the second trace being the dynamic one).
//
// Cases: SmallCall is a * b + a on (8, 16): the per-call cost, run-time
// checks included (CPU time). IntFloorDiv is floor_div(a, b) + b on 1M
// int32 (the divisor check's cost). Elementwise is tanh(x) * sigmoid(x) - x * x
// on (batch, 1024); Dense is h = x @ w, tanh(h) * sigmoid(h) - x, then softmax
// and a row sum, on (batch, 256) @ (256, 256). Neither broadcasts into the
// batch dim, which reduce_retracing cannot yet express (docs/performance.md).
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "bench_retrace: %s\n", what);
    std::abort();
  }
}

float maxDiff(const tfc::Tensor &a, const tfc::Tensor &b) {
  check(a.shape() == b.shape(), "shapes differ");
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  float d = 0;
  for (size_t i = 0; i < x.size(); ++i)
    d = std::max(d, std::fabs(x[i] - y[i]));
  return d;
}

tfc::Tensor elementwise(const tfc::Tensor &x) {
  return tfc::tanh(x) * tfc::sigmoid(x) - x * x;
}

std::pair<tfc::Tensor, tfc::Tensor> dense(const tfc::Tensor &x,
                                          const tfc::Tensor &w) {
  tfc::Tensor h = tfc::matmul(x, w);
  tfc::Tensor y = tfc::tanh(h) * tfc::sigmoid(h) - x;
  return {tfc::softmax(y, 1), tfc::reduce_sum(y, {1})};
}

constexpr int64_t kBatch = 4096;

void BM_Elementwise(benchmark::State &st) {
  bool dynamic = st.range(0);
  tfc::FunctionOptions options;
  options.reduce_retracing = dynamic;
  auto f = tfc::function(elementwise, options);
  if (dynamic) {
    f(tfc::random_uniform({3, 1024}, -1, 1, 1));
    f(tfc::random_uniform({5, 1024}, -1, 1, 2));
  }
  tfc::Tensor x = tfc::random_uniform({kBatch, 1024}, -2, 2, 3);
  check(maxDiff(f(x), elementwise(x)) < 1e-5f, "Elementwise: wrong result");
  check(f.tracing_count() == (dynamic ? 2 : 1), "Elementwise: trace count");
  check(f.ir("tfc").find(dynamic
                             ? "tensor<?x1024xf32>"
                             : "tensor<4096x1024xf32>") != std::string::npos,
        "Elementwise: unexpected argument type");
  for (auto _ : st) {
    tfc::Tensor y = f(x);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
  st.SetBytesProcessed(st.iterations() * kBatch * 1024 * 4 * 2);
}

void BM_Dense(benchmark::State &st) {
  bool dynamic = st.range(0);
  tfc::FunctionOptions options;
  options.reduce_retracing = dynamic;
  auto f = tfc::function(dense, options);
  tfc::Tensor w = tfc::random_uniform({256, 256}, -0.1, 0.1, 4);
  if (dynamic) {
    f(tfc::random_uniform({3, 256}, -1, 1, 1), w);
    f(tfc::random_uniform({5, 256}, -1, 1, 2), w);
  }
  tfc::Tensor x = tfc::random_uniform({kBatch, 256}, -1, 1, 3);
  auto [p, s] = f(x, w);
  auto [pe, se] = dense(x, w);
  check(maxDiff(p, pe) < 1e-5f && maxDiff(s, se) < 1e-3f,
        "Dense: wrong result");
  check(f.tracing_count() == (dynamic ? 2 : 1), "Dense: trace count");
  for (auto _ : st) {
    auto r = f(x, w);
    benchmark::DoNotOptimize(r.first.unsafe_impl());
  }
}

/// Call overhead (issue 13): a tiny function whose cost is the call itself,
/// so the run-time shape checks of the dynamic version are visible.
void BM_SmallCall(benchmark::State &st) {
  bool dynamic = st.range(0);
  tfc::FunctionOptions options;
  options.reduce_retracing = dynamic;
  auto f = tfc::function(
      [](const tfc::Tensor &a, const tfc::Tensor &b) { return a * b + a; },
      options);
  if (dynamic) {
    f(tfc::ones({3, 16}), tfc::ones({3, 16}));
    f(tfc::ones({5, 16}), tfc::ones({5, 16}));
  }
  tfc::Tensor a = tfc::random_uniform({8, 16}, -1, 1, 5);
  tfc::Tensor b = tfc::random_uniform({8, 16}, -1, 1, 6);
  check(maxDiff(f(a, b), a * b + a) < 1e-6f, "SmallCall: wrong result");
  check(f.tracing_count() == (dynamic ? 2 : 1), "SmallCall: trace count");
  for (auto _ : st) {
    tfc::Tensor y = f(a, b);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
}

/// Integer floor_div on 1M elements: the divisor check (one OR-reduction
/// loop over it before the division) is what issue 13 adds.
void BM_IntFloorDiv(benchmark::State &st) {
  auto f = tfc::function([](const tfc::Tensor &a, const tfc::Tensor &b) {
    return tfc::floor_div(a, b) + b;
  });
  constexpr int64_t n = 1 << 20;
  tfc::Tensor a =
      tfc::cast(tfc::random_uniform({n}, -1000, 1000, 7), tfc::DType::Int32);
  tfc::Tensor b =
      tfc::cast(tfc::random_uniform({n}, 1, 50, 8), tfc::DType::Int32);
  tfc::Tensor want = tfc::floor_div(a, b) + b;
  check(f(a, b).to_vector<int32_t>() == want.to_vector<int32_t>(),
        "IntFloorDiv: wrong result");
  for (auto _ : st) {
    tfc::Tensor y = f(a, b);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
  st.SetBytesProcessed(st.iterations() * n * 4 * 3);
}

} // namespace

BENCHMARK(BM_IntFloorDiv)
    ->Name("IntFloorDiv/1M")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SmallCall)->Name("SmallCall/Static")->Arg(0);
BENCHMARK(BM_SmallCall)->Name("SmallCall/Dynamic")->Arg(1);

// Real time: compiled loops may run on both cores.
BENCHMARK(BM_Elementwise)
    ->Name("Elementwise/Static")
    ->Arg(0)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Elementwise)
    ->Name("Elementwise/Dynamic")
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Dense)
    ->Name("Dense/Static")
    ->Arg(0)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Dense)
    ->Name("Dense/Dynamic")
    ->Arg(1)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
