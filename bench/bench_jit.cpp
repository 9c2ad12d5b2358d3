//===- bench_jit.cpp - tfc::function figures of issue 4 ------------------===//
//
//   build/bin/tfc-bench-jit [--benchmark_filter=...]
//   [--benchmark_repetitions=5] build/bin/tfc-bench-jit
//   --profile=lstm32|lstm256|add|fifty[:STEPS]
//
// Each figure next to its reference, in one binary (docs/performance.md):
//
//   Compile50/FirstCall/O     a fresh tfc::function of 50 traced ops, called
//                             once: trace + lower + LLVM at -O + first run.
//   Compile50/FromSource/O    the same module compiled from its traced text
//                             through CompiledModule::from_source (parse +
//                             lower + LLVM, no trace); FirstCall minus this
//                             minus the cached call is the trace.
//   Compile50/Cached          the compiled function called again.
//   Compile50/Eager           the same 50 ops run eagerly.
//   Compile50Elementwise/FirstCall/O
//                             50 elementwise ops (no matmul; they fuse into
//                             one loop nest): trace + compile + first run.
//   Compile50Distinct/FirstCall/O
//                             like Compile50 with ten different activations,
//                             so tfc-dedup-fusions finds nothing to share.
//   Compile50Grad/{FirstCall,InsideFirstCall}/2
//                             forward plus backward of the 50-op function:
//                             a fresh function called under a tape and
//                             differentiated (its VJP generated and
//                             compiled), and with the tape inside it.
//   (The persistent compile cache is off here unless TFC_CACHE_DIR is set.)
//   Call/{Compiled,Module,Eager}/n
//                             `a + b` on n floats: a cached tfc::function
//                             call, the same code through
//                             CompiledModule::call (no signature key or cache
//                             lookup), and the eager op.
//   Small5/{Compiled,Eager}/n five elementwise ops on n floats.
//   Lstm/{Compiled,Eager}/hidden
//                             one LSTM cell step (batch 1, input = hidden),
//                             weights passed as arguments.
//   Matvec/{Compiled,Eager}/hidden
//                             the LSTM's (1, hidden) x (hidden, 4 hidden)
//                             matmul alone.
//   LstmGrad/{Compiled,Eager,Inside}/hidden/batch
//                             one LSTM step and the gradient of its outputs'
//                             sum w.r.t. the weights under a GradientTape:
//                             around the compiled call (its compiled VJP),
//                             eagerly (the tape records every op), and with
//                             the tape inside the compiled function.
//   LstmGrad/GemmsAlone/hidden/batch
//                             the step's four GEMMs alone (OpenBLAS): the
//                             floor of any of the three.
//
// --profile runs STEPS compiled calls inside tfcProfileRegion() and exits,
// for `valgrind --tool=callgrind --toggle-collect=tfcProfileRegion ...`.
//
//===----------------------------------------------------------------------===//

#include "lstm_step.h"

#include <tfc/tfc.h>

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "bench_jit: wrong result in %s\n", what);
    std::abort();
  }
}

/// Largest |a - b| over all elements (float32 tensors of one shape).
float maxDiff(const tfc::Tensor &a, const tfc::Tensor &b) {
  check(a.shape() == b.shape(), "maxDiff shapes");
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  float d = 0;
  for (size_t i = 0; i < x.size(); ++i)
    d = std::max(d, std::fabs(x[i] - y[i]));
  return d;
}

/// Ops in the traced text: lines that define a value with a tfc op.
int countTfcOps(const std::string &ir) {
  int n = 0;
  size_t pos = 0;
  while ((pos = ir.find('\n', pos)) != std::string::npos) {
    size_t end = ir.find('\n', pos + 1);
    std::string line = ir.substr(
        pos + 1, end == std::string::npos ? std::string::npos : end - pos - 1);
    size_t eq = line.find("= ");
    if (eq != std::string::npos && line.find("tfc.", eq) == eq + 2 &&
        line.find("tfc.constant", eq) != eq + 2)
      ++n;
    pos = end;
  }
  return n;
}

//===----------------------------------------------------------------------===//
// Compile time of a 50-op function
//===----------------------------------------------------------------------===//

/// Ten blocks of y = (tanh(y @ w + b) * y) - b: 50 ops, all but the matmuls
/// fusable.
tfc::Tensor fifty(const tfc::Tensor &x, const tfc::Tensor &w,
                  const tfc::Tensor &b) {
  tfc::Tensor y = x;
  for (int i = 0; i < 10; ++i)
    y = tfc::tanh(tfc::matmul(y, w) + b) * y - b;
  return y;
}

/// Ten blocks of y = (tanh(y * w + b) * y) - b: 50 elementwise ops that fuse
/// into one loop nest (no matmul), to separate codegen of the matmul loops.
tfc::Tensor fiftyElementwise(const tfc::Tensor &x, const tfc::Tensor &w,
                             const tfc::Tensor &b) {
  tfc::Tensor y = x;
  for (int i = 0; i < 10; ++i)
    y = tfc::tanh(y * w + b) * y - b;
  return y;
}

/// Ten blocks as in `fifty`, each with another activation, so no two fusions
/// are alike and tfc-dedup-fusions has nothing to share: the cost of 50 ops
/// that are all different.
tfc::Tensor fiftyDistinct(const tfc::Tensor &x, const tfc::Tensor &w,
                          const tfc::Tensor &b) {
  using Act = tfc::Tensor (*)(const tfc::Tensor &);
  static const Act acts[10] = {
      [](const tfc::Tensor &t) { return tfc::tanh(t); },
      [](const tfc::Tensor &t) { return tfc::sigmoid(t); },
      [](const tfc::Tensor &t) { return tfc::relu(t); },
      [](const tfc::Tensor &t) { return tfc::sin(t); },
      [](const tfc::Tensor &t) { return tfc::cos(t); },
      [](const tfc::Tensor &t) { return tfc::exp(t); },
      [](const tfc::Tensor &t) { return tfc::abs(t); },
      [](const tfc::Tensor &t) { return tfc::square(t); },
      [](const tfc::Tensor &t) { return tfc::neg(t); },
      [](const tfc::Tensor &t) { return tfc::log1p(tfc::abs(t)); }};
  tfc::Tensor y = x;
  for (int i = 0; i < 10; ++i) {
    tfc::Tensor a = tfc::matmul(y, w) + b;
    // The last activation is two ops; drop the subtraction there to keep 50.
    y = i == 9 ? acts[i](a) * y : acts[i](a) * y - b;
  }
  return y;
}

struct FiftyArgs {
  tfc::Tensor x = tfc::random_uniform({4, 16}, -1, 1, 1);
  tfc::Tensor w = tfc::random_uniform({16, 16}, -0.5, 0.5, 2);
  tfc::Tensor b = tfc::random_uniform({4, 16}, -0.1, 0.1, 3);
};

auto makeFifty(int opt) {
  tfc::FunctionOptions options;
  options.opt_level = opt;
  return tfc::function(fifty, options);
}

void BM_Compile50FirstCall(benchmark::State &st) {
  FiftyArgs a;
  tfc::Tensor eager = fifty(a.x, a.w, a.b);
  {
    auto f = makeFifty(int(st.range(0)));
    check(maxDiff(f(a.x, a.w, a.b), eager) < 1e-5f, "Compile50");
    int ops = countTfcOps(f.ir("tfc"));
    check(ops == 50, "Compile50: expected 50 traced ops");
    st.counters["ops"] = ops;
  }
  for (auto _ : st) {
    auto f = makeFifty(int(st.range(0)));
    tfc::Tensor y = f(a.x, a.w, a.b);
    benchmark::DoNotOptimize(y.unsafe_impl());
    st.PauseTiming(); // Freeing the JIT'd module is not compile time.
    { auto dead = std::move(f); }
    st.ResumeTiming();
  }
}

/// Forward plus backward of `fifty`: a fresh function called under a tape
/// and differentiated (w.r.t. w and b), timed from trace to gradients. The
/// first recorded call compiles @f_fwd/@f_bwd/@f_vjp (tfc-vjp) besides the
/// forward, and the backward for the needed set. `Inside`: the tape inside
/// the function, one module with forward and backward (tfc-autodiff for
/// control flow; here straight-line code).
void BM_Compile50GradFirstCall(benchmark::State &st) {
  FiftyArgs a;
  auto gradient = [&](auto &f) {
    tfc::GradientTape tape;
    tape.watch(std::vector<tfc::Tensor>{a.w, a.b});
    tfc::Tensor loss = tfc::reduce_sum(f(a.x, a.w, a.b));
    return tape.gradient(loss, std::vector<tfc::Tensor>{a.w, a.b});
  };
  auto eagerFn = [](const auto &...t) { return fifty(t...); };
  std::vector<tfc::Tensor> want = gradient(eagerFn);
  {
    auto f = makeFifty(2);
    std::vector<tfc::Tensor> got = gradient(f);
    check(maxDiff(got[0], want[0]) < 1e-4f && maxDiff(got[1], want[1]) < 1e-4f,
          "Compile50Grad");
  }
  for (auto _ : st) {
    auto f = makeFifty(2);
    std::vector<tfc::Tensor> g = gradient(f);
    benchmark::DoNotOptimize(g[0].unsafe_impl());
    st.PauseTiming();
    { auto dead = std::move(f); }
    st.ResumeTiming();
  }
}

void BM_Compile50GradInsideFirstCall(benchmark::State &st) {
  FiftyArgs a;
  auto step = [](const tfc::Tensor &x, const tfc::Tensor &w,
                 const tfc::Tensor &b) {
    tfc::GradientTape tape;
    tape.watch(std::vector<tfc::Tensor>{w, b});
    tfc::Tensor loss = tfc::reduce_sum(fifty(x, w, b));
    return tape.gradient(loss, std::vector<tfc::Tensor>{w, b});
  };
  std::vector<tfc::Tensor> want = step(a.x, a.w, a.b);
  {
    auto f = tfc::function(step);
    std::vector<tfc::Tensor> got = f(a.x, a.w, a.b);
    check(maxDiff(got[0], want[0]) < 1e-4f && maxDiff(got[1], want[1]) < 1e-4f,
          "Compile50GradInside");
  }
  for (auto _ : st) {
    auto f = tfc::function(step);
    std::vector<tfc::Tensor> g = f(a.x, a.w, a.b);
    benchmark::DoNotOptimize(g[0].unsafe_impl());
    st.PauseTiming();
    { auto dead = std::move(f); }
    st.ResumeTiming();
  }
}

void BM_Compile50ElementwiseFirstCall(benchmark::State &st) {
  FiftyArgs a;
  tfc::Tensor w = tfc::random_uniform({4, 16}, -0.5, 0.5, 2);
  tfc::FunctionOptions options;
  options.opt_level = int(st.range(0));
  {
    auto f = tfc::function(fiftyElementwise, options);
    check(maxDiff(f(a.x, w, a.b), fiftyElementwise(a.x, w, a.b)) < 1e-5f,
          "Compile50Elementwise");
    int ops = countTfcOps(f.ir("tfc"));
    check(ops == 50, "Compile50Elementwise: expected 50 traced ops");
    st.counters["ops"] = ops;
  }
  for (auto _ : st) {
    auto f = tfc::function(fiftyElementwise, options);
    tfc::Tensor y = f(a.x, w, a.b);
    benchmark::DoNotOptimize(y.unsafe_impl());
    st.PauseTiming();
    { auto dead = std::move(f); }
    st.ResumeTiming();
  }
}

void BM_Compile50DistinctFirstCall(benchmark::State &st) {
  FiftyArgs a;
  tfc::FunctionOptions options;
  options.opt_level = int(st.range(0));
  {
    auto f = tfc::function(fiftyDistinct, options);
    check(maxDiff(f(a.x, a.w, a.b), fiftyDistinct(a.x, a.w, a.b)) < 1e-5f,
          "Compile50Distinct");
    int ops = countTfcOps(f.ir("tfc"));
    check(ops == 50, "Compile50Distinct: expected 50 traced ops");
    st.counters["ops"] = ops;
  }
  for (auto _ : st) {
    auto f = tfc::function(fiftyDistinct, options);
    tfc::Tensor y = f(a.x, a.w, a.b);
    benchmark::DoNotOptimize(y.unsafe_impl());
    st.PauseTiming();
    { auto dead = std::move(f); }
    st.ResumeTiming();
  }
}

void BM_Compile50FromSource(benchmark::State &st) {
  FiftyArgs a;
  auto f = makeFifty(2);
  tfc::Tensor expect = f(a.x, a.w, a.b);
  std::string text = f.ir("tfc");
  tfc::jit::CompileOptions options;
  options.opt_level = int(st.range(0));
  {
    auto m = tfc::jit::CompiledModule::from_source(text, options);
    check(maxDiff(m.call(m.functions().at(0), {a.x, a.w, a.b}).at(0), expect) <
              1e-6f,
          "Compile50FromSource");
  }
  for (auto _ : st) {
    auto m = tfc::jit::CompiledModule::from_source(text, options);
    benchmark::DoNotOptimize(&m);
    st.PauseTiming();
    { auto dead = std::move(m); }
    st.ResumeTiming();
  }
}

void BM_Compile50Cached(benchmark::State &st) {
  FiftyArgs a;
  auto f = makeFifty(2);
  check(maxDiff(f(a.x, a.w, a.b), fifty(a.x, a.w, a.b)) < 1e-5f,
        "Compile50Cached");
  for (auto _ : st) {
    tfc::Tensor y = f(a.x, a.w, a.b);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
  check(f.tracing_count() == 1, "Compile50Cached retraced");
}

void BM_Compile50Eager(benchmark::State &st) {
  FiftyArgs a;
  for (auto _ : st) {
    tfc::Tensor y = fifty(a.x, a.w, a.b);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
}

//===----------------------------------------------------------------------===//
// Cached-call overhead
//===----------------------------------------------------------------------===//

tfc::Tensor addFn(const tfc::Tensor &a, const tfc::Tensor &b) { return a + b; }

/// Five elementwise ops (fused into one loop by the compiler).
tfc::Tensor small5(const tfc::Tensor &a, const tfc::Tensor &b) {
  return tfc::tanh(a * b + a) * b - a;
}

void BM_CallCompiled(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::full({n}, 1.5), b = tfc::full({n}, 2.5);
  auto f = tfc::function(addFn);
  check(f(a, b).to_vector<float>()[n - 1] == 4.f, "CallCompiled");
  for (auto _ : st) {
    tfc::Tensor c = f(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
  check(f.tracing_count() == 1, "CallCompiled retraced");
}

void BM_CallModule(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::full({n}, 1.5), b = tfc::full({n}, 2.5);
  auto f = tfc::function(addFn);
  f(a, b);
  auto m = tfc::jit::CompiledModule::from_source(f.ir("tfc"));
  std::string name = m.functions().at(0);
  std::vector<tfc::Tensor> args{a, b};
  check(m.call(name, args).at(0).to_vector<float>()[n - 1] == 4.f,
        "CallModule");
  for (auto _ : st) {
    std::vector<tfc::Tensor> c = m.call(name, args);
    benchmark::DoNotOptimize(c.data());
  }
}

void BM_CallEager(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::full({n}, 1.5), b = tfc::full({n}, 2.5);
  for (auto _ : st) {
    tfc::Tensor c = addFn(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
}

void BM_Small5Compiled(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::full({n}, 0.5), b = tfc::full({n}, -1.5);
  auto f = tfc::function(small5);
  check(maxDiff(f(a, b), small5(a, b)) < 1e-6f, "Small5Compiled");
  for (auto _ : st) {
    tfc::Tensor c = f(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
}

void BM_Small5Eager(benchmark::State &st) {
  int64_t n = st.range(0);
  tfc::Tensor a = tfc::full({n}, 0.5), b = tfc::full({n}, -1.5);
  for (auto _ : st) {
    tfc::Tensor c = small5(a, b);
    benchmark::DoNotOptimize(c.unsafe_impl());
  }
}

//===----------------------------------------------------------------------===//
// LSTM cell step
//===----------------------------------------------------------------------===//

struct Lstm {
  explicit Lstm(int64_t hidden, int64_t batch = 1)
      : x(tfc::random_uniform({batch, hidden}, -1, 1, 1)),
        h(tfc::random_uniform({batch, hidden}, -1, 1, 2)),
        c(tfc::random_uniform({batch, hidden}, -1, 1, 3)),
        wx(tfc::random_uniform({hidden, 4 * hidden}, -0.1, 0.1, 4)),
        wh(tfc::random_uniform({hidden, 4 * hidden}, -0.1, 0.1, 5)),
        b(tfc::random_uniform({4 * hidden}, -0.1, 0.1, 6)) {}
  tfc::Tensor x, h, c, wx, wh, b;
};

auto makeLstmFn() { return tfc::function(lstmStep); }

void checkLstm(const Lstm &m, decltype(makeLstmFn()) &f) {
  auto [he, ce] = lstmStep(m.x, m.h, m.c, m.wx, m.wh, m.b);
  auto [hc, cc] = f(m.x, m.h, m.c, m.wx, m.wh, m.b);
  check(maxDiff(he, hc) < 1e-5f && maxDiff(ce, cc) < 1e-5f, "Lstm");
}

void BM_LstmCompiled(benchmark::State &st) {
  Lstm m(st.range(0));
  auto f = makeLstmFn();
  checkLstm(m, f);
  for (auto _ : st) {
    auto hc = f(m.x, m.h, m.c, m.wx, m.wh, m.b);
    benchmark::DoNotOptimize(hc.first.unsafe_impl());
  }
  check(f.tracing_count() == 1, "LstmCompiled retraced");
}

void BM_LstmEager(benchmark::State &st) {
  Lstm m(st.range(0));
  for (auto _ : st) {
    auto hc = lstmStep(m.x, m.h, m.c, m.wx, m.wh, m.b);
    benchmark::DoNotOptimize(hc.first.unsafe_impl());
  }
}

/// One training-style step of the cell under a GradientTape: forward, then
/// the gradient of sum(h) + sum(c) with respect to the weights. Compiled:
/// the tape records the compiled call and runs its compiled VJP (@f_fwd
/// keeps the residuals, @f_bwd); eager: the tape records every op.
template <class Step>
std::vector<tfc::Tensor> lstmGradient(const Lstm &m, Step &step) {
  tfc::GradientTape tape;
  tape.watch(std::vector<tfc::Tensor>{m.wx, m.wh, m.b});
  auto [h, c] = step(m.x, m.h, m.c, m.wx, m.wh, m.b);
  tfc::Tensor loss = tfc::reduce_sum(h) + tfc::reduce_sum(c);
  return tape.gradient(loss, std::vector<tfc::Tensor>{m.wx, m.wh, m.b});
}

void BM_LstmGradCompiled(benchmark::State &st) {
  Lstm m(st.range(0), st.range(1));
  auto f = makeLstmFn();
  auto eager = [](const auto &...a) { return lstmStep(a...); };
  std::vector<tfc::Tensor> want = lstmGradient(m, eager);
  std::vector<tfc::Tensor> got = lstmGradient(m, f);
  for (size_t i = 0; i < want.size(); ++i)
    check(maxDiff(want[i], got[i]) < 1e-5f, "LstmGradCompiled");
  for (auto _ : st) {
    std::vector<tfc::Tensor> g = lstmGradient(m, f);
    benchmark::DoNotOptimize(g[0].unsafe_impl());
  }
  check(f.tracing_count() == 1, "LstmGradCompiled retraced");
}

void BM_LstmGradEager(benchmark::State &st) {
  Lstm m(st.range(0), st.range(1));
  auto eager = [](const auto &...a) { return lstmStep(a...); };
  for (auto _ : st) {
    std::vector<tfc::Tensor> g = lstmGradient(m, eager);
    benchmark::DoNotOptimize(g[0].unsafe_impl());
  }
}

/// The reference of the compiled-call gradient: the same step with the tape
/// inside the compiled function (the backward traced into it).
void BM_LstmGradInside(benchmark::State &st) {
  Lstm m(st.range(0), st.range(1));
  auto step = tfc::function([](const tfc::Tensor &x, const tfc::Tensor &h,
                               const tfc::Tensor &c, const tfc::Tensor &wx,
                               const tfc::Tensor &wh, const tfc::Tensor &b) {
    tfc::GradientTape tape;
    tape.watch(std::vector<tfc::Tensor>{wx, wh, b});
    auto [h2, c2] = lstmStep(x, h, c, wx, wh, b);
    tfc::Tensor loss = tfc::reduce_sum(h2) + tfc::reduce_sum(c2);
    return tape.gradient(loss, std::vector<tfc::Tensor>{wx, wh, b});
  });
  auto eager = [](const auto &...a) { return lstmStep(a...); };
  std::vector<tfc::Tensor> want = lstmGradient(m, eager);
  std::vector<tfc::Tensor> got = step(m.x, m.h, m.c, m.wx, m.wh, m.b);
  for (size_t i = 0; i < want.size(); ++i)
    check(maxDiff(want[i], got[i]) < 1e-4f, "LstmGradInside");
  for (auto _ : st) {
    std::vector<tfc::Tensor> g = step(m.x, m.h, m.c, m.wx, m.wh, m.b);
    benchmark::DoNotOptimize(g[0].unsafe_impl());
  }
}

/// The floor of one LstmGrad step: its four GEMMs alone (x·Wx and h·Wh
/// forward, x^T·dgates and h^T·dgates for the weight gradients), as
/// OpenBLAS calls on preallocated buffers. Whatever runs the step also runs
/// these.
void BM_LstmGradGemms(benchmark::State &st) {
  const int hidden = int(st.range(0)), batch = int(st.range(1)),
            gates = 4 * hidden;
  std::vector<float> x(size_t(batch) * hidden, 0.5f),
      w(size_t(hidden) * gates, 0.01f), g(size_t(batch) * gates),
      dw(size_t(hidden) * gates);
  for (auto _ : st) {
    for (int k = 0; k < 2; ++k) // forward: (batch, hidden) x (hidden, 4h)
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, batch, gates,
                  hidden, 1.0f, x.data(), hidden, w.data(), gates, 0.0f,
                  g.data(), gates);
    for (int k = 0; k < 2; ++k) // backward: (hidden, batch) x (batch, 4h)
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, hidden, gates, batch,
                  1.0f, x.data(), hidden, g.data(), gates, 0.0f, dw.data(),
                  gates);
    benchmark::DoNotOptimize(dw.data());
  }
  st.counters["GFLOP/s"] =
      benchmark::Counter(8.0 * batch * hidden * gates * double(st.iterations()),
                         benchmark::Counter::kIsRate);
}

/// The LSTM's matmul alone: (1, hidden) x (hidden, 4 hidden).
tfc::Tensor matvec(const tfc::Tensor &x, const tfc::Tensor &w) {
  return tfc::matmul(x, w);
}

void BM_MatvecCompiled(benchmark::State &st) {
  Lstm m(st.range(0));
  auto f = tfc::function(matvec);
  check(maxDiff(f(m.x, m.wx), matvec(m.x, m.wx)) < 1e-5f, "MatvecCompiled");
  for (auto _ : st) {
    tfc::Tensor y = f(m.x, m.wx);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
}

void BM_MatvecEager(benchmark::State &st) {
  Lstm m(st.range(0));
  for (auto _ : st) {
    tfc::Tensor y = matvec(m.x, m.wx);
    benchmark::DoNotOptimize(y.unsafe_impl());
  }
}

//===----------------------------------------------------------------------===//
// --profile
//===----------------------------------------------------------------------===//

/// The region callgrind collects (--toggle-collect=tfcProfileRegion*).
template <class F>
[[gnu::noinline]] void tfcProfileRegionImpl(F &&step, long steps) {
  for (long i = 0; i < steps; ++i)
    step();
}
extern "C" [[gnu::noinline]] void tfcProfileRegion(void (*step)(void *),
                                                   void *ctx, long steps) {
  tfcProfileRegionImpl([&] { step(ctx); }, steps);
}

int profile(const char *spec) {
  std::string s = spec;
  size_t colon = s.find(':');
  std::string what = s.substr(0, colon);
  long steps =
      colon == std::string::npos ? 10000 : std::atol(s.c_str() + colon + 1);
  if (what == "lstm32" || what == "lstm256") {
    Lstm m(what == "lstm32" ? 32 : 256);
    auto f = makeLstmFn();
    checkLstm(m, f);
    using Fn = decltype(f);
    struct Ctx {
      Lstm *m;
      Fn *fn;
    } ctx{&m, &f};
    tfcProfileRegion(
        [](void *p) {
          auto *c = static_cast<Ctx *>(p);
          auto hc =
              (*c->fn)(c->m->x, c->m->h, c->m->c, c->m->wx, c->m->wh, c->m->b);
          benchmark::DoNotOptimize(hc.first.unsafe_impl());
        },
        &ctx, steps);
  } else if (what == "add") {
    tfc::Tensor a = tfc::full({1}, 1.5), b = tfc::full({1}, 2.5);
    auto f = tfc::function(addFn);
    f(a, b);
    using Fn = decltype(f);
    struct Ctx {
      tfc::Tensor *a, *b;
      Fn *fn;
    } ctx{&a, &b, &f};
    tfcProfileRegion(
        [](void *p) {
          auto *c = static_cast<Ctx *>(p);
          tfc::Tensor r = (*c->fn)(*c->a, *c->b);
          benchmark::DoNotOptimize(r.unsafe_impl());
        },
        &ctx, steps);
  } else if (what == "fifty") {
    FiftyArgs a;
    auto f = makeFifty(2);
    f(a.x, a.w, a.b);
    using Fn = decltype(f);
    struct Ctx {
      FiftyArgs *a;
      Fn *fn;
    } ctx{&a, &f};
    tfcProfileRegion(
        [](void *p) {
          auto *c = static_cast<Ctx *>(p);
          tfc::Tensor r = (*c->fn)(c->a->x, c->a->w, c->a->b);
          benchmark::DoNotOptimize(r.unsafe_impl());
        },
        &ctx, steps);
  } else {
    std::fprintf(stderr, "--profile=lstm32|lstm256|add|fifty[:STEPS]\n");
    return 2;
  }
  return 0;
}

} // namespace

// Timed in CPU time: on this shared machine wall time also counts waiting for
// a core, and everything here but the eager hidden-256 matmuls runs on one
// thread. The hidden-256 LSTM pair is timed in real time as OpenBLAS may use
// both cores there.
BENCHMARK(BM_Compile50FirstCall)
    ->Name("Compile50/FirstCall")
    ->Arg(0)
    ->Arg(1)
    ->Arg(2)
    ->Arg(3)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compile50GradFirstCall)
    ->Name("Compile50Grad/FirstCall/2")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compile50GradInsideFirstCall)
    ->Name("Compile50Grad/InsideFirstCall/2")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compile50ElementwiseFirstCall)
    ->Name("Compile50Elementwise/FirstCall")
    ->Arg(0)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compile50DistinctFirstCall)
    ->Name("Compile50Distinct/FirstCall")
    ->Arg(0)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compile50FromSource)
    ->Name("Compile50/FromSource")
    ->Arg(0)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compile50Cached)->Name("Compile50/Cached");
BENCHMARK(BM_Compile50Eager)->Name("Compile50/Eager");
BENCHMARK(BM_CallCompiled)->Name("Call/Compiled")->Arg(1)->Arg(100);
BENCHMARK(BM_CallModule)->Name("Call/Module")->Arg(1)->Arg(100);
BENCHMARK(BM_CallEager)->Name("Call/Eager")->Arg(1)->Arg(100);
BENCHMARK(BM_Small5Compiled)->Name("Small5/Compiled")->Arg(4);
BENCHMARK(BM_Small5Eager)->Name("Small5/Eager")->Arg(4);
BENCHMARK(BM_LstmCompiled)->Name("Lstm/Compiled")->Arg(32);
BENCHMARK(BM_LstmEager)->Name("Lstm/Eager")->Arg(32);
BENCHMARK(BM_MatvecCompiled)->Name("Matvec/Compiled")->Arg(32);
BENCHMARK(BM_MatvecEager)->Name("Matvec/Eager")->Arg(32);
BENCHMARK(BM_LstmGradCompiled)->Name("LstmGrad/Compiled")->Args({32, 1});
BENCHMARK(BM_LstmGradEager)->Name("LstmGrad/Eager")->Args({32, 1});
BENCHMARK(BM_LstmGradInside)->Name("LstmGrad/Inside")->Args({32, 1});
BENCHMARK(BM_LstmCompiled)->Name("Lstm/Compiled")->Arg(256)->UseRealTime();
BENCHMARK(BM_LstmEager)->Name("Lstm/Eager")->Arg(256)->UseRealTime();
BENCHMARK(BM_MatvecCompiled)->Name("Matvec/Compiled")->Arg(256)->UseRealTime();
BENCHMARK(BM_MatvecEager)->Name("Matvec/Eager")->Arg(256)->UseRealTime();
// hidden 256, batch 1 and 64.
BENCHMARK(BM_LstmGradCompiled)
    ->Name("LstmGrad/Compiled")
    ->Args({256, 1})
    ->Args({256, 64})
    ->UseRealTime();
BENCHMARK(BM_LstmGradEager)
    ->Name("LstmGrad/Eager")
    ->Args({256, 1})
    ->Args({256, 64})
    ->UseRealTime();
BENCHMARK(BM_LstmGradInside)
    ->Name("LstmGrad/Inside")
    ->Args({256, 1})
    ->Args({256, 64})
    ->UseRealTime();
BENCHMARK(BM_LstmGradGemms)
    ->Name("LstmGrad/GemmsAlone")
    ->Args({256, 1})
    ->Args({256, 64})
    ->UseRealTime();

int main(int argc, char **argv) {
  // Compile-time cases must compile: with the persistent cache on (the
  // default), every call after the first would load object code instead.
  // A TFC_CACHE_DIR set by the user wins (bench_compile_cache measures it).
  setenv("TFC_CACHE_DIR", "", /*overwrite=*/0);
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--profile=", 10) == 0)
      return profile(argv[i] + 10);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
