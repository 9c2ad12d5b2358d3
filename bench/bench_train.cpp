//===- bench_train.cpp - MLP training step, eager and compiled -----------===//
//
//   build/bin/tfc-bench-train [--benchmark_filter=...]
//   [--benchmark_repetitions=5]
//
// One SGD step of an MLP 784-256-10 on a batch of 64 float32 examples
// (issues 5 and 6, docs/performance.md "Training step"):
//
//   logits = relu(x @ W1 + b1) @ W2 + b2
//   loss   = mean(softmax_cross_entropy_with_logits(onehot(y), logits))
//   grads  = GradientTape.gradient(loss, {W1, b1, W2, b2})
//   W     -= 0.01 * grad   (Variable::assign_sub)
//
//   Train/EagerStep             the step run eagerly, op by op.
//   Train/CompiledStep          the whole step in one tfc::function (the tape
//                               inside it, so the backward pass is compiled).
//   Train/CompiledStepNoFuse    the same with FunctionOptions::fuse = false.
//   Train/EagerForward          logits and loss only, eagerly.
//   Train/CompiledForward       logits and loss only, compiled.
//   Train/CompiledForwardNoFuse the same with fuse = false.
//
// Every case trains its own copy of the model, so the variables change from
// iteration to iteration as in real training. Before timing, each checks its
// first loss against a double-precision reference (train_data.h) and the
// compiled step checks its updated weights against the eager step's. Linked
// into tfc-bench-torch too, next to libtorch's step (bench_torch.cpp).
// Timed in real time: OpenBLAS and compiled code may use both cores.
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include "train_data.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using namespace train_data;

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "bench_train: wrong result in %s\n", what);
    std::abort();
  }
}

/// Largest |a - b| over two float32 tensors of one shape.
float maxDiff(const tfc::Tensor &a, const tfc::Tensor &b) {
  check(a.shape() == b.shape(), "maxDiff shapes");
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  float m = 0;
  for (size_t i = 0; i < x.size(); ++i)
    m = std::max(m, std::fabs(x[i] - y[i]));
  return m;
}

/// The model's variables, initialised from train_data.h.
struct Mlp {
  tfc::Variable w1{tfc::from_vector(train_data::w1(), {kIn, kHidden}), "W1"};
  tfc::Variable b1{tfc::from_vector(train_data::b1(), {kHidden}), "b1"};
  tfc::Variable w2{tfc::from_vector(train_data::w2(), {kHidden, kOut}), "W2"};
  tfc::Variable b2{tfc::from_vector(train_data::b2(), {kOut}), "b2"};
};

struct Batch {
  tfc::Tensor x = tfc::from_vector(train_data::x(), {kBatch, kIn});
  tfc::Tensor y =
      tfc::one_hot(tfc::from_vector(train_data::labels(), {kBatch}), kOut);
};

tfc::Tensor loss(const Mlp &m, const tfc::Tensor &x, const tfc::Tensor &y) {
  tfc::Tensor h = tfc::relu(tfc::matmul(x, m.w1.value()) + m.b1.value());
  tfc::Tensor logits = tfc::matmul(h, m.w2.value()) + m.b2.value();
  return tfc::reduce_mean(tfc::softmax_cross_entropy_with_logits(y, logits));
}

/// The training step as a callable; `m` shares storage with the caller's
/// variables (Variable is a handle).
auto makeStep(Mlp m) {
  return [m](const tfc::Tensor &x, const tfc::Tensor &y) mutable {
    tfc::GradientTape tape;
    tfc::Tensor l = loss(m, x, y);
    std::vector<tfc::Tensor> g =
        tape.gradient(l, std::vector<tfc::Variable>{m.w1, m.b1, m.w2, m.b2});
    tfc::Variable vars[] = {m.w1, m.b1, m.w2, m.b2};
    for (int i = 0; i < 4; ++i)
      vars[i].assign_sub(g[size_t(i)] * kLearningRate);
    return l;
  };
}

auto makeForward(Mlp m) {
  return
      [m](const tfc::Tensor &x, const tfc::Tensor &y) { return loss(m, x, y); };
}

void checkFirstLoss(const tfc::Tensor &l, const char *what) {
  static const double ref = referenceLoss();
  check(std::fabs(l.item<float>() - ref) <= 1e-4 * (1 + std::fabs(ref)), what);
}

/// The compiled step (with `options`) against the eager step: same losses
/// and same weights after two steps from the same start.
void checkCompiledStep(const tfc::FunctionOptions &options, const Batch &b,
                       const char *what) {
  Mlp eagerModel, compiledModel;
  auto eager = makeStep(eagerModel);
  auto compiled = tfc::function(makeStep(compiledModel), options);
  for (int i = 0; i < 2; ++i) {
    tfc::Tensor le = eager(b.x, b.y), lc = compiled(b.x, b.y);
    if (i == 0)
      checkFirstLoss(lc, what);
    check(std::fabs(le.item<float>() - lc.item<float>()) <= 1e-5f, what);
  }
  check(maxDiff(eagerModel.w1.value(), compiledModel.w1.value()) <= 1e-5f,
        what);
  check(maxDiff(eagerModel.b1.value(), compiledModel.b1.value()) <= 1e-5f,
        what);
  check(maxDiff(eagerModel.w2.value(), compiledModel.w2.value()) <= 1e-5f,
        what);
  check(maxDiff(eagerModel.b2.value(), compiledModel.b2.value()) <= 1e-5f,
        what);
  check(compiled.tracing_count() == 1, what);
}

void BM_EagerStep(benchmark::State &st) {
  Batch b;
  Mlp m;
  auto step = makeStep(m);
  checkFirstLoss(step(b.x, b.y), "Train/EagerStep");
  for (auto _ : st) {
    tfc::Tensor l = step(b.x, b.y);
    benchmark::DoNotOptimize(l.unsafe_impl());
  }
}

void compiledStepBench(benchmark::State &st, bool fuse) {
  Batch b;
  tfc::FunctionOptions options;
  options.fuse = fuse;
  checkCompiledStep(options, b, fuse ? "Train/CompiledStep" : "NoFuse");
  Mlp m;
  auto step = tfc::function(makeStep(m), options);
  step(b.x, b.y); // Trace and compile outside the timed loop.
  for (auto _ : st) {
    tfc::Tensor l = step(b.x, b.y);
    benchmark::DoNotOptimize(l.unsafe_impl());
  }
  check(std::isfinite(step(b.x, b.y).item<float>()), "step stays finite");
}

void BM_CompiledStep(benchmark::State &st) { compiledStepBench(st, true); }
void BM_CompiledStepNoFuse(benchmark::State &st) {
  compiledStepBench(st, false);
}

void BM_EagerForward(benchmark::State &st) {
  Batch b;
  Mlp m;
  auto forward = makeForward(m);
  checkFirstLoss(forward(b.x, b.y), "Train/EagerForward");
  for (auto _ : st) {
    tfc::Tensor l = forward(b.x, b.y);
    benchmark::DoNotOptimize(l.unsafe_impl());
  }
}

void compiledForwardBench(benchmark::State &st, bool fuse) {
  Batch b;
  tfc::FunctionOptions options;
  options.fuse = fuse;
  Mlp m;
  auto forward = tfc::function(makeForward(m), options);
  checkFirstLoss(forward(b.x, b.y), "Train/CompiledForward");
  for (auto _ : st) {
    tfc::Tensor l = forward(b.x, b.y);
    benchmark::DoNotOptimize(l.unsafe_impl());
  }
}

void BM_CompiledForward(benchmark::State &st) {
  compiledForwardBench(st, true);
}
void BM_CompiledForwardNoFuse(benchmark::State &st) {
  compiledForwardBench(st, false);
}

} // namespace

BENCHMARK(BM_EagerStep)
    ->Name("Train/EagerStep")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompiledStep)
    ->Name("Train/CompiledStep")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompiledStepNoFuse)
    ->Name("Train/CompiledStepNoFuse")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EagerForward)
    ->Name("Train/EagerForward")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompiledForward)
    ->Name("Train/CompiledForward")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompiledForwardNoFuse)
    ->Name("Train/CompiledForwardNoFuse")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
