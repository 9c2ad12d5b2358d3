//===- CompiledCallTapeTest.cpp - A tape around a compiled call ----------===//
//
// A GradientTape outside a tfc::function records each call as one node whose
// gradient is the function's compiled VJP (tfc-vjp, CompiledCallGradient.cpp).
// Gradients reach the tensor arguments and the trainable Variables the code
// read, higher orders work, and a function that cannot be differentiated
// makes the gradient throw and say why, never a silent zero. Every op
// family's finite-difference test also runs around a compiled call
// (GradTestUtil.h, checkGradients).
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

using namespace tfc;
using namespace tfc::gradtest;

namespace {

// The example: TensorFlow gives 12.
TEST(CompiledCallTape, GradientThroughTheCall) {
  auto cube =
      function([](const Tensor &x) { return x * x * x; }, {.name = "cube"});
  Tensor x = constant(2.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = cube(x);
  EXPECT_DOUBLE_EQ(y.item<double>(), 8.0);
  EXPECT_DOUBLE_EQ(tape.gradient(y, x).item<double>(), 12.0);
}

// The backward is recorded by an outer tape: second and third derivatives.
TEST(CompiledCallTape, HigherOrders) {
  auto cube =
      function([](const Tensor &x) { return x * x * x; }, {.name = "cube"});
  Tensor x = constant(2.0);
  GradientTape t3, t2;
  t3.watch(x);
  t2.watch(x);
  Tensor d2;
  {
    GradientTape t1;
    t1.watch(x);
    Tensor y = cube(x);
    Tensor d1 = t1.gradient(y, x);
    EXPECT_DOUBLE_EQ(d1.item<double>(), 12.0); // 3x^2
    d2 = t2.gradient(d1, x);
  }
  EXPECT_DOUBLE_EQ(d2.item<double>(), 12.0);                // 6x
  EXPECT_DOUBLE_EQ(t3.gradient(d2, x).item<double>(), 6.0); // 6
}

TEST(CompiledCallTape, TrainableVariablesReadInsideGetGradients) {
  Variable w(constant({1.f, 2.f}), "w");
  Variable frozen(constant({5.f, 5.f}), "frozen", /*trainable=*/false);
  auto loss = function(
      [&](const Tensor &x) {
        return reduce_sum(w.value() * x + frozen.value() * x);
      },
      {.name = "loss"});
  Tensor x = constant({3.f, 4.f});
  loss(x); // traced outside any tape
  GradientTape tape(/*persistent=*/true);
  Tensor y = loss(x);
  std::vector<Tensor> g = tape.gradient(y, std::vector<Variable>{w});
  EXPECT_TRUE(allClose(g[0], constant({3.f, 4.f})));
  // Not trainable: not watched, so no path to it (zeros, as for any
  // unwatched source).
  EXPECT_TRUE(allClose(tape.gradient(y, std::vector<Variable>{frozen})[0],
                       constant({0.f, 0.f})));
}

TEST(CompiledCallTape, VariableWritesCommitAndGradientsUseTheReadValue) {
  Variable w(constant(3.0), "w");
  auto step = function(
      [&](const Tensor &x) {
        Tensor y = w.value() * x;
        w.assign_add(constant(1.0));
        return y;
      },
      {.name = "step"});
  Tensor x = constant(2.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = step(x);
  EXPECT_DOUBLE_EQ(y.item<double>(), 6.0);
  EXPECT_DOUBLE_EQ(w.value().item<double>(), 4.0);
  EXPECT_DOUBLE_EQ(tape.gradient(y, x).item<double>(), 3.0);
  EXPECT_DOUBLE_EQ(tape.gradient(y, std::vector<Variable>{w})[0].item<double>(),
                   2.0);
}

TEST(CompiledCallTape, SeveralResults) {
  auto both = function(
      [](const Tensor &a, const Tensor &b) {
        return std::vector<Tensor>{a * b, sin(a)};
      },
      {.name = "both"});
  Tensor a = constant(0.5), b = constant(3.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(a);
  tape.watch(b);
  std::vector<Tensor> r = both(a, b);
  Tensor total = r[0] + 2.0 * r[1];
  EXPECT_NEAR(tape.gradient(total, a).item<double>(), 3.0 + 2 * std::cos(0.5),
              1e-12);
  EXPECT_DOUBLE_EQ(tape.gradient(total, b).item<double>(), 0.5);
  // Only one result on the path.
  EXPECT_NEAR(tape.gradient(r[1], a).item<double>(), std::cos(0.5), 1e-12);
}

// A while_loop keeps its values on stacks, which a function cannot return:
// the backward recomputes the forward through @f_vjp.
TEST(CompiledCallTape, Loops) {
  auto power = function(
      [](const Tensor &x) {
        return while_loop(
            [](const std::vector<Tensor> &v) { return v[1] < int64_t(3); },
            [](const std::vector<Tensor> &v) {
              return std::vector<Tensor>{v[0] * v[0], v[1] + int64_t(1)};
            },
            {x, constant(int64_t(0))})[0];
      },
      {.name = "power"});
  Tensor x = constant(1.1);
  GradientTape tape;
  tape.watch(x);
  Tensor y = power(x); // x^8
  EXPECT_NEAR(tape.gradient(y, x).item<double>(), 8 * std::pow(1.1, 7), 1e-12);
}

TEST(CompiledCallTape, BackwardDoesNotRerunTheForward) {
  // A print in the function runs in the forward only: the backward reads
  // the residuals the forward kept (@f_bwd), it does not recompute.
  std::vector<std::string> lines;
  set_print_sink([&](std::string_view line) { lines.emplace_back(line); });
  auto f = function(
      [](const Tensor &x) {
        print("forward");
        return tanh(x) * x;
      },
      {.name = "f"});
  Tensor x = constant({0.5f, -1.f});
  GradientTape tape;
  tape.watch(x);
  Tensor y = f(x);
  size_t forwardLines = lines.size();
  EXPECT_EQ(forwardLines, 1u);
  Tensor g = tape.gradient(y, x);
  set_print_sink(nullptr);
  EXPECT_EQ(lines.size(), forwardLines);
  std::vector<float> xs{0.5f, -1.f}, want;
  for (float v : xs)
    want.push_back(std::tanh(v) + v * (1 - std::tanh(v) * std::tanh(v)));
  EXPECT_TRUE(allClose(g, from_vector<float>(want, {2}), 1e-6));
}

// recompute_gradient trades time for memory: the call keeps no residuals
// and the backward runs the forward again (the print shows it).
TEST(CompiledCallTape, RecomputeGradientRerunsTheForward) {
  std::vector<std::string> lines;
  set_print_sink([&](std::string_view line) { lines.emplace_back(line); });
  auto f = function(
      [](const Tensor &x) {
        print("forward");
        return tanh(x) * x;
      },
      {.name = "f", .recompute_gradient = true});
  Tensor x = constant({0.5f, -1.f});
  GradientTape tape;
  tape.watch(x);
  Tensor y = f(x);
  EXPECT_EQ(lines.size(), 1u);
  Tensor g = tape.gradient(y, x);
  set_print_sink(nullptr);
  EXPECT_EQ(lines.size(), 2u);
  std::vector<float> want;
  for (float v : {0.5f, -1.f})
    want.push_back(std::tanh(v) + v * (1 - std::tanh(v) * std::tanh(v)));
  EXPECT_TRUE(allClose(g, from_vector<float>(want, {2}), 1e-6));
}

TEST(CompiledCallTape, OtherPathsStillDifferentiate) {
  auto cube =
      function([](const Tensor &x) { return x * x * x; }, {.name = "cube"});
  Tensor x = constant(2.0), z = constant(5.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  tape.watch(z);
  Tensor y = cube(x) + z * z;
  EXPECT_DOUBLE_EQ(tape.gradient(y, z).item<double>(), 10.0);
  EXPECT_DOUBLE_EQ(tape.gradient(y, x).item<double>(), 12.0);
  EXPECT_DOUBLE_EQ(tape.gradient(x * z, x).item<double>(), 5.0);
}

TEST(CompiledCallTape, IntegerResultsAreNotWrapped) {
  auto count = function([](const Tensor &x) { return cast(x, DType::Int32); },
                        {.name = "count"});
  Tensor x = constant(2.5f);
  GradientTape tape;
  tape.watch(x);
  EXPECT_EQ(count(x).item<int32_t>(), 2);
}

// Dynamic dims (reduce_retracing): the VJP is generated for the dynamic
// shapes too, and serves every size the forward serves.
TEST(CompiledCallTape, DynamicShapesDifferentiate) {
  auto sq = function([](const Tensor &x) { return reduce_mean(x * x); },
                     {.reduce_retracing = true, .name = "sq"});
  sq(constant({1.0, 2.0}));
  sq(constant({1.0, 2.0, 3.0})); // now traced with a dynamic dim
  for (int n : {4, 5, 9}) {
    std::vector<double> v(static_cast<size_t>(n)), want(v.size());
    for (int i = 0; i < n; ++i) {
      v[size_t(i)] = 0.5 * i - 1;
      want[size_t(i)] = 2 * v[size_t(i)] / n;
    }
    Tensor x = from_vector<double>(v, {n});
    GradientTape tape;
    tape.watch(x);
    Tensor y = sq(x);
    EXPECT_TRUE(
        allClose(tape.gradient(y, x), from_vector<double>(want, {n}), 1e-12))
        << n;
  }
  EXPECT_EQ(sq.tracing_count(), 2);
}

// A rule that places blocks by static offsets (concat) refuses dynamic
// dims: the gradient says so; the forward still runs and the value is right.
TEST(CompiledCallTape, DynamicShapesThrowNotZero) {
  auto twice = function(
      [](const Tensor &x) {
        return reduce_sum(concat({x, x * x}, 0));
      },
      {.reduce_retracing = true, .name = "twice"});
  twice(constant({1.0, 2.0}));
  twice(constant({1.0, 2.0, 3.0})); // now traced with a dynamic dim
  Tensor x = constant({1.0, 2.0, 3.0, 4.0});
  GradientTape tape;
  tape.watch(x);
  Tensor y = twice(x);
  EXPECT_DOUBLE_EQ(y.item<double>(), 40.0);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { tape.gradient(y, x); },
      {"cannot differentiate the compiled function 'twice'", "concat",
       "static shapes"}));
}

// A training step's gradients inside a reduce_retracing function: the
// relaxed trace (dynamic batch: biases broadcast like the activations, the
// loss a mean over the batch) is differentiated once and serves every batch.
TEST(CompiledCallTape, TapeInsideADynamicBatchStep) {
  auto step = [](const Tensor &x, const Tensor &labels, const Tensor &w1,
                 const Tensor &b1, const Tensor &w2, const Tensor &b2) {
    GradientTape tape;
    tape.watch({w1, b1, w2, b2});
    Tensor h = relu(matmul(x, w1) + b1);
    Tensor logits = matmul(h, w2) + b2;
    Tensor loss =
        reduce_mean(sparse_softmax_cross_entropy_with_logits(labels, logits));
    return tape.gradient(loss, {w1, b1, w2, b2});
  };
  auto compiled = function(step, {.reduce_retracing = true, .name = "step"});
  Tensor w1 = random_uniform({6, 8}, -0.5, 0.5, 1),
         b1 = random_uniform({8}, -0.1, 0.1, 2),
         w2 = random_uniform({8, 4}, -0.5, 0.5, 3),
         b2 = random_uniform({4}, -0.1, 0.1, 4);
  for (int64_t batch : {2, 3, 5, 8, 64}) {
    Tensor x = random_uniform({batch, 6}, -1, 1, uint64_t(10 + batch));
    std::vector<int32_t> ids(static_cast<size_t>(batch));
    for (int64_t i = 0; i < batch; ++i)
      ids[size_t(i)] = int32_t((i * 7) % 4);
    Tensor labels = from_vector<int32_t>(ids, {batch});
    std::vector<Tensor> got = compiled(x, labels, w1, b1, w2, b2),
                        want = step(x, labels, w1, b1, w2, b2);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_TRUE(allClose(got[i], want[i], 1e-5)) << batch << " " << i;
  }
  EXPECT_EQ(compiled.tracing_count(), 2);
  EXPECT_NE(compiled.ir("tfc").find("tensor<?x6xf32>"), std::string::npos);
}

TEST(CompiledCallTape, TapeInsideTheFunctionWorks) {
  auto dcube = function(
      [](const Tensor &x) {
        GradientTape tape;
        tape.watch(x);
        Tensor y = x * x * x;
        return tape.gradient(y, x);
      },
      {.name = "dcube"});
  EXPECT_DOUBLE_EQ(dcube(constant(2.0)).item<double>(), 12.0);
  // And a tape around it: the derivative of the compiled derivative.
  Tensor x = constant(2.0);
  GradientTape tape;
  tape.watch(x);
  EXPECT_DOUBLE_EQ(tape.gradient(dcube(x), x).item<double>(), 12.0);
}

} // namespace

namespace {

// grad and value_and_grad take a tfc::function like any callable; the
// gradient is the compiled VJP of the call.
TEST(CompiledCallTape, GradOfAFunction) {
  auto cube =
      function([](const Tensor &x) { return x * x * x; }, {.name = "cube"});
  EXPECT_DOUBLE_EQ(grad(cube)(2.0).item<double>(), 12.0);
  EXPECT_DOUBLE_EQ(grad(grad(cube))(2.0).item<double>(), 12.0);
  EXPECT_DOUBLE_EQ(grad(grad(grad(cube)))(2.0).item<double>(), 6.0);
  auto [value, slope] = value_and_grad(cube)(constant(3.0));
  EXPECT_DOUBLE_EQ(value.item<double>(), 27.0);
  EXPECT_DOUBLE_EQ(slope.item<double>(), 27.0);
  EXPECT_EQ(cube.tracing_count(), 1); // one signature, one trace
  // A function of several arguments: the gradient of the first.
  auto mix = function([](const Tensor &a, const Tensor &b) {
    return reduce_sum(a * b + sin(a));
  });
  Tensor a = constant({0.5f, 1.f}), b = constant({2.f, 3.f});
  std::vector<float> want;
  for (int i = 0; i < 2; ++i)
    want.push_back(b.to_vector<float>()[i] + std::cos(a.to_vector<float>()[i]));
  EXPECT_TRUE(allClose(grad(mix)(a, b), from_vector<float>(want, {2}), 1e-6));
}

} // namespace

namespace {

/// gates = x @ Wx + h @ Wh + b; i, f, g, o; c' = f*c + i*g; h' = o*tanh(c').
std::vector<Tensor> lstmCell(const Tensor &x, const Tensor &h, const Tensor &c,
                             const Tensor &wx, const Tensor &wh,
                             const Tensor &b) {
  int64_t hidden = h.shape()[1];
  Tensor gates = matmul(x, wx) + matmul(h, wh) + b;
  Tensor i = sigmoid(slice(gates, {0, 0}, {-1, hidden}));
  Tensor f = sigmoid(slice(gates, {0, hidden}, {-1, hidden}));
  Tensor g = tanh(slice(gates, {0, 2 * hidden}, {-1, hidden}));
  Tensor o = sigmoid(slice(gates, {0, 3 * hidden}, {-1, hidden}));
  Tensor c2 = f * c + i * g;
  return {o * tanh(c2), c2};
}

/// The seeds' scenario: an LSTM cell, compiled or not, called step by step
/// from an eager loop under a tape; the loss is the squared distance of the
/// last h to a target. Returns the loss and the weights' gradients.
template <class Cell>
std::pair<Tensor, std::vector<Tensor>>
unrolledLoss(Cell &cell, const std::vector<Tensor> &xs, const Tensor &target,
             const std::vector<Variable> &weights, int64_t batch,
             int64_t hidden, DType dtype) {
  GradientTape tape;
  Tensor h = zeros({batch, hidden}, dtype), c = zeros({batch, hidden}, dtype);
  for (const Tensor &x : xs) {
    std::vector<Tensor> hc = cell(x, h, c, weights[0].value(),
                                  weights[1].value(), weights[2].value());
    h = hc[0];
    c = hc[1];
  }
  Tensor loss = reduce_mean(square(h - target));
  return {loss, tape.gradient(loss, weights)};
}

void checkLstmScenario(DType dtype, double rtol) {
  const int64_t batch = 4, input = 3, hidden = 5, steps = 6;
  auto rnd = [&](std::vector<int64_t> shape, uint64_t seed) {
    return random_uniform(std::move(shape), -0.5, 0.5, seed, dtype);
  };
  std::vector<Tensor> xs;
  for (int64_t t = 0; t < steps; ++t)
    xs.push_back(rnd({batch, input}, 100 + t));
  Tensor target = rnd({batch, hidden}, 7);
  std::vector<Variable> eagerW{Variable(rnd({input, 4 * hidden}, 1)),
                               Variable(rnd({hidden, 4 * hidden}, 2)),
                               Variable(rnd({4 * hidden}, 3))};
  std::vector<Variable> compiledW{Variable(eagerW[0].value()),
                                  Variable(eagerW[1].value()),
                                  Variable(eagerW[2].value())};
  auto compiledCell = function(lstmCell, {.name = "lstm_cell"});
  auto eagerCell = [](const auto &...a) { return lstmCell(a...); };
  std::vector<double> eagerLosses, compiledLosses;
  for (int epoch = 0; epoch < 12; ++epoch) {
    auto [le, ge] =
        unrolledLoss(eagerCell, xs, target, eagerW, batch, hidden, dtype);
    auto [lc, gc] =
        unrolledLoss(compiledCell, xs, target, compiledW, batch, hidden, dtype);
    for (size_t i = 0; i < ge.size(); ++i)
      ASSERT_TRUE(allClose(gc[i], ge[i], rtol))
          << "epoch " << epoch << ", weight " << i;
    eagerLosses.push_back(cast(le, DType::Float64).item<double>());
    compiledLosses.push_back(cast(lc, DType::Float64).item<double>());
    for (size_t i = 0; i < ge.size(); ++i) { // SGD, learning rate 4
      eagerW[i].assign_sub(ge[i] * 4.0);
      compiledW[i].assign_sub(gc[i] * 4.0);
    }
  }
  EXPECT_EQ(compiledCell.tracing_count(), 1);
  EXPECT_LT(compiledLosses.back(), 0.8 * compiledLosses.front()); // it trains
  for (size_t e = 0; e < eagerLosses.size(); ++e)
    EXPECT_NEAR(compiledLosses[e], eagerLosses[e],
                rtol * std::max(1.0, eagerLosses[e]));
}

TEST(CompiledCallTape, LstmCellInAnEagerTrainingLoopFloat32) {
  checkLstmScenario(DType::Float32, 1e-6);
}

TEST(CompiledCallTape, LstmCellInAnEagerTrainingLoopFloat64) {
  checkLstmScenario(DType::Float64, 1e-12);
}

// grad(grad(tfc::function(f))) against the analytic second derivative.
TEST(CompiledCallTape, SecondDerivativesOfCompiledFunctions) {
  auto d2 = [](auto f, double x) {
    return grad(grad(function(f)))(x).template item<double>();
  };
  double x = 0.7;
  EXPECT_NEAR(d2([](const Tensor &v) { return v * v * v; }, x), 6 * x, 1e-12);
  double t = std::tanh(x);
  EXPECT_NEAR(d2([](const Tensor &v) { return tanh(v); }, x),
              -2 * t * (1 - t * t), 1e-12);
  // cond: x^3 for x > 0, sin(x) otherwise.
  auto branchy = [](const Tensor &v) {
    return cond(
        v > 0.0, [&] { return v * v * v; }, [&] { return sin(v); });
  };
  EXPECT_NEAR(d2(branchy, x), 6 * x, 1e-12);
  EXPECT_NEAR(d2(branchy, -x), -std::sin(-x), 1e-12);
  // A data-dependent while_loop: square until the value exceeds 10, so the
  // trip count depends on x (for x = 1.3: 1.3^2, ^4, ^8 = 8.16, ^16: three
  // or four squarings), and the result is x^(2^n).
  auto squaring = [](const Tensor &v) {
    return while_loop([](const std::vector<Tensor> &a) { return a[0] < 10.0; },
                      [](const std::vector<Tensor> &a) {
                        return std::vector<Tensor>{a[0] * a[0]};
                      },
                      std::vector<Tensor>{v})[0];
  };
  // The recorded backward of a loop keeps no stacks (tfc-vjp
  // recompute-loops), so it is differentiable again.
  for (double x0 : {1.3, 2.0, 3.5}) {
    int n = 0;
    double a = x0;
    while (a < 10.0) {
      a *= a;
      ++n;
    }
    double p = std::pow(2.0, n);
    EXPECT_NEAR(grad(function(squaring))(x0).item<double>(),
                p * std::pow(x0, p - 1), 1e-9 * p * std::pow(x0, p - 1))
        << "x = " << x0;
    EXPECT_NEAR(d2(squaring, x0), p * (p - 1) * std::pow(x0, p - 2),
                1e-9 * p * p * std::pow(x0, p - 2))
        << "x = " << x0;
  }
}

// TensorFlow's log1pexp with a custom gradient, in float32 as in the issue.
TEST(CompiledCallTape, SecondDerivativeOfLog1pexpCustomGradient) {
  auto log1pexp = custom_gradient([](const Tensor &x) {
    Tensor e = exp(x);
    return std::pair{log(1 + e),
                     [e](const Tensor &dy) { return dy * (1 - 1 / (1 + e)); }};
  });
  EXPECT_EQ(grad(grad(log1pexp))(0.f).item<float>(), 0.25f);
}

// A custom_gradient called inside a tfc::function keeps its rule when a
// tape records a call of the compiled code: the trace holds a
// tfc.custom_gradient (before, the rule was dropped and the compiled VJP
// differentiated the forward: NaN at 100, where exp overflows).
TEST(CompiledCallTape, CustomGradientInsideACompiledCall) {
  auto log1pexp = custom_gradient([](const Tensor &x) {
    Tensor e = exp(x);
    return std::pair{log(1 + e),
                     [e](const Tensor &dy) { return dy * (1 - 1 / (1 + e)); }};
  });
  auto f = function([&](const Tensor &x) { return log1pexp(x) * 2.f; });
  Tensor x = constant({0.f, 100.f});
  GradientTape tape;
  tape.watch(x);
  Tensor y = f(x);
  EXPECT_EQ(tape.gradient(y, x).to_vector<float>(),
            (std::vector<float>{1.f, 2.f}));
  EXPECT_NE(f.ir().find("tfc.custom_gradient"), std::string::npos);
  EXPECT_EQ(y.to_vector<float>()[0], std::log(2.f) * 2.f);
}

// The same with a Variable read in the forward and in the backward: the
// trace reads it outside the op, and the Variable gets its gradient from
// the compiled VJP.
TEST(CompiledCallTape, TracedCustomGradientWithVariables) {
  Variable w(constant(2.0), "w");
  auto scaled = custom_gradient([&](const Tensor &x) {
    Tensor y = w.value() * x;
    return std::pair{y,
                     [x](const Tensor &dy, const std::vector<Variable> &vars) {
                       return std::pair{dy * vars[0].value() * 10.0,
                                        std::vector<Tensor>{dy * x * 10.0}};
                     }};
  });
  auto f = function([&](const Tensor &x) { return scaled(x) * 3.0; });
  Tensor x = constant(5.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  Tensor y = f(x);
  EXPECT_DOUBLE_EQ(y.item<double>(), 30.0);
  EXPECT_DOUBLE_EQ(tape.gradient(y, x).item<double>(), 60.0);
  EXPECT_DOUBLE_EQ(tape.gradient(y, std::vector<Variable>{w})[0].item<double>(),
                   150.0);
}

// A backward returning the wrong shape or count throws when traced, as it
// throws eagerly when the tape computes gradients.
TEST(CompiledCallTape, TracedCustomGradientChecksTheBackward) {
  auto badShape = custom_gradient([](const Tensor &x) {
    return std::pair{x * 2.0, [](const Tensor &) { return constant({1.0}); }};
  });
  auto f = function([&](const Tensor &x) { return badShape(x); });
  try {
    f(constant({1.0, 2.0}));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("custom_gradient: the backward "
                                         "function returned a gradient"),
              std::string::npos)
        << e.what();
  }
  auto badCount = custom_gradient([](const Tensor &a, const Tensor &b) {
    return std::pair{a * b,
                     [](const Tensor &dy) { return std::vector<Tensor>{dy}; }};
  });
  auto g = function([&](const Tensor &a) { return badCount(a, a); });
  EXPECT_THROW(g(constant({1.0})), InvalidArgumentError);
}

// custom_gradient of a tfc::function: one compiled function whose custom
// backward is what a tape around its call, grad and grad(grad) use.
TEST(CompiledCallTape, CustomGradientOfAFunction) {
  auto clip = custom_gradient(function([](const Tensor &x) {
    return std::pair{x * 1.0, [](const Tensor &dy) {
                       return minimum(maximum(dy, -0.5), 0.5);
                     }};
  }));
  Tensor x = constant({1.0, 2.0});
  GradientTape tape;
  tape.watch(x);
  Tensor y = clip(x) * 4.0;
  EXPECT_EQ(tape.gradient(y, x).to_vector<double>(),
            (std::vector<double>{0.5, 0.5}));
  EXPECT_EQ(clip(constant({3.0, -1.0})).to_vector<double>(),
            (std::vector<double>{3.0, -1.0}));
  EXPECT_EQ(clip.tracing_count(), 1);

  auto log1pexp = custom_gradient(function([](const Tensor &x) {
    Tensor e = exp(x);
    return std::pair{log(1 + e),
                     [e](const Tensor &dy) { return dy * (1 - 1 / (1 + e)); }};
  }));
  EXPECT_EQ(grad(log1pexp)(0.f).item<float>(), 0.5f);
  EXPECT_EQ(grad(grad(log1pexp))(0.f).item<float>(), 0.25f);
  // exp(100) overflows float32: the custom gradient is 1, where the
  // recorded forward's own gradient would be inf / inf = NaN.
  EXPECT_EQ(grad(log1pexp)(100.f).item<float>(), 1.0f);
}

} // namespace
