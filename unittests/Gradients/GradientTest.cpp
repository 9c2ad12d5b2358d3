//===- GradientTest.cpp - GradientTape, grad, custom_gradient -------------===//
//
// TensorFlow's documented gradient behaviours, eagerly and inside
// tfc::function: the eager-announcement examples, tapes (persistent, watch,
// variables, nesting), custom gradients, and bad input.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

#include <cmath>

using namespace tfc;
using namespace tfc::gradtest;

namespace {

Tensor squareFn(const Tensor &x) { return x * x; }

Tensor log1pexp(const Tensor &x) { return log(1 + exp(x)); }

/// TensorFlow's example of a numerically stable custom gradient.
auto log1pexpStable = custom_gradient([](const Tensor &x) {
  Tensor e = exp(x);
  return std::pair{log(1 + e),
                   [e](const Tensor &dy) { return dy * (1 - 1 / (1 + e)); }};
});

// --- The examples of TensorFlow's eager-execution announcement ---------------

TEST(EagerAnnouncement, GradOfSquare) {
  EXPECT_EQ(grad(squareFn)(3.).item<double>(), 6.0);
  EXPECT_EQ(grad(squareFn)(3.f).item<float>(), 6.0f);
  auto f = function([](const Tensor &x) { return grad(squareFn)(x); });
  EXPECT_EQ(f(constant(3.)).item<double>(), 6.0);
}

TEST(EagerAnnouncement, GradOfGradOfSquare) {
  EXPECT_EQ(grad(grad(squareFn))(3.).item<double>(), 2.0);
  auto f = function([](const Tensor &x) { return grad(grad(squareFn))(x); });
  EXPECT_EQ(f(constant(3.)).item<double>(), 2.0);
}

TEST(EagerAnnouncement, Log1pexpPlainGradient) {
  // float32, as in the announcement: exp(100) overflows, so the plain
  // gradient is inf * 0 = nan.
  EXPECT_EQ(grad(log1pexp)(0.f).item<float>(), 0.5f);
  EXPECT_TRUE(std::isnan(grad(log1pexp)(100.f).item<float>()));
  auto f = function([](const Tensor &x) { return grad(log1pexp)(x); });
  EXPECT_EQ(f(constant(0.f)).item<float>(), 0.5f);
  EXPECT_TRUE(std::isnan(f(constant(100.f)).item<float>()));
}

TEST(EagerAnnouncement, Log1pexpCustomGradient) {
  EXPECT_EQ(grad(log1pexpStable)(0.f).item<float>(), 0.5f);
  EXPECT_EQ(grad(log1pexpStable)(100.f).item<float>(), 1.0f);
  auto f = function([](const Tensor &x) { return grad(log1pexpStable)(x); });
  EXPECT_EQ(f(constant(0.f)).item<float>(), 0.5f);
  EXPECT_EQ(f(constant(100.f)).item<float>(), 1.0f);
  // The value is the forward function's.
  EXPECT_NEAR(log1pexpStable(constant(0.f)).item<float>(), std::log(2.f), 1e-6);
}

// --- grad / value_and_grad ---------------------------------------------------

// floor is piecewise constant: no gradient flows (as tf.math.floor), eagerly
// and through tfc-autodiff in compiled code, so x's gradient is only the
// linear term's.
TEST(Grad, FloorPassesNoGradient) {
  Tensor x = constant({-1.5, 0.25, 2.0});
  GradientTape tape;
  tape.watch(x);
  Tensor y = reduce_sum(floor(x) * x + x);
  Tensor g = tape.gradient(y, x);
  // d/dx (floor(x) * x + x) = floor(x) + 1 where floor's own slope is 0.
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{-1.0, 1.0, 3.0}));
  auto compiled = tfc::function([](const Tensor &v) {
    GradientTape t;
    t.watch(v);
    Tensor out = reduce_sum(floor(v) * v + v);
    return t.gradient(out, v);
  });
  EXPECT_EQ(compiled(x).to_vector<double>(),
            (std::vector<double>{-1.0, 1.0, 3.0}));
}

TEST(Grad, TfcOpsByName) {
  // A tfc op passed by name (its location parameter is filled in).
  Tensor x = constant({0.5, -1.0});
  Tensor g = grad(tfc::tanh)(x);
  std::vector<double> got = g.to_vector<double>();
  EXPECT_NEAR(got[0], 1 - std::pow(std::tanh(0.5), 2), 1e-12);
  EXPECT_NEAR(got[1], 1 - std::pow(std::tanh(-1.0), 2), 1e-12);
}

TEST(Grad, ExtraArgumentsAreNotDifferentiated) {
  auto f = [](const Tensor &x, const Tensor &y) { return x * y; };
  EXPECT_EQ(grad(f)(constant(2.), constant(5.)).item<double>(), 5.0);
}

TEST(Grad, ValueAndGrad) {
  auto [value, g] = value_and_grad(squareFn)(constant({1.0, 2.0}));
  EXPECT_EQ(value.to_vector<double>(), (std::vector<double>{1, 4}));
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{2, 4}));
  auto f = function([](const Tensor &x) {
    auto [v, dv] = value_and_grad(squareFn)(x);
    return std::pair{v, dv};
  });
  auto [cv, cg] = f(constant({1.0, 2.0}));
  EXPECT_EQ(cv.to_vector<double>(), (std::vector<double>{1, 4}));
  EXPECT_EQ(cg.to_vector<double>(), (std::vector<double>{2, 4}));
}

TEST(Grad, WithRespectToAVariable) {
  Variable w(constant({1.0, 2.0, 3.0}), "w");
  Tensor g = grad([](const Variable &v) { return reduce_sum(square(v)); })(w);
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{2, 4, 6}));
}

TEST(Grad, ThirdDerivativeOfTanhMatchesClosedForm) {
  Tensor x = constant({-1.5, -0.3, 0.0, 0.4, 1.2});
  auto third = grad(grad(grad(tfc::tanh)));
  auto closedForm = [](double v) {
    double t = std::tanh(v);
    return (1 - t * t) * (6 * t * t - 2);
  };
  std::vector<double> eager = third(x).to_vector<double>();
  auto f = function([&](const Tensor &v) { return third(v); });
  std::vector<double> compiled = f(x).to_vector<double>();
  std::vector<double> xs = x.to_vector<double>();
  for (size_t i = 0; i < xs.size(); ++i) {
    EXPECT_NEAR(eager[i], closedForm(xs[i]), 1e-12) << xs[i];
    EXPECT_NEAR(compiled[i], closedForm(xs[i]), 1e-12) << xs[i];
  }
}

// --- GradientTape ------------------------------------------------------------

TEST(Tape, WatchedTensor) {
  Tensor x = constant(3.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = x * x;
  EXPECT_EQ(tape.gradient(y, x).item<double>(), 6.0);
}

TEST(Tape, UnwatchedConstantsAreNotTraced) {
  Tensor x = constant(3.0);
  GradientTape tape;
  Tensor y = x * x;
  // Not watched: zeros, like TensorFlow's None for an unwatched source.
  EXPECT_EQ(tape.gradient(y, x).item<double>(), 0.0);
}

TEST(Tape, NonScalarTargetIsSummed) {
  Tensor x = constant({1.0, 2.0, 3.0});
  GradientTape tape;
  tape.watch(x);
  Tensor y = x * x; // d(sum(y))/dx = 2x
  EXPECT_EQ(tape.gradient(y, x).to_vector<double>(),
            (std::vector<double>{2, 4, 6}));
}

TEST(Tape, UnconnectedSourcesGetZerosOfTheirShape) {
  Tensor x = constant({1.f, 2.f});
  Tensor z = constant({{1.f, 2.f, 3.f}});
  GradientTape tape;
  tape.watch(x);
  tape.watch(z);
  Tensor y = reduce_sum(x * 2);
  std::vector<Tensor> g = tape.gradient(y, {x, z});
  EXPECT_EQ(g[0].to_vector<float>(), (std::vector<float>{2, 2}));
  EXPECT_EQ(g[1].shape(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(g[1].to_vector<float>(), (std::vector<float>{0, 0, 0}));
}

TEST(Tape, PersistentTapeGivesSeveralGradients) {
  // tf.GradientTape(persistent=True): z = y * y, y = x * x.
  Tensor x = constant(3.f);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = x * x;
  Tensor z = y * y;
  EXPECT_EQ(tape.gradient(z, x).item<float>(), 108.f); // 4 x^3
  EXPECT_EQ(tape.gradient(y, x).item<float>(), 6.f);
  EXPECT_EQ(tape.gradient(z, y).item<float>(), 18.f);
  EXPECT_TRUE(tape.persistent());
}

TEST(Tape, NestedTapesGiveHigherOrderGradients) {
  // The tf.GradientTape guide: d2(x^3)/dx2 at x = 1 is 6.
  auto secondDerivative = [](const Tensor &x0) {
    GradientTape outer;
    outer.watch(x0);
    Tensor dyDx;
    {
      GradientTape inner;
      inner.watch(x0);
      Tensor y = x0 * x0 * x0;
      dyDx = inner.gradient(y, x0);
    }
    return std::pair{dyDx, outer.gradient(dyDx, x0)};
  };
  auto [d1, d2] = secondDerivative(constant(1.0));
  EXPECT_EQ(d1.item<double>(), 3.0);
  EXPECT_EQ(d2.item<double>(), 6.0);
  auto f = function([&](const Tensor &x) { return secondDerivative(x); });
  auto [c1, c2] = f(constant(1.0));
  EXPECT_EQ(c1.item<double>(), 3.0);
  EXPECT_EQ(c2.item<double>(), 6.0);
}

TEST(Tape, SamePersistentTapeForSecondOrder) {
  // A persistent tape records its own backward pass, as in TensorFlow.
  Tensor x = constant(2.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = x * x * x;
  Tensor dy = tape.gradient(y, x);
  EXPECT_EQ(dy.item<double>(), 12.0);
  EXPECT_EQ(tape.gradient(dy, x).item<double>(), 12.0); // 6x
}

TEST(Tape, TrainableVariablesAreWatchedAutomatically) {
  Variable w(constant({{1.f, 2.f}, {3.f, 4.f}}), "w");
  Variable b(constant({0.5f, -0.5f}), "b");
  Variable frozen(constant(2.f), "frozen", /*trainable=*/false);
  Tensor x = constant({{1.f, 1.f}});
  GradientTape tape;
  Tensor y = reduce_sum((matmul(x, w) + b) * Tensor(frozen));
  std::vector<Tensor> g = tape.gradient(y, std::vector<Variable>{w, b, frozen});
  EXPECT_EQ(g[0].to_vector<float>(), (std::vector<float>{2, 2, 2, 2}));
  EXPECT_EQ(g[1].to_vector<float>(), (std::vector<float>{2, 2}));
  // Not trainable and not watched: zeros.
  EXPECT_EQ(g[2].item<float>(), 0.f);
}

TEST(Tape, WatchedNonTrainableVariable) {
  Variable frozen(constant(2.f), "frozen", /*trainable=*/false);
  GradientTape tape;
  tape.watch(frozen);
  Tensor y = frozen.value() * 5.f;
  EXPECT_EQ(tape.gradient(y, frozen).item<float>(), 5.f);
}

TEST(Tape, VariableReadBeforeAndAfterAnAssignment) {
  // Each read is a use of the variable: the gradient sums over them.
  Variable v(constant(1.0), "v");
  GradientTape tape;
  Tensor a = v.value() * 3.0;
  v.assign(constant(2.0));
  Tensor b = v.value() * 4.0;
  EXPECT_EQ(tape.gradient(a + b, v).item<double>(), 7.0);
}

TEST(Tape, VariablesInsideAFunctionTrainingStep) {
  // One SGD step on a linear model, eager and compiled, must agree.
  auto makeStep = [](Variable w, Variable b) {
    return [w, b](const Tensor &x, const Tensor &y) mutable {
      GradientTape tape;
      Tensor pred = matmul(x, w) + b;
      Tensor loss = reduce_mean(square(pred - y));
      std::vector<Tensor> g = tape.gradient(loss, std::vector<Variable>{w, b});
      w.assign_sub(g[0] * 0.1);
      b.assign_sub(g[1] * 0.1);
      return loss;
    };
  };
  Tensor x = random_uniform({8, 3}, -1, 1, 7, DType::Float64);
  Tensor y = random_uniform({8, 1}, -1, 1, 8, DType::Float64);
  Tensor w0 = random_uniform({3, 1}, -1, 1, 9, DType::Float64);
  Variable we(w0, "w"), be(zeros({1}, DType::Float64), "b");
  Variable wc(w0, "w"), bc(zeros({1}, DType::Float64), "b");
  auto eagerStep = makeStep(we, be);
  auto compiledStep = function(makeStep(wc, bc));
  for (int i = 0; i < 3; ++i) {
    Tensor le = eagerStep(x, y), lc = compiledStep(x, y);
    EXPECT_TRUE(allClose(lc, le, 1e-12)) << "step " << i;
  }
  EXPECT_TRUE(allClose(wc.value(), we.value(), 1e-12));
  EXPECT_TRUE(allClose(bc.value(), be.value(), 1e-12));
  EXPECT_EQ(compiledStep.tracing_count(), 1);
}

TEST(Tape, StopGradientAndStopRecording) {
  Tensor x = constant(3.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = x * stop_gradient(x); // d/dx = stop_gradient(x) = 3
  Tensor z;
  {
    auto pause = tape.stop_recording();
    z = x * x; // not recorded
  }
  EXPECT_EQ(tape.gradient(y, x).item<double>(), 3.0);
  EXPECT_EQ(tape.gradient(z, x).item<double>(), 0.0);
}

TEST(Tape, ResetForgetsTheRecord) {
  Tensor x = constant(2.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = x * x;
  tape.reset();
  tape.watch(x);
  Tensor z = x * x * x;
  EXPECT_EQ(tape.gradient(y + z, x).item<double>(), 12.0); // only z recorded
}

TEST(Tape, OutputGradients) {
  Tensor x = constant({1.0, 2.0});
  GradientTape tape;
  tape.watch(x);
  Tensor y = x * x;
  std::vector<Tensor> g = tape.gradient({y}, {x}, {constant({10.0, 100.0})});
  EXPECT_EQ(g[0].to_vector<double>(), (std::vector<double>{20, 400}));
}

TEST(Tape, NoTapeMeansNoObserver) {
  // No tape alive: the dispatch funnel has no observer (zero cost).
  EXPECT_FALSE(detail::has_op_observers());
  {
    GradientTape tape;
    EXPECT_TRUE(detail::has_op_observers());
  }
  EXPECT_FALSE(detail::has_op_observers());
}

TEST(Tape, GradientOfCompiledCodeIsTraced) {
  // Inside tfc::function the backward pass is IR, compiled with the forward.
  auto f = function([](const Tensor &x) {
    GradientTape tape;
    tape.watch(x);
    Tensor y = reduce_sum(sin(x) * x);
    return tape.gradient(y, x);
  });
  Tensor x = constant({0.5, 1.5});
  std::vector<double> got = f(x).to_vector<double>();
  for (size_t i = 0; i < 2; ++i) {
    double v = x.to_vector<double>()[i];
    EXPECT_NEAR(got[i], std::cos(v) * v + std::sin(v), 1e-12);
  }
  std::string ir = f.ir("tfc");
  EXPECT_NE(ir.find("tfc.cos"), std::string::npos) << ir;
}

TEST(Tape, ErrorInsideATracedBranchLeavesNothingBehind) {
  // A tape inside a trace wraps the tracer's hook; an exception thrown in a
  // traced cond branch must unwind it, so that later traces and eager ops
  // work.
  auto f = function([](const Tensor &x) {
    GradientTape tape;
    tape.watch(x);
    Tensor y = cond(
        reduce_sum(x) > 0.0, [&] { return x * x; },
        [&] { return reshape(x, {7}); }); // (2,) cannot become (7,)
    return tape.gradient(y, x);
  });
  EXPECT_THROW(f(constant({1.0, 2.0})), InvalidArgumentError);
  EXPECT_EQ(detail::active_trace_hook(), nullptr);
  EXPECT_FALSE(detail::has_op_observers());
  auto g = function([](const Tensor &x) { return grad(squareFn)(x); });
  EXPECT_EQ(g(constant(4.0)).item<double>(), 8.0);
  EXPECT_EQ(grad(squareFn)(5.0).item<double>(), 10.0);
}

// --- custom_gradient ---------------------------------------------------------

TEST(CustomGradient, TwoInputsReturnAVector) {
  // f(x, y) = x * y with a gradient scaled by 10 on purpose.
  auto f = custom_gradient([](const Tensor &x, const Tensor &y) {
    return std::pair{x * y, [x, y](const Tensor &dy) {
                       return std::vector<Tensor>{dy * y * 10, dy * x * 10};
                     }};
  });
  Tensor a = constant(2.0), b = constant(3.0);
  GradientTape tape;
  tape.watch(a);
  tape.watch(b);
  Tensor y = f(a, b);
  EXPECT_EQ(y.item<double>(), 6.0);
  std::vector<Tensor> g = tape.gradient(y, {a, b});
  EXPECT_EQ(g[0].item<double>(), 30.0);
  EXPECT_EQ(g[1].item<double>(), 20.0);
}

TEST(CustomGradient, ClipGradientInsideAFunction) {
  // The tf.custom_gradient docs' gradient clipping, compiled.
  auto clipGradient = custom_gradient([](const Tensor &x) {
    return std::pair{x * 1.0, [](const Tensor &dy) {
                       return minimum(maximum(dy, -0.5), 0.5);
                     }};
  });
  auto f = function([&](const Tensor &x) {
    GradientTape tape;
    tape.watch(x);
    Tensor y = clipGradient(x) * 4.0;
    return tape.gradient(y, x);
  });
  EXPECT_EQ(f(constant({1.0, 2.0})).to_vector<double>(),
            (std::vector<double>{0.5, 0.5}));
}

TEST(CustomGradient, IdentityForwardStillUsesTheBackward) {
  auto doubleGradient = custom_gradient([](const Tensor &x) {
    return std::pair{x, [](const Tensor &dy) { return dy * 2.0; }};
  });
  Tensor x = constant(1.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = doubleGradient(x) * 3.0;
  EXPECT_EQ(tape.gradient(y, x).item<double>(), 6.0);
}

// tf.custom_gradient records the forward too: the second derivative of the
// stable log1pexp is d/dx (1 - 1/(1 + e^x)) = e^x / (1 + e^x)^2, 0.25 at 0
// (the backward's capture e = exp(x) depends on x).
TEST(CustomGradient, SecondOrderDifferentiatesTheBackward) {
  EXPECT_NEAR(grad(log1pexpStable)(0.0).item<double>(), 0.5, 1e-12);
  EXPECT_NEAR(grad(grad(log1pexpStable))(0.0).item<double>(), 0.25, 1e-12);
  double e = std::exp(1.5);
  EXPECT_NEAR(grad(grad(log1pexpStable))(1.5).item<double>(),
              e / ((1 + e) * (1 + e)), 1e-12);
  // First order is still the custom rule alone (not the forward's ops).
  auto doubled = custom_gradient([](const Tensor &x) {
    return std::pair{x * x, [x](const Tensor &dy) { return dy * 4.0 * x; }};
  });
  EXPECT_DOUBLE_EQ(grad(doubled)(3.0).item<double>(), 12.0);
}

// A forward that reads trainable Variables: the backward takes them and
// returns their gradients (tf.custom_gradient's grad_fn(dy, variables)).
TEST(CustomGradient, VariablesReadInTheForwardGetGradients) {
  Variable w(constant(2.0), "w");
  auto scaled = custom_gradient([&](const Tensor &x) {
    Tensor y = w.value() * x;
    return std::pair{
        y, [x](const Tensor &dy, const std::vector<Variable> &vars) {
          // d/dx = w, d/dw = x; the rule reads w through what it is given.
          return std::pair{dy * vars[0].value(), std::vector<Tensor>{dy * x}};
        }};
  });
  Tensor x = constant(5.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = scaled(x);
  EXPECT_DOUBLE_EQ(tape.gradient(y, x).item<double>(), 2.0);
  EXPECT_DOUBLE_EQ(tape.gradient(y, std::vector<Variable>{w})[0].item<double>(),
                   5.0);
}

// The same inside a traced function (the watcher stands in front of the
// trace hook), with the tape inside the function.
TEST(CustomGradient, VariablesReadInATracedForwardGetGradients) {
  Variable w(constant(2.0), "w");
  auto scaled = custom_gradient([&](const Tensor &x) {
    Tensor y = w.value() * x;
    return std::pair{
        y, [x](const Tensor &dy, const std::vector<Variable> &vars) {
          return std::pair{dy * vars[0].value(), std::vector<Tensor>{dy * x}};
        }};
  });
  auto step = function([&](const Tensor &x) {
    GradientTape tape(/*persistent=*/true);
    tape.watch(x);
    Tensor y = scaled(x);
    return std::vector<Tensor>{tape.gradient(y, x),
                               tape.gradient(y, std::vector<Variable>{w})[0]};
  });
  std::vector<Tensor> g = step(constant(5.0));
  EXPECT_DOUBLE_EQ(g[0].item<double>(), 2.0);
  EXPECT_DOUBLE_EQ(g[1].item<double>(), 5.0);
  // Traced, a backward that cannot take the variables is an error too.
  auto plain = custom_gradient([&](const Tensor &x) {
    return std::pair{w.value() * x, [](const Tensor &dy) { return dy * 2.0; }};
  });
  auto bad = function([&](const Tensor &x) { return plain(x); });
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { bad(constant(5.0)); },
      {"custom_gradient", "trainable Variable 'w'"}));
}

// Without a way to return them, the variables' gradients would be lost:
// the call throws, naming them.
TEST(CustomGradient, VariablesReadWithoutAVariableBackwardThrow) {
  Variable w(constant(2.0), "w");
  auto scaled = custom_gradient([&](const Tensor &x) {
    return std::pair{w.value() * x, [](const Tensor &dy) { return dy * 2.0; }};
  });
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { scaled(constant(5.0)); },
                                               {"custom_gradient",
                                                "trainable Variable 'w'",
                                                "std::vector<tfc::Variable>"}));
  // A wrong number of variable gradients is an error too.
  auto wrong = custom_gradient([&](const Tensor &x) {
    return std::pair{w.value() * x,
                     [](const Tensor &dy, const std::vector<Variable> &) {
                       return std::pair{dy, std::vector<Tensor>{}};
                     }};
  });
  Tensor x = constant(5.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = wrong(x);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { tape.gradient(y, x); },
      {"custom_gradient", "returned 0 variable gradients for 1 variables"}));
}

// --- Bad input ---------------------------------------------------------------

TEST(BadInput, IntegerSource) {
  Tensor x = constant({1, 2, 3});
  GradientTape tape;
  tape.watch(x);
  Tensor y = x * 2;
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { tape.gradient(cast(y, DType::Float32), x); },
      {"GradientTape.gradient", "source 0", "int32", "(3,)", "float32"}));
}

TEST(BadInput, IntegerTarget) {
  Tensor x = constant(2.f);
  GradientTape tape;
  tape.watch(x);
  Tensor y = cast(x, DType::Int64);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { tape.gradient(y, x); },
                                               {"target", "int64"}));
}

TEST(BadInput, IntegerVariableSource) {
  Variable counter(constant(0), "counter");
  GradientTape tape;
  Tensor y = cast(counter.value(), DType::Float32);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { tape.gradient(y, counter); }, {"'counter'", "int32"}));
}

TEST(BadInput, GradOfIntegerArgument) {
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { grad(squareFn)(3); },
                                               {"source 0", "int32"}));
}

TEST(BadInput, NonPersistentTapeUsedTwice) {
  Tensor x = constant(3.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = x * x;
  EXPECT_EQ(tape.gradient(y, x).item<double>(), 6.0);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { tape.gradient(y, x); },
                                               {"only once", "persistent"}));
}

TEST(BadInput, CustomGradientWrongShape) {
  auto bad = custom_gradient([](const Tensor &x) {
    return std::pair{reduce_sum(x), [](const Tensor &dy) {
                       return dy * constant({1.0, 2.0, 3.0}); // (3,) not (2,)
                     }};
  });
  Tensor x = constant({1.0, 2.0});
  GradientTape tape;
  tape.watch(x);
  Tensor y = bad(x);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { tape.gradient(y, x); },
      {"custom_gradient", "shape (3,)", "input 0", "shape (2,)"}));
}

TEST(BadInput, CustomGradientWrongCount) {
  auto bad = custom_gradient([](const Tensor &x) {
    return std::pair{x * 2.0, [](const Tensor &dy) {
                       return std::vector<Tensor>{dy, dy};
                     }};
  });
  Tensor x = constant(1.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = bad(x);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { tape.gradient(y, x); },
                                               {"2 gradients for 1 inputs"}));
}

TEST(BadInput, UndefinedTensors) {
  GradientTape tape;
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { tape.watch(Tensor()); },
                                               {"watch", "undefined"}));
  Tensor x = constant(1.0);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { tape.gradient(Tensor(), x); }, {"target 0", "undefined"}));
}

TEST(BadInput, OutputGradientsOfTheWrongShape) {
  Tensor x = constant({1.0, 2.0});
  GradientTape tape;
  tape.watch(x);
  Tensor y = x * x;
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { tape.gradient({y}, {x}, {constant(1.0)}); },
      {"output_gradients[0]", "()", "(2,)"}));
}

TEST(BadInput, MovedFromTape) {
  GradientTape a;
  GradientTape b(std::move(a));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { a.watch(constant(1.0)); },
                                               {"moved from"}));
}

} // namespace
