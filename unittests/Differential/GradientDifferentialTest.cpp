//===- GradientDifferentialTest.cpp - Gradients of random programs --------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The gradient campaign of the differential tester (issue 5, item 4): the
// programs of DifferentialTest.cpp's generator, differentiated eagerly,
// compiled and by float64 finite differences (tools/tfc-fuzz/GradientRunner.h).
// Three shards on disjoint seeds (-O2 fused, -O0 fused, -O0 unfused), so lit
// runs them in parallel. TFC_DIFFTEST_GRAD_COUNT=N raises the total;
// tfc-difftest-grad runs any number by hand.
//
//===----------------------------------------------------------------------===//

#include "GradientRunner.h"
#include "ProgramGenerator.h"

#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tfc;
using namespace tfc::fuzz;

namespace {

constexpr int kShards = 3;
constexpr int kDefaultPerShard = 40;
constexpr uint64_t kShardStride = 1'000'000;

int programsPerShard() {
  const char *env = std::getenv("TFC_DIFFTEST_GRAD_COUNT");
  if (!env || !*env)
    return kDefaultPerShard;
  char *end = nullptr;
  long total = std::strtol(env, &end, 10);
  if (*end != '\0' || total <= 0)
    return kDefaultPerShard;
  return static_cast<int>(
      std::max<long>((total + kShards - 1) / kShards, kDefaultPerShard));
}

void runShard(int shard) {
  GradientOptions options;
  options.optLevel = shard == 0 ? 2 : 0;
  options.fuse = shard != 2;
  int n = programsPerShard(), checked = 0, fdElements = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t seed = uint64_t(shard) * kShardStride + uint64_t(i) + 1;
    GeneratedProgram program = generateProgram(seed);
    GradResult r = runGradientDifferential(program, options);
    EXPECT_TRUE(r.outcome == GradOutcome::Agreed ||
                r.outcome == GradOutcome::Skipped)
        << "seed " << seed << ": " << gradOutcomeName(r.outcome) << ": "
        << r.detail
        << "\n  reproduce: tfc-difftest-grad --count=1 --seed=" << seed
        << " --verbose" << (options.optLevel ? "" : " --opt-level=0")
        << (options.fuse ? "" : " --no-fuse") << "\n"
        << program.text;
    checked += r.outcome == GradOutcome::Agreed;
    fdElements += r.fdChecked;
  }
  // Most programs have a float argument and a float result: the campaign
  // must actually differentiate, not skip everything.
  EXPECT_GE(checked, n / 3);
  EXPECT_GE(fdElements, n);
}

TEST(GradientCampaign, Shard0) { runShard(0); }
TEST(GradientCampaign, Shard1) { runShard(1); }
TEST(GradientCampaign, Shard2) { runShard(2); }

GeneratedProgram handWritten(std::string text, std::vector<Tensor> args,
                             std::vector<ResultCheck> checks) {
  GeneratedProgram p;
  p.text = std::move(text);
  p.args = std::move(args);
  p.checks = std::move(checks);
  return p;
}

ResultCheck f64Check(std::vector<int64_t> shape) {
  ResultCheck c;
  c.dtype = DType::Float64;
  c.shape = std::move(shape);
  c.atol = 1e-12;
  c.rtol = 1e-12;
  return c;
}

// Every construct the campaign relies on, on smooth inputs: each gradient
// element must be checked against finite differences and agree.
TEST(GradientRunner, ControlFlowMatmulAndReductionsAgree) {
  GeneratedProgram p =
      handWritten(R"mlir(
func.func @main(%x: tensor<2x3xf64>, %w: tensor<3x2xf64>) -> tensor<2xf64> {
  %m = tfc.matmul %x, %w : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  %t = tfc.tanh %m : tensor<2x2xf64>
  %s = tfc.reduce_sum %t, axes = [0, 1], keepdims = false : tensor<2x2xf64> -> tensor<f64>
  %zero = tfc.constant dense<0.0> : tensor<f64>
  %p = tfc.cmp gt, %s, %zero : tensor<f64>
  %r = tfc.if %p -> (tensor<2x2xf64>) {
    %e = tfc.exp %t : tensor<2x2xf64>
    tfc.yield %e : tensor<2x2xf64>
  } else {
    %q = tfc.square %t : tensor<2x2xf64>
    tfc.yield %q : tensor<2x2xf64>
  }
  %i0 = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  %three = tfc.constant dense<3> : tensor<i32>
  %l:2 = tfc.while (%i = %i0, %v = %r) : (tensor<i32>, tensor<2x2xf64>) -> (tensor<i32>, tensor<2x2xf64>) {
    %c = tfc.cmp lt, %i, %three : tensor<i32>
    tfc.condition(%c) %i, %v : tensor<i32>, tensor<2x2xf64>
  } do {
  ^bb0(%j: tensor<i32>, %u: tensor<2x2xf64>):
    %s2 = tfc.sin %u : tensor<2x2xf64>
    %n = tfc.add %j, %one : tensor<i32>
    tfc.yield %n, %s2 : tensor<i32>, tensor<2x2xf64>
  }
  %out = tfc.reduce_mean %l#1, axes = [1], keepdims = false : tensor<2x2xf64> -> tensor<2xf64>
  return %out : tensor<2xf64>
}
)mlir",
                  {random_uniform({2, 3}, -1, 1, 1, DType::Float64),
                   random_uniform({3, 2}, -1, 1, 2, DType::Float64)},
                  {f64Check({2})});
  GradResult r = runGradientDifferential(p);
  EXPECT_EQ(r.outcome, GradOutcome::Agreed) << r.detail;
  EXPECT_EQ(r.fdChecked, 12);
  EXPECT_EQ(r.fdNonSmooth, 0);
}

// stop_gradient(x) * x: the tape gives x, and so must the finite
// differences, which hold stop_gradient's result at its unperturbed value.
TEST(GradientRunner, FiniteDifferencesHoldStopGradientConstant) {
  GeneratedProgram p =
      handWritten(R"mlir(
func.func @main(%x: tensor<3xf64>) -> tensor<3xf64> {
  %s = tfc.stop_gradient %x : tensor<3xf64>
  %y = tfc.mul %s, %x : tensor<3xf64>
  return %y : tensor<3xf64>
}
)mlir",
                  {constant({0.5, -1.5, 2.0})}, {f64Check({3})});
  GradResult r = runGradientDifferential(p);
  EXPECT_EQ(r.outcome, GradOutcome::Agreed) << r.detail;
  EXPECT_EQ(r.fdChecked, 3);
}

// relu at 0 has no derivative: that element is left out, the others checked.
TEST(GradientRunner, KinksAreLeftOut) {
  GeneratedProgram p =
      handWritten(R"mlir(
func.func @main(%x: tensor<3xf64>) -> tensor<3xf64> {
  %y = tfc.relu %x : tensor<3xf64>
  return %y : tensor<3xf64>
}
)mlir",
                  {constant({0.0, -1.5, 2.0})}, {f64Check({3})});
  GradResult r = runGradientDifferential(p);
  EXPECT_EQ(r.outcome, GradOutcome::Agreed) << r.detail;
  EXPECT_EQ(r.fdChecked, 2);
  EXPECT_EQ(r.fdNonSmooth, 1);
}

TEST(GradientRunner, NothingToDifferentiateIsSkipped) {
  GeneratedProgram p = handWritten(R"mlir(
func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %y = tfc.add %x, %x : tensor<2xi32>
  return %y : tensor<2xi32>
}
)mlir",
                                   {constant({1, 2})}, {ResultCheck{}});
  GradResult r = runGradientDifferential(p);
  EXPECT_EQ(r.outcome, GradOutcome::Skipped);
  EXPECT_EQ(r.detail, "no float argument");
}

} // namespace
