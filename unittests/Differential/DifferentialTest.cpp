//===- DifferentialTest.cpp - Interpreter vs JIT on random programs -------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Differential testing (DESIGN.md, "Tests"): random well-typed tfc programs
// run by the reference interpreter and by the JIT must agree. The campaign
// is split into shards of disjoint seed ranges, one TEST each, so lit runs
// them in parallel. TFC_DIFFTEST_COUNT=N raises the total number of programs
// (the slow option; the default is kShards * kDefaultPerShard).
//
// Also here: the generator's own properties (determinism, well-typedness,
// op coverage) and the comparison rules.
//
//===----------------------------------------------------------------------===//

#include "DifferentialRunner.h"
#include "ProgramGenerator.h"

#include "tfc/Interpreter/Interpreter.h"
#include "tfc/runtime/Error.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <regex>
#include <set>

using namespace tfc;
using namespace tfc::fuzz;

namespace {

constexpr int kShards = 5;
constexpr int kDefaultPerShard = 100;
/// Seeds of shard k are k * kShardStride + 1, + 2, ...: disjoint however
/// many programs TFC_DIFFTEST_COUNT asks for.
constexpr uint64_t kShardStride = 1'000'000;

/// Programs per shard: kDefaultPerShard, or TFC_DIFFTEST_COUNT spread over
/// the shards when that is more.
int programsPerShard() {
  const char *env = std::getenv("TFC_DIFFTEST_COUNT");
  if (!env || !*env)
    return kDefaultPerShard;
  char *end = nullptr;
  long total = std::strtol(env, &end, 10);
  if (*end != '\0' || total <= 0)
    return kDefaultPerShard;
  long per = (total + kShards - 1) / kShards;
  return static_cast<int>(std::max<long>(per, kDefaultPerShard));
}

/// Compile options of a shard. JIT compilation dominates the cost (about
/// 100 ms a program at -O2 or -O1, 45 ms at -O0), so two shards use the
/// defaults (-O2, fused) and three compile at -O0, one of them unfused: the
/// MLIR lowering, where the bugs so far were, is the same at every level.
jit::CompileOptions shardOptions(int shard) {
  jit::CompileOptions options;
  switch (shard) {
  case 2:
  case 3:
    options.opt_level = 0;
    break;
  case 4:
    options.opt_level = 0;
    options.fuse = false;
    break;
  default:
    break;
  }
  return options;
}

/// Runs one shard and fails with a full report of the first failures.
void runShard(int shard) {
  int n = programsPerShard();
  jit::CompileOptions options = shardOptions(shard);
  int agreed = 0, shown = 0;
  std::string failures;
  for (int i = 0; i < n; ++i) {
    uint64_t seed = static_cast<uint64_t>(shard) * kShardStride + 1 +
                    static_cast<uint64_t>(i);
    GeneratedProgram program = generateProgram(seed);
    DiffResult result = runDifferential(program, options);
    if (result.outcome == Outcome::Agreed) {
      ++agreed;
      continue;
    }
    if (shown++ < 3)
      failures += formatReport(program, result) + "\n";
    else
      failures += "seed " + std::to_string(seed) + ": " +
                  outcomeName(result.outcome) + "\n";
  }
  EXPECT_EQ(agreed, n) << "compiled at -O" << options.opt_level
                       << (options.fuse ? "" : " without fusion") << "\n"
                       << failures;
}

// The campaign. Reproduce a failure with `tfc-difftest --seed=S --count=1
// --verbose` plus the shard's options (--opt-level, --no-fuse).
TEST(DifferentialCampaign, Shard0) { runShard(0); }
TEST(DifferentialCampaign, Shard1) { runShard(1); }
TEST(DifferentialCampaign, Shard2OptLevel0) { runShard(2); }
TEST(DifferentialCampaign, Shard3OptLevel0) { runShard(3); }
TEST(DifferentialCampaign, Shard4OptLevel0NoFusion) { runShard(4); }
static_assert(kShards == 5, "one TEST per shard");

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

bool sameBits(const Tensor &a, const Tensor &b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

TEST(ProgramGenerator, SameSeedSameProgramAndArguments) {
  for (uint64_t seed : {0ull, 1ull, 42ull, 123456789ull}) {
    GeneratedProgram a = generateProgram(seed), b = generateProgram(seed);
    EXPECT_EQ(a.text, b.text);
    ASSERT_EQ(a.args.size(), b.args.size());
    for (size_t i = 0; i < a.args.size(); ++i)
      EXPECT_TRUE(sameBits(a.args[i], b.args[i])) << "seed " << seed;
    ASSERT_EQ(a.checks.size(), b.checks.size());
    for (size_t i = 0; i < a.checks.size(); ++i) {
      EXPECT_EQ(a.checks[i].atol, b.checks[i].atol);
      EXPECT_EQ(a.checks[i].rtol, b.checks[i].rtol);
    }
  }
}

TEST(ProgramGenerator, SeedsGiveDifferentPrograms) {
  std::set<std::string> texts;
  for (uint64_t seed = 0; seed < 50; ++seed)
    texts.insert(generateProgram(seed).text);
  EXPECT_EQ(texts.size(), 50u);
}

/// Whether a value of shape `shape` has type `type` (`?` matches any size).
bool fits(mlir::RankedTensorType type, const std::vector<int64_t> &shape) {
  if (type.getRank() != static_cast<int64_t>(shape.size()))
    return false;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (!type.isDynamicDim(d) && type.getDimSize(d) != shape[d])
      return false;
  return true;
}

// Every program parses and verifies, its arguments match @main's signature
// and there is one check per result: the interpreter's argument check and
// the verifier are the judges.
TEST(ProgramGenerator, ProgramsAreWellTyped) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    GeneratedProgram p = generateProgram(seed);
    SCOPED_TRACE("seed " + std::to_string(seed) + "\n" + p.text);
    mlir::OwningOpRef<mlir::ModuleOp> module;
    ASSERT_NO_THROW(module = interpreter::parseModule(p.text, "<generated>"));
    auto fn = module->lookupSymbol<mlir::func::FuncOp>("main");
    ASSERT_TRUE(fn);
    ASSERT_EQ(fn.getNumArguments(), p.args.size());
    EXPECT_EQ(fn.getNumResults(), p.checks.size());
    for (size_t i = 0; i < p.args.size(); ++i) {
      auto type = llvm::cast<mlir::RankedTensorType>(fn.getArgumentTypes()[i]);
      EXPECT_TRUE(fits(type, p.args[i].shape())) << "argument " << i;
    }
    for (size_t i = 0; i < p.checks.size(); ++i) {
      auto type = llvm::cast<mlir::RankedTensorType>(fn.getResultTypes()[i]);
      EXPECT_TRUE(fits(type, p.checks[i].shape)) << "result " << i;
      EXPECT_GE(p.checks[i].atol, 0);
      EXPECT_GE(p.checks[i].rtol, 0);
    }
    if (!p.special) {
      EXPECT_GE(p.primaryOps, GeneratorOptions().minOps);
    }
  }
}

// Across a few hundred seeds every op family and dtype shows up, including
// nested control flow.
TEST(ProgramGenerator, CoversEveryOpFamily) {
  std::string all;
  int special = 0;
  for (uint64_t seed = 0; seed < 400; ++seed) {
    GeneratedProgram p = generateProgram(seed);
    all += p.text;
    special += p.special;
  }
  for (const char *op : {"tfc.neg",
                         "tfc.abs",
                         "tfc.exp",
                         "tfc.log ",
                         "tfc.log1p",
                         "tfc.sqrt",
                         "tfc.square",
                         "tfc.sin",
                         "tfc.cos",
                         "tfc.tanh",
                         "tfc.sigmoid",
                         "tfc.relu",
                         "tfc.logical_not",
                         "tfc.stop_gradient",
                         "tfc.add",
                         "tfc.sub",
                         "tfc.mul",
                         "tfc.div",
                         "tfc.maximum",
                         "tfc.minimum",
                         "tfc.floor_div",
                         "tfc.mod",
                         "tfc.pow",
                         "tfc.logical_and",
                         "tfc.logical_or",
                         "tfc.cmp eq",
                         "tfc.cmp ne",
                         "tfc.cmp lt",
                         "tfc.cmp le",
                         "tfc.cmp gt",
                         "tfc.cmp ge",
                         "tfc.select",
                         "tfc.cast",
                         "tfc.broadcast_to",
                         "tfc.matmul",
                         "tfc.transpose",
                         "tfc.reshape",
                         "tfc.expand_dims",
                         "tfc.squeeze",
                         "tfc.concat",
                         "tfc.slice",
                         "tfc.reduce_sum",
                         "tfc.reduce_mean",
                         "tfc.reduce_max",
                         "tfc.reduce_min",
                         "tfc.reduce_prod",
                         "keepdims = true",
                         "tfc.argmax",
                         "tfc.softmax ",
                         "tfc.log_softmax",
                         "tfc.softmax_cross_entropy",
                         "tfc.one_hot",
                         "tfc.if",
                         "} else {",
                         "tfc.while",
                         "tfc.condition",
                         "tfc.yield",
                         "tfc.print",
                         "tfc.assert",
                         "tensor<f32>",
                         "xf64>",
                         "xi32>",
                         "xi64>",
                         "xi1>",
                         "tensor<?x",
                         "x?x",
                         "x?xf32>"})
    EXPECT_NE(all.find(op), std::string::npos) << op;
  // A batched matmul, and a region op inside a region (top-level ops are
  // indented by 2 spaces, region bodies by 4 or more).
  std::regex batched(R"(tfc\.matmul [^\n]*\(tensor<\d+x\d+x\d+x)");
  EXPECT_TRUE(std::regex_search(all, batched));
  std::regex nestedRegion(R"(\n {4,}%v\d+(:\d+)? = tfc\.(if|while))");
  bool nested = std::regex_search(all, nestedRegion);
  EXPECT_TRUE(nested);
  EXPECT_GT(special, 10);
  EXPECT_LT(special, 100);
}

TEST(ProgramGenerator, SpecialValueProgramsCarrySpecialArguments) {
  GeneratorOptions options;
  options.specialValueRate = 1;
  int nans = 0, infs = 0;
  for (uint64_t seed = 0; seed < 20; ++seed) {
    GeneratedProgram p = generateProgram(seed, options);
    EXPECT_TRUE(p.special);
    for (const Tensor &t : p.args) {
      ASSERT_TRUE(is_floating(t.dtype()));
      dispatch_dtype(t.dtype(), [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>)
          for (T v : t.to_vector<T>()) {
            nans += std::isnan(v);
            infs += std::isinf(v);
          }
      });
    }
  }
  EXPECT_GT(nans, 0);
  EXPECT_GT(infs, 0);
}

TEST(ProgramGenerator, OptionsBoundTheProgram) {
  GeneratorOptions options;
  options.minOps = options.maxOps = 3;
  options.maxArgs = 1;
  options.specialValueRate = 0;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    GeneratedProgram p = generateProgram(seed, options);
    EXPECT_FALSE(p.special);
    EXPECT_EQ(p.args.size(), 1u);
    // Region ops count once, plus what they hold; all of it within budget.
    EXPECT_GE(p.primaryOps, 3);
    EXPECT_LE(p.primaryOps, 6) << p.text;
  }
}

TEST(ProgramGenerator, TensorLiterals) {
  Tensor f = Tensor::empty(DType::Float32, {2, 2});
  float *p = f.data<float>();
  p[0] = 1.5f;
  p[1] = -0.0f;
  p[2] = std::numeric_limits<float>::infinity();
  p[3] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(toTensorLiteral(f), "[[1.5,-0.0],[inf,nan]]:f32");
  Tensor b = Tensor::empty(DType::Bool, {});
  *b.data<bool>() = true;
  EXPECT_EQ(toTensorLiteral(b), "true:i1");
  Tensor i = Tensor::empty(DType::Int64, {3});
  i.data<int64_t>()[0] = -7;
  i.data<int64_t>()[1] = 0;
  i.data<int64_t>()[2] = 1099511627776;
  EXPECT_EQ(toTensorLiteral(i), "[-7,0,1099511627776]:i64");
  EXPECT_EQ(elementTypeName(DType::Float64), "f64");
}

//===----------------------------------------------------------------------===//
// Comparison rules
//===----------------------------------------------------------------------===//

Tensor floats(std::vector<float> v) {
  Tensor t = Tensor::empty(DType::Float32, {static_cast<int64_t>(v.size())});
  std::copy(v.begin(), v.end(), t.data<float>());
  return t;
}

Tensor ints(std::vector<int32_t> v) {
  Tensor t = Tensor::empty(DType::Int32, {static_cast<int64_t>(v.size())});
  std::copy(v.begin(), v.end(), t.data<int32_t>());
  return t;
}

TEST(Compare, NaNEqualsNaNAndInfinitiesMustMatch) {
  ResultCheck exact;
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(floatsAgree(nan, nan, exact));
  EXPECT_FALSE(floatsAgree(nan, 1, exact));
  EXPECT_FALSE(floatsAgree(1, nan, exact));
  EXPECT_TRUE(floatsAgree(inf, inf, exact));
  EXPECT_FALSE(floatsAgree(inf, -inf, exact));
  ResultCheck loose;
  loose.atol = 1e30;
  EXPECT_FALSE(floatsAgree(inf, 1e300, loose)); // no tolerance reaches inf
  EXPECT_TRUE(floatsAgree(0.0, -0.0, exact));
}

TEST(Compare, Tolerances) {
  ResultCheck exact;
  EXPECT_TRUE(floatsAgree(1.25, 1.25, exact));
  EXPECT_FALSE(floatsAgree(1.0, std::nextafter(1.0, 2.0), exact));
  ResultCheck abs;
  abs.atol = 0.1;
  EXPECT_TRUE(floatsAgree(1.0, 1.09, abs));
  EXPECT_FALSE(floatsAgree(1.0, 1.11, abs));
  ResultCheck rel;
  rel.rtol = 1e-3;
  EXPECT_TRUE(floatsAgree(1000.0, 1000.9, rel));
  EXPECT_FALSE(floatsAgree(1000.0, 1002.0, rel));
}

TEST(Compare, ResultsElementByElement) {
  std::vector<ResultCheck> checks(2);
  EXPECT_FALSE(compareResults({floats({1, 2}), ints({3})},
                              {floats({1, 2}), ints({3})}, checks));
  auto diff = compareResults({floats({1, 2}), ints({3, 4})},
                             {floats({1, 2}), ints({3, 5})}, checks);
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->find("result #1"), std::string::npos) << *diff;
  EXPECT_NE(diff->find("[1]"), std::string::npos) << *diff;
  EXPECT_NE(diff->find("interpreter 4, JIT 5"), std::string::npos) << *diff;

  diff = compareResults({floats({1})}, {floats({1, 1})}, checks);
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->find("shape"), std::string::npos) << *diff;
  diff = compareResults({floats({1})}, {ints({1})}, checks);
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->find("dtype"), std::string::npos) << *diff;
  diff = compareResults({floats({1})}, {}, checks);
  ASSERT_TRUE(diff);
  EXPECT_NE(diff->find("returned 1 results, the JIT 0"), std::string::npos)
      << *diff;
  // Integers compare exactly whatever the tolerance says.
  std::vector<ResultCheck> loose(1);
  loose[0].atol = 10;
  EXPECT_TRUE(compareResults({ints({1})}, {ints({2})}, loose));
}

//===----------------------------------------------------------------------===//
// The runner
//===----------------------------------------------------------------------===//

GeneratedProgram handWritten(std::string text, std::vector<Tensor> args,
                             size_t results) {
  GeneratedProgram p;
  p.text = std::move(text);
  p.args = std::move(args);
  p.checks.resize(results);
  return p;
}

TEST(Runner, AgreesOnAHandWrittenProgramWithPrint) {
  GeneratedProgram p = handWritten(R"mlir(
    func.func @main(%a: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<i32>) {
      %m = tfc.maximum %a, %a : tensor<3xf32>
      tfc.print "i" %i : tensor<3xi32>
      %s = tfc.reduce_max %i, axes = [0], keepdims = false : tensor<3xi32> -> tensor<i32>
      return %m, %s : tensor<3xf32>, tensor<i32>
    })mlir",
                                   {floats({1, -2, 3}), ints({4, 9, -1})}, 2);
  DiffResult r = runDifferential(p);
  EXPECT_EQ(r.outcome, Outcome::Agreed) << r.detail;
  ASSERT_EQ(r.interpretedPrints.size(), 1u);
  EXPECT_EQ(r.interpretedPrints, r.compiledPrints);
  ASSERT_EQ(r.compiled.size(), 2u);
  EXPECT_EQ(r.compiled[1].item<int32_t>(), 9);
}

TEST(Runner, ErrorsAreFailuresNotCrashes) {
  GeneratedProgram p =
      handWritten("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                  "  %b = tfc.add %a, %a : tensor<3xf32>\n"
                  "  return %b : tensor<2xf32>\n}\n",
                  {floats({1, 2})}, 1);
  DiffResult r = runDifferential(p);
  EXPECT_EQ(r.outcome, Outcome::InterpreterError);
  EXPECT_NE(r.detail.find("interpreter:"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("jit:"), std::string::npos) << r.detail;

  // Wrong arguments: both executors reject them.
  p = handWritten("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                  "  return %a : tensor<2xf32>\n}\n",
                  {floats({1, 2, 3})}, 1);
  r = runDifferential(p);
  EXPECT_EQ(r.outcome, Outcome::InterpreterError) << r.detail;
}

TEST(Runner, ReportReproducesTheProgram) {
  GeneratedProgram p = generateProgram(7);
  DiffResult r;
  r.outcome = Outcome::Disagreed;
  r.detail = "result #0 differs\nsecond line";
  std::string report = formatReport(p, r);
  EXPECT_NE(report.find("// seed 7: disagreed"), std::string::npos);
  EXPECT_NE(report.find("// second line"), std::string::npos);
  EXPECT_NE(report.find("tfc-difftest --seed=7 --count=1"), std::string::npos);
  EXPECT_NE(report.find("tfc-run THIS_FILE --mode=jit '--arg="),
            std::string::npos);
  // The program follows the comments, so the report is a valid .mlir file.
  EXPECT_NO_THROW(interpreter::parseModule(report, "<report>"));
}

} // namespace
