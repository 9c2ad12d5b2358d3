//===- bench_lstm.cpp - The LSTM cell step: tfc and the hand-fused step ---===//
//
// Linked into tfc-bench-fusion, and into tfc-bench-torch next to libtorch's
// step (bench_torch.cpp), so all the figures of one size come from one run:
//
//   LstmCell/Compiled/batch/hidden   the step in one tfc::function
//   LstmCell/Eager/batch/hidden      the same C++ function run op by op
//   LstmCell/HandFused/batch/hidden  ref::lstmStep (bench_fusion_ref.cpp):
//                                    two OpenBLAS sgemv (batch 1) or sgemm
//                                    calls, then one fused gate loop
//
// input = hidden; the step, its data and its double-precision reference are
// in lstm_data.h. Every case checks h' and c' against that reference before
// timing (reported as the max_abs_diff counter) and aborts if they differ by
// more than lstm_data::kTolerance. One thread: OpenMP, OpenBLAS and tfc's
// kernels are set to 1 thread, so the cases are timed in CPU time.
//
//===----------------------------------------------------------------------===//

#include "bench_fusion_ref.h"
#include "lstm_data.h"

#include "lstm_step.h"

#include <tfc/tfc.h>

#include <benchmark/benchmark.h>
#include <cblas.h>
#include <omp.h>

#include <cstdio>
#include <cstdlib>

namespace {

void setOneThread() {
  omp_set_num_threads(1);
  openblas_set_num_threads(1);
  tfc::kernels::set_num_threads(1);
}

/// Checks one implementation's h' and c' against lstm_data's reference.
void checkStep(benchmark::State &st, const lstm_data::Cell &m, const float *h,
               const float *c, const char *what) {
  float d = std::max(lstm_data::maxAbsDiff(h, m.hNext),
                     lstm_data::maxAbsDiff(c, m.cNext));
  if (!(d <= lstm_data::kTolerance)) {
    std::fprintf(stderr, "bench_lstm: %s/%lld/%lld: max |diff| %g\n", what,
                 (long long)m.batch, (long long)m.hidden, double(d));
    std::abort();
  }
  st.counters["max_abs_diff"] = d;
}


/// lstm_data's cell as tfc tensors.
struct TfcCell {
  explicit TfcCell(const benchmark::State &st)
      : m(lstm_data::make(st.range(0), st.range(1))),
        x(tfc::from_vector(m.x, {m.batch, m.input})),
        h(tfc::from_vector(m.h, {m.batch, m.hidden})),
        c(tfc::from_vector(m.c, {m.batch, m.hidden})),
        wx(tfc::from_vector(m.wx, {m.input, 4 * m.hidden})),
        wh(tfc::from_vector(m.wh, {m.hidden, 4 * m.hidden})),
        b(tfc::from_vector(m.b, {4 * m.hidden})) {}
  lstm_data::Cell m;
  tfc::Tensor x, h, c, wx, wh, b;
};

void BM_LstmCompiled(benchmark::State &st) {
  setOneThread();
  TfcCell t(st);
  auto f = tfc::function(lstmStep);
  {
    auto [h, c] = f(t.x, t.h, t.c, t.wx, t.wh, t.b);
    checkStep(st, t.m, h.data<float>(), c.data<float>(), "LstmCell/Compiled");
  }
  for (auto _ : st) {
    auto hc = f(t.x, t.h, t.c, t.wx, t.wh, t.b);
    benchmark::DoNotOptimize(hc.first.unsafe_impl());
    benchmark::DoNotOptimize(hc.second.unsafe_impl());
  }
}

void BM_LstmEager(benchmark::State &st) {
  setOneThread();
  TfcCell t(st);
  {
    auto [h, c] = lstmStep(t.x, t.h, t.c, t.wx, t.wh, t.b);
    checkStep(st, t.m, h.data<float>(), c.data<float>(), "LstmCell/Eager");
  }
  for (auto _ : st) {
    auto hc = lstmStep(t.x, t.h, t.c, t.wx, t.wh, t.b);
    benchmark::DoNotOptimize(hc.first.unsafe_impl());
    benchmark::DoNotOptimize(hc.second.unsafe_impl());
  }
}

void BM_LstmHandFused(benchmark::State &st) {
  setOneThread();
  lstm_data::Cell m = lstm_data::make(st.range(0), st.range(1));
  std::vector<float> gates(size_t(m.batch * 4 * m.hidden)),
      h(size_t(m.batch * m.hidden)), c(size_t(m.batch * m.hidden));
  auto run = [&] {
    ref::lstmStep(m.x.data(), m.h.data(), m.c.data(), m.wx.data(), m.wh.data(),
                  m.b.data(), gates.data(), h.data(), c.data(), m.batch,
                  m.input, m.hidden);
  };
  run();
  checkStep(st, m, h.data(), c.data(), "LstmCell/HandFused");
  for (auto _ : st) {
    run();
    benchmark::ClobberMemory();
  }
}

} // namespace

// Args: {batch, hidden}.
BENCHMARK(BM_LstmHandFused)
    ->Name("LstmCell/HandFused")
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LstmCompiled)
    ->Name("LstmCell/Compiled")
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LstmEager)
    ->Name("LstmCell/Eager")
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
