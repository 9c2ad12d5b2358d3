//===- TensorTest.cpp - Tensor handles, item/to_vector, storage -----------===//

#include "TestUtil.h"

#include "tfc/runtime/Allocator.h"

#include <thread>

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

/// Destroyed after the thread-local pools at exit: must not crash.
Tensor gStaticTensor = kernels::full({3}, 1.0, DType::Float32);

struct FakeSymbolic : SymbolicValue {
  std::string describe() const override { return "traced tfc.mul"; }
};

TEST(Tensor, BasicsAndRefcounting) {
  EXPECT_EQ(gStaticTensor.to_vector<float>(), (std::vector<float>{1, 1, 1}));
  Tensor u;
  EXPECT_FALSE(u.defined());
  EXPECT_FALSE(u.is_symbolic());
  Tensor t = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  EXPECT_TRUE(t.defined());
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.rank(), 2);
  EXPECT_EQ(t.numel(), 6);
  EXPECT_EQ(t.nbytes(), 24u);
  Tensor c = t; // shares
  EXPECT_EQ(c.id(), t.id());
  Tensor m = std::move(c);
  EXPECT_FALSE(c.defined());
  EXPECT_EQ(m.id(), t.id());
  m = Tensor();
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  Tensor self = t;
  self = self; // self-assignment keeps the value
  EXPECT_EQ(self.id(), t.id());
}

TEST(Tensor, ItemAndToVectorEveryDType) {
  EXPECT_EQ(scalar(true).item<bool>(), true);
  EXPECT_EQ(scalar<int32_t>(-3).item<int32_t>(), -3);
  EXPECT_EQ(scalar<int64_t>(1ll << 40).item<int64_t>(), 1ll << 40);
  EXPECT_EQ(scalar(2.5f).item<float>(), 2.5f);
  EXPECT_EQ(scalar(-0.125).item<double>(), -0.125);
  EXPECT_EQ(make<float>({7}, {1, 1}).item<float>(), 7.f);
  EXPECT_EQ(make<bool>({true, false}, {2}).to_vector<bool>(),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(make<int32_t>({1, 2}, {2}).to_vector<int32_t>(),
            (std::vector<int32_t>{1, 2}));
  EXPECT_EQ(make<int64_t>({}, {0}).to_vector<int64_t>(), std::vector<int64_t>{});
  EXPECT_EQ(make<double>({1, 2}, {1, 2}).to_vector<double>(),
            (std::vector<double>{1, 2}));
}

TEST(Tensor, ItemErrors) {
  expectError<InvalidArgumentError>([] { make<float>({1, 2}, {2}).item<float>(); },
                                    {"item", "(2,)", "float32"});
  expectError<InvalidArgumentError>([] { scalar(1.f).item<double>(); },
                                    {"item", "float64", "float32", "()"});
  expectError<InvalidArgumentError>([] { make<int32_t>({}, {0}).item<int32_t>(); },
                                    {"item", "(0,)", "int32"});
  expectError<InvalidArgumentError>(
      [] { make<int32_t>({1}, {1}).to_vector<int64_t>(); },
      {"to_vector", "int64", "int32"});
  expectError<InvalidArgumentError>([] { Tensor().item<float>(); }, {"undefined"});
  expectError<InvalidArgumentError>([] { (void)Tensor().shape(); }, {"undefined"});
}

TEST(Tensor, SymbolicTensors) {
  auto sym = std::make_shared<FakeSymbolic>();
  Tensor s = Tensor::symbolic(DType::Float32, {2, 2}, sym);
  EXPECT_TRUE(s.is_symbolic());
  EXPECT_EQ(s.symbolic_value(), sym.get());
  EXPECT_EQ(s.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(s.numel(), 4);
  expectError<InvalidArgumentError>(
      [&] { s.item<float>(); },
      {"symbolic tensor", "only available at run time", "(2, 2)", "float32"});
  expectError<InvalidArgumentError>([&] { s.to_vector<float>(); },
                                    {"is a symbolic tensor", "only available at run time"});
  expectError<InvalidArgumentError>([&] { s.raw_data(); },
                                    {"symbolic tensor", "only available at run time"});
  expectError<InvalidArgumentError>([&] { k::add(s, s); },
                                    {"add", "symbolic tensor", "only available at run time"});
  Tensor dyn = Tensor::symbolic(DType::Int32, {-1, 3}, sym);
  EXPECT_EQ(dyn.numel(), -1);
}

TEST(Tensor, EmptyFromStorageAndRawData) {
  Tensor e = Tensor::empty(DType::Float64, {3, 0});
  EXPECT_EQ(e.numel(), 0);
  EXPECT_NE(e.raw_data(), nullptr);
  Tensor t = Tensor::empty(DType::Int32, {4});
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.raw_data()) % 64, 0u);
  int32_t *p = t.data<int32_t>();
  for (int i = 0; i < 4; ++i)
    p[i] = i * 10;
  // A view on elements 1..2 sharing the storage.
  Tensor v = Tensor::from_storage(DType::Int32, {2}, t.storage(), p + 1);
  EXPECT_EQ(v.to_vector<int32_t>(), (std::vector<int32_t>{10, 20}));
  EXPECT_EQ(v.storage(), t.storage());
  t = Tensor(); // the view keeps the storage alive
  EXPECT_EQ(v.to_vector<int32_t>(), (std::vector<int32_t>{10, 20}));
  expectError<InvalidArgumentError>(
      [&] { Tensor::from_storage(DType::Int64, {3}, v.storage(), v.raw_data()); },
      {"from_storage", "(3,)", "int64"});
  expectError<InvalidArgumentError>(
      [] { Tensor::empty(DType::Float32, {2, -1}); }, {"empty", "(2, -1)"});
}

struct DeleterLog {
  int calls = 0;
  void *ptr = nullptr;
  size_t bytes = 0;
};

TEST(Tensor, AdoptForeignMemory) {
  static float buffer[4] = {1, 2, 3, 4};
  DeleterLog log;
  {
    Storage *s = Storage::adopt(
        buffer, sizeof(buffer),
        [](void *ctx, void *ptr, size_t bytes) {
          auto *l = static_cast<DeleterLog *>(ctx);
          ++l->calls;
          l->ptr = ptr;
          l->bytes = bytes;
        },
        &log);
    Tensor t = Tensor::from_storage(DType::Float32, {2, 2}, s, buffer);
    s->release(); // the tensor holds its own reference
    EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));
    EXPECT_EQ(log.calls, 0);
  }
  EXPECT_EQ(log.calls, 1);
  EXPECT_EQ(log.ptr, buffer);
  EXPECT_EQ(log.bytes, sizeof(buffer));
}

TEST(Tensor, AdoptAllocatedFromJitAllocator) {
  auto *p = static_cast<double *>(tfc_rt_alloc(3 * sizeof(double)));
  ASSERT_NE(p, nullptr);
  p[0] = 1;
  p[1] = 2;
  p[2] = 3;
  size_t inUse = allocator::stats().bytesInUse;
  {
    Storage *s = Storage::adopt_allocated(p, 3 * sizeof(double));
    Tensor t = Tensor::from_storage(DType::Float64, {3}, s, p);
    s->release();
    EXPECT_EQ(t.to_vector<double>(), (std::vector<double>{1, 2, 3}));
    expectError<InvalidArgumentError>(
        [&] { Storage::adopt_allocated(p, 8); }, {"already backs a tensor"});
  }
  // The block went back to the allocator.
  EXPECT_LT(allocator::stats().bytesInUse, inUse);
  alignas(64) static char foreign[256];
  expectError<InvalidArgumentError>(
      [] { Storage::adopt_allocated(foreign + 64, 8); }, {"not allocated by tfc_rt_alloc"});
  void *q = tfc_rt_alloc(16);
  expectError<InvalidArgumentError>([&] { Storage::adopt_allocated(q, 1 << 20); },
                                    {"capacity"});
  tfc_rt_free(q);
}

TEST(Tensor, HandlesCrossThreads) {
  Tensor t = make<float>({1, 2, 3}, {3});
  std::vector<std::thread> threads;
  std::vector<float> sums(4, 0);
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([t, i, &sums] {
      for (int r = 0; r < 2000; ++r) {
        Tensor copy = t;
        Tensor y = k::add(copy, copy);
        sums[i] += y.to_vector<float>()[2];
      }
    });
  for (auto &th : threads)
    th.join();
  for (float s : sums)
    EXPECT_EQ(s, 12000.f);
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{1, 2, 3}));
}

TEST(Tensor, ImplsAreRecycled) {
  // A freed handle's impl returns to the pool and is handed out again.
  const void *first;
  {
    Tensor a = make<float>({1}, {1});
    first = a.id();
  }
  Tensor b = make<float>({2}, {1});
  EXPECT_EQ(b.id(), first);
  EXPECT_EQ(b.to_vector<float>(), std::vector<float>{2});
}

} // namespace
