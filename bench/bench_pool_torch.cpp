//===- bench_pool_torch.cpp - libtorch's pooling for tfc-bench-pool ------===//
//
// Linked with bench_pool.cpp into tfc-bench-pool-torch (built only when
// libtorch is found), so tfc's and libtorch's figures come from one run:
//
//   build/bin/tfc-bench-pool-torch --benchmark_min_time=0.2
//
//   Pool<S>/{Max,Avg}Forward/Torch  torch::max_pool2d / avg_pool2d under
//                                   NoGradGuard
//   Pool<S>/{Max,Avg}Grad/Torch     autograd's gradient of that pool with
//                                   respect to the input
//
// libtorch runs on the same NHWC bytes (channels-last tensors) with one
// intra-op thread per core. TensorFlow's SAME windows of the ResNet stem
// (padding 1, all of it after) are libtorch's ceil_mode with no padding,
// whose average divides by the elements inside the input as TensorFlow's
// does. The grad cases record the forward graph once and time
// torch::autograd::grad with retain_graph: libtorch's max grad scatters
// through the indices its forward saved, where tfc's reads x again. Each
// case first checks libtorch's result against tfc's kernel on the same
// numbers; the counters count the same bytes as tfc's cases.
//
//===----------------------------------------------------------------------===//

#include "pool_cases.h"

#include "tfc/runtime/PoolKernels.h"

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <algorithm>
#include <string>
#include <thread>

using namespace poolbench;
namespace k = tfc::kernels;

namespace {

/// An NHWC buffer as a channels-last NCHW tensor (no copy).
torch::Tensor nhwc(std::vector<float> &v, int64_t n, int64_t h, int64_t w,
                   int64_t c) {
  return torch::from_blob(v.data(), {n, h, w, c}).permute({0, 3, 1, 2});
}

void torchCase(benchmark::State &st, const PoolCase &c, Kind kind) {
  // One intra-op thread per core, as tfc's kernels use.
  const int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  if (torch::get_num_threads() != threads)
    torch::set_num_threads(threads);
  const k::Pool2DShape s = k::pool2d_shape(
      "pool", {c.n, c.h, c.w, c.c}, {c.k, c.k}, {c.stride, c.stride}, c.same);
  std::vector<float> x = randomFloats(c.inputElems(), 1);
  std::vector<float> dy = randomFloats(c.outputElems(), 2);
  torch::Tensor tx = nhwc(x, c.n, c.h, c.w, c.c);
  torch::Tensor tdy = nhwc(dy, c.n, s.oh, s.ow, c.c);
  const bool isMax = kind == Kind::MaxForward || kind == Kind::MaxGrad;
  auto pool = [&](const torch::Tensor &in) {
    return isMax ? torch::max_pool2d(in, c.k, c.stride, 0, 1, c.same)
                 : torch::avg_pool2d(in, c.k, c.stride, 0, c.same);
  };

  // tfc's result, for the check.
  std::vector<float> want;
  torch::Tensor got;
  if (kind == Kind::MaxForward || kind == Kind::AvgForward) {
    want.resize(dy.size());
    (isMax ? k::max_pool2d<float> : k::avg_pool2d<float>)(s, x.data(),
                                                          want.data());
    torch::NoGradGuard noGrad;
    got = pool(tx);
    for (auto _ : st) {
      torch::Tensor y = pool(tx);
      benchmark::DoNotOptimize(y.data_ptr());
    }
    got = got.permute({0, 2, 3, 1}).contiguous();
  } else {
    want.resize(x.size());
    if (isMax)
      k::max_pool2d_grad(s, x.data(), dy.data(), want.data());
    else
      k::avg_pool2d_grad(s, dy.data(), want.data());
    torch::Tensor in = tx.detach().requires_grad_(true);
    torch::Tensor y = pool(in);
    auto grad = [&] {
      return torch::autograd::grad({y}, {in}, {tdy}, /*retain_graph=*/true)[0];
    };
    got = grad();
    for (auto _ : st) {
      torch::Tensor g = grad();
      benchmark::DoNotOptimize(g.data_ptr());
    }
    got = got.detach().permute({0, 2, 3, 1}).contiguous();
  }
  if (got.numel() != int64_t(want.size())) {
    st.SkipWithError("libtorch's result has another shape than tfc's");
    return;
  }
  float err = 0;
  const float *g = got.data_ptr<float>();
  for (size_t i = 0; i < want.size(); ++i)
    err = std::max(err, std::abs(g[i] - want[i]));
  if (err > 1e-5f)
    st.SkipWithError(
        ("libtorch and tfc differ by " + std::to_string(err)).c_str());
  setCounters(st, bytesMoved(c, kind));
  st.SetLabel(std::to_string(torch::get_num_threads()) +
              " threads, channels-last");
}

[[maybe_unused]] const bool gRegistered = [] {
  for (const PoolCase &c : kCases)
    for (auto [kind, kindName] : kKinds)
      benchmark::RegisterBenchmark(
          (std::string("Pool") + c.name + "/" + kindName + "/Torch").c_str(),
          torchCase, c, kind)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  return true;
}();

} // namespace
