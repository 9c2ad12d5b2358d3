//===- NpyReader.cpp - Read NumPy .npy files into tensors -----------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Format (numpy/lib/format.py): the magic "\x93NUMPY", a major and a minor
// version byte, the header length (uint16 LE in version 1, uint32 LE in
// versions 2 and 3), then an ASCII Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a newline, then the raw elements.
//
//===----------------------------------------------------------------------===//

#include "NpyReader.h"

#include "tfc/JIT/SourceLimits.h"
#include "tfc/runtime/Error.h"

#include <bit>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <vector>

using namespace tfc;

namespace {

class HeaderParser {
public:
  HeaderParser(std::string_view header, const std::string &name)
      : header(header), name(name) {}

  [[noreturn]] void fail(const std::string &why) const {
    throw InvalidArgumentError("cannot read '" + name + "' as .npy: " + why);
  }

  /// The text after `'key':`, or a failure naming the missing key.
  size_t find(std::string_view key) const {
    for (char quote : {'\'', '"'}) {
      std::string quoted;
      quoted.reserve(key.size() + 2);
      quoted.push_back(quote);
      quoted.append(key);
      quoted.push_back(quote);
      size_t at = header.find(quoted);
      if (at == std::string_view::npos)
        continue;
      size_t pos = at + quoted.size();
      pos = skipSpace(pos);
      if (pos >= header.size() || header[pos] != ':')
        fail("malformed header: no ':' after '" + std::string(key) + "'");
      return skipSpace(pos + 1);
    }
    fail("the header has no '" + std::string(key) + "' entry");
  }

  std::string stringValue(std::string_view key) const {
    size_t pos = find(key);
    if (pos >= header.size() || (header[pos] != '\'' && header[pos] != '"'))
      fail("'" + std::string(key) + "' is not a string");
    char quote = header[pos];
    size_t end = header.find(quote, pos + 1);
    if (end == std::string_view::npos)
      fail("unterminated string for '" + std::string(key) + "'");
    return std::string(header.substr(pos + 1, end - pos - 1));
  }

  bool boolValue(std::string_view key) const {
    size_t pos = find(key);
    if (header.substr(pos, 4) == "True")
      return true;
    if (header.substr(pos, 5) == "False")
      return false;
    fail("'" + std::string(key) + "' is not True or False");
  }

  std::vector<int64_t> shapeValue() const {
    size_t pos = find("shape");
    if (pos >= header.size() || header[pos] != '(')
      fail("'shape' is not a tuple");
    std::vector<int64_t> shape;
    ++pos;
    while (true) {
      pos = skipSpace(pos);
      if (pos >= header.size())
        fail("unterminated 'shape' tuple");
      if (header[pos] == ')')
        return shape;
      if (!std::isdigit(static_cast<unsigned char>(header[pos])))
        fail("'shape' holds something other than non-negative integers");
      int64_t dim = 0;
      while (pos < header.size() &&
             std::isdigit(static_cast<unsigned char>(header[pos]))) {
        if (dim > (std::numeric_limits<int64_t>::max() - 9) / 10)
          fail("a dim of 'shape' is too large");
        dim = dim * 10 + (header[pos++] - '0');
      }
      shape.push_back(dim);
      pos = skipSpace(pos);
      if (pos < header.size() && header[pos] == ',')
        ++pos;
      else if (pos < header.size() && header[pos] != ')')
        fail("malformed 'shape' tuple");
    }
  }

private:
  size_t skipSpace(size_t pos) const {
    while (pos < header.size() &&
           std::isspace(static_cast<unsigned char>(header[pos])))
      ++pos;
    return pos;
  }

  std::string_view header;
  const std::string &name;
};

uint32_t readLE(const unsigned char *p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

} // namespace

Tensor tfc::run::decodeNpy(std::string_view bytes, const std::string &name) {
  static_assert(std::endian::native == std::endian::little,
                "the .npy reader copies little-endian data as is");
  auto fail = [&](const std::string &why) -> InvalidArgumentError {
    return InvalidArgumentError("cannot read '" + name + "' as .npy: " + why);
  };
  const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
  if (bytes.size() < 10 || std::memcmp(p, "\x93NUMPY", 6) != 0)
    throw fail("not a .npy file (missing the \\x93NUMPY magic)");
  int major = p[6];
  size_t headerStart, headerLen;
  if (major == 1) {
    headerLen = readLE(p + 8, 2);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      throw fail("truncated header");
    headerLen = readLE(p + 8, 4);
    headerStart = 12;
  } else {
    throw fail("unsupported format version " + std::to_string(major) +
               " (expected 1, 2 or 3)");
  }
  if (bytes.size() < headerStart + headerLen)
    throw fail("truncated header");
  HeaderParser header(bytes.substr(headerStart, headerLen), name);

  std::string descr = header.stringValue("descr");
  DType dtype;
  if (descr == "<f4")
    dtype = DType::Float32;
  else if (descr == "<f8")
    dtype = DType::Float64;
  else if (descr == "<i4")
    dtype = DType::Int32;
  else if (descr == "<i8")
    dtype = DType::Int64;
  else if (descr == "|b1")
    dtype = DType::Bool;
  else if (!descr.empty() && descr[0] == '>')
    throw fail("big-endian data ('" + descr +
               "') is not supported; save it little-endian");
  else
    throw fail("unsupported dtype '" + descr +
               "' (supported: <f4 <f8 <i4 <i8 |b1)");
  if (header.boolValue("fortran_order"))
    throw fail("Fortran-order arrays are not supported; save a C-order copy "
               "(numpy.ascontiguousarray)");
  std::vector<int64_t> shape = header.shapeValue();

  // Overflow-checked element count.
  size_t numel = 1;
  for (int64_t d : shape) {
    if (d != 0 && numel > std::numeric_limits<size_t>::max() /
                              dtype_size(dtype) / static_cast<size_t>(d))
      throw fail("the shape " + shape_to_string(shape) + " is too large");
    numel *= static_cast<size_t>(d);
  }
  size_t want = numel * dtype_size(dtype);
  size_t have = bytes.size() - headerStart - headerLen;
  if (have != want)
    throw fail("the data has " + std::to_string(have) + " bytes, but " +
               std::string(to_string(dtype)) + " " + shape_to_string(shape) +
               " needs " + std::to_string(want));

  Tensor t = Tensor::empty(dtype, shape);
  if (want == 0)
    return t;
  const unsigned char *data = p + headerStart + headerLen;
  if (dtype == DType::Bool) {
    bool *out = t.data<bool>();
    for (size_t i = 0; i < numel; ++i)
      out[i] = data[i] != 0; // Any other byte would be an invalid bool.
  } else {
    std::memcpy(t.raw_data(), data, want);
  }
  return t;
}

Tensor tfc::run::readNpy(const std::string &path) {
  return decodeNpy(jit::readSourceFile(path, ""), path);
}
