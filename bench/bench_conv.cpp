//===- bench_conv.cpp - conv2d kernels against their GEMM floor ----------===//
//
//   build/bin/tfc-bench-conv --benchmark_min_time=0.2
//
// Float32 conv2d (NHWC input, HWIO filter, 3x3, SAME, stride 1) on the
// shapes of conv_cases.h, each kernel next to its reference in the same
// binary:
//
//   Conv<S>/Forward/{Tfc,Gemm}         y = conv2d(x, f)
//   Conv<S>/BackpropInput/{Tfc,Gemm}   dx from dy and f
//   Conv<S>/BackpropFilter/{Tfc,Gemm}  df from x and dy
//
// Tfc: tfc::kernels::conv2d* into preallocated buffers (oneDNN when tfc is
// built with it, else im2col or col2im plus the GEMM). Gemm: the im2col
// kernel's GEMM alone, one cblas_sgemm of the same M, N, K over the whole
// batch on random operands: the floor the im2col approach can reach. Built as
// tfc-bench-conv-torch (bench_conv_torch.cpp), the same binary also times
// libtorch (Conv<S>/<case>/Torch).
//
// Counters: GFLOP/s (2*n*oh*ow*o*kh*kw*c flops per call) and `peak`, the
// fraction of the 2-core FMA peak (conv_cases.h), both in real time: the
// kernels run on all of tfc's threads (TFC_NUM_THREADS).
//
//===----------------------------------------------------------------------===//

#include "conv_cases.h"

#include "tfc/runtime/ConvKernels.h"

#include <benchmark/benchmark.h>
#include <cblas.h>

#include <string>

using namespace convbench;
namespace k = tfc::kernels;

namespace {

struct Buffers {
  explicit Buffers(const ConvCase &c)
      : s(k::conv2d_shape("conv2d", {c.n, c.h, c.w, c.c}, {c.k, c.k, c.c, c.o},
                          {1, 1}, {1, 1}, true)),
        x(randomFloats(c.n * c.h * c.w * c.c, 1)),
        f(randomFloats(c.k * c.k * c.c * c.o, 2)),
        dy(randomFloats(c.n * s.oh * s.ow * c.o, 3)), y(dy.size()),
        dx(x.size()), df(f.size()) {}
  k::Conv2DShape s;
  std::vector<float> x, f, dy, y, dx, df;
};

enum class Kind { Forward, BackpropInput, BackpropFilter };

void tfcCase(benchmark::State &st, const ConvCase &c, Kind kind) {
  Buffers b(c);
  for (auto _ : st) {
    switch (kind) {
    case Kind::Forward:
      k::conv2d(b.s, b.x.data(), b.f.data(), b.y.data());
      benchmark::DoNotOptimize(b.y.data());
      break;
    case Kind::BackpropInput:
      k::conv2d_backprop_input(b.s, b.dy.data(), b.f.data(), b.dx.data());
      benchmark::DoNotOptimize(b.dx.data());
      break;
    case Kind::BackpropFilter:
      k::conv2d_backprop_filter(b.s, b.x.data(), b.dy.data(), b.df.data());
      benchmark::DoNotOptimize(b.df.data());
      break;
    }
    benchmark::ClobberMemory();
  }
  setCounters(st, c.flops());
}

/// The kernel's GEMM on a whole-batch column matrix: P = n*oh*ow rows,
/// K = kh*kw*c columns.
void gemmCase(benchmark::State &st, const ConvCase &c, Kind kind) {
  const int P = int(c.n * c.h * c.w), K = int(c.k * c.k * c.c), O = int(c.o);
  std::vector<float> cols = randomFloats(int64_t(P) * K, 4);
  std::vector<float> f = randomFloats(int64_t(K) * O, 5);
  std::vector<float> y = randomFloats(int64_t(P) * O, 6);
  for (auto _ : st) {
    switch (kind) {
    case Kind::Forward: // y = cols f
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, P, O, K, 1.0f,
                  cols.data(), K, f.data(), O, 0.0f, y.data(), O);
      break;
    case Kind::BackpropInput: // dcols = dy f^T
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, P, K, O, 1.0f,
                  y.data(), O, f.data(), O, 0.0f, cols.data(), K);
      break;
    case Kind::BackpropFilter: // df = cols^T dy
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, K, O, P, 1.0f,
                  cols.data(), K, y.data(), O, 0.0f, f.data(), O);
      break;
    }
    benchmark::ClobberMemory();
  }
  setCounters(st, c.flops());
}

[[maybe_unused]] const bool gRegistered = [] {
  const std::pair<Kind, const char *> kinds[] = {
      {Kind::Forward, "Forward"},
      {Kind::BackpropInput, "BackpropInput"},
      {Kind::BackpropFilter, "BackpropFilter"}};
  for (const ConvCase &c : kCases)
    for (auto [kind, kindName] : kinds) {
      std::string base = std::string("Conv") + c.name + "/" + kindName;
      benchmark::RegisterBenchmark((base + "/Tfc").c_str(), tfcCase, c, kind)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((base + "/Gemm").c_str(), gemmCase, c, kind)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  return true;
}();

} // namespace
