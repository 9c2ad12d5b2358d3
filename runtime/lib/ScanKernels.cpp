//===- ScanKernels.cpp - cumsum and top_k_indices -------------------------===//

#include "tfc/runtime/ScanKernels.h"
#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <algorithm>
#include <numeric>
#include <type_traits>
#include <vector>

using namespace tfc;
using namespace tfc::detail;

namespace {
/// Wrapping integer adds go through the unsigned type.
template <class T, bool = std::is_integral_v<T>> struct AccOf {
  using type = T;
};
template <class T> struct AccOf<T, true> {
  using type = std::make_unsigned_t<T>;
};
} // namespace

namespace tfc::kernels {

template <class T>
void cumsum(const T *x, T *out, int64_t outer, int64_t n, int64_t inner,
            bool exclusive, bool reverse) {
  using Acc = typename AccOf<T>::type;
  parallel_for(outer, n * inner, [&](int64_t ob, int64_t oe) {
    std::vector<Acc> acc(static_cast<size_t>(inner));
    for (int64_t o = ob; o < oe; ++o) {
      std::fill(acc.begin(), acc.end(), Acc(0));
      for (int64_t s = 0; s < n; ++s) {
        int64_t j = reverse ? n - 1 - s : s;
        const T *src = x + (o * n + j) * inner;
        T *dst = out + (o * n + j) * inner;
        for (int64_t i = 0; i < inner; ++i) {
          Acc before = acc[i];
          acc[i] = Acc(acc[i] + Acc(src[i]));
          dst[i] = T(exclusive ? before : acc[i]);
        }
      }
    }
  });
}

template <class T>
void top_k_indices(const T *x, int32_t *idx, int64_t rows, int64_t n,
                   int64_t k) {
  parallel_for(rows, n * 4 + 1, [&](int64_t rb, int64_t re) {
    std::vector<int32_t> order(static_cast<size_t>(n));
    for (int64_t r = rb; r < re; ++r) {
      const T *row = x + r * n;
      std::iota(order.begin(), order.end(), 0);
      auto before = [&](int32_t a, int32_t b) {
        if (top_k_before(row[a], row[b]))
          return true;
        if (top_k_before(row[b], row[a]))
          return false;
        return a < b;
      };
      std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
      std::copy(order.begin(), order.begin() + k, idx + r * k);
    }
  });
}

#define TFC_INSTANTIATE(T)                                                     \
  template void cumsum<T>(const T *, T *, int64_t, int64_t, int64_t, bool,     \
                          bool);                                               \
  template void top_k_indices<T>(const T *, int32_t *, int64_t, int64_t,       \
                                 int64_t);
TFC_INSTANTIATE(float)
TFC_INSTANTIATE(double)
TFC_INSTANTIATE(int32_t)
TFC_INSTANTIATE(int64_t)
#undef TFC_INSTANTIATE

Tensor cumsum(const Tensor &x, int64_t axis, bool exclusive, bool reverse) {
  constexpr std::string_view name = "cumsum";
  require_concrete(name, x);
  require_dtype(name, kMaskNumeric, x.dtype());
  const std::vector<int64_t> &xs = x.shape();
  if (axis < 0 || axis >= static_cast<int64_t>(xs.size()))
    fail(name, "axis ", axis, " is out of range for shape ", xs);
  int64_t outer = 1, inner = 1, n = xs[axis];
  for (int64_t d = 0; d < axis; ++d)
    outer *= xs[d];
  for (size_t d = axis + 1; d < xs.size(); ++d)
    inner *= xs[d];
  Tensor out = make_tensor(x.dtype(), xs, x.numel());
  if (x.numel() == 0)
    return out;
  wait_for_device(x, name);
  dispatch_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>)
      cumsum(static_cast<const T *>(x.unsafe_impl()->data),
             static_cast<T *>(out.unsafe_impl()->data), outer, n, inner,
             exclusive, reverse);
  });
  return out;
}

Tensor top_k_indices(const Tensor &x, int64_t k) {
  constexpr std::string_view name = "top_k";
  require_concrete(name, x);
  require_dtype(name, kMaskNumeric, x.dtype());
  const std::vector<int64_t> &xs = x.shape();
  if (xs.empty())
    fail(name, "expected a tensor of rank >= 1, got shape () (", x.dtype(),
         ")");
  int64_t n = xs.back();
  if (k < 0 || k > n)
    fail(name, "k must be in [0, ", n, "] (the last dim of shape ", xs,
         "), got ", k);
  if (n > INT32_MAX)
    fail(name, "the last dim ", n, " does not fit the int32 indices");
  std::vector<int64_t> shape = xs;
  shape.back() = k;
  int64_t total = checked_numel(name, shape, DType::Int32);
  Tensor out = make_tensor(DType::Int32, shape, total);
  if (total == 0)
    return out;
  wait_for_device(x, name);
  dispatch_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>)
      top_k_indices(static_cast<const T *>(x.unsafe_impl()->data),
                    static_cast<int32_t *>(out.unsafe_impl()->data),
                    x.numel() / n, n, k);
  });
  return out;
}

} // namespace tfc::kernels
