//===- OpsTest.cpp - Every op of docs/api.md, for every dtype it accepts -===//
//
// Expected values are computed by hand (or are exact textbook values).
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

using namespace tfc;
using namespace tfc::testing;

namespace {

Tensor vec(std::initializer_list<double> values, DType dtype) {
  return cast(from_vector<double>(std::vector<double>(values),
                                  {static_cast<int64_t>(values.size())}),
              dtype);
}

// --- Arithmetic --------------------------------------------------------------

TEST(Arithmetic, AddSubMulOnEveryNumericDType) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor a = vec({1, 2, 3}, t), b = vec({4, 5, -6}, t);
    EXPECT_TRUE(tensorIs(add(a, b), t, {3}, {5, 7, -3}));
    EXPECT_TRUE(tensorIs(a + b, t, {3}, {5, 7, -3}));
    EXPECT_TRUE(tensorIs(sub(a, b), t, {3}, {-3, -3, 9}));
    EXPECT_TRUE(tensorIs(a - b, t, {3}, {-3, -3, 9}));
    EXPECT_TRUE(tensorIs(mul(a, b), t, {3}, {4, 10, -18}));
    EXPECT_TRUE(tensorIs(a * b, t, {3}, {4, 10, -18}));
    EXPECT_TRUE(tensorIs(neg(a), t, {3}, {-1, -2, -3}));
    EXPECT_TRUE(tensorIs(-b, t, {3}, {-4, -5, 6}));
  }
}

TEST(Arithmetic, DivOnFloats) {
  for (DType t : floatDTypes()) {
    Tensor a = vec({1, 3, -1}, t), b = vec({2, 4, 8}, t);
    EXPECT_TRUE(tensorIs(div(a, b), t, {3}, {0.5, 0.75, -0.125}));
    EXPECT_TRUE(tensorIs(a / b, t, {3}, {0.5, 0.75, -0.125}));
    // IEEE: x / 0 is inf, 0 / 0 is NaN.
    EXPECT_TRUE(
        tensorIs(vec({1, 0}, t) / vec({0, 0}, t), t, {2}, {INFINITY, NAN}));
  }
}

TEST(Arithmetic, PowMaximumMinimum) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor a = vec({2, 3, -2}, t), b = vec({3, 2, 2}, t);
    EXPECT_TRUE(tensorIs(pow(a, b), t, {3}, {8, 9, 4}));
    EXPECT_TRUE(tensorIs(maximum(a, b), t, {3}, {3, 3, 2}));
    EXPECT_TRUE(tensorIs(minimum(a, b), t, {3}, {2, 2, -2}));
  }
  for (DType t : floatDTypes())
    EXPECT_TRUE(tensorIs(pow(vec({4, 9, 2}, t), vec({0.5, 0.5, -1}, t)), t, {3},
                         {2, 3, 0.5}));
}

TEST(Arithmetic, FloorDivAndModFollowPython) {
  // Python: [7 // 2, -7 // 2, 7 // -2, -7 // -2] == [3, -4, -4, 3]
  //         [7 % 2, -7 % 2, 7 % -2, -7 % -2] == [1, 1, -1, -1]
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor a = vec({7, -7, 7, -7, 6, 0}, t), b = vec({2, 2, -2, -2, 3, 5}, t);
    EXPECT_TRUE(tensorIs(floor_div(a, b), t, {6}, {3, -4, -4, 3, 2, 0}));
    EXPECT_TRUE(tensorIs(mod(a, b), t, {6}, {1, 1, -1, -1, 0, 0}));
    EXPECT_TRUE(tensorIs(a % b, t, {6}, {1, 1, -1, -1, 0, 0}));
  }
  // Python: 7.5 // 2 == 3.0, -7.5 // 2 == -4.0, 7.5 % 2 == 1.5, -7.5 % 2 ==
  // 0.5,
  //         7.5 % -2 == -0.5
  for (DType t : floatDTypes()) {
    Tensor a = vec({7.5, -7.5, 7.5}, t), b = vec({2, 2, -2}, t);
    EXPECT_TRUE(tensorIs(floor_div(a, b), t, {3}, {3, -4, -4}));
    EXPECT_TRUE(tensorIs(mod(a, b), t, {3}, {1.5, 0.5, -0.5}));
  }
}

TEST(Arithmetic, UnaryIntegerAndFloat) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor x = vec({-3, 0, 2}, t);
    EXPECT_TRUE(tensorIs(abs(x), t, {3}, {3, 0, 2}));
    EXPECT_TRUE(tensorIs(square(x), t, {3}, {9, 0, 4}));
    EXPECT_TRUE(tensorIs(relu(x), t, {3}, {0, 0, 2}));
    EXPECT_TRUE(tensorIs(stop_gradient(x), t, {3}, {-3, 0, 2}));
  }
}

TEST(Arithmetic, FloorRoundsTowardNegativeInfinity) {
  for (DType t : floatDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    EXPECT_TRUE(tensorIs(floor(vec({-1.5, -0.5, -0.0, 0.5, 2, 2.7, -3}, t)), t,
                         {7}, {-2, -1, 0, 0, 2, 2, -3}));
    EXPECT_TRUE(tensorIs(floor(vec({INFINITY, -INFINITY, NAN}, t)), t, {3},
                         {INFINITY, -INFINITY, NAN}));
    // Compiled code gives the kernel's results (math.floor).
    auto f =
        tfc::function([](const Tensor &x) { return floor(x * 2.0 - 0.5); });
    Tensor x = vec({-1.5, -0.5, 0, 0.5, 2, 2.7, -3}, t);
    EXPECT_TRUE(tensorIs(f(x), t, {7}, {-4, -2, -1, 0, 3, 4, -7}));
  }
  // Integers have no floor (as tf.math.floor): the message names the op,
  // the dtype and the caller's line.
  try {
    (void)floor(constant({1, 2}));
    FAIL() << "floor of int32 did not throw";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("floor"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("int32"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("OpsTest.cpp"), std::string::npos)
        << e.what();
  }
}

TEST(Arithmetic, TranscendentalsOnFloats) {
  const double e = 2.718281828459045;
  for (DType t : floatDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    const double tol = t == DType::Float32 ? 1e-6 : 1e-12;
    EXPECT_TRUE(tensorIs(exp(vec({0, 1, -1}, t)), t, {3}, {1, e, 1 / e}, tol));
    EXPECT_TRUE(
        tensorIs(log(vec({1, e, 0}, t)), t, {3}, {0, 1, -INFINITY}, tol));
    EXPECT_TRUE(tensorIs(log1p(vec({0, e - 1}, t)), t, {2}, {0, 1}, tol));
    // log1p is accurate where 1 + x rounds to 1.
    EXPECT_TRUE(tensorIs(log1p(vec({1e-10}, t)), t, {1}, {1e-10}, 1e-5));
    EXPECT_TRUE(tensorIs(sqrt(vec({4, 2.25, 0}, t)), t, {3}, {2, 1.5, 0}, tol));
    EXPECT_TRUE(tensorIs(sqrt(vec({-1}, t)), t, {1}, {NAN}));
    const double pi = 3.141592653589793;
    EXPECT_TRUE(
        tensorIs(sin(vec({0, pi / 2, pi / 6}, t)), t, {3}, {0, 1, 0.5}, tol));
    EXPECT_TRUE(
        tensorIs(cos(vec({0, pi, pi / 3}, t)), t, {3}, {1, -1, 0.5}, tol));
    // tanh(ln 2) == 3/5; sigmoid(ln 3) == 3/4.
    EXPECT_TRUE(tensorIs(tanh(vec({0, std::log(2.0), 100}, t)), t, {3},
                         {0, 0.6, 1}, tol));
    EXPECT_TRUE(tensorIs(sigmoid(vec({0, std::log(3.0), -1000}, t)), t, {3},
                         {0.5, 0.75, 0}, tol));
    EXPECT_TRUE(tensorIs(relu(vec({-0.5, 0.5}, t)), t, {2}, {0, 0.5}));
  }
}

// --- Broadcasting, rank 0, empty ---------------------------------------------

TEST(Broadcasting, NumPyRules) {
  Tensor col = constant({{1}, {2}});   // (2, 1)
  Tensor row = constant({10, 20, 30}); // (3,)
  EXPECT_TRUE(
      tensorIs(col + row, DType::Int32, {2, 3}, {11, 21, 31, 12, 22, 32}));
  EXPECT_TRUE(tensorIs(row * constant(2), DType::Int32, {3}, {20, 40, 60}));
  Tensor a = ones({2, 1, 3}), b = ones({4, 1});
  EXPECT_EQ((a + b).shape(), (std::vector<int64_t>{2, 4, 3}));
  EXPECT_TRUE(
      tensorIs(maximum(constant({{1.f, 5.f}}), constant({{3.f}, {0.f}})),
               DType::Float32, {2, 2}, {3, 5, 1, 5}));
  EXPECT_TRUE(tensorIs(constant({{1, 2}}) < constant({{2}, {1}}), DType::Bool,
                       {2, 2}, {1, 0, 0, 0}));
}

TEST(Broadcasting, RankZeroAndEmpty) {
  EXPECT_TRUE(tensorIs(constant(2.f) * constant(3.f), DType::Float32, {}, {6}));
  Tensor empty = zeros({0});
  EXPECT_TRUE(tensorIs(empty + empty, DType::Float32, {0}, {}));
  EXPECT_TRUE(tensorIs(zeros({0, 3}) + ones({3}), DType::Float32, {0, 3}, {}));
  EXPECT_TRUE(tensorIs(exp(empty), DType::Float32, {0}, {}));
  EXPECT_TRUE(tensorIs(equal(empty, constant(1.f)), DType::Bool, {0}, {}));
  EXPECT_TRUE(tensorIs(neg(constant(int64_t{5})), DType::Int64, {}, {-5}));
}

// --- Scalars next to tensors -------------------------------------------------

TEST(Scalars, TakeTheTensorsDType) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor x = vec({1, 2, 4}, t);
    EXPECT_TRUE(tensorIs(x + 1, t, {3}, {2, 3, 5}));
    EXPECT_TRUE(tensorIs(1 + x, t, {3}, {2, 3, 5}));
    EXPECT_TRUE(tensorIs(x * 2, t, {3}, {2, 4, 8}));
    EXPECT_TRUE(tensorIs(10 - x, t, {3}, {9, 8, 6}));
    EXPECT_TRUE(tensorIs(x - 1.0, t, {3}, {0, 1, 3})); // integral double: ok
    EXPECT_TRUE(tensorIs(x % 3, t, {3}, {1, 2, 1}));
    EXPECT_TRUE(tensorIs(x == 2, DType::Bool, {3}, {0, 1, 0}));
    EXPECT_TRUE(tensorIs(x != 2, DType::Bool, {3}, {1, 0, 1}));
    EXPECT_TRUE(tensorIs(x < 2, DType::Bool, {3}, {1, 0, 0}));
    EXPECT_TRUE(tensorIs(x <= 2, DType::Bool, {3}, {1, 1, 0}));
    EXPECT_TRUE(tensorIs(x > 2, DType::Bool, {3}, {0, 0, 1}));
    EXPECT_TRUE(tensorIs(x >= 2, DType::Bool, {3}, {0, 1, 1}));
    EXPECT_TRUE(tensorIs(3 > x, DType::Bool, {3}, {1, 1, 0}));
    EXPECT_TRUE(tensorIs(pow(x, 2), t, {3}, {1, 4, 16}));
    EXPECT_TRUE(tensorIs(maximum(x, 2), t, {3}, {2, 2, 4}));
    EXPECT_TRUE(tensorIs(minimum(3, x), t, {3}, {1, 2, 3}));
    EXPECT_TRUE(tensorIs(floor_div(x, 2), t, {3}, {0, 1, 2}));
    EXPECT_TRUE(tensorIs(where(x > 1, x, 0), t, {3}, {0, 2, 4}));
    EXPECT_TRUE(tensorIs(where(x > 1, -1, x), t, {3}, {1, -1, -1}));
  }
  for (DType t : floatDTypes()) {
    Tensor x = vec({1, 2}, t);
    EXPECT_TRUE(tensorIs(x * 2.5, t, {2}, {2.5, 5}));
    EXPECT_TRUE(tensorIs(x / 4, t, {2}, {0.25, 0.5}));
    EXPECT_TRUE(tensorIs(1 / x, t, {2}, {1, 0.5}));
    EXPECT_TRUE(tensorIs(x + 0.5f, t, {2}, {1.5, 2.5}));
  }
  Tensor b = constant({true, false});
  EXPECT_TRUE(tensorIs(b == true, DType::Bool, {2}, {1, 0}));
  EXPECT_TRUE(tensorIs(b != 1, DType::Bool, {2}, {0, 1}));
  EXPECT_TRUE(tensorIs(logical_and(b, true), DType::Bool, {2}, {1, 0}));
  EXPECT_TRUE(tensorIs(b | false, DType::Bool, {2}, {1, 0}));
}

TEST(Scalars, CompoundAssignmentRebindsTheHandle) {
  Tensor x = constant({1, 2});
  Tensor before = x;
  x += 1;
  x *= constant({2, 3});
  x -= 1;
  EXPECT_TRUE(tensorIs(x, DType::Int32, {2}, {3, 8}));
  EXPECT_TRUE(tensorIs(before, DType::Int32, {2}, {1, 2})); // immutable value
  Tensor f = constant(9.f);
  f /= 2;
  f %= 2;
  EXPECT_TRUE(tensorIs(f, DType::Float32, {}, {0.5}));
}

// --- Comparison and logic ----------------------------------------------------

TEST(Compare, EveryDType) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor a = vec({1, 2, 3}, t), b = vec({2, 2, 2}, t);
    EXPECT_TRUE(tensorIs(equal(a, b), DType::Bool, {3}, {0, 1, 0}));
    EXPECT_TRUE(tensorIs(not_equal(a, b), DType::Bool, {3}, {1, 0, 1}));
    EXPECT_TRUE(tensorIs(less(a, b), DType::Bool, {3}, {1, 0, 0}));
    EXPECT_TRUE(tensorIs(less_equal(a, b), DType::Bool, {3}, {1, 1, 0}));
    EXPECT_TRUE(tensorIs(greater(a, b), DType::Bool, {3}, {0, 0, 1}));
    EXPECT_TRUE(tensorIs(greater_equal(a, b), DType::Bool, {3}, {0, 1, 1}));
    EXPECT_TRUE(tensorIs(a == b, DType::Bool, {3}, {0, 1, 0}));
    EXPECT_TRUE(tensorIs(a != b, DType::Bool, {3}, {1, 0, 1}));
    EXPECT_TRUE(tensorIs(a < b, DType::Bool, {3}, {1, 0, 0}));
    EXPECT_TRUE(tensorIs(a <= b, DType::Bool, {3}, {1, 1, 0}));
    EXPECT_TRUE(tensorIs(a > b, DType::Bool, {3}, {0, 0, 1}));
    EXPECT_TRUE(tensorIs(a >= b, DType::Bool, {3}, {0, 1, 1}));
  }
  Tensor p = constant({true, true, false}), q = constant({true, false, false});
  EXPECT_TRUE(tensorIs(equal(p, q), DType::Bool, {3}, {1, 0, 1}));
  EXPECT_TRUE(tensorIs(not_equal(p, q), DType::Bool, {3}, {0, 1, 0}));
  // NaN compares unequal to everything, itself included.
  Tensor nan = constant(NAN);
  EXPECT_TRUE(tensorIs(nan == nan, DType::Bool, {}, {0}));
  EXPECT_TRUE(tensorIs(nan != nan, DType::Bool, {}, {1}));
}

TEST(Logic, AndOrNotWhere) {
  Tensor p = constant({true, true, false, false});
  Tensor q = constant({true, false, true, false});
  EXPECT_TRUE(tensorIs(logical_and(p, q), DType::Bool, {4}, {1, 0, 0, 0}));
  EXPECT_TRUE(tensorIs(logical_or(p, q), DType::Bool, {4}, {1, 1, 1, 0}));
  EXPECT_TRUE(tensorIs(logical_not(p), DType::Bool, {4}, {0, 0, 1, 1}));
  EXPECT_TRUE(tensorIs(p & q, DType::Bool, {4}, {1, 0, 0, 0}));
  EXPECT_TRUE(tensorIs(p | q, DType::Bool, {4}, {1, 1, 1, 0}));
  EXPECT_TRUE(tensorIs(~q, DType::Bool, {4}, {0, 1, 0, 1}));
  EXPECT_TRUE(tensorIs(!q, DType::Bool, {4}, {0, 1, 0, 1}));
  EXPECT_TRUE(tensorIs(logical_or(constant(false), constant({{true}, {false}})),
                       DType::Bool, {2, 1}, {1, 0}));
}

TEST(Logic, WhereBroadcastsAllThree) {
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                  DType::Float64}) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor c = constant({true, false, true}); // (3,)
    Tensor a = cast(constant({{1}, {0}}), t); // (2, 1)
    Tensor b = zeros({}, t);                  // ()
    EXPECT_TRUE(tensorIs(where(c, a, b), t, {2, 3}, {1, 0, 1, 0, 0, 0}));
  }
  Tensor x = constant({-2.f, 3.f});
  EXPECT_TRUE(tensorIs(where(x > 0.f, x, -x), DType::Float32, {2}, {2, 3}));
}

TEST(Cast, ConvertsLikeCpp) {
  Tensor f = constant({1.7f, -1.7f, 0.f});
  EXPECT_TRUE(tensorIs(cast(f, DType::Int32), DType::Int32, {3}, {1, -1, 0}));
  EXPECT_TRUE(tensorIs(cast(f, DType::Int64), DType::Int64, {3}, {1, -1, 0}));
  EXPECT_TRUE(tensorIs(cast(f, DType::Bool), DType::Bool, {3}, {1, 1, 0}));
  EXPECT_TRUE(tensorIs(cast(f, DType::Float64), DType::Float64, {3},
                       {1.7, -1.7, 0}, 1e-6));
  EXPECT_TRUE(tensorIs(cast(constant({true, false}), DType::Float32),
                       DType::Float32, {2}, {1, 0}));
  EXPECT_TRUE(
      tensorIs(cast(constant({0, 2}), DType::Bool), DType::Bool, {2}, {0, 1}));
  EXPECT_TRUE(tensorIs(cast(constant(int64_t{5}), DType::Int32), DType::Int32,
                       {}, {5}));
  EXPECT_TRUE(tensorIs(cast(constant(5), DType::Int32), DType::Int32, {}, {5}));
}

// --- Shape ops ---------------------------------------------------------------

TEST(Shape, Reshape) {
  Tensor x = constant({{1, 2, 3}, {4, 5, 6}});
  EXPECT_TRUE(
      tensorIs(reshape(x, {3, 2}), DType::Int32, {3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(
      tensorIs(reshape(x, {-1}), DType::Int32, {6}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(
      tensorIs(reshape(x, {3, -1}), DType::Int32, {3, 2}, {1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(tensorIs(reshape(constant({7.f}), {}), DType::Float32, {}, {7}));
  EXPECT_TRUE(
      tensorIs(reshape(zeros({0, 3}), {3, 0}), DType::Float32, {3, 0}, {}));
}

TEST(Shape, Transpose) {
  Tensor x = constant({{1, 2, 3}, {4, 5, 6}});
  EXPECT_TRUE(tensorIs(transpose(x), DType::Int32, {3, 2}, {1, 4, 2, 5, 3, 6}));
  EXPECT_TRUE(
      tensorIs(transpose(x, {1, 0}), DType::Int32, {3, 2}, {1, 4, 2, 5, 3, 6}));
  EXPECT_TRUE(tensorIs(transpose(x, {0, -1}), DType::Int32, {2, 3},
                       {1, 2, 3, 4, 5, 6}));
  Tensor y = reshape(range(0, 8, 1, DType::Float64), {2, 2, 2});
  // y[i][j][k] = 4i + 2j + k; result[k][i][j] with perm {2, 0, 1}.
  EXPECT_TRUE(tensorIs(transpose(y, {2, 0, 1}), DType::Float64, {2, 2, 2},
                       {0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_TRUE(tensorIs(transpose(constant(3)), DType::Int32, {}, {3}));
}

TEST(Shape, ExpandDimsAndSqueeze) {
  Tensor x = constant({1.f, 2.f});
  EXPECT_EQ(expand_dims(x, 0).shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(expand_dims(x, 1).shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(expand_dims(x, -1).shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(expand_dims(x, -2).shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(expand_dims(constant(1), 0).shape(), (std::vector<int64_t>{1}));
  EXPECT_TRUE(tensorIs(expand_dims(x, 1), DType::Float32, {2, 1}, {1, 2}));

  Tensor y = zeros({1, 3, 1, 2});
  EXPECT_EQ(squeeze(y).shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(squeeze(y, {0}).shape(), (std::vector<int64_t>{3, 1, 2}));
  EXPECT_EQ(squeeze(y, {-2}).shape(), (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(squeeze(y, {2, 0}).shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_TRUE(tensorIs(squeeze(constant({{5}})), DType::Int32, {}, {5}));
}

TEST(Shape, BroadcastTo) {
  EXPECT_TRUE(tensorIs(broadcast_to(constant({1, 2}), {2, 2}), DType::Int32,
                       {2, 2}, {1, 2, 1, 2}));
  EXPECT_TRUE(tensorIs(broadcast_to(constant({{1.0}, {2.0}}), {2, 3}),
                       DType::Float64, {2, 3}, {1, 1, 1, 2, 2, 2}));
  EXPECT_TRUE(
      tensorIs(broadcast_to(constant(true), {3}), DType::Bool, {3}, {1, 1, 1}));
  EXPECT_TRUE(
      tensorIs(broadcast_to(constant({1}), {0}), DType::Int32, {0}, {}));
}

TEST(Shape, Concat) {
  Tensor a = constant({{1, 2}}), b = constant({{3, 4}, {5, 6}});
  EXPECT_TRUE(
      tensorIs(concat({a, b}, 0), DType::Int32, {3, 2}, {1, 2, 3, 4, 5, 6}));
  Tensor c = constant({{7}, {8}});
  EXPECT_TRUE(
      tensorIs(concat({b, c}, 1), DType::Int32, {2, 3}, {3, 4, 7, 5, 6, 8}));
  EXPECT_TRUE(
      tensorIs(concat({b, c}, -1), DType::Int32, {2, 3}, {3, 4, 7, 5, 6, 8}));
  EXPECT_TRUE(
      tensorIs(concat({constant({1.f}), zeros({0}), constant({2.f, 3.f})}, 0),
               DType::Float32, {3}, {1, 2, 3}));
  EXPECT_TRUE(tensorIs(concat({a}, 0), DType::Int32, {1, 2}, {1, 2}));
}

TEST(Shape, Slice) {
  Tensor x = reshape(range(0, 12, 1, DType::Int32), {3, 4});
  EXPECT_TRUE(
      tensorIs(slice(x, {1, 1}, {2, 2}), DType::Int32, {2, 2}, {5, 6, 9, 10}));
  EXPECT_TRUE(tensorIs(slice(x, {0, 2}, {-1, -1}), DType::Int32, {3, 2},
                       {2, 3, 6, 7, 10, 11}));
  EXPECT_TRUE(
      tensorIs(slice(x, {2, 0}, {1, 4}), DType::Int32, {1, 4}, {8, 9, 10, 11}));
  EXPECT_TRUE(tensorIs(slice(x, {3, 0}, {0, 4}), DType::Int32, {0, 4}, {}));
}

// --- Linear algebra ----------------------------------------------------------

TEST(Matmul, EveryNumericDType) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor a = cast(constant({{1, 2, 3}, {4, 5, 6}}), t);      // (2, 3)
    Tensor b = cast(constant({{7, 8}, {9, 10}, {11, 12}}), t); // (3, 2)
    EXPECT_TRUE(tensorIs(matmul(a, b), t, {2, 2}, {58, 64, 139, 154}));
    EXPECT_TRUE(tensorIs(matmul(b, a), t, {3, 3},
                         {39, 54, 69, 49, 68, 87, 59, 82, 105}));
  }
  EXPECT_TRUE(tensorIs(matmul(constant({{2.f}}), constant({{2.f}})),
                       DType::Float32, {1, 1}, {4}));
}

TEST(Matmul, BatchedAndEmpty) {
  // Batch of two 2x2 matrices times the same two: [[1,2],[3,4]]^2 and I^2.
  Tensor a = constant({{{1.0, 2.0}, {3.0, 4.0}}, {{1.0, 0.0}, {0.0, 1.0}}});
  EXPECT_TRUE(tensorIs(matmul(a, a), DType::Float64, {2, 2, 2},
                       {7, 10, 15, 22, 1, 0, 0, 1}));
  // k == 0: a sum over nothing is zero.
  EXPECT_TRUE(tensorIs(matmul(zeros({2, 0}), zeros({0, 3})), DType::Float32,
                       {2, 3}, {0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(tensorIs(matmul(zeros({0, 2}), zeros({2, 3})), DType::Float32,
                       {0, 3}, {}));
}

// --- Reductions --------------------------------------------------------------

TEST(Reductions, AllKindsEveryNumericDType) {
  for (DType t : numericDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor x = cast(constant({{1, 2, 3}, {4, 5, 6}}), t);
    EXPECT_TRUE(tensorIs(reduce_sum(x), t, {}, {21}));
    EXPECT_TRUE(tensorIs(reduce_sum(x, {0}), t, {3}, {5, 7, 9}));
    EXPECT_TRUE(tensorIs(reduce_sum(x, {1}), t, {2}, {6, 15}));
    EXPECT_TRUE(tensorIs(reduce_sum(x, {-1}), t, {2}, {6, 15}));
    EXPECT_TRUE(tensorIs(reduce_sum(x, 1), t, {2}, {6, 15}));
    EXPECT_TRUE(tensorIs(reduce_sum(x, {1}, true), t, {2, 1}, {6, 15}));
    EXPECT_TRUE(tensorIs(reduce_sum(x, {}, true), t, {1, 1}, {21}));
    EXPECT_TRUE(tensorIs(reduce_sum(x, {1, 0}), t, {}, {21}));
    EXPECT_TRUE(tensorIs(reduce_max(x, {0}), t, {3}, {4, 5, 6}));
    EXPECT_TRUE(tensorIs(reduce_max(x), t, {}, {6}));
    EXPECT_TRUE(tensorIs(reduce_min(x, {-1}, true), t, {2, 1}, {1, 4}));
    EXPECT_TRUE(tensorIs(reduce_min(x), t, {}, {1}));
    EXPECT_TRUE(tensorIs(reduce_prod(x, {1}), t, {2}, {6, 120}));
    EXPECT_TRUE(tensorIs(reduce_prod(x), t, {}, {720}));
  }
  for (DType t : floatDTypes()) {
    Tensor x = cast(constant({{1, 2, 3}, {4, 5, 6}}), t);
    EXPECT_TRUE(tensorIs(reduce_mean(x), t, {}, {3.5}));
    EXPECT_TRUE(tensorIs(reduce_mean(x, {0}), t, {3}, {2.5, 3.5, 4.5}));
    EXPECT_TRUE(tensorIs(reduce_mean(x, {-1}, true), t, {2, 1}, {2, 5}));
  }
}

TEST(Reductions, IntegerMeanTruncatesTowardZero) {
  for (DType t : {DType::Int32, DType::Int64}) {
    EXPECT_TRUE(tensorIs(reduce_mean(cast(constant({1, 2}), t)), t, {}, {1}));
    EXPECT_TRUE(
        tensorIs(reduce_mean(cast(constant({-1, -2}), t)), t, {}, {-1}));
    EXPECT_TRUE(tensorIs(reduce_mean(cast(constant({{1, 2}, {3, 6}}), t), {1}),
                         t, {2}, {1, 4}));
  }
}

TEST(Reductions, RankThreeEmptyAndRankZero) {
  Tensor x = reshape(range(0, 24, 1, DType::Float32), {2, 3, 4});
  // x[i][j][k] = 12i + 4j + k. Summed over i in {0, 1} and k in {0..3}:
  // 4 * 12 + 8 * 4j + 2 * (0 + 1 + 2 + 3) = 60 + 32j.
  EXPECT_TRUE(
      tensorIs(reduce_sum(x, {0, -1}), DType::Float32, {3}, {60, 92, 124}));
  EXPECT_TRUE(tensorIs(reduce_sum(x, {0, 2}, true), DType::Float32, {1, 3, 1},
                       {60, 92, 124}));
  EXPECT_TRUE(tensorIs(reduce_sum(zeros({0})), DType::Float32, {}, {0}));
  EXPECT_TRUE(tensorIs(reduce_prod(zeros({0})), DType::Float32, {}, {1}));
  EXPECT_TRUE(
      tensorIs(reduce_sum(zeros({2, 0}), {1}), DType::Float32, {2}, {0, 0}));
  EXPECT_TRUE(tensorIs(reduce_sum(constant(4)), DType::Int32, {}, {4}));
  EXPECT_TRUE(tensorIs(reduce_max(constant(4.0)), DType::Float64, {}, {4}));
}

TEST(Reductions, Argmax) {
  Tensor x = constant({{1, 9, 9}, {7, 2, 8}});
  EXPECT_TRUE(tensorIs(argmax(x, 0), DType::Int64, {3}, {1, 0, 0}));
  EXPECT_TRUE(tensorIs(argmax(x, 1), DType::Int64, {2}, {1, 2})); // first max
  EXPECT_TRUE(tensorIs(argmax(x, -1), DType::Int64, {2}, {1, 2}));
  for (DType t : numericDTypes())
    EXPECT_TRUE(tensorIs(argmax(cast(constant({3, -1, 5, 5}), t), 0),
                         DType::Int64, {}, {2}));
}

// --- NN ----------------------------------------------------------------------

TEST(NN, SoftmaxAndLogSoftmax) {
  // softmax([1, 2, 3]) = e^(x - 3) / sum: known to 8 digits.
  const std::vector<double> sm{0.09003057317, 0.24472847105, 0.66524095578};
  const std::vector<double> lsm{-2.40760596444, -1.40760596444, -0.40760596444};
  for (DType t : floatDTypes()) {
    SCOPED_TRACE(std::string(to_string(t)));
    Tensor x = cast(constant({1, 2, 3}), t);
    EXPECT_TRUE(tensorIs(softmax(x), t, {3}, sm, 1e-6));
    EXPECT_TRUE(tensorIs(log_softmax(x), t, {3}, lsm, 1e-6));
    // Stable for large logits.
    EXPECT_TRUE(tensorIs(softmax(x + 1000), t, {3}, sm, 1e-6));
    Tensor m = cast(constant({{1, 1}, {2, 3}}), t);
    // Along axis 0: columns [1, 2] and [1, 3].
    EXPECT_TRUE(tensorIs(
        softmax(m, 0), t, {2, 2},
        {0.26894142137, 0.11920292202, 0.73105857863, 0.88079707798}, 1e-6));
    EXPECT_TRUE(tensorIs(softmax(m, -1), t, {2, 2},
                         {0.5, 0.5, 0.26894142137, 0.73105857863}, 1e-6));
    EXPECT_TRUE(tensorIs(
        log_softmax(m, 1), t, {2, 2},
        {-0.69314718056, -0.69314718056, -1.31326168752, -0.31326168752},
        1e-6));
  }
}

TEST(NN, SoftmaxCrossEntropyIsPerExample) {
  for (DType t : floatDTypes()) {
    Tensor logits = cast(constant({{1, 2, 3}, {0, 0, 0}}), t);
    Tensor labels = cast(constant({{0.0, 1.0, 0.0}, {0.5, 0.5, 0.0}}), t);
    // Row 0: -log_softmax(1..3)[1]; row 1: uniform logits give log 3.
    EXPECT_TRUE(tensorIs(softmax_cross_entropy_with_logits(labels, logits), t,
                         {2}, {1.40760596444, 1.09861228867}, 1e-6));
  }
}

TEST(NN, OneHot) {
  EXPECT_TRUE(tensorIs(one_hot(constant({0, 2, -1, 3}), 3), DType::Float32,
                       {4, 3}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(tensorIs(one_hot(constant({int64_t{1}}), 2, DType::Int32),
                       DType::Int32, {1, 2}, {0, 1}));
  EXPECT_TRUE(tensorIs(one_hot(constant({{1}, {0}}), 2, DType::Float64),
                       DType::Float64, {2, 1, 2}, {0, 1, 1, 0}));
  EXPECT_TRUE(tensorIs(one_hot(constant(1), 3, DType::Bool), DType::Bool, {3},
                       {0, 1, 0}));
}

} // namespace
