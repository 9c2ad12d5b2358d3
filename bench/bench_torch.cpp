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
//   LstmCell/{Torch,TorchInference,TorchLstmCell,TorchScript}/batch/hidden
//                  the LSTM cell step of bench_lstm.cpp (lstm_data.h: the
//                  same floats, checked against the same double-precision
//                  reference) next to tfc's compiled, eager and hand-fused
//                  step, on one thread (torch::set_num_threads(1) and
//                  openblas_set_num_threads(1)), timed in CPU time. Torch:
//                  two addmm, chunk(4, 1), sigmoid / tanh and the cell
//                  arithmetic, grad mode on (libtorch's default), inputs
//                  not requiring grad; TorchInference: the same under
//                  c10::InferenceMode; TorchMv (batch 1 only): the same
//                  with 1-D x, h and torch::addmv (BLAS gemv, as the
//                  hand-fused step uses) instead of addmm (sgemm with one
//                  row); TorchLstmCell: libtorch's own
//                  torch::lstm_cell (its weights transposed, as it wants
//                  them), under InferenceMode; TorchScript: the same code as
//                  Torch through torch::jit::compile, after warm-up calls.
// libtorch runs on 2 intra-op threads, like tfc (the LSTM cases: 1).
// Single-threaded cases are timed in CPU time (as in bench_eager.cpp): on this
// shared machine wall time includes waiting for a core.
//
//===----------------------------------------------------------------------===//

#include <benchmark/benchmark.h>
#include <torch/jit.h>
#include <torch/torch.h>

#include "lstm_data.h"
#include "train_data.h"

#include <cblas.h>

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

// Every case sets its thread count (the LSTM and training cases use 1).
void setThreads() {
  if (torch::get_num_threads() != 2)
    torch::set_num_threads(2);
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

def lstm(x, h, c, wx, wh, b):
    gates = torch.addmm(torch.addmm(b, x, wx), h, wh)
    i, f, g, o = gates.chunk(4, 1)
    c2 = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c2), c2

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

//===----------------------------------------------------------------------===//
// LSTM cell step (bench_lstm.cpp's LstmCell/* cases)
//===----------------------------------------------------------------------===//

void setOneThread() {
  torch::set_num_threads(1);
  openblas_set_num_threads(1);
}

/// lstm_data's cell as torch tensors.
struct TorchCell {
  explicit TorchCell(const benchmark::State &st)
      : m(lstm_data::make(st.range(0), st.range(1))),
        x(fromVector(m.x, {m.batch, m.input})),
        h(fromVector(m.h, {m.batch, m.hidden})),
        c(fromVector(m.c, {m.batch, m.hidden})),
        wx(fromVector(m.wx, {m.input, 4 * m.hidden})),
        wh(fromVector(m.wh, {m.hidden, 4 * m.hidden})),
        b(fromVector(m.b, {4 * m.hidden})) {}
  lstm_data::Cell m;
  torch::Tensor x, h, c, wx, wh, b;
};

/// Checks h' and c' against lstm_data's reference (see bench_lstm.cpp).
void checkLstm(benchmark::State &st, const lstm_data::Cell &m,
               const torch::Tensor &h, const torch::Tensor &c,
               const char *what) {
  torch::Tensor hc = h.contiguous(), cc = c.contiguous();
  check(hc.numel() == int64_t(m.hNext.size()) &&
            cc.numel() == int64_t(m.cNext.size()),
        what);
  float d = std::max(lstm_data::maxAbsDiff(hc.data_ptr<float>(), m.hNext),
                     lstm_data::maxAbsDiff(cc.data_ptr<float>(), m.cNext));
  if (!(d <= lstm_data::kTolerance))
    std::fprintf(stderr, "bench_torch: %s: max |diff| %g\n", what, double(d));
  check(d <= lstm_data::kTolerance, what);
  st.counters["max_abs_diff"] = d;
}

std::tuple<torch::Tensor, torch::Tensor>
lstmTorch(const torch::Tensor &x, const torch::Tensor &h,
          const torch::Tensor &c, const torch::Tensor &wx,
          const torch::Tensor &wh, const torch::Tensor &b) {
  torch::Tensor gates = torch::addmm(torch::addmm(b, x, wx), h, wh);
  std::vector<torch::Tensor> ifgo = gates.chunk(4, 1);
  torch::Tensor c2 = torch::sigmoid(ifgo[1]) * c +
                     torch::sigmoid(ifgo[0]) * torch::tanh(ifgo[2]);
  return {torch::sigmoid(ifgo[3]) * torch::tanh(c2), c2};
}

void lstmEager(benchmark::State &st, Mode mode) {
  setOneThread();
  TorchCell t(st);
  std::unique_ptr<c10::InferenceMode> inference;
  if (mode == Mode::Inference)
    inference = std::make_unique<c10::InferenceMode>();
  {
    auto [h, c] = lstmTorch(t.x, t.h, t.c, t.wx, t.wh, t.b);
    checkLstm(st, t.m, h, c, "LstmCell/Torch");
  }
  for (auto _ : st) {
    auto hc = lstmTorch(t.x, t.h, t.c, t.wx, t.wh, t.b);
    benchmark::DoNotOptimize(std::get<0>(hc).unsafeGetTensorImpl());
    benchmark::DoNotOptimize(std::get<1>(hc).unsafeGetTensorImpl());
  }
}

void BM_LstmTorch(benchmark::State &st) { lstmEager(st, Mode::Default); }
void BM_LstmTorchInference(benchmark::State &st) {
  lstmEager(st, Mode::Inference);
}

// Batch 1 only: the same step on 1-D x and h with torch::addmv, which calls
// BLAS gemv. (addmm and matmul on a 1-row matrix call sgemm, which OpenBLAS
// 0.3.21 runs about 5x slower than sgemv for 1 x 256 @ 256 x 1024.)
std::tuple<torch::Tensor, torch::Tensor>
lstmTorchMv(const torch::Tensor &x, const torch::Tensor &h,
            const torch::Tensor &c, const torch::Tensor &wxT,
            const torch::Tensor &whT, const torch::Tensor &b) {
  torch::Tensor gates = torch::addmv(torch::addmv(b, wxT, x), whT, h);
  std::vector<torch::Tensor> ifgo = gates.chunk(4, 0);
  torch::Tensor c2 = torch::sigmoid(ifgo[1]) * c +
                     torch::sigmoid(ifgo[0]) * torch::tanh(ifgo[2]);
  return {torch::sigmoid(ifgo[3]) * torch::tanh(c2), c2};
}

void BM_LstmTorchMv(benchmark::State &st) {
  setOneThread();
  TorchCell t(st);
  check(t.m.batch == 1, "LstmCell/TorchMv: batch 1 only");
  torch::Tensor x = t.x.reshape({-1}), h = t.h.reshape({-1}),
                c = t.c.reshape({-1});
  torch::Tensor wxT = t.wx.t(), whT = t.wh.t(); // Views: gemv transposes.
  {
    auto [h2, c2] = lstmTorchMv(x, h, c, wxT, whT, t.b);
    checkLstm(st, t.m, h2, c2, "LstmCell/TorchMv");
  }
  for (auto _ : st) {
    auto hc = lstmTorchMv(x, h, c, wxT, whT, t.b);
    benchmark::DoNotOptimize(std::get<0>(hc).unsafeGetTensorImpl());
    benchmark::DoNotOptimize(std::get<1>(hc).unsafeGetTensorImpl());
  }
}

void BM_LstmTorchLstmCell(benchmark::State &st) {
  setOneThread();
  TorchCell t(st);
  c10::InferenceMode inference;
  // torch::lstm_cell computes x @ w_ih^T + b_ih + h @ w_hh^T (+ b_hh).
  torch::Tensor wih = t.wx.t().contiguous(), whh = t.wh.t().contiguous();
  std::vector<torch::Tensor> hx{t.h, t.c};
  {
    auto [h, c] = torch::lstm_cell(t.x, hx, wih, whh, t.b);
    checkLstm(st, t.m, h, c, "LstmCell/TorchLstmCell");
  }
  for (auto _ : st) {
    auto hc = torch::lstm_cell(t.x, hx, wih, whh, t.b);
    benchmark::DoNotOptimize(std::get<0>(hc).unsafeGetTensorImpl());
    benchmark::DoNotOptimize(std::get<1>(hc).unsafeGetTensorImpl());
  }
}

void BM_LstmTorchScript(benchmark::State &st) {
  setOneThread();
  TorchCell t(st);
  torch::jit::Function &fn = scriptUnit()->get_function("lstm");
  std::vector<torch::jit::IValue> args{t.x, t.h, t.c, t.wx, t.wh, t.b};
  for (int i = 0; i < 20; ++i) // Let the profiling executor optimise.
    fn(args);
  {
    torch::jit::IValue hc = fn(args);
    const auto &elems = hc.toTuple()->elements();
    checkLstm(st, t.m, elems[0].toTensor(), elems[1].toTensor(),
              "LstmCell/TorchScript");
  }
  for (auto _ : st) {
    torch::jit::IValue hc = fn(args);
    benchmark::DoNotOptimize(&hc);
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
// Args: {batch, hidden}; next to bench_lstm.cpp's LstmCell/* cases.
BENCHMARK(BM_LstmTorch)
    ->Name("LstmCell/Torch")
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LstmTorchInference)
    ->Name("LstmCell/TorchInference")
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LstmTorchMv)
    ->Name("LstmCell/TorchMv")
    ->Args({1, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LstmTorchLstmCell)
    ->Name("LstmCell/TorchLstmCell")
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LstmTorchScript)
    ->Name("LstmCell/TorchScript")
    ->Args({1, 256})
    ->Args({64, 256})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);
