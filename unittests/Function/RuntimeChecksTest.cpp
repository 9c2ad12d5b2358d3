//===- RuntimeChecksTest.cpp - compiled code checks what eager checks -----===//
//
// Issue 13: a tfc::function fails where the eager ops fail, with a tfc
// error naming the op and the user's line, instead of returning a wrong
// answer or crashing.
//
//===----------------------------------------------------------------------===//

#include <tfc/runtime/Allocator.h>
#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <string>

using namespace tfc;

namespace {

/// The message of the `E` that `fn` throws ("" and a test failure if none).
template <class E, class Fn> std::string errorOf(Fn &&fn) {
  try {
    fn();
  } catch (const E &e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an exception";
  return "";
}

bool contains(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

TEST(RuntimeChecks, DynamicElementwiseShapesMustAgree) {
  FunctionOptions options;
  options.reduce_retracing = true;
  // add() rather than `+`: an operator cannot take the caller's
  // source_location, and the message names the user's line.
  auto f = function([](Tensor a, Tensor b) { return add(a, b); }, options);
  f(ones({3}), ones({3}));
  f(ones({4}), ones({4})); // now traced with dynamic dims
  ASSERT_EQ(f.tracing_count(), 2);
  ASSERT_TRUE(contains(f.ir("tfc"), "tensor<?xf32>")) << f.ir("tfc");
  EXPECT_THROW(ones({2}) + full({5}, 7), InvalidArgumentError); // eager
  std::string msg =
      errorOf<InvalidArgumentError>([&] { f(ones({2}), full({5}, 7)); });
  EXPECT_TRUE(contains(msg, "operand shapes (2,) and (5,) differ")) << msg;
  EXPECT_TRUE(contains(msg, "RuntimeChecksTest.cpp:")) << msg;
  // Reading 50M elements past a 2-element buffer used to crash.
  EXPECT_THROW(f(zeros({50000000}), ones({2})), InvalidArgumentError);
  // The function still works, without retracing.
  Tensor r = f(ones({5}), full({5}, 7));
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{5}));
  EXPECT_EQ(r.to_vector<float>(), std::vector<float>(5, 8.f));
  EXPECT_EQ(f.tracing_count(), 2);
}

TEST(RuntimeChecks, DynamicMatmulInnerDimsMustAgree) {
  FunctionOptions options;
  options.reduce_retracing = true;
  auto f = function([](Tensor a, Tensor b) { return matmul(a, b); }, options);
  f(ones({2, 3}), ones({3, 4}));
  f(ones({3, 5}), ones({5, 2}));
  std::string msg = errorOf<InvalidArgumentError>([&] {
    f(ones({2, 3}), ones({4, 2}));
  });
  EXPECT_TRUE(contains(msg, "matmul")) << msg;
  EXPECT_TRUE(contains(msg, "(2, 3) and (4, 2)")) << msg;
}

TEST(RuntimeChecks, FailedAllocationIsAnError) {
  auto big =
      function([](Tensor x) { return broadcast_to(x, {100000000000LL}); });
  std::string msg = errorOf<RuntimeError>([&] { big(constant(1.f)); });
  // 400000000000 bytes and the compiled code's alignment padding.
  EXPECT_TRUE(contains(msg, "out of memory allocating 4000000000")) << msg;
  auto hot = function([](Tensor i) { return one_hot(i, 1000000000000LL); });
  std::string hotMsg = errorOf<RuntimeError>([&] { hot(constant({1})); });
  EXPECT_TRUE(contains(hotMsg, "out of memory allocating")) << hotMsg;
  // Nothing leaked or broke: the next call works.
  EXPECT_EQ(
      function([](Tensor x) { return x * 2.f; })(constant(3.f)).item<float>(),
      6.f);
}

TEST(RuntimeChecks, EmptyTensorsCompile) {
  auto cat = function([](Tensor x) { return concat({x, x}, 1); });
  EXPECT_EQ(cat(zeros({0, 3})).shape(), (std::vector<int64_t>{0, 6}));
  auto cut = function([](Tensor x) { return slice(x, {0, 1}, {0, 2}); });
  EXPECT_EQ(cut(zeros({0, 3})).shape(), (std::vector<int64_t>{0, 2}));

  // Reductions with no value fail as eagerly.
  EXPECT_THROW(argmax(zeros({2, 0}), 1), InvalidArgumentError);
  auto am = function([](Tensor x) { return argmax(x, 1); });
  std::string msg = errorOf<InvalidArgumentError>([&] { am(zeros({2, 0})); });
  EXPECT_TRUE(contains(msg, "argmax")) << msg;
  EXPECT_THROW(reduce_max(zeros({0})), InvalidArgumentError);
  auto rm = function([](Tensor x) { return reduce_max(x); });
  std::string rmMsg = errorOf<InvalidArgumentError>([&] { rm(zeros({0})); });
  EXPECT_TRUE(contains(rmMsg, "cannot reduce over zero elements")) << rmMsg;
  // Over an empty result there is nothing to fail.
  EXPECT_EQ(am(zeros({0, 3})).shape(), (std::vector<int64_t>{0}));
}

TEST(RuntimeChecks, IntegerDivisionByZeroAndNegativePowers) {
  Tensor a = constant({1, 8}), zero = constant({1, 0});
  EXPECT_THROW(floor_div(a, zero), InvalidArgumentError); // eager
  auto fd = function([](Tensor x, Tensor y) { return floor_div(x, y); });
  std::string msg = errorOf<RuntimeError>([&] { fd(a, zero); });
  EXPECT_TRUE(contains(msg, "floor_div")) << msg;
  EXPECT_TRUE(contains(msg, "division by zero")) << msg;
  EXPECT_TRUE(contains(msg, "RuntimeChecksTest.cpp:")) << msg;
  Tensor ok = fd(constant({7, -8}), constant({2, 3}));
  EXPECT_EQ(ok.to_vector<int32_t>(), (std::vector<int32_t>{3, -3}));

  auto md = function([](Tensor x, Tensor y) { return mod(x, y); });
  EXPECT_THROW(md(a, zero), RuntimeError);
  // A constant divisor is checked at compile time: nothing to fail.
  auto half = function([](Tensor x) { return floor_div(x, constant({2, 2})); });
  EXPECT_EQ(half(a).to_vector<int32_t>(), (std::vector<int32_t>{0, 4}));

  EXPECT_THROW(pow(constant(2), constant(-1)), InvalidArgumentError);
  auto pw = function([](Tensor x, Tensor y) { return pow(x, y); });
  std::string powMsg =
      errorOf<RuntimeError>([&] { pw(constant(2), constant(-1)); });
  EXPECT_TRUE(contains(powMsg, "negative integer powers")) << powMsg;
  EXPECT_EQ(pw(constant(2), constant(10)).item<int32_t>(), 1024);
}

TEST(RuntimeChecks, VariablesKeepTheirValueWhenACallFails) {
  Variable v(constant(0));
  auto f = function([&](Tensor x, Tensor y) {
    v.assign_add(constant(1));
    return floor_div(x, y);
  });
  f(constant({4}), constant({2}));
  EXPECT_EQ(v.value().item<int32_t>(), 1);
  EXPECT_THROW(f(constant({4}), constant({0})), RuntimeError);
  EXPECT_EQ(v.value().item<int32_t>(), 1); // the failed call committed nothing

  FunctionOptions options;
  options.reduce_retracing = true;
  Variable w(constant(0.f));
  auto g = function(
      [&](Tensor a, Tensor b) {
        w.assign_add(constant(1.f));
        return a + b;
      },
      options);
  g(ones({3}), ones({3}));
  g(ones({4}), ones({4}));
  EXPECT_EQ(w.value().item<float>(), 2.f);
  EXPECT_THROW(g(ones({2}), ones({5})), InvalidArgumentError);
  EXPECT_EQ(w.value().item<float>(), 2.f);
}

TEST(RuntimeChecks, AStoppedCallFreesWhatItAllocated) {
  // The exp result is allocated before the divisor check fails: the call
  // scope frees it (nothing is left in use after failed calls).
  auto f = function([](Tensor a, Tensor x, Tensor y) {
    Tensor e = exp(a) * 2.f;
    return std::pair<Tensor, Tensor>{e, floor_div(x, y)};
  });
  Tensor a = ones({1000}), x = constant({4, 8}), zero = constant({1, 0});
  f(a, x, constant({1, 2}));
  EXPECT_THROW(f(a, x, zero), RuntimeError); // warms the caches
  size_t inUse = allocator::stats().bytesInUse;
  for (int i = 0; i < 20; ++i)
    EXPECT_THROW(f(a, x, zero), RuntimeError);
  EXPECT_EQ(allocator::stats().bytesInUse, inUse);
}

} // namespace
