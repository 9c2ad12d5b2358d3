//===- CompositeOpsTest.cpp - Ops written with other ops ------------------===//
//
// clip_by_value, stack, unstack, split, pad, tile, argmin, reduce_any/all,
// leaky_relu, elu, softplus, reciprocal, rsqrt, sign, ceil, round: values
// (TensorFlow's), eager equal to compiled, gradients of every mode against
// float64 finite differences, and errors naming the op.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

#include <cmath>

using namespace tfc;
using namespace tfc::gradtest;

namespace {

std::vector<double> values(const Tensor &t) {
  return cast(t, DType::Float64).to_vector<double>();
}

TEST(CompositeOps, Values) {
  Tensor x = constant({{1.0, -2.0, 3.0}, {-4.0, 5.0, -6.0}});
  EXPECT_EQ(values(clip_by_value(x, -2.5, 2.5)),
            (std::vector<double>{1, -2, 2.5, -2.5, 2.5, -2.5}));
  Tensor s = stack({x, x * 10.0}, 1);
  EXPECT_EQ(s.shape(), (std::vector<int64_t>{2, 2, 3}));
  EXPECT_EQ(values(s), (std::vector<double>{1, -2, 3, 10, -20, 30, -4, 5, -6,
                                            -40, 50, -60}));
  std::vector<Tensor> u = unstack(x, 1);
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(values(u[2]), (std::vector<double>{3, -6}));
  std::vector<Tensor> parts = split(x, {1, -1}, 1);
  EXPECT_EQ(parts[1].shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(values(parts[0]), (std::vector<double>{1, -4}));
  Tensor p = pad(constant({{1.0, 2.0}}), {{1, 0}, {0, 2}}, 9);
  EXPECT_EQ(p.shape(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(values(p), (std::vector<double>{9, 9, 9, 9, 1, 2, 9, 9}));
  Tensor t = tile(constant({{1.0, 2.0}}), {2, 2});
  EXPECT_EQ(values(t), (std::vector<double>{1, 2, 1, 2, 1, 2, 1, 2}));
  EXPECT_EQ(tile(constant({{1.0, 2.0}}), {0, 1}).shape(),
            (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(argmin(constant({{3, 1, 1}, {0, 5, 0}}), 1).to_vector<int64_t>(),
            (std::vector<int64_t>{1, 0}));
  Tensor b = constant({{true, false}, {true, true}});
  EXPECT_EQ(reduce_any(b, {1}).to_vector<bool>(),
            (std::vector<bool>{true, true}));
  EXPECT_EQ(reduce_all(b, {1}).to_vector<bool>(),
            (std::vector<bool>{false, true}));
  Tensor empty = zeros({0}, DType::Bool);
  EXPECT_FALSE(reduce_any(empty).item<bool>());
  EXPECT_TRUE(reduce_all(empty).item<bool>());
  Tensor v = constant({-2.5, -0.5, 0.0, 0.5, 1.5, 2.5, 3.7});
  EXPECT_EQ(values(round(v)), (std::vector<double>{-2, -0.0, 0, 0, 2, 2, 4}));
  EXPECT_EQ(round(constant(0.49999997f)).item<float>(), 0.0f);
  EXPECT_EQ(values(ceil(v)), (std::vector<double>{-2, -0.0, 0, 1, 2, 3, 4}));
  EXPECT_EQ(values(sign(v)), (std::vector<double>{-1, -1, 0, 1, 1, 1, 1}));
  EXPECT_TRUE(std::isnan(sign(constant(double(NAN))).item<double>()));
  EXPECT_EQ(values(leaky_relu(v, 0.1)),
            (std::vector<double>{-0.25, -0.05, 0, 0.5, 1.5, 2.5, 3.7}));
  EXPECT_NEAR(elu(constant(-1.0)).item<double>(), std::exp(-1.0) - 1, 1e-15);
  EXPECT_NEAR(softplus(constant(0.0)).item<double>(), std::log(2.0), 1e-15);
  EXPECT_EQ(softplus(constant(1000.0)).item<double>(), 1000.0);
  EXPECT_EQ(values(reciprocal(constant({4.0, -0.5}))),
            (std::vector<double>{0.25, -2}));
  EXPECT_EQ(rsqrt(constant(4.0)).item<double>(), 0.5);
  Tensor m = constant({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}}); // 3x2
  EXPECT_EQ(values(matmul(m, m, /*transpose_a=*/true, false)),
            (std::vector<double>{35, 44, 44, 56}));
  EXPECT_EQ(values(matmul(m, m, false, /*transpose_b=*/true)),
            values(matmul(m, transpose(m))));
}

TEST(CompositeOps, CompiledMatchesEager) {
  Tensor x = rand64({3, 4}, -3, 3, 5), y = rand64({3, 4}, -3, 3, 6);
  auto all = [](const Tensor &a, const Tensor &b) {
    std::vector<Tensor> out{clip_by_value(a, -1, 1),
                            stack({a, b}, -1),
                            pad(a, {{1, 2}, {0, 1}}, -7),
                            tile(a, {2, 1}),
                            cast(argmin(a, 0), DType::Float64),
                            leaky_relu(a),
                            elu(a),
                            softplus(a),
                            reciprocal(b),
                            rsqrt(abs(b) + 0.1),
                            sign(a),
                            ceil(a),
                            round(a * 2.0),
                            matmul(a, b, true, false),
                            matmul(a, b, false, true)};
    for (const Tensor &p : split(a, {1, 3}, 1))
      out.push_back(p);
    for (const Tensor &p : unstack(b, 0))
      out.push_back(p);
    out.push_back(cast(reduce_any(a > 2.0, {1}), DType::Float64));
    out.push_back(cast(reduce_all(a > -2.5, {0}), DType::Float64));
    return out;
  };
  std::vector<Tensor> eager = all(x, y);
  std::vector<Tensor> compiled = function(all)(x, y);
  ASSERT_EQ(eager.size(), compiled.size());
  for (size_t i = 0; i < eager.size(); ++i) {
    ASSERT_EQ(eager[i].shape(), compiled[i].shape()) << i;
    EXPECT_TRUE(allClose(eager[i], compiled[i], 1e-12)) << "output " << i;
  }
}

TEST(CompositeOps, GradientsInEveryModeMatchFiniteDifferences) {
  using V = std::vector<Tensor>;
  // Away from the kinks (clip bounds, 0) and from rounding steps.
  Tensor x = constant({{0.7, -1.3, 2.2}, {-0.4, 1.9, -2.6}});
  checkGradients("clip", [](const V &v) { return clip_by_value(v[0], -1, 1); },
                 {x});
  checkGradients("stack",
                 [](const V &v) {
                   return stack({v[0], v[0] * v[0]}, 1);
                 },
                 {x});
  checkGradients("split",
                 [](const V &v) {
                   return split(v[0], {2, 1}, 1)[0] * 3.0;
                 },
                 {x});
  checkGradients("unstack", [](const V &v) { return unstack(v[0], 0)[1]; },
                 {x});
  checkGradients("pad",
                 [](const V &v) {
                   return pad(v[0], {{0, 1}, {2, 0}}, 1.5);
                 },
                 {x});
  checkGradients("tile", [](const V &v) { return tile(v[0], {2, 3}); }, {x});
  checkGradients("leaky_relu", [](const V &v) { return leaky_relu(v[0]); },
                 {x});
  checkGradients("elu", [](const V &v) { return elu(v[0]); }, {x});
  checkGradients("softplus", [](const V &v) { return softplus(v[0]); }, {x});
  checkGradients("reciprocal", [](const V &v) { return reciprocal(v[0]); },
                 {x});
  checkGradients("rsqrt", [](const V &v) { return rsqrt(abs(v[0])); }, {x});
  checkGradients("matmul transposed",
                 [](const V &v) { return matmul(v[0], v[1], true, true); },
                 {x, constant({{0.3, -1.1}, {2.0, 0.4}, {-0.7, 1.6}})});
}

TEST(CompositeOps, ErrorsNameTheOp) {
  Tensor x = zeros({2, 3});
  expectError([&] { clip_by_value(x, 1, 0); }, "clip_by_value");
  expectError([&] { stack({}); }, "stack");
  expectError([&] { stack({x, zeros({3, 2})}); }, "stack: value 1");
  expectError([&] { stack({x}, 3); }, "stack: axis 3");
  expectError([&] { split(x, {1, 1}, 1); }, "split: sizes add up to 2");
  expectError([&] { unstack(constant(1.0)); }, "unstack");
  expectError([&] { pad(x, {{0, 1}}); }, "pad");
  expectError([&] { pad(x, {{0, -1}, {0, 0}}); }, "pad");
  expectError([&] { tile(x, {1, -1}); }, "tile");
  expectError([&] { reduce_any(x); }, "reduce_any");
  expectError([&] { leaky_relu(constant(1)); }, "leaky_relu");
  expectError([&] { pad(constant({1, 2}), {{1, 1}}, 0.5); }, "pad");
  expectError([&] { matmul(constant({1.0, 2.0}), x, true, false); }, "matmul");
}

} // namespace
