//===- Log.cpp - TFC_LOG categories ---------------------------------------===//

#include "tfc/runtime/Log.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace tfc::logging {
namespace {

constexpr unsigned bit(Category c) { return 1u << static_cast<unsigned>(c); }
constexpr unsigned kAll =
    bit(Category::Retrace) | bit(Category::Warnings) | bit(Category::Timing);

struct Name {
  const char *name;
  unsigned bits;
} const kNames[] = {
    {"retrace", bit(Category::Retrace)},
    {"warnings", bit(Category::Warnings)},
    {"timing", bit(Category::Timing)},
    {"all", kAll},
};

unsigned parse(const char *spec) {
  unsigned on = bit(Category::Warnings);
  if (const char *t = std::getenv("TFC_TIMING"); t && *t && std::strcmp(t, "0"))
    on |= bit(Category::Timing);
  if (!spec)
    return on;
  std::string_view rest(spec);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
    while (!item.empty() && item.front() == ' ')
      item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ')
      item.remove_suffix(1);
    if (item.empty())
      continue;
    bool off = item.front() == '-';
    if (off || item.front() == '+')
      item.remove_prefix(1);
    unsigned bits = 0;
    if (item == "none") {
      bits = kAll;
      off = !off;
    }
    for (const Name &n : kNames)
      if (item == n.name)
        bits = n.bits;
    if (!bits) {
      static std::atomic<bool> reported{false};
      if (!reported.exchange(true))
        emit("tfc: warning: TFC_LOG: unknown category '" + std::string(item) +
             "' ignored (known: retrace, warnings, timing, all, none; '-' "
             "before one turns it off)");
      continue;
    }
    on = off ? on & ~bits : on | bits;
  }
  return on;
}

} // namespace

bool enabled(Category category) {
  return parse(std::getenv("TFC_LOG")) & bit(category);
}

void emit(std::string_view line) {
  static std::mutex mutex;
  std::string text(line);
  text += '\n';
  std::lock_guard<std::mutex> lock(mutex);
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

} // namespace tfc::logging
