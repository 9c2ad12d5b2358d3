//===- SafeTensors.cpp - Reading and writing safetensors files ------------===//
//
// A strict reader: the header is parsed by a small JSON parser for exactly
// the subset safetensors uses, then every entry is checked against the file
// before a byte of tensor data is read. Writing goes through a temporary
// file renamed over the target.
//
//===----------------------------------------------------------------------===//

#include "tfc/train/SafeTensors.h"

#include "tfc/runtime/Error.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <set>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tfc;
using namespace tfc::train;

namespace {

/// The spec's limit (the reference implementation's MAX_HEADER_SIZE).
constexpr uint64_t kMaxHeaderSize = 100'000'000;
/// Deeper JSON is rejected before it can exhaust the stack.
constexpr int kMaxDepth = 8;
/// As for .npy files: no real tensor has more dims.
constexpr size_t kMaxRank = 64;

std::string errnoText() { return std::strerror(errno); }

[[noreturn]] void failLoad(const std::string &file, const std::string &what) {
  throw InvalidArgumentError("load_safetensors: '" + file + "': " + what);
}

//===----------------------------------------------------------------------===//
// UTF-8 and the JSON subset
//===----------------------------------------------------------------------===//

/// Length of the well-formed UTF-8 sequence at s[i] (no overlongs, no
/// surrogates, at most U+10FFFF), or 0.
size_t utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80)
    return 1;
  size_t len;
  uint32_t cp;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
    cp = c & 0x1F;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    cp = c & 0x0F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size())
    return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
  bool surrogate = cp >= 0xD800 && cp <= 0xDFFF;
  if (overlong || surrogate || cp > 0x10FFFF)
    return 0;
  return len;
}

bool isValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8SequenceLength(s, i);
    if (n == 0)
      return false;
    i += n;
  }
  return true;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

/// JSON's short escapes ("\\n") and the characters they stand for.
constexpr std::string_view kEscapes = "\"\\/bfnrt";
constexpr std::string_view kUnescaped = "\"\\/\b\f\n\r\t";

struct Json {
  enum Kind { Object, Array, String, Integer } kind = Object;
  std::string str;
  uint64_t num = 0;
  std::vector<std::pair<std::string, Json>> members; ///< In file order.
  std::vector<Json> items;
};

const char *kindName(Json::Kind k) {
  switch (k) {
  case Json::Object:
    return "an object";
  case Json::Array:
    return "an array";
  case Json::String:
    return "a string";
  case Json::Integer:
    return "an integer";
  }
  return "a value";
}

/// Objects, arrays, strings and non-negative integers: what a safetensors
/// header holds. Anything else is an error naming the byte offset.
class JsonParser {
public:
  JsonParser(std::string_view text, const std::string &file)
      : s(text), file(file) {}

  Json parseHeader() {
    if (s.empty() || s[0] != '{')
      error("the header must be a JSON object starting with '{'");
    Json top = parseValue(1);
    // The spec allows spaces (and only spaces) as padding after the object.
    for (; pos < s.size(); ++pos)
      if (s[pos] != ' ')
        error("unexpected bytes after the header object");
    return top;
  }

private:
  [[noreturn]] void error(const std::string &what) {
    failLoad(file, "header JSON at byte " + std::to_string(pos) + ": " + what);
  }

  void skipSpace() {
    while (pos < s.size() && (s[pos] == ' ' || s[pos] == '\t' ||
                              s[pos] == '\n' || s[pos] == '\r'))
      ++pos;
  }

  void expect(char c) {
    skipSpace();
    if (pos >= s.size())
      error(std::string("expected '") + c + "', found the end of the header");
    if (s[pos] != c)
      error(std::string("expected '") + c + "'");
    ++pos;
  }

  Json parseValue(int depth) {
    skipSpace();
    if (pos >= s.size())
      error("expected a value, found the end of the header");
    char c = s[pos];
    if (c == '{' || c == '[') {
      if (depth > kMaxDepth)
        error("nested deeper than " + std::to_string(kMaxDepth) + " levels");
      return c == '{' ? parseObject(depth) : parseArray(depth);
    }
    if (c == '"') {
      Json j;
      j.kind = Json::String;
      j.str = parseString();
      return j;
    }
    if (c >= '0' && c <= '9')
      return parseInteger();
    if (c == '-')
      error("negative numbers are not allowed");
    error("unsupported JSON value (only objects, arrays, strings and "
          "non-negative integers)");
  }

  Json parseObject(int depth) {
    Json j;
    j.kind = Json::Object;
    ++pos; // '{'
    skipSpace();
    if (pos < s.size() && s[pos] == '}') {
      ++pos;
      return j;
    }
    std::set<std::string> keys;
    while (true) {
      skipSpace();
      if (pos >= s.size() || s[pos] != '"')
        error("expected a string key");
      size_t keyPos = pos;
      std::string key = parseString();
      if (!keys.insert(key).second) {
        pos = keyPos;
        error("duplicate key \"" + key + "\"");
      }
      expect(':');
      Json value = parseValue(depth + 1);
      j.members.emplace_back(std::move(key), std::move(value));
      skipSpace();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      expect('}');
      return j;
    }
  }

  Json parseArray(int depth) {
    Json j;
    j.kind = Json::Array;
    ++pos; // '['
    skipSpace();
    if (pos < s.size() && s[pos] == ']') {
      ++pos;
      return j;
    }
    while (true) {
      j.items.push_back(parseValue(depth + 1));
      skipSpace();
      if (pos < s.size() && s[pos] == ',') {
        ++pos;
        continue;
      }
      expect(']');
      return j;
    }
  }

  Json parseInteger() {
    Json j;
    j.kind = Json::Integer;
    size_t start = pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      uint64_t digit = uint64_t(s[pos] - '0');
      if (j.num > (std::numeric_limits<uint64_t>::max() - digit) / 10)
        error("integer too large");
      j.num = j.num * 10 + digit;
      ++pos;
    }
    if (pos - start > 1 && s[start] == '0') {
      pos = start;
      error("integer with a leading zero");
    }
    if (pos < s.size() && (s[pos] == '.' || s[pos] == 'e' || s[pos] == 'E'))
      error("only integers are allowed");
    return j;
  }

  uint32_t parseHex4() {
    if (pos + 4 > s.size())
      error("truncated \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s[pos++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= uint32_t(c - 'A' + 10);
      else
        error("bad hex digit in \\u escape");
    }
    return v;
  }

  std::string parseString() {
    ++pos; // '"'
    std::string out;
    while (true) {
      if (pos >= s.size())
        error("unterminated string");
      unsigned char c = static_cast<unsigned char>(s[pos]);
      if (c == '"') {
        ++pos;
        return out;
      }
      if (c < 0x20)
        error("control character in a string");
      if (c >= 0x80) {
        size_t n = utf8SequenceLength(s, pos);
        if (n == 0)
          error("invalid UTF-8");
        out.append(s.substr(pos, n));
        pos += n;
        continue;
      }
      if (c != '\\') {
        out += char(c);
        ++pos;
        continue;
      }
      ++pos;
      if (pos >= s.size())
        error("unterminated escape");
      char e = s[pos++];
      if (size_t k = kEscapes.find(e); k != std::string_view::npos) {
        out += kUnescaped[k];
        continue;
      }
      if (e != 'u') {
        --pos;
        error(std::string("unknown escape '\\") + e + "'");
      }
      uint32_t cp = parseHex4();
      if (cp >= 0xDC00 && cp <= 0xDFFF)
        error("unpaired low surrogate in \\u escape");
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (pos + 2 > s.size() || s[pos] != '\\' || s[pos + 1] != 'u')
          error("unpaired high surrogate in \\u escape");
        pos += 2;
        uint32_t lo = parseHex4();
        if (lo < 0xDC00 || lo > 0xDFFF)
          error("unpaired high surrogate in \\u escape");
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      }
      appendUtf8(out, cp);
    }
  }

  std::string_view s;
  size_t pos = 0;
  const std::string &file;
};

/// JSON string literal of `s` (valid UTF-8), escaped as serde_json does.
std::string jsonQuote(std::string_view s) {
  static const char *hex = "0123456789abcdef";
  std::string out = "\"";
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    size_t k = kUnescaped.find(ch);
    if (k != std::string_view::npos && ch != '/') { // '/' needs no escape
      out += '\\';
      out += kEscapes[k];
    } else if (c < 0x20) {
      out += "\\u00";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

//===----------------------------------------------------------------------===//
// Dtypes and byte order
//===----------------------------------------------------------------------===//

const char *dtypeCode(DType t) {
  switch (t) {
  case DType::Bool:
    return "BOOL";
  case DType::Int32:
    return "I32";
  case DType::Int64:
    return "I64";
  case DType::Float32:
    return "F32";
  case DType::Float64:
    return "F64";
  }
  return "?";
}

std::optional<DType> dtypeFromCode(const std::string &code) {
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                  DType::Float64})
    if (code == dtypeCode(t))
      return t;
  return std::nullopt;
}

/// The file is little-endian; a big-endian host swaps each element.
void toFileOrder(void *data, size_t bytes, size_t itemSize) {
  if constexpr (std::endian::native == std::endian::big) {
    auto *p = static_cast<unsigned char *>(data);
    for (size_t i = 0; i + itemSize <= bytes; i += itemSize)
      std::reverse(p + i, p + i + itemSize);
  } else {
    (void)data, (void)bytes, (void)itemSize;
  }
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

/// One validated header entry.
struct Entry {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  uint64_t begin, end;
};

struct Header {
  std::vector<Entry> entries; ///< Sorted by data offset.
  std::map<std::string, std::string> metadata;
};

uint64_t readLe64(const unsigned char *p) {
  uint64_t v = 0;
  for (int k = 7; k >= 0; --k)
    v = (v << 8) | p[k];
  return v;
}

/// Checks the header size against the file; returns N.
uint64_t checkHeaderSize(const unsigned char *prefix, uint64_t fileSize,
                         const std::string &file) {
  if (fileSize < 8)
    failLoad(file, "the file is " + std::to_string(fileSize) +
                       " bytes, too short for the 8-byte header size");
  uint64_t n = readLe64(prefix);
  if (n > kMaxHeaderSize)
    failLoad(file, "header size " + std::to_string(n) +
                       " exceeds the limit of 100 MB");
  if (n > fileSize - 8)
    failLoad(file, "header size " + std::to_string(n) + " exceeds the file (" +
                       std::to_string(fileSize) + " bytes)");
  if (n == 0)
    failLoad(file, "empty header");
  return n;
}

std::vector<uint64_t> integers(const Json &j, const std::string &what,
                               const std::string &file) {
  if (j.kind != Json::Array)
    failLoad(file,
             what + " must be an array of integers, not " + kindName(j.kind));
  std::vector<uint64_t> out;
  for (const Json &item : j.items) {
    if (item.kind != Json::Integer)
      failLoad(file, what + " must be an array of integers, but holds " +
                         kindName(item.kind));
    out.push_back(item.num);
  }
  return out;
}

Entry parseEntry(const std::string &name, const Json &j,
                 const std::string &file) {
  std::string where = "tensor '" + name + "'";
  if (j.kind != Json::Object)
    failLoad(file, where + " must be an object, not " + kindName(j.kind));
  const Json *dtype = nullptr, *shape = nullptr, *offsets = nullptr;
  for (const auto &[key, value] : j.members) {
    if (key == "dtype")
      dtype = &value;
    else if (key == "shape")
      shape = &value;
    else if (key == "data_offsets")
      offsets = &value;
    else
      failLoad(file, where + " has an unknown field '" + key + "'");
  }
  if (!dtype || !shape || !offsets)
    failLoad(file, where + " lacks the field '" +
                       (!dtype   ? "dtype"
                        : !shape ? "shape"
                                 : "data_offsets") +
                       "'");
  if (dtype->kind != Json::String)
    failLoad(file,
             where + ": dtype must be a string, not " + kindName(dtype->kind));
  Entry e;
  e.name = name;
  std::optional<DType> t = dtypeFromCode(dtype->str);
  if (!t)
    failLoad(file, where + ": dtype '" + dtype->str +
                       "' is not supported (tfc reads F32, F64, I32, I64 "
                       "and BOOL)");
  e.dtype = *t;

  std::vector<uint64_t> dims = integers(*shape, where + ": shape", file);
  if (dims.size() > kMaxRank)
    failLoad(file, where + ": rank " + std::to_string(dims.size()) +
                       " exceeds " + std::to_string(kMaxRank));
  // Bytes = product * itemsize, computed without overflow (a zero dim makes
  // it 0 whatever the others are).
  bool zero = std::find(dims.begin(), dims.end(), 0) != dims.end();
  uint64_t bytes = dtype_size(e.dtype);
  for (uint64_t d : dims) {
    if (d > uint64_t(std::numeric_limits<int64_t>::max()))
      failLoad(file,
               where + ": dimension " + std::to_string(d) + " is too large");
    if (!zero && (__builtin_mul_overflow(bytes, d, &bytes) ||
                  bytes > uint64_t(std::numeric_limits<int64_t>::max())))
      failLoad(file, where + ": the shape's byte size overflows");
    e.shape.push_back(int64_t(d));
  }
  if (zero)
    bytes = 0;

  std::vector<uint64_t> range =
      integers(*offsets, where + ": data_offsets", file);
  if (range.size() != 2)
    failLoad(file, where + ": data_offsets must hold 2 integers, not " +
                       std::to_string(range.size()));
  e.begin = range[0];
  e.end = range[1];
  if (e.begin > e.end)
    failLoad(file, where + ": data_offsets [" + std::to_string(e.begin) + ", " +
                       std::to_string(e.end) + "] run backwards");
  if (e.end - e.begin != bytes)
    failLoad(file, where + ": data_offsets [" + std::to_string(e.begin) + ", " +
                       std::to_string(e.end) + "] span " +
                       std::to_string(e.end - e.begin) + " bytes, but " +
                       dtype->str + " " + shape_to_string(e.shape) + " needs " +
                       std::to_string(bytes));
  return e;
}

/// Parses and checks the header against a buffer of `bufferSize` bytes.
Header parseHeader(std::string_view text, uint64_t bufferSize,
                   const std::string &file) {
  JsonParser parser(text, file);
  Json top = parser.parseHeader();
  Header h;
  for (const auto &[name, value] : top.members) {
    if (name == "__metadata__") {
      if (value.kind != Json::Object)
        failLoad(file, "__metadata__ must be an object, not " +
                           std::string(kindName(value.kind)));
      for (const auto &[k, v] : value.members) {
        if (v.kind != Json::String)
          failLoad(file, "__metadata__ value of '" + k +
                             "' must be a string, not " + kindName(v.kind));
        h.metadata[k] = v.str;
      }
      continue;
    }
    h.entries.push_back(parseEntry(name, value, file));
  }
  for (const Entry &e : h.entries)
    if (e.end > bufferSize)
      failLoad(file, "tensor '" + e.name + "': data_offsets end " +
                         std::to_string(e.end) + " lies beyond the " +
                         std::to_string(bufferSize) + "-byte data buffer");
  // The spec requires the entries to tile the buffer: no holes, no overlap.
  std::stable_sort(
      h.entries.begin(), h.entries.end(), [](const Entry &a, const Entry &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
      });
  uint64_t at = 0;
  for (const Entry &e : h.entries) {
    if (e.begin < at)
      failLoad(file, "tensor '" + e.name + "': data_offsets [" +
                         std::to_string(e.begin) + ", " +
                         std::to_string(e.end) +
                         "] overlap the previous tensor's data");
    if (e.begin > at)
      failLoad(file, "tensor '" + e.name + "': data starts at byte " +
                         std::to_string(e.begin) + ", leaving a hole after " +
                         "byte " + std::to_string(at));
    at = e.end;
  }
  if (at != bufferSize)
    failLoad(file, "the file has " + std::to_string(bufferSize - at) +
                       " bytes after the last tensor's data (file size " +
                       "must be 8 + header size + data size)");
  return h;
}

/// Reads each entry's bytes through `read(offset, dst, n)` (offsets in the
/// data buffer) into new CPU tensors.
SafeTensorsFile
readTensors(Header &h, const std::string &file,
            const std::function<void(uint64_t, void *, size_t)> &read) {
  SafeTensorsFile out;
  out.metadata = std::move(h.metadata);
  for (const Entry &e : h.entries) {
    Tensor t = Tensor::empty(e.dtype, e.shape);
    size_t n = size_t(e.end - e.begin);
    if (n) {
      read(e.begin, t.raw_data(), n);
      toFileOrder(t.raw_data(), n, dtype_size(e.dtype));
      if (e.dtype == DType::Bool) {
        const auto *p = static_cast<const unsigned char *>(t.raw_data());
        for (size_t i = 0; i < n; ++i)
          if (p[i] > 1)
            failLoad(file, "BOOL tensor '" + e.name + "' holds byte " +
                               std::to_string(p[i]) + " at element " +
                               std::to_string(i) + " (must be 0 or 1)");
      }
    }
    out.tensors.emplace_back(e.name, std::move(t));
  }
  return out;
}

/// Closes on scope exit.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/// The header and the tensors (on the CPU) in data order.
struct Prepared {
  std::string header; ///< 8-byte size, JSON, padding.
  std::vector<Tensor> data;
};

Prepared prepare(const std::vector<std::pair<std::string, Tensor>> &tensors,
                 const std::map<std::string, std::string> &metadata,
                 const char *fn) {
  auto fail = [&](const std::string &what) {
    throw InvalidArgumentError(std::string(fn) + ": " + what);
  };
  std::vector<std::pair<std::string, Tensor>> sorted;
  std::set<std::string> names;
  for (const auto &[name, t] : tensors) {
    if (name == "__metadata__")
      fail("the tensor name '__metadata__' is reserved");
    if (!isValidUtf8(name))
      fail("tensor name '" + name + "' is not valid UTF-8");
    if (!names.insert(name).second)
      fail("duplicate tensor name '" + name + "'");
    if (!t.defined())
      fail("tensor '" + name + "' is undefined");
    if (t.is_symbolic())
      fail("tensor '" + name +
           "' is symbolic (being traced); save concrete values");
    sorted.emplace_back(name, t.device().is_cpu() ? t : t.to(Device::cpu()));
  }
  for (const auto &[k, v] : metadata)
    if (!isValidUtf8(k) || !isValidUtf8(v))
      fail("metadata entry '" + k + "' is not valid UTF-8");
  std::sort(sorted.begin(), sorted.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });

  std::string json = "{";
  if (!metadata.empty()) {
    json += "\"__metadata__\":{";
    bool first = true;
    for (const auto &[k, v] : metadata) {
      json += (first ? "" : ",") + jsonQuote(k) + ":" + jsonQuote(v);
      first = false;
    }
    json += "}";
  }
  Prepared p;
  uint64_t offset = 0;
  for (const auto &[name, t] : sorted) {
    if (json.size() > 1)
      json += ",";
    json += jsonQuote(name) + ":{\"dtype\":\"" + dtypeCode(t.dtype()) +
            "\",\"shape\":[";
    for (size_t i = 0; i < t.shape().size(); ++i)
      json += (i ? "," : "") + std::to_string(t.shape()[i]);
    uint64_t end = offset + t.nbytes();
    json += "],\"data_offsets\":[" + std::to_string(offset) + "," +
            std::to_string(end) + "]}";
    offset = end;
    p.data.push_back(t);
  }
  json += "}";
  // Padded with spaces to a multiple of 8, as the reference writer does.
  json.append((8 - json.size() % 8) % 8, ' ');
  if (json.size() > kMaxHeaderSize)
    fail("the header would exceed the format's limit of 100 MB");
  p.header.resize(8);
  uint64_t n = json.size();
  for (int k = 0; k < 8; ++k)
    p.header[k] = char((n >> (8 * k)) & 0xFF);
  p.header += json;
  return p;
}

/// `t`'s bytes in file order (a copy only on a big-endian host).
std::string_view fileBytes(const Tensor &t, std::string &scratch) {
  if (t.nbytes() == 0)
    return {};
  std::string_view raw(static_cast<const char *>(t.raw_data()), t.nbytes());
  if constexpr (std::endian::native == std::endian::big) {
    scratch.assign(raw);
    toFileOrder(scratch.data(), scratch.size(), dtype_size(t.dtype()));
    return scratch;
  }
  return raw;
}

/// Writes `chunks` to `path` through a temporary file beside it.
void writeAtomically(
    const std::string &path,
    const std::function<void(const std::function<void(std::string_view)> &)>
        &emit,
    const char *fn) {
  auto failWrite = [&](const std::string &why) {
    throw InvalidArgumentError(std::string(fn) + ": cannot write '" + path +
                               "': " + why);
  };
  // Distinct per call and per process; O_EXCL settles any collision.
  static std::atomic<uint64_t> calls{0};
  std::mt19937_64 rng(
      uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (calls.fetch_add(1) << 40));
  std::string tmp;
  Fd f;
  for (int attempt = 0; f.fd < 0; ++attempt) {
    char suffix[17];
    std::snprintf(suffix, sizeof suffix, "%016llx",
                  static_cast<unsigned long long>(rng()));
    tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" + suffix;
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (f.fd < 0 && (errno != EEXIST || attempt == 100))
      failWrite(errnoText());
  }
  // From here on a failure removes the temporary file.
  auto abandon = [&](const std::string &why) {
    ::close(f.fd);
    f.fd = -1;
    ::unlink(tmp.c_str());
    failWrite(why);
  };
  try {
    emit([&](std::string_view chunk) {
      while (!chunk.empty()) {
        ssize_t w = ::write(f.fd, chunk.data(), chunk.size());
        if (w < 0 && errno == EINTR)
          continue;
        if (w < 0)
          abandon(errnoText());
        chunk.remove_prefix(size_t(w));
      }
    });
  } catch (...) {
    if (f.fd >= 0) {
      ::close(f.fd);
      f.fd = -1;
      ::unlink(tmp.c_str());
    }
    throw;
  }
  // Durable before it becomes visible: a crash leaves the old file or the
  // whole new one, never a short one under `path`.
  if (::fsync(f.fd) != 0)
    abandon(errnoText());
  int rc = ::close(f.fd);
  f.fd = -1;
  if (rc != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = errnoText();
    ::unlink(tmp.c_str());
    failWrite(why);
  }
  // Make the rename itself durable; the file is in place either way.
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  int dfd = ::open(dir.empty() ? "." : dir.c_str(),
                   O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    (void)::fsync(dfd);
    ::close(dfd);
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

std::string tfc::train::encode_safetensors(
    const std::vector<std::pair<std::string, Tensor>> &tensors,
    const std::map<std::string, std::string> &metadata) {
  Prepared p = prepare(tensors, metadata, "encode_safetensors");
  std::string out = std::move(p.header), scratch;
  for (const Tensor &t : p.data)
    out.append(fileBytes(t, scratch));
  return out;
}

void tfc::train::save_safetensors(
    const std::string &path,
    const std::vector<std::pair<std::string, Tensor>> &tensors,
    const std::map<std::string, std::string> &metadata) {
  Prepared p = prepare(tensors, metadata, "save_safetensors");
  writeAtomically(
      path,
      [&](const std::function<void(std::string_view)> &write) {
        write(p.header);
        std::string scratch;
        for (const Tensor &t : p.data)
          write(fileBytes(t, scratch));
      },
      "save_safetensors");
}

SafeTensorsFile tfc::train::decode_safetensors(std::string_view bytes,
                                               const std::string &name) {
  const auto *data = reinterpret_cast<const unsigned char *>(bytes.data());
  uint64_t n = checkHeaderSize(data, bytes.size(), name);
  Header h = parseHeader(bytes.substr(8, n), bytes.size() - 8 - n, name);
  std::string_view buffer = bytes.substr(8 + n);
  return readTensors(h, name, [&](uint64_t offset, void *dst, size_t len) {
    std::memcpy(dst, buffer.data() + offset, len);
  });
}

SafeTensorsFile tfc::train::load_safetensors(const std::string &path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0)
    failLoad(path, "cannot open: " + errnoText());
  struct stat st;
  if (::fstat(f.fd, &st) != 0)
    failLoad(path, "cannot stat: " + errnoText());
  if (!S_ISREG(st.st_mode))
    failLoad(path, "not a regular file");
  uint64_t fileSize = uint64_t(st.st_size);

  // pread the exact byte range [offset, offset + len) or fail.
  auto readAt = [&](uint64_t offset, void *dst, size_t len) {
    auto *p = static_cast<char *>(dst);
    while (len) {
      ssize_t r = ::pread(f.fd, p, len, off_t(offset));
      if (r < 0 && errno == EINTR)
        continue;
      if (r < 0)
        failLoad(path, "read error: " + errnoText());
      if (r == 0)
        failLoad(path, "the file shrank while it was read");
      p += r;
      offset += uint64_t(r);
      len -= size_t(r);
    }
  };
  unsigned char prefix[8] = {};
  if (fileSize >= 8)
    readAt(0, prefix, 8);
  uint64_t n = checkHeaderSize(prefix, fileSize, path);
  std::string header(n, '\0');
  readAt(8, header.data(), n);
  Header h = parseHeader(header, fileSize - 8 - n, path);
  return readTensors(h, path, [&](uint64_t offset, void *dst, size_t len) {
    readAt(8 + n + offset, dst, len);
  });
}
