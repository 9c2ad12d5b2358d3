//===- AutodiffPassTest.cpp - tfc-autodiff vs the eager tape --------------===//
//
// The pass and the tape share the gradient rules (GradientRules.cpp); these
// tests check that they agree on every differentiable op family, run by the
// interpreter and by the JIT, and that the stack-based loop gradient
// matches finite differences and the tape's (O(N^2)) loop gradient.
//
//===----------------------------------------------------------------------===//

#include "RunTfcOpt.h"

#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace tfc;

namespace {

/// Runs tfc-autodiff on `source` with the tfc-opt tool (the pass is a
/// compiler library; this process holds only libtfc.so); returns the
/// module's text ("" on failure, with the diagnostics in `errors`).
std::string differentiate(const std::string &source, std::string &errors) {
  return tfc_test::runTfcOpt(source, "--tfc-autodiff", errors);
}

void expectClose(const Tensor &got, const Tensor &want, double tol,
                 const std::string &what) {
  ASSERT_EQ(got.shape(), want.shape()) << what;
  std::vector<double> g = got.to_vector<double>(), w = want.to_vector<double>();
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_NEAR(g[i], w[i], tol * (1 + std::abs(w[i])))
        << what << " element " << i;
}

struct OpCase {
  std::string name;
  /// The body of @f(%x, %y) -> %r, of tensor<2x3xf64> values.
  std::string body;
  std::function<Tensor(const Tensor &, const Tensor &)> eager;
  double lo = -2, hi = 2;
};

class AutodiffPassOps : public testing::TestWithParam<OpCase> {};

// @f(x, y) = sum(op(x, y) * weights); the pass's d/dx, d/dy against the tape.
TEST_P(AutodiffPassOps, AgreesWithTheEagerTape) {
  const OpCase &c = GetParam();
  std::string t = "tensor<2x3xf64>";
  std::string source =
      "func.func @f(%x: " + t + ", %y: " + t + ", %wts: " + t +
      ") -> tensor<f64> {\n" + c.body + "\n  %p = tfc.mul %r, %wts : " + t +
      "\n  %s = tfc.reduce_sum %p, axes = [0, 1], keepdims = false : " + t +
      " -> tensor<f64>\n  return %s : tensor<f64>\n}\n"
      "func.func @grads(%x: " +
      t + ", %y: " + t + ", %wts: " + t + ") -> (" + t + ", " + t +
      ") {\n  %g:2 = tfc.grad @f(%x, %y, %wts) wrt [0, 1] : (" + t + ", " + t +
      ", " + t + ") -> (" + t + ", " + t + ")\n  return %g#0, %g#1 : " + t +
      ", " + t + "\n}\n";
  std::string errors;
  std::string text = differentiate(source, errors);
  ASSERT_FALSE(text.empty()) << errors << source;

  Tensor x = random_uniform({2, 3}, c.lo, c.hi, 1, DType::Float64);
  Tensor y = random_uniform({2, 3}, c.lo, c.hi, 2, DType::Float64);
  Tensor w = random_uniform({2, 3}, -1, 1, 3, DType::Float64);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  tape.watch(y);
  Tensor loss = reduce_sum(c.eager(x, y) * w);
  std::vector<Tensor> want = tape.gradient(loss, std::vector<Tensor>{x, y});

  std::vector<Tensor> interpreted = jit::interpret(text, "grads", {x, y, w});
  auto compiled =
      jit::CompiledModule::from_source(text).call("grads", {x, y, w});
  for (int i = 0; i < 2; ++i) {
    expectClose(interpreted[i], want[i], 1e-12, c.name + " interpret");
    expectClose(compiled[i], want[i], 1e-9, c.name + " jit");
  }
}

std::string unary(const std::string &op) {
  return "  %u = tfc." + op +
         " %x : tensor<2x3xf64>\n"
         "  %r = tfc.mul %u, %y : tensor<2x3xf64>";
}
std::string binary(const std::string &op) {
  return "  %r = tfc." + op + " %x, %y : tensor<2x3xf64>";
}

INSTANTIATE_TEST_SUITE_P(
    Ops, AutodiffPassOps,
    testing::Values(
        OpCase{"exp", unary("exp"), [](auto x, auto y) { return exp(x) * y; }},
        OpCase{"log", unary("log"), [](auto x, auto y) { return log(x) * y; },
               0.5, 2},
        OpCase{"sin", unary("sin"), [](auto x, auto y) { return sin(x) * y; }},
        OpCase{"cos", unary("cos"), [](auto x, auto y) { return cos(x) * y; }},
        OpCase{"tanh", unary("tanh"),
               [](auto x, auto y) { return tanh(x) * y; }},
        OpCase{"sigmoid", unary("sigmoid"),
               [](auto x, auto y) { return sigmoid(x) * y; }},
        OpCase{"sqrt", unary("sqrt"),
               [](auto x, auto y) { return sqrt(x) * y; }, 0.5, 2},
        OpCase{"abs", unary("abs"), [](auto x, auto y) { return abs(x) * y; }},
        OpCase{"relu", unary("relu"),
               [](auto x, auto y) { return relu(x) * y; }},
        OpCase{"sub", binary("sub"), [](auto x, auto y) { return x - y; }},
        OpCase{"div", binary("div"), [](auto x, auto y) { return x / y; }, 0.5,
               2},
        OpCase{"pow", binary("pow"), [](auto x, auto y) { return pow(x, y); },
               0.5, 2},
        OpCase{"maximum", binary("maximum"),
               [](auto x, auto y) { return maximum(x, y); }},
        OpCase{"softmax",
               "  %u = tfc.softmax %x, axis = 1 : tensor<2x3xf64>\n"
               "  %r = tfc.mul %u, %y : tensor<2x3xf64>",
               [](auto x, auto y) { return softmax(x, 1) * y; }},
        OpCase{"log_softmax",
               "  %u = tfc.log_softmax %x, axis = 0 : tensor<2x3xf64>\n"
               "  %r = tfc.mul %u, %y : tensor<2x3xf64>",
               [](auto x, auto y) { return log_softmax(x, 0) * y; }},
        OpCase{"matmul_transpose",
               "  %yt = tfc.transpose %y, perm = [1, 0] : tensor<2x3xf64> -> "
               "tensor<3x2xf64>\n"
               "  %m = tfc.matmul %x, %yt : (tensor<2x3xf64>, tensor<3x2xf64>) "
               "-> tensor<2x2xf64>\n"
               "  %r0 = tfc.matmul %m, %x : (tensor<2x2xf64>, tensor<2x3xf64>) "
               "-> tensor<2x3xf64>\n"
               "  %r = tfc.add %r0, %y : tensor<2x3xf64>",
               [](auto x, auto y) {
                 return matmul(matmul(x, transpose(y)), x) + y;
               }},
        OpCase{"reduce_max_broadcast",
               "  %m = tfc.reduce_max %x, axes = [1], keepdims = true : "
               "tensor<2x3xf64> -> tensor<2x1xf64>\n"
               "  %b = tfc.broadcast_to %m : tensor<2x1xf64> to "
               "tensor<2x3xf64>\n"
               "  %r = tfc.mul %b, %y : tensor<2x3xf64>",
               [](auto x, auto y) { return reduce_max(x, {1}, true) * y; }},
        OpCase{"reduce_prod_mean",
               "  %m = tfc.reduce_prod %x, axes = [0], keepdims = false : "
               "tensor<2x3xf64> -> tensor<3xf64>\n"
               "  %b = tfc.broadcast_to %m : tensor<3xf64> to tensor<2x3xf64>\n"
               "  %n = tfc.reduce_mean %y, axes = [0, 1], keepdims = false : "
               "tensor<2x3xf64> -> tensor<f64>\n"
               "  %nb = tfc.broadcast_to %n : tensor<f64> to tensor<2x3xf64>\n"
               "  %r = tfc.mul %b, %nb : tensor<2x3xf64>",
               [](auto x, auto y) {
                 return reduce_prod(x, {0}) * reduce_mean(y);
               }},
        OpCase{"slice_concat",
               "  %sl = tfc.slice %x, begin = [0, 1], size = [2, 2] : "
               "tensor<2x3xf64> -> tensor<2x2xf64>\n"
               "  %t = tfc.slice %y, begin = [0, 0], size = [2, 1] : "
               "tensor<2x3xf64> -> tensor<2x1xf64>\n"
               "  %r = tfc.concat %sl, %t axis = 1 : (tensor<2x2xf64>, "
               "tensor<2x1xf64>) -> tensor<2x3xf64>",
               [](auto x, auto y) {
                 return concat(
                     {slice(x, {0, 1}, {2, 2}), slice(y, {0, 0}, {2, 1})}, 1);
               }}),
    [](const testing::TestParamInfo<OpCase> &info) { return info.param.name; });

/// The loop of issue 5, x = sin(x) * w until x >= 1.4.
const char *kLoop = R"mlir(
func.func @loop(%x0: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %bound = tfc.constant dense<1.4> : tensor<f64>
  %r = tfc.while (%x = %x0) : (tensor<f64>) -> tensor<f64> {
    %c = tfc.cmp lt, %x, %bound : tensor<f64>
    tfc.condition(%c) %x : tensor<f64>
  } do {
  ^bb0(%y: tensor<f64>):
    %s = tfc.sin %y : tensor<f64>
    %next = tfc.mul %s, %w : tensor<f64>
    tfc.yield %next : tensor<f64>
  }
  return %r : tensor<f64>
}
func.func @grads(%x0: tensor<f64>, %w: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %g:2 = tfc.grad @loop(%x0, %w) wrt [0, 1] : (tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)
  return %g#0, %g#1 : tensor<f64>, tensor<f64>
}
)mlir";

double loopValue(double x, double w) {
  while (x < 1.4)
    x = std::sin(x) * w;
  return x;
}

TEST(AutodiffPassWhile, MatchesFiniteDifferencesAndTheTape) {
  std::string errors;
  std::string text = differentiate(kLoop, errors);
  ASSERT_FALSE(text.empty()) << errors;
  auto compiled = jit::CompiledModule::from_source(text);
  for (double x0 : {0.05, 0.2, 0.5, 1.0, 1.39}) {
    double w = 1.5, h = 1e-6;
    double dx = (loopValue(x0 + h, w) - loopValue(x0 - h, w)) / (2 * h);
    double dw = (loopValue(x0, w + h) - loopValue(x0, w - h)) / (2 * h);
    Tensor tx = constant(x0), tw = constant(w);
    std::vector<Tensor> interpreted = jit::interpret(text, "grads", {tx, tw});
    std::vector<Tensor> jitted = compiled.call("grads", {tx, tw});
    // The tape's gradient of the same loop, run eagerly.
    GradientTape tape(/*persistent=*/true);
    tape.watch(tx);
    tape.watch(tw);
    Tensor r =
        while_loop([](const std::vector<Tensor> &s) { return s[0] < 1.4; },
                   [&](const std::vector<Tensor> &s) {
                     return std::vector<Tensor>{sin(s[0]) * tw};
                   },
                   {tx})[0];
    std::vector<Tensor> eager = tape.gradient(r, std::vector<Tensor>{tx, tw});
    for (const auto *g : {&interpreted, &jitted}) {
      EXPECT_NEAR((*g)[0].item<double>(), dx, 1e-6) << "x0 = " << x0;
      EXPECT_NEAR((*g)[1].item<double>(), dw, 1e-6) << "x0 = " << x0;
      EXPECT_NEAR((*g)[0].item<double>(), eager[0].item<double>(), 1e-12);
      EXPECT_NEAR((*g)[1].item<double>(), eager[1].item<double>(), 1e-12);
    }
  }
}

TEST(AutodiffPassErrors, IntegerArgumentIsADiagnostic) {
  std::string errors;
  std::string text = differentiate(R"mlir(
func.func @f(%x: tensor<i32>) -> tensor<f32> {
  %c = tfc.cast %x : tensor<i32> to tensor<f32>
  return %c : tensor<f32>
}
func.func @g(%x: tensor<i32>) -> tensor<i32> {
  %d = tfc.grad @f(%x) wrt [0] : (tensor<i32>) -> tensor<i32>
  return %d : tensor<i32>
}
)mlir",
                                   errors);
  EXPECT_TRUE(text.empty());
  EXPECT_NE(errors.find("cannot differentiate with respect to argument 0"),
            std::string::npos)
      << errors;
}

} // namespace
