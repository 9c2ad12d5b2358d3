//===- ReductionKernels.cpp - reduce_* and argmax -------------------------===//
//
// Reduced and kept dims are collapsed into at most three groups
// [kept, reduced, kept]; contiguous rows reduce with Eigen (vectorized
// tree reduction), column-style reductions accumulate whole rows into the
// output. Other interleavings are first transposed into [kept, reduced].
// Max/min propagate NaN (as NumPy and TensorFlow); integer sums and
// products wrap.
//
//===----------------------------------------------------------------------===//

#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <type_traits>

using namespace tfc;
using namespace tfc::detail;
using tfc::kernels::ReduceKind;

namespace {

template <class T>
using CArrMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Accumulator type: unsigned for integers (sums and products wrap).
template <class T, bool = std::is_integral_v<T>> struct AccOf { using type = T; };
template <class T> struct AccOf<T, true> { using type = std::make_unsigned_t<T>; };
template <class T> using Acc = typename AccOf<T>::type;

/// Combines two partial results of a reduction.
template <class T> inline T combine(ReduceKind k, T a, T b) {
  switch (k) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return T(Acc<T>(a) + Acc<T>(b));
  case ReduceKind::Prod:
    return T(Acc<T>(a) * Acc<T>(b));
  case ReduceKind::Max:
    if constexpr (std::is_floating_point_v<T>)
      return (a > b || a != a) ? a : b;
    else
      return a > b ? a : b;
  case ReduceKind::Min:
    if constexpr (std::is_floating_point_v<T>)
      return (a < b || a != a) ? a : b;
    else
      return a < b ? a : b;
  }
  return a;
}

template <class T> inline T identity(ReduceKind k) {
  return k == ReduceKind::Prod ? T(1) : T(0);
}

/// Reduces n >= 0 contiguous elements (n >= 1 for max/min).
template <class T> T reduceContig(ReduceKind k, const T *p, int64_t n) {
  if (n == 0)
    return identity<T>(k);
  switch (k) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return T(CArrMap<Acc<T>>(reinterpret_cast<const Acc<T> *>(p), n).sum());
  case ReduceKind::Prod:
    return T(CArrMap<Acc<T>>(reinterpret_cast<const Acc<T> *>(p), n).prod());
  case ReduceKind::Max:
    if constexpr (std::is_floating_point_v<T>)
      return CArrMap<T>(p, n).template maxCoeff<Eigen::PropagateNaN>();
    else
      return CArrMap<T>(p, n).maxCoeff();
  case ReduceKind::Min:
    if constexpr (std::is_floating_point_v<T>)
      return CArrMap<T>(p, n).template minCoeff<Eigen::PropagateNaN>();
    else
      return CArrMap<T>(p, n).minCoeff();
  }
  return T(0);
}

/// reduceContig, split across threads when long.
template <class T> T reduceContigParallel(ReduceKind k, const T *p, int64_t n) {
  if (n < gParallelThreshold.load(std::memory_order_relaxed) ||
      gNumThreads.load(std::memory_order_relaxed) <= 1)
    return reduceContig(k, p, n);
  int slots = omp_get_max_threads() + gNumThreads.load() + 1;
  std::vector<T> partial(slots, identity<T>(k));
  std::vector<char> used(slots, 0);
  parallel_for(n, 1, [&](int64_t b, int64_t e) {
    int t = omp_get_thread_num();
    partial[t] = reduceContig(k, p + b, e - b);
    used[t] = 1;
  });
  bool have = false;
  T r = identity<T>(k);
  for (int i = 0; i < slots; ++i)
    if (used[i]) {
      r = have ? combine(k, r, partial[i]) : partial[i];
      have = true;
    }
  return r;
}

/// out[o, j] = reduce over r of x[o, r, j], for o in [ob, oe), j in [jb, je).
template <class T>
void reduceColumns(ReduceKind k, T *out, const T *x, int64_t ob, int64_t oe,
                   int64_t R, int64_t inner, int64_t jb, int64_t je) {
  for (int64_t o = ob; o < oe; ++o) {
    T *dst = out + o * inner;
    const T *src = x + o * R * inner;
    if (R == 0) {
      for (int64_t j = jb; j < je; ++j)
        dst[j] = identity<T>(k);
      continue;
    }
    for (int64_t j = jb; j < je; ++j)
      dst[j] = src[j];
    for (int64_t r = 1; r < R; ++r) {
      const T *row = src + r * inner;
      switch (k) {
      case ReduceKind::Sum:
      case ReduceKind::Mean:
        for (int64_t j = jb; j < je; ++j)
          dst[j] = T(Acc<T>(dst[j]) + Acc<T>(row[j]));
        break;
      case ReduceKind::Prod:
        for (int64_t j = jb; j < je; ++j)
          dst[j] = T(Acc<T>(dst[j]) * Acc<T>(row[j]));
        break;
      case ReduceKind::Max:
        for (int64_t j = jb; j < je; ++j)
          dst[j] = combine(ReduceKind::Max, dst[j], row[j]);
        break;
      case ReduceKind::Min:
        for (int64_t j = jb; j < je; ++j)
          dst[j] = combine(ReduceKind::Min, dst[j], row[j]);
        break;
      }
    }
  }
}

/// Reduces x viewed as [outer, R, inner] into out [outer, inner].
template <class T>
void reduce3(ReduceKind k, T *out, const T *x, int64_t outer, int64_t R,
             int64_t inner) {
  int nt = gNumThreads.load(std::memory_order_relaxed);
  if (inner == 1) {
    if (outer == 1) {
      out[0] = reduceContigParallel(k, x, R);
      return;
    }
    parallel_for(outer, R + 1, [&](int64_t ob, int64_t oe) {
      for (int64_t o = ob; o < oe; ++o)
        out[o] = reduceContig(k, x + o * R, R);
    });
    return;
  }
  if (outer >= 2 * nt) {
    parallel_for(outer, R * inner + 1, [&](int64_t ob, int64_t oe) {
      reduceColumns(k, out, x, ob, oe, R, inner, 0, inner);
    });
    return;
  }
  for (int64_t o = 0; o < outer; ++o)
    parallel_for(inner, R + 1, [&](int64_t jb, int64_t je) {
      reduceColumns(k, out, x, o, o + 1, R, inner, jb, je);
    });
}

} // namespace

namespace tfc::kernels {

std::string_view to_string(ReduceKind k) {
  switch (k) {
  case ReduceKind::Sum: return "reduce_sum";
  case ReduceKind::Mean: return "reduce_mean";
  case ReduceKind::Max: return "reduce_max";
  case ReduceKind::Min: return "reduce_min";
  case ReduceKind::Prod: return "reduce_prod";
  }
  return "<invalid reduction>";
}

Tensor reduce(ReduceKind kind, const Tensor &x, const std::vector<int64_t> &axes,
              bool keepdims) {
  std::string_view name = to_string(kind);
  if (static_cast<unsigned>(kind) > static_cast<unsigned>(ReduceKind::Prod))
    fail("reduce", "invalid reduction kind ", static_cast<int>(kind));
  require_concrete(name, x);
  require_dtype(name, kMaskNumeric, x.dtype());
  const auto &xs = x.shape();
  size_t r = xs.size();
  SmallVec<uint8_t> reduced(r, 0);
  if (axes.empty()) {
    for (size_t i = 0; i < r; ++i)
      reduced[i] = 1;
  } else {
    for (int64_t a : axes) {
      int64_t ax = normalize_axis(name, a, xs);
      if (reduced[ax])
        fail(name, "duplicate axis ", a, " in axes ", axes,
             " for tensor of shape ", xs);
      reduced[ax] = 1;
    }
  }
  std::vector<int64_t> outShape;
  int64_t R = 1, outN = 1;
  for (size_t i = 0; i < r; ++i) {
    if (reduced[i]) {
      R *= xs[i];
      if (keepdims)
        outShape.push_back(1);
    } else {
      outN *= xs[i];
      outShape.push_back(xs[i]);
    }
  }
  if (R == 0 && outN > 0) {
    if (kind == ReduceKind::Max || kind == ReduceKind::Min)
      fail(name, "cannot reduce over zero elements (shape ", xs, ", axes ",
           axes, ")");
    if (kind == ReduceKind::Mean && is_integer(x.dtype()))
      fail(name, "mean of zero ", x.dtype(), " elements (shape ", xs,
           ", axes ", axes, ")");
  }
  Tensor out = make_tensor(x.dtype(), outShape, outN);
  if (outN == 0)
    return out;

  // Group dims (size-1 dims dropped) into alternating kept/reduced runs.
  SmallVec<int64_t> gsize;
  SmallVec<uint8_t> gred;
  for (size_t i = 0; i < r; ++i) {
    if (xs[i] == 1)
      continue;
    if (!gsize.empty() && gred.back() == reduced[i])
      gsize.back() *= xs[i];
    else {
      gsize.push_back(xs[i]);
      gred.push_back(reduced[i]);
    }
  }
  int64_t outer = 1, mid = 1, inner = 1;
  Tensor src = x;
  size_t g = gsize.size();
  size_t firstRed = 0;
  while (firstRed < g && !gred[firstRed])
    ++firstRed;
  if (g == 0 || firstRed == g) {
    mid = 1; // Nothing (of size > 1) is reduced: a copy.
    outer = outN;
  } else if (g - firstRed <= 2 && firstRed <= 1) {
    // [K?] R [K?]
    outer = firstRed ? gsize[0] : 1;
    mid = gsize[firstRed];
    inner = firstRed + 1 < g ? gsize[firstRed + 1] : 1;
  } else {
    // Interleaved: move reduced dims last, then reduce rows.
    std::vector<int64_t> perm;
    for (size_t i = 0; i < r; ++i)
      if (!reduced[i])
        perm.push_back(static_cast<int64_t>(i));
    for (size_t i = 0; i < r; ++i)
      if (reduced[i])
        perm.push_back(static_cast<int64_t>(i));
    src = transpose(x, perm);
    outer = outN;
    mid = R;
  }
  dispatch_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (!std::is_same_v<T, bool>) {
      const T *xp = static_cast<const T *>(src.unsafe_impl()->data);
      T *op = static_cast<T *>(out.unsafe_impl()->data);
      reduce3(kind, op, xp, outer, mid, inner);
      if (kind == ReduceKind::Mean) {
        if constexpr (std::is_integral_v<T>) {
          T d = static_cast<T>(R); // Truncates toward zero, as TensorFlow.
          for (int64_t i = 0; i < outN; ++i)
            op[i] = d == -1 ? T(0) - op[i] : op[i] / d;
        } else {
          T d = static_cast<T>(R);
          for (int64_t i = 0; i < outN; ++i)
            op[i] /= d;
        }
      }
    }
  });
  return out;
}

Tensor argmax(const Tensor &x, int64_t axis) {
  constexpr std::string_view name = "argmax";
  require_concrete(name, x);
  require_dtype(name, kMaskAll, x.dtype());
  const auto &xs = x.shape();
  if (xs.empty())
    fail(name, "expected a tensor of rank >= 1, got shape ()");
  int64_t ax = normalize_axis(name, axis, xs);
  int64_t outer = 1, n = xs[ax], inner = 1;
  std::vector<int64_t> outShape;
  for (size_t i = 0; i < xs.size(); ++i) {
    if (static_cast<int64_t>(i) < ax)
      outer *= xs[i];
    else if (static_cast<int64_t>(i) > ax)
      inner *= xs[i];
    if (static_cast<int64_t>(i) != ax)
      outShape.push_back(xs[i]);
  }
  int64_t outN = outer * inner;
  if (n == 0 && outN > 0)
    fail(name, "cannot take the argmax over axis ", axis,
         " of size 0 (shape ", xs, ")");
  Tensor out = make_tensor(DType::Int64, outShape, outN);
  if (outN == 0)
    return out;
  int64_t *op = static_cast<int64_t *>(out.unsafe_impl()->data);
  dispatch_dtype(x.dtype(), [&](auto tag) {
    using E = elem_t<decltype(tag)>;
    const E *xp = static_cast<const E *>(x.unsafe_impl()->data);
    // NaN counts as the maximum (first NaN wins), as NumPy.
    auto better = [](E v, E best) {
      if constexpr (std::is_floating_point_v<E>)
        return (v > best || (v != v && best == best));
      else
        return v > best;
    };
    parallel_for(outer, n * inner + 1, [&](int64_t ob, int64_t oe) {
      for (int64_t o = ob; o < oe; ++o)
        for (int64_t j = 0; j < inner; ++j) {
          const E *p = xp + o * n * inner + j;
          E best = p[0];
          int64_t bi = 0;
          for (int64_t i = 1; i < n; ++i)
            if (better(p[i * inner], best)) {
              best = p[i * inner];
              bi = i;
            }
          op[o * inner + j] = bi;
        }
    });
  });
  return out;
}

} // namespace tfc::kernels
