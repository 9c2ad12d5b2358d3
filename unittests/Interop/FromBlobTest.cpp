//===- FromBlobTest.cpp - tfc::from_blob: tensors over the caller's memory ===//
#include <tfc/tfc.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "TestCacheDir.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <thread>

using namespace tfc;
using ::testing::HasSubstr;

namespace {

TFC_TEST_PRIVATE_CACHE_DIR("tfc-interop-tests");

/// Expects `f` to throw InvalidArgumentError whose message contains `part`.
template <class F> void expectInvalid(F &&f, const std::string &part) {
  try {
    f();
    ADD_FAILURE() << "no exception; expected one containing: " << part;
  } catch (const InvalidArgumentError &e) {
    EXPECT_THAT(e.what(), HasSubstr(part));
  }
}

TEST(FromBlob, ViewsTheMemoryWithoutCopying) {
  std::vector<float> buf = {1, 2, 3, 4, 5, 6};
  Tensor t = from_blob(buf.data(), {2, 3}, DType::Float32);
  EXPECT_EQ(t.raw_data(), buf.data());
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.dtype(), DType::Float32);
  EXPECT_EQ(t.device(), Device::cpu());
  EXPECT_EQ(t.to_vector<float>(), buf);
  // A reshape view shares the same memory.
  Tensor r = reshape(t, {3, 2});
  EXPECT_EQ(r.raw_data(), buf.data());
  EXPECT_EQ(r.to_vector<float>(), buf);
}

TEST(FromBlob, EveryDType) {
  int32_t i32[] = {-1, 7};
  int64_t i64[] = {int64_t(1) << 40, -3};
  double f64[] = {0.5, -2.25};
  bool b[] = {true, false, true};
  EXPECT_EQ(from_blob(i32, {2}, DType::Int32).to_vector<int32_t>(),
            (std::vector<int32_t>{-1, 7}));
  EXPECT_EQ(from_blob(i64, {2}, DType::Int64).to_vector<int64_t>(),
            (std::vector<int64_t>{int64_t(1) << 40, -3}));
  EXPECT_EQ(from_blob(f64, {2, 1}, DType::Float64).to_vector<double>(),
            (std::vector<double>{0.5, -2.25}));
  EXPECT_EQ(from_blob(b, {3}, DType::Bool).to_vector<bool>(),
            (std::vector<bool>{true, false, true}));
  double scalar = 4.5;
  EXPECT_EQ(from_blob(&scalar, {}, DType::Float64).item<double>(), 4.5);
}

TEST(FromBlob, DeleterRunsOnceWhenTheLastHandleDies) {
  auto *buf = new float[4]{1, 2, 3, 4};
  int calls = 0;
  void *freed = nullptr;
  std::optional<Tensor> t = from_blob(buf, {4}, DType::Float32, [&](void *p) {
    ++calls;
    freed = p;
    delete[] static_cast<float *>(p);
  });
  std::optional<Tensor> copy = *t;
  std::optional<Tensor> view = reshape(*t, {2, 2});
  Tensor sum = *t + *t; // a fresh buffer: does not keep `buf` alive
  t.reset();
  copy.reset();
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(view->to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));
  view.reset();
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(freed, static_cast<void *>(buf));
  EXPECT_EQ(sum.to_vector<float>(), (std::vector<float>{2, 4, 6, 8}));
  EXPECT_EQ(calls, 1);
}

TEST(FromBlob, DeleterRunsOnTheThreadThatDropsTheLastHandle) {
  std::vector<int32_t> buf = {1, 2, 3};
  std::atomic<int> calls{0};
  std::thread::id where;
  Tensor t = from_blob(buf.data(), {3}, DType::Int32, [&](void *) {
    ++calls;
    where = std::this_thread::get_id();
  });
  std::thread th([t = std::move(t)]() mutable {
    EXPECT_EQ(t.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 3}));
    t = Tensor();
  });
  std::thread::id other = th.get_id();
  th.join();
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(where, other);
}

TEST(FromBlob, EagerOpsReadItAndLeaveItUnchanged) {
  std::vector<float> a = {1, 2, 3, 4, 5, 6};
  std::vector<float> b = {10, 20, 30};
  Tensor x = from_blob(a.data(), {2, 3}, DType::Float32);
  Tensor y = from_blob(b.data(), {3}, DType::Float32);
  Tensor s = x + y; // broadcasting add
  EXPECT_EQ(s.to_vector<float>(), (std::vector<float>{11, 22, 33, 14, 25, 36}));
  EXPECT_NE(s.raw_data(), a.data());
  EXPECT_EQ(reduce_sum(x).item<float>(), 21.f);
  EXPECT_EQ(matmul(x, reshape(y, {3, 1})).to_vector<float>(),
            (std::vector<float>{140, 320}));
  EXPECT_EQ(a, (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(b, (std::vector<float>{10, 20, 30}));
}

TEST(FromBlob, GradientOfAFromBlobTensor) {
  std::vector<float> a = {1, 2, 3};
  Tensor x = from_blob(a.data(), {3}, DType::Float32);
  GradientTape tape;
  tape.watch(x);
  Tensor y = reduce_sum(x * x);
  Tensor g = tape.gradient(y, x);
  EXPECT_EQ(g.to_vector<float>(), (std::vector<float>{2, 4, 6}));
  EXPECT_EQ(a, (std::vector<float>{1, 2, 3}));
}

TEST(FromBlob, FunctionCallReadsItInPlace) {
  std::vector<float> a = {1, 2, 3, 4};
  std::vector<float> b = {0.5f, 0.5f, 2, 2};
  int calls = 0;
  auto f = function(
      [](const Tensor &x, const Tensor &y) { return matmul(x, y) + x; });
  {
    Tensor x =
        from_blob(a.data(), {2, 2}, DType::Float32, [&](void *) { ++calls; });
    Tensor y = from_blob(b.data(), {2, 2}, DType::Float32);
    Tensor r = f(x, y);
    // [[1,2],[3,4]] @ [[.5,.5],[2,2]] = [[4.5,4.5],[9.5,9.5]]
    EXPECT_EQ(r.to_vector<float>(),
              (std::vector<float>{5.5f, 6.5f, 12.5f, 13.5f}));
    // A second call with other memory of the same signature reuses the trace.
    std::vector<float> c = {0, 0, 0, 0};
    Tensor r2 = f(from_blob(c.data(), {2, 2}, DType::Float32), y);
    EXPECT_EQ(r2.to_vector<float>(), (std::vector<float>{0, 0, 0, 0}));
    EXPECT_EQ(f.tracing_count(), 1);
    EXPECT_EQ(calls, 0);
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(a, (std::vector<float>{1, 2, 3, 4}));
}

TEST(FromBlob, FunctionResultThatIsTheArgumentIsACopy) {
  // The compiled code returns its argument's buffer: the result must not
  // alias the caller's memory (which the caller may free after the call).
  std::vector<int64_t> a = {1, 2, 3, 4, 5, 6};
  auto f = function([](const Tensor &x) { return reshape(x, {3, 2}); });
  Tensor r;
  {
    Tensor x = from_blob(a.data(), {2, 3}, DType::Int64);
    r = f(x);
  }
  EXPECT_NE(r.raw_data(), static_cast<void *>(a.data()));
  a.assign(6, 0);
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(r.to_vector<int64_t>(), (std::vector<int64_t>{1, 2, 3, 4, 5, 6}));
}

TEST(FromBlob, EmptyTensorsMayHaveANullPointer) {
  Tensor t = from_blob(nullptr, {0, 3}, DType::Float32);
  EXPECT_EQ(t.numel(), 0);
  EXPECT_EQ((t + 1.f).shape(), (std::vector<int64_t>{0, 3}));
  int calls = 0;
  {
    Tensor u = from_blob(nullptr, {0}, DType::Int32, [&](void *p) {
      EXPECT_EQ(p, nullptr);
      ++calls;
    });
  }
  EXPECT_EQ(calls, 1);
}

TEST(FromBlob, Errors) {
  float buf[4] = {};
  int calls = 0;
  auto count = [&](void *) { ++calls; };
  expectInvalid(
      [&] {
        from_blob(nullptr, {2, 3}, DType::Float32, count);
      },
      "from_blob: null data pointer for shape (2, 3) of dtype "
      "float32 (6 elements)");
  expectInvalid(
      [&] {
        from_blob(buf, {2, -1}, DType::Float32, count);
      },
      "from_blob: invalid shape (2, -1): dimensions must be >= 0");
  expectInvalid(
      [&] {
        from_blob(buf, {int64_t(1) << 40, int64_t(1) << 40}, DType::Float32,
                  count);
      },
      "from_blob: shape (1099511627776, 1099511627776) of dtype float32 is "
      "too large");
  // Misaligned: one byte into a float buffer.
  char *odd = reinterpret_cast<char *>(buf) + 1;
  expectInvalid([&] { from_blob(odd, {2}, DType::Float32, count); },
                "is not aligned to 4 bytes (the size of one element)");
  expectInvalid(
      [&] {
        from_blob(reinterpret_cast<char *>(buf) + 4, {1}, DType::Float64,
                  count);
      },
      "of the float64 tensor of shape (1,) is not aligned to 8 bytes");
  // Bool and other one-byte data has no alignment requirement.
  bool flags[3] = {true, true, false};
  EXPECT_EQ(from_blob(flags + 1, {2}, DType::Bool).to_vector<bool>(),
            (std::vector<bool>{true, false}));
  // On error nothing was taken over: the deleter never ran.
  EXPECT_EQ(calls, 0);
}

TEST(FromBlob, UserGuideExample) {
  // docs/user-guide.md, "Interop: from_blob and DLPack".
  std::vector<float> pixels(480 * 640, 2.f);
  Tensor img = from_blob(pixels.data(), {480, 640}, DType::Float32);
  Tensor small = img * 0.5f;
  EXPECT_EQ(img.raw_data(), pixels.data());
  EXPECT_EQ(reduce_sum(small).item<float>(), 480.f * 640.f);
  static int freed = 0;
  {
    float *buf = static_cast<float *>(std::malloc(6 * sizeof(float)));
    Tensor owned = from_blob(buf, {2, 3}, DType::Float32, [](void *p) {
      std::free(p);
      ++freed;
    });
    EXPECT_EQ(owned.raw_data(), buf);
  }
  EXPECT_EQ(freed, 1);
}

} // namespace
