//===- FiniteDifferenceTest.cpp - Every op's gradient vs finite differences
//===//
//
// For every differentiable op, in float64 on random inputs: the tape's
// gradient eagerly, and inside a tfc::function (traced and JIT-compiled),
// both against central differences (relative tolerance 1e-6) and against
// each other. The loss is sum(op(...) * w) with random w, so every output
// element carries its own upstream gradient.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

using namespace tfc;
using namespace tfc::gradtest;

namespace {

using V = std::vector<Tensor>;

/// Random values away from 0 with both signs (for abs, relu, max, ...).
Tensor signedAwayFromZero(std::vector<int64_t> shape, uint64_t seed) {
  Tensor magnitude = rand64(shape, 0.3, 2.0, seed);
  Tensor sign =
      cast(greater(rand64(shape, -1, 1, seed + 1), 0.0), DType::Float64) * 2.0 -
      1.0;
  return magnitude * sign;
}

TEST(FiniteDifference, UnaryOps) {
  Tensor anywhere = rand64({2, 3}, -2, 2, 1);
  Tensor positive = rand64({2, 3}, 0.2, 3, 2);
  Tensor awayFromZero = signedAwayFromZero({2, 3}, 3);
  struct Case {
    const char *name;
    Tensor (*op)(const Tensor &, std::source_location);
    Tensor input;
  } cases[] = {
      {"neg", tfc::neg, anywhere},         {"abs", tfc::abs, awayFromZero},
      {"exp", tfc::exp, anywhere},         {"log", tfc::log, positive},
      {"log1p", tfc::log1p, positive},     {"sqrt", tfc::sqrt, positive},
      {"square", tfc::square, anywhere},   {"sin", tfc::sin, anywhere},
      {"cos", tfc::cos, anywhere},         {"tanh", tfc::tanh, anywhere},
      {"sigmoid", tfc::sigmoid, anywhere}, {"relu", tfc::relu, awayFromZero},
  };
  for (const Case &c : cases) {
    auto op = c.op;
    checkGradients(c.name, [op](const V &x) { return op(x[0], {}); },
                   {c.input});
  }
}

TEST(FiniteDifference, BinaryOpsWithBroadcasting) {
  struct Shapes {
    std::vector<int64_t> a, b;
  } shapes[] = {{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 1}, {1, 3}},
                {{2, 3}, {}},     {{}, {4}},     {{3, 1, 2}, {4, 1}}};
  struct Case {
    const char *name;
    Tensor (*op)(const Tensor &, const Tensor &, std::source_location);
    double lo, hi;
  } cases[] = {
      {"add", tfc::add, -2, 2},         {"sub", tfc::sub, -2, 2},
      {"mul", tfc::mul, -2, 2},         {"div", tfc::div, 0.5, 2},
      {"pow", tfc::pow, 0.5, 2},        {"maximum", tfc::maximum, -2, 2},
      {"minimum", tfc::minimum, -2, 2},
  };
  uint64_t seed = 10;
  for (const Case &c : cases)
    for (const Shapes &s : shapes) {
      auto op = c.op;
      Tensor a = rand64(s.a, c.lo, c.hi, seed++);
      Tensor b = rand64(s.b, c.lo, c.hi, seed++);
      checkGradients(std::string(c.name) + " " + shape_to_string(s.a) + " " +
                         shape_to_string(s.b),
                     [op](const V &x) { return op(x[0], x[1], {}); }, {a, b});
    }
}

TEST(FiniteDifference, PowWithNegativeBaseAndIntegerExponent) {
  // d/da a^b is fine for a < 0 with integral b; d/db is 0 there (TF's rule),
  // so only the base is checked numerically.
  Tensor a = rand64({4}, -2, -0.5, 40);
  Tensor b = constant({2.0, 3.0, 1.0, 4.0});
  checkGradients("pow base", [b](const V &x) { return pow(x[0], b); }, {a});
}

TEST(FiniteDifference, ModAwayFromItsJumps) {
  // mod(a, b) = a - floor(a / b) b jumps where a / b is an integer. Here a / b
  // is an integer in [-3, 3) plus a fraction in [0.2, 0.8], built into
  // whichever input has the broadcast shape, so no difference straddles a
  // jump. Both signs of a and b.
  struct Shapes {
    std::vector<int64_t> a, b;
  } shapes[] = {{{2, 3}, {2, 3}}, {{2, 3}, {3}}, {{2, 3}, {}},
                {{}, {4}},        {{3}, {2, 3}}, {{2, 1, 3}, {1, 3}}};
  uint64_t seed = 300;
  for (const Shapes &s : shapes) {
    bool aIsFull = s.a.size() >= s.b.size();
    const std::vector<int64_t> &full = aIsFull ? s.a : s.b;
    Tensor ratio = floor_div(rand64(full, -3, 3, seed), 1.0) +
                   rand64(full, 0.2, 0.8, seed + 1);
    Tensor a, b;
    if (aIsFull) {
      b = signedAwayFromZero(s.b, seed + 2);
      a = ratio * b;
    } else {
      a = signedAwayFromZero(s.a, seed + 2);
      b = a / ratio;
    }
    seed += 4;
    checkGradients("mod " + shape_to_string(s.a) + " " + shape_to_string(s.b),
                   [](const V &x) { return mod(x[0], x[1]); }, {a, b});
  }
}

TEST(FiniteDifference, OperatorsAndScalars) {
  checkGradients(
      "operators with C++ scalars",
      [](const V &x) { return x[0] * 2 + 1.0 / x[0] - (x[0] - 3) * -x[0]; },
      {rand64({5}, 0.5, 2, 41)});
}

TEST(FiniteDifference, WhereWithBroadcasting) {
  Tensor pred = constant({{true, false, true}, {false, false, true}});
  checkGradients("where (2,3) (3,) ()",
                 [pred](const V &x) { return where(pred, x[0], x[1]); },
                 {rand64({3}, -1, 1, 50), rand64({}, -1, 1, 51)});
  checkGradients("where (2,3) (2,3) (2,1)",
                 [pred](const V &x) { return where(pred, x[0], x[1]) * x[0]; },
                 {rand64({2, 3}, -1, 1, 52), rand64({2, 1}, -1, 1, 53)});
}

TEST(FiniteDifference, ShapeOps) {
  Tensor x = rand64({2, 3, 4}, -1, 1, 60);
  checkGradients("broadcast_to",
                 [](const V &v) {
                   return broadcast_to(v[0], {2, 3, 4});
                 },
                 {rand64({3, 1}, -1, 1, 61)});
  checkGradients("reshape",
                 [](const V &v) {
                   return reshape(v[0], {4, -1});
                 },
                 {x});
  checkGradients("transpose reverse",
                 [](const V &v) { return transpose(v[0]); }, {x});
  checkGradients("transpose (1, 2, 0)",
                 [](const V &v) {
                   return transpose(v[0], {1, 2, 0});
                 },
                 {x});
  checkGradients("expand_dims", [](const V &v) { return expand_dims(v[0], 1); },
                 {x});
  checkGradients("expand_dims -1",
                 [](const V &v) { return expand_dims(v[0], -1); }, {x});
  checkGradients("squeeze", [](const V &v) { return squeeze(v[0], {1}); },
                 {rand64({2, 1, 3}, -1, 1, 62)});
  checkGradients("squeeze all", [](const V &v) { return squeeze(v[0]); },
                 {rand64({1, 3, 1}, -1, 1, 63)});
  for (int64_t axis : {0, 1, -1})
    checkGradients("concat axis " + std::to_string(axis),
                   [axis](const V &v) { return concat(v, axis); },
                   {rand64({2, 2}, -1, 1, 64), rand64({2, 2}, -1, 1, 65),
                    rand64({2, 2}, -1, 1, 66)});
  checkGradients("concat different sizes",
                 [](const V &v) { return concat(v, 1); },
                 {rand64({2, 1}, -1, 1, 67), rand64({2, 3}, -1, 1, 68)});
  checkGradients("slice",
                 [](const V &v) {
                   return slice(v[0], {1, 0, 1}, {1, 2, -1});
                 },
                 {x});
  checkGradients("slice whole",
                 [](const V &v) {
                   return slice(v[0], {0, 0, 0}, {2, 3, 4});
                 },
                 {x});
}

TEST(FiniteDifference, Matmul) {
  checkGradients("matmul 2-D", [](const V &v) { return matmul(v[0], v[1]); },
                 {rand64({3, 4}, -1, 1, 70), rand64({4, 2}, -1, 1, 71)});
  checkGradients("matmul batched",
                 [](const V &v) { return matmul(v[0], v[1]); },
                 {rand64({2, 3, 4}, -1, 1, 72), rand64({2, 4, 5}, -1, 1, 73)});
  checkGradients(
      "matmul rank 4", [](const V &v) { return matmul(v[0], v[1]); },
      {rand64({2, 1, 2, 3}, -1, 1, 74), rand64({2, 1, 3, 2}, -1, 1, 75)});
}

TEST(FiniteDifference, ReductionsOverEachAxis) {
  Tensor x = rand64({2, 3, 4}, 0.5, 1.5, 80);
  struct Case {
    const char *name;
    Tensor (*op)(const Tensor &, std::vector<int64_t>, bool,
                 std::source_location);
  } cases[] = {{"reduce_sum", tfc::reduce_sum},
               {"reduce_mean", tfc::reduce_mean},
               {"reduce_max", tfc::reduce_max},
               {"reduce_min", tfc::reduce_min},
               {"reduce_prod", tfc::reduce_prod}};
  std::vector<std::vector<int64_t>> axesList{{}, {0}, {1}, {2}, {-1}, {0, 2}};
  for (const Case &c : cases)
    for (const auto &axes : axesList)
      for (bool keepdims : {false, true}) {
        auto op = c.op;
        std::string what = std::string(c.name) + " axes " +
                           std::to_string(axes.size() ? axes[0] : 99) +
                           (axes.size() > 1 ? "+" : "") +
                           (keepdims ? " keepdims" : "");
        checkGradients(what,
                       [op, axes, keepdims](const V &v) {
                         return op(v[0], axes, keepdims, {});
                       },
                       {x});
      }
}

TEST(FiniteDifference, NeuralNetworkOps) {
  Tensor logits = rand64({3, 5}, -2, 2, 90);
  for (int64_t axis : {-1, 0}) {
    checkGradients("softmax axis " + std::to_string(axis),
                   [axis](const V &v) { return softmax(v[0], axis); },
                   {logits});
    checkGradients("log_softmax axis " + std::to_string(axis),
                   [axis](const V &v) { return log_softmax(v[0], axis); },
                   {logits});
  }
  checkGradients("softmax rank 3", [](const V &v) { return softmax(v[0], 1); },
                 {rand64({2, 3, 4}, -2, 2, 91)});
  // Cross entropy: gradients with respect to logits and labels (labels that
  // are not a distribution, too).
  Tensor labels = softmax(rand64({3, 5}, -1, 1, 92));
  checkGradients(
      "softmax_cross_entropy_with_logits",
      [](const V &v) { return softmax_cross_entropy_with_logits(v[0], v[1]); },
      {labels, logits});
  checkGradients(
      "softmax_cross_entropy_with_logits, unnormalised labels",
      [](const V &v) { return softmax_cross_entropy_with_logits(v[0], v[1]); },
      {rand64({2, 4}, 0, 1, 93), rand64({2, 4}, -2, 2, 94)});
}

TEST(FiniteDifference, CompositeModel) {
  // A two-layer MLP with a cross-entropy loss: every input gets a gradient.
  Tensor labels = one_hot(constant({1, 0, 2, 1}), 3, DType::Float64);
  checkGradients("mlp",
                 [labels](const V &v) {
                   Tensor h = relu(matmul(v[0], v[1]) + 0.1);
                   Tensor logits = matmul(h, v[2]);
                   return reduce_mean(
                       softmax_cross_entropy_with_logits(labels, logits));
                 },
                 {rand64({4, 3}, -1, 1, 100), rand64({3, 5}, -1, 1, 101),
                  rand64({5, 3}, -1, 1, 102)});
}

TEST(FiniteDifference, CastBetweenFloatDTypes) {
  // float32 -> float64: the gradient comes back as float32 (exactly w).
  Tensor x = random_uniform({4}, -1, 1, 110, DType::Float32);
  Tensor w = constant({1.0, 2.0, 3.0, 4.0});
  GradientTape tape;
  tape.watch(x);
  Tensor loss = reduce_sum(cast(x, DType::Float64) * w);
  Tensor g = tape.gradient(loss, x);
  EXPECT_EQ(g.dtype(), DType::Float32);
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));
  // float64 -> float64 and a round trip through float32 (for the chain rule).
  checkGradients("cast f64->f64",
                 [](const V &v) { return cast(v[0], DType::Float64) * v[0]; },
                 {rand64({3}, -1, 1, 111)});
}

TEST(FiniteDifference, NonDifferentiableOpsGiveNoGradient) {
  // Comparisons, floor_div, argmax, one_hot, integer casts and
  // stop_gradient pass no gradient: only the differentiable path counts.
  Tensor x = rand64({2, 3}, 0.5, 3, 120);
  auto fn = [](const V &v) {
    const Tensor &x = v[0];
    Tensor mask = cast(greater(x, 1.0), DType::Float64);
    Tensor floors = floor_div(x, 0.7);
    Tensor ints = cast(cast(x, DType::Int32), DType::Float64);
    Tensor picked = one_hot(argmax(x, 1), 3, DType::Float64);
    return x * 2.0 + mask + floors + ints + picked + stop_gradient(x * x);
  };
  for (const std::vector<Tensor> &grads :
       {eagerGradients(fn, {x}, ones({2, 3}, DType::Float64)),
        compiledGradients(fn, {x}, ones({2, 3}, DType::Float64))})
    EXPECT_EQ(grads[0].to_vector<double>(), std::vector<double>(6, 2.0));
}

TEST(FiniteDifference, ReductionTiesShareTheGradient) {
  // reduce_max with a tie: TensorFlow splits the gradient equally.
  Tensor x = constant({1.0, 3.0, 3.0, 2.0});
  GradientTape tape;
  tape.watch(x);
  Tensor g = tape.gradient(reduce_max(x), x);
  EXPECT_EQ(g.to_vector<double>(), (std::vector<double>{0, 0.5, 0.5, 0}));
}

TEST(FiniteDifference, ReduceProdWithZeros) {
  // Exact gradients where dividing by x would give NaN.
  auto gradOf = [](std::vector<double> v) {
    Tensor x = from_vector<double>(v, {static_cast<int64_t>(v.size())});
    GradientTape tape;
    tape.watch(x);
    return tape.gradient(reduce_prod(x), x).to_vector<double>();
  };
  EXPECT_EQ(gradOf({2, 0, 3}), (std::vector<double>{0, 6, 0}));
  EXPECT_EQ(gradOf({0, 5, 0}), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(gradOf({2, 4, 3}), (std::vector<double>{12, 6, 8}));
}

} // namespace
