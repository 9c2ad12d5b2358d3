//===- bench_torch.cpp - libtorch's figures for the eager cases ----------===//
//
// Linked with bench_eager.cpp into tfc-bench-torch (built only when libtorch
// is found), so tfc's and libtorch's per-op costs come from one run:
//
//   build/bin/tfc-bench-torch --benchmark_filter='^(Add|Chain20)/'
//
//   Add/Torch{,NoGrad,Inference,Autograd,Script}/n      `a + b` on n floats
//   Chain20/Torch{,NoGrad,Inference,Autograd,Script}/n  the 20-op chain
//
// Torch: libtorch eager, grad mode on (its default), inputs not requiring
// grad. NoGrad: under torch::NoGradGuard. Inference: under
// c10::InferenceMode (libtorch's cheapest eager mode). Autograd: inputs require
// grad, so every op records a graph node (the graph is dropped each iteration).
// Script: a TorchScript function (torch::jit::compile) called with the same
// tensors, after warm-up calls so the profiling executor has optimised it.
//
//   Train/TorchStep, Train/TorchForward
//                  the MLP training step of bench_train.cpp (784-256-10,
//                  batch 64, cross entropy, backward, torch::optim::SGD) and
//                  its forward pass alone, from the same initial weights
//                  (train_data.h), on one intra-op thread.
// libtorch runs on 2 intra-op threads, like tfc. Single-threaded cases are
// timed in CPU time (as in bench_eager.cpp): on this shared machine wall
// time includes waiting for a core.
//
//===----------------------------------------------------------------------===//

#include <benchmark/benchmark.h>
#include <torch/jit.h>
#include <torch/torch.h>

#include "train_data.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

namespace {

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "bench_torch: wrong result in %s\n", what);
    std::abort();
  }
}

bool near(float a, float b) {
  return std::fabs(a - b) <= 1e-5f * (1.f + std::fabs(b));
}

void perOpCounter(benchmark::State &st, int ops) {
  st.counters["per_op"] = benchmark::Counter(
      double(ops), benchmark::Counter::kIsIterationInvariantRate |
                       benchmark::Counter::kInvert);
}

enum class Mode { Default, NoGrad, Inference, Autograd };

void setThreads() {
  static bool once = [] {
    torch::set_num_threads(2);
    return true;
  }();
  (void)once;
}

//===----------------------------------------------------------------------===//
// a + b
//===----------------------------------------------------------------------===//

void addBench(benchmark::State &st, Mode mode) {
  setThreads();
  int64_t n = st.range(0);
  auto opts = torch::TensorOptions()
                  .dtype(torch::kFloat32)
                  .requires_grad(mode == Mode::Autograd);
  torch::Tensor a = torch::full({n}, 1.5, opts),
                b = torch::full({n}, 2.5, opts);
  std::unique_ptr<torch::NoGradGuard> guard;
  if (mode == Mode::NoGrad)
    guard = std::make_unique<torch::NoGradGuard>();
  std::unique_ptr<c10::InferenceMode> inference;
  if (mode == Mode::Inference)
    inference = std::make_unique<c10::InferenceMode>();
  {
    torch::Tensor c = a + b;
    check(near(c[n - 1].item<float>(), 4.f), "Add/Torch");
    check(c.requires_grad() == (mode == Mode::Autograd), "Add/Torch grad");
  }
  for (auto _ : st) {
    torch::Tensor c = a + b;
    benchmark::DoNotOptimize(c.unsafeGetTensorImpl());
  }
  perOpCounter(st, 1);
}

void BM_AddTorch(benchmark::State &st) { addBench(st, Mode::Default); }
void BM_AddTorchNoGrad(benchmark::State &st) { addBench(st, Mode::NoGrad); }
void BM_AddTorchInference(benchmark::State &st) {
  addBench(st, Mode::Inference);
}
void BM_AddTorchAutograd(benchmark::State &st) { addBench(st, Mode::Autograd); }

//===----------------------------------------------------------------------===//
// The 20-op chain (same ops as bench_eager.cpp's chainTfc)
//===----------------------------------------------------------------------===//

constexpr int kChainOps = 20;
constexpr float kX = 0.3f, kW = 0.7f, kB = -0.2f;

torch::Tensor chainTorch(const torch::Tensor &x, const torch::Tensor &w,
                         const torch::Tensor &b) {
  torch::Tensor y = x;
  for (int i = 0; i < kChainOps / 5; ++i)
    y = torch::sigmoid(torch::tanh(y * w + b) - w);
  return y;
}

float chainScalar(float x, float w, float b) {
  float y = x;
  for (int i = 0; i < kChainOps / 5; ++i)
    y = 1.f / (1.f + std::exp(-(std::tanh(y * w + b) - w)));
  return y;
}

void chainBench(benchmark::State &st, Mode mode) {
  setThreads();
  int64_t n = st.range(0);
  auto opts = torch::TensorOptions()
                  .dtype(torch::kFloat32)
                  .requires_grad(mode == Mode::Autograd);
  torch::Tensor x = torch::full({n}, kX, opts), w = torch::full({n}, kW, opts),
                b = torch::full({n}, kB, opts);
  std::unique_ptr<torch::NoGradGuard> guard;
  if (mode == Mode::NoGrad)
    guard = std::make_unique<torch::NoGradGuard>();
  std::unique_ptr<c10::InferenceMode> inference;
  if (mode == Mode::Inference)
    inference = std::make_unique<c10::InferenceMode>();
  check(near(chainTorch(x, w, b)[n - 1].item<float>(), chainScalar(kX, kW, kB)),
        "Chain20/Torch");
  for (auto _ : st) {
    torch::Tensor y = chainTorch(x, w, b);
    benchmark::DoNotOptimize(y.unsafeGetTensorImpl());
  }
  perOpCounter(st, kChainOps);
}

void BM_Chain20Torch(benchmark::State &st) { chainBench(st, Mode::Default); }
void BM_Chain20TorchNoGrad(benchmark::State &st) {
  chainBench(st, Mode::NoGrad);
}
void BM_Chain20TorchInference(benchmark::State &st) {
  chainBench(st, Mode::Inference);
}
void BM_Chain20TorchAutograd(benchmark::State &st) {
  chainBench(st, Mode::Autograd);
}

//===----------------------------------------------------------------------===//
// TorchScript
//===----------------------------------------------------------------------===//

const char *kScript = R"JIT(
def add(a, b):
    return a + b

def chain(x, w, b):
    y = torch.sigmoid(torch.tanh(x * w + b) - w)
    y = torch.sigmoid(torch.tanh(y * w + b) - w)
    y = torch.sigmoid(torch.tanh(y * w + b) - w)
    y = torch.sigmoid(torch.tanh(y * w + b) - w)
    return y
)JIT";

std::shared_ptr<torch::jit::CompilationUnit> scriptUnit() {
  static std::shared_ptr<torch::jit::CompilationUnit> cu =
      torch::jit::compile(kScript);
  return cu;
}

void BM_AddTorchScript(benchmark::State &st) {
  setThreads();
  int64_t n = st.range(0);
  torch::Tensor a = torch::full({n}, 1.5), b = torch::full({n}, 2.5);
  torch::jit::Function &fn = scriptUnit()->get_function("add");
  std::vector<torch::jit::IValue> args{a, b};
  for (int i = 0; i < 20; ++i) // Let the profiling executor optimise.
    fn(args);
  check(near(fn(args).toTensor()[n - 1].item<float>(), 4.f), "Add/TorchScript");
  for (auto _ : st) {
    torch::jit::IValue c = fn(args);
    benchmark::DoNotOptimize(&c);
  }
  perOpCounter(st, 1);
}

void BM_Chain20TorchScript(benchmark::State &st) {
  setThreads();
  int64_t n = st.range(0);
  torch::Tensor x = torch::full({n}, kX), w = torch::full({n}, kW),
                b = torch::full({n}, kB);
  torch::jit::Function &fn = scriptUnit()->get_function("chain");
  std::vector<torch::jit::IValue> args{x, w, b};
  for (int i = 0; i < 20; ++i)
    fn(args);
  check(near(fn(args).toTensor()[n - 1].item<float>(), chainScalar(kX, kW, kB)),
        "Chain20/TorchScript");
  for (auto _ : st) {
    torch::jit::IValue y = fn(args);
    benchmark::DoNotOptimize(&y);
  }
  perOpCounter(st, kChainOps);
}

//===----------------------------------------------------------------------===//
// MLP training step (bench_train.cpp's Train/* cases)
//===----------------------------------------------------------------------===//

torch::Tensor fromVector(std::vector<float> v, std::vector<int64_t> shape) {
  return torch::from_blob(v.data(), shape, torch::kFloat32).clone();
}

struct TorchMlp {
  torch::Tensor
      w1 = fromVector(train_data::w1(), {train_data::kIn, train_data::kHidden})
               .requires_grad_(),
      b1 = fromVector(train_data::b1(), {train_data::kHidden}).requires_grad_(),
      w2 = fromVector(train_data::w2(), {train_data::kHidden, train_data::kOut})
               .requires_grad_(),
      b2 = fromVector(train_data::b2(), {train_data::kOut}).requires_grad_();
  torch::Tensor x =
      fromVector(train_data::x(), {train_data::kBatch, train_data::kIn});
  torch::Tensor y = [] {
    std::vector<int64_t> l = train_data::labels();
    return torch::from_blob(l.data(), {train_data::kBatch}, torch::kInt64)
        .clone();
  }();

  torch::Tensor loss() const {
    torch::Tensor h = torch::relu(torch::matmul(x, w1) + b1);
    torch::Tensor logits = torch::matmul(h, w2) + b2;
    return torch::nn::functional::cross_entropy(logits, y); // Mean.
  }
};

void checkTorchFirstLoss(const torch::Tensor &l, const char *what) {
  double ref = train_data::referenceLoss();
  check(std::fabs(l.item<float>() - ref) <= 1e-4 * (1 + std::fabs(ref)), what);
}

void BM_TrainTorchStep(benchmark::State &st) {
  torch::set_num_threads(1);
  TorchMlp m;
  torch::optim::SGD sgd({m.w1, m.b1, m.w2, m.b2},
                        torch::optim::SGDOptions(train_data::kLearningRate));
  auto step = [&] {
    sgd.zero_grad();
    torch::Tensor l = m.loss();
    l.backward();
    sgd.step();
    return l;
  };
  checkTorchFirstLoss(step(), "Train/TorchStep");
  check(m.loss().item<float>() < train_data::referenceLoss(),
        "Train/TorchStep descends");
  for (auto _ : st) {
    torch::Tensor l = step();
    benchmark::DoNotOptimize(l.unsafeGetTensorImpl());
  }
}

void BM_TrainTorchForward(benchmark::State &st) {
  torch::set_num_threads(1);
  TorchMlp m;
  torch::NoGradGuard noGrad; // A forward pass for inference.
  checkTorchFirstLoss(m.loss(), "Train/TorchForward");
  for (auto _ : st) {
    torch::Tensor l = m.loss();
    benchmark::DoNotOptimize(l.unsafeGetTensorImpl());
  }
}

} // namespace

BENCHMARK(BM_TrainTorchStep)
    ->Name("Train/TorchStep")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TrainTorchForward)
    ->Name("Train/TorchForward")
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AddTorch)->Name("Add/Torch")->Arg(1)->Arg(100)->Arg(10000);
BENCHMARK(BM_AddTorchNoGrad)
    ->Name("Add/TorchNoGrad")
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000);
BENCHMARK(BM_AddTorchInference)
    ->Name("Add/TorchInference")
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000);
BENCHMARK(BM_AddTorchAutograd)
    ->Name("Add/TorchAutograd")
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000);
BENCHMARK(BM_AddTorchScript)
    ->Name("Add/TorchScript")
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000);
BENCHMARK(BM_Chain20Torch)->Name("Chain20/Torch")->Arg(1)->Arg(100);
BENCHMARK(BM_Chain20TorchNoGrad)->Name("Chain20/TorchNoGrad")->Arg(1)->Arg(100);
BENCHMARK(BM_Chain20TorchInference)
    ->Name("Chain20/TorchInference")
    ->Arg(1)
    ->Arg(100);
BENCHMARK(BM_Chain20TorchAutograd)
    ->Name("Chain20/TorchAutograd")
    ->Arg(1)
    ->Arg(100);
BENCHMARK(BM_Chain20TorchScript)->Name("Chain20/TorchScript")->Arg(1)->Arg(100);
