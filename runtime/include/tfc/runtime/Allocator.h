//===- Allocator.h - The runtime's caching allocator ------------*- C++ -*-===//
//
// One allocator serves every buffer in tfc: eager tensors (through
// Storage::allocate) and buffers that JIT-compiled code allocates and frees
// through the C entry points below, so ownership is never ambiguous.
//
// Blocks are 64-byte aligned. Freed blocks are cached by size class for reuse
// (a fresh large buffer costs milliseconds in page faults); the cache is
// bounded (default 1 GiB, env TFC_ALLOCATOR_CACHE_BYTES, or
// set_cache_limit). Small blocks (<= 4 KiB) also go through a per-thread
// cache that holds at most min(512 KiB, limit / 16) per thread.
//
// Thread-safety: every function here may be called from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_ALLOCATOR_H
#define TFC_RUNTIME_ALLOCATOR_H

#include <cstddef>
#include <cstdint>

extern "C" {
/// Allocates `bytes` (0 allowed) 64-byte-aligned bytes from the runtime's
/// caching allocator. Returns null when the system is out of memory; never
/// throws. Called by JIT-compiled code.
void *tfc_rt_alloc(size_t bytes);
/// Returns a block from tfc_rt_alloc to the cache. Null is a no-op.
void tfc_rt_free(void *ptr);
}

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::allocator {

/// Counters for tests and benchmarks; a snapshot, summed over all threads.
struct Stats {
  size_t bytesCached = 0;   ///< Bytes held in caches (global + per-thread).
  size_t bytesInUse = 0;    ///< Capacity of blocks handed out and not freed.
  size_t cacheLimit = 0;    ///< Current cap on the global cache.
  uint64_t hits = 0;        ///< Allocations served from a cache.
  uint64_t misses = 0;      ///< Allocations that went to the system.
  uint64_t systemFrees = 0; ///< Blocks returned to the system.
};

/// 64-byte-aligned block of at least `bytes`. Throws tfc::RuntimeError when
/// the system is out of memory (after emptying the cache and retrying).
void *allocate(size_t bytes);
/// Returns a block from allocate/tfc_rt_alloc to the cache (null: no-op).
void deallocate(void *ptr);
/// True when `ptr` is the start of a live block of this allocator.
bool owns(const void *ptr);
/// The usable size of a live block (its size class, >= the requested bytes).
size_t block_capacity(const void *ptr);
/// The size class (usable bytes) a request of `bytes` is rounded up to.
size_t round_size(size_t bytes);

Stats stats();
/// Caps the bytes the global cache may hold; shrinks it now if needed.
void set_cache_limit(size_t bytes);
size_t cache_limit();
/// Returns every cached block (global and this thread's) to the system.
void empty_cache();

} // namespace tfc::allocator
#pragma GCC visibility pop

#endif // TFC_RUNTIME_ALLOCATOR_H
