//===- CudaFunctionTest.cpp - tfc::function with Target::CUDA -------------===//
//
// Through the public API only (libtfc.so): without a driver the call throws
// a tfc::Error naming the CUDA driver; with one, it agrees with eager code.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <cmath>

using namespace tfc;

namespace {

Tensor model(const Tensor &x, const Tensor &w) {
  return reduce_sum(tanh(matmul(x, w)) * 2.0f + 1.0f, {1});
}

TEST(CudaFunction, RunsOnTheGpuOrSaysWhyNot) {
  FunctionOptions options;
  options.target = Target::CUDA;
  auto f = function(model, options);
  Tensor x = random_uniform({5, 4}, -1, 1, 1);
  Tensor w = random_uniform({4, 3}, -1, 1, 2);
  Tensor got;
  try {
    got = f(x, w);
  } catch (const Error &e) {
    // A machine without a GPU: the message says what is missing.
    std::string msg = e.what();
    EXPECT_NE(msg.find("Target::CUDA"), std::string::npos) << msg;
    EXPECT_NE(msg.find("CUDA driver"), std::string::npos) << msg;
    return;
  }
  Tensor want = model(x, w);
  ASSERT_EQ(got.shape(), want.shape());
  auto g = got.to_vector<float>(), e = want.to_vector<float>();
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_NEAR(g[i], e[i], 1e-5 * (1 + std::fabs(e[i]))) << i;
}

} // namespace
