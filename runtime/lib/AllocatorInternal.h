//===- AllocatorInternal.h - Block layout shared with Storage ---*- C++ -*-===//
//
// Every block of the caching allocator starts with a 64-byte header that sits
// just before the pointer handed out. The header has room for the Storage
// object of the tensor the block backs, so a tensor's storage and its data
// are one allocation.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_LIB_ALLOCATORINTERNAL_H
#define TFC_RUNTIME_LIB_ALLOCATORINTERNAL_H

#include <cstddef>
#include <cstdint>

namespace tfc::allocator::detail {

constexpr size_t kAlignment = 64;
constexpr size_t kStorageSlotBytes = 40;
constexpr uint64_t kBlockMagic = 0x7466635f626c6b31ull; // "tfc_blk1"

/// Lives at ptr - 64 for every block handed out.
struct alignas(kAlignment) BlockHeader {
  alignas(8) unsigned char storageSlot[kStorageSlotBytes];
  uint64_t capacity;    ///< Usable bytes after the header.
  uint32_t classIndex;  ///< Size class.
  uint32_t flags;       ///< kLive | kHasStorage.
  uint64_t magic;       ///< kBlockMagic while the block exists.
};
static_assert(sizeof(BlockHeader) == kAlignment, "header must keep alignment");

constexpr uint32_t kLive = 1;       ///< Handed out, not yet freed.
constexpr uint32_t kHasStorage = 2; ///< A Storage object lives in the slot.

inline BlockHeader *header_of(const void *ptr) {
  return reinterpret_cast<BlockHeader *>(
             const_cast<unsigned char *>(static_cast<const unsigned char *>(ptr))) -
         1;
}

} // namespace tfc::allocator::detail

#endif // TFC_RUNTIME_LIB_ALLOCATORINTERNAL_H
