//===- ScanKernels.h - cumsum and top_k on raw buffers ----------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The arithmetic behind tfc::cumsum and tfc::top_k on raw row-major
// buffers, run by the eager kernels and by compiled code (the CPU
// pipeline's tfc_rt_cumsum_* / tfc_rt_top_k_indices_* library calls).
// cumsum views its operand as [outer, n, inner] around the axis; top_k as
// [rows, n].
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_SCANKERNELS_H
#define TFC_RUNTIME_SCANKERNELS_H

#include <cmath>
#include <cstdint>
#include <type_traits>

#pragma GCC visibility push(hidden)
namespace tfc::kernels {

/// out[o, j, i] = sum of x[o, 0..j, i] (exclusive: 0..j-1; reverse: j..n-1
/// or j+1..n-1). Integer sums wrap.
template <class T>
void cumsum(const T *x, T *out, int64_t outer, int64_t n, int64_t inner,
            bool exclusive, bool reverse);

/// a ranks before b in top_k: larger, NaN largest; ties go to the lower
/// index (the caller compares indices).
template <class T> inline bool top_k_before(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a))
      return !std::isnan(b);
    if (std::isnan(b))
      return false;
  }
  return a > b;
}

/// idx[r, 0..k) = the positions of row r's k largest elements, largest
/// first, ties by position.
template <class T>
void top_k_indices(const T *x, int32_t *idx, int64_t rows, int64_t n,
                   int64_t k);

} // namespace tfc::kernels
#pragma GCC visibility pop

#endif // TFC_RUNTIME_SCANKERNELS_H
