//===- Creation.cpp - Creating tensors ------------------------------------===//
#include "tfc/frontend/Creation.h"

#include "OpsInternal.h"

#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

using namespace tfc;
using namespace tfc::detail;

namespace {
/// "[1][0]" for messages about a nested-list element.
std::string pathToString(const std::vector<size_t> &path) {
  if (path.empty())
    return "the top level";
  std::string s = "element ";
  for (size_t i : path) {
    s += '[';
    s += std::to_string(i);
    s += ']';
  }
  return s;
}

/// The shape of `values` as given by its first element at every level.
std::vector<int64_t> nestedShape(const NestedList &values) {
  std::vector<int64_t> shape;
  const NestedList *node = &values;
  while (node->is_list()) {
    shape.push_back(static_cast<int64_t>(node->elements().size()));
    if (node->elements().empty())
      break;
    node = &node->elements().front();
  }
  return shape;
}

/// Checks that every element has the structure `shape` says, and computes the
/// promoted dtype of the literals.
class ShapeChecker {
public:
  ShapeChecker(const std::vector<int64_t> &shape,
               const std::source_location &loc)
      : shape(shape), loc(loc) {}

  void check(const NestedList &node) {
    const size_t depth = path.size();
    if (depth == shape.size()) {
      if (node.is_list())
        fail("nested list mixes scalars and lists at depth " +
             std::to_string(depth) + ": " + pathToString(path) +
             " is a list, but " + pathToString(firstPath(depth)) +
             " is a scalar");
      if (node.overflows())
        fail("the literal at " + pathToString(path) +
             " is larger than the largest int64");
      dtype =
          sawLeaf ? promote(dtype, node.scalar_dtype()) : node.scalar_dtype();
      sawLeaf = true;
      return;
    }
    if (!node.is_list())
      fail("nested list mixes scalars and lists at depth " +
           std::to_string(depth) + ": " + pathToString(path) +
           " is a scalar, but " + pathToString(firstPath(depth)) +
           " is a list");
    const auto &elements = node.elements();
    if (static_cast<int64_t>(elements.size()) != shape[depth])
      fail("ragged nested list: " + pathToString(path) + " has " +
           std::to_string(elements.size()) + " elements, but " +
           pathToString(firstPath(depth)) + " has " +
           std::to_string(shape[depth]) +
           " (every row of a level must have the same length)");
    for (size_t i = 0; i < elements.size(); ++i) {
      path.push_back(i);
      check(elements[i]);
      path.pop_back();
    }
  }

  /// Float32 when there are no literals at all (`{}`), as TensorFlow does.
  DType result() const { return sawLeaf ? dtype : DType::Float32; }

private:
  static std::vector<size_t> firstPath(size_t depth) {
    return std::vector<size_t>(depth, 0);
  }
  [[noreturn]] void fail(const std::string &why) {
    throw_invalid_argument("constant: " + why, loc);
  }

  const std::vector<int64_t> &shape;
  const std::source_location &loc;
  std::vector<size_t> path;
  DType dtype = DType::Bool;
  bool sawLeaf = false;
};

/// Writes the leaves of `node` in row-major order, converted to `T`.
template <class T> class Filler {
public:
  Filler(T *out, DType dtype, const std::source_location &loc)
      : out(out), dtype(dtype), loc(loc) {}

  void fill(const NestedList &node) {
    if (node.is_list()) {
      for (const NestedList &element : node.elements())
        fill(element);
      return;
    }
    *out++ = convert(node);
  }

private:
  T convert(const NestedList &leaf) {
    if constexpr (std::is_floating_point_v<T>) {
      return leaf.is_floating_literal() ? static_cast<T>(leaf.float_value())
                                        : static_cast<T>(leaf.int_value());
    } else {
      int64_t v;
      if (leaf.is_floating_literal()) {
        double d = leaf.float_value();
        if (!std::isfinite(d) || d != std::trunc(d) ||
            d < -9.2233720368547758e18 || d >= 9.2233720368547758e18)
          reject(format_double(d));
        v = static_cast<int64_t>(d);
      } else {
        v = leaf.int_value();
      }
      if constexpr (std::is_same_v<T, bool>) {
        if (v != 0 && v != 1)
          reject(std::to_string(v));
        return v != 0;
      } else {
        if (v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
            v > static_cast<int64_t>(std::numeric_limits<T>::max()))
          reject(std::to_string(v));
        return static_cast<T>(v);
      }
    }
  }
  [[noreturn]] void reject(const std::string &value) {
    throw_invalid_argument("constant: the literal " + value +
                               " cannot be represented exactly as " +
                               std::string(to_string(dtype)),
                           loc);
  }

  T *out;
  DType dtype;
  const std::source_location &loc;
};

Tensor buildConstant(const NestedList &values, std::optional<DType> dtype,
                     const std::source_location &loc) {
  std::vector<int64_t> shape = nestedShape(values);
  ShapeChecker checker(shape, loc);
  checker.check(values);
  const DType resultType = dtype.value_or(checker.result());
  Tensor result = Tensor::empty(resultType, shape);
  dispatch_dtype(resultType, [&](auto tag) {
    using T = decltype(tag);
    Filler<T>(result.data<T>(), resultType, loc).fill(values);
  });
  return result;
}

/// Negative dims are an error in every creation function.
void checkShape(const char *op, const std::vector<int64_t> &shape,
                const std::source_location &loc) {
  for (int64_t d : shape)
    if (d < 0)
      throw_invalid_argument(std::string(op) + ": shape " +
                                 list_to_string(shape) +
                                 " has a negative dim " + std::to_string(d),
                             loc);
  // A zero dim makes any shape empty; otherwise the product must fit.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end())
    return;
  int64_t n = 1;
  for (int64_t d : shape)
    if (__builtin_mul_overflow(n, d, &n))
      throw_invalid_argument(std::string(op) + ": shape " +
                                 list_to_string(shape) +
                                 " has more elements than an int64 can count",
                             loc);
}

/// Runs a kernel, adding the caller's location to its errors.
template <class F> Tensor withLocation(const std::source_location &loc, F f) {
  try {
    return f();
  } catch (const Error &) {
    rethrow_with_location(loc);
  }
}
} // namespace

Tensor tfc::constant(const NestedList &values, std::source_location loc) {
  return buildConstant(values, std::nullopt, loc);
}

Tensor tfc::constant(const NestedList &values, DType dtype,
                     std::source_location loc) {
  return buildConstant(values, dtype, loc);
}

Tensor tfc::detail::tensor_from_buffer(const char *op, DType dtype,
                                       const void *data, size_t count,
                                       const std::vector<int64_t> &shape,
                                       const std::source_location &loc) {
  checkShape(op, shape, loc);
  const int64_t numel = shape_numel(shape);
  if (static_cast<int64_t>(count) != numel)
    throw_invalid_argument(std::string(op) + ": " + std::to_string(count) +
                               " values do not fill shape " +
                               shape_to_string(shape) + ", which has " +
                               std::to_string(numel) + " elements",
                           loc);
  Tensor result = Tensor::empty(dtype, shape);
  if (count)
    std::memcpy(result.raw_data(), data, count * dtype_size(dtype));
  return result;
}

Tensor tfc::zeros(std::vector<int64_t> shape, DType dtype,
                  std::source_location loc) {
  checkShape("zeros", shape, loc);
  return withLocation(loc, [&] { return kernels::full(shape, 0.0, dtype); });
}

Tensor tfc::ones(std::vector<int64_t> shape, DType dtype,
                 std::source_location loc) {
  checkShape("ones", shape, loc);
  return withLocation(loc, [&] { return kernels::full(shape, 1.0, dtype); });
}

Tensor tfc::full(std::vector<int64_t> shape, double value, DType dtype,
                 std::source_location loc) {
  checkShape("full", shape, loc);
  return withLocation(loc, [&] { return kernels::full(shape, value, dtype); });
}

Tensor tfc::range(int64_t start, int64_t limit, int64_t delta, DType dtype,
                  std::source_location loc) {
  if (delta == 0)
    throw_invalid_argument("range: delta must not be 0 (start " +
                               std::to_string(start) + ", limit " +
                               std::to_string(limit) + ")",
                           loc);
  return withLocation(
      loc, [&] { return kernels::range(start, limit, delta, dtype); });
}

Tensor tfc::random_uniform(std::vector<int64_t> shape, double lo, double hi,
                           uint64_t seed, DType dtype,
                           std::source_location loc) {
  checkShape("random_uniform", shape, loc);
  return withLocation(
      loc, [&] { return kernels::random_uniform(shape, lo, hi, seed, dtype); });
}

Tensor tfc::random_normal(std::vector<int64_t> shape, double mean,
                          double stddev, uint64_t seed, DType dtype,
                          std::source_location loc) {
  checkShape("random_normal", shape, loc);
  return withLocation(loc, [&] {
    return kernels::random_normal(shape, mean, stddev, seed, dtype);
  });
}
