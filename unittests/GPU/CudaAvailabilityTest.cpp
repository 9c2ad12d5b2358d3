//===- CudaAvailabilityTest.cpp - tfc::cuda::is_available / device_count --===//
//
// The answers must agree with what the driver itself says, asked here
// independently (dlopen + cuInit + cuDeviceGetCount): false / 0 on machines
// without a driver or device, true / N where CUDA works. Only <tfc/tfc.h>
// and libtfc.so are used, as a user would.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <thread>

namespace {

/// cuDeviceGetCount after cuInit, asked of the driver directly; -1 when the
/// library or an entry point is missing or cuInit fails.
int driverDeviceCount() {
  const char *path = std::getenv("TFC_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return -1;
  using Init = int (*)(unsigned);
  using Count = int (*)(int *);
  auto init = reinterpret_cast<Init>(dlsym(lib, "cuInit"));
  auto count = reinterpret_cast<Count>(dlsym(lib, "cuDeviceGetCount"));
  if (!init || !count || init(0) != 0)
    return -1;
  int n = 0;
  return count(&n) == 0 ? n : -1;
}

TEST(CudaAvailability, AgreesWithTheDriver) {
  int n = driverDeviceCount();
  EXPECT_EQ(tfc::cuda::device_count(), n < 0 ? 0 : n);
  // Where the driver works and has a device, tfc can use it.
  EXPECT_EQ(tfc::cuda::is_available(), n > 0);
}

TEST(CudaAvailability, StableAndCallableFromAnyThread) {
  bool available = tfc::cuda::is_available();
  int count = tfc::cuda::device_count();
  std::thread([&] {
    EXPECT_EQ(tfc::cuda::is_available(), available);
    EXPECT_EQ(tfc::cuda::device_count(), count);
  }).join();
  EXPECT_TRUE(!available || count > 0);
}

TEST(CudaAvailability, MissingDriverIsFalseAndZero) {
  // A fresh process (gtest re-runs this binary) pointed at a library that
  // does not exist: the answers are false / 0, nothing throws or crashes,
  // even on a machine with a GPU.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("TFC_CUDA_DRIVER", "/nonexistent/tfc-test/libcuda.so.1", 1);
  EXPECT_EXIT(
      {
        bool ok = !tfc::cuda::is_available() && tfc::cuda::device_count() == 0;
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  unsetenv("TFC_CUDA_DRIVER");
}

TEST(CudaAvailability, MatchesWhetherCudaTensorsWork) {
  // is_available() is the check to make before Device::cuda(0).
  tfc::Tensor x = tfc::constant({1.f, 2.f});
  if (tfc::cuda::is_available()) {
    tfc::Tensor d = x.to(tfc::Device::cuda(0));
    EXPECT_TRUE(d.device().is_cuda());
    EXPECT_EQ(d.to_vector<float>(), (std::vector<float>{1.f, 2.f}));
  } else {
    EXPECT_THROW(x.to(tfc::Device::cuda(0)), tfc::Error);
  }
}

} // namespace
