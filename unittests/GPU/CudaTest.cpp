//===- CudaTest.cpp - Target::CUDA: PTX, the no-driver error, execution ---===//
//
// What runs here without a GPU: lowering to PTX and the error raised when
// the driver is missing. Execution against the interpreter runs where a
// driver and device exist, and is skipped (GTEST_SKIP) elsewhere.
//
//===----------------------------------------------------------------------===//
#include "tfc/runtime/Cuda.h"
#include "tfc/GPU/CudaJIT.h"
#include "tfc/JIT/CompiledModule.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace tfc;
using tfc::jit::CompiledModule;
using tfc::jit::CompileOptions;

namespace {

constexpr const char *kPrograms = R"mlir(
func.func @chain(%a: tensor<33x40xf32>, %b: tensor<33x40xf32>) -> tensor<33x40xf32> {
  %0 = tfc.add %a, %b : tensor<33x40xf32>
  %1 = tfc.mul %0, %a : tensor<33x40xf32>
  %2 = tfc.tanh %1 : tensor<33x40xf32>
  %3 = tfc.exp %2 : tensor<33x40xf32>
  %4 = tfc.sub %3, %b : tensor<33x40xf32>
  %5 = tfc.maximum %4, %a : tensor<33x40xf32>
  %6 = tfc.square %5 : tensor<33x40xf32>
  %7 = tfc.neg %6 : tensor<33x40xf32>
  return %7 : tensor<33x40xf32>
}
func.func @rowsum(%x: tensor<17x300xf32>) -> tensor<17xf32> {
  %s = tfc.reduce_sum %x, axes = [1], keepdims = false : tensor<17x300xf32> -> tensor<17xf32>
  return %s : tensor<17xf32>
}
func.func @mm(%a: tensor<20x30xf32>, %b: tensor<30x7xf32>) -> tensor<20x7xf32> {
  %c = tfc.matmul %a, %b : (tensor<20x30xf32>, tensor<30x7xf32>) -> tensor<20x7xf32>
  return %c : tensor<20x7xf32>
}
func.func @loop(%x: tensor<300xf32>, %n: tensor<i32>) -> tensor<300xf32> {
  %zero = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  %half = tfc.constant dense<0.5> : tensor<300xf32>
  %r:2 = tfc.while (%i = %zero, %v = %x) : (tensor<i32>, tensor<300xf32>) -> (tensor<i32>, tensor<300xf32>) {
    %c = tfc.cmp lt, %i, %n : tensor<i32>
    tfc.condition(%c) %i, %v : tensor<i32>, tensor<300xf32>
  } do {
  ^bb0(%i2: tensor<i32>, %v2: tensor<300xf32>):
    %i3 = tfc.add %i2, %one : tensor<i32>
    %v3 = tfc.mul %v2, %half : tensor<300xf32>
    %v4 = tfc.add %v3, %x : tensor<300xf32>
    tfc.yield %i3, %v4 : tensor<i32>, tensor<300xf32>
  }
  return %r#1 : tensor<300xf32>
}
)mlir";

CompileOptions cuda() {
  CompileOptions options;
  options.target = Target::CUDA;
  return options;
}

TEST(CudaTarget, LowersToPtxForEveryKernel) {
  gpu::PtxModule ptx = gpu::compile_to_ptx(kPrograms, cuda());
  // chain: 1 kernel; rowsum: fill + reduce; mm: fill + matmul; loop: 1.
  ASSERT_EQ(ptx.kernels.size(), 6u);
  for (const auto &[name, text] : ptx.kernels) {
    EXPECT_NE(text.find(".target sm_90"), std::string::npos) << name;
    EXPECT_NE(text.find(".version 8.0"), std::string::npos) << name;
    EXPECT_NE(text.find(".visible .entry"), std::string::npos) << name;
  }
  EXPECT_EQ(ptx.kernels[0].first, "chain_kernel");
  for (const char *stage : {"tfc", "optimized", "gpu", "nvvm", "llvm-dialect"})
    EXPECT_TRUE(ptx.stages.count(stage)) << stage;
  EXPECT_NE(ptx.stages["gpu"].find("@chain_kernel::@chain_kernel"),
            std::string::npos);
  EXPECT_NE(ptx.stages["nvvm"].find("nvvm.kernel"), std::string::npos);
  EXPECT_NE(ptx.stages["llvm-dialect"].find("mgpuMemAlloc"), std::string::npos);
}

TEST(CudaTarget, BadModuleIsACompileError) {
  // A bad module is a CompileError with the diagnostics, never a crash.
  try {
    gpu::compile_to_ptx("func.func @f(%a: tensor<2xf32>) -> tensor<3xf32> {\n"
                        "  return %a : tensor<2xf32>\n}\n",
                        cuda());
    FAIL() << "expected CompileError";
  } catch (const CompileError &e) {
    EXPECT_NE(std::string(e.what()).find("doesn't match function result type"),
              std::string::npos)
        << e.what();
  }
}

TEST(CudaTarget, WithoutADriverCompilingThrowsAClearError) {
  if (cuda::driverAvailable())
    GTEST_SKIP() << "a CUDA driver and device are present";
  try {
    CompiledModule::from_source(kPrograms, cuda());
    FAIL() << "expected CompileError";
  } catch (const CompileError &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("Target::CUDA"), std::string::npos) << msg;
    EXPECT_NE(msg.find("CUDA driver"), std::string::npos) << msg;
    EXPECT_EQ(msg, "cannot compile for Target::CUDA: " + cuda::driverError());
  }
  // The CPU target is unaffected.
  CompiledModule cpu = CompiledModule::from_source(
      "func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
      "  %b = tfc.add %a, %a : tensor<2xf32>\n"
      "  return %b : tensor<2xf32>\n}\n");
  EXPECT_EQ(cpu.functions(), std::vector<std::string>{"f"});
}

TEST(CudaTarget, MissingLibraryIsNamedInTheError) {
  if (cuda::driverAvailable())
    GTEST_SKIP() << "a CUDA driver and device are present";
  // Where no libcuda.so.1 exists (this project's build machines), dlopen's
  // message says so.
  if (cuda::driverError().find("was not found") == std::string::npos)
    GTEST_SKIP() << "libcuda.so.1 exists but is unusable: "
                 << cuda::driverError();
  EXPECT_NE(cuda::driverError().find("the CUDA driver (libcuda.so.1) was not "
                                     "found"),
            std::string::npos)
      << cuda::driverError();
}

//===----------------------------------------------------------------------===//
// Execution (needs a GPU)
//===----------------------------------------------------------------------===//

Tensor uniform(std::vector<int64_t> shape, uint64_t seed) {
  return kernels::random_uniform(shape, -1.0, 1.0, seed, DType::Float32);
}

void expectClose(const Tensor &got, const Tensor &want, double tol) {
  ASSERT_EQ(got.shape(), want.shape());
  auto g = got.to_vector<float>(), w = want.to_vector<float>();
  for (size_t i = 0; i < g.size(); ++i)
    ASSERT_NEAR(g[i], w[i], tol * (1 + std::fabs(w[i]))) << "element " << i;
}

class CudaExecution : public ::testing::Test {
protected:
  void SetUp() override {
    if (!cuda::driverAvailable())
      GTEST_SKIP() << "no CUDA driver/device: " << cuda::driverError();
  }
  void compare(const std::string &fn, const std::vector<Tensor> &args) {
    static CompiledModule module =
        CompiledModule::from_source(kPrograms, cuda());
    std::vector<Tensor> got = module.call(fn, args);
    std::vector<Tensor> want = jit::interpret(kPrograms, fn, args);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      expectClose(got[i], want[i], 1e-5);
  }
};

TEST_F(CudaExecution, ElementwiseChain) {
  compare("chain", {uniform({33, 40}, 1), uniform({33, 40}, 2)});
}
TEST_F(CudaExecution, Reduction) { compare("rowsum", {uniform({17, 300}, 3)}); }
TEST_F(CudaExecution, Matmul) {
  compare("mm", {uniform({20, 30}, 4), uniform({30, 7}, 5)});
}
TEST_F(CudaExecution, WhileLoop) {
  compare("loop", {uniform({300}, 6), kernels::full({}, 7, DType::Int32)});
}

} // namespace
