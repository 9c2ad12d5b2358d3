//===- GatherKernels.cpp - gather and unsorted_segment_sum ----------------===//
//
// gather copies whole inner rows (memcpy); unsorted_segment_sum adds rows
// into their segment, split across threads by columns so no two threads
// write one element (no atomics, the same sums in the same order as one
// thread: results do not depend on the thread count).
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/GatherKernels.h"
#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

using namespace tfc;
using namespace tfc::detail;

namespace tfc::kernels {

template <class T, class I>
void gather(const T *params, const I *idx, T *out, int64_t outer, int64_t n,
            int64_t m, int64_t inner) {
  int64_t rows = outer * m;
  parallel_for(rows, inner, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      int64_t o = r / m, i = r % m;
      std::memcpy(out + r * inner,
                  params + (o * n + static_cast<int64_t>(idx[i])) * inner,
                  static_cast<size_t>(inner) * sizeof(T));
    }
  });
}

template <class T, class I>
void unsorted_segment_sum(const T *data, const I *ids, T *out, int64_t m,
                          int64_t inner, int64_t n) {
  std::fill(out, out + n * inner, T(0));
  auto columns = [&](int64_t jb, int64_t je) {
    for (int64_t i = 0; i < m; ++i) {
      int64_t s = static_cast<int64_t>(ids[i]);
      if (s < 0 || s >= n)
        continue;
      T *dst = out + s * inner;
      const T *src = data + i * inner;
      for (int64_t j = jb; j < je; ++j)
        dst[j] += src[j];
    }
  };
  if (inner >= 64)
    parallel_for(inner, m, columns);
  else
    columns(0, inner);
}

#define TFC_INSTANTIATE(T, I)                                                  \
  template void gather<T, I>(const T *, const I *, T *, int64_t, int64_t,      \
                             int64_t, int64_t);                                \
  template void unsorted_segment_sum<T, I>(const T *, const I *, T *, int64_t, \
                                           int64_t, int64_t);
#define TFC_INSTANTIATE_ALL(T)                                                 \
  TFC_INSTANTIATE(T, int32_t)                                                  \
  TFC_INSTANTIATE(T, int64_t)
TFC_INSTANTIATE_ALL(float)
TFC_INSTANTIATE_ALL(double)
TFC_INSTANTIATE_ALL(int32_t)
TFC_INSTANTIATE_ALL(int64_t)
TFC_INSTANTIATE_ALL(uint8_t)
#undef TFC_INSTANTIATE_ALL
#undef TFC_INSTANTIATE

namespace {

/// Calls f(I*) with the index buffer typed.
template <class F> void withIndices(const Tensor &idx, F &&f) {
  if (idx.dtype() == DType::Int32)
    f(static_cast<const int32_t *>(idx.unsafe_impl()->data));
  else
    f(static_cast<const int64_t *>(idx.unsafe_impl()->data));
}

} // namespace

Tensor gather(const Tensor &params, const Tensor &indices, int64_t axis) {
  constexpr std::string_view name = "gather";
  require_concrete(name, params);
  require_concrete(name, indices);
  require_dtype(name, kMaskInts, indices.dtype());
  const std::vector<int64_t> &ps = params.shape();
  if (ps.empty())
    fail(name, "params must have rank >= 1, got shape () (", params.dtype(),
         ")");
  if (axis < 0 || axis >= static_cast<int64_t>(ps.size()))
    fail(name, "axis ", axis, " is out of range for params of shape ", ps);
  int64_t outer = 1, inner = 1, n = ps[axis], m = indices.numel();
  for (int64_t d = 0; d < axis; ++d)
    outer *= ps[d];
  for (size_t d = axis + 1; d < ps.size(); ++d)
    inner *= ps[d];
  std::vector<int64_t> shape(ps.begin(), ps.begin() + axis);
  shape.insert(shape.end(), indices.shape().begin(), indices.shape().end());
  shape.insert(shape.end(), ps.begin() + axis + 1, ps.end());
  wait_for_device(indices, name);
  withIndices(indices, [&](auto *ip) {
    int64_t bad = first_out_of_range(ip, m, 0, n);
    if (bad >= 0)
      fail(name, "indices[", bad, "] = ", static_cast<int64_t>(ip[bad]),
           " is not in [0, ", n, ") (params shape ", ps, ", axis ", axis, ")");
  });
  int64_t total = checked_numel(name, shape, params.dtype());
  Tensor out = make_tensor(params.dtype(), shape, total);
  if (total == 0)
    return out;
  wait_for_device(params, name);
  dispatch_dtype(params.dtype(), [&](auto tag) {
    using E = elem_t<decltype(tag)>;
    withIndices(indices, [&](auto *ip) {
      gather(static_cast<const E *>(params.unsafe_impl()->data), ip,
             static_cast<E *>(out.unsafe_impl()->data), outer, n, m, inner);
    });
  });
  return out;
}

Tensor unsorted_segment_sum(const Tensor &data, const Tensor &segment_ids,
                            int64_t num_segments) {
  constexpr std::string_view name = "unsorted_segment_sum";
  require_concrete(name, data);
  require_concrete(name, segment_ids);
  require_dtype(name, kMaskNumeric, data.dtype());
  require_dtype(name, kMaskInts, segment_ids.dtype());
  if (num_segments < 0)
    fail(name, "num_segments must be >= 0, got ", num_segments);
  const std::vector<int64_t> &ds = data.shape(), &is = segment_ids.shape();
  if (is.size() > ds.size() || !std::equal(is.begin(), is.end(), ds.begin()))
    fail(name, "segment_ids shape ", is, " is not a prefix of data shape ", ds);
  int64_t m = segment_ids.numel(), inner = 1;
  for (size_t d = is.size(); d < ds.size(); ++d)
    inner *= ds[d];
  std::vector<int64_t> shape = {num_segments};
  shape.insert(shape.end(), ds.begin() + is.size(), ds.end());
  wait_for_device(segment_ids, name);
  withIndices(segment_ids, [&](auto *ip) {
    // Negative ids are dropped (TensorFlow's rule); too large ones fail.
    int64_t bad = first_out_of_range(ip, m, std::numeric_limits<int64_t>::min(),
                                     num_segments);
    if (bad >= 0)
      fail(name, "segment_ids[", bad, "] = ", static_cast<int64_t>(ip[bad]),
           " is not below num_segments = ", num_segments);
  });
  int64_t total = checked_numel(name, shape, data.dtype());
  Tensor out = make_tensor(data.dtype(), shape, total);
  if (total == 0)
    return out;
  wait_for_device(data, name);
  dispatch_dtype(data.dtype(), [&](auto tag) {
    using E = elem_t<decltype(tag)>;
    withIndices(segment_ids, [&](auto *ip) {
      unsorted_segment_sum(static_cast<const E *>(data.unsafe_impl()->data), ip,
                           static_cast<E *>(out.unsafe_impl()->data), m, inner,
                           num_segments);
    });
  });
  return out;
}

} // namespace tfc::kernels
