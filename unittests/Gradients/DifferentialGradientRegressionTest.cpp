//===- DifferentialGradientRegressionTest.cpp - Bugs found by tfc-difftest-grad
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// One minimised test per disagreement the gradient differential tester
// (tools/tfc-fuzz/GradientRunner.h, docs/testing.md) found, kept as
// regression tests once fixed. Open bugs would be DISABLED_ tests stating the
// expected behaviour (run them with --gtest_also_run_disabled_tests).
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

// Bug G1 (fixed; seed 53 of tfc-difftest-grad). In a traced tfc::cond where
// one branch yields a float tensor from outside the branch unchanged (here
// the function's argument x) and the other branch computes from it, the
// compiled gradient counted the pass-through twice: d/dx sum(cond(p, 2x, x))
// was 2 instead of 1. The predicate is a constant, so the tracer runs one
// branch inline and the cond's output is x itself; the tape recorded a cond
// node whose output was its own input. It now records the inline branch's
// ops (as the tracer emits them) instead of a node.
Tensor passThrough(const Tensor &x) {
  Tensor pred = constant(false);
  return cond(
      pred, [&] { return x * 2.0; }, [&] { return x; });
}

TEST(GradDiffRegression, CondBranchYieldingAnInputEager) {
  EXPECT_EQ(eagerGrad(passThrough, constant({1.5, -2.0})).to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
}

TEST(GradDiffRegression, CondBranchYieldingAnInputCompiled) {
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

TEST(GradDiffRegression, CondThenBranchYieldingAnInputCompiled) {
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

TEST(GradDiffRegression, CondBranchYieldingAnInputWithUnusedOpCompiled) {
  EXPECT_EQ(compiledGrad(passThroughWithUnused, constant({1.5, -2.0}))
                .to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
}

// Bug G2 (fixed; seeds 4 and 35): tfc declared mod not differentiable, but the
// derivative of floor-mod is 1 in x and -floor(x / y) in y almost everywhere,
// and TensorFlow registers exactly that gradient for FloorMod.
Tensor modOfX(const Tensor &x) { return mod(x, constant({-2.5, 3.0})); }

TEST(GradDiffRegression, ModHasAGradient) {
  Tensor x = constant({1.25, -4.0});
  EXPECT_EQ(eagerGrad(modOfX, x).to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(compiledGrad(modOfX, x).to_vector<double>(),
            (std::vector<double>{1.0, 1.0}));
}

// Bug G3 (fixed; seed 100740): a traced while_loop whose body computes
// something from a tensor captured from outside but never uses the result.
// The true gradient takes nothing through the capture; compiled, the
// capture got a zero adjoint that flowed through sqrt's rule at 0
// (0 * 1/(2 sqrt(0)) = 0 * inf = NaN), so d/dx was NaN where eagerly it is
// 2. (The seed reached it through pow(x, 0) at x = 0, whose rule gives
// y x^(y-1) = 0 * inf too.) The backward pass of a traced cond/while now
// gives a gradient only to the inputs an adjoint reaches.
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

TEST(GradDiffRegression, LoopWithDeadUseOfACaptureCompiled) {
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

TEST(GradDiffRegression, LoopConditionUsesACaptureCompiled) {
  EXPECT_EQ(compiledGrad(loopConditionUsesACapture, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{2.0, 2.0}));
}

// The same defect through a cond with a symbolic predicate: a branch's dead
// use of the capture, and an output the target does not use (its adjoint
// was a zero flowing through the branch's rules).
Tensor condWithDeadUseOfACapture(const Tensor &x) {
  Tensor s = sqrt(x);
  Tensor pred = reduce_sum(x) > -1.0;
  return cond(
      pred,
      [&] {
        Tensor unused = s * 2.0;
        (void)unused;
        return x * 2.0;
      },
      [&] { return x; });
}

TEST(GradDiffRegression, CondWithDeadUseOfACaptureCompiled) {
  EXPECT_EQ(compiledGrad(condWithDeadUseOfACapture, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{2.0, 2.0}));
}

Tensor condWithAnUnusedOutput(const Tensor &x) {
  Tensor s = sqrt(x);
  Tensor pred = reduce_sum(x) > -1.0;
  V r = cond(
      pred,
      [&] {
        return V{x * 2.0, s * 3.0};
      },
      [&] {
        return V{x, s};
      });
  return r[0];
}

TEST(GradDiffRegression, CondWithAnUnusedOutputCompiled) {
  EXPECT_EQ(compiledGrad(condWithAnUnusedOutput, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{2.0, 2.0}));
}

// A loop variable whose result the target does not use, computed from the
// capture (its adjoint was a carried zero flowing back into sqrt).
Tensor loopWithAnUnusedVariable(const Tensor &x) {
  Tensor s = sqrt(x);
  V r = while_loop([](const V &v) { return v[0] < 2; },
                   [&](const V &v) {
                     return V{v[0] + 1, v[1] * 2.0, v[2] + s};
                   },
                   {constant(0), x, s});
  return r[1];
}

TEST(GradDiffRegression, LoopWithAnUnusedVariableCompiled) {
  EXPECT_EQ(compiledGrad(loopWithAnUnusedVariable, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{4.0, 4.0}));
  EXPECT_EQ(eagerGrad(loopWithAnUnusedVariable, constant({0.0, 1.0}))
                .to_vector<double>(),
            (std::vector<double>{4.0, 4.0}));
}

} // namespace
