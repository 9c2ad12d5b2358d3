//===- DifferentialGradientRegressionTest.cpp - Bugs found by tfc-difftest-grad
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// One minimised test per disagreement the gradient differential tester
// (tools/tfc-fuzz/GradientRunner.h, docs/testing.md) found. Open bugs are
// DISABLED_ tests stating the expected behaviour; run them with
// --gtest_also_run_disabled_tests.
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace tfc;

namespace {

using V = std::vector<Tensor>;

/// d/dx sum(f(x)), eagerly.
template <class F> Tensor eagerGrad(F f, const Tensor &x) {
  GradientTape tape;
  tape.watch(x);
  return tape.gradient(reduce_sum(f(x)), x);
}

/// The same with the tape inside tfc::function.
template <class F> Tensor compiledGrad(F f, const Tensor &x) {
  auto g = function([f](const Tensor &t) {
    GradientTape tape;
    tape.watch(t);
    return tape.gradient(reduce_sum(f(t)), t);
  });
  return g(x);
}

// Bug G1 (open; seed 53 of tfc-difftest-grad). In a traced tfc::cond where
// one branch yields a float tensor from outside the branch unchanged (here
// the function's argument x) and the other branch computes from it, the
// compiled gradient counts the pass-through twice: d/dx sum(cond(p, 2x, x))
// is 2 instead of 1, whichever branch is taken, for shape (2,) float64
// (and float32). Eagerly it is right; when both branches pass x through it
// is right.
Tensor passThrough(const Tensor &x) {
  Tensor pred = constant(false);
  return cond(
      pred, [&] { return x * 2.0; }, [&] { return x; });
}

TEST(GradDiffRegression, CondBranchYieldingAnInputEager) {
  EXPECT_EQ(eagerGrad(passThrough, constant({1.5, -2.0})).to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
}

TEST(GradDiffRegression, DISABLED_CondBranchYieldingAnInputCompiled) {
  EXPECT_EQ(
      compiledGrad(passThrough, constant({1.5, -2.0})).to_vector<double>(),
      (std::vector<double>{1.0, 1.0}));
}

// The taken branch yields the input; the other computes from it.
Tensor passThroughTaken(const Tensor &x) {
  Tensor pred = constant(true);
  return cond(
      pred, [&] { return x; }, [&] { return x * 3.0; });
}

TEST(GradDiffRegression, DISABLED_CondThenBranchYieldingAnInputCompiled) {
  EXPECT_EQ(
      compiledGrad(passThroughTaken, constant({1.5, -2.0})).to_vector<double>(),
      (std::vector<double>{1.0, 1.0}));
}

// Both branches yield the input unchanged.
Tensor passThroughBoth(const Tensor &x) {
  Tensor pred = reduce_sum(x) > 0.0;
  return cond(
      pred, [&] { return x; }, [&] { return x; });
}

TEST(GradDiffRegression, CondBothBranchesYieldingAnInputCompiled) {
  EXPECT_EQ(
      compiledGrad(passThroughBoth, constant({1.5, -2.0})).to_vector<double>(),
      (std::vector<double>{1.0, 1.0}));
}

Tensor passThroughWithUnused(const Tensor &x) {
  Tensor pred = constant(false);
  return cond(
      pred, [&] { return x * 2.0; },
      [&] {
        Tensor unused = exp(x) + x;
        (void)unused;
        return x;
      });
}

TEST(GradDiffRegression,
     DISABLED_CondBranchYieldingAnInputWithUnusedOpCompiled) {
  EXPECT_EQ(compiledGrad(passThroughWithUnused, constant({1.5, -2.0}))
                .to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
}

// Bug G2 (open; seeds 4 and 35): tfc declares mod not differentiable, but the
// derivative of floor-mod is 1 in x and -floor(x / y) in y almost everywhere,
// and TensorFlow registers exactly that gradient for FloorMod.
Tensor modOfX(const Tensor &x) { return mod(x, constant({-2.5, 3.0})); }

TEST(GradDiffRegression, DISABLED_ModHasAGradient) {
  Tensor x = constant({1.25, -4.0});
  EXPECT_EQ(eagerGrad(modOfX, x).to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(compiledGrad(modOfX, x).to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
}

// Bug G3 (open; seed 100740): a traced while_loop whose body computes
// something from a tensor captured from outside but never uses the result.
// The true gradient takes nothing through the capture; compiled, the
// capture gets a zero adjoint that flows through sqrt's rule at 0
// (0 * 1/(2 sqrt(0)) = 0 * inf = NaN), so d/dx is NaN where eagerly it is
// 2. (The seed reached it through pow(x, 0) at x = 0, whose rule gives
// y x^(y-1) = 0 * inf too.)
Tensor loopWithDeadUseOfACapture(const Tensor &x) {
  Tensor s = sqrt(x);
  V r = while_loop([](const V &v) { return v[0] < 1; },
                   [&](const V &v) {
                     Tensor unused = s * 2.0;
                     (void)unused;
                     return V{v[0] + 1, v[1] * 2.0};
                   },
                   {constant(0), x});
  return r[1];
}

TEST(GradDiffRegression, LoopWithDeadUseOfACaptureEager) {
  EXPECT_EQ(eagerGrad(loopWithDeadUseOfACapture, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{2.0, 2.0}));
}

TEST(GradDiffRegression, DISABLED_LoopWithDeadUseOfACaptureCompiled) {
  EXPECT_EQ(compiledGrad(loopWithDeadUseOfACapture, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{2.0, 2.0}));
}

// The same with the capture used only in the loop's condition.
Tensor loopConditionUsesACapture(const Tensor &x) {
  Tensor s = sqrt(x);
  V r = while_loop(
      [&](const V &v) {
        Tensor unused = reduce_sum(s);
        (void)unused;
        return v[0] < 1;
      },
      [&](const V &v) {
        return V{v[0] + 1, v[1] * 2.0};
      },
      {constant(0), x});
  return r[1];
}

TEST(GradDiffRegression, DISABLED_LoopConditionUsesACaptureCompiled) {
  EXPECT_EQ(compiledGrad(loopConditionUsesACapture, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{2.0, 2.0}));
}

} // namespace
