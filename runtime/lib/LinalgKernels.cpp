//===- LinalgKernels.cpp - matmul -----------------------------------------===//
//
// Floating matmul calls a GEMM (OpenBLAS, or oneDNN for big float32 ones:
// Blas.h) once per batch entry; integer matmul is a cache-blocked i-k-j loop in
// wrapping unsigned arithmetic. Batch dims broadcast as in NumPy's matmul
// (equal batch dims, the documented case, are the common one).
//
//===----------------------------------------------------------------------===//

#include "Blas.h"
#include "Broadcast.h"
#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <climits>
#include <cstring>
#include <type_traits>

using namespace tfc;
using namespace tfc::detail;

namespace {

/// C[M x N] = A[M x K] * B[K x N], all row-major and dense.
template <class T>
void intMatmul(T *c, const T *a, const T *b, int64_t m, int64_t n, int64_t k) {
  using U = std::make_unsigned_t<T>;
  constexpr int64_t kBlockK = 128, kBlockN = 512;
  std::memset(c, 0, static_cast<size_t>(m * n) * sizeof(T));
  parallel_for(m, n * k, [&](int64_t i0, int64_t i1) {
    for (int64_t k0 = 0; k0 < k; k0 += kBlockK) {
      int64_t k1 = std::min(k, k0 + kBlockK);
      for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        int64_t j1 = std::min(n, j0 + kBlockN);
        for (int64_t i = i0; i < i1; ++i) {
          U *crow = reinterpret_cast<U *>(c + i * n);
          for (int64_t kk = k0; kk < k1; ++kk) {
            U aik = static_cast<U>(a[i * k + kk]);
            const U *brow = reinterpret_cast<const U *>(b + kk * n);
            for (int64_t j = j0; j < j1; ++j)
              crow[j] += aik * brow[j];
          }
        }
      }
    }
  });
}

template <class T>
void gemm(T *c, const T *a, const T *b, int64_t m, int64_t n, int64_t k) {
  if (m == 0 || n == 0)
    return;
  if (k == 0) {
    std::memset(c, 0, static_cast<size_t>(m * n) * sizeof(T));
    return;
  }
  if constexpr (std::is_floating_point_v<T>)
    detail::gemm(false, false, m, n, k, a, k, b, n, T(0), c, n);
  else
    intMatmul(c, a, b, m, n, k);
}

} // namespace

namespace tfc::kernels {

Tensor matmul(const Tensor &a, const Tensor &b) {
  constexpr std::string_view name = "matmul";
  require_concrete(name, a);
  require_concrete(name, b);
  if (a.dtype() != b.dtype())
    fail(name, "mixed dtypes ", a.dtype(), " and ", b.dtype());
  require_dtype(name, kMaskNumeric, a.dtype());
  const auto &as = a.shape(), &bs = b.shape();
  if (as.size() < 2 || bs.size() < 2)
    fail(name, "expected operands of rank >= 2, got shapes ", as, " and ", bs,
         " (", a.dtype(), " vs ", b.dtype(), ")");
  size_t ra = as.size(), rb = bs.size();
  int64_t m = as[ra - 2], k = as[ra - 1], k2 = bs[rb - 2], n = bs[rb - 1];
  if (k != k2)
    fail(name, "inner dimensions differ: shapes ", as, " and ", bs, " (", k,
         " vs ", k2, ", ", a.dtype(), " vs ", b.dtype(), ")");
  if (is_floating(a.dtype()) && (m > INT_MAX || n > INT_MAX || k > INT_MAX))
    fail(name, "dimensions of shapes ", as, " and ", bs,
         " exceed the BLAS limit of ", INT_MAX);
  std::vector<int64_t> abatch(as.begin(), as.end() - 2),
      bbatch(bs.begin(), bs.end() - 2);
  SmallVec<int64_t> batch;
  if (!broadcast_into(abatch, bbatch, batch))
    fail(name, "incompatible batch dims ", abatch, " and ", bbatch,
         " of shapes ", as, " and ", bs, " (", a.dtype(), " vs ", b.dtype(),
         ")");
  std::vector<int64_t> outShape(batch.data(), batch.data() + batch.size());
  outShape.push_back(m);
  outShape.push_back(n);
  int64_t total = checked_numel(name, outShape, a.dtype());
  Tensor out = make_tensor(a.dtype(), outShape, total);
  if (total == 0)
    return out;
  int64_t nb = total / (m * n);
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      const T *ap = static_cast<const T *>(a.unsafe_impl()->data);
      const T *bp = static_cast<const T *>(b.unsafe_impl()->data);
      T *cp = static_cast<T *>(out.unsafe_impl()->data);
      if (abatch == bbatch) {
        for (int64_t i = 0; i < nb; ++i)
          gemm(cp + i * m * n, ap + i * m * k, bp + i * k * n, m, n, k);
        return;
      }
      // Broadcast batch dims: walk the batch index, mapping it into each.
      size_t r = batch.size();
      for (int64_t i = 0; i < nb; ++i) {
        int64_t rem = i, ia = 0, ib = 0, sa = 1, sb = 1;
        for (size_t d = r; d-- > 0;) {
          int64_t idx = rem % batch[d];
          rem /= batch[d];
          size_t da = d + abatch.size(), db = d + bbatch.size();
          if (da >= r) {
            int64_t dim = abatch[da - r];
            ia += (dim == 1 ? 0 : idx) * sa;
            sa *= dim;
          }
          if (db >= r) {
            int64_t dim = bbatch[db - r];
            ib += (dim == 1 ? 0 : idx) * sb;
            sb *= dim;
          }
        }
        gemm(cp + i * m * n, ap + ia * m * k, bp + ib * k * n, m, n, k);
      }
    }
  });
  return out;
}

} // namespace tfc::kernels
