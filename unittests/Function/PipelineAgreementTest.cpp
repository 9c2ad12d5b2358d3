//===- PipelineAgreementTest.cpp - The JIT runs the registered pipeline ---===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// `tfc-opt --tfc-cpu-pipeline` on a traced module must give exactly the
// LLVM-dialect module the JIT compiled (ir("llvm-dialect")): one pipeline,
// not a copy in the JIT. Traced functions with variables, control flow and
// a matmul cover the preparatory steps (inline, promote variables,
// read-only arguments) as well as the lowering.
//
//===----------------------------------------------------------------------===//

#include "RunTfcOpt.h"

#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <string>

using namespace tfc;

namespace {

/// Without trailing newlines (tfc-opt ends its output with an empty line).
std::string trimmed(std::string s) {
  while (!s.empty() && s.back() == '\n')
    s.pop_back();
  return s;
}

template <typename F, typename... Args>
void expectSamePipeline(F &fn, const Args &...args) {
  (void)fn(args...);
  std::string traced = fn.ir("tfc");
  std::string jit = fn.ir("llvm-dialect");
  std::string errors;
  std::string opt = tfc_test::runTfcOpt(traced, "--tfc-cpu-pipeline", errors);
  ASSERT_FALSE(opt.empty()) << errors << "\n" << traced;
  EXPECT_TRUE(trimmed(opt) == trimmed(jit))
      << "tfc-opt --tfc-cpu-pipeline gave\n"
      << opt << "\nthe JIT compiled\n"
      << jit << "\n"
      << "tfc-opt --tfc-cpu-pipeline and the JIT differ on\n"
      << traced;
}

TEST(PipelineAgreement, ElementwiseAndReduction) {
  auto f = tfc::function(
      [](const Tensor &x) { return reduce_sum(tanh(x) * x + 1.0, {1}); });
  expectSamePipeline(f, ones({4, 8}));
}

TEST(PipelineAgreement, MatmulVariablesAndCond) {
  Variable w(ones({8, 4}), "w");
  Variable step(constant(0.0f), "step");
  auto f = tfc::function([&](const Tensor &x) {
    Tensor y = matmul(x, w.value());
    step.assign_add(constant(1.0f));
    w.assign_sub(matmul(transpose(x), y) * 0.01f);
    return cond(
        reduce_sum(y) > 0.0f, [&] { return relu(y); }, [&] { return -y; });
  });
  expectSamePipeline(f, ones({16, 8}));
}

TEST(PipelineAgreement, WhileLoop) {
  auto f = tfc::function([](const Tensor &n) {
    auto out =
        while_loop([](const std::vector<Tensor> &v) { return v[0] < 10; },
                   [](const std::vector<Tensor> &v) {
                     return std::vector<Tensor>{v[0] + 1, v[1] * 2};
                   },
                   std::vector<Tensor>{n, constant(1)});
    return out[1];
  });
  expectSamePipeline(f, constant(0));
}

} // namespace
