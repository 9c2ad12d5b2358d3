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

} // namespace
