//===- lstm_data.h - The LSTM cell step's data and reference ----*- C++ -*-===//
//
// One LSTM cell step, input = hidden:
//
//   gates      = x @ Wx + h @ Wh + b        (batch, 4 hidden)
//   i, f, g, o = the four hidden-wide column blocks of gates, in that order
//   c'         = sigmoid(f) * c + sigmoid(i) * tanh(g)
//   h'         = sigmoid(o) * tanh(c')
//
// bench_lstm.cpp (tfc compiled, tfc eager, the hand-fused reference of
// bench_fusion_ref.cpp) and bench_torch.cpp (libtorch eager, TorchScript)
// start from the same floats (a plain LCG, no library RNG), and each checks
// its h' and c' against the double-precision step here before timing. Plain
// C++: bench_torch.cpp, which cannot include tfc's headers, uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_LSTM_DATA_H
#define TFC_BENCH_LSTM_DATA_H

#include "train_data.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace lstm_data {

/// Largest |difference| allowed between any implementation's h' or c' and
/// the double-precision reference (|h'|, |c'| < 2 here; the f32 matmuls sum
/// up to 512 products, and tfc's compiled tanh is a polynomial within 4 ulp).
/// All five implementations measured within 7e-7.
constexpr float kTolerance = 1e-5f;

/// The inputs of one step (row-major) and its double-precision result.
struct Cell {
  int64_t batch, input, hidden;
  std::vector<float> x;     // (batch, input)
  std::vector<float> h, c;  // (batch, hidden)
  std::vector<float> wx;    // (input, 4 hidden)
  std::vector<float> wh;    // (hidden, 4 hidden)
  std::vector<float> b;     // (4 hidden)
  std::vector<float> hNext; // (batch, hidden): the reference h'
  std::vector<float> cNext; // (batch, hidden): the reference c'
};

inline double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

/// The cell for `batch` rows with input = hidden, and its reference step.
inline Cell make(int64_t batch, int64_t hidden) {
  int64_t input = hidden, g4 = 4 * hidden;
  Cell m{batch,
         input,
         hidden,
         train_data::uniform(batch * input, 101, 1.f),
         train_data::uniform(batch * hidden, 102, 1.f),
         train_data::uniform(batch * hidden, 103, 1.f),
         train_data::uniform(input * g4, 104, 0.1f),
         train_data::uniform(hidden * g4, 105, 0.1f),
         train_data::uniform(g4, 106, 0.1f),
         std::vector<float>(size_t(batch * hidden)),
         std::vector<float>(size_t(batch * hidden))};
  std::vector<double> gates(static_cast<size_t>(g4));
  for (int64_t r = 0; r < batch; ++r) {
    for (int64_t j = 0; j < g4; ++j)
      gates[size_t(j)] = m.b[size_t(j)];
    for (int64_t k = 0; k < input; ++k) {
      double xv = m.x[size_t(r * input + k)];
      for (int64_t j = 0; j < g4; ++j)
        gates[size_t(j)] += xv * m.wx[size_t(k * g4 + j)];
    }
    for (int64_t k = 0; k < hidden; ++k) {
      double hv = m.h[size_t(r * hidden + k)];
      for (int64_t j = 0; j < g4; ++j)
        gates[size_t(j)] += hv * m.wh[size_t(k * g4 + j)];
    }
    for (int64_t j = 0; j < hidden; ++j) {
      double i = sigmoid(gates[size_t(j)]);
      double f = sigmoid(gates[size_t(hidden + j)]);
      double g = std::tanh(gates[size_t(2 * hidden + j)]);
      double o = sigmoid(gates[size_t(3 * hidden + j)]);
      double c2 = f * m.c[size_t(r * hidden + j)] + i * g;
      m.cNext[size_t(r * hidden + j)] = float(c2);
      m.hNext[size_t(r * hidden + j)] = float(o * std::tanh(c2));
    }
  }
  return m;
}

/// max |a[i] - ref[i]| over ref.size() elements; infinity if any is NaN.
inline float maxAbsDiff(const float *a, const std::vector<float> &ref) {
  float d = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    float e = std::fabs(a[i] - ref[i]);
    if (std::isnan(e))
      return INFINITY;
    d = std::max(d, e);
  }
  return d;
}

} // namespace lstm_data

#endif // TFC_BENCH_LSTM_DATA_H
