//===- Allocator.cpp - The runtime's caching allocator --------------------===//
//
// Size classes: multiples of 64 B up to 4 KiB, then four classes per power of
// two (2^k * 5/4, 6/4, 7/4, 8/4), so a block wastes at most 25%. Blocks of
// 1 MiB and more are mmap'ed directly (2 MiB-aligned and madvise'd for
// transparent huge pages when >= 4 MiB: a fresh buffer then costs a few
// faults instead of one per 4 KiB page).
//
// Two tiers of cache: a lock-free per-thread tier for small blocks (the eager
// hot path: a 1-element tensor allocates and frees with no atomic operation)
// and a global mutex-protected tier bounded by the cache limit.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Allocator.h"

#include "AllocatorInternal.h"
#include "tfc/runtime/Error.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <sys/mman.h>

using namespace tfc::allocator::detail;

namespace {

constexpr size_t kSmallLimit = 4096;     ///< Classes of 64 B up to here.
constexpr size_t kNumSmallClasses = kSmallLimit / kAlignment;
constexpr int kFirstLargeLog = 12;       ///< 2^12 == kSmallLimit.
constexpr int kMaxLog = 60;              ///< Largest class is 2^61 bytes.
constexpr size_t kNumClasses = kNumSmallClasses + 4 * (kMaxLog - kFirstLargeLog + 1);
constexpr size_t kMaxRequest = size_t(1) << 60;
constexpr size_t kMmapThreshold = size_t(1) << 20;
constexpr size_t kHugeThreshold = size_t(4) << 20;
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kPage = 4096;
constexpr size_t kDefaultLimit = size_t(1) << 30;

constexpr size_t kThreadMaxBytes = 512 * 1024;
constexpr unsigned kThreadPerClass = 16;

/// Size class index and capacity for a request; bytes <= kMaxRequest.
inline void classify(size_t bytes, uint32_t &index, size_t &capacity) {
  if (bytes <= kSmallLimit) {
    size_t units = bytes == 0 ? 1 : (bytes + kAlignment - 1) / kAlignment;
    index = static_cast<uint32_t>(units - 1);
    capacity = units * kAlignment;
    return;
  }
  // 2^k < bytes <= 2^(k+1).
  int k = 63 - __builtin_clzll(static_cast<unsigned long long>(bytes - 1));
  size_t base = size_t(1) << k;
  size_t step = base >> 2;
  size_t i = (bytes - base + step - 1) / step; // 1..4
  index = static_cast<uint32_t>(kNumSmallClasses + 4 * (k - kFirstLargeLog) + (i - 1));
  capacity = base + i * step;
}

inline size_t mappingBytes(size_t capacity) {
  return (capacity + kAlignment + kPage - 1) & ~(kPage - 1);
}

/// Gets a block from the system; returns the user pointer or null.
void *systemAllocate(size_t capacity, uint32_t index) {
  size_t total = capacity + kAlignment;
  void *base = nullptr;
  if (capacity >= kMmapThreshold) {
    size_t len = mappingBytes(capacity);
    if (capacity >= kHugeThreshold) {
      // Over-map, then trim to a 2 MiB boundary so huge pages can back it.
      void *raw = mmap(nullptr, len + kHugePage, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (raw == MAP_FAILED)
        return nullptr;
      uintptr_t start = reinterpret_cast<uintptr_t>(raw);
      uintptr_t aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
      if (aligned > start)
        munmap(raw, aligned - start);
      size_t tail = (start + len + kHugePage) - (aligned + len);
      if (tail)
        munmap(reinterpret_cast<void *>(aligned + len), tail);
      base = reinterpret_cast<void *>(aligned);
      madvise(base, len, MADV_HUGEPAGE);
    } else {
      base = mmap(nullptr, len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (base == MAP_FAILED)
        return nullptr;
    }
  } else {
    base = std::aligned_alloc(kAlignment, total);
    if (!base)
      return nullptr;
  }
  auto *h = static_cast<BlockHeader *>(base);
  h->capacity = capacity;
  h->classIndex = index;
  h->flags = 0;
  h->magic = kBlockMagic;
  return h + 1;
}

void systemFree(void *ptr) {
  BlockHeader *h = header_of(ptr);
  size_t capacity = h->capacity;
  h->magic = 0;
  if (capacity >= kMmapThreshold)
    munmap(h, mappingBytes(capacity));
  else
    std::free(h);
}

size_t limitFromEnv() {
  const char *s = std::getenv("TFC_ALLOCATOR_CACHE_BYTES");
  if (!s || !*s)
    return kDefaultLimit;
  char *end = nullptr;
  unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s)
    return kDefaultLimit;
  // Accept K/M/G suffixes ("512M").
  switch (*end) {
  case 'k': case 'K': v <<= 10; break;
  case 'm': case 'M': v <<= 20; break;
  case 'g': case 'G': v <<= 30; break;
  default: break;
  }
  return static_cast<size_t>(v);
}

/// Counters written only by their owning thread (relaxed load + store, no
/// locked instruction) and read by anyone.
struct OwnedCounter {
  std::atomic<uint64_t> v{0};
  void add(uint64_t d) {
    v.store(v.load(std::memory_order_relaxed) + d, std::memory_order_relaxed);
  }
  uint64_t get() const { return v.load(std::memory_order_relaxed); }
};

struct ThreadCache {
  void *blocks[kNumSmallClasses][kThreadPerClass];
  uint8_t count[kNumSmallClasses] = {};
  OwnedCounter cachedBytes, hits, allocatedBytes, freedBytes;
};

struct Global {
  std::mutex mu;
  std::vector<void *> free[kNumClasses];
  size_t cachedBytes = 0; // guarded by mu
  std::atomic<size_t> limit{limitFromEnv()};
  std::atomic<uint64_t> hits{0}, misses{0}, systemFrees{0};
  std::atomic<uint64_t> allocatedBytes{0}, freedBytes{0};
  // Live thread caches, and the counters of threads that have exited.
  std::mutex registryMu;
  std::vector<ThreadCache *> threads;
  uint64_t retiredHits = 0, retiredAllocated = 0, retiredFreed = 0;

  /// Evicts cached blocks, largest classes first, until `need` more bytes fit
  /// under the limit. Requires mu.
  void evictFor(size_t need, size_t lim) {
    for (size_t c = kNumClasses; c-- > 0 && cachedBytes + need > lim;) {
      auto &list = free[c];
      while (!list.empty() && cachedBytes + need > lim) {
        void *p = list.back();
        list.pop_back();
        cachedBytes -= header_of(p)->capacity;
        systemFree(p);
        systemFrees.fetch_add(1, std::memory_order_relaxed);
      }
    }
  }

  /// Caches or frees a block whose header is already marked not-live.
  void put(void *p) {
    size_t cap = header_of(p)->capacity;
    size_t lim = limit.load(std::memory_order_relaxed);
    if (cap > lim) {
      systemFree(p);
      systemFrees.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    std::lock_guard<std::mutex> lock(mu);
    if (cachedBytes + cap > lim)
      evictFor(cap, lim);
    auto &list = free[header_of(p)->classIndex];
    try {
      list.push_back(p);
    } catch (...) {
      systemFree(p); // The cache's own bookkeeping is out of memory.
      systemFrees.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    cachedBytes += cap;
  }

  void *take(uint32_t index) {
    std::lock_guard<std::mutex> lock(mu);
    auto &list = free[index];
    if (list.empty())
      return nullptr;
    void *p = list.back();
    list.pop_back();
    cachedBytes -= header_of(p)->capacity;
    return p;
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mu);
    evictFor(0, 0);
    for (auto &l : free)
      l.shrink_to_fit();
  }
};

/// Leaked on purpose: tensors held in static objects are freed after every
/// ordinary static destructor has run.
Global &global() {
  static Global *g = new Global;
  return *g;
}

void flushThreadCache(ThreadCache *tc) {
  Global &g = global();
  for (size_t c = 0; c < kNumSmallClasses; ++c) {
    while (tc->count[c]) {
      void *p = tc->blocks[c][--tc->count[c]];
      g.put(p);
    }
  }
  tc->cachedBytes.v.store(0, std::memory_order_relaxed);
}

struct ThreadCacheOwner {
  ThreadCache *cache = nullptr;
  ~ThreadCacheOwner();
};

// Initial-exec: read on every allocate/deallocate. In libtfc.so the default
// (general-dynamic) model makes each read a call to __tls_get_addr; a static
// TLS slot of 8 bytes makes it one %fs-relative load.
[[gnu::tls_model("initial-exec")]] thread_local ThreadCache *tlCache = nullptr;
thread_local bool tlCacheDead = false;

ThreadCacheOwner::~ThreadCacheOwner() {
  if (!cache)
    return;
  ThreadCache *tc = cache;
  tlCache = nullptr;
  tlCacheDead = true;
  flushThreadCache(tc);
  Global &g = global();
  {
    std::lock_guard<std::mutex> lock(g.registryMu);
    g.threads.erase(std::remove(g.threads.begin(), g.threads.end(), tc),
                    g.threads.end());
    g.retiredHits += tc->hits.get();
    g.retiredAllocated += tc->allocatedBytes.get();
    g.retiredFreed += tc->freedBytes.get();
  }
  delete tc;
}

[[gnu::noinline]] ThreadCache *initThreadCache() {
  if (tlCacheDead)
    return nullptr;
  thread_local ThreadCacheOwner owner;
  auto *tc = new (std::nothrow) ThreadCache;
  if (!tc)
    return nullptr;
  Global &g = global();
  try {
    std::lock_guard<std::mutex> lock(g.registryMu);
    g.threads.push_back(tc);
  } catch (...) {
    delete tc;
    return nullptr;
  }
  owner.cache = tc;
  tlCache = tc;
  return tc;
}

inline ThreadCache *threadCache() {
  if (ThreadCache *tc = tlCache) [[likely]]
    return tc;
  return initThreadCache();
}

inline void *allocateNoThrow(size_t bytes) {
  if (bytes > kMaxRequest)
    return nullptr;
  uint32_t index;
  size_t capacity;
  classify(bytes, index, capacity);
  void *p = nullptr;
  if (index < kNumSmallClasses) {
    if (ThreadCache *tc = threadCache()) {
      if (uint8_t &n = tc->count[index]; n) {
        p = tc->blocks[index][--n];
        tc->cachedBytes.add(-capacity);
        tc->hits.add(1);
        tc->allocatedBytes.add(capacity);
        header_of(p)->flags = kLive;
        return p;
      }
    }
  }
  Global &g = global();
  p = g.take(index);
  if (p) {
    g.hits.fetch_add(1, std::memory_order_relaxed);
  } else {
    p = systemAllocate(capacity, index);
    if (!p) {
      g.clear(); // Give cached memory back and try once more.
      p = systemAllocate(capacity, index);
      if (!p)
        return nullptr;
    }
    g.misses.fetch_add(1, std::memory_order_relaxed);
  }
  g.allocatedBytes.fetch_add(capacity, std::memory_order_relaxed);
  header_of(p)->flags = kLive;
  return p;
}

inline void deallocateImpl(void *p) {
  BlockHeader *h = header_of(p);
  h->flags = 0;
  size_t capacity = h->capacity;
  uint32_t index = h->classIndex;
  Global &g = global();
  if (index < kNumSmallClasses) {
    if (ThreadCache *tc = threadCache()) {
      size_t lim = std::min(kThreadMaxBytes,
                            g.limit.load(std::memory_order_relaxed) / 16);
      uint8_t &n = tc->count[index];
      if (n < kThreadPerClass && tc->cachedBytes.get() + capacity <= lim) {
        tc->blocks[index][n++] = p;
        tc->cachedBytes.add(capacity);
        tc->freedBytes.add(capacity);
        return;
      }
    }
  }
  g.freedBytes.fetch_add(capacity, std::memory_order_relaxed);
  g.put(p);
}

} // namespace

namespace tfc::allocator {

void *allocate(size_t bytes) {
  void *p = allocateNoThrow(bytes);
  if (!p) [[unlikely]]
    throw RuntimeError("allocator: out of memory allocating " +
                       std::to_string(bytes) + " bytes");
  return p;
}

void deallocate(void *ptr) {
  if (ptr)
    deallocateImpl(ptr);
}

bool owns(const void *ptr) {
  if (!ptr || reinterpret_cast<uintptr_t>(ptr) % kAlignment)
    return false;
  const BlockHeader *h = header_of(ptr);
  return h->magic == kBlockMagic && (h->flags & kLive);
}

size_t block_capacity(const void *ptr) {
  return owns(ptr) ? header_of(ptr)->capacity : 0;
}

size_t round_size(size_t bytes) {
  if (bytes > kMaxRequest)
    return 0;
  uint32_t index;
  size_t capacity;
  classify(bytes, index, capacity);
  return capacity;
}

Stats stats() {
  Global &g = global();
  Stats s;
  uint64_t allocated = g.allocatedBytes.load(std::memory_order_relaxed);
  uint64_t freed = g.freedBytes.load(std::memory_order_relaxed);
  s.hits = g.hits.load(std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(g.registryMu);
    for (ThreadCache *tc : g.threads) {
      s.bytesCached += tc->cachedBytes.get();
      s.hits += tc->hits.get();
      allocated += tc->allocatedBytes.get();
      freed += tc->freedBytes.get();
    }
    s.hits += g.retiredHits;
    allocated += g.retiredAllocated;
    freed += g.retiredFreed;
  }
  {
    std::lock_guard<std::mutex> lock(g.mu);
    s.bytesCached += g.cachedBytes;
  }
  s.bytesInUse = static_cast<size_t>(allocated - freed);
  s.cacheLimit = g.limit.load(std::memory_order_relaxed);
  s.misses = g.misses.load(std::memory_order_relaxed);
  s.systemFrees = g.systemFrees.load(std::memory_order_relaxed);
  return s;
}

void set_cache_limit(size_t bytes) {
  Global &g = global();
  g.limit.store(bytes, std::memory_order_relaxed);
  // This thread's small-block tier must respect the new per-thread bound too.
  if (ThreadCache *tc = tlCache)
    if (tc->cachedBytes.get() > std::min(kThreadMaxBytes, bytes / 16))
      flushThreadCache(tc);
  std::lock_guard<std::mutex> lock(g.mu);
  g.evictFor(0, bytes);
}

size_t cache_limit() {
  return global().limit.load(std::memory_order_relaxed);
}

void empty_cache() {
  if (ThreadCache *tc = tlCache)
    flushThreadCache(tc);
  global().clear();
}

} // namespace tfc::allocator

extern "C" void *tfc_rt_alloc(size_t bytes) { return allocateNoThrow(bytes); }

extern "C" void tfc_rt_free(void *ptr) {
  if (ptr)
    deallocateImpl(ptr);
}
