//===- CompiledModuleTest.cpp - The JIT embedding API ---------------------===//
#include "tfc/JIT/CompiledModule.h"
#include "tfc/runtime/Allocator.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/PrintSink.h"

#include <gtest/gtest.h>

using namespace tfc;
using tfc::jit::CompiledModule;

namespace {
Tensor vec(std::vector<float> v, std::vector<int64_t> shape) {
  Tensor t = Tensor::empty(DType::Float32, shape);
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

TEST(CompiledModule, BroadcastAddTanhReduce) {
  auto m = CompiledModule::from_source(R"mlir(
    func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
      %bb = tfc.broadcast_to %b : tensor<3xf32> to tensor<2x3xf32>
      %0 = tfc.add %a, %bb : tensor<2x3xf32>
      %1 = tfc.reduce_sum %0, axes = [1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
      return %0, %1 : tensor<2x3xf32>, tensor<2xf32>
    })mlir");
  EXPECT_EQ(m.functions(), std::vector<std::string>{"f"});
  auto out =
      m.call("f", {vec({1, 2, 3, 4, 5, 6}, {2, 3}), vec({10, 20, 30}, {3})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].to_vector<float>(),
            (std::vector<float>{11, 22, 33, 14, 25, 36}));
  EXPECT_EQ(out[1].shape(), (std::vector<int64_t>{2}));
  EXPECT_EQ(out[1].to_vector<float>(), (std::vector<float>{66, 75}));
  EXPECT_NE(m.ir("tfc").find("tfc.broadcast_to"), std::string::npos);
  EXPECT_NE(m.ir("optimized").find("linalg.generic"), std::string::npos);
  EXPECT_NE(m.ir("llvm").find("define"), std::string::npos);
}

TEST(CompiledModule, ReturningAnArgumentCopiesIt) {
  auto m = CompiledModule::from_source(R"mlir(
    func.func @id(%a: tensor<2xf32>) -> tensor<2xf32> {
      return %a : tensor<2xf32>
    })mlir");
  Tensor in = vec({1, 2}, {2});
  auto out = m.call("id", {in});
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{1, 2}));
  EXPECT_NE(out[0].raw_data(), in.raw_data());
}

TEST(CompiledModule, WhileCollatz) {
  auto m = CompiledModule::from_source(R"mlir(
    func.func @collatz(%n0: tensor<i32>) -> tensor<i32> {
      %zero = tfc.constant dense<0> : tensor<i32>
      %one = tfc.constant dense<1> : tensor<i32>
      %two = tfc.constant dense<2> : tensor<i32>
      %three = tfc.constant dense<3> : tensor<i32>
      %r:2 = tfc.while (%n = %n0, %s = %zero) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>) {
        %c = tfc.cmp ne, %n, %one : tensor<i32>
        tfc.condition(%c) %n, %s : tensor<i32>, tensor<i32>
      } do {
      ^bb0(%n: tensor<i32>, %s: tensor<i32>):
        %m = tfc.mod %n, %two : tensor<i32>
        %even = tfc.cmp eq, %m, %zero : tensor<i32>
        %next = tfc.if %even -> (tensor<i32>) {
          %h = tfc.floor_div %n, %two : tensor<i32>
          tfc.yield %h : tensor<i32>
        } else {
          %t = tfc.mul %n, %three : tensor<i32>
          %u = tfc.add %t, %one : tensor<i32>
          tfc.yield %u : tensor<i32>
        }
        %s1 = tfc.add %s, %one : tensor<i32>
        tfc.yield %next, %s1 : tensor<i32>, tensor<i32>
      }
      return %r#1 : tensor<i32>
    })mlir");
  Tensor n = Tensor::empty(DType::Int32, {});
  *n.data<int32_t>() = 27;
  EXPECT_EQ(m.call("collatz", {n})[0].item<int32_t>(), 111);
}

TEST(CompiledModule, PrintAndAssert) {
  auto m = CompiledModule::from_source(R"mlir(
    func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
      tfc.print "a:" %a : tensor<2xi32>
      %z = tfc.constant dense<0> : tensor<2xi32>
      %pos = tfc.cmp gt, %a, %z : tensor<2xi32>
      %all = tfc.reduce_min %a, axes = [0], keepdims = false : tensor<2xi32> -> tensor<i32>
      %z0 = tfc.constant dense<0> : tensor<i32>
      %ok = tfc.cmp gt, %all, %z0 : tensor<i32>
      tfc.assert %ok, "a must be positive" : tensor<i1>
      return %a : tensor<2xi32>
    })mlir");
  std::string printed;
  set_runtime_print_sink(
      [&](std::string_view s) { printed += std::string(s) + "\n"; });
  Tensor good = Tensor::empty(DType::Int32, {2});
  good.data<int32_t>()[0] = 1;
  good.data<int32_t>()[1] = 2;
  EXPECT_EQ(m.call("f", {good})[0].to_vector<int32_t>(),
            (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(printed, "a: [1 2]\n");
  Tensor bad = Tensor::empty(DType::Int32, {2});
  bad.data<int32_t>()[0] = -1;
  bad.data<int32_t>()[1] = 2;
  try {
    m.call("f", {bad});
    FAIL() << "expected RuntimeError";
  } catch (const RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("a must be positive"),
              std::string::npos);
  }
  set_runtime_print_sink(nullptr);
}

TEST(CompiledModule, BadInputThrows) {
  EXPECT_THROW(CompiledModule::from_source("func.func @f("), CompileError);
  try {
    CompiledModule::from_source(R"mlir(
      func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
        %0 = "tfc.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
        return %0 : tensor<2xf32>
      })mlir");
    FAIL() << "expected CompileError";
  } catch (const CompileError &e) {
    EXPECT_NE(std::string(e.what()).find("<source>:3"), std::string::npos)
        << e.what();
  }
  auto m = CompiledModule::from_source(R"mlir(
    func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
      return %a : tensor<2xf32>
    })mlir");
  EXPECT_THROW(m.call("f", {}), InvalidArgumentError);
  EXPECT_THROW(m.call("g", {vec({1, 2}, {2})}), InvalidArgumentError);
  EXPECT_THROW(m.call("f", {vec({1, 2, 3}, {3})}), InvalidArgumentError);
  EXPECT_THROW(m.ir("nope"), InvalidArgumentError);
}
} // namespace
