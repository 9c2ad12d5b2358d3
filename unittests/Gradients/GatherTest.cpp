//===- GatherTest.cpp - gather and unsorted_segment_sum -------------------===//
//
// tfc::gather and tfc::unsorted_segment_sum through the public API:
// hand-computed values, compiled code against the eager kernels on every
// axis and dtype, out-of-range indices rejected eagerly and compiled (never
// read), gradients of every mode against float64 finite differences, and
// second derivatives through the gradient ops.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

using namespace tfc;
using namespace tfc::gradtest;

namespace {

TEST(Gather, HandComputedValues) {
  Tensor p = constant({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  Tensor rows = gather(p, constant({1, 0, 1}));
  EXPECT_EQ(rows.shape(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(rows.to_vector<double>(),
            (std::vector<double>{4, 5, 6, 1, 2, 3, 4, 5, 6}));
  Tensor cols = gather(p, constant({{2}, {0}}, DType::Int64), 1);
  EXPECT_EQ(cols.shape(), (std::vector<int64_t>{2, 2, 1}));
  EXPECT_EQ(cols.to_vector<double>(), (std::vector<double>{3, 1, 6, 4}));
  // A scalar index drops the axis; a negative axis counts from the end.
  EXPECT_EQ(gather(p, constant(2), -1).to_vector<double>(),
            (std::vector<double>{3, 6}));
  // Integer params.
  EXPECT_EQ(gather(constant({7, 8, 9}), constant({2, 2})).to_vector<int32_t>(),
            (std::vector<int32_t>{9, 9}));

  Tensor s = unsorted_segment_sum(
      constant({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}}), constant({2, 0, 2}), 4);
  EXPECT_EQ(s.shape(), (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(s.to_vector<double>(),
            (std::vector<double>{3, 4, 0, 0, 6, 8, 0, 0}));
  // A negative id drops its slice (TensorFlow's rule).
  EXPECT_EQ(unsorted_segment_sum(constant({1, 2, 3}), constant({-1, 1, 1}), 2)
                .to_vector<int32_t>(),
            (std::vector<int32_t>{0, 5}));
}

TEST(Gather, CompiledMatchesEager) {
  int seed = 1;
  const std::vector<std::vector<int64_t>> shapes = {
      {5}, {6, 3}, {2, 5, 4}, {3, 2, 4, 2}};
  for (const std::vector<int64_t> &shape : shapes) {
    for (int64_t axis = 0; axis < static_cast<int64_t>(shape.size()); ++axis) {
      for (DType dt : {DType::Float32, DType::Float64, DType::Int32}) {
        for (DType it : {DType::Int32, DType::Int64}) {
          SCOPED_TRACE(shape_to_string(shape) + " axis " +
                       std::to_string(axis) + " " + std::string(to_string(dt)) +
                       " " + std::string(to_string(it)));
          Tensor p = cast(rand64(shape, -10, 10, seed++), dt);
          int64_t n = shape[static_cast<size_t>(axis)];
          Tensor idx = cast(
              floor(rand64({2, 3}, 0, static_cast<double>(n), seed++)), it);
          Tensor eager = gather(p, idx, axis);
          auto f = function([axis](const Tensor &a, const Tensor &i) {
            return gather(a, i, axis);
          });
          EXPECT_TRUE(allClose(f(p, idx), eager, 0));
          // The same ids summed back: unsorted_segment_sum of the rows.
          if (axis == 0) {
            Tensor back = unsorted_segment_sum(eager, idx, n);
            auto g = function([n](const Tensor &d, const Tensor &i) {
              return unsorted_segment_sum(d, i, n);
            });
            EXPECT_TRUE(allClose(g(eager, idx), back, 1e-6));
          }
        }
      }
    }
  }
}

TEST(Gather, DynamicShapesCompile) {
  auto f = function(
      [](const Tensor &p, const Tensor &i) {
        return std::vector<Tensor>{gather(p, i, 1),
                                   unsorted_segment_sum(p, i, 3)};
      },
      {.reduce_retracing = true});
  for (int64_t m : {3, 5}) {
    Tensor p = rand64({m, m}, -1, 1, static_cast<uint64_t>(m));
    Tensor i = cast(floor(rand64({m}, 0, 3, 9)), DType::Int32);
    std::vector<Tensor> got = f(p, i);
    EXPECT_TRUE(allClose(got[0], gather(p, i, 1), 0));
    EXPECT_TRUE(allClose(got[1], unsorted_segment_sum(p, i, 3), 1e-12));
  }
}

TEST(Gather, OutOfRangeIndicesRaiseEagerlyAndCompiled) {
  Tensor p = constant({{1.f, 2.f}, {3.f, 4.f}});
  for (Tensor bad : {constant({0, 2}), constant({-1, 0})}) {
    expectError([&] { gather(p, bad); }, "is not in [0, 2)");
    auto f =
        function([](const Tensor &a, const Tensor &i) { return gather(a, i); });
    expectError([&] { f(p, bad); }, "outside [0, 2)");
    // Compiled with the index a constant: rejected before any read.
    auto g = function([bad](const Tensor &a) { return gather(a, bad); });
    expectError([&] { g(p); }, "gather");
  }
  expectError(
      [&] {
        unsorted_segment_sum(p, constant({0, 2}), 2);
      },
      "not below num_segments = 2");
  auto h = function([](const Tensor &d, const Tensor &i) {
    return unsorted_segment_sum(d, i, 2);
  });
  expectError([&] { h(p, constant({0, 5})); }, "num_segments = 2");
  // Bad arguments name the op, the shapes and the dtypes.
  expectError([&] { gather(p, constant({0.5f})); }, "gather");
  expectError([&] { gather(p, constant({0}), 2); }, "axis 2 is out of range");
  expectError([&] { gather(constant(1.f), constant({0})); }, "rank >= 1");
  expectError(
      [&] {
        unsorted_segment_sum(p, constant({0, 1, 1}), 2);
      },
      "prefix");
  expectError(
      [&] {
        unsorted_segment_sum(p, constant({0, 1}), -1);
      },
      "num_segments must be >= 0");
}

TEST(Gather, GradientsInEveryModeMatchFiniteDifferences) {
  // Repeated indices: their gradients add up.
  Tensor idx = constant({{2, 0}, {2, 3}});
  for (int64_t axis : {0, 1, 2}) {
    auto fn = [idx, axis](const std::vector<Tensor> &v) {
      return gather(v[0], idx, axis);
    };
    checkGradients("gather axis " + std::to_string(axis), fn,
                   {rand64({4, 4, 4}, -1, 1, 40 + axis)});
  }
  Tensor ids = constant({3, -1, 0, 3, 1});
  auto seg = [ids](const std::vector<Tensor> &v) {
    return unsorted_segment_sum(v[0], ids, 5);
  };
  checkGradients("unsorted_segment_sum", seg, {rand64({5, 3}, -1, 1, 50)});
  // An embedding lookup inside a nonlinear loss.
  auto emb = [](const std::vector<Tensor> &v) {
    return tanh(gather(v[0], constant({1, 1, 0}, DType::Int64)) * v[1]);
  };
  checkGradients("embedding", emb,
                 {rand64({3, 4}, -1, 1, 51), rand64({3, 4}, -1, 1, 52)});
}

TEST(Gather, SecondDerivatives) {
  // d/dp sum(gather(p)^3 w) is 3 segment_sum(gather(p)^2 w); its gradient
  // goes through unsorted_segment_sum's rule (a gather).
  Tensor idx = constant({1, 1, 0});
  Tensor p = constant({0.5, -1.5});
  auto loss = [idx](const Tensor &x) {
    Tensor g = gather(x, idx);
    return reduce_sum(g * g * g);
  };
  GradientTape outer;
  outer.watch(p);
  Tensor d1;
  {
    GradientTape inner;
    inner.watch(p);
    Tensor l = loss(p);
    d1 = inner.gradient(l, p);
  }
  // d1 = [3 p0^2, 2 * 3 p1^2]; d2 = sum of d1's second derivative.
  EXPECT_TRUE(allClose(d1, constant({3 * 0.25, 6 * 2.25}), 1e-12));
  Tensor d2 = outer.gradient(reduce_sum(d1), p);
  EXPECT_TRUE(allClose(d2, constant({6 * 0.5, 12 * -1.5}), 1e-12));
}

} // namespace

namespace {
// tfc-difftest-grad seed 910598: a tied reduce_max then a gather with a
// scalar index; the gradient around the compiled call was twice eager's.
TEST(Gather, ScalarIndexAfterTiedMaxAroundACompiledCall) {
  auto fn = [](const std::vector<Tensor> &v) {
    return gather(reduce_max(v[0], {0}, true), constant(int64_t(0)));
  };
  Tensor x = constant({2.0, 3.5, 3.5, -3.0});
  Tensor w = constant(1.0);
  std::vector<Tensor> eager = eagerGradients(fn, {x}, w);
  std::vector<Tensor> around = aroundCallGradients(fn, {x}, w);
  std::vector<Tensor> inside = compiledGradients(fn, {x}, w);
  EXPECT_TRUE(allClose(eager[0], constant({0.0, 0.5, 0.5, 0.0}), 0));
  EXPECT_TRUE(allClose(around[0], eager[0], 0));
  EXPECT_TRUE(allClose(inside[0], eager[0], 0));
}
} // namespace
