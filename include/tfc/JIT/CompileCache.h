//===- CompileCache.h - Persistent on-disk object-code cache ----*- C++ -*-===//
//
// Object code compiled by the JIT, kept on disk so that a later process
// compiling the same module skips LLVM optimisation and code generation. An
// entry is keyed by a BLAKE3 hash of everything that determines the object:
// the unoptimised LLVM IR the MLIR pipeline produced, the target triple, CPU
// and features, the opt level, and the tfc and LLVM versions.
//
// Entries are written to a unique temporary file and renamed into place, so
// concurrent writers (threads or processes) never expose a partial entry;
// each entry carries a hash of its payload, so a torn or corrupted file is
// detected, ignored and rewritten.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_JIT_COMPILECACHE_H
#define TFC_JIT_COMPILECACHE_H

#include "tfc/JIT/CompiledModule.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::jit::cache {

/// A 32-byte BLAKE3 digest naming one entry.
using Key = std::array<uint8_t, 32>;

/// The directory `options` ask for: "" when the cache is off.
std::string resolveDir(const CompileOptions &options);

/// Hex spelling of a key (the entry's file name without extension).
std::string toHex(const Key &key);

/// The path of the entry for `key` in `dir`.
std::string entryPath(const std::string &dir, const Key &key);

/// The object code stored for `key`, or null when there is no valid entry.
/// A file that exists but fails validation counts as rejected; it will be
/// replaced by the next store.
std::unique_ptr<llvm::MemoryBuffer> load(const std::string &dir,
                                         const Key &key);

/// Stores `object` for `key`; best effort (a failure is counted, not thrown).
void store(const std::string &dir, const Key &key, llvm::StringRef object);

/// Counters behind tfc::jit::compile_cache_stats().
void noteHit();
void noteMiss();
void noteRejected();

} // namespace tfc::jit::cache
#pragma GCC visibility pop

#endif // TFC_JIT_COMPILECACHE_H
