//===- DeviceTest.cpp - Device placement: Device, Tensor::to, CUDA results ===//
//
// Without a driver: Device values, CPU tensors' placement, the no-driver
// error of Tensor::to (nothing allocated), and eager ops / CPU-compiled
// code given a tensor labelled CUDA (host memory standing in for managed
// memory, which is host-readable too). With a driver (skipped otherwise):
// round trips, CUDA results that stay on the device, and a CUDA result fed
// back into a CUDA function without a copy.
//
//===----------------------------------------------------------------------===//
#include "tfc/GPU/CudaJIT.h"
#include "tfc/JIT/CompiledModule.h"
#include "tfc/runtime/Allocator.h"
#include "tfc/runtime/Cuda.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

using namespace tfc;
using tfc::jit::CompiledModule;
using tfc::jit::CompileOptions;

namespace {

template <class T>
Tensor make(const std::vector<T> &values, std::vector<int64_t> shape,
            DType dtype) {
  Tensor t = Tensor::empty(dtype, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numel()), values.size());
  if constexpr (std::is_same_v<T, bool>) {
    auto *p = t.data<uint8_t>();
    for (size_t i = 0; i < values.size(); ++i)
      p[i] = values[i] ? 1 : 0;
  } else {
    std::memcpy(t.raw_data(), values.data(), values.size() * sizeof(T));
  }
  return t;
}

//===----------------------------------------------------------------------===//
// Device values and CPU tensors (no driver needed)
//===----------------------------------------------------------------------===//

TEST(Device, EqualityKindIndexAndPrinting) {
  EXPECT_EQ(Device(), Device::cpu());
  EXPECT_EQ(Device::cuda(), Device::cuda(0));
  EXPECT_NE(Device::cpu(), Device::cuda(0));
  EXPECT_NE(Device::cuda(0), Device::cuda(1));
  EXPECT_EQ(Device::cpu().kind(), DeviceKind::CPU);
  EXPECT_EQ(Device::cuda(3).kind(), DeviceKind::CUDA);
  EXPECT_EQ(Device::cuda(3).index(), 3);
  EXPECT_EQ(Device::cpu().index(), 0);
  EXPECT_TRUE(Device::cpu().is_cpu());
  EXPECT_FALSE(Device::cpu().is_cuda());
  EXPECT_TRUE(Device::cuda().is_cuda());
  EXPECT_EQ(Device::cpu().str(), "CPU:0");
  EXPECT_EQ(Device::cuda(0).str(), "CUDA:0");
  EXPECT_EQ(Device::cuda(2).str(), "CUDA:2");
  std::ostringstream os;
  os << Device::cuda() << " " << Device::cpu();
  EXPECT_EQ(os.str(), "CUDA:0 CPU:0");
  EXPECT_THROW(Device::cuda(-1), InvalidArgumentError);
}

TEST(Device, CpuTensorsAreOnTheCpuAndToCpuIsIdentity) {
  Tensor t = make<float>({1, 2, 3}, {3}, DType::Float32);
  EXPECT_EQ(t.device(), Device::cpu());
  Tensor same = t.to(Device::cpu());
  EXPECT_EQ(same.id(), t.id()); // the same tensor, not a copy
  EXPECT_EQ(same.raw_data(), t.raw_data());
  // Results of eager kernels and empty tensors too.
  EXPECT_EQ(kernels::add(t, t).device(), Device::cpu());
  Tensor empty = Tensor::empty(DType::Int32, {0, 4});
  EXPECT_EQ(empty.device(), Device::cpu());
  EXPECT_EQ(empty.to(Device::cpu()).id(), empty.id());
}

TEST(Device, UndefinedAndSymbolicTensorsAreErrors) {
  Tensor undefined;
  EXPECT_THROW(undefined.device(), InvalidArgumentError);
  EXPECT_THROW(undefined.to(Device::cpu()), InvalidArgumentError);
  struct Traced : SymbolicValue {
    std::string describe() const override { return "traced test"; }
  };
  Tensor symbolic =
      Tensor::symbolic(DType::Float32, {2}, std::make_shared<Traced>());
  EXPECT_EQ(symbolic.device(), Device::cpu());
  try {
    symbolic.to(Device::cuda());
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("symbolic"), std::string::npos)
        << e.what();
  }
}

TEST(Device, WithoutADriverToCudaThrowsAndAllocatesNothing) {
  if (cuda::driverAvailable())
    GTEST_SKIP() << "a CUDA driver and device are present";
  Tensor t = make<double>({1.5, -2.5}, {2}, DType::Float64);
  long live = cuda::liveAllocations();
  long made = cuda::managedAllocationsMade();
  size_t inUse = allocator::stats().bytesInUse;
  try {
    t.to(Device::cuda(0));
    FAIL() << "expected RuntimeError";
  } catch (const RuntimeError &e) {
    std::string msg = e.what();
    EXPECT_EQ(msg, "Tensor::to(CUDA:0): " + cuda::driverError());
    EXPECT_NE(msg.find("CUDA driver"), std::string::npos) << msg;
    // Where no libcuda.so.1 exists (the build machines), dlopen says so.
    if (cuda::driverError().find("was not found") != std::string::npos) {
      EXPECT_NE(msg.find("the CUDA driver (libcuda.so.1) was not found"),
                std::string::npos)
          << msg;
    }
  }
  EXPECT_EQ(cuda::liveAllocations(), live);
  EXPECT_EQ(cuda::managedAllocationsMade(), made);
  EXPECT_EQ(allocator::stats().bytesInUse, inUse);
  // The source is untouched and still usable.
  EXPECT_EQ(t.device(), Device::cpu());
  EXPECT_EQ(t.to_vector<double>(), (std::vector<double>{1.5, -2.5}));
  // Another index: still the driver's error first.
  EXPECT_THROW(t.to(Device::cuda(1)), RuntimeError);
}

//===----------------------------------------------------------------------===//
// Eager ops and CPU-compiled code given a CUDA tensor
//===----------------------------------------------------------------------===//

/// `t` on CUDA:0: a real copy where a driver exists; elsewhere host memory
/// labelled CUDA:0, which behaves like managed memory for host reads (the
/// code paths under test read it in place and never synchronize).
Tensor onCuda(const Tensor &t) {
  if (cuda::driverAvailable())
    return t.to(Device::cuda());
  size_t bytes = t.nbytes();
  void *p = std::malloc(bytes ? bytes : 1);
  std::memcpy(p, t.raw_data(), bytes);
  Storage *s = Storage::adopt(
      p, bytes, [](void *, void *ptr, size_t) { std::free(ptr); }, nullptr,
      Device::cuda());
  Tensor out = Tensor::from_storage(t.dtype(), t.shape(), s, p);
  s->release();
  return out;
}

TEST(Device, EagerOpsReadCudaTensorsAndReturnCpuTensors) {
  Tensor a = make<float>({1, 2, 3, 4}, {2, 2}, DType::Float32);
  Tensor b = make<float>({10, 20, 30, 40}, {2, 2}, DType::Float32);
  Tensor ca = onCuda(a);
  ASSERT_EQ(ca.device(), Device::cuda());
  // Mixed CPU and CUDA operands, and CUDA only.
  Tensor sum = kernels::add(ca, b);
  EXPECT_EQ(sum.device(), Device::cpu());
  EXPECT_EQ(sum.to_vector<float>(), (std::vector<float>{11, 22, 33, 44}));
  Tensor mm = kernels::matmul(ca, ca);
  EXPECT_EQ(mm.device(), Device::cpu());
  EXPECT_EQ(mm.to_vector<float>(), (std::vector<float>{7, 10, 15, 22}));
  Tensor red = kernels::reduce(kernels::ReduceKind::Sum, ca, {}, false);
  EXPECT_EQ(red.device(), Device::cpu());
  EXPECT_EQ(red.to_vector<float>(), (std::vector<float>{10}));
  // A reshape is a view: it keeps the storage, hence the device.
  Tensor view = kernels::reshape(ca, {4});
  EXPECT_EQ(view.device(), Device::cuda());
  EXPECT_EQ(view.storage(), ca.storage());
}

TEST(Device, CpuCompiledCodeReadsCudaArgumentsInPlace) {
  CompiledModule cpu = CompiledModule::from_source(R"mlir(
func.func @f(%a: tensor<3xf32>, %b: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %s = tfc.add %a, %b : tensor<3xf32>
  return %s, %a : tensor<3xf32>, tensor<3xf32>
}
)mlir");
  Tensor a = make<float>({1, 2, 3}, {3}, DType::Float32);
  Tensor b = make<float>({4, 5, 6}, {3}, DType::Float32);
  Tensor ca = onCuda(a);
  std::vector<Tensor> out = cpu.call("f", {ca, b});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].device(), Device::cpu());
  EXPECT_EQ(out[0].to_vector<float>(), (std::vector<float>{5, 7, 9}));
  // The argument returned as it is: a CPU copy, never the CUDA buffer.
  EXPECT_EQ(out[1].device(), Device::cpu());
  EXPECT_NE(out[1].raw_data(), ca.raw_data());
  EXPECT_EQ(out[1].to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

//===----------------------------------------------------------------------===//
// With a GPU
//===----------------------------------------------------------------------===//

constexpr const char *kModule = R"mlir(
func.func @scale(%a: tensor<?xf32>) -> tensor<?xf32> {
  %b = tfc.add %a, %a : tensor<?xf32>
  return %b : tensor<?xf32>
}
func.func @same(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
func.func @table() -> tensor<3xf32> {
  %c = tfc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  return %c : tensor<3xf32>
}
func.func @twice(%a: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %b = tfc.mul %a, %a : tensor<4xf64>
  return %b, %b : tensor<4xf64>, tensor<4xf64>
}
func.func @mixed(%a: tensor<5xf64>, %b: tensor<5xi32>) -> (tensor<5xi32>, tensor<5xi1>, tensor<5xf64>) {
  %c = tfc.add %b, %b : tensor<5xi32>
  %d = tfc.cast %a : tensor<5xf64> to tensor<5xi32>
  %p = tfc.cmp gt, %c, %d : tensor<5xi32>
  %e = tfc.neg %a : tensor<5xf64>
  return %c, %p, %e : tensor<5xi32>, tensor<5xi1>, tensor<5xf64>
}
)mlir";

// What can be checked of the GPU tests' programs here: they lower to PTX,
// and compiled for the CPU they agree with the interpreter.
TEST(Device, GpuTestProgramsLowerAndAgreeOnTheCpu) {
  CompileOptions options;
  options.target = Target::CUDA;
  gpu::PtxModule ptx = gpu::compile_to_ptx(kModule, options);
  EXPECT_FALSE(ptx.kernels.empty());
  CompiledModule cpu = CompiledModule::from_source(kModule);
  Tensor a = make<float>({1, -2, 3.5f}, {3}, DType::Float32);
  std::vector<std::pair<std::string, std::vector<Tensor>>> calls = {
      {"scale", {a}},
      {"same", {a}},
      {"table", {}},
      {"twice", {make<double>({1, 2, 3, -4}, {4}, DType::Float64)}},
      {"mixed",
       {make<double>({0.5, 3, -2, 9, 1}, {5}, DType::Float64),
        make<int32_t>({1, 1, -3, 4, 0}, {5}, DType::Int32)}},
  };
  for (const auto &[fn, args] : calls) {
    std::vector<Tensor> got = cpu.call(fn, args);
    std::vector<Tensor> want = jit::interpret(kModule, fn, args);
    ASSERT_EQ(got.size(), want.size()) << fn;
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_EQ(got[i].str(), want[i].str()) << fn << " result " << i;
  }
}

class CudaDevice : public ::testing::Test {
protected:
  void SetUp() override {
    if (!cuda::driverAvailable())
      GTEST_SKIP() << "no CUDA driver/device: " << cuda::driverError();
  }
  static const CompiledModule &module() {
    CompileOptions options;
    options.target = Target::CUDA;
    static CompiledModule m = CompiledModule::from_source(kModule, options);
    return m;
  }
  /// Runs `fn` on the GPU and in the interpreter; equal results, each on
  /// CUDA:0.
  std::vector<Tensor> expectLikeInterpreter(const std::string &fn,
                                            const std::vector<Tensor> &args) {
    std::vector<Tensor> got = module().call(fn, args);
    std::vector<Tensor> want = jit::interpret(kModule, fn, args);
    EXPECT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size() && i < want.size(); ++i) {
      EXPECT_EQ(got[i].device(), Device::cuda(0)) << fn << " result " << i;
      EXPECT_EQ(got[i].dtype(), want[i].dtype());
      EXPECT_EQ(got[i].shape(), want[i].shape());
      // Reading synchronizes; the printed text is the same as on the CPU.
      EXPECT_EQ(got[i].str(), want[i].str()) << fn << " result " << i;
      Tensor back = got[i].to(Device::cpu());
      EXPECT_EQ(back.device(), Device::cpu());
      EXPECT_EQ(back.str(), want[i].str());
    }
    return got;
  }
};

TEST_F(CudaDevice, RoundTripPreservesValuesForEveryDType) {
  long live = cuda::liveAllocations();
  {
    std::vector<Tensor> tensors = {
        make<float>({1.5f, -2.f, 3.25f, 0.f, 1e-7f, -1e30f}, {2, 3},
                    DType::Float32),
        make<double>({1.0 / 3, -2.5, 1e300}, {3}, DType::Float64),
        make<int32_t>({7, -8, 2147483647, -2147483647 - 1}, {2, 2},
                      DType::Int32),
        make<int64_t>({int64_t(1) << 40, -3}, {2}, DType::Int64),
        make<bool>({true, false, true}, {3}, DType::Bool),
        make<float>({42.f}, {}, DType::Float32),
        Tensor::empty(DType::Float32, {0, 3}),
    };
    for (const Tensor &t : tensors) {
      Tensor c = t.to(Device::cuda(0));
      EXPECT_EQ(c.device(), Device::cuda(0));
      EXPECT_EQ(c.dtype(), t.dtype());
      EXPECT_EQ(c.shape(), t.shape());
      EXPECT_EQ(c.to(Device::cuda()).id(), c.id()); // already there
      if (t.numel()) {
        EXPECT_NE(c.raw_data(), t.raw_data());
      }
      EXPECT_EQ(c.str(), t.str()); // read in place
      Tensor back = c.to(Device::cpu());
      EXPECT_EQ(back.device(), Device::cpu());
      EXPECT_EQ(back.shape(), t.shape());
      ASSERT_EQ(back.nbytes(), t.nbytes());
      EXPECT_EQ(std::memcmp(back.raw_data(), t.raw_data(), t.nbytes()), 0)
          << t.str();
    }
    Tensor c = tensors[1].to(Device::cuda());
    EXPECT_EQ(c.to_vector<double>(), tensors[1].to_vector<double>());
    EXPECT_EQ(tensors[5].to(Device::cuda()).item<float>(), 42.f);
    EXPECT_EQ(tensors[4].to(Device::cuda()).to_vector<bool>(),
              (std::vector<bool>{true, false, true}));
  }
  EXPECT_EQ(cuda::liveAllocations(), live) << "device memory leaked";
}

TEST_F(CudaDevice, ResultsStayOnTheDeviceAndMatchTheInterpreter) {
  Tensor a = make<float>({1, -2, 3.5f}, {3}, DType::Float32);
  expectLikeInterpreter("scale", {a});
  expectLikeInterpreter("table", {});
  std::vector<Tensor> twice = expectLikeInterpreter(
      "twice", {make<double>({1, 2, 3, -4}, {4}, DType::Float64)});
  ASSERT_EQ(twice.size(), 2u);
  EXPECT_EQ(twice[0].storage(), twice[1].storage()); // one buffer, one owner
  expectLikeInterpreter("mixed",
                        {make<double>({0.5, 3, -2, 9, 1}, {5}, DType::Float64),
                         make<int32_t>({1, 1, -3, 4, 0}, {5}, DType::Int32)});
  // An argument returned as it is.
  expectLikeInterpreter("same", {a});
}

TEST_F(CudaDevice, ACudaResultIsPassedBackWithoutACopy) {
  Tensor a = make<float>({1, 2, 3, 4}, {4}, DType::Float32);
  long live = cuda::liveAllocations();
  {
    Tensor r = module().call("scale", {a})[0];
    ASSERT_EQ(r.device(), Device::cuda());
    const void *data = r.raw_data();
    long made = cuda::managedAllocationsMade();
    Tensor r2 = module().call("scale", {r})[0];
    // No staging copy of the CUDA argument; the argument is untouched.
    EXPECT_EQ(cuda::managedAllocationsMade(), made);
    EXPECT_EQ(r.raw_data(), data);
    EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{2, 4, 6, 8}));
    EXPECT_EQ(r2.device(), Device::cuda());
    EXPECT_EQ(r2.to_vector<float>(), (std::vector<float>{4, 8, 12, 16}));
    // An argument returned as it is: the same memory when the compiled
    // code passes it through, else a fresh device buffer; equal either way.
    Tensor s = module().call("same", {r})[0];
    EXPECT_EQ(s.device(), Device::cuda());
    EXPECT_EQ(s.to_vector<float>(), r.to_vector<float>());
    // A CPU argument is copied to the device for the call.
    module().call("scale", {a});
    EXPECT_EQ(cuda::managedAllocationsMade(), made + 1);
    // Eager ops on CUDA results run on the CPU and return CPU tensors.
    Tensor e = kernels::add(r, a);
    EXPECT_EQ(e.device(), Device::cpu());
    EXPECT_EQ(e.to_vector<float>(), (std::vector<float>{3, 6, 9, 12}));
  }
  EXPECT_EQ(cuda::liveAllocations(), live) << "device memory leaked";
}

} // namespace
