//===- CompiledCallTapeTest.cpp - A tape around a compiled call ----------===//
//
// A tape outside a tfc::function cannot see the ops inside a compiled call
// yet. A gradient that flows through such a call must throw and say why;
// it must never be a silent zero. Gradients that do not reach the call, and
// tapes inside the function, are unaffected.
//
//===----------------------------------------------------------------------===//
#include "GradTestUtil.h"

using namespace tfc;

namespace {

template <class F> void expectWhy(F f) {
  try {
    f();
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("compiled function 'cube'"), std::string::npos) << what;
    EXPECT_NE(what.find("Put the tape inside the function"), std::string::npos)
        << what;
  }
}

TEST(CompiledCallTape, GradientThroughTheCallThrows) {
  auto cube =
      function([](const Tensor &x) { return x * x * x; }, {.name = "cube"});
  Tensor x = constant(2.0);
  GradientTape tape;
  tape.watch(x);
  Tensor y = cube(x);
  EXPECT_DOUBLE_EQ(y.item<double>(), 8.0); // the value is still right
  expectWhy([&] { tape.gradient(y, x); });
}

TEST(CompiledCallTape, VariableReadInsideTheCallThrows) {
  Variable w(constant(3.f), "w");
  auto cube = function([&](const Tensor &x) { return x * w.value(); },
                       {.name = "cube"});
  Tensor x = constant(2.f);
  cube(x); // traced outside any tape
  GradientTape tape;
  Tensor y = cube(x);
  expectWhy([&] { tape.gradient(y, w); });
}

TEST(CompiledCallTape, OtherPathsStillDifferentiate) {
  auto cube =
      function([](const Tensor &x) { return x * x * x; }, {.name = "cube"});
  Tensor x = constant(2.0), z = constant(5.0);
  GradientTape tape(/*persistent=*/true);
  tape.watch(x);
  tape.watch(z);
  Tensor y = cube(x) + z * z;
  // d/dz does not go through the call.
  EXPECT_DOUBLE_EQ(tape.gradient(y, z).item<double>(), 10.0);
  // A target that does not use the call at all.
  EXPECT_DOUBLE_EQ(tape.gradient(x * z, x).item<double>(), 5.0);
}

TEST(CompiledCallTape, IntegerResultsAreNotWrapped) {
  auto count = function([](const Tensor &x) { return cast(x, DType::Int32); },
                        {.name = "count"});
  Tensor x = constant(2.5f);
  GradientTape tape;
  tape.watch(x);
  EXPECT_EQ(count(x).item<int32_t>(), 2);
}

TEST(CompiledCallTape, TapeInsideTheFunctionWorks) {
  auto dcube = function(
      [](const Tensor &x) {
        GradientTape tape;
        tape.watch(x);
        Tensor y = x * x * x;
        return tape.gradient(y, x);
      },
      {.name = "dcube"});
  EXPECT_DOUBLE_EQ(dcube(constant(2.0)).item<double>(), 12.0);
}

} // namespace
