//===- VectorMathTest.cpp - Compiled transcendentals against libm ---------===//
//
// Compiled f32 code replaces libm calls by MLIR's polynomial approximations
// so that loops vectorize (tfc-approximate-math). These tests measure their
// error, in units in the last place, against libm evaluated in double
// precision and rounded to float, over each function's useful range, and
// check that the loops really are vectorized (vector types, no libm call).
//
//===----------------------------------------------------------------------===//
#include "tfc/JIT/CompiledModule.h"
#include "tfc/runtime/Tensor.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

using namespace tfc;
using tfc::jit::CompiledModule;

namespace {

constexpr int64_t kN = 1 << 16;

/// Distance in representable floats (0 when equal; NaNs must agree).
int64_t ulps(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b) ? 0 : INT64_MAX;
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? int64_t(INT32_MIN) - i : int64_t(i);
  };
  return std::llabs(ordered(a) - ordered(b));
}

struct Case {
  std::string op;
  std::function<double(double)> ref;
  float lo, hi;
  bool logSpaced;
  int64_t maxUlps;
  /// For functions whose results cross zero (sin, cos): error measured in
  /// ulps of 1.0 (absolute), since relative error near a root says nothing
  /// about the approximation.
  bool absolute = false;
};

void PrintTo(const Case &c, std::ostream *os) { *os << c.op; }

class VectorMath : public ::testing::TestWithParam<Case> {};

TEST_P(VectorMath, WithinUlpsOfLibmAndVectorized) {
  const Case &c = GetParam();
  std::string n = std::to_string(kN);
  std::string type = "tensor<" + n + "xf32>";
  // Compile afresh: an object from the persistent cache (a second test run)
  // comes with the IR before optimisation, which has no vectors to check.
  tfc::jit::CompileOptions options;
  options.cache = false;
  auto m = CompiledModule::from_source(
      "func.func @f(%x: " + type + ") -> " + type + " {\n  %0 = tfc." + c.op +
          " %x : " + type + "\n  return %0 : " + type + "\n}\n",
      options);
  Tensor x = Tensor::empty(DType::Float32, {kN});
  float *xs = x.data<float>();
  for (int64_t i = 0; i < kN; ++i) {
    double t = double(i) / double(kN - 1);
    xs[i] = c.logSpaced ? float(std::exp(std::log(c.lo) +
                                         t * (std::log(c.hi) - std::log(c.lo))))
                        : float(c.lo + t * (c.hi - c.lo));
  }
  std::vector<Tensor> out = m.call("f", {x});
  ASSERT_EQ(out.size(), 1u);
  const float *ys = out[0].data<float>();
  int64_t worst = 0;
  float worstX = 0;
  for (int64_t i = 0; i < kN; ++i) {
    float expected = float(c.ref(double(xs[i])));
    int64_t d =
        c.absolute
            ? int64_t(std::ceil(std::fabs(ys[i] - expected) / FLT_EPSILON))
            : ulps(ys[i], expected);
    if (d > worst) {
      worst = d;
      worstX = xs[i];
    }
  }
  std::printf("%s: max %lld ulps%s over [%g, %g]\n", c.op.c_str(),
              (long long)worst, c.absolute ? " of 1.0" : "", c.lo, c.hi);
  EXPECT_LE(worst, c.maxUlps)
      << c.op << " is " << worst << " ulps from libm at x = " << worstX;

  // Vectorized: the optimized LLVM IR works on vectors and calls no libm
  // function for this op.
  std::string ir = m.ir("llvm");
  EXPECT_NE(ir.find("x float>"), std::string::npos)
      << c.op << " not vectorized";
  for (const char *fn :
       {"@tanhf", "@expf", "@logf", "@log1pf", "@sinf", "@cosf"})
    EXPECT_EQ(ir.find(std::string("call float ") + fn), std::string::npos)
        << c.op << " calls " << fn;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// Bounds are the measured maxima rounded up (see docs/fusion.md); a change
// that loses accuracy fails here.
INSTANTIATE_TEST_SUITE_P(
    Libm, VectorMath,
    ::testing::Values(
        Case{"exp", [](double v) { return std::exp(v); }, -87.0f, 88.0f, false,
             2},
        Case{"log", [](double v) { return std::log(v); }, 1e-30f, 1e30f, true,
             2},
        Case{"log1p", [](double v) { return std::log1p(v); }, -0.999f, 1e6f,
             false, 4},
        Case{"tanh", [](double v) { return std::tanh(v); }, -12.0f, 12.0f,
             false, 8},
        Case{"sigmoid", sigmoid, -80.0f, 80.0f, false, 4},
        // Range reduction loses accuracy as |x| grows: 51 ulps of 1.0
        // (6e-6 absolute) at |x| near 100 (docs/testing.md, bug 4).
        Case{"sin", [](double v) { return std::sin(v); }, -100.0f, 100.0f,
             false, 64, true},
        Case{"cos", [](double v) { return std::cos(v); }, -100.0f, 100.0f,
             false, 64, true},
        Case{"sqrt", [](double v) { return std::sqrt(v); }, 0.0f, 1e6f, false,
             0}),
    [](const ::testing::TestParamInfo<Case> &info) { return info.param.op; });

} // namespace
