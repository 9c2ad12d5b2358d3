//===- ApiFuzzRegressionTest.cpp - findings of tfc-apifuzz ----------------===//
//
// Cases where a tfc::function and the same code run eagerly disagreed on
// whether the call is valid, found by tools/tfc-fuzz/tfc-apifuzz.cpp. Each
// now agrees: same value, or an error in both.
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include <gtest/gtest.h>

using namespace tfc;

namespace {

void expectSame(const Tensor &a, const Tensor &b) {
  EXPECT_EQ(a.str(), b.str());
}

// A dim of 1 broadcasts; a reduce_retracing function traced with that dim
// dynamic assumed equal dims and raised. Such calls now get their own trace.
TEST(ApiFuzzRegression, ReduceRetracingKeepsBroadcastingDimsOfOne) {
  auto f = function([](const Tensor &a, const Tensor &b) { return a * b; },
                    {.reduce_retracing = true});
  f(ones({3, 4}), ones({3, 4}));
  f(ones({5, 4}), ones({5, 4})); // the dynamic-shape trace (?, 4)
  Tensor a = range(0, 8, 1, DType::Float32);
  a = reshape(a, {2, 4});
  Tensor b = reshape(range(0, 4, 1, DType::Float32), {1, 4});
  expectSame(f(a, b), a * b);
  expectSame(f(b, a), b * a);
  // Still the dynamic trace for dims other than 1.
  Tensor c = ones({7, 4});
  expectSame(f(c, c), c * c);
  EXPECT_EQ(f.tracing_count(), 4);
}

TEST(ApiFuzzRegression, BoolOrderingComparisonRaisesCompiled) {
  auto f = function([](const Tensor &a, const Tensor &b) { return a < b; });
  Tensor t = constant({true, false});
  EXPECT_THROW(t < t, InvalidArgumentError);
  EXPECT_THROW(f(t, t), InvalidArgumentError);
  auto g = function([](const Tensor &a, const Tensor &b) { return a == b; });
  expectSame(g(t, t), t == t);
}

TEST(ApiFuzzRegression, OneHotDepthZeroIsEmpty) {
  auto f = function([](const Tensor &i) { return one_hot(i, 0); });
  Tensor i = constant({1, 2});
  expectSame(f(i), one_hot(i, 0));
  EXPECT_EQ(f(i).shape(), (std::vector<int64_t>{2, 0}));
}

// argmax of bool (NumPy, TensorFlow): the first true. The dialect rejected i1.
TEST(ApiFuzzRegression, ArgmaxOfBool) {
  auto f = function([](const Tensor &x) { return argmax(x, -1); });
  Tensor x = constant({{false, true, true}, {false, false, false}});
  expectSame(f(x), argmax(x, -1));
  EXPECT_EQ(f(x).to_vector<int64_t>(), (std::vector<int64_t>{1, 0}));
}

// tf.linalg.matmul broadcasts batch dims; so do eager tfc and now traces.
TEST(ApiFuzzRegression, MatmulBroadcastsBatchDims) {
  Tensor a = reshape(range(0, 6, 1, DType::Float64), {1, 2, 3});
  Tensor b = reshape(range(0, 24, 1, DType::Float64), {2, 3, 4});
  auto f =
      function([](const Tensor &x, const Tensor &y) { return matmul(x, y); });
  expectSame(f(a, b), matmul(a, b));
  Tensor m = reshape(range(0, 12, 1, DType::Float64), {3, 4});
  expectSame(f(b, reshape(m, {1, 4, 3})), matmul(b, reshape(m, {1, 4, 3})));
  // Gradients through the broadcast, eager and compiled, agree.
  auto gradA = [](const Tensor &x, const Tensor &y) {
    GradientTape tape;
    tape.watch(x);
    return tape.gradient(reduce_sum(matmul(x, y)), x);
  };
  auto compiledGradA = function(gradA);
  Tensor eagerGrad = gradA(a, b);
  EXPECT_EQ(eagerGrad.shape(), a.shape());
  expectSame(compiledGradA(a, b), eagerGrad);
}

// tfc-apifuzz --count=600 --seed=2027 (cases 7, 169, 474 and 7 more):
// conv2d and its gradients with a static batch of 0 computed eagerly (an
// empty result, or a zero filter gradient) but did not compile: the lowering
// padded (SAME) or spread (strides) the empty input with tensor.pad /
// tensor.insert_slice, which became a memref.subview at offset 0 of the
// size-0 batch, rejected as out of bounds. Now an empty batch is an empty
// tensor of the padded shape (ConvToLinalg.cpp).
TEST(ApiFuzzRegression, ConvWithEmptyBatchCompiles) {
  Tensor x = zeros({0, 2, 4, 2}), f = ones({2, 2, 2, 1});
  Tensor dy = zeros({0, 1, 4, 1});
  std::array<int64_t, 2> strides{2, 1}, dilations{1, 1};
  Padding same = Padding::Same;
  auto conv = function([&](const Tensor &a, const Tensor &b) {
    return conv2d(a, b, strides, same, dilations);
  });
  // Each call on its own: all three fail today.
  EXPECT_NO_THROW(
      expectSame(conv(x, f), conv2d(x, f, strides, same, dilations)));
  auto filterGrad = function([&](const Tensor &a, const Tensor &b) {
    return conv2d_backprop_filter(a, {2, 2, 2, 1}, b, strides, same, dilations);
  });
  EXPECT_NO_THROW(expectSame(
      filterGrad(x, dy),
      conv2d_backprop_filter(x, {2, 2, 2, 1}, dy, strides, same, dilations)));
  auto inputGrad = function([&](const Tensor &a, const Tensor &b) {
    return conv2d_backprop_input({0, 2, 4, 2}, a, b, strides, same, dilations);
  });
  EXPECT_NO_THROW(expectSame(
      inputGrad(f, dy),
      conv2d_backprop_input({0, 2, 4, 2}, f, dy, strides, same, dilations)));
}

// Found while extending tfc-apifuzz to pooling: an NHWC input with 0
// channels. Eagerly, pool2d_shape (runtime/lib/PoolKernels.cpp) and
// conv2d_shape (runtime/lib/ConvKernels.cpp) reject it ("input dims must be
// positive"), but type inference accepted it, so tfc::function computed an
// empty pooling result and a conv2d of zeros. Type inference now rejects
// it too (pool2dShape and conv2dShape in lib/Dialect/Tfc/IR/TfcOps.cpp).
TEST(ApiFuzzRegression, ZeroChannelsAgreeEagerAndCompiled) {
  Tensor x = zeros({1, 3, 3, 0}), dy = zeros({1, 2, 2, 0});
  Tensor w = zeros({1, 1, 0, 2});
  std::array<int64_t, 2> k{2, 2}, s{1, 1};
  Padding valid = Padding::Valid;
  auto agree = [](auto eager, auto compiled) {
    bool eagerOk = true, compiledOk = true;
    Tensor a, b;
    try {
      a = eager();
    } catch (const Error &) {
      eagerOk = false;
    }
    try {
      b = compiled();
    } catch (const Error &) {
      compiledOk = false;
    }
    EXPECT_EQ(eagerOk, compiledOk);
    if (eagerOk && compiledOk)
      expectSame(a, b);
  };
  auto maxPool =
      function([&](const Tensor &a) { return max_pool2d(a, k, s, valid); });
  agree([&] { return max_pool2d(x, k, s, valid); }, [&] { return maxPool(x); });
  auto avgPool =
      function([&](const Tensor &a) { return avg_pool2d(a, k, s, valid); });
  agree([&] { return avg_pool2d(x, k, s, valid); }, [&] { return avgPool(x); });
  auto maxGrad = function([&](const Tensor &a, const Tensor &b) {
    return max_pool2d_grad(a, b, k, s, valid);
  });
  agree([&] { return max_pool2d_grad(x, dy, k, s, valid); },
        [&] { return maxGrad(x, dy); });
  auto maxGradGrad = function([&](const Tensor &a, const Tensor &b) {
    return max_pool2d_grad_grad(a, b, k, s, valid);
  });
  agree([&] { return max_pool2d_grad_grad(x, x, k, s, valid); },
        [&] { return maxGradGrad(x, x); });
  auto conv = function(
      [&](const Tensor &a, const Tensor &b) { return conv2d(a, b, s, valid); });
  agree([&] { return conv2d(x, w, s, valid); }, [&] { return conv(x, w); });
}

} // namespace
