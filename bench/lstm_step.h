//===- lstm_step.h - The LSTM cell step in tfc ops, for the benchmarks ----===//
//
// One definition for every benchmark that traces or runs the step
// (bench_jit, bench_compile_cache, bench_lstm); the hand-written reference
// is ref::lstmStep in bench_fusion_ref.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_LSTM_STEP_H
#define TFC_BENCH_LSTM_STEP_H

#include <tfc/tfc.h>

#include <utility>

/// gates = x @ Wx + h @ Wh + b; i, f, g, o; c' = f*c + i*g; h' = o*tanh(c').
inline std::pair<tfc::Tensor, tfc::Tensor>
lstmStep(const tfc::Tensor &x, const tfc::Tensor &h, const tfc::Tensor &c,
         const tfc::Tensor &wx, const tfc::Tensor &wh, const tfc::Tensor &b) {
  int64_t hidden = h.shape()[1];
  tfc::Tensor gates = tfc::matmul(x, wx) + tfc::matmul(h, wh) + b;
  tfc::Tensor i = tfc::sigmoid(tfc::slice(gates, {0, 0}, {-1, hidden}));
  tfc::Tensor f = tfc::sigmoid(tfc::slice(gates, {0, hidden}, {-1, hidden}));
  tfc::Tensor g = tfc::tanh(tfc::slice(gates, {0, 2 * hidden}, {-1, hidden}));
  tfc::Tensor o =
      tfc::sigmoid(tfc::slice(gates, {0, 3 * hidden}, {-1, hidden}));
  tfc::Tensor c2 = f * c + i * g;
  return {o * tfc::tanh(c2), c2};
}

#endif // TFC_BENCH_LSTM_STEP_H
