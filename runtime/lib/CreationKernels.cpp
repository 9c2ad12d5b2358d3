//===- CreationKernels.cpp - full, range, random --------------------------===//
//
// Random numbers come from std::mt19937_64 seeded with the given seed and
// are turned into values by fixed formulas (53-bit uniform doubles,
// Box-Muller), not by std::*_distribution whose output differs between
// standard libraries: a seed gives the same tensor everywhere.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <cmath>
#include <limits>
#include <random>

using namespace tfc;
using namespace tfc::detail;

namespace {

/// `value` as a T, or throws when an integer/bool dtype cannot hold it.
template <class T> T checkedValue(std::string_view op, double value, DType dt) {
  if constexpr (std::is_same_v<T, bool>) {
    return value != 0;
  } else if constexpr (std::is_integral_v<T>) {
    constexpr double lim = double(std::numeric_limits<T>::max()) + 1.0;
    if (!(value >= -lim && value < lim) || value != std::trunc(value))
      fail(op, "value ", std::to_string(value), " is not representable in ",
           dt);
    return static_cast<T>(value);
  } else {
    return static_cast<T>(value);
  }
}

/// Uniform double in [0, 1) from 53 random bits.
inline double unit(std::mt19937_64 &g) {
  return static_cast<double>(g() >> 11) * 0x1.0p-53;
}

} // namespace

namespace tfc::kernels {

Tensor full(const std::vector<int64_t> &shape, double value, DType dtype) {
  int64_t n = checked_numel("full", shape, dtype);
  Tensor out = make_tensor(dtype, shape, n);
  dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    using E = elem_t<T>;
    E v = static_cast<E>(checkedValue<T>("full", value, dtype));
    E *p = static_cast<E *>(out.unsafe_impl()->data);
    parallel_for(n, 1, [&](int64_t b, int64_t e) {
      std::fill(p + b, p + e, v);
    });
  });
  return out;
}

Tensor range(int64_t start, int64_t limit, int64_t delta, DType dtype) {
  if (delta == 0)
    fail("range", "delta must not be 0 (start ", start, ", limit ", limit, ")");
  if (dtype == DType::Bool)
    fail("range", "expected a numeric dtype (int32, int64, float32, float64), "
                  "got bool");
  // Count = ceil((limit - start) / delta), clamped at 0; in 128 bits so
  // extreme bounds cannot overflow.
  __int128 span = static_cast<__int128>(limit) - start;
  __int128 n128 = 0;
  if ((delta > 0 && span > 0) || (delta < 0 && span < 0)) {
    __int128 d = delta;
    n128 = (span + d + (delta > 0 ? -1 : 1)) / d;
  }
  if (n128 > (__int128(1) << 40))
    fail("range", "too many elements (start ", start, ", limit ", limit,
         ", delta ", delta, ")");
  int64_t n = static_cast<int64_t>(n128);
  if (dtype == DType::Int32 && n > 0) {
    int64_t last = start + (n - 1) * delta;
    auto lo = std::numeric_limits<int32_t>::min();
    auto hi = std::numeric_limits<int32_t>::max();
    if (start < lo || start > hi || last < lo || last > hi)
      fail("range", "values from ", start, " to ", last,
           " do not fit in int32");
  }
  std::vector<int64_t> shape{n};
  Tensor out = make_tensor(dtype, shape, n);
  dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      T *p = static_cast<T *>(out.unsafe_impl()->data);
      for (int64_t i = 0; i < n; ++i)
        p[i] = static_cast<T>(start + i * delta);
    }
  });
  return out;
}

Tensor random_uniform(const std::vector<int64_t> &shape, double lo, double hi,
                      uint64_t seed, DType dtype) {
  constexpr std::string_view name = "random_uniform";
  int64_t n = checked_numel(name, shape, dtype);
  if (dtype == DType::Bool)
    fail(name, "expected a numeric dtype (int32, int64, float32, float64), "
               "got bool");
  if (!std::isfinite(lo) || !std::isfinite(hi))
    fail(name, "bounds must be finite, got [", std::to_string(lo), ", ",
         std::to_string(hi), ")");
  if (is_integer(dtype) ? !(lo < hi) : !(lo <= hi))
    fail(name, "expected lo < hi, got lo = ", std::to_string(lo), " and hi = ",
         std::to_string(hi), " for ", dtype);
  Tensor out = make_tensor(dtype, shape, n);
  std::mt19937_64 gen(seed);
  dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      // Integers in [ceil(lo), ceil(hi)), as TensorFlow's minval/maxval.
      T a = checkedValue<T>(name, std::ceil(lo), dtype);
      T b = checkedValue<T>(name, std::ceil(hi), dtype);
      if (!(a < b))
        fail(name, "no integer lies in [", std::to_string(lo), ", ",
             std::to_string(hi), ")");
      uint64_t span = static_cast<uint64_t>(b) - static_cast<uint64_t>(a);
      T *p = static_cast<T *>(out.unsafe_impl()->data);
      for (int64_t i = 0; i < n; ++i)
        p[i] = static_cast<T>(static_cast<uint64_t>(a) + gen() % span);
    } else if constexpr (std::is_floating_point_v<T>) {
      T *p = static_cast<T *>(out.unsafe_impl()->data);
      T tlo = static_cast<T>(lo), thi = static_cast<T>(hi);
      for (int64_t i = 0; i < n; ++i) {
        T v = static_cast<T>(lo + (hi - lo) * unit(gen));
        if (v >= thi && thi > tlo) // Rounding to T may reach hi.
          v = std::nextafter(thi, tlo);
        p[i] = v;
      }
    }
  });
  return out;
}

Tensor random_normal(const std::vector<int64_t> &shape, double mean,
                     double stddev, uint64_t seed, DType dtype) {
  constexpr std::string_view name = "random_normal";
  int64_t n = checked_numel(name, shape, dtype);
  if (!is_floating(dtype))
    fail(name, "expected a floating dtype, got ", dtype);
  if (!std::isfinite(mean) || !std::isfinite(stddev) || stddev < 0)
    fail(name, "expected a finite mean and a finite stddev >= 0, got mean ",
         std::to_string(mean), " and stddev ", std::to_string(stddev));
  Tensor out = make_tensor(dtype, shape, n);
  std::mt19937_64 gen(seed);
  dispatch_dtype(dtype, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      T *p = static_cast<T *>(out.unsafe_impl()->data);
      constexpr double kTwoPi = 6.283185307179586476925286766559;
      for (int64_t i = 0; i < n; i += 2) {
        // Box-Muller; 1 - unit() lies in (0, 1] so the log is finite.
        double r = std::sqrt(-2.0 * std::log(1.0 - unit(gen)));
        double th = kTwoPi * unit(gen);
        p[i] = static_cast<T>(mean + stddev * r * std::cos(th));
        if (i + 1 < n)
          p[i + 1] = static_cast<T>(mean + stddev * r * std::sin(th));
      }
    }
  });
  return out;
}

} // namespace tfc::kernels
