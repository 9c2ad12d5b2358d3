//===- CompileCache.cpp - Persistent on-disk object-code cache ------------===//
//
// Entry layout (little-endian, as written by this machine):
//   magic   8 bytes  "TFCOBJ1\n"
//   key    32 bytes  the entry's key (guards against a misnamed file)
//   size    8 bytes  payload size
//   digest 32 bytes  BLAKE3 of the payload
//   payload          the relocatable object file
//
//===----------------------------------------------------------------------===//

#include "tfc/JIT/CompileCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

using namespace ::tfc::jit;

namespace {

constexpr char kMagic[8] = {'T', 'F', 'C', 'O', 'B', 'J', '1', '\n'};
constexpr size_t kHeaderBytes = 8 + 32 + 8 + 32;

struct Counters {
  std::atomic<uint64_t> hits{0}, misses{0}, stores{0}, rejected{0},
      writeErrors{0};
};
Counters &counters() {
  static Counters c;
  return c;
}

std::string envOr(const char *name, bool &set) {
  const char *v = std::getenv(name);
  set = v != nullptr;
  return v ? v : "";
}

} // namespace

std::string cache::resolveDir(const CompileOptions &options) {
  if (!options.cache)
    return "";
  if (!options.cache_dir.empty())
    return options.cache_dir;
  return default_compile_cache_dir();
}

std::string tfc::jit::default_compile_cache_dir() {
  bool set = false;
  std::string dir = envOr("TFC_CACHE_DIR", set);
  if (set)
    return dir; // An empty TFC_CACHE_DIR turns the cache off.
  std::string xdg = envOr("XDG_CACHE_HOME", set);
  if (!xdg.empty())
    return xdg + "/tfc";
  std::string home = envOr("HOME", set);
  if (!home.empty())
    return home + "/.cache/tfc";
  return "";
}

CompileCacheStats tfc::jit::compile_cache_stats() {
  Counters &c = counters();
  CompileCacheStats s;
  s.hits = c.hits;
  s.misses = c.misses;
  s.stores = c.stores;
  s.rejected = c.rejected;
  s.write_errors = c.writeErrors;
  return s;
}

void cache::noteHit() { ++counters().hits; }
void cache::noteMiss() { ++counters().misses; }
void cache::noteRejected() { ++counters().rejected; }

std::string cache::toHex(const Key &key) {
  static const char *digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : key) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

std::string cache::entryPath(const std::string &dir, const Key &key) {
  return dir + "/" + toHex(key) + ".o";
}

std::unique_ptr<llvm::MemoryBuffer> cache::load(const std::string &dir,
                                                const Key &key) {
  std::string path = entryPath(dir, key);
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return nullptr; // Absent (or unreadable): an ordinary miss.
  llvm::StringRef data = (*file)->getBuffer();
  auto reject = [&]() -> std::unique_ptr<llvm::MemoryBuffer> {
    noteRejected();
    return nullptr;
  };
  if (data.size() < kHeaderBytes || std::memcmp(data.data(), kMagic, 8) != 0 ||
      std::memcmp(data.data() + 8, key.data(), 32) != 0)
    return reject();
  uint64_t size;
  std::memcpy(&size, data.data() + 40, 8);
  if (size != data.size() - kHeaderBytes)
    return reject();
  llvm::StringRef payload = data.drop_front(kHeaderBytes);
  auto digest = llvm::BLAKE3::hash<32>(llvm::arrayRefFromStringRef(payload));
  if (std::memcmp(digest.data(), data.data() + 48, 32) != 0)
    return reject();
  // A private copy: the file may be replaced while the JIT links it.
  return llvm::MemoryBuffer::getMemBufferCopy(payload, path);
}

void cache::store(const std::string &dir, const Key &key,
                  llvm::StringRef object) {
  Counters &c = counters();
  if (llvm::sys::fs::create_directories(dir)) {
    ++c.writeErrors;
    return;
  }
  std::string final = entryPath(dir, key);
  int fd = -1;
  llvm::SmallString<256> tmp;
  if (llvm::sys::fs::createUniqueFile(final + ".tmp-%%%%%%%%", fd, tmp)) {
    ++c.writeErrors;
    return;
  }
  auto digest = llvm::BLAKE3::hash<32>(llvm::arrayRefFromStringRef(object));
  uint64_t size = object.size();
  bool ok;
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(kMagic, 8);
    os.write(reinterpret_cast<const char *>(key.data()), 32);
    os.write(reinterpret_cast<const char *>(&size), 8);
    os.write(reinterpret_cast<const char *>(digest.data()), 32);
    os << object;
    os.close();
    ok = !os.has_error();
    if (!ok)
      os.clear_error();
  }
  // rename() is atomic: readers see the old entry or the whole new one.
  if (!ok || llvm::sys::fs::rename(tmp, final)) {
    llvm::sys::fs::remove(tmp);
    ++c.writeErrors;
    return;
  }
  ++c.stores;
}
