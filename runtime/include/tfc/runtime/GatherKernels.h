//===- GatherKernels.h - gather and segment sums on raw buffers -*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The arithmetic behind tfc::gather and tfc::unsorted_segment_sum on raw
// row-major buffers: the eager kernels and compiled code (the CPU pipeline's
// tfc_rt_unsorted_segment_sum_* library calls) both run these. Buffers are
// viewed as [outer, n, inner] (gather's params around the axis) and
// [m, inner] (segment sums: the ids flattened).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_GATHERKERNELS_H
#define TFC_RUNTIME_GATHERKERNELS_H

#include <cstdint>

// Internal to libtfc.so (not installed, not exported): the public way in is
// tfc::gather / tfc::unsorted_segment_sum (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::kernels {

/// The position of the first index outside [lo, n) among `m`, or -1.
template <class I>
int64_t first_out_of_range(const I *idx, int64_t m, int64_t lo, int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    if (static_cast<int64_t>(idx[i]) < lo || static_cast<int64_t>(idx[i]) >= n)
      return i;
  return -1;
}

/// out[o, i, :] = params[o, idx[i], :] for o < outer, i < m. Every index
/// must be in [0, n) (checked by the caller).
template <class T, class I>
void gather(const T *params, const I *idx, T *out, int64_t outer, int64_t n,
            int64_t m, int64_t inner);

/// out[s, :] = sum of data[i, :] over i < m with ids[i] == s, s < n; ids
/// outside [0, n) contribute nothing.
template <class T, class I>
void unsorted_segment_sum(const T *data, const I *ids, T *out, int64_t m,
                          int64_t inner, int64_t n);

} // namespace tfc::kernels
#pragma GCC visibility pop

#endif // TFC_RUNTIME_GATHERKERNELS_H
