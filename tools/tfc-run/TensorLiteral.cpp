//===- TensorLiteral.cpp - Tensors from command-line literals -------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//

#include "TensorLiteral.h"

#include "tfc/runtime/Error.h"
#include "tfc/runtime/Npy.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace tfc;

namespace {

constexpr size_t kMaxLiteralDepth = 256;

std::optional<DType> parseDType(std::string_view name) {
  if (name == "i1" || name == "bool")
    return DType::Bool;
  if (name == "i32" || name == "int32")
    return DType::Int32;
  if (name == "i64" || name == "int64")
    return DType::Int64;
  if (name == "f32" || name == "float32")
    return DType::Float32;
  if (name == "f64" || name == "float64")
    return DType::Float64;
  return std::nullopt;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

/// Recursive-descent parser for nested brackets of scalar tokens. It records
/// the shape while it goes and rejects ragged or mixed nesting.
class LiteralParser {
public:
  LiteralParser(std::string_view text, std::string_view whole)
      : text(text), whole(whole) {}

  void parse() {
    parseValue(0);
    skipSpace();
    if (pos != text.size())
      fail("unexpected '" + std::string(1, text[pos]) + "' after the value");
    // parseValue reached a leaf, so the rank is known.
    shape.resize(rank.value_or(0));
  }

  std::vector<int64_t> shape;
  std::vector<std::string> tokens;

  [[noreturn]] void fail(const std::string &why) const {
    throw InvalidArgumentError("bad tensor literal '" + std::string(whole) +
                               "': " + why);
  }

private:
  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  /// Leaves at depth `depth` fix the rank; all leaves must agree.
  void setRank(size_t depth) {
    if (!rank)
      rank = depth;
    else if (*rank != depth)
      fail("rows nest to different depths (ragged)");
  }

  void setDim(size_t depth, int64_t n) {
    if (shape.size() <= depth)
      shape.resize(depth + 1, -1);
    if (shape[depth] < 0)
      shape[depth] = n;
    else if (shape[depth] != n)
      fail("rows at depth " + std::to_string(depth) + " have " +
           std::to_string(shape[depth]) + " and " + std::to_string(n) +
           " elements (ragged)");
  }

  void parseValue(size_t depth) {
    // Recursion: one frame per '['. Far above any tensor's rank.
    if (depth > kMaxLiteralDepth)
      fail("brackets nested deeper than " + std::to_string(kMaxLiteralDepth));
    skipSpace();
    if (pos >= text.size())
      fail("unexpected end of the value");
    if (text[pos] == '[') {
      ++pos;
      skipSpace();
      int64_t n = 0;
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        setRank(depth + 1); // An empty list is a leaf row of length 0.
        setDim(depth, 0);
        return;
      }
      while (true) {
        parseValue(depth + 1);
        ++n;
        skipSpace();
        if (pos >= text.size())
          fail("missing ']'");
        if (text[pos] == ',') {
          ++pos;
          continue;
        }
        if (text[pos] == ']') {
          ++pos;
          break;
        }
        fail("expected ',' or ']' but found '" + std::string(1, text[pos]) +
             "'");
      }
      setDim(depth, n);
      return;
    }
    size_t start = pos;
    while (pos < text.size() && text[pos] != ',' && text[pos] != ']' &&
           text[pos] != '[' &&
           !std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
    if (pos == start)
      fail("expected a number or '[' but found '" + std::string(1, text[pos]) +
           "'");
    setRank(depth);
    tokens.emplace_back(text.substr(start, pos - start));
  }

  std::string_view text, whole;
  size_t pos = 0;
  std::optional<size_t> rank;
};

template <class T>
T convert(const std::string &token, const LiteralParser &parser) {
  if constexpr (std::is_same_v<T, bool>) {
    if (token == "true" || token == "1")
      return true;
    if (token == "false" || token == "0")
      return false;
    parser.fail("'" + token + "' is not a bool (true, false, 1 or 0)");
  } else if constexpr (std::is_integral_v<T>) {
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(token.c_str(), &end, 10);
    if (end == token.c_str() || *end != '\0')
      parser.fail("'" + token + "' is not an integer");
    if (errno == ERANGE || v < std::numeric_limits<T>::min() ||
        v > std::numeric_limits<T>::max())
      parser.fail("'" + token + "' does not fit in " +
                  std::string(to_string(dtype_of<T>)));
    return static_cast<T>(v);
  } else {
    char *end = nullptr;
    double v = std::strtod(token.c_str(), &end);
    if (end == token.c_str() || *end != '\0')
      parser.fail("'" + token + "' is not a number");
    return static_cast<T>(v);
  }
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

Tensor tfc::run::parseTensorLiteral(std::string_view text) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos)
    throw InvalidArgumentError(
        "bad tensor literal '" + std::string(text) +
        "': expected VALUE:DTYPE (e.g. [[1,2],[3,4]]:f32 or 3:i32) or the "
        "path of a .npy file");
  std::string_view dtypeName = trim(text.substr(colon + 1));
  std::optional<DType> dtype = parseDType(dtypeName);
  if (!dtype)
    throw InvalidArgumentError("bad tensor literal '" + std::string(text) +
                               "': unknown dtype '" + std::string(dtypeName) +
                               "' (expected i1, i32, i64, f32 or f64)");
  LiteralParser parser(text.substr(0, colon), text);
  parser.parse();
  Tensor t = Tensor::empty(*dtype, parser.shape);
  if (static_cast<size_t>(t.numel()) != parser.tokens.size())
    parser.fail("internal: element count does not match the shape");
  if (t.numel() > 0)
    dispatch_dtype(*dtype, [&](auto tag) {
      using T = decltype(tag);
      T *out = t.data<T>();
      for (size_t i = 0; i < parser.tokens.size(); ++i)
        out[i] = convert<T>(parser.tokens[i], parser);
    });
  return t;
}

Tensor tfc::run::parseTensorArgument(std::string_view text) {
  if (endsWith(text, ".npy"))
    return load_npy(std::string(text));
  return parseTensorLiteral(text);
}
