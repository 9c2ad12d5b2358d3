//===- Npy.cpp - NumPy .npy files -----------------------------------------===//
//
// Format (numpy/lib/format.py): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (uint16 LE in version 1.0, uint32 LE in
// 2.0 and 3.0), then an ASCII Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and ending in '\n', then the raw elements.
//
// The reader trusts nothing in the file: every length is checked against
// the bytes actually there before anything is allocated or copied, so a
// damaged or hostile file is an InvalidArgumentError, never a crash or a
// huge allocation.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Npy.h"

#include "Internal.h"

#include "tfc/runtime/Error.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tfc;

static_assert(std::endian::native == std::endian::little,
              "the .npy code copies little-endian data as is");

namespace {

/// NumPy 2's NPY_MAXDIMS; a deeper shape is a damaged header.
constexpr size_t kMaxRank = 64;
/// Prefix bytes before the header: magic (6), version (2), length (2 or 4).
constexpr size_t kMaxPrefix = 12;
/// NumPy's headers are under 200 bytes (a 64-dim shape needs ~1.5 KB);
/// anything near this is damage, not a header worth allocating for.
constexpr uint64_t kMaxHeader = 1 << 20;

[[noreturn]] void fail(const std::string &name, const std::string &why) {
  throw InvalidArgumentError("cannot read '" + name + "' as .npy: " + why);
}

/// The header's position, from the file's first bytes (`n` of them, at most
/// kMaxPrefix are looked at).
struct Prefix {
  size_t headerStart = 0;
  uint64_t headerLen = 0;
};

Prefix parsePrefix(const unsigned char *p, size_t n, const std::string &name) {
  if (n < 8 || std::memcmp(p, "\x93NUMPY", 6) != 0)
    fail(name, "not a .npy file (missing the \\x93NUMPY magic)");
  int major = p[6], minor = p[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    fail(name, "unsupported format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (expected 1.0, 2.0 or 3.0)");
  Prefix out;
  out.headerStart = major == 1 ? 10 : 12;
  if (n < out.headerStart)
    fail(name, "truncated header (the file ends inside the header length)");
  for (size_t i = out.headerStart; i-- > 8;)
    out.headerLen = (out.headerLen << 8) | p[i];
  return out;
}

/// The header fits in a file of `size` bytes and is of a sane length.
void checkHeaderLen(const Prefix &prefix, uint64_t size,
                    const std::string &name) {
  if (prefix.headerLen > size - prefix.headerStart)
    fail(name, "truncated header (it claims " +
                   std::to_string(prefix.headerLen) + " bytes; the file has " +
                   std::to_string(size - prefix.headerStart) +
                   " after the prefix)");
  if (prefix.headerLen > kMaxHeader)
    fail(name, "the header of " + std::to_string(prefix.headerLen) +
                   " bytes is too long (at most " + std::to_string(kMaxHeader) +
                   ")");
}

/// What the header says about the data.
struct Header {
  DType dtype = DType::Float32;
  bool byteSwap = false; ///< Big-endian data, converted after reading.
  std::vector<int64_t> shape;
  size_t numel = 0;
  size_t dataBytes = 0;
};

/// A strict parser for the header's dict literal: exactly the keys
/// 'descr', 'fortran_order' and 'shape', each once, in any order, with
/// Python's literal syntax for their values.
class HeaderParser {
public:
  HeaderParser(std::string_view text, const std::string &name)
      : text(text), name(name) {}

  Header parse() {
    expect('{', "'{' at the start of the dict");
    bool haveDescr = false, haveFortran = false, haveShape = false;
    std::string descr;
    bool fortran = false;
    Header h;
    while (!eat('}')) {
      std::string key = quoted("a key");
      expect(':', "':' after '" + key + "'");
      if (key == "descr") {
        once(haveDescr, key);
        skipSpace();
        if (pos < text.size() && text[pos] == '[')
          fail(name, "structured dtypes (a list as 'descr') are not "
                     "supported (supported: <f4 <f8 <i4 <i8 |b1)");
        descr = quoted("a string for 'descr'");
      } else if (key == "fortran_order") {
        once(haveFortran, key);
        fortran = boolean(key);
      } else if (key == "shape") {
        once(haveShape, key);
        h.shape = shape();
      } else {
        fail(name, "unexpected key '" + printable(key) +
                       "' in the header (expected 'descr', 'fortran_order' "
                       "and 'shape')");
      }
      if (eat(','))
        continue;
      expect('}', "',' or '}' after the value of '" + key + "'");
      break;
    }
    skipSpace();
    if (pos != text.size())
      malformed("text after the closing '}'");
    if (!haveDescr || !haveFortran || !haveShape)
      fail(name, std::string("the header has no '") +
                     (!haveDescr     ? "descr"
                      : !haveFortran ? "fortran_order"
                                     : "shape") +
                     "' entry");

    if (descr == "<f4" || descr == ">f4")
      h.dtype = DType::Float32;
    else if (descr == "<f8" || descr == ">f8")
      h.dtype = DType::Float64;
    else if (descr == "<i4" || descr == ">i4")
      h.dtype = DType::Int32;
    else if (descr == "<i8" || descr == ">i8")
      h.dtype = DType::Int64;
    else if (descr == "|b1")
      h.dtype = DType::Bool;
    else
      fail(name, "unsupported dtype '" + printable(descr) +
                     "' (supported: <f4 <f8 <i4 <i8 |b1, and big-endian "
                     ">f4 >f8 >i4 >i8)");
    h.byteSwap = descr[0] == '>';
    if (fortran)
      fail(name, "Fortran-order arrays are not supported; save a C-order "
                 "copy (numpy.ascontiguousarray)");

    // Element count and byte size, overflow-checked over the non-zero dims
    // (as NumPy does), so no shape can wrap around to a small size.
    size_t itemSize = dtype_size(h.dtype);
    size_t limit = static_cast<size_t>(std::numeric_limits<int64_t>::max());
    size_t nonZero = 1;
    bool anyZero = false;
    for (int64_t d : h.shape) {
      if (d == 0) {
        anyZero = true;
        continue;
      }
      if (nonZero > limit / itemSize / static_cast<size_t>(d))
        fail(name, "the shape " + shape_to_string(h.shape) + " of " +
                       std::string(to_string(h.dtype)) + " is too large");
      nonZero *= static_cast<size_t>(d);
    }
    h.numel = anyZero ? 0 : nonZero;
    h.dataBytes = h.numel * itemSize;
    return h;
  }

private:
  /// `s` with anything outside printable ASCII as \xNN, cut at 40 chars.
  static std::string printable(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size() && i < 40; ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c < 0x7f) {
        out.push_back(static_cast<char>(c));
      } else {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      }
    }
    if (s.size() > 40)
      out += "...";
    return out;
  }

  [[noreturn]] void malformed(const std::string &what) const {
    fail(name, "malformed header: " + what + " (at byte " +
                   std::to_string(pos) + " of the header '" + printable(text) +
                   "')");
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  bool eat(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  void expect(char c, const std::string &what) {
    if (!eat(c))
      malformed("expected " + what);
  }
  void once(bool &seen, const std::string &key) {
    if (seen)
      fail(name, "the header has '" + key + "' twice");
    seen = true;
  }

  /// A quoted string without escapes (no valid header needs one).
  std::string quoted(const std::string &what) {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      malformed("expected " + what);
    char quote = text[pos];
    size_t start = ++pos;
    while (pos < text.size() && text[pos] != quote) {
      unsigned char c = static_cast<unsigned char>(text[pos]);
      if (c == '\\' || c < 0x20 || c >= 0x7f)
        malformed("unsupported character in a string");
      ++pos;
    }
    if (pos >= text.size())
      malformed("unterminated string");
    return std::string(text.substr(start, pos++ - start));
  }

  bool boolean(const std::string &key) {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[pos])) ||
            text[pos] == '_'))
      ++pos;
    std::string_view word = text.substr(start, pos - start);
    if (word == "True")
      return true;
    if (word == "False")
      return false;
    pos = start;
    malformed("'" + key + "' is not True or False");
  }

  std::vector<int64_t> shape() {
    std::vector<int64_t> dims;
    if (!eat('('))
      malformed("'shape' is not a tuple");
    bool trailingComma = false;
    while (!eat(')')) {
      skipSpace();
      if (pos < text.size() && text[pos] == '-')
        fail(name, "'shape' has a negative dim");
      if (pos >= text.size() ||
          !std::isdigit(static_cast<unsigned char>(text[pos])))
        malformed("'shape' holds something other than non-negative "
                  "integers");
      int64_t dim = 0;
      while (pos < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[pos]))) {
        int digit = text[pos++] - '0';
        if (dim > (std::numeric_limits<int64_t>::max() - digit) / 10)
          fail(name, "a dim of 'shape' is too large");
        dim = dim * 10 + digit;
      }
      if (dims.size() == kMaxRank)
        fail(name,
             "'shape' has more than " + std::to_string(kMaxRank) + " dims");
      dims.push_back(dim);
      trailingComma = eat(',');
      if (!trailingComma) {
        expect(')', "',' or ')' in 'shape'");
        break;
      }
    }
    // Python reads "(3)" as the integer 3, which NumPy rejects too.
    if (dims.size() == 1 && !trailingComma)
      malformed("'shape' (" + std::to_string(dims[0]) +
                ") is not a tuple; a 1-d shape is written (" +
                std::to_string(dims[0]) + ",)");
    return dims;
  }

  std::string_view text;
  const std::string &name;
  size_t pos = 0;
};

/// The data bytes must be exactly what the header claims.
void checkDataSize(const Header &h, uint64_t have, const std::string &name) {
  if (have == h.dataBytes)
    return;
  std::string why = "the data has " + std::to_string(have) + " bytes, but " +
                    std::string(to_string(h.dtype)) + " " +
                    shape_to_string(h.shape) + " needs " +
                    std::to_string(h.dataBytes);
  fail(name, why + (have < h.dataBytes ? " (the file is truncated)"
                                       : " (trailing bytes after the data)"));
}

/// After the raw bytes are in place: bools to 0/1, big-endian to native.
void finish(Tensor &t, const Header &h) {
  if (h.numel == 0)
    return;
  if (h.dtype == DType::Bool) {
    auto *d = static_cast<uint8_t *>(t.raw_data());
    for (size_t i = 0; i < h.numel; ++i)
      d[i] = d[i] != 0;
  } else if (h.byteSwap) {
    if (dtype_size(h.dtype) == 4) {
      auto *d = static_cast<uint32_t *>(t.raw_data());
      for (size_t i = 0; i < h.numel; ++i)
        d[i] = __builtin_bswap32(d[i]);
    } else {
      auto *d = static_cast<uint64_t *>(t.raw_data());
      for (size_t i = 0; i < h.numel; ++i)
        d[i] = __builtin_bswap64(d[i]);
    }
  }
}

std::string errnoText() { return std::strerror(errno); }

/// Reads up to `n` bytes at the current offset; fewer only at end of file.
size_t readFully(int fd, void *dst, size_t n, const std::string &path) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = ::read(fd, static_cast<char *>(dst) + done, n - done);
    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0)
      throw InvalidArgumentError("cannot read '" + path + "': " + errnoText());
    if (r == 0)
      break;
    done += static_cast<size_t>(r);
  }
  return done;
}

/// Closes a file descriptor on every path out.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0)
      ::close(fd);
  }
};

std::string headerFor(const Tensor &t) {
  std::string descr;
  switch (t.dtype()) {
  case DType::Bool:
    descr = "|b1";
    break;
  case DType::Int32:
    descr = "<i4";
    break;
  case DType::Int64:
    descr = "<i8";
    break;
  case DType::Float32:
    descr = "<f4";
    break;
  case DType::Float64:
    descr = "<f8";
    break;
  }
  // Python's repr of the shape tuple: (), (3,), (2, 3).
  std::string shape = "(";
  const auto &dims = t.shape();
  for (size_t i = 0; i < dims.size(); ++i)
    shape += (i ? ", " : "") + std::to_string(dims[i]);
  shape += dims.size() == 1 ? ",)" : ")";
  std::string dict = "{'descr': '" + descr +
                     "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad so the data starts at a multiple of 64 bytes (NumPy's ARRAY_ALIGN).
  size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  std::string out = "\x93NUMPY";
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(dict.size() & 0xff));
  out.push_back(static_cast<char>(dict.size() >> 8));
  return out + dict;
}

void requireSavable(const Tensor &t) {
  if (!t.defined())
    throw InvalidArgumentError(
        "save_npy: the tensor is undefined (default-constructed)");
  if (t.is_symbolic())
    throw InvalidArgumentError(detail::concat_str(
        "save_npy: tensor of shape ", t.shape(), " and dtype ", t.dtype(),
        " is a symbolic tensor (created while tracing); only concrete "
        "tensors can be saved"));
  detail::wait_for_device(t, "save_npy");
}

/// The data bytes to write: the tensor's own, bools normalised to 0/1.
std::string_view dataFor(const Tensor &t, std::string &scratch) {
  const char *raw = static_cast<const char *>(t.unsafe_impl()->data);
  size_t bytes = t.nbytes();
  if (bytes == 0)
    return {};
  if (t.dtype() != DType::Bool)
    return std::string_view(raw, bytes);
  scratch.resize(bytes);
  for (size_t i = 0; i < bytes; ++i)
    scratch[i] = raw[i] != 0;
  return scratch;
}

} // namespace

Tensor tfc::decode_npy(std::string_view bytes, const std::string &name) {
  const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
  Prefix prefix = parsePrefix(p, std::min(bytes.size(), kMaxPrefix), name);
  checkHeaderLen(prefix, bytes.size(), name);
  size_t dataStart = prefix.headerStart + prefix.headerLen;
  Header h =
      HeaderParser(bytes.substr(prefix.headerStart, prefix.headerLen), name)
          .parse();
  checkDataSize(h, bytes.size() - dataStart, name);
  Tensor t = Tensor::empty(h.dtype, h.shape);
  if (h.dataBytes)
    std::memcpy(t.raw_data(), p + dataStart, h.dataBytes);
  finish(t, h);
  return t;
}

Tensor tfc::load_npy(const std::string &path) {
  Fd f;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0)
    throw InvalidArgumentError("cannot open '" + path + "': " + errnoText());
  struct stat st;
  if (::fstat(f.fd, &st) != 0)
    throw InvalidArgumentError("cannot read '" + path + "': " + errnoText());
  if (S_ISDIR(st.st_mode))
    throw InvalidArgumentError("cannot read '" + path +
                               "' as .npy: it is a directory");
  if (S_ISFIFO(st.st_mode)) {
    // A pipe: no size to check against up front, so read it all.
    std::string bytes;
    char buf[65536];
    while (size_t n = readFully(f.fd, buf, sizeof buf, path)) {
      bytes.append(buf, n);
      if (n < sizeof buf)
        break;
    }
    return decode_npy(bytes, path);
  }
  if (!S_ISREG(st.st_mode))
    throw InvalidArgumentError("cannot read '" + path +
                               "' as .npy: not a regular file");

  // A regular file: check every length against its size, then read the
  // data straight into the tensor.
  uint64_t size = static_cast<uint64_t>(st.st_size);
  unsigned char prefixBytes[kMaxPrefix];
  size_t got = readFully(f.fd, prefixBytes, kMaxPrefix, path);
  Prefix prefix = parsePrefix(prefixBytes, got, path);
  checkHeaderLen(prefix, size, path);
  std::string header(prefix.headerLen, '\0');
  if (::lseek(f.fd, static_cast<off_t>(prefix.headerStart), SEEK_SET) < 0)
    throw InvalidArgumentError("cannot read '" + path + "': " + errnoText());
  if (readFully(f.fd, header.data(), header.size(), path) != header.size())
    fail(path, "the file shrank while it was read");
  Header h = HeaderParser(header, path).parse();
  checkDataSize(h, size - prefix.headerStart - prefix.headerLen, path);
  Tensor t = Tensor::empty(h.dtype, h.shape);
  if (h.dataBytes &&
      readFully(f.fd, t.raw_data(), h.dataBytes, path) != h.dataBytes)
    fail(path, "the file shrank while it was read");
  finish(t, h);
  return t;
}

std::string tfc::encode_npy(const Tensor &t) {
  requireSavable(t);
  std::string scratch;
  std::string out = headerFor(t);
  out.append(dataFor(t, scratch));
  return out;
}

void tfc::save_npy(const std::string &path, const Tensor &t) {
  requireSavable(t);
  std::string header = headerFor(t), scratch;
  std::string_view data = dataFor(t, scratch);

  // A fresh temporary name beside `path` (same file system, so rename is
  // atomic); the counter keeps concurrent saves in one process apart.
  static std::atomic<uint64_t> counter{0};
  std::string tmp;
  Fd f;
  for (int attempt = 0; f.fd < 0; ++attempt) {
    tmp = path + ".tmp." + std::to_string(::getpid()) + "." +
          std::to_string(counter.fetch_add(1));
    f.fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (f.fd < 0 && (errno != EEXIST || attempt == 100))
      throw InvalidArgumentError("save_npy: cannot write '" + path +
                                 "': " + errnoText());
  }
  auto failWrite = [&](const std::string &why) {
    ::close(f.fd);
    f.fd = -1;
    ::unlink(tmp.c_str());
    throw InvalidArgumentError("save_npy: cannot write '" + path + "': " + why);
  };
  for (std::string_view chunk : {std::string_view(header), data}) {
    while (!chunk.empty()) {
      ssize_t w = ::write(f.fd, chunk.data(), chunk.size());
      if (w < 0 && errno == EINTR)
        continue;
      if (w < 0)
        failWrite(errnoText());
      chunk.remove_prefix(static_cast<size_t>(w));
    }
  }
  // Durable before it becomes visible: a crash leaves the old file or the
  // whole new one, never a short one under `path`.
  if (::fsync(f.fd) != 0)
    failWrite(errnoText());
  int rc = ::close(f.fd);
  f.fd = -1;
  if (rc != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    std::string why = errnoText();
    ::unlink(tmp.c_str());
    throw InvalidArgumentError("save_npy: cannot write '" + path + "': " + why);
  }
}
