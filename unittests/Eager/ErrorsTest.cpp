//===- ErrorsTest.cpp - A walk through bad inputs
//--------------------------===//
//
// Every bad input throws the right tfc::Error subclass, with a message that
// names the op and the offending shapes / dtypes, and nothing aborts.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include <cstdlib>
#include <iostream>

using namespace tfc;
using namespace tfc::testing;

namespace {

enum class Kind { InvalidArgument, Runtime };

struct BadInput {
  std::string what;
  std::function<void()> run;
  Kind kind;
  std::vector<std::string> mentions;
};

std::vector<BadInput> badInputs() {
  const Tensor f23 = zeros({2, 3});
  const Tensor f4 = zeros({4});
  const Tensor i3 = constant({1, 2, 3});
  const Tensor f3 = constant({1.f, 2.f, 3.f});
  const Tensor b2 = constant({true, false});
  const auto I = Kind::InvalidArgument;
  return {
      // Elementwise: shapes and dtypes.
      {"add of incompatible shapes",
       [=] { add(f23, f4); },
       I,
       {"add", "(2, 3)", "(4,)"}},
      {"operator* of incompatible shapes",
       [=] { (void)(f3 * f4); },
       I,
       {"mul", "(3,)", "(4,)"}},
      {"add of mixed dtypes",
       [=] { add(f3, i3); },
       I,
       {"add", "float32", "int32"}},
      {"sub of int32 and int64",
       [=] { sub(i3, cast(i3, DType::Int64)); },
       I,
       {"sub", "int32", "int64"}},
      {"div on integers", [=] { div(i3, i3); }, I, {"div", "int32"}},
      {"exp on integers", [=] { exp(i3); }, I, {"exp", "int32"}},
      {"log on bool", [=] { log(b2); }, I, {"log", "bool"}},
      {"sqrt on int64",
       [=] { sqrt(cast(i3, DType::Int64)); },
       I,
       {"sqrt", "int64"}},
      {"neg on bool", [=] { neg(b2); }, I, {"neg", "bool"}},
      {"add on bool", [=] { add(b2, b2); }, I, {"add", "bool"}},
      {"pow of mixed dtypes",
       [=] { pow(f3, cast(f3, DType::Float64)); },
       I,
       {"pow", "float32", "float64"}},
      {"maximum of incompatible shapes",
       [=] { maximum(f3, zeros({2})); },
       I,
       {"maximum", "(3,)", "(2,)"}},
      {"floor_div of an integer by zero",
       [=] { floor_div(i3, constant(0)); },
       I,
       {"floor_div", "zero"}},
      {"mod of an integer by zero",
       [=] {
         mod(i3, constant({1, 0, 1}));
       },
       I,
       {"mod", "zero"}},
      {"scalar 2.5 next to an int32 tensor",
       [=] { mul(i3, 2.5); },
       I,
       {"mul", "2.5", "int32"}},
      {"scalar 3 next to a bool tensor",
       [=] { equal(b2, 3); },
       I,
       {"equal", "3", "bool"}},
      {"scalar out of int32 range",
       [=] { add(i3, int64_t{1} << 40); },
       I,
       {"add", "1099511627776", "int32"}},
      // Comparison and logic.
      {"equal of mixed dtypes",
       [=] { equal(f3, i3); },
       I,
       {"equal", "float32", "int32"}},
      {"less on bools", [=] { less(b2, b2); }, I, {"less", "bool"}},
      {"logical_and on integers",
       [=] { logical_and(i3, i3); },
       I,
       {"logical_and", "int32"}},
      {"logical_not on floats",
       [=] { logical_not(f3); },
       I,
       {"logical_not", "float32"}},
      {"where with a non-bool condition",
       [=] { where(i3, f3, f3); },
       I,
       {"where", "int32"}},
      {"where with mixed branch dtypes",
       [=] { where(constant(true), f3, i3); },
       I,
       {"where", "float32", "int32"}},
      {"where with incompatible shapes",
       [=] { where(b2, f3, f3); },
       I,
       {"where", "(2,)", "(3,)"}},
      // Shapes.
      {"reshape to a different size",
       [=] { reshape(f23, {4}); },
       I,
       {"reshape", "(2, 3)", "(4,)"}},
      {"reshape with two -1",
       [=] {
         reshape(f23, {-1, -1});
       },
       I,
       {"reshape", "-1"}},
      {"transpose with a repeated axis",
       [=] {
         transpose(f23, {0, 0});
       },
       I,
       {"transpose", "[0, 0]", "(2, 3)"}},
      {"transpose with a short perm",
       [=] { transpose(f23, {0}); },
       I,
       {"transpose", "[0]", "(2, 3)"}},
      {"expand_dims out of range",
       [=] { expand_dims(f3, 2); },
       I,
       {"expand_dims", "axis 2", "(3,)"}},
      {"squeeze of a dim that is not 1",
       [=] {
         squeeze(zeros({1, 3}), {1});
       },
       I,
       {"squeeze", "axis 1", "(1, 3)", "3"}},
      {"squeeze out of range",
       [=] {
         squeeze(zeros({1, 3}), {5});
       },
       I,
       {"squeeze", "axis 5", "(1, 3)"}},
      {"broadcast_to an incompatible shape",
       [=] { broadcast_to(f3, {2}); },
       I,
       {"broadcast_to", "(3,)", "(2,)"}},
      {"concat of mismatched ranks",
       [=] {
         concat({f3, zeros({1, 3})}, 0);
       },
       I,
       {"concat", "(3,)", "(1, 3)"}},
      {"concat of mismatched dtypes",
       [=] {
         concat({f3, i3}, 0);
       },
       I,
       {"concat", "float32", "int32"}},
      {"concat of mismatched other dims",
       [=] {
         concat({f23, zeros({2, 4})}, 0);
       },
       I,
       {"concat", "(2, 3)", "(2, 4)"}},
      {"concat of nothing",
       [] { concat({}, 0); },
       I,
       {"concat", "at least one"}},
      {"concat axis out of range",
       [=] {
         concat({f3, f3}, 1);
       },
       I,
       {"concat", "axis 1", "(3,)"}},
      {"slice past the end",
       [=] {
         slice(f23, {1, 1}, {2, 2});
       },
       I,
       {"slice", "[1, 1]", "[2, 2]", "(2, 3)"}},
      {"slice with a negative begin",
       [=] {
         slice(f23, {-1, 0}, {1, 1});
       },
       I,
       {"slice", "[-1, 0]", "(2, 3)"}},
      {"slice with the wrong rank",
       [=] { slice(f23, {0}, {1}); },
       I,
       {"slice", "one entry per dim", "(2, 3)"}},
      // Linear algebra.
      {"matmul inner dim mismatch",
       [=] { matmul(f23, f23); },
       I,
       {"matmul", "(2, 3)"}},
      {"matmul of a vector", [=] { matmul(f3, f3); }, I, {"matmul", "(3,)"}},
      {"matmul of mixed dtypes",
       [=] {
         matmul(f23, cast(zeros({3, 2}), DType::Float64));
       },
       I,
       {"matmul", "float32", "float64"}},
      {"matmul batch mismatch",
       [=] {
         matmul(zeros({2, 2, 2}), zeros({3, 2, 2}));
       },
       I,
       {"matmul", "(2, 2, 2)", "(3, 2, 2)"}},
      {"matmul of bools",
       [] { matmul(constant({{true}}), constant({{true}})); },
       I,
       {"matmul", "bool"}},
      // Reductions and nn.
      {"reduce_sum axis out of range",
       [=] { reduce_sum(f23, {2}); },
       I,
       {"reduce_sum", "axis 2", "(2, 3)"}},
      {"reduce_sum negative axis out of range",
       [=] { reduce_sum(f23, -3); },
       I,
       {"reduce_sum", "axis -3", "(2, 3)"}},
      {"reduce_max with a repeated axis",
       [=] {
         reduce_max(f23, {1, -1});
       },
       I,
       {"reduce_max", "[1, -1]", "twice", "(2, 3)"}},
      {"reduce_max of an empty tensor",
       [] { reduce_max(zeros({0})); },
       I,
       {"reduce_max", "(0,)"}},
      {"reduce_mean of bools",
       [=] { reduce_mean(b2); },
       I,
       {"reduce_mean", "bool"}},
      {"argmax axis out of range",
       [=] { argmax(f23, 2); },
       I,
       {"argmax", "axis 2", "(2, 3)"}},
      {"softmax of integers", [=] { softmax(i3); }, I, {"softmax", "int32"}},
      {"log_softmax axis out of range",
       [=] { log_softmax(f3, 1); },
       I,
       {"log_softmax", "axis 1", "(3,)"}},
      {"softmax_cross_entropy of mismatched shapes",
       [=] {
         softmax_cross_entropy_with_logits(f23, zeros({2, 4}));
       },
       I,
       {"softmax_cross_entropy", "(2, 3)", "(2, 4)"}},
      {"one_hot of floats", [=] { one_hot(f3, 3); }, I, {"one_hot", "float32"}},
      {"one_hot with a negative depth",
       [=] { one_hot(i3, -1); },
       I,
       {"one_hot", "depth", "-1"}},
      // Undefined tensors.
      {"add of an undefined tensor",
       [=] { add(Tensor(), f3); },
       I,
       {"add", "input 0", "undefined"}},
      {"operator+ of an undefined tensor",
       [=] { (void)(f3 + Tensor()); },
       I,
       {"add", "input 1", "undefined"}},
      {"scalar next to an undefined tensor",
       [] { (void)(Tensor() * 2); },
       I,
       {"mul", "undefined"}},
      {"reduce_sum of an undefined tensor",
       [] { reduce_sum(Tensor()); },
       I,
       {"reduce_sum", "undefined"}},
      // Values out of tensors.
      {"item of a multi-element tensor",
       [=] { f3.item<float>(); },
       I,
       {"item", "(3,)"}},
      {"item<float> of an int32 tensor",
       [] { constant(1).item<float>(); },
       I,
       {"item", "float32", "int32"}},
      {"to_vector<double> of a float32 tensor",
       [=] { f3.to_vector<double>(); },
       I,
       {"to_vector", "float64", "float32"}},
      // Creation.
      {"ragged constant",
       [] {
         constant({{1, 2}, {3}});
       },
       I,
       {"constant", "ragged"}},
      {"from_vector size mismatch",
       [] {
         from_vector<float>({1, 2, 3}, {2, 2});
       },
       I,
       {"from_vector", "3 values", "(2, 2)"}},
      {"zeros with a negative dim",
       [] {
         zeros({2, -1});
       },
       I,
       {"zeros", "[2, -1]", "negative"}},
      {"range with delta 0", [] { range(0, 5, 0); }, I, {"range", "delta"}},
      // Control flow and checks.
      {"cond on a non-bool predicate",
       [=] {
         cond(
             i3, [] { return constant(1); }, [] { return constant(2); });
       },
       I,
       {"cond", "int32", "(3,)"}},
      {"cond on a bool vector",
       [=] {
         cond(
             b2, [] { return constant(1); }, [] { return constant(2); });
       },
       I,
       {"cond", "bool", "(2,)"}},
      {"assert_true on a non-bool predicate",
       [=] { assert_true(f3, "msg"); },
       I,
       {"assert_true", "float32", "(3,)"}},
      {"assert_true that fails",
       [=] { assert_true(f3 > 2.f, "too small"); },
       Kind::Runtime,
       {"too small"}},
      {"while_loop changing a shape",
       [] {
         while_loop(
             [](const std::vector<Tensor> &v) { return v[0] < 3; },
             [](const std::vector<Tensor> &v) {
               return std::vector<Tensor>{v[0] + 1, concat({v[1], v[1]}, 0)};
             },
             {constant(0), constant({1.f})});
       },
       I,
       {"while_loop", "loop variable 1 has shape (1) before the loop, but "
                      "shape (2) after one iteration"}},
      {"while_loop on a non-bool condition",
       [] {
         while_loop([](const std::vector<Tensor> &v) { return v[0]; },
                    [](const std::vector<Tensor> &v) { return v; },
                    {constant(1.f)});
       },
       I,
       {"while_loop", "float32"}},
      // Variables.
      {"assign of another shape",
       [] {
         Variable v(zeros({2}), "w");
         v.assign(zeros({3}));
       },
       I,
       {"assign", "'w'", "(2,)", "(3,)"}},
      {"assign of another dtype",
       [] {
         Variable v(zeros({2}), "w");
         v.assign(constant({1, 2}));
       },
       I,
       {"assign", "'w'", "float32", "int32"}},
  };
}

TEST(Errors, EveryBadInputThrowsTheRightClassAndSaysWhat) {
  std::vector<BadInput> cases = badInputs();
  EXPECT_GE(cases.size(), 40u);
  for (const BadInput &c : cases) {
    SCOPED_TRACE(c.what);
    if (c.kind == Kind::InvalidArgument)
      EXPECT_TRUE(throwsWith<InvalidArgumentError>(c.run, c.mentions));
    else
      EXPECT_TRUE(throwsWith<RuntimeError>(c.run, c.mentions));
  }
}

TEST(Errors, AllAreTfcErrors) {
  // TFC_PRINT_ERRORS=1 lists every message, for reviewing their wording.
  const bool show = std::getenv("TFC_PRINT_ERRORS") != nullptr;
  for (const BadInput &c : badInputs()) {
    SCOPED_TRACE(c.what);
    try {
      c.run();
      ADD_FAILURE() << "did not throw";
    } catch (const Error &e) {
      if (show)
        std::cout << c.what << ":\n    " << e.what() << "\n";
    }
  }
}

TEST(Errors, NamedFunctionsAppendTheCallersLocation) {
  // Outside any macro: GCC gives calls inside a macro's arguments the line
  // of the macro.
  const int line = __LINE__ + 1;
  auto badAdd = [] { add(zeros({2}), zeros({3})); };
  const int line2 = __LINE__ + 1;
  auto badAxis = [] { reduce_sum(zeros({2}), {1}); };
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      badAdd, {"add", "(at ErrorsTest.cpp:" + std::to_string(line) + ")"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      badAxis,
      {"reduce_sum", "(at ErrorsTest.cpp:" + std::to_string(line2) + ")"}));
  // Operators cannot know where they were called from.
  try {
    (void)(zeros({2}) + zeros({3}));
    ADD_FAILURE() << "did not throw";
  } catch (const InvalidArgumentError &e) {
    EXPECT_EQ(std::string(e.what()).find("(at "), std::string::npos)
        << e.what();
  }
}

} // namespace
