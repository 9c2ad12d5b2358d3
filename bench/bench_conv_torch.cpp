//===- bench_conv_torch.cpp - libtorch's conv2d for tfc-bench-conv ------===//
//
// Linked with bench_conv.cpp into tfc-bench-conv-torch (built only when
// libtorch is found), so tfc's and libtorch's figures come from one run:
//
//   build/bin/tfc-bench-conv-torch --benchmark_min_time=0.2
//
//   Conv<S>/Forward/Torch         torch::conv2d under NoGradGuard
//   Conv<S>/BackpropInput/Torch   autograd's gradient of that conv2d with
//                                 respect to the input alone (the input
//                                 requires grad, the weight does not)
//   Conv<S>/BackpropFilter/Torch  the same with respect to the weight alone
//
// libtorch runs in its native NCHW layout (weights OIHW) with padding 1 (3x3
// SAME, stride 1) on as many intra-op threads as tfc's kernels use:
// TFC_NUM_THREADS when set (TFC_NUM_THREADS=1 gives a steadier one-core
// comparison on a busy machine), else one per core. The backward cases record
// the forward graph once and time torch::autograd::grad with retain_graph.
// Each case first checks libtorch's result against tfc's kernel on the same
// numbers. The label names libtorch's backend and thread count.
//
//===----------------------------------------------------------------------===//

#include "conv_cases.h"

#include "tfc/runtime/ConvKernels.h"

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <thread>

using namespace convbench;
namespace k = tfc::kernels;

namespace {

enum class Kind { Forward, BackpropInput, BackpropFilter };

/// Largest |a - b| of two float buffers of n elements.
float maxDiff(const float *a, const float *b, int64_t n) {
  float m = 0;
  for (int64_t i = 0; i < n; ++i)
    m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

void torchCase(benchmark::State &st, const ConvCase &c, Kind kind) {
  int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  if (const char *env = std::getenv("TFC_NUM_THREADS"))
    if (int n = std::atoi(env); n > 0)
      threads = n;
  if (torch::get_num_threads() != threads)
    torch::set_num_threads(threads);
  k::Conv2DShape s =
      k::conv2d_shape("conv2d", {c.n, c.h, c.w, c.c}, {c.k, c.k, c.c, c.o},
                      {1, 1}, {1, 1}, true);
  std::vector<float> x = randomFloats(c.n * c.h * c.w * c.c, 1);
  std::vector<float> f = randomFloats(c.k * c.k * c.c * c.o, 2);
  std::vector<float> dy = randomFloats(c.n * s.oh * s.ow * c.o, 3);
  // NHWC / HWIO to libtorch's NCHW / OIHW.
  torch::Tensor tx = torch::from_blob(x.data(), {c.n, c.h, c.w, c.c})
                         .permute({0, 3, 1, 2})
                         .contiguous();
  torch::Tensor tw = torch::from_blob(f.data(), {c.k, c.k, c.c, c.o})
                         .permute({3, 2, 0, 1})
                         .contiguous();
  torch::Tensor tdy = torch::from_blob(dy.data(), {c.n, s.oh, s.ow, c.o})
                          .permute({0, 3, 1, 2})
                          .contiguous();
  const int64_t pad = c.k / 2;

  // tfc's result in libtorch's layout, for the check (a copy: the buffers
  // are local, and a permute with a size-1 dim can already be contiguous).
  torch::Tensor want;
  switch (kind) {
  case Kind::Forward: {
    std::vector<float> y(dy.size());
    k::conv2d(s, x.data(), f.data(), y.data());
    want = torch::from_blob(y.data(), {c.n, s.oh, s.ow, c.o})
               .permute({0, 3, 1, 2})
               .clone(at::MemoryFormat::Contiguous);
    break;
  }
  case Kind::BackpropInput: {
    std::vector<float> dx(x.size());
    k::conv2d_backprop_input(s, dy.data(), f.data(), dx.data());
    want = torch::from_blob(dx.data(), {c.n, c.h, c.w, c.c})
               .permute({0, 3, 1, 2})
               .clone(at::MemoryFormat::Contiguous);
    break;
  }
  case Kind::BackpropFilter: {
    std::vector<float> df(f.size());
    k::conv2d_backprop_filter(s, x.data(), dy.data(), df.data());
    want = torch::from_blob(df.data(), {c.k, c.k, c.c, c.o})
               .permute({3, 2, 0, 1})
               .clone(at::MemoryFormat::Contiguous);
    break;
  }
  }

  torch::Tensor got;
  if (kind == Kind::Forward) {
    torch::NoGradGuard noGrad;
    got = torch::conv2d(tx, tw, {}, 1, pad);
    for (auto _ : st) {
      torch::Tensor y = torch::conv2d(tx, tw, {}, 1, pad);
      benchmark::DoNotOptimize(y.data_ptr());
    }
  } else {
    torch::Tensor wrt = kind == Kind::BackpropInput ? tx : tw;
    wrt.requires_grad_(true);
    torch::Tensor y = torch::conv2d(tx, tw, {}, 1, pad);
    auto grad = [&] {
      return torch::autograd::grad({y}, {wrt}, {tdy}, /*retain_graph=*/true)[0];
    };
    got = grad();
    for (auto _ : st) {
      torch::Tensor g = grad();
      benchmark::DoNotOptimize(g.data_ptr());
    }
  }
  got = got.detach().contiguous();
  // Relative to the largest value: float32 sums of up to n*h*w products.
  float err =
      maxDiff(got.data_ptr<float>(), want.data_ptr<float>(), want.numel()) /
      want.abs().max().item<float>();
  if (err > 1e-4f)
    st.SkipWithError(
        ("libtorch and tfc differ by " + std::to_string(err) + " relative")
            .c_str());
  setCounters(st, c.flops());
  st.SetLabel(std::string(at::hasMKLDNN() ? "oneDNN" : "native") + ", " +
              std::to_string(torch::get_num_threads()) + " threads");
}

[[maybe_unused]] const bool gRegistered = [] {
  const std::pair<Kind, const char *> kinds[] = {
      {Kind::Forward, "Forward"},
      {Kind::BackpropInput, "BackpropInput"},
      {Kind::BackpropFilter, "BackpropFilter"}};
  for (const ConvCase &c : kCases)
    for (auto [kind, kindName] : kinds)
      benchmark::RegisterBenchmark(
          (std::string("Conv") + c.name + "/" + kindName + "/Torch").c_str(),
          torchCase, c, kind)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  return true;
}();

} // namespace
