//===- DLPackTest.cpp - to_dlpack / from_dlpack ---------------------------===//
#include <tfc/runtime/DLPack.h>
#include <tfc/tfc.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

using namespace tfc;
using ::testing::HasSubstr;

namespace {

/// A hand-built producer: a DLManagedTensor over `data` whose deleter
/// counts its calls (and frees only this struct).
struct Producer {
  DLManagedTensor managed{};
  std::vector<int64_t> shape, strides;
  int deleted = 0;

  Producer(void *data, std::vector<int64_t> shapeIn, DLDataType dtype,
           std::vector<int64_t> stridesIn = {}, DLDevice device = {kDLCPU, 0},
           uint64_t byteOffset = 0)
      : shape(std::move(shapeIn)), strides(std::move(stridesIn)) {
    DLTensor &t = managed.dl_tensor;
    t.data = data;
    t.device = device;
    t.ndim = static_cast<int>(shape.size());
    t.dtype = dtype;
    t.shape = shape.empty() ? nullptr : shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = byteOffset;
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor *self) {
      ++static_cast<Producer *>(self->manager_ctx)->deleted;
    };
  }
};

constexpr DLDataType kF32{kDLFloat, 32, 1};

/// Expects from_dlpack(src) to throw E with `part` in its message and to
/// leave `src` untouched (its deleter not called).
template <class E = InvalidArgumentError>
void expectRejected(Producer &p, const std::string &part) {
  try {
    from_dlpack(&p.managed);
    ADD_FAILURE() << "no exception; expected one containing: " << part;
  } catch (const E &e) {
    EXPECT_THAT(e.what(), HasSubstr(part));
  }
  EXPECT_EQ(p.deleted, 0) << part;
}

bool cudaDriverPresent() {
  try {
    constant(1.f).to(Device::cuda());
    return true;
  } catch (const RuntimeError &) {
    return false;
  }
}

TEST(DLPack, ExportDescribesTheTensorWithoutCopying) {
  Tensor t = constant({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  DLManagedTensor *m = to_dlpack(t);
  const DLTensor &dl = m->dl_tensor;
  EXPECT_EQ(dl.data, t.raw_data());
  EXPECT_EQ(dl.device.device_type, kDLCPU);
  EXPECT_EQ(dl.device.device_id, 0);
  ASSERT_EQ(dl.ndim, 2);
  EXPECT_EQ(dl.shape[0], 2);
  EXPECT_EQ(dl.shape[1], 3);
  ASSERT_NE(dl.strides, nullptr);
  EXPECT_EQ(dl.strides[0], 3);
  EXPECT_EQ(dl.strides[1], 1);
  EXPECT_EQ(dl.byte_offset, 0u);
  EXPECT_EQ(dl.dtype.code, kDLFloat);
  EXPECT_EQ(dl.dtype.bits, 32);
  EXPECT_EQ(dl.dtype.lanes, 1);
  ASSERT_NE(m->deleter, nullptr);
  m->deleter(m);
}

TEST(DLPack, ExportedDTypes) {
  auto code = [](const Tensor &t) {
    DLManagedTensor *m = to_dlpack(t);
    DLDataType d = m->dl_tensor.dtype;
    m->deleter(m);
    return std::vector<int>{d.code, d.bits, d.lanes};
  };
  EXPECT_EQ(code(constant(true)), (std::vector<int>{kDLPackBool, 8, 1}));
  EXPECT_EQ(code(constant(int32_t(1))), (std::vector<int>{kDLInt, 32, 1}));
  EXPECT_EQ(code(constant(int64_t(1))), (std::vector<int>{kDLInt, 64, 1}));
  EXPECT_EQ(code(constant(1.f)), (std::vector<int>{kDLFloat, 32, 1}));
  EXPECT_EQ(code(constant(1.0)), (std::vector<int>{kDLFloat, 64, 1}));
}

TEST(DLPack, ExportKeepsTheDataAliveUntilTheConsumersDeleter) {
  std::vector<double> buf = {1, 2, 3};
  int freed = 0;
  std::optional<Tensor> t =
      from_blob(buf.data(), {3}, DType::Float64, [&](void *) { ++freed; });
  DLManagedTensor *m = to_dlpack(*t);
  t.reset();
  EXPECT_EQ(freed, 0);
  EXPECT_EQ(static_cast<double *>(m->dl_tensor.data)[2], 3.0);
  m->deleter(m);
  EXPECT_EQ(freed, 1);
}

TEST(DLPack, RoundTripSharesMemoryAndFreesOnce) {
  for (DType dtype : {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                      DType::Float64}) {
    SCOPED_TRACE(std::string(to_string(dtype)));
    alignas(64) unsigned char buf[6 * 8] = {};
    for (int i = 0; i < 6; ++i) // bool wants 0/1; the rest any bit pattern
      buf[i * dtype_size(dtype)] = i % 2;
    int freed = 0;
    std::optional<Tensor> t =
        from_blob(buf, {2, 3}, dtype, [&](void *) { ++freed; });
    std::string text = t->str();
    std::optional<Tensor> u = from_dlpack(to_dlpack(*t));
    EXPECT_EQ(u->raw_data(), static_cast<void *>(buf));
    EXPECT_EQ(u->dtype(), dtype);
    EXPECT_EQ(u->shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(u->str(), text);
    t.reset();
    EXPECT_EQ(freed, 0);
    Tensor v = reshape(*u, {6});
    u.reset();
    EXPECT_EQ(freed, 0);
    v = Tensor();
    EXPECT_EQ(freed, 1);
  }
}

TEST(DLPack, ImportHonoursByteOffsetAndCompactStrides) {
  float buf[10] = {0, 0, 1, 2, 3, 4, 5, 6, 0, 0};
  Producer p(buf, {2, 3}, kF32, {3, 1}, {kDLCPU, 0}, 2 * sizeof(float));
  {
    Tensor t = from_dlpack(&p.managed);
    EXPECT_EQ(t.raw_data(), static_cast<void *>(buf + 2));
    EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
    EXPECT_EQ((t * 2.f).to_vector<float>(),
              (std::vector<float>{2, 4, 6, 8, 10, 12}));
    EXPECT_EQ(p.deleted, 0);
  }
  EXPECT_EQ(p.deleted, 1);
}

TEST(DLPack, ImportIgnoresTheStrideOfSizeOneDims) {
  // PyTorch gives size-1 dims arbitrary strides; the layout is still compact.
  int64_t buf[3] = {7, 8, 9};
  Producer p(buf, {1, 3, 1}, {kDLInt, 64, 1}, {99, 1, 42});
  Tensor t = from_dlpack(&p.managed);
  EXPECT_EQ(t.raw_data(), static_cast<void *>(buf));
  EXPECT_EQ(t.to_vector<int64_t>(), (std::vector<int64_t>{7, 8, 9}));
  t = Tensor();
  EXPECT_EQ(p.deleted, 1);
}

TEST(DLPack, ImportCopiesNonCompactStrides) {
  // A transposed view: 3x2 over a 2x3 row-major buffer.
  int32_t buf[6] = {1, 2, 3, 4, 5, 6};
  Producer p(buf, {3, 2}, {kDLInt, 32, 1}, {1, 3});
  Tensor t = from_dlpack(&p.managed);
  EXPECT_EQ(p.deleted, 1); // released at once: the copy does not need it
  EXPECT_NE(t.raw_data(), static_cast<void *>(buf));
  EXPECT_EQ(t.to_vector<int32_t>(), (std::vector<int32_t>{1, 4, 2, 5, 3, 6}));
  // Negative strides (NumPy's x[::-1]) and a byte offset.
  Producer q(buf, {2, 2}, {kDLInt, 32, 1}, {-3, -1}, {kDLCPU, 0},
             5 * sizeof(int32_t));
  EXPECT_EQ(from_dlpack(&q.managed).to_vector<int32_t>(),
            (std::vector<int32_t>{6, 5, 3, 2}));
  EXPECT_EQ(q.deleted, 1);
}

TEST(DLPack, ImportScalarsEmptyTensorsPinnedHostMemory) {
  double x = 2.5;
  Producer s(&x, {}, {kDLFloat, 64, 1});
  EXPECT_EQ(from_dlpack(&s.managed).item<double>(), 2.5);
  EXPECT_EQ(s.deleted, 1);
  Producer e(nullptr, {0, 4}, kF32);
  Tensor t = from_dlpack(&e.managed);
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(reduce_sum(t).item<float>(), 0.f);
  float pinned[2] = {1, 2};
  Producer h(pinned, {2}, kF32, {}, {kDLCUDAHost, 0});
  Tensor ht = from_dlpack(&h.managed);
  EXPECT_EQ(ht.device(), Device::cpu());
  EXPECT_EQ(ht.raw_data(), static_cast<void *>(pinned));
  // A null deleter is allowed: nothing to call.
  Producer n(pinned, {2}, kF32);
  n.managed.deleter = nullptr;
  EXPECT_EQ(from_dlpack(&n.managed).to_vector<float>(),
            (std::vector<float>{1, 2}));
}

TEST(DLPack, ImportedTensorsWorkInFunctions) {
  float a[4] = {1, 2, 3, 4};
  Producer p(a, {4}, kF32);
  auto f = function([](const Tensor &x) { return x * x + 1.f; });
  {
    Tensor t = from_dlpack(&p.managed);
    EXPECT_EQ(f(t).to_vector<float>(), (std::vector<float>{2, 5, 10, 17}));
  }
  EXPECT_EQ(p.deleted, 1);
}

TEST(DLPack, ImportErrorsLeaveOwnershipWithTheCaller) {
  alignas(16) float buf[8] = {};
  {
    Producer p(buf, {2}, {kDLUInt, 8, 1});
    expectRejected(p, "from_dlpack: unsupported dtype kDLUInt with 8 bits; "
                      "tfc supports kDLBool 8 (bool)");
  }
  {
    Producer p(buf, {2}, {kDLFloat, 16, 1});
    expectRejected(p, "unsupported dtype kDLFloat with 16 bits");
  }
  {
    Producer p(buf, {2}, {kDLBfloat, 16, 1});
    expectRejected(p, "unsupported dtype kDLBfloat with 16 bits");
  }
  {
    Producer p(buf, {2}, {kDLPackBool, 1, 1});
    expectRejected(p, "unsupported dtype kDLBool with 1 bits");
  }
  {
    Producer p(buf, {2}, {kDLFloat, 32, 4});
    expectRejected(p, "vector dtypes are not supported: kDLFloat 32 bits has "
                      "4 lanes (tfc needs 1)");
  }
  {
    Producer p(buf, {2}, kF32, {}, {kDLCUDA, 0});
    expectRejected(p, "from_dlpack: unsupported device kDLCUDA:0: tfc's CUDA "
                      "tensors are CUDA managed memory (kDLCUDAManaged)");
  }
  {
    Producer p(buf, {2}, kF32, {}, {kDLOpenCL, 1});
    expectRejected(p, "unsupported device kDLOpenCL:1; tfc supports kDLCPU, "
                      "kDLCUDAHost and kDLCUDAManaged");
  }
  {
    Producer p(buf, {2}, kF32, {}, {kDLROCM, 0});
    expectRejected(p, "unsupported device kDLROCM:0");
  }
  {
    Producer p(buf, {2}, kF32, {}, {static_cast<DLDeviceType>(99), 0});
    expectRejected(p, "unsupported device DLDeviceType(99):0");
  }
  {
    Producer p(buf, {2, -3}, kF32);
    expectRejected(p, "from_dlpack: invalid shape (2, -3): dimensions must "
                      "be >= 0");
  }
  {
    Producer p(nullptr, {2}, kF32);
    expectRejected(p, "from_dlpack: null data pointer for shape (2,) of "
                      "dtype float32 (2 elements)");
  }
  {
    Producer p(buf, {2}, kF32, {}, {kDLCPU, 0}, 2);
    expectRejected(p, "of the float32 tensor of shape (2,) is not aligned to "
                      "4 bytes");
  }
  {
    Producer p(buf, {2}, kF32);
    p.managed.dl_tensor.ndim = -1;
    expectRejected(p, "from_dlpack: negative ndim -1");
  }
  {
    Producer p(buf, {2}, kF32);
    p.managed.dl_tensor.shape = nullptr;
    expectRejected(p, "from_dlpack: null shape for ndim 1");
  }
  EXPECT_THROW(from_dlpack(nullptr), InvalidArgumentError);
}

TEST(DLPack, ExportErrors) {
  try {
    to_dlpack(Tensor());
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgumentError &e) {
    EXPECT_THAT(e.what(),
                HasSubstr("to_dlpack: operand is an undefined tensor"));
  }
  // A symbolic tensor (inside a trace) has no memory to share.
  std::string message;
  auto f = function([&](const Tensor &x) {
    try {
      to_dlpack(x);
    } catch (const InvalidArgumentError &e) {
      message = e.what();
    }
    return x + 1.f;
  });
  f(constant(1.f));
  EXPECT_THAT(message, HasSubstr("to_dlpack: operand of shape () and dtype "
                                 "float32 is a symbolic tensor"));
}

TEST(DLPack, CudaManagedMemory) {
  float buf[2] = {1, 2};
  if (!cudaDriverPresent()) {
    // Host memory claiming to be managed: refused before anything is owned.
    Producer p(buf, {2}, kF32, {}, {kDLCUDAManaged, 0});
    expectRejected<RuntimeError>(
        p, "from_dlpack: a kDLCUDAManaged:0 tensor needs the CUDA driver");
    GTEST_SKIP() << "no CUDA driver: the device round trip is not run";
  }
  Tensor t = constant({1.f, 2.f, 3.f}).to(Device::cuda());
  DLManagedTensor *m = to_dlpack(t);
  EXPECT_EQ(m->dl_tensor.device.device_type, kDLCUDAManaged);
  EXPECT_EQ(m->dl_tensor.device.device_id, 0);
  EXPECT_EQ(m->dl_tensor.data, t.raw_data());
  Tensor u = from_dlpack(m);
  EXPECT_EQ(u.device(), Device::cuda());
  EXPECT_EQ(u.raw_data(), t.raw_data());
  EXPECT_EQ(u.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(DLPack, UserGuideExample) {
  // docs/user-guide.md, "Interop": a consumer that is tfc itself.
  std::vector<float> pixels(4 * 5, 1.f);
  Tensor img = from_blob(pixels.data(), {4, 5}, DType::Float32);
  DLManagedTensor *m = to_dlpack(img);
  Tensor back = from_dlpack(m);
  EXPECT_EQ(back.raw_data(), pixels.data());
  EXPECT_EQ(reduce_sum(back).item<float>(), 20.f);
}

#if !TFC_HAVE_TORCH
TEST(DLPack, TorchRoundTrip) {
  GTEST_SKIP() << "libtorch (Debian: libtorch-dev) was not found when CMake "
                  "ran: TfcTorchInteropTests, the round trip through "
                  "at::toDLPack / at::fromDLPack, is not built";
}
#endif

} // namespace
