//===- CudaFunctionTest.cpp - tfc::function with Target::CUDA -------------===//
//
// Through the public API only (libtfc.so): without a driver the call throws
// a tfc::Error naming the CUDA driver; with one, it agrees with eager code,
// its result stays on the device and goes back into a CUDA function as it is.
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
  // The result stays on the GPU until read.
  EXPECT_EQ(got.device(), Device::cuda(0));
  ASSERT_EQ(got.shape(), want.shape());
  auto g = got.to_vector<float>(), e = want.to_vector<float>();
  for (size_t i = 0; i < g.size(); ++i)
    EXPECT_NEAR(g[i], e[i], 1e-5 * (1 + std::fabs(e[i]))) << i;
  // Fed back into a CUDA function as it is; eager ops read it on the CPU.
  auto twice = function([](const Tensor &y) { return y + y; }, options);
  Tensor y = twice(got);
  EXPECT_EQ(y.device(), Device::cuda(0));
  Tensor eager = got * 2.0f;
  EXPECT_EQ(eager.device(), Device::cpu());
  auto yv = y.to(Device::cpu()).to_vector<float>();
  auto ev = eager.to_vector<float>();
  ASSERT_EQ(yv.size(), ev.size());
  for (size_t i = 0; i < yv.size(); ++i)
    EXPECT_NEAR(yv[i], ev[i], 1e-6 * (1 + std::fabs(ev[i]))) << i;
}

TEST(CudaFunction, TensorToCudaWithoutADriverSaysWhy) {
  Tensor x = constant({1.f, 2.f});
  EXPECT_EQ(x.device(), Device::cpu());
  Tensor c;
  try {
    c = x.to(Device::cuda());
  } catch (const RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("CUDA driver"), std::string::npos)
        << e.what();
    return;
  }
  EXPECT_EQ(c.device(), Device::cuda());
  EXPECT_EQ(c.to_vector<float>(), (std::vector<float>{1.f, 2.f}));
  // Mixed placement in one eager op: computed on the CPU.
  Tensor s = c + x;
  EXPECT_EQ(s.device(), Device::cpu());
  EXPECT_EQ(s.to_vector<float>(), (std::vector<float>{2.f, 4.f}));
}

} // namespace

namespace {
// The communicator reads host memory: a collective in a CUDA function is
// refused when compiling, before any device is needed.
TEST(CudaFunction, AllReduceIsRefusedForTheGpu) {
  FunctionOptions options;
  options.target = Target::CUDA;
  auto f = function([](const Tensor &x) { return distribute::all_reduce(x); },
                    options);
  try {
    (void)f(constant({1.f, 2.f}));
    FAIL() << "expected an error";
  } catch (const Error &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("tfc.all_reduce runs on Target::CPU only"),
              std::string::npos)
        << msg;
  }
}
} // namespace
