//===- AllocatorTest.cpp - The caching allocator --------------------------===//

#include "TestUtil.h"

#include "tfc/runtime/Allocator.h"

#include <cstring>
#include <thread>

using namespace tfc;
namespace a = tfc::allocator;

namespace {

/// Restores the cache limit a test changes.
struct LimitGuard {
  size_t saved = a::cache_limit();
  ~LimitGuard() { a::set_cache_limit(saved); }
};

TEST(Allocator, SizeClasses) {
  EXPECT_EQ(a::round_size(0), 64u);
  EXPECT_EQ(a::round_size(1), 64u);
  EXPECT_EQ(a::round_size(64), 64u);
  EXPECT_EQ(a::round_size(65), 128u);
  EXPECT_EQ(a::round_size(4096), 4096u);
  EXPECT_EQ(a::round_size(4097), 5120u);       // 4096 * 5/4
  EXPECT_EQ(a::round_size(6000), 6144u);       // 4096 * 6/4
  EXPECT_EQ(a::round_size(1 << 20), 1u << 20); // powers of two are exact
  EXPECT_EQ(a::round_size((1 << 20) + 1), (1u << 20) + (1u << 18));
  EXPECT_EQ(a::round_size(size_t(64) << 20), size_t(64) << 20);
  for (size_t s : {size_t(1000), size_t(70000), size_t(3) << 20, size_t(12345678)}) {
    EXPECT_GE(a::round_size(s), s);
    EXPECT_LE(a::round_size(s), s + s / 4 + 64);
  }
}

TEST(Allocator, AlignmentAndCapacity) {
  for (size_t s : {size_t(0), size_t(1), size_t(100), size_t(5000),
                   size_t(1) << 20, size_t(5) << 20}) {
    void *p = a::allocate(s);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u) << s;
    EXPECT_TRUE(a::owns(p));
    EXPECT_EQ(a::block_capacity(p), a::round_size(s));
    std::memset(p, 0xab, s); // the whole request is writable
    a::deallocate(p);
  }
  void *c = tfc_rt_alloc(24);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c) % 64, 0u);
  tfc_rt_free(c);
  tfc_rt_free(nullptr); // no-op
  a::deallocate(nullptr);
  EXPECT_FALSE(a::owns(nullptr));
  EXPECT_EQ(tfc_rt_alloc(size_t(1) << 62), nullptr); // too big: null, no throw
  EXPECT_THROW(a::allocate(size_t(1) << 62), RuntimeError);
}

TEST(Allocator, FreedBufferIsReused) {
  for (size_t bytes : {size_t(256), size_t(100000), size_t(8) << 20}) {
    void *p = a::allocate(bytes);
    a::deallocate(p);
    a::Stats before = a::stats();
    void *q = a::allocate(bytes);
    a::Stats after = a::stats();
    EXPECT_EQ(q, p) << bytes;
    EXPECT_EQ(after.hits, before.hits + 1) << bytes;
    EXPECT_EQ(after.misses, before.misses) << bytes;
    EXPECT_GE(before.bytesCached, a::round_size(bytes));
    a::deallocate(q);
  }
  // Through tensors too: a freed tensor's buffer backs the next one.
  void *data;
  {
    Tensor t = Tensor::empty(DType::Float32, {1000, 100});
    data = t.raw_data();
  }
  Tensor u = Tensor::empty(DType::Float32, {100, 1000});
  EXPECT_EQ(u.raw_data(), data);
}

TEST(Allocator, CapIsRespected) {
  LimitGuard guard;
  a::empty_cache();
  a::set_cache_limit(1 << 20);
  EXPECT_EQ(a::cache_limit(), size_t(1) << 20);
  std::vector<void *> blocks;
  for (int i = 0; i < 12; ++i)
    blocks.push_back(a::allocate(256 << 10));
  for (void *p : blocks)
    a::deallocate(p);
  a::Stats s = a::stats();
  EXPECT_LE(s.bytesCached, size_t(1) << 20);
  EXPECT_GT(s.bytesCached, 0u);
  // A block bigger than the cap is never cached.
  size_t cached = s.bytesCached;
  a::deallocate(a::allocate(4 << 20));
  EXPECT_LE(a::stats().bytesCached, cached);
  // Shrinking the cap evicts.
  a::set_cache_limit(0);
  EXPECT_EQ(a::stats().bytesCached, 0u);
  void *p = a::allocate(128);
  a::deallocate(p);
  EXPECT_EQ(a::stats().bytesCached, 0u); // not even the per-thread tier
}

TEST(Allocator, EmptyCacheAndInUse) {
  a::empty_cache();
  EXPECT_EQ(a::stats().bytesCached, 0u);
  size_t inUse = a::stats().bytesInUse;
  void *p = a::allocate(1 << 16);
  EXPECT_EQ(a::stats().bytesInUse, inUse + a::round_size(1 << 16));
  a::deallocate(p);
  EXPECT_EQ(a::stats().bytesInUse, inUse);
  EXPECT_GT(a::stats().bytesCached, 0u);
  a::empty_cache();
  EXPECT_EQ(a::stats().bytesCached, 0u);
}

TEST(Allocator, ThreadSafe) {
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([t] {
      std::vector<void *> held;
      for (int i = 0; i < 5000; ++i) {
        size_t bytes = size_t(1 + (i * 37 + t * 11) % 9000);
        void *p = tfc_rt_alloc(bytes);
        ASSERT_NE(p, nullptr);
        static_cast<char *>(p)[bytes - 1] = char(i);
        held.push_back(p);
        if (held.size() > 16) {
          tfc_rt_free(held.front());
          held.erase(held.begin());
        }
      }
      for (void *p : held)
        tfc_rt_free(p);
    });
  for (auto &th : threads)
    th.join();
  // Blocks freed by exited threads went back to the shared cache.
  a::Stats s = a::stats();
  EXPECT_LE(s.bytesCached, s.cacheLimit + 4 * (512 << 10));
}

TEST(Allocator, FreeOnAnotherThread) {
  void *p = a::allocate(1 << 12);
  std::thread([p] { a::deallocate(p); }).join();
  void *q = a::allocate(1 << 12);
  EXPECT_TRUE(a::owns(q));
  a::deallocate(q);
}

} // namespace
