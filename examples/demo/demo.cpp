//===- demo.cpp - The main demo: trace, compile, run ---------------------===//
//
// 1. Collatz of 27 with tfc::while_loop / tfc::cond, traced once into
//    tfc.while / tfc.if and JIT-compiled; prints the traced IR.
// 2. An LSTM cell step (batch 1, hidden 32), eager versus compiled, timed.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <chrono>
#include <cstdio>
#include <iostream>

using namespace tfc;

namespace {
/// Median-free simple timer: best of `reps` batches of `iters` calls, in us.
template <class F> double bestMicros(F &&f, int iters, int reps = 5) {
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i)
      f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best,
                    std::chrono::duration<double, std::micro>(t1 - t0).count() /
                        iters);
  }
  return best;
}

/// One LSTM step: gates = x @ Wx + h @ Wh + b; standard i, f, g, o gates.
std::pair<Tensor, Tensor> lstmStep(const Tensor &x, const Tensor &h,
                                   const Tensor &c, const Tensor &wx,
                                   const Tensor &wh, const Tensor &b,
                                   int64_t hidden) {
  Tensor gates = matmul(x, wx) + matmul(h, wh) + b;
  Tensor i = sigmoid(slice(gates, {0, 0}, {-1, hidden}));
  Tensor f = sigmoid(slice(gates, {0, hidden}, {-1, hidden}));
  Tensor g = tanh(slice(gates, {0, 2 * hidden}, {-1, hidden}));
  Tensor o = sigmoid(slice(gates, {0, 3 * hidden}, {-1, hidden}));
  Tensor c2 = f * c + i * g;
  Tensor h2 = o * tanh(c2);
  return {h2, c2};
}
} // namespace

int main() {
  std::cout << "== Collatz(27), traced with while_loop and cond ==\n";
  auto collatz = function([](const Tensor &n0) {
    auto out =
        while_loop([](const std::vector<Tensor> &v) { return v[0] != 1; },
                   [](const std::vector<Tensor> &v) {
                     Tensor n = v[0];
                     Tensor next = cond(
                         n % 2 == 0, [&] { return floor_div(n, 2); },
                         [&] { return 3 * n + 1; });
                     return std::vector<Tensor>{next, v[1] + 1};
                   },
                   {n0, constant(0)});
    return out[1];
  });
  std::cout << "steps: " << collatz(constant(27)) << "\n";
  std::cout << "steps for 97: " << collatz(constant(97)).item<int32_t>()
            << " (traces: " << collatz.tracing_count() << ")\n";
  std::cout << "-- traced tfc IR --\n" << collatz.ir("tfc") << "\n";

  std::cout << "== LSTM cell step, batch 1, hidden 32: eager vs compiled ==\n";
  const int64_t in = 32, hidden = 32;
  Tensor x = random_uniform({1, in}, -1, 1, 1);
  Tensor h = zeros({1, hidden}), c = zeros({1, hidden});
  Tensor wx = random_uniform({in, 4 * hidden}, -0.1, 0.1, 2);
  Tensor wh = random_uniform({hidden, 4 * hidden}, -0.1, 0.1, 3);
  Tensor b = zeros({4 * hidden});
  auto eagerStep = [&] { return lstmStep(x, h, c, wx, wh, b, hidden); };
  auto compiledStep =
      function([&](const Tensor &x, const Tensor &h, const Tensor &c) {
        return lstmStep(x, h, c, wx, wh, b, hidden);
      });
  auto [he, ce] = eagerStep();
  auto [hc, cc] = compiledStep(x, h, c);
  std::cout << "max |h_eager - h_compiled| = "
            << reduce_max(abs(he - hc)).item<float>() << "\n";
  double eagerUs = bestMicros([&] { eagerStep(); }, 2000);
  double compiledUs = bestMicros([&] { compiledStep(x, h, c); }, 2000);
  std::printf("eager:    %8.2f us/step\ncompiled: %8.2f us/step\n"
              "speed-up: %8.1fx\n",
              eagerUs, compiledUs, eagerUs / compiledUs);
  return 0;
}
