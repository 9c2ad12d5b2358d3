//===- Broadcast.h - NumPy broadcasting iteration ---------------*- C++ -*-===//
//
// A BroadcastPlan collapses an output shape and N broadcast inputs into the
// fewest dims (size-1 output dims dropped, adjacent dims merged when every
// input walks them contiguously), so [2, 3, 4] + [4] becomes a 2-D row
// broadcast and same-shape operands become one flat run. Kernels then run an
// inner loop over the last collapsed dim, where each input's stride is 1
// (walks) or 0 (repeats one element).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_LIB_BROADCAST_H
#define TFC_RUNTIME_LIB_BROADCAST_H

#include "Internal.h"
#include "Parallel.h"

#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {

/// NumPy's broadcast of two shapes into `out`; false when incompatible.
inline bool broadcast_into(const std::vector<int64_t> &a,
                           const std::vector<int64_t> &b,
                           SmallVec<int64_t> &out) {
  size_t ra = a.size(), rb = b.size(), r = ra > rb ? ra : rb;
  out.resize(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i + ra >= r ? a[i + ra - r] : 1;
    int64_t db = i + rb >= r ? b[i + rb - r] : 1;
    if (da == db || db == 1)
      out[i] = da;
    else if (da == 1)
      out[i] = db;
    else
      return false;
  }
  return true;
}

template <int N> struct BroadcastPlan {
  SmallVec<int64_t> dims;       ///< Collapsed output dims, outermost first.
  SmallVec<int64_t> strides[N]; ///< Per input, element stride per dim.
  int64_t numel = 0;

  /// `in[k]` must broadcast to `out` (checked by the caller).
  void build(const int64_t *out, size_t rank,
             const std::vector<int64_t> *const in[N]) {
    numel = 1;
    for (size_t i = 0; i < rank; ++i)
      numel *= out[i];
    int64_t run[N];
    for (int k = 0; k < N; ++k)
      run[k] = 1;
    // Walk right to left, pushing innermost first; reversed at the end.
    for (size_t ii = rank; ii-- > 0;) {
      int64_t d = out[ii];
      int64_t s[N];
      for (int k = 0; k < N; ++k) {
        size_t rk = in[k]->size();
        int64_t dk = ii + rk >= rank ? (*in[k])[ii + rk - rank] : 1;
        s[k] = dk == 1 ? 0 : run[k];
        run[k] *= dk;
      }
      if (d == 1)
        continue;
      bool merge = !dims.empty();
      for (int k = 0; merge && k < N; ++k)
        merge = s[k] == strides[k].back() * dims.back();
      if (merge) {
        dims.back() *= d;
        continue;
      }
      dims.push_back(d);
      for (int k = 0; k < N; ++k)
        strides[k].push_back(s[k]);
    }
    if (dims.empty()) {
      dims.push_back(1);
      for (int k = 0; k < N; ++k)
        strides[k].push_back(0);
    }
    size_t m = dims.size();
    for (size_t i = 0; i < m / 2; ++i) {
      std::swap(dims[i], dims[m - 1 - i]);
      for (int k = 0; k < N; ++k)
        std::swap(strides[k][i], strides[k][m - 1 - i]);
    }
  }

  /// The stride (0 or 1) of input k along the innermost collapsed dim.
  int64_t innerStride(int k) const { return strides[k][dims.size() - 1]; }

  /// Calls run(outOffset, inOffsets, len) for every innermost run, split
  /// across threads when big; `cost` weighs one element.
  template <class Run> void forEachRun(int64_t cost, Run &&run) const {
    if (numel == 0)
      return;
    size_t m = dims.size();
    int64_t inner = dims[m - 1];
    int64_t outer = numel / inner;
    int64_t sIn[N];
    for (int k = 0; k < N; ++k)
      sIn[k] = strides[k][m - 1];
    auto rows = [&](int64_t ob, int64_t oe, int64_t b, int64_t e) {
      // Position the odometer at row ob.
      SmallVec<int64_t> idx(m ? m - 1 : 0, 0);
      int64_t off[N] = {};
      int64_t rem = ob;
      for (size_t d = m - 1; d-- > 0;) {
        idx[d] = rem % dims[d];
        rem /= dims[d];
        for (int k = 0; k < N; ++k)
          off[k] += idx[d] * strides[k][d];
      }
      for (int64_t o = ob; o < oe; ++o) {
        int64_t at[N];
        for (int k = 0; k < N; ++k)
          at[k] = off[k] + b * sIn[k];
        run(o * inner + b, static_cast<const int64_t *>(at), e - b);
        for (size_t d = m - 1; d-- > 0;) {
          for (int k = 0; k < N; ++k)
            off[k] += strides[k][d];
          if (++idx[d] < dims[d])
            break;
          for (int k = 0; k < N; ++k)
            off[k] -= strides[k][d] * dims[d];
          idx[d] = 0;
        }
      }
    };
    if (outer < 16) {
      // Few long rows: split each row instead.
      for (int64_t o = 0; o < outer; ++o)
        parallel_for(inner, cost,
                     [&](int64_t b, int64_t e) { rows(o, o + 1, b, e); });
      return;
    }
    parallel_for(outer, inner * cost,
                 [&](int64_t ob, int64_t oe) { rows(ob, oe, 0, inner); });
  }
};

} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_RUNTIME_LIB_BROADCAST_H
