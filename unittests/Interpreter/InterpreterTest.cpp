//===- InterpreterTest.cpp - The reference interpreter --------------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// tfc::jit::interpret and interpreter::Interpreter on programs written as
// strings: values, control flow, calls, variables, print, and every kind of
// error (with its location).
//
//===----------------------------------------------------------------------===//

#include "tfc/Interpreter/Interpreter.h"
#include "tfc/JIT/CompiledModule.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Print.h"
#include "tfc/runtime/PrintSink.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace tfc;
using tfc::interpreter::Interpreter;
using tfc::interpreter::RuntimeValue;
using tfc::interpreter::VariableRef;
using tfc::interpreter::VariableSlot;

namespace {

template <class T>
Tensor make(std::vector<T> values, std::vector<int64_t> shape) {
  Tensor t = Tensor::empty(dtype_of<T>, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size());
  for (size_t i = 0; i < values.size(); ++i)
    t.data<T>()[i] = values[i];
  return t;
}
template <class T> Tensor scalar(T v) { return make<T>({v}, {}); }

/// The message of the tfc::Error of type E that `f` throws ("" if none).
template <class E, class F> std::string errorOf(F &&f) {
  try {
    f();
  } catch (const E &e) {
    return e.what();
  } catch (const std::exception &e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "";
}

/// Redirects tfc.print output into `lines` while alive.
struct PrintCapture {
  PrintCapture() {
    set_runtime_print_sink(
        [this](std::string_view line) { lines.emplace_back(line); });
  }
  ~PrintCapture() { set_runtime_print_sink({}); }
  std::vector<std::string> lines;
};

TEST(InterpreterTest, AddsTensors) {
  const char *src = R"mlir(
    func.func @f(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
      %0 = tfc.add %a, %b : tensor<2xf32>
      return %0 : tensor<2xf32>
    })mlir";
  auto out = jit::interpret(
      src, "f", {make<float>({1, 2}, {2}), make<float>({10, 20}, {2})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{11, 22}));
}

TEST(InterpreterTest, ConstantsAndAttributes) {
  const char *src = R"mlir(
    func.func @f() -> (tensor<2x3xi32>, tensor<3xi64>, tensor<2xi32>, tensor<3x2xi32>, tensor<2x3xf64>) {
      %s = tfc.constant dense<7> : tensor<2x3xi32>
      %c = tfc.constant dense<[[1, 5, 3], [4, 2, 6]]> : tensor<2x3xi32>
      %am = tfc.argmax %c, axis = 0 : tensor<2x3xi32> -> tensor<3xi64>
      %r = tfc.reduce_sum %c, axes = [1], keepdims = false : tensor<2x3xi32> -> tensor<2xi32>
      %t = tfc.transpose %c, perm = [1, 0] : tensor<2x3xi32> -> tensor<3x2xi32>
      %f = tfc.cast %c : tensor<2x3xi32> to tensor<2x3xf64>
      return %s, %am, %r, %t, %f : tensor<2x3xi32>, tensor<3xi64>, tensor<2xi32>, tensor<3x2xi32>, tensor<2x3xf64>
    })mlir";
  auto out = jit::interpret(src, "f", {});
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].to_vector<int32_t>(), std::vector<int32_t>(6, 7));
  EXPECT_EQ(out[1].to_vector<int64_t>(), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(out[2].to_vector<int32_t>(), (std::vector<int32_t>{9, 12}));
  EXPECT_EQ(out[3].shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(out[3].to_vector<int32_t>(),
            (std::vector<int32_t>{1, 4, 5, 2, 3, 6}));
  EXPECT_EQ(out[4].dtype(), DType::Float64);
  EXPECT_EQ(out[4].to_vector<double>(),
            (std::vector<double>{1, 5, 3, 4, 2, 6}));
}

TEST(InterpreterTest, FloorDivAndModFollowPython) {
  const char *src = R"mlir(
    func.func @f(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
      %q = tfc.floor_div %a, %b : tensor<4xi32>
      %r = tfc.mod %a, %b : tensor<4xi32>
      return %q, %r : tensor<4xi32>, tensor<4xi32>
    })mlir";
  auto out = jit::interpret(
      src, "f",
      {make<int32_t>({7, -7, 7, -7}, {4}), make<int32_t>({2, 2, -2, -2}, {4})});
  EXPECT_EQ(out[0].to_vector<int32_t>(), (std::vector<int32_t>{3, -4, -4, 3}));
  EXPECT_EQ(out[1].to_vector<int32_t>(), (std::vector<int32_t>{1, 1, -1, -1}));
}

TEST(InterpreterTest, EmptyAxesAreTheIdentity) {
  // The dialect's empty axes mean "no dims"; the runtime's would mean "all".
  const char *src = R"mlir(
    func.func @f(%x: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>, tensor<2xf32>) {
      %r = tfc.reduce_sum %x, axes = [], keepdims = false : tensor<1x2xf32> -> tensor<1x2xf32>
      %s = tfc.squeeze %x, axes = [] : tensor<1x2xf32> -> tensor<1x2xf32>
      %q = tfc.squeeze %x, axes = [0] : tensor<1x2xf32> -> tensor<2xf32>
      return %r, %s, %q : tensor<1x2xf32>, tensor<1x2xf32>, tensor<2xf32>
    })mlir";
  auto out = jit::interpret(src, "f", {make<float>({3, 4}, {1, 2})});
  EXPECT_EQ(out[0].shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{3, 4}));
  EXPECT_EQ(out[1].shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(out[2].shape(), (std::vector<int64_t>{2}));
}

TEST(InterpreterTest, IfTakesTheRightBranch) {
  const char *src = R"mlir(
    func.func @f(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
      %r = tfc.if %p -> (tensor<f32>) {
        %s = tfc.add %a, %b : tensor<f32>
        tfc.yield %s : tensor<f32>
      } else {
        %d = tfc.sub %a, %b : tensor<f32>
        tfc.yield %d : tensor<f32>
      }
      return %r : tensor<f32>
    })mlir";
  EXPECT_EQ(
      jit::interpret(src, "f", {scalar(true), scalar(5.f), scalar(2.f)})[0]
          .item<float>(),
      7.f);
  EXPECT_EQ(
      jit::interpret(src, "f", {scalar(false), scalar(5.f), scalar(2.f)})[0]
          .item<float>(),
      3.f);
}

TEST(InterpreterTest, WhileRunsCollatz) {
  // Steps of the Collatz sequence from n to 1 (27 takes 111).
  const char *src = R"mlir(
    func.func @collatz(%n: tensor<i64>) -> tensor<i64> {
      %zero = tfc.constant dense<0> : tensor<i64>
      %one = tfc.constant dense<1> : tensor<i64>
      %two = tfc.constant dense<2> : tensor<i64>
      %three = tfc.constant dense<3> : tensor<i64>
      %r:2 = tfc.while (%x = %n, %steps = %zero) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>) {
        %c = tfc.cmp ne, %x, %one : tensor<i64>
        tfc.condition(%c) %x, %steps : tensor<i64>, tensor<i64>
      } do {
      ^bb0(%y: tensor<i64>, %s: tensor<i64>):
        %m = tfc.mod %y, %two : tensor<i64>
        %even = tfc.cmp eq, %m, %zero : tensor<i64>
        %next = tfc.if %even -> (tensor<i64>) {
          %h = tfc.floor_div %y, %two : tensor<i64>
          tfc.yield %h : tensor<i64>
        } else {
          %t = tfc.mul %y, %three : tensor<i64>
          %u = tfc.add %t, %one : tensor<i64>
          tfc.yield %u : tensor<i64>
        }
        %s1 = tfc.add %s, %one : tensor<i64>
        tfc.yield %next, %s1 : tensor<i64>, tensor<i64>
      }
      return %r#1 : tensor<i64>
    })mlir";
  EXPECT_EQ(
      jit::interpret(src, "collatz", {scalar<int64_t>(27)})[0].item<int64_t>(),
      111);
  EXPECT_EQ(
      jit::interpret(src, "collatz", {scalar<int64_t>(1)})[0].item<int64_t>(),
      0);
}

TEST(InterpreterTest, LongLoopsRun) {
  // No iteration cap: 200000 iterations complete.
  const char *src = R"mlir(
    func.func @f(%n: tensor<i32>) -> tensor<i32> {
      %zero = tfc.constant dense<0> : tensor<i32>
      %one = tfc.constant dense<1> : tensor<i32>
      %r = tfc.while (%i = %zero) : (tensor<i32>) -> tensor<i32> {
        %c = tfc.cmp lt, %i, %n : tensor<i32>
        tfc.condition(%c) %i : tensor<i32>
      } do {
      ^bb0(%j: tensor<i32>):
        %k = tfc.add %j, %one : tensor<i32>
        tfc.yield %k : tensor<i32>
      }
      return %r : tensor<i32>
    })mlir";
  EXPECT_EQ(
      jit::interpret(src, "f", {scalar<int32_t>(200000)})[0].item<int32_t>(),
      200000);
}

TEST(InterpreterTest, CallsAndRecursion) {
  const char *src = R"mlir(
    func.func @fact(%n: tensor<i64>) -> tensor<i64> {
      %one = tfc.constant dense<1> : tensor<i64>
      %base = tfc.cmp le, %n, %one : tensor<i64>
      %r = tfc.if %base -> (tensor<i64>) {
        tfc.yield %one : tensor<i64>
      } else {
        %m = tfc.sub %n, %one : tensor<i64>
        %f = func.call @fact(%m) : (tensor<i64>) -> tensor<i64>
        %p = tfc.mul %n, %f : tensor<i64>
        tfc.yield %p : tensor<i64>
      }
      return %r : tensor<i64>
    }
    func.func @forever(%n: tensor<i64>) -> tensor<i64> {
      %r = func.call @forever(%n) : (tensor<i64>) -> tensor<i64>
      return %r : tensor<i64>
    })mlir";
  EXPECT_EQ(
      jit::interpret(src, "fact", {scalar<int64_t>(10)})[0].item<int64_t>(),
      3628800);
  // Unbounded recursion is an error, not a stack overflow.
  std::string msg = errorOf<RuntimeError>(
      [&] { jit::interpret(src, "forever", {scalar<int64_t>(1)}); });
  EXPECT_NE(msg.find("calls nested deeper than"), std::string::npos) << msg;
}

TEST(InterpreterTest, VariablesPersistAcrossRuns) {
  const char *src = R"mlir(
    func.func @step(%v: !tfc.var<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
      %old = tfc.var_read %v : !tfc.var<tensor<2xf32>>
      tfc.var_assign_add %v, %x : !tfc.var<tensor<2xf32>>
      return %old : tensor<2xf32>
    }
    func.func @reset(%v: !tfc.var<tensor<2xf32>>, %x: tensor<2xf32>) {
      tfc.var_assign %v, %x : !tfc.var<tensor<2xf32>>
      tfc.var_assign_sub %v, %x : !tfc.var<tensor<2xf32>>
      return
    })mlir";
  auto module = interpreter::parseModule(src, "<test>");
  Interpreter interp(*module);
  VariableRef v =
      std::make_shared<VariableSlot>(VariableSlot{make<float>({1, 2}, {2})});
  Tensor x = make<float>({10, 100}, {2});
  auto first = interp.run("step", {v, x});
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(std::get<Tensor>(first[0]).to_vector<float>(),
            (std::vector<float>{1, 2}));
  interp.run("step", {v, x});
  EXPECT_EQ(v->value.to_vector<float>(), (std::vector<float>{21, 202}));
  interp.run("reset", {v, x});
  EXPECT_EQ(v->value.to_vector<float>(), (std::vector<float>{0, 0}));

  // The tensors-only form reports the final value of each variable.
  auto result =
      interp.runWithInitialValues("step", {make<float>({1, 1}, {2}), x});
  ASSERT_EQ(result.variables.size(), 1u);
  EXPECT_EQ(result.variables[0].first, 0u);
  EXPECT_EQ(result.variables[0].second.to_vector<float>(),
            (std::vector<float>{11, 101}));
  EXPECT_EQ(result.results[0].to_vector<float>(), (std::vector<float>{1, 1}));
}

TEST(InterpreterTest, FailedCallLeavesVariablesAsTheyWere) {
  const char *src = R"mlir(
    func.func @f(%v: !tfc.var<tensor<i32>>, %ok: tensor<i1>) {
      %one = tfc.constant dense<1> : tensor<i32>
      tfc.var_assign_add %v, %one : !tfc.var<tensor<i32>>
      tfc.assert %ok, "not ok" : tensor<i1>
      return
    })mlir";
  auto module = interpreter::parseModule(src, "<test>");
  Interpreter interp(*module);
  VariableRef v =
      std::make_shared<VariableSlot>(VariableSlot{scalar<int32_t>(5)});
  interp.run("f", {v, scalar(true)});
  EXPECT_EQ(v->value.item<int32_t>(), 6);
  EXPECT_THROW(interp.run("f", {v, scalar(false)}), RuntimeError);
  EXPECT_EQ(v->value.item<int32_t>(), 6);
}

TEST(InterpreterTest, AssertFailureIsARuntimeErrorWithLocation) {
  const char *src = "func.func @f(%x: tensor<f32>) {\n"
                    "  %zero = tfc.constant dense<0.0> : tensor<f32>\n"
                    "  %ok = tfc.cmp gt, %x, %zero : tensor<f32>\n"
                    "  tfc.assert %ok, \"x must be positive\" : tensor<i1>\n"
                    "  return\n"
                    "}\n";
  EXPECT_NO_THROW(jit::interpret(src, "f", {scalar(1.f)}));
  std::string msg =
      errorOf<RuntimeError>([&] { jit::interpret(src, "f", {scalar(-1.f)}); });
  EXPECT_EQ(msg, "x must be positive (at <source>:4)");
}

TEST(InterpreterTest, ParseFailureIsACompileErrorWithLocation) {
  const char *src = "func.func @f(%x: tensor<f32>) -> tensor<f32> {\n"
                    "  %0 = tfc.frobnicate %x : tensor<f32>\n"
                    "  return %0 : tensor<f32>\n"
                    "}\n";
  std::string msg =
      errorOf<CompileError>([&] { jit::interpret(src, "f", {scalar(1.f)}); });
  EXPECT_NE(msg.find("<source>\":2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tfc.frobnicate"), std::string::npos) << msg;
}

TEST(InterpreterTest, VerifierFailureIsACompileError) {
  const char *src = "func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {\n"
                    "  return %x : tensor<2xf32>\n"
                    "}\n";
  std::string msg = errorOf<CompileError>([&] {
    jit::interpret(src, "f", {make<float>({1, 2}, {2})});
  });
  EXPECT_NE(msg.find("<source>\":2:"), std::string::npos) << msg;
}

TEST(InterpreterTest, BadArgumentsAreInvalidArgumentErrors) {
  const char *src = R"mlir(
    func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
      return %a : tensor<2xf32>
    })mlir";
  std::string count =
      errorOf<InvalidArgumentError>([&] { jit::interpret(src, "f", {}); });
  EXPECT_NE(count.find("expected 1 arguments, got 0"), std::string::npos)
      << count;
  std::string dtype = errorOf<InvalidArgumentError>([&] {
    jit::interpret(src, "f", {make<int32_t>({1, 2}, {2})});
  });
  EXPECT_NE(dtype.find("expected float32 (2,), got int32 (2,)"),
            std::string::npos)
      << dtype;
  std::string shape = errorOf<InvalidArgumentError>([&] {
    jit::interpret(src, "f", {make<float>({1, 2, 3}, {3})});
  });
  EXPECT_NE(shape.find("got float32 (3,)"), std::string::npos) << shape;
  std::string missing =
      errorOf<InvalidArgumentError>([&] { jit::interpret(src, "g", {}); });
  EXPECT_NE(missing.find("no function @g"), std::string::npos) << missing;
}

TEST(InterpreterTest, KernelErrorsCarryTheOpLocation) {
  const char *src = "func.func @f(%a: tensor<2xi32>, %b: tensor<2xi32>) -> "
                    "tensor<2xi32> {\n"
                    "  %0 = tfc.floor_div %a, %b : tensor<2xi32>\n"
                    "  return %0 : tensor<2xi32>\n"
                    "}\n";
  std::string msg = errorOf<InvalidArgumentError>([&] {
    jit::interpret(src, "f",
                   {make<int32_t>({1, 2}, {2}), make<int32_t>({1, 0}, {2})});
  });
  EXPECT_NE(msg.find("(at <source>:2)"), std::string::npos) << msg;
}

TEST(InterpreterTest, DynamicShapes) {
  const char *src = R"mlir(
    func.func @f(%a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?xf32>, tensor<2x?xf32>, tensor<?xf32>) {
      %s = tfc.add %a, %b : tensor<?xf32>
      %bc = tfc.broadcast_to %a : tensor<?xf32> to tensor<2x?xf32>
      %r = tfc.reshape %bc : tensor<2x?xf32> -> tensor<?xf32>
      return %s, %bc, %r : tensor<?xf32>, tensor<2x?xf32>, tensor<?xf32>
    })mlir";
  auto out = jit::interpret(
      src, "f", {make<float>({1, 2, 3}, {3}), make<float>({1, 1, 1}, {3})});
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{2, 3, 4}));
  EXPECT_EQ(out[1].shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(out[2].shape(), (std::vector<int64_t>{6}));
  // Elementwise ops never broadcast, even when the types allow either size.
  std::string msg = errorOf<InvalidArgumentError>([&] {
    jit::interpret(src, "f",
                   {make<float>({1, 2, 3}, {3}), make<float>({1}, {1})});
  });
  EXPECT_NE(msg.find("do not broadcast"), std::string::npos) << msg;
}

TEST(InterpreterTest, UnsupportedOpsAreNamed) {
  const char *src = "func.func @f() -> i32 {\n"
                    "  %0 = arith.constant 1 : i32\n"
                    "  return %0 : i32\n"
                    "}\n";
  std::string msg =
      errorOf<CompileError>([&] { jit::interpret(src, "f", {}); });
  EXPECT_NE(msg.find("'arith.constant'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("<source>:2"), std::string::npos) << msg;
}

TEST(InterpreterTest, PrintWritesOneLineToTheSink) {
  const char *src = R"mlir(
    func.func @f(%a: tensor<2xf32>, %n: tensor<i32>) {
      tfc.print "values:" %a, %n : tensor<2xf32>, tensor<i32>
      tfc.print "just a label"
      return
    })mlir";
  PrintCapture capture;
  jit::interpret(src, "f", {make<float>({1.5f, 2}, {2}), scalar<int32_t>(3)});
  ASSERT_EQ(capture.lines.size(), 2u);
  EXPECT_EQ(capture.lines[0], "values: [1.5 2. ] 3");
  EXPECT_EQ(capture.lines[1], "just a label");
}

TEST(InterpreterTest, VariableArgumentsAreChecked) {
  const char *src = R"mlir(
    func.func @f(%v: !tfc.var<tensor<2xf32>>) -> tensor<2xf32> {
      %x = tfc.var_read %v : !tfc.var<tensor<2xf32>>
      return %x : tensor<2xf32>
    })mlir";
  auto module = interpreter::parseModule(src, "<test>");
  Interpreter interp(*module);
  // A tensor where a variable is expected.
  std::string tensorForVar = errorOf<InvalidArgumentError>([&] {
    interp.run("f", {make<float>({1, 2}, {2})});
  });
  EXPECT_NE(tensorForVar.find("needs a variable"), std::string::npos)
      << tensorForVar;
  // A variable whose value does not match the variable type.
  VariableRef wrong =
      std::make_shared<VariableSlot>(VariableSlot{make<int32_t>({1, 2}, {2})});
  std::string wrongValue =
      errorOf<InvalidArgumentError>([&] { interp.run("f", {wrong}); });
  EXPECT_NE(wrongValue.find("must be float32 (2,), got int32 (2,)"),
            std::string::npos)
      << wrongValue;
  // The tensors-only form binds the initial value to a fresh slot.
  auto result = interp.runWithInitialValues("f", {make<float>({3, 4}, {2})});
  EXPECT_EQ(result.results[0].to_vector<float>(), (std::vector<float>{3, 4}));
}

TEST(InterpreterTest, IfWithoutElse) {
  const char *src = R"mlir(
    func.func @f(%p: tensor<i1>) {
      tfc.if %p {
        tfc.print "then"
      }
      return
    })mlir";
  PrintCapture capture;
  jit::interpret(src, "f", {scalar(false)});
  EXPECT_TRUE(capture.lines.empty());
  jit::interpret(src, "f", {scalar(true)});
  EXPECT_EQ(capture.lines, (std::vector<std::string>{"then"}));
}

TEST(InterpreterTest, UnresolvableDynamicShapesAreErrors) {
  // A dynamic broadcast dim with no operand dim to take its size from: the
  // verifier rejects it (the JIT could not lower it either).
  const char *broadcast = R"mlir(
    func.func @f(%x: tensor<3xf32>) -> tensor<?x3xf32> {
      %b = tfc.broadcast_to %x : tensor<3xf32> to tensor<?x3xf32>
      return %b : tensor<?x3xf32>
    })mlir";
  std::string msg = errorOf<CompileError>([&] {
    jit::interpret(broadcast, "f", {make<float>({1, 2, 3}, {3})});
  });
  EXPECT_NE(msg.find("has no operand dim to take its size from"),
            std::string::npos)
      << msg;
  // A reshape to two dynamic dims has no unique meaning.
  const char *reshape = R"mlir(
    func.func @f(%x: tensor<4xf32>) -> tensor<?x?xf32> {
      %r = tfc.reshape %x : tensor<4xf32> -> tensor<?x?xf32>
      return %r : tensor<?x?xf32>
    })mlir";
  std::string reshapeMsg = errorOf<CompileError>([&] {
    jit::interpret(reshape, "f", {make<float>({1, 2, 3, 4}, {4})});
  });
  EXPECT_NE(reshapeMsg.find("more than one dynamic dim"), std::string::npos)
      << reshapeMsg;
}

TEST(InterpreterTest, ConstantsAreReusedAcrossLoopIterations) {
  // A constant in a loop body yields equal values every iteration, and a
  // kernel never mutates it (the result is a fresh tensor).
  const char *src = R"mlir(
    func.func @f(%n: tensor<i32>) -> tensor<3xf32> {
      %zero = tfc.constant dense<0> : tensor<i32>
      %one = tfc.constant dense<1> : tensor<i32>
      %init = tfc.constant dense<0.0> : tensor<3xf32>
      %r:2 = tfc.while (%i = %zero, %acc = %init) : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) {
        %c = tfc.cmp lt, %i, %n : tensor<i32>
        tfc.condition(%c) %i, %acc : tensor<i32>, tensor<3xf32>
      } do {
      ^bb0(%j: tensor<i32>, %a: tensor<3xf32>):
        %step = tfc.constant dense<[1.0, 2.0, 0.5]> : tensor<3xf32>
        %a1 = tfc.add %a, %step : tensor<3xf32>
        %j1 = tfc.add %j, %one : tensor<i32>
        tfc.yield %j1, %a1 : tensor<i32>, tensor<3xf32>
      }
      return %r#1 : tensor<3xf32>
    })mlir";
  auto out = jit::interpret(src, "f", {scalar<int32_t>(4)});
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{4, 8, 2}));
}

TEST(InterpreterTest, PublicFunctionsInOrder) {
  const char *src = R"mlir(
    func.func @b() { return }
    func.func private @hidden() { return }
    func.func @a() { return }
  )mlir";
  auto module = interpreter::parseModule(src, "<test>");
  Interpreter interp(*module);
  EXPECT_EQ(interp.publicFunctions(), (std::vector<std::string>{"b", "a"}));
}

} // namespace
