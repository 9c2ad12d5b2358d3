//===- demo.cpp - The main demo: eager, traced, trained -------------------===//
//
//   tfc-demo [--epochs=N] [--data=DIR]
//
// The story a TensorFlow user knows, in C++:
// 1. Eager ops run at once; a GradientTape records them.
// 2. tfc::function traces C++ (Collatz of 27 with while_loop / cond) into
//    one tfc.while / tfc.if program, JIT-compiles it and prints its IR;
//    an LSTM cell step eager versus compiled, timed.
// 3. Keras-style training: the MLP 784-256-128-10 on Fashion-MNIST (the
//    Debian package dataset-fashion-mnist) for a short run (3 epochs unless
//    --epochs) with the progress bar, then its test accuracy.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>

using namespace tfc;

namespace {
/// Best of `reps` batches of `iters` calls, in us.
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

void eager() {
  std::cout << "== 1. Eager ops ==\n";
  std::cout << matmul(constant({{2.f}}), constant({{2.f}})) << "\n";
  Variable w(constant({1.f, 2.f, 3.f}), "w");
  GradientTape tape;
  Tensor loss = reduce_sum(w * w * w);
  std::cout << "d/dw sum(w^3) at w = [1, 2, 3]: " << tape.gradient(loss, w)
            << "\n\n";
}

void traced() {
  std::cout << "== 2. A traced function: Collatz(27) with while_loop and "
               "cond ==\n";
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

  std::cout << "-- LSTM cell step, batch 1, hidden 32: eager vs compiled --\n";
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
              "speed-up: %8.1fx\n\n",
              eagerUs, compiledUs, eagerUs / compiledUs);
  std::fflush(stdout);
}

/// Trains the MLP; returns its test accuracy.
double trainMlp(int64_t epochs, const std::string &dir) {
  using namespace tfc::keras;
  std::cout << "== 3. Training: an MLP on Fashion-MNIST ==\n";
  auto t0 = std::chrono::steady_clock::now();
  auto [train, test] = datasets::fashion_mnist::load_data(dir);
  Tensor xTrain = cast(train.first, DType::Float32) / 255.0f;
  Tensor xTest = cast(test.first, DType::Float32) / 255.0f;

  set_random_seed(42);
  Model model = Sequential(
      {layers::Flatten(), layers::Dense(256, {.activation = "relu"}),
       layers::Dense(128, {.activation = "relu"}), layers::Dense(10)},
      "mlp");
  model.compile(
      {.optimizer = optimizers::Adam({.learning_rate = 1e-3}),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
       .metrics = {"accuracy"}});
  model.build({-1, 28, 28});
  std::cout << model.summary() << std::flush;

  // The train step (forward, loss, gradients, Adam, metrics) is one
  // compiled tfc::function; the bar is live on a terminal, one line an
  // epoch otherwise.
  model.fit(xTrain, train.second,
            {.batch_size = 128, .epochs = epochs, .verbose = 1, .seed = 42});
  auto res = model.evaluate(xTest, test.second, 256);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  std::printf("test loss %.4f, test accuracy %.4f (%lld epochs, %.1f s "
              "with loading and compiling)\n",
              res["loss"], res["accuracy"], static_cast<long long>(epochs),
              seconds);
  return res["accuracy"];
}
} // namespace

int main(int argc, char **argv) {
  int64_t epochs = 3;
  std::string dir;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--epochs=", 0) == 0 && a.size() > 9 &&
        a.find_first_not_of("0123456789", 9) == std::string::npos &&
        a.size() < 15)
      epochs = std::stoll(a.substr(9));
    else if (a.rfind("--data=", 0) == 0)
      dir = a.substr(7);
    else {
      std::fprintf(stderr, "usage: %s [--epochs=N] [--data=DIR]\n", argv[0]);
      return 2;
    }
  }
  try {
    eager();
    traced();
    trainMlp(epochs, dir);
  } catch (const Error &e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tfc-demo: %s\n", e.what());
    return 1;
  }
  return 0;
}
