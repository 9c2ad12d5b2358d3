//===- ControlFlowTest.cpp - eager cond, while_loop, assert_true, collatz
//--===//
#include "TestUtil.h"

#include <tuple>

using namespace tfc;
using namespace tfc::testing;

namespace {

TEST(Cond, RunsOneBranch) {
  int thenRuns = 0, elseRuns = 0;
  Tensor x = constant(3.f);
  Tensor y = cond(
      x > 0.f,
      [&] {
        ++thenRuns;
        return x * 2;
      },
      [&] {
        ++elseRuns;
        return -x;
      });
  EXPECT_TRUE(tensorIs(y, DType::Float32, {}, {6}));
  EXPECT_EQ(thenRuns, 1);
  EXPECT_EQ(elseRuns, 0);
  y = cond(
      x < 0.f,
      [&] {
        ++thenRuns;
        return x * 2;
      },
      [&] {
        ++elseRuns;
        return -x;
      });
  EXPECT_TRUE(tensorIs(y, DType::Float32, {}, {-3}));
  EXPECT_EQ(thenRuns, 1);
  EXPECT_EQ(elseRuns, 1);
}

TEST(Cond, StructuredAndVoidResults) {
  auto [a, b] = cond(
      constant(true),
      [] {
        return std::pair{constant(1), std::vector<Tensor>{constant(2)}};
      },
      [] {
        return std::pair{constant(3), std::vector<Tensor>{constant(4)}};
      });
  EXPECT_EQ(a.item<int32_t>(), 1);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].item<int32_t>(), 2);

  auto t = cond(
      constant(false),
      [] {
        return std::tuple{constant(1), constant(2.f)};
      },
      [] {
        return std::tuple{constant(5), constant(6.f)};
      });
  EXPECT_EQ(std::get<0>(t).item<int32_t>(), 5);
  EXPECT_EQ(std::get<1>(t).item<float>(), 6.f);

  Variable v(constant(0));
  cond(
      constant(true), [&] { v.assign_add(1); }, [&] { v.assign_sub(1); });
  EXPECT_EQ(v.value().item<int32_t>(), 1);
}

TEST(Cond, PredicateMustBeABoolScalar) {
  auto branch = [] { return constant(1); };
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { cond(constant(1), branch, branch); },
      {"cond", "bool scalar", "int32", "()"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { cond(constant({true}), branch, branch); },
      {"cond", "bool scalar", "bool", "(1,)"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { cond(Tensor(), branch, branch); }, {"cond", "undefined"}));
}

TEST(WhileLoop, OrdinaryLoopOnVectors) {
  // Halve until every element is below 1: 8 -> 4 -> 2 -> 1 -> 0.5.
  std::vector<Tensor> r = while_loop(
      [](const std::vector<Tensor> &v) { return reduce_max(v[0]) >= 1.f; },
      [](const std::vector<Tensor> &v) {
        return std::vector<Tensor>{v[0] / 2, v[1] + 1};
      },
      {constant({8.f, 3.f}), constant(0)});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(tensorIs(r[0], DType::Float32, {2}, {0.5, 0.1875}));
  EXPECT_EQ(r[1].item<int32_t>(), 4);
}

TEST(WhileLoop, SumAndMaximumIterations) {
  auto condFn = [](const std::vector<Tensor> &v) { return v[0] < 10; };
  auto body = [](const std::vector<Tensor> &v) {
    return std::vector<Tensor>{v[0] + 1, v[1] + v[0]};
  };
  std::vector<Tensor> r = while_loop(condFn, body, {constant(0), constant(0)});
  EXPECT_EQ(r[0].item<int32_t>(), 10);
  EXPECT_EQ(r[1].item<int32_t>(), 45);
  r = while_loop(condFn, body, {constant(0), constant(0)}, 3);
  EXPECT_EQ(r[0].item<int32_t>(), 3);
  EXPECT_EQ(r[1].item<int32_t>(), 3); // 0 + 1 + 2
  r = while_loop(condFn, body, {constant(0), constant(0)}, 0);
  EXPECT_EQ(r[0].item<int32_t>(), 0);
  // A false condition runs the body zero times.
  r = while_loop(condFn, body, {constant(20), constant(0)});
  EXPECT_EQ(r[0].item<int32_t>(), 20);
}

TEST(WhileLoop, LoopVariablesKeepDTypeAndShape) {
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        while_loop(
            [](const std::vector<Tensor> &v) { return v[0] < 10; },
            [](const std::vector<Tensor> &v) {
              return std::vector<Tensor>{v[0] + 1, concat({v[1], v[1]}, 0)};
            },
            {constant(0), constant({1.f})});
      },
      {"loop variable 1 has shape (1) before the loop, but shape (2) after "
       "one iteration"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        while_loop([](const std::vector<Tensor> &v) { return v[0] < 10; },
                   [](const std::vector<Tensor> &v) {
                     return std::vector<Tensor>{cast(v[0], DType::Int64) + 1};
                   },
                   {constant(0)});
      },
      {"loop variable 0 has dtype int32 before the loop, but dtype int64 "
       "after one iteration"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        while_loop([](const std::vector<Tensor> &v) { return v[0] < 10; },
                   [](const std::vector<Tensor> &v) {
                     return std::vector<Tensor>{v[0] + 1, v[0]};
                   },
                   {constant(0)});
      },
      {"while_loop", "body returned 2 loop variables", "has 1"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        while_loop([](const std::vector<Tensor> &v) { return v[0]; },
                   [](const std::vector<Tensor> &v) { return v; },
                   {constant(1)});
      },
      {"while_loop", "bool scalar", "int32"}));
}

TEST(AssertTrue, PassesOrThrowsRuntimeError) {
  EXPECT_NO_THROW(assert_true(constant({1, 2}) > 0, "positive"));
  EXPECT_NO_THROW(assert_true(constant(true), "scalar"));
  EXPECT_NO_THROW(assert_true(zeros({0}) > 0.f, "vacuously true"));
  EXPECT_TRUE(throwsWith<RuntimeError>(
      [] {
        assert_true(constant({1, -2}) > 0, "x must be positive");
      },
      {"x must be positive", "element 1"}));
  EXPECT_TRUE(throwsWith<RuntimeError>(
      [] { assert_true(constant(false), "never"); }, {"never"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        assert_true(constant({1, 2}), "not bool");
      },
      {"assert_true", "bool", "int32", "(2,)"}));
}

/// The same computation as examples/collatz: eager tensor arithmetic driving
/// ordinary C++ control flow through item<bool>().
int64_t collatzSteps(int64_t start) {
  Tensor n = constant(start);
  int64_t steps = 0;
  while ((n != 1).item<bool>()) {
    if ((n % 2 == 0).item<bool>())
      n = floor_div(n, 2);
    else
      n = 3 * n + 1;
    ++steps;
  }
  return steps;
}

TEST(Collatz, TwentySevenTakes111Steps) {
  EXPECT_EQ(collatzSteps(27), 111);
  EXPECT_EQ(collatzSteps(1), 0);
  EXPECT_EQ(collatzSteps(6), 8);
}

TEST(Collatz, AsAWhileLoop) {
  auto r = while_loop([](const std::vector<Tensor> &v) { return v[0] != 1; },
                      [](const std::vector<Tensor> &v) {
                        Tensor n = v[0];
                        Tensor next =
                            where(n % 2 == 0, floor_div(n, 2), 3 * n + 1);
                        return std::vector<Tensor>{next, v[1] + 1};
                      },
                      {constant(27), constant(0)});
  EXPECT_EQ(r[1].item<int32_t>(), 111);
}

} // namespace
