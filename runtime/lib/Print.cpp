//===- Print.cpp - TensorFlow's repr with NumPy's array layout ------------===//
//
// A port of NumPy's array2string (numpy/core/arrayprint.py, legacy=False,
// floatmode 'maxprec'; precision, threshold, edgeitems and linewidth from
// set_print_options, NumPy's defaults 8, 1000, 3, 75) as used by
// TensorFlow's Tensor.__str__:
//
//   tf.Tensor(<str(ndarray)>, shape=(...), dtype=...)
//
// with a newline before the data when the data spans several lines (as
// TensorFlow's numpy_text does). 0-d tensors print like NumPy scalars
// (`4.0`, `True`, `0.1` for float32). Dragon4's shortest round-trip digits
// come from std::to_chars, for the element type's own precision.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Print.h"

#include "Internal.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <functional>
#include <limits>
#include <mutex>
#include <string>

using namespace tfc;
using namespace tfc::detail;

namespace {

/// Process-wide, as NumPy's: a format call works on a snapshot.
std::mutex gOptionsMutex;
PrintOptions gOptions;

PrintOptions snapshot() {
  std::lock_guard<std::mutex> lock(gOptionsMutex);
  return gOptions;
}

/// Bounds the fixed-notation digits (toChars' buffer).
constexpr int kMaxPrecision = 100;

/// InvalidArgumentError naming `op` for an out-of-range field.
void checkOptions(const char *op, const PrintOptions &options) {
  auto check = [op](bool ok, const char *name, int64_t got, const char *want) {
    if (!ok)
      fail(op, ": ", name, " must be ", want, ", got ", got);
  };
  check(options.precision >= 0 && options.precision <= kMaxPrecision,
        "precision", options.precision, "in [0, 100]");
  check(options.threshold >= 0, "threshold", options.threshold,
        ">= 0 (no summary: std::numeric_limits<int64_t>::max())");
  check(options.edgeitems >= 1, "edgeitems", options.edgeitems, ">= 1");
  check(options.linewidth >= 1, "linewidth", options.linewidth, ">= 1");
}

template <class T> std::string toChars(T x, std::chars_format f) {
  char buf[512];
  auto r = std::to_chars(buf, buf + sizeof(buf), x, f);
  return std::string(buf, r.ptr);
}
template <class T> std::string toChars(T x, std::chars_format f, int prec) {
  char buf[512];
  auto r = std::to_chars(buf, buf + sizeof(buf), x, f, prec);
  return std::string(buf, r.ptr);
}

/// Drops trailing zeros after the decimal point (keeping the point).
void trimZeros(std::string &s) {
  if (s.find('.') == std::string::npos)
    return;
  while (!s.empty() && s.back() == '0')
    s.pop_back();
}

/// Dragon4 positional, unique, fractional precision `precision` (8:
/// "1.5", "2.", "-0.", "0.33333334"), trim '.'.
template <class T> std::string positional(T x, int precision) {
  std::string s = toChars(x, std::chars_format::fixed);
  size_t dot = s.find('.');
  if (dot != std::string::npos && s.size() - dot - 1 > size_t(precision)) {
    s = toChars(x, std::chars_format::fixed, precision);
    trimZeros(s);
  }
  if (s.find('.') == std::string::npos)
    s += '.';
  return s;
}

struct SciParts {
  std::string intPart, frac, exp; ///< exp with its sign: "-05".
};

/// Dragon4 scientific, unique, precision `precision`, trim '.', split in
/// parts.
template <class T> SciParts scientific(T x, int precision) {
  std::string s = toChars(x, std::chars_format::scientific);
  size_t e = s.find('e');
  size_t dot = s.find('.');
  if (dot != std::string::npos && dot < e && e - dot - 1 > size_t(precision)) {
    s = toChars(x, std::chars_format::scientific, precision);
    e = s.find('e');
    std::string mant = s.substr(0, e);
    trimZeros(mant);
    s = mant + s.substr(e);
    e = s.find('e');
    dot = s.find('.');
  }
  SciParts p;
  std::string mant = s.substr(0, e);
  p.exp = s.substr(e + 1);
  dot = mant.find('.');
  if (dot == std::string::npos) {
    p.intPart = mant;
  } else {
    p.intPart = mant.substr(0, dot);
    p.frac = mant.substr(dot + 1);
  }
  return p;
}

/// str() of a NumPy float scalar: positional when 1e-4 <= |x| < 1e16 (or
/// 0) with at least one fractional digit ("4.0"), else shortest scientific
/// ("1e+16", "1.5e-05").
template <class T> std::string scalarFloat(T x) {
  if (std::isnan(x))
    return "nan";
  if (std::isinf(x))
    return x < 0 ? "-inf" : "inf";
  double a = std::fabs(static_cast<double>(x));
  if (a == 0 || (a >= 1e-4 && a < 1e16)) {
    std::string s = toChars(x, std::chars_format::fixed);
    if (s.find('.') == std::string::npos)
      s += ".0";
    return s;
  }
  return toChars(x, std::chars_format::scientific);
}

/// NumPy's FloatingFormat for one array (its displayed elements).
template <class T> struct FloatFormat {
  bool expFormat = false;
  size_t padLeft = 0, padRight = 0;
  size_t precision = 0; ///< Scientific: fractional mantissa digits.
  size_t expSize = 0;
  int maxDigits; ///< The precision option.

  FloatFormat(const std::vector<T> &data, const PrintOptions &options)
      : maxDigits(options.precision) {
    bool anyFinite = false, anyNonFinite = false, negInf = false;
    T maxV = 0, minV = 0;
    bool haveNonZero = false;
    for (T v : data) {
      if (!std::isfinite(v)) {
        anyNonFinite = true;
        negInf |= std::isinf(v) && v < 0;
        continue;
      }
      anyFinite = true;
      if (v == 0)
        continue;
      T a = std::fabs(v);
      if (!haveNonZero) {
        maxV = minV = a;
        haveNonZero = true;
      } else {
        maxV = std::max(maxV, a);
        minV = std::min(minV, a);
      }
    }
    if (options.sci_mode) {
      expFormat = *options.sci_mode && anyFinite;
    } else if (haveNonZero) {
      T ratio = maxV / minV; // In T, as NumPy (float32 may overflow to inf).
      expFormat = static_cast<double>(maxV) >= 1e8 ||
                  static_cast<double>(minV) < 0.0001 || ratio > T(1000);
    }
    if (!anyFinite) {
      padLeft = padRight = 0;
    } else if (expFormat) {
      size_t maxExp = 0;
      for (T v : data) {
        if (!std::isfinite(v))
          continue;
        SciParts p = scientific(v, maxDigits);
        maxExp = std::max(maxExp, p.exp.size());
        precision = std::max(precision, p.frac.size());
        padLeft = std::max(padLeft, p.intPart.size());
      }
      expSize = maxExp - 1;
      padRight = expSize + 2 + precision;
    } else {
      for (T v : data) {
        if (!std::isfinite(v))
          continue;
        std::string s = positional(v, maxDigits);
        size_t dot = s.find('.');
        padLeft = std::max(padLeft, dot);
        padRight = std::max(padRight, s.size() - dot - 1);
      }
    }
    if (anyNonFinite) {
      size_t offset = padRight + 1;
      size_t nanLen = 3, infLen = 3 + (negInf ? 1 : 0);
      if (nanLen > offset)
        padLeft = std::max(padLeft, nanLen - offset);
      if (infLen > offset)
        padLeft = std::max(padLeft, infLen - offset);
    }
  }

  std::string operator()(T x) const {
    if (!std::isfinite(x)) {
      std::string r = std::isnan(x) ? "nan" : (x < 0 ? "-inf" : "inf");
      size_t width = padLeft + padRight + 1;
      return std::string(width > r.size() ? width - r.size() : 0, ' ') + r;
    }
    std::string out;
    if (expFormat) {
      SciParts p = scientific(x, maxDigits);
      out.append(padLeft > p.intPart.size() ? padLeft - p.intPart.size() : 0,
                 ' ');
      out += p.intPart;
      out += '.';
      out += p.frac;
      out.append(precision > p.frac.size() ? precision - p.frac.size() : 0,
                 '0');
      out += 'e';
      out += p.exp[0]; // sign
      std::string digits = p.exp.substr(1);
      out.append(expSize > digits.size() ? expSize - digits.size() : 0, '0');
      out += digits;
      return out;
    }
    std::string s = positional(x, maxDigits);
    size_t dot = s.find('.');
    size_t fracLen = s.size() - dot - 1;
    out.append(padLeft > dot ? padLeft - dot : 0, ' ');
    out += s;
    out.append(padRight > fracLen ? padRight - fracLen : 0, ' ');
    return out;
  }
};

/// The array layout of NumPy's _formatArray, over flat element offsets.
class Layout {
public:
  Layout(const std::vector<int64_t> &shape, bool summarize,
         const PrintOptions &options,
         std::function<std::string(int64_t)> element)
      : shape(shape), summarize(summarize), edgeItems(options.edgeitems),
        lineWidth(options.linewidth), element(std::move(element)) {
    strides.resize(shape.size());
    int64_t s = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      strides[i] = s;
      s *= shape[i];
    }
  }

  std::string format() { return recurse(0, 0, " ", lineWidth); }

  /// NumPy's `2 * edgeitems < len`, without overflow.
  static bool cuts(bool summarize, int64_t edgeItems, int64_t len) {
    return summarize && edgeItems < len && len - edgeItems > edgeItems;
  }

  /// The flat offsets of the elements that will be shown.
  static void displayed(const std::vector<int64_t> &shape, bool summarize,
                        int64_t edgeItems, std::vector<int64_t> &out) {
    std::vector<int64_t> strides(shape.size());
    int64_t s = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      strides[i] = s;
      s *= shape[i];
    }
    std::function<void(size_t, int64_t)> walk = [&](size_t axis, int64_t off) {
      if (axis == shape.size()) {
        out.push_back(off);
        return;
      }
      int64_t len = shape[axis];
      bool cut = cuts(summarize, edgeItems, len);
      for (int64_t i = 0; i < len; ++i) {
        if (cut && i == edgeItems)
          i = len - edgeItems;
        walk(axis + 1, off + i * strides[axis]);
      }
    };
    walk(0, 0);
  }

private:
  static void extendLine(std::string &s, std::string &line,
                         const std::string &word, int64_t width,
                         const std::string &nextLinePrefix) {
    bool wrap = int64_t(line.size() + word.size()) > width;
    if (line.size() <= nextLinePrefix.size())
      wrap = false; // Wrapping would not help.
    if (wrap) {
      size_t end = line.find_last_not_of(' ');
      s.append(line, 0, end == std::string::npos ? 0 : end + 1);
      s += '\n';
      line = nextLinePrefix;
    }
    line += word;
  }

  std::string recurse(size_t axis, int64_t offset, const std::string &hanging,
                      int64_t currWidth) {
    size_t axesLeft = shape.size() - axis;
    if (axesLeft == 0)
      return element(offset);
    std::string nextHanging = hanging + ' ';
    int64_t nextWidth = currWidth - 1;
    int64_t len = shape[axis], stride = strides[axis];
    bool showSummary = cuts(summarize, edgeItems, len);
    int64_t leading = showSummary ? edgeItems : 0;
    int64_t trailing = showSummary ? edgeItems : len;
    std::string s;
    if (axesLeft == 1) {
      int64_t elemWidth = currWidth - 1; // room for "]"
      std::string line = hanging;
      for (int64_t i = 0; i < leading; ++i) {
        extendLine(
            s, line,
            recurse(axis + 1, offset + i * stride, nextHanging, nextWidth),
            elemWidth, hanging);
        line += ' ';
      }
      if (showSummary) {
        extendLine(s, line, "...", elemWidth, hanging);
        line += ' ';
      }
      for (int64_t i = trailing; i > 1; --i) {
        extendLine(s, line,
                   recurse(axis + 1, offset + (len - i) * stride, nextHanging,
                           nextWidth),
                   elemWidth, hanging);
        line += ' ';
      }
      extendLine(s, line,
                 recurse(axis + 1, offset + (len - 1) * stride, nextHanging,
                         nextWidth),
                 elemWidth, hanging);
      s += line;
    } else {
      std::string lineSep(axesLeft - 1, '\n');
      for (int64_t i = 0; i < leading; ++i)
        s += hanging +
             recurse(axis + 1, offset + i * stride, nextHanging, nextWidth) +
             lineSep;
      if (showSummary)
        s += hanging + "..." + lineSep;
      for (int64_t i = trailing; i > 1; --i)
        s += hanging +
             recurse(axis + 1, offset + (len - i) * stride, nextHanging,
                     nextWidth) +
             lineSep;
      s += hanging + recurse(axis + 1, offset + (len - 1) * stride, nextHanging,
                             nextWidth);
    }
    std::string out = "[";
    out.append(s, hanging.size());
    out += ']';
    return out;
  }

  const std::vector<int64_t> &shape;
  std::vector<int64_t> strides;
  bool summarize;
  int64_t edgeItems, lineWidth;
  std::function<std::string(int64_t)> element;
};

template <class T>
std::string formatArray(const T *data, const std::vector<int64_t> &shape,
                        int64_t numel, const PrintOptions &options) {
  bool summarize = numel > options.threshold;
  std::vector<int64_t> shown;
  Layout::displayed(shape, summarize, options.edgeitems, shown);
  std::function<std::string(int64_t)> element;
  if constexpr (std::is_same_v<T, uint8_t>) { // bool
    element = [data](int64_t i) -> std::string {
      return data[i] ? " True" : "False";
    };
  } else if constexpr (std::is_integral_v<T>) {
    size_t width = 0;
    for (int64_t i : shown)
      width = std::max(width, std::to_string(data[i]).size());
    element = [data, width](int64_t i) {
      std::string s = std::to_string(data[i]);
      return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
    };
  } else {
    std::vector<T> vals;
    vals.reserve(shown.size());
    for (int64_t i : shown)
      vals.push_back(data[i]);
    FloatFormat<T> fmt(vals, options);
    element = [data, fmt](int64_t i) { return fmt(data[i]); };
  }
  return Layout(shape, summarize, options, std::move(element)).format();
}

} // namespace

std::string tfc::format_data(const Tensor &t) {
  return format_data(t, snapshot());
}

std::string tfc::format_data(const Tensor &t, const PrintOptions &options) {
  checkOptions("format_data", options);
  if (!t.defined())
    return "<undefined>";
  if (t.is_symbolic())
    return concat_str('<', t.symbolic_value()->describe(), '>');
  const void *raw = t.unsafe_impl()->data;
  int64_t n = t.numel();
  const auto &shape = t.shape();
  if (shape.empty()) {
    switch (t.dtype()) {
    case DType::Bool:
      return *static_cast<const uint8_t *>(raw) ? "True" : "False";
    case DType::Int32:
      return std::to_string(*static_cast<const int32_t *>(raw));
    case DType::Int64:
      return std::to_string(*static_cast<const int64_t *>(raw));
    case DType::Float32:
      return scalarFloat(*static_cast<const float *>(raw));
    case DType::Float64:
      return scalarFloat(*static_cast<const double *>(raw));
    }
  }
  if (n == 0)
    return "[]";
  switch (t.dtype()) {
  case DType::Bool:
    return formatArray(static_cast<const uint8_t *>(raw), shape, n, options);
  case DType::Int32:
    return formatArray(static_cast<const int32_t *>(raw), shape, n, options);
  case DType::Int64:
    return formatArray(static_cast<const int64_t *>(raw), shape, n, options);
  case DType::Float32:
    return formatArray(static_cast<const float *>(raw), shape, n, options);
  case DType::Float64:
    return formatArray(static_cast<const double *>(raw), shape, n, options);
  }
  return "<invalid dtype>";
}

std::string tfc::format_tensor(const Tensor &t) {
  return format_tensor(t, snapshot());
}

std::string tfc::format_tensor(const Tensor &t, const PrintOptions &options) {
  if (!t.defined())
    return "tfc.Tensor(<undefined>)";
  wait_for_device(t, "print");
  std::string data = format_data(t, options);
  // TensorFlow's numpy_text puts multi-line data on its own lines.
  bool multiline = data.find('\n') != std::string::npos;
  // Dynamic dims (symbolic tensors) print as None, as TensorShape does.
  std::string shape = "(";
  const auto &dims = t.shape();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      shape += ", ";
    shape += dims[i] < 0 ? std::string("None") : std::to_string(dims[i]);
  }
  shape += dims.size() == 1 ? ",)" : ")";
  return concat_str("tfc.Tensor(", multiline ? "\n" : "", data,
                    ", shape=", shape, ", dtype=", t.dtype(), ')');
}

void tfc::set_print_options(const PrintOptions &options) {
  checkOptions("set_print_options", options);
  std::lock_guard<std::mutex> lock(gOptionsMutex);
  gOptions = options;
}

PrintOptions tfc::get_print_options() { return snapshot(); }

tfc::PrintOptionsGuard::PrintOptionsGuard(const PrintOptions &options)
    : saved_(get_print_options()) {
  set_print_options(options);
}

tfc::PrintOptionsGuard::~PrintOptionsGuard() {
  std::lock_guard<std::mutex> lock(gOptionsMutex);
  gOptions = saved_;
}
