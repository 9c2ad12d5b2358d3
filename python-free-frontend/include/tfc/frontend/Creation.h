//===- Creation.h - Creating tensors ----------------------------*- C++ -*-===//
//
// constant / from_vector / zeros / ones / full / range / random_*: every way
// to make a concrete tensor from C++ values. Created tensors are concrete even
// while a `tfc::function` is being traced: the tracer captures them as
// constants when an op uses them.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_CREATION_H
#define TFC_FRONTEND_CREATION_H

#include "tfc/runtime/Tensor.h"

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <source_location>
#include <type_traits>
#include <vector>

namespace tfc {

/// A C++ literal or a brace-nested list of them, the argument of
/// `tfc::constant` (like libtorch's TensorDataContainer). There is one
/// initializer-list constructor, so the nesting depth is the rank:
/// `2.f` is rank 0, `{2.f}` rank 1, `{{2.f}}` rank 2, `{}` an empty vector.
///
/// The dtype comes from the literals: `bool` -> bool, `int` -> int32,
/// `int64_t` -> int64, `float` -> float32, `double` -> float64; other integer
/// types become int64. Mixed literals promote along
/// bool < int32 < int64 < float32 < float64, so `{1, 2.5}` is float64.
class NestedList {
public:
  NestedList(bool v) : kind_(DType::Bool) { scalar_.i = v; }
  NestedList(int32_t v) : kind_(DType::Int32) { scalar_.i = v; }
  NestedList(int64_t v) : kind_(DType::Int64) { scalar_.i = v; }
  NestedList(float v) : kind_(DType::Float32) { scalar_.f = v; }
  NestedList(double v) : kind_(DType::Float64) { scalar_.f = v; }
  /// Any other integer type (unsigned, long long, size_t, char, ...) is int64.
  /// Values above INT64_MAX are rejected by `constant`.
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, int32_t> &&
           !std::same_as<T, int64_t>) NestedList(T v)
      : kind_(DType::Int64) {
    scalar_.i = static_cast<int64_t>(v);
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t))
      overflow_ = v > static_cast<T>(INT64_MAX);
  }
  /// A list: every element must have the same structure (no ragged rows).
  NestedList(std::initializer_list<NestedList> elements)
      : isList_(true), elements_(elements) {}
  /// Strings are not tensor literals (this would otherwise pick `bool`).
  NestedList(const char *) = delete;

  bool is_list() const { return isList_; }
  /// The dtype of a scalar literal (meaningless for a list).
  DType scalar_dtype() const { return kind_; }
  const std::vector<NestedList> &elements() const { return elements_; }
  /// The scalar as int64 (bool and integer literals).
  int64_t int_value() const { return scalar_.i; }
  /// The scalar as double (float literals).
  double float_value() const { return scalar_.f; }
  bool is_floating_literal() const {
    return kind_ == DType::Float32 || kind_ == DType::Float64;
  }
  /// True for an unsigned literal that does not fit in int64.
  bool overflows() const { return overflow_; }

private:
  bool isList_ = false;
  bool overflow_ = false;
  DType kind_ = DType::Float32;
  union {
    int64_t i;
    double f;
  } scalar_{0};
  std::vector<NestedList> elements_;
};

/// A tensor holding `values`; the rank is the nesting depth and the dtype is
/// inferred from the literals (see NestedList). Ragged rows, or a level that
/// mixes scalars and lists, throw InvalidArgumentError.
///
///   constant({{1.f, 2.f}, {3.f, 4.f}})  // shape (2, 2), float32
///   constant(3)                         // shape (), int32
Tensor constant(const NestedList &values,
                std::source_location loc = std::source_location::current());

/// Like `constant`, converting the literals to `dtype` (e.g. int literals into
/// a float32 tensor). A floating literal with a fractional part cannot become
/// an integer or bool tensor: InvalidArgumentError.
Tensor constant(const NestedList &values, DType dtype,
                std::source_location loc = std::source_location::current());

namespace detail {
/// Copies `count` elements of type `dtype` from `data` into a new tensor of
/// `shape`; throws InvalidArgumentError (naming `op`) if the counts differ or
/// a dim is negative.
Tensor tensor_from_buffer(const char *op, DType dtype, const void *data,
                          size_t count, const std::vector<int64_t> &shape,
                          const std::source_location &loc);
} // namespace detail

/// A tensor of `shape` holding `data` in row-major order. `T` is one of bool,
/// int32_t, int64_t, float, double. Throws InvalidArgumentError if
/// `data.size()` is not the number of elements of `shape`.
///
///   from_vector<float>({1, 2, 3, 4, 5, 6}, {2, 3})
template <class T>
Tensor from_vector(std::vector<T> data, std::vector<int64_t> shape,
                   std::source_location loc = std::source_location::current()) {
  static_assert(std::is_same_v<T, bool> || std::is_same_v<T, int32_t> ||
                    std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
                    std::is_same_v<T, double>,
                "from_vector<T>: T must be bool, int32_t, int64_t, float or "
                "double");
  if constexpr (std::is_same_v<T, bool>) {
    // std::vector<bool> is bit-packed: widen to one byte per element.
    std::vector<unsigned char> bytes(data.begin(), data.end());
    return detail::tensor_from_buffer("from_vector", DType::Bool, bytes.data(),
                                      bytes.size(), shape, loc);
  } else {
    return detail::tensor_from_buffer("from_vector", dtype_of<T>, data.data(),
                                      data.size(), shape, loc);
  }
}

/// Zeros of `shape` (every dim >= 0).
Tensor zeros(std::vector<int64_t> shape, DType dtype = DType::Float32,
             std::source_location loc = std::source_location::current());
/// Ones of `shape`.
Tensor ones(std::vector<int64_t> shape, DType dtype = DType::Float32,
            std::source_location loc = std::source_location::current());
/// `value` converted to `dtype`, repeated over `shape`.
Tensor full(std::vector<int64_t> shape, double value,
            DType dtype = DType::Float32,
            std::source_location loc = std::source_location::current());
/// The rank-1 tensor start, start + delta, ... up to but excluding `limit`
/// (like Python's range). `delta == 0` throws InvalidArgumentError.
Tensor range(int64_t start, int64_t limit, int64_t delta = 1,
             DType dtype = DType::Int64,
             std::source_location loc = std::source_location::current());
/// Uniform samples in [lo, hi); the same seed always gives the same values.
Tensor
random_uniform(std::vector<int64_t> shape, double lo, double hi, uint64_t seed,
               DType dtype = DType::Float32,
               std::source_location loc = std::source_location::current());
/// Normal samples N(mean, stddev^2); deterministic for a seed.
Tensor
random_normal(std::vector<int64_t> shape, double mean, double stddev,
              uint64_t seed, DType dtype = DType::Float32,
              std::source_location loc = std::source_location::current());

} // namespace tfc

#endif // TFC_FRONTEND_CREATION_H
