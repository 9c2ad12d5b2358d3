//===- VariableTest.cpp - tfc::Variable
//------------------------------------===//
#include "TestUtil.h"

using namespace tfc;
using namespace tfc::testing;

namespace {

TEST(Variable, PropertiesComeFromTheInitialValue) {
  Variable w(zeros({2, 3}), "w");
  EXPECT_EQ(w.dtype(), DType::Float32);
  EXPECT_EQ(w.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(w.rank(), 2);
  EXPECT_EQ(w.name(), "w");
  EXPECT_TRUE(w.trainable());

  Variable step(constant(int64_t{0}), "step", /*trainable=*/false);
  EXPECT_EQ(step.dtype(), DType::Int64);
  EXPECT_TRUE(step.shape().empty());
  EXPECT_FALSE(step.trainable());

  Variable unnamed(constant({1, 2}));
  EXPECT_EQ(unnamed.name(), "");
  EXPECT_NE(unnamed.id(), w.id());
  EXPECT_NE(unnamed.id(), step.id());
}

TEST(Variable, FromLiterals) {
  Variable v({1.f, 2.f}, "v");
  EXPECT_TRUE(tensorIs(v.value(), DType::Float32, {2}, {1, 2}));
  Variable s(3);
  EXPECT_TRUE(tensorIs(s.value(), DType::Int32, {}, {3}));
}

TEST(Variable, CopiesShareStorage) {
  Variable a(constant({1.f, 2.f}), "a");
  Variable b = a;
  EXPECT_EQ(a.id(), b.id());
  EXPECT_EQ(a.state(), b.state());
  b.assign(constant({5.f, 6.f}));
  EXPECT_TRUE(tensorIs(a.value(), DType::Float32, {2}, {5, 6}));
  a.assign_add(constant({1.f, 1.f}));
  EXPECT_TRUE(tensorIs(b.value(), DType::Float32, {2}, {6, 7}));
  std::vector<Variable> vars{a, b};
  vars[1].assign_sub(constant({6.f, 7.f}));
  EXPECT_TRUE(tensorIs(a.value(), DType::Float32, {2}, {0, 0}));
}

TEST(Variable, ValueIsASnapshot) {
  Variable v(constant({1, 2}));
  Tensor before = v.value();
  v.assign(constant({3, 4}));
  EXPECT_TRUE(tensorIs(before, DType::Int32, {2}, {1, 2}));
  EXPECT_TRUE(tensorIs(v.value(), DType::Int32, {2}, {3, 4}));
}

TEST(Variable, AssignAddAndSub) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Variable v(cast(constant({10, 20}), t));
    v.assign_add(cast(constant({1, 2}), t));
    EXPECT_TRUE(tensorIs(v.value(), t, {2}, {11, 22}));
    v.assign_sub(cast(constant({5, 5}), t));
    EXPECT_TRUE(tensorIs(v.value(), t, {2}, {6, 17}));
    // Scalars take the variable's dtype and broadcast to its shape.
    v.assign_add(1);
    EXPECT_TRUE(tensorIs(v.value(), t, {2}, {7, 18}));
    v.assign_sub(2);
    EXPECT_TRUE(tensorIs(v.value(), t, {2}, {5, 16}));
    v.assign_add(zeros({}, t) + 1);
    EXPECT_TRUE(tensorIs(v.value(), t, {2}, {6, 17}));
  }
  Variable counter(constant(0));
  for (int i = 0; i < 3; ++i)
    counter.assign_add(1);
  EXPECT_EQ(counter.value().item<int32_t>(), 3);
  Variable flags(constant({true, false}));
  flags.assign(constant({false, false}));
  EXPECT_TRUE(tensorIs(flags.value(), DType::Bool, {2}, {0, 0}));
}

TEST(Variable, UsableWhereverATensorIs) {
  Variable w(constant({{1.f, 2.f}, {3.f, 4.f}}), "w");
  Tensor x = constant({{1.f}, {1.f}});
  EXPECT_TRUE(tensorIs(matmul(w, x), DType::Float32, {2, 1}, {3, 7}));
  EXPECT_TRUE(tensorIs(w * 2, DType::Float32, {2, 2}, {2, 4, 6, 8}));
  EXPECT_TRUE(tensorIs(1 + w, DType::Float32, {2, 2}, {2, 3, 4, 5}));
  EXPECT_TRUE(tensorIs(w + w, DType::Float32, {2, 2}, {2, 4, 6, 8}));
  EXPECT_TRUE(tensorIs(reduce_sum(w), DType::Float32, {}, {10}));
  Tensor t = w;
  EXPECT_TRUE(tensorIs(t, DType::Float32, {2, 2}, {1, 2, 3, 4}));
}

TEST(Variable, FailedAssignLeavesTheVariableUnchanged) {
  Variable v(constant({1.f, 2.f}), "v");
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] {
        v.assign(constant({1.f, 2.f, 3.f}));
      },
      {"assign", "'v'", "(2,)", "(3,)", "float32"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] {
        v.assign(constant({1, 2}));
      },
      {"assign", "'v'", "float32", "int32"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] {
        v.assign_add(constant({1.f, 2.f, 3.f}));
      },
      {"assign_add", "'v'", "(3,)", "(2,)"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] {
        v.assign_sub(constant({1.0, 2.0}));
      },
      {"assign_sub", "float32", "float64"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { v.assign(Tensor()); },
                                               {"assign", "undefined"}));
  EXPECT_NO_THROW(v.assign_add(0.5)); // still usable afterwards
  EXPECT_TRUE(tensorIs(v.value(), DType::Float32, {2}, {1.5, 2.5}));
  Variable i(constant({1, 2}), "i");
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { i.assign_add(0.5); },
                                               {"assign_add", "0.5", "int32"}));
  EXPECT_TRUE(tensorIs(i.value(), DType::Int32, {2}, {1, 2}));
  Variable b(constant({true}), "b");
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { b.assign_add(constant({true})); }, {"assign_add", "'b'", "bool"}));
  EXPECT_TRUE(tensorIs(b.value(), DType::Bool, {1}, {1}));
}

TEST(Variable, UndefinedInitialValueIsAnError) {
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] { Variable v(Tensor(), "w"); }, {"Variable", "'w'", "undefined"}));
}

} // namespace
