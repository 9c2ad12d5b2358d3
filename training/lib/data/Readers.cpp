//===- Readers.cpp - IDX and CSV readers over plain or gzip files ---------===//
//
// Every reader pulls bytes through ByteReader, which inflates gzip files
// with zlib as it goes, so nothing trusts a size it has not seen: buffers
// grow with the bytes actually read, never to a size a header claims.
//
//===----------------------------------------------------------------------===//

#include "tfc/data/Readers.h"

#include "tfc/frontend/Creation.h"
#include "tfc/runtime/Error.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <sys/stat.h>

namespace tfc::data {

namespace {

/// Throws InvalidArgumentError "<fn>: <path>: <message>".
template <class... A>
[[noreturn]] void fail(const char *fn, const std::string &path, A &&...args) {
  std::ostringstream os;
  os << fn << ": " << path << ": ";
  (os << ... << args);
  throw InvalidArgumentError(os.str());
}

/// The bytes of a plain or gzip-compressed file, read in order.
class ByteReader {
public:
  ByteReader(const char *fn, const std::string &path)
      : fn(fn), path(path), file(std::fopen(path.c_str(), "rb"), std::fclose) {
    if (!file)
      fail(fn, path, "cannot open: ", std::strerror(errno));
    struct stat st;
    if (::fstat(fileno(file.get()), &st) == 0) {
      if (S_ISDIR(st.st_mode))
        fail(fn, path, "is a directory");
      if (S_ISREG(st.st_mode))
        fileSize = static_cast<uint64_t>(st.st_size);
    }
    refill();
    gzip = avail >= 2 && in[0] == 0x1f && in[1] == 0x8b;
    if (gzip) {
      std::memset(&zs, 0, sizeof zs);
      // 16 + MAX_WBITS: a gzip wrapper, whose CRC and length zlib checks.
      if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
        gzip = false;
        fail(fn, path, "cannot initialise zlib");
      }
    }
  }
  ~ByteReader() {
    if (gzip)
      inflateEnd(&zs);
  }
  ByteReader(const ByteReader &) = delete;
  ByteReader &operator=(const ByteReader &) = delete;

  /// The size of a regular file that is not compressed (the data's size).
  std::optional<uint64_t> plainSize() const {
    return gzip ? std::nullopt : fileSize;
  }

  /// Reads up to `n` bytes into `dst`; fewer only at the end of the data.
  size_t read(void *dst, size_t n) {
    auto *out = static_cast<unsigned char *>(dst);
    return gzip ? inflateInto(out, n) : copyInto(out, n);
  }

  /// True when no byte is left.
  bool atEnd() {
    unsigned char byte;
    return read(&byte, 1) == 0;
  }

private:
  void refill() {
    pos = 0;
    avail = std::fread(in.data(), 1, in.size(), file.get());
    if (avail == 0 && std::ferror(file.get()))
      fail(fn, path, "read error: ", std::strerror(errno));
  }

  size_t copyInto(unsigned char *out, size_t n) {
    size_t got = 0;
    while (got < n) {
      if (pos == avail) {
        refill();
        if (avail == 0)
          break;
      }
      size_t k = std::min(n - got, avail - pos);
      std::memcpy(out + got, in.data() + pos, k);
      pos += k;
      got += k;
    }
    return got;
  }

  size_t inflateInto(unsigned char *out, size_t n) {
    size_t got = 0;
    while (got < n) {
      if (pos == avail) {
        refill();
        if (avail == 0) {
          if (!streamEnd)
            fail(fn, path, "truncated gzip data");
          break; // the end of the last gzip member, and of the file
        }
      }
      if (streamEnd) {
        // Bytes after a gzip member must be another member (as gunzip);
        // inflate rejects anything else as a bad header.
        inflateReset(&zs);
        streamEnd = false;
      }
      zs.next_in = in.data() + pos;
      zs.avail_in = static_cast<uInt>(avail - pos);
      zs.next_out = out + got;
      zs.avail_out = static_cast<uInt>(std::min<size_t>(n - got, UINT_MAX));
      int rc = inflate(&zs, Z_NO_FLUSH);
      pos = avail - zs.avail_in;
      got = static_cast<size_t>(zs.next_out - out);
      if (rc == Z_STREAM_END)
        streamEnd = true;
      else if (rc != Z_OK && rc != Z_BUF_ERROR)
        fail(fn, path, "corrupt gzip data (",
             zs.msg ? zs.msg : "zlib error " + std::to_string(rc), ")");
    }
    return got;
  }

  const char *fn;
  const std::string &path;
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file;
  std::optional<uint64_t> fileSize;
  std::array<unsigned char, 1 << 16> in;
  size_t pos = 0, avail = 0;
  bool gzip = false, streamEnd = false;
  z_stream zs;
};

// --- IDX ---------------------------------------------------------------------

struct IdxType {
  unsigned char code;
  const char *name;
  size_t bytes;
  DType dtype;
};
constexpr IdxType kIdxTypes[] = {
    {0x08, "unsigned byte", 1, DType::Int32},
    {0x09, "signed byte", 1, DType::Int32},
    {0x0B, "int16", 2, DType::Int32},
    {0x0C, "int32", 4, DType::Int32},
    {0x0D, "float32", 4, DType::Float32},
    {0x0E, "float64", 8, DType::Float64},
};
constexpr int kMaxIdxRank = 8;

/// Big-endian unsigned integer of `n` bytes.
uint64_t bigEndian(const unsigned char *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i)
    v = v << 8 | p[i];
  return v;
}

std::string hexByte(unsigned v) {
  static const char *digits = "0123456789abcdef";
  return std::string("0x") + digits[v >> 4 & 15] + digits[v & 15];
}

/// Element i of `raw` as `type` into `out`.
void convertIdx(const IdxType &type, const std::vector<unsigned char> &raw,
                Tensor &out) {
  size_t n = raw.size() / type.bytes;
  const unsigned char *p = raw.data();
  switch (type.code) {
  case 0x08:
    std::copy(p, p + n, out.data<int32_t>());
    return;
  case 0x09:
    for (size_t i = 0; i < n; ++i)
      out.data<int32_t>()[i] = static_cast<int8_t>(p[i]);
    return;
  case 0x0B:
    for (size_t i = 0; i < n; ++i)
      out.data<int32_t>()[i] =
          static_cast<int16_t>(static_cast<uint16_t>(bigEndian(p + 2 * i, 2)));
    return;
  case 0x0C:
    for (size_t i = 0; i < n; ++i)
      out.data<int32_t>()[i] =
          static_cast<int32_t>(static_cast<uint32_t>(bigEndian(p + 4 * i, 4)));
    return;
  case 0x0D:
    for (size_t i = 0; i < n; ++i)
      out.data<float>()[i] =
          std::bit_cast<float>(static_cast<uint32_t>(bigEndian(p + 4 * i, 4)));
    return;
  default: // 0x0E
    for (size_t i = 0; i < n; ++i)
      out.data<double>()[i] = std::bit_cast<double>(bigEndian(p + 8 * i, 8));
    return;
  }
}

} // namespace

Tensor read_idx(const std::string &path) {
  const char *fn = "read_idx";
  ByteReader reader(fn, path);
  unsigned char magic[4];
  size_t got = reader.read(magic, 4);
  if (got < 4)
    fail(fn, path, "truncated header: ", got,
         " bytes, an IDX file starts "
         "with 4 magic bytes");
  if (magic[0] != 0 || magic[1] != 0)
    fail(fn, path, "bad magic: an IDX file starts with 0x00 0x00, got ",
         hexByte(magic[0]), " ", hexByte(magic[1]));
  const IdxType *type = nullptr;
  for (const IdxType &t : kIdxTypes)
    if (t.code == magic[2])
      type = &t;
  if (!type)
    fail(fn, path, "unknown data type ", hexByte(magic[2]),
         " (known: 0x08 0x09 0x0b 0x0c 0x0d 0x0e)");
  int rank = magic[3];
  if (rank == 0 || rank > kMaxIdxRank)
    fail(fn, path, "unsupported number of dimensions ", rank, " (1 to ",
         kMaxIdxRank, ")");

  unsigned char dimBytes[4 * kMaxIdxRank];
  got = reader.read(dimBytes, 4 * size_t(rank));
  if (got < 4 * size_t(rank))
    fail(fn, path, "truncated header: ", rank, " dimensions need ", 4 * rank,
         " bytes, the file has ", got);
  std::vector<int64_t> shape;
  int64_t bytes = static_cast<int64_t>(type->bytes);
  for (int i = 0; i < rank; ++i) {
    auto dim = static_cast<int32_t>(
        static_cast<uint32_t>(bigEndian(dimBytes + 4 * i, 4)));
    if (dim < 0)
      fail(fn, path, "dimension ", i, " is negative (", dim, ")");
    shape.push_back(dim);
    if (__builtin_mul_overflow(bytes, int64_t(dim), &bytes))
      fail(fn, path, "dimensions ", shape_to_string(shape), "... of ",
           type->name, " overflow a 64-bit byte count");
  }
  uint64_t headerBytes = 4 + 4 * uint64_t(rank);
  std::string what = "dimensions " + shape_to_string(shape) + " of " +
                     type->name + " take " + std::to_string(bytes) + " bytes";
  // A plain file's size says at once whether the data is all there.
  if (std::optional<uint64_t> size = reader.plainSize()) {
    if (*size < headerBytes + uint64_t(bytes))
      fail(fn, path, "truncated data: ", what, ", the file has ",
           *size - headerBytes, " after the header");
    if (*size > headerBytes + uint64_t(bytes))
      fail(fn, path, "trailing bytes: ", what, ", the file has ",
           *size - headerBytes, " after the header");
  }

  // Grow with the data actually read: a hostile header allocates nothing.
  std::vector<unsigned char> raw;
  constexpr size_t kChunk = 1 << 20;
  while (raw.size() < uint64_t(bytes)) {
    size_t want = std::min<uint64_t>(kChunk, uint64_t(bytes) - raw.size());
    size_t old = raw.size();
    raw.resize(old + want);
    size_t k = reader.read(raw.data() + old, want);
    if (k < want)
      fail(fn, path, "truncated data: ", what, ", the file has ", old + k);
  }
  if (!reader.atEnd())
    fail(fn, path, "trailing bytes: ", what, ", the file has more after them");

  Tensor out = Tensor::empty(type->dtype, shape);
  convertIdx(*type, raw, out);
  return out;
}

// --- CSV ---------------------------------------------------------------------

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> splitFields(std::string_view line, char delim) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  for (;;) {
    size_t end = line.find(delim, start);
    fields.push_back(line.substr(start, end - start));
    if (end == std::string_view::npos)
      return fields;
    start = end + 1;
  }
}

/// A number of type T filling all of `s` (a leading '+' allowed), or none.
template <class T> std::optional<T> parseNumber(std::string_view s) {
  if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+')
    s.remove_prefix(1);
  T v{};
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size())
    return std::nullopt;
  return v;
}

std::optional<bool> parseBool(std::string_view s) {
  std::string lower(s);
  for (char &c : lower)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true" || lower == "1")
    return true;
  if (lower == "false" || lower == "0")
    return false;
  return std::nullopt;
}

/// One column's values: integers and bools as int64, floats as double
/// (each parsed at its own precision first, so the narrowing is exact).
struct Column {
  DType dtype;
  std::vector<int64_t> ints;
  std::vector<double> floats;

  /// Parses `field`; false when it is not a value of `dtype`.
  bool add(std::string_view field) {
    switch (dtype) {
    case DType::Bool:
      return push(parseBool(field), ints);
    case DType::Int32:
      return push(parseNumber<int32_t>(field), ints);
    case DType::Int64:
      return push(parseNumber<int64_t>(field), ints);
    case DType::Float32:
      return push(parseNumber<float>(field), floats);
    case DType::Float64:
      return push(parseNumber<double>(field), floats);
    }
    return false;
  }
  Tensor tensor() const {
    int64_t n = int64_t(dtype == DType::Float32 || dtype == DType::Float64
                            ? floats.size()
                            : ints.size());
    switch (dtype) {
    case DType::Bool:
      return from_vector<bool>(std::vector<bool>(ints.begin(), ints.end()),
                               {n});
    case DType::Int32:
      return from_vector<int32_t>(
          std::vector<int32_t>(ints.begin(), ints.end()), {n});
    case DType::Int64:
      return from_vector<int64_t>(ints, {n});
    case DType::Float32:
      return from_vector<float>(
          std::vector<float>(floats.begin(), floats.end()), {n});
    case DType::Float64:
      return from_vector<double>(floats, {n});
    }
    return Tensor();
  }

private:
  template <class T, class V>
  static bool push(const std::optional<T> &v, std::vector<V> &to) {
    if (v)
      to.push_back(static_cast<V>(*v));
    return v.has_value();
  }
};

} // namespace

std::vector<Tensor> read_csv(const std::string &path, CsvOptions options) {
  const char *fn = "read_csv";
  char delim = options.delimiter;
  if (delim == '\n' || delim == '\r' || delim == '\0')
    fail(fn, path, "the delimiter cannot be a line break or NUL");

  std::string text;
  {
    ByteReader reader(fn, path);
    char buf[1 << 16];
    while (size_t k = reader.read(buf, sizeof buf))
      text.append(buf, k);
  }

  std::vector<Column> columns;
  auto setColumns = [&](size_t count) {
    if (options.column_dtypes.empty())
      options.column_dtypes.assign(count, DType::Float32);
    for (DType d : options.column_dtypes)
      columns.push_back(Column{d, {}, {}});
  };
  if (!options.column_dtypes.empty())
    setColumns(0);

  std::string_view rest = text;
  bool headerPending = options.header;
  for (int64_t lineNo = 1; !rest.empty(); ++lineNo) {
    size_t eol = rest.find('\n');
    std::string_view line = rest.substr(0, eol);
    rest.remove_prefix(eol == std::string_view::npos ? rest.size() : eol + 1);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    if (line.empty() && !headerPending)
      continue;
    std::vector<std::string_view> fields = splitFields(line, delim);
    if (headerPending) {
      headerPending = false;
      if (columns.empty())
        setColumns(fields.size());
      else if (fields.size() != columns.size())
        fail(fn, path, "line ", lineNo, ": the header has ", fields.size(),
             " columns, column_dtypes has ", columns.size());
      continue;
    }
    if (columns.empty())
      setColumns(fields.size());
    if (fields.size() != columns.size())
      fail(fn, path, "line ", lineNo, ": ", fields.size(), " fields, expected ",
           columns.size());
    for (size_t c = 0; c < fields.size(); ++c) {
      std::string_view field = trim(fields[c]);
      if (field.empty())
        fail(fn, path, "line ", lineNo, ", column ", c + 1, ": empty field");
      if (!columns[c].add(field))
        fail(fn, path, "line ", lineNo, ", column ", c + 1, ": cannot parse '",
             field, "' as ", to_string(columns[c].dtype),
             " (not a number of that type, or out of its range)");
    }
  }
  if (headerPending)
    fail(fn, path, "the file is empty, expected a header line");

  std::vector<Tensor> out;
  for (const Column &c : columns)
    out.push_back(c.tensor());
  return out;
}

} // namespace tfc::data
