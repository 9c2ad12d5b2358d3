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

#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tfc;

namespace {

/// Runs `tfc-opt <args>` on `input`; returns stdout, or "" with `errors` set.
std::string runTfcOpt(const std::string &input, const std::string &args,
                      std::string &errors) {
  char inPath[] = "/tmp/tfc-pipeline-test-XXXXXX";
  int fd = mkstemp(inPath);
  if (fd < 0) {
    errors = "mkstemp failed";
    return "";
  }
  FILE *in = fdopen(fd, "w");
  std::fputs(input.c_str(), in);
  std::fclose(in);
  std::string errPath = std::string(inPath) + ".err";
  std::string cmd = std::string(TFC_OPT_PATH) + " " + args + " " + inPath +
                    " 2>" + errPath;
  std::string out;
  FILE *pipe = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while (pipe && (n = std::fread(buf, 1, sizeof(buf), pipe)) > 0)
    out.append(buf, n);
  int status = pipe ? pclose(pipe) : -1;
  if (FILE *err = std::fopen(errPath.c_str(), "r")) {
    while ((n = std::fread(buf, 1, sizeof(buf), err)) > 0)
      errors.append(buf, n);
    std::fclose(err);
  }
  std::remove(inPath);
  std::remove(errPath.c_str());
  return status == 0 ? out : "";
}

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
  std::string opt = runTfcOpt(traced, "--tfc-cpu-pipeline", errors);
  ASSERT_FALSE(opt.empty()) << errors << "\n" << traced;
  EXPECT_TRUE(trimmed(opt) == trimmed(jit))
      << "tfc-opt --tfc-cpu-pipeline gave\n"
      << opt << "\nthe JIT compiled\n"
      << jit << "\n"
      << "tfc-opt --tfc-cpu-pipeline and the JIT differ on\n"
                      << traced;
}

TEST(PipelineAgreement, ElementwiseAndReduction) {
  auto f = tfc::function([](const Tensor &x) {
    return reduce_sum(tanh(x) * x + 1.0, {1});
  });
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
    auto out = while_loop(
        [](const std::vector<Tensor> &v) { return v[0] < 10; },
        [](const std::vector<Tensor> &v) {
          return std::vector<Tensor>{v[0] + 1, v[1] * 2};
        },
        std::vector<Tensor>{n, constant(1)});
    return out[1];
  });
  expectSamePipeline(f, constant(0));
}

} // namespace
