//===- ControlFlowGradientTest.cpp - Gradients through cond and while_loop ===//
//
// Eagerly, cond and while_loop run C++ control flow and the tape records the
// ops that ran. Inside tfc::function they are tfc.if / tfc.while, and their
// gradients are an if on the same predicate and a backward loop: both are
// checked against finite differences and against the eager gradients.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

#include <cmath>
#include <ctime>

using namespace tfc;
using namespace tfc::gradtest;

namespace {

using V = std::vector<Tensor>;

size_t countOf(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos;
       pos = text.find(what, pos + 1))
    ++n;
  return n;
}

/// cond on the sign of sum(x): x*x*y in one branch, sin(x)+y in the other.
Tensor branchy(const V &v) {
  const Tensor &x = v[0], &y = v[1];
  return cond(
      reduce_sum(x) > 0.0, [&] { return x * x * y; },
      [&] { return sin(x) + y; });
}

TEST(CondGradient, BothBranchesEagerAndCompiled) {
  Tensor y = rand64({3}, -1, 1, 2);
  checkGradients("then branch", branchy, {rand64({3}, 0.2, 1, 1), y});
  checkGradients("else branch", branchy, {rand64({3}, -1, -0.2, 3), y});
}

TEST(CondGradient, CompiledGradientIsAnIfOnTheSamePredicate) {
  Tensor x = rand64({3}, 0.2, 1, 4), y = rand64({3}, -1, 1, 5);
  std::string ir;
  compiledGradients(branchy, {x, y}, ones({3}, DType::Float64), &ir);
  // As traced: the tape emitted one tfc.grad of an outlined copy of the
  // if (the forward if and the copy), no backward of its own.
  EXPECT_EQ(countOf(ir, "tfc.grad @"), 1u) << ir;
  EXPECT_EQ(countOf(ir, "tfc.if"), 2u) << ir;
  // After tfc-autodiff, inlining and CSE, one if: the backward if (the
  // branches' adjoints) on the same predicate; the function returns only
  // gradients, so the forward if is dead. The outlined copy is gone.
  compiledGradients(branchy, {x, y}, ones({3}, DType::Float64), &ir,
                    "optimized");
  EXPECT_EQ(countOf(ir, "tfc.grad"), 0u) << ir;
  EXPECT_EQ(countOf(ir, "_tape_grad_"), 0u) << ir;
  EXPECT_EQ(countOf(ir, "scf.if"), 1u) << ir;
}

TEST(CondGradient, BranchReturningAnOuterTensorAndSeveralResults) {
  auto fn = [](const V &v) {
    const Tensor &x = v[0];
    auto [a, b] = cond(
        reduce_max(x) > 0.5,
        [&] {
          return std::pair{x, exp(x)};
        },
        [&] {
          return std::pair{x * 2.0, x};
        });
    return a * b;
  };
  checkGradients("then", fn, {rand64({4}, 0.6, 1, 6)});
  checkGradients("else", fn, {rand64({4}, -1, 0.4, 7)});
}

TEST(CondGradient, NestedConds) {
  auto fn = [](const V &v) {
    const Tensor &x = v[0];
    return cond(
        reduce_sum(x) > 0.0,
        [&] {
          return cond(
              reduce_max(x) > 1.0, [&] { return x * x * x; },
              [&] { return tanh(x) * x; });
        },
        [&] { return -x; });
  };
  checkGradients("inner then", fn, {rand64({3}, 1.1, 2, 8)});
  checkGradients("inner else", fn, {rand64({3}, 0.1, 0.9, 9)});
  checkGradients("outer else", fn, {rand64({3}, -2, -0.1, 10)});
}

TEST(CondGradient, VariableReadInsideABranch) {
  // The branch reads a trainable variable: its gradient flows out of the if.
  Variable w(constant({1.5, -2.0}), "w");
  auto step = [&](const Tensor &x) {
    GradientTape tape;
    Tensor y = cond(
        reduce_sum(x) > 0.0,
        [&] { return reduce_sum(x * w.value() * w.value()); },
        [&] { return reduce_sum(x); });
    return tape.gradient(y, w);
  };
  Tensor x = constant({0.5, 1.0});
  Tensor eager = step(x);
  EXPECT_TRUE(allClose(eager, constant({1.5, -4.0}), 1e-12)); // 2 x w
  auto f = function(step);
  EXPECT_TRUE(allClose(f(x), eager, 1e-12));
  EXPECT_TRUE(allClose(f(constant({-0.5, -1.0})), zeros({2}, DType::Float64)));
}

/// The issue's loop: x = sin(x) * w until x exceeds 1.4; the trip count
/// depends on x0 and w.
Tensor sinLoop(const V &v) {
  const Tensor &w = v[1];
  return while_loop([](const V &s) { return s[0] < 1.4; },
                    [&](const V &s) { return V{sin(s[0]) * w}; }, {v[0]})[0];
}

TEST(WhileGradient, DataDependentTripCount) {
  // From 0.5 the loop runs 4 times, from 1.0 twice (with w = 1.5).
  for (double x0 : {0.5, 1.0, 0.2})
    checkGradients("x0 = " + std::to_string(x0), sinLoop,
                   {constant(x0), constant(1.5)});
}

TEST(WhileGradient, ZeroIterations) {
  checkGradients("no iteration", sinLoop, {constant(1.45), constant(1.5)});
}

TEST(WhileGradient, CompiledGradientHasABackwardLoop) {
  std::string ir;
  std::vector<Tensor> g = compiledGradients(
      sinLoop, {constant(0.5), constant(1.5)}, constant(1.0), &ir, "optimized");
  // After tfc-autodiff: the forward loop, its replay saving the state on a
  // stack, the backward loop popping it.
  EXPECT_EQ(countOf(ir, "scf.while"), 3u) << ir;
  EXPECT_EQ(countOf(ir, "call @tfc_rt_stack_new("), 1u) << ir;
  EXPECT_EQ(countOf(ir, "call @tfc_rt_stack_push_"), 1u) << ir;
  EXPECT_EQ(countOf(ir, "call @tfc_rt_stack_pop("), 1u) << ir;
  EXPECT_EQ(countOf(ir, "call @tfc_rt_stack_free("), 1u) << ir;
  std::vector<Tensor> e =
      eagerGradients(sinLoop, {constant(0.5), constant(1.5)}, constant(1.0));
  EXPECT_TRUE(allClose(g[0], e[0], 1e-12));
  EXPECT_TRUE(allClose(g[1], e[1], 1e-12));
}

TEST(WhileGradient, CounterAndVectorState) {
  // An int32 counter next to a float vector; the body uses an outer tensor.
  auto fn = [](const V &v) {
    const Tensor &x0 = v[0], &a = v[1];
    V out = while_loop([](const V &s) { return s[0] < 3; },
                       [&](const V &s) {
                         return V{s[0] + 1, tanh(matmul(s[1], a)) + s[1] * 0.5};
                       },
                       {constant(0), x0});
    return out[1];
  };
  checkGradients("counter", fn,
                 {rand64({1, 3}, -1, 1, 20), rand64({3, 3}, -1, 1, 21)});
}

TEST(WhileGradient, MaximumIterations) {
  auto fn = [](const V &v) {
    return while_loop([](const V &s) { return reduce_sum(s[0]) < 100.0; },
                      [](const V &s) { return V{s[0] * s[0] + 0.5}; }, {v[0]},
                      /*maximum_iterations=*/2)[0];
  };
  checkGradients("maximum_iterations", fn, {rand64({2}, 0.5, 1, 22)});
}

TEST(WhileGradient, CondInsideTheBody) {
  auto fn = [](const V &v) {
    const Tensor &w = v[1];
    V out = while_loop([](const V &s) { return s[1] < 4.0; },
                       [&](const V &s) {
                         Tensor x = cond(
                             s[0] > 0.0, [&] { return s[0] * w; },
                             [&] { return cos(s[0]) + w; });
                         return V{x, s[1] + 1.0};
                       },
                       {v[0], constant(0.0)});
    return out[0];
  };
  checkGradients("positive", fn, {constant(0.7), constant(0.9)});
  checkGradients("negative", fn, {constant(-0.7), constant(-0.9)});
}

TEST(WhileGradient, SecondDerivativeThroughTheLoop) {
  // grad(grad(f)) with f a loop: eager (unrolled) and compiled (the backward
  // loop is itself differentiated) agree, and match finite differences of
  // the first derivative.
  auto f = [](const Tensor &x) {
    Tensor w = constant(1.5);
    return sinLoop({x, w});
  };
  auto d1 = grad(f);
  auto d2 = grad(grad(f));
  Tensor x = constant(0.5);
  double eager = d2(x).item<double>();
  double h = 1e-5;
  double numeric = (d1(constant(0.5 + h)).item<double>() -
                    d1(constant(0.5 - h)).item<double>()) /
                   (2 * h);
  EXPECT_NEAR(eager, numeric, 1e-6 * std::max(1.0, std::fabs(numeric)));
  auto compiled = function([&](const Tensor &v) { return d2(v); });
  EXPECT_NEAR(compiled(x).item<double>(), eager, 1e-10);
}

/// x <- x + 0.01 sin(x w) + 0.001 w, c <- c + 1 while c < n: the trip count
/// is ceil(n), a run-time value (n is an argument).
Tensor driftLoop(const V &v) {
  const Tensor &w = v[1], &n = v[2];
  return while_loop(
      [&](const V &s) { return s[1] < n; },
      [&](const V &s) {
        return V{s[0] + sin(s[0] * w) * 0.01 + w * 0.001, s[1] + 1.0};
      },
      {v[0], constant(0.0)})[0];
}

/// Whether some line holding `what` is indented deeper than `indent`
/// spaces (in printed IR: nested in a region of a top-level op).
bool nestedDeeperThan(const std::string &ir, const std::string &what,
                      size_t indent) {
  size_t start = 0;
  while (start < ir.size()) {
    size_t end = ir.find('\n', start);
    if (end == std::string::npos)
      end = ir.size();
    std::string line = ir.substr(start, end - start);
    if (line.find(what) != std::string::npos &&
        line.find_first_not_of(' ') > indent)
      return true;
    start = end + 1;
  }
  return false;
}

TEST(WhileGradient, StackGradientMatchesFiniteDifferences) {
  // The compiled (stack-based) gradient against central differences, for
  // 1, 7 and 300 iterations; n's gradient is zero (it only feeds the
  // condition) and the differences do not cross an integer.
  for (double n : {0.5, 6.5, 299.5}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<Tensor> in{constant({0.3, -1.2}), constant(0.8), constant(n)};
    Tensor weights = constant({0.7, 1.3});
    std::string ir;
    std::vector<Tensor> compiled =
        compiledGradients(driftLoop, in, weights, &ir, "optimized");
    std::vector<Tensor> numeric = numericGradients(driftLoop, in, weights);
    ASSERT_EQ(compiled.size(), 3u);
    for (size_t i = 0; i < 3; ++i)
      EXPECT_TRUE(allClose(compiled[i], numeric[i], 1e-6)) << "input " << i;
    EXPECT_EQ(compiled[2].item<double>(), 0.0);
    EXPECT_EQ(countOf(ir, "call @tfc_rt_stack_push_"), 1u) << ir;
  }
}

TEST(WhileGradient, CostIsLinearInTheTripCount) {
  // Structure: no tfc.while of the compiled gradient is nested in another
  // (the O(N^2) scheme recomputed the state in a loop inside the backward
  // loop), so every op runs at most N times.
  auto step = [](const Tensor &x0, const Tensor &w, const Tensor &n) {
    GradientTape tape;
    tape.watch({x0, w});
    Tensor y = reduce_sum(driftLoop({x0, w, n}));
    return tape.gradient(y, {x0, w});
  };
  auto f = function(step);
  Tensor x0 = rand64({16}, -1, 1, 31), w = constant(0.8);
  std::vector<Tensor> g = f(x0, w, constant(1000.0));
  // The code tfc-autodiff generated (as scf.while after lowering).
  std::string ir = f.ir("optimized");
  EXPECT_EQ(countOf(ir, "scf.while"), 3u) << ir;
  // Function bodies are indented by 4 spaces.
  EXPECT_FALSE(nestedDeeperThan(ir, "scf.while", 4)) << ir;
  std::vector<Tensor> eager = step(x0, w, constant(1000.0));
  EXPECT_TRUE(allClose(g[0], eager[0], 1e-9));
  EXPECT_TRUE(allClose(g[1], eager[1], 1e-9));

  // Time: twice the iterations cost about twice as much (the O(N^2)
  // scheme: about four times). Process CPU time, best of several runs, a
  // generous bound.
  auto cpuSeconds = [&](double n) {
    Tensor limit = constant(n);
    double best = 1e30;
    for (int rep = 0; rep < 5; ++rep) {
      std::clock_t t0 = std::clock();
      for (int i = 0; i < 4; ++i)
        f(x0, w, limit);
      best = std::min(best, double(std::clock() - t0) / CLOCKS_PER_SEC);
    }
    return best;
  };
  double t1000 = cpuSeconds(1000), t2000 = cpuSeconds(2000);
  EXPECT_LT(t2000 / t1000, 3.0)
      << "N=1000: " << t1000 << " s, N=2000: " << t2000 << " s";
}

TEST(WhileGradient, NestedLoopsWithStacks) {
  // An inner loop in the outer body: its gradient (with stacks of its own)
  // runs inside the outer backward loop.
  auto fn = [](const V &v) {
    const Tensor &w = v[1];
    return while_loop([](const V &s) { return s[1] < 3.0; },
                      [&](const V &s) {
                        Tensor x = while_loop(
                            [](const V &r) { return r[1] < 2.0; },
                            [&](const V &r) {
                              return V{tanh(r[0] * w) + r[0], r[1] + 1.0};
                            },
                            {s[0], constant(0.0)})[0];
                        return V{x * 0.5, s[1] + 1.0};
                      },
                      {v[0], constant(0.0)})[0];
  };
  checkGradients("nested", fn, {rand64({3}, -1, 1, 40), constant(0.7)});
  std::string ir;
  compiledGradients(fn, {rand64({3}, -1, 1, 40), constant(0.7)},
                    ones({3}, DType::Float64), &ir, "optimized");
  EXPECT_GE(countOf(ir, "call @tfc_rt_stack_pop("), 2u) << ir;
}

TEST(WhileGradient, PersistentTapeSecondDerivative) {
  // A persistent tape records its own backward pass (the loop's tfc.grad)
  // and differentiates it again.
  auto step = [](const Tensor &x0, const Tensor &w) {
    GradientTape tape(/*persistent=*/true);
    tape.watch({x0, w});
    Tensor y = sinLoop({x0, w});
    Tensor dx = tape.gradient(y, x0);
    Tensor dw = tape.gradient(y, w);
    return std::vector<Tensor>{dx, dw, tape.gradient(dx, x0)};
  };
  Tensor x0 = constant(0.5), w = constant(1.5);
  std::vector<Tensor> eager = step(x0, w);
  auto f = function(step);
  std::vector<Tensor> compiled = f(x0, w);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_TRUE(allClose(compiled[i], eager[i], 1e-10)) << i;
  // Three tfc.grads: dx and dw of the loop, and the gradient of dx's
  // tfc.grad (of a function holding a copy of it, whose VJP tfc-autodiff
  // generates without stacks, as it differentiates it).
  EXPECT_EQ(countOf(f.ir("tfc"), "tfc.grad @"), 4u);
}

TEST(WhileGradient, ReduceRetracing) {
  // reduce_retracing: tfc-autodiff differentiates statically shaped code
  // only, so the trace with a dynamic dim fails (the tape says why) and
  // the function traces per shape, with stacks.
  auto step = [](const Tensor &x0, const Tensor &w) {
    GradientTape tape;
    tape.watch({x0, w});
    Tensor y = reduce_sum(driftLoop({x0, w, constant(5.0)}));
    return tape.gradient(y, {x0, w});
  };
  FunctionOptions options;
  options.reduce_retracing = true;
  auto f = function(step, options);
  Tensor w = constant(0.8);
  for (int64_t size : {3, 5, 7}) {
    Tensor x0 = rand64({size}, -1, 1, 50 + size);
    std::vector<Tensor> compiled = f(x0, w), eager = step(x0, w);
    EXPECT_TRUE(allClose(compiled[0], eager[0], 1e-9)) << size;
    EXPECT_TRUE(allClose(compiled[1], eager[1], 1e-9)) << size;
  }
  // The differentiated loop has static shapes: stacks.
  std::string ir = f.ir("optimized");
  EXPECT_EQ(ir.find("tensor<?xf64>"), std::string::npos) << ir;
  EXPECT_EQ(countOf(ir, "call @tfc_rt_stack_new("), 1u) << ir;
}

TEST(WhileGradient, VariableInsideTheLoop) {
  Variable w(constant(1.5), "w");
  auto step = [&](const Tensor &x0) {
    GradientTape tape;
    V out =
        while_loop([](const V &s) { return s[0] < 1.4; },
                   [&](const V &s) { return V{sin(s[0]) * w.value()}; }, {x0});
    return tape.gradient(out[0], w);
  };
  Tensor eager = step(constant(0.5));
  auto f = function(step);
  EXPECT_TRUE(allClose(f(constant(0.5)), eager, 1e-12));
  EXPECT_NE(eager.item<double>(), 0.0);
}

} // namespace
