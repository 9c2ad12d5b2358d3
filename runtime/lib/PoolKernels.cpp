//===- PoolKernels.cpp - max_pool2d / avg_pool2d and their gradients ------===//
//
// Memory-bound loops over NHWC: each output pixel's window is a few runs of
// c contiguous channels. Every kernel takes the channels a few vectors at a
// time (16 bytes each: SSE2 on baseline x86-64) and runs over the window's
// pixels inside that, so its accumulators stay in registers.
//
//   forward:    parallel over output rows (n, i); every y element is
//               written once. max_pool2d_grad_grad is the same loop,
//               keeping g's element where the maximum is.
//   gradients:  one scatter pass, parallel over output rows: each window
//               adds its dy to the input pixels it covers (avg: all of
//               them, scaled; max: its first maximum, found by a second
//               look at the window, which is still in L1). The output rows
//               [i0, i1) of an image own its input rows [ownStart(i0),
//               ownStart(i1)): a thread zeroes and writes only the rows it
//               owns, revisiting the windows of earlier output rows that
//               overlap them, so no two threads write one element.
//
// Every window of a shape from pool2d_shape holds at least one input
// element (SAME pads less than a window on either side).
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/PoolKernels.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/ConvGeometry.h"

#include <algorithm>
#include <limits>
#include <type_traits>

using namespace tfc;
using namespace tfc::detail;

namespace {

using kernels::Pool2DShape;

/// Element counts above this are rejected, as in ConvKernels.cpp: byte
/// sizes and index sums stay far from int64 overflow.
constexpr int64_t kMaxElements = int64_t(1) << 56;

/// 16-byte vectors: GCC splits wider ones into scalars without AVX.
/// `Unaligned` accesses them at any element boundary (typed accesses, not
/// memcpy: those may alias the kernels' pointers, which then get reloaded
/// after each store).
template <class T> struct VecOf;
template <> struct VecOf<float> {
  typedef float type __attribute__((vector_size(16)));
  typedef float unaligned __attribute__((vector_size(16), aligned(4)));
};
template <> struct VecOf<double> {
  typedef double type __attribute__((vector_size(16)));
  typedef double unaligned __attribute__((vector_size(16), aligned(8)));
};
template <class T> using Vec = typename VecOf<T>::type;
template <class T> using Unaligned = typename VecOf<T>::unaligned;
/// What comparing two Vec<T> gives: all ones in the lanes where it holds.
template <class T> using Mask = decltype(Vec<T>() < Vec<T>());
template <class T> constexpr int64_t kLanes = sizeof(Vec<T>) / sizeof(T);

template <class T> inline Vec<T> splat(T v) { return Vec<T>() + v; }

/// v where m is set, else 0 (casts between vector types keep the bits).
template <class T> inline Vec<T> keep(Mask<T> m, Vec<T> v) {
  return Vec<T>(m & Mask<T>(v));
}

/// Whether any lane of m is set (two 64-bit halves: fewer instructions than
/// a loop over the lanes).
template <class T> inline bool anyLane(Mask<T> m) {
  typedef uint64_t Halves __attribute__((vector_size(16)));
  const Halves h = Halves(m);
  return (h[0] | h[1]) != 0;
}

/// Loads and stores of U whole vectors, vector u at p + u * kLanes.
template <class T, int U> struct FullLanes {
  static constexpr int kVecs = U;
  static Vec<T> load(const T *p, int u) {
    return *reinterpret_cast<const Unaligned<T> *>(p + u * kLanes<T>);
  }
  static void store(T *p, int u, Vec<T> v) {
    *reinterpret_cast<Unaligned<T> *>(p + u * kLanes<T>) = v;
  }
};
/// Loads and stores of the first n lanes of one vector (the channels'
/// tail); the other lanes load as zero and are never stored.
template <class T> struct PartialLanes {
  static constexpr int kVecs = 1;
  int64_t n;
  Vec<T> load(const T *p, int) const {
    Vec<T> v = {};
    for (int64_t l = 0; l < n; ++l)
      v[l] = p[l];
    return v;
  }
  void store(T *p, int, Vec<T> v) const {
    for (int64_t l = 0; l < n; ++l)
      p[l] = v[l];
  }
};

/// Vectors per step of the channel loops: independent accumulators hide
/// the latency of adds and compares (1 or 2 ran 1.1-2.3x slower on
/// bench_pool.cpp's shapes; 8 runs out of registers).
constexpr int kUnroll = 4;

/// Calls f(e, lanes) for consecutive channel chunks [e, e + lanes.kVecs *
/// kLanes) of [0, c), `lanes` loading and storing those (PartialLanes for
/// the tail).
template <class T, class F> inline void forEachChunk(int64_t c, F &&f) {
  int64_t e = 0;
  for (; e + kUnroll * kLanes<T> <= c; e += kUnroll * kLanes<T>)
    f(e, FullLanes<T, kUnroll>());
  for (; e + kLanes<T> <= c; e += kLanes<T>)
    f(e, FullLanes<T, 1>());
  if (e < c)
    f(e, PartialLanes<T>{c - e});
}

/// Whether v replaces m as the running maximum: larger, or the first NaN.
template <class T> inline Mask<T> replaces(Vec<T> v, Vec<T> m) {
  return (v > m) | ((v != v) & (m == m));
}

/// The product of dims, or -1 when it overflows or exceeds kMaxElements.
int64_t boundedProduct(std::initializer_list<int64_t> dims) {
  int64_t r = 1;
  for (int64_t d : dims)
    if (__builtin_mul_overflow(r, d, &r) || r > kMaxElements)
      return -1;
  return r;
}

/// The input range [lo, hi) a window covers along one dim.
struct Span {
  int64_t lo, hi;
  int64_t size() const { return hi - lo; }
};
inline Span window(int64_t o, int64_t stride, int64_t pad, int64_t k,
                   int64_t in) {
  const int64_t start = o * stride - pad;
  return {std::max<int64_t>(start, 0), std::min(in, start + k)};
}

/// The output positions [lo, hi) whose windows cover input position t.
inline Span covering(int64_t t, int64_t stride, int64_t pad, int64_t k,
                     int64_t out) {
  // o * stride - pad <= t < o * stride - pad + k.
  const int64_t first = t + pad - k + 1; // may be negative
  const int64_t lo = first <= 0 ? 0 : first / stride + (first % stride != 0);
  return {lo, std::min(out, (t + pad) / stride + 1)};
}

/// Work per output row: the window's elements in reach.
int64_t rowCost(const Pool2DShape &s) {
  return s.ow * std::min(s.kh, s.h) * std::min(s.kw, s.w) * s.c;
}

/// The input pixels of one window inside the input: rows x cols of an
/// image, the first at element offset `at` (channel 0; the same offset in
/// x, g and dx).
struct Window {
  int64_t at;
  Span rows, cols;

  /// The part of the window in rows r (within `rows`).
  Window rowsIn(const Pool2DShape &s, Span r) const {
    return {at + (r.lo - rows.lo) * s.w * s.c, r, cols};
  }
};

/// Calls f(p, win) for each output pixel p = (img * oh + i) * ow + j of
/// output row i of image img, and its window.
template <class F>
inline void forEachWindow(const Pool2DShape &s, int64_t img, int64_t i, F &&f) {
  const Span rows = window(i, s.strideH, s.padTop, s.kh, s.h);
  const int64_t rowAt = (img * s.h + rows.lo) * s.w * s.c;
  for (int64_t j = 0; j < s.ow; ++j) {
    const Span cols = window(j, s.strideW, s.padLeft, s.kw, s.w);
    f((img * s.oh + i) * s.ow + j, Window{rowAt + cols.lo * s.c, rows, cols});
  }
}

/// Calls f(px) for the window's pixels in row-major order, px the element
/// offset of the pixel's channel 0.
template <class F>
inline void forEachPixel(const Pool2DShape &s, const Window &win, F &&f) {
  const int64_t rowElems = s.w * s.c;
  for (int64_t row = win.at, yy = win.rows.lo; yy < win.rows.hi;
       ++yy, row += rowElems)
    for (int64_t px = row, xx = win.cols.lo; xx < win.cols.hi; ++xx, px += s.c)
      f(px);
}

/// Runs f(p, win) for every output pixel, in parallel over output rows.
template <class F> void forEachOutput(const Pool2DShape &s, F &&f) {
  parallel_for(s.n * s.oh, rowCost(s), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r)
      forEachWindow(s, r / s.oh, r % s.oh, f);
  });
}

/// Sets m[u] to the maximum over the window of vector u of the chunk at
/// channel e, NaN in the lanes where the window holds a NaN; returns
/// whether any does.
template <class T, class Lanes, int U>
inline bool windowMax(const Pool2DShape &s, const T *x, const Window &win,
                      int64_t e, Lanes lanes, Vec<T> (&m)[U]) {
  // maxps, which never lets a NaN replace m, and a sum to spot NaNs: one
  // instruction each.
  Vec<T> sum[U] = {};
  std::fill_n(m, U, splat(-std::numeric_limits<T>::infinity()));
  forEachPixel(s, win, [&](int64_t px) {
    for (int u = 0; u < U; ++u) {
      const Vec<T> v = lanes.load(x + px + e, u);
      m[u] = v > m[u] ? v : m[u];
      sum[u] += v;
    }
  });
  // The sums are NaN if an element is (or on inf - inf): look again then.
  Vec<T> total = sum[0];
  for (int u = 1; u < U; ++u)
    total += sum[u];
  if (!anyLane<T>(total != total))
    return false;
  Mask<T> nan[U] = {}, any = {};
  forEachPixel(s, win, [&](int64_t px) {
    for (int u = 0; u < U; ++u) {
      const Vec<T> v = lanes.load(x + px + e, u);
      nan[u] |= v != v;
    }
  });
  for (int u = 0; u < U; ++u) {
    m[u] = nan[u] ? splat(std::numeric_limits<T>::quiet_NaN()) : m[u];
    any |= nan[u];
  }
  return anyLane<T>(any);
}

/// The first input row that output row i owns (see the file comment);
/// ownStart(0) = 0 and ownStart(oh) = h, so the rows of [0, oh) own all.
inline int64_t ownStart(const Pool2DShape &s, int64_t i) {
  if (i == 0)
    return 0;
  if (i == s.oh)
    return s.h;
  return std::clamp<int64_t>(i * s.strideH - s.padTop, 0, s.h);
}

/// Asks for the (64-byte) cache lines of rows x cols of the input-shaped
/// NHWC image at `img`, to be written.
template <class T>
inline void prefetchForWrite(const Pool2DShape &s, const T *img, Span rows,
                             Span cols) {
  const int64_t n = cols.size() * s.c, step = 64 / sizeof(T);
  for (int64_t yy = rows.lo; yy < rows.hi; ++yy) {
    const T *row = img + (yy * s.w + cols.lo) * s.c;
    for (int64_t k = 0; k < n; k += step)
      __builtin_prefetch(row + k, /*rw=*/1);
  }
}

/// Fills dx in one pass over the windows, in parallel over output rows
/// (see the file comment): calls add(p, win, mine) for each window that
/// reaches the rows a thread owns, `mine` being the part of the window's
/// rows it owns, zeroed just before the first add to them.
template <class T, class Add>
void scatterGrad(const Pool2DShape &s, T *dx, Add &&add) {
  const int64_t rowElems = s.w * s.c;
  parallel_for(s.n * s.oh, rowCost(s), [&](int64_t r0, int64_t r1) {
    for (int64_t img = r0 / s.oh; img * s.oh < r1; ++img) {
      const int64_t i0 = std::max(r0 - img * s.oh, int64_t(0));
      const int64_t i1 = std::min(r1 - img * s.oh, s.oh);
      const Span own{ownStart(s, i0), ownStart(s, i1)};
      T *dxImg = dx + img * s.h * rowElems;
      int64_t zeroed = own.lo;
      const Span before = covering(own.lo, s.strideH, s.padTop, s.kh, s.oh);
      for (int64_t i = std::min(i0, before.lo); i < i1; ++i) {
        const Span rows = window(i, s.strideH, s.padTop, s.kh, s.h);
        const Span mine{std::max(rows.lo, own.lo), std::min(rows.hi, own.hi)};
        if (mine.size() <= 0)
          continue;
        if (mine.hi > zeroed) {
          std::fill(dxImg + zeroed * rowElems, dxImg + mine.hi * rowElems,
                    T(0));
          zeroed = mine.hi;
        }
        // The rows the next output row zeroes: their reads for ownership
        // overlap this row's work instead of stalling that fill (R max
        // grad in bench_pool.cpp: 12% faster).
        Span next = {mine.hi, mine.hi};
        if (i + 1 < i1)
          next.hi = std::min(window(i + 1, s.strideH, s.padTop, s.kh, s.h).hi,
                             own.hi);
        forEachWindow(s, img, i, [&](int64_t p, const Window &win) {
          prefetchForWrite(s, dxImg, next, win.cols);
          add(p, win, mine);
        });
      }
      std::fill(dxImg + zeroed * rowElems, dxImg + own.hi * rowElems, T(0));
    }
  });
}

} // namespace

namespace tfc::kernels {

Pool2DShape pool2d_shape(const char *op, const std::vector<int64_t> &input,
                         std::array<int64_t, 2> ksize,
                         std::array<int64_t, 2> strides, bool same) {
  auto bad = [&](const auto &...what) {
    fail(op, what..., " (input shape ", input, ", ksize [", ksize[0], ", ",
         ksize[1], "], strides [", strides[0], ", ", strides[1], "], ",
         same ? "SAME" : "VALID", " padding)");
  };
  if (input.size() != 4)
    bad("expected a rank-4 NHWC input");
  if (input[0] < 0)
    bad("negative batch size");
  if (input[1] < 1 || input[2] < 1 || input[3] < 1)
    bad("input dims must be positive");
  if (ksize[0] < 1 || ksize[1] < 1)
    bad("window sizes must be >= 1");
  if (strides[0] < 1 || strides[1] < 1)
    bad("strides must be >= 1");

  Pool2DShape s;
  s.n = input[0], s.h = input[1], s.w = input[2], s.c = input[3];
  s.kh = ksize[0], s.kw = ksize[1];
  s.strideH = strides[0], s.strideW = strides[1];
  auto rows = window_dim(s.h, s.kh, s.strideH, 1, same);
  auto cols = window_dim(s.w, s.kw, s.strideW, 1, same);
  if (!rows || !cols)
    bad("the window (", s.kh, " x ", s.kw, ") is larger than the input (", s.h,
        " x ", s.w, ") with VALID padding");
  s.oh = rows->out, s.padTop = rows->padBefore;
  s.ow = cols->out, s.padLeft = cols->padBefore;
  // Both buffers, and the work of a pass over every window (the kernels'
  // parallel cost estimates multiply it out).
  const int64_t kh = std::min(s.kh, s.h), kw = std::min(s.kw, s.w);
  if (boundedProduct({s.n, s.h, s.w, s.c}) < 0 ||
      boundedProduct({s.n, s.oh, s.ow, kh, kw, s.c}) < 0 ||
      boundedProduct({s.n, s.h, s.ow, kh, kw, s.c}) < 0)
    bad("the pool has too many elements to address");
  return s;
}

template <class T> void max_pool2d(const Pool2DShape &s, const T *x, T *y) {
  forEachOutput(s, [&](int64_t p, const Window &win) {
    forEachChunk<T>(s.c, [&](int64_t e, auto lanes) {
      constexpr int U = lanes.kVecs;
      Vec<T> m[U];
      windowMax(s, x, win, e, lanes, m);
      for (int u = 0; u < U; ++u)
        lanes.store(y + p * s.c + e, u, m[u]);
    });
  });
}

template <class T>
void max_pool2d_grad_grad(const Pool2DShape &s, const T *x, const T *g, T *y) {
  forEachOutput(s, [&](int64_t p, const Window &win) {
    forEachChunk<T>(s.c, [&](int64_t e, auto lanes) {
      constexpr int U = lanes.kVecs;
      Vec<T> best[U], picked[U];
      std::fill_n(best, U, splat(-std::numeric_limits<T>::infinity()));
      // The first element is picked unless another replaces it.
      for (int u = 0; u < U; ++u)
        picked[u] = lanes.load(g + win.at + e, u);
      forEachPixel(s, win, [&](int64_t px) {
        for (int u = 0; u < U; ++u) {
          const Vec<T> v = lanes.load(x + px + e, u);
          const Mask<T> take = replaces<T>(v, best[u]);
          best[u] = take ? v : best[u];
          picked[u] = take ? lanes.load(g + px + e, u) : picked[u];
        }
      });
      for (int u = 0; u < U; ++u)
        lanes.store(y + p * s.c + e, u, picked[u]);
    });
  });
}

template <class T> void avg_pool2d(const Pool2DShape &s, const T *x, T *y) {
  forEachOutput(s, [&](int64_t p, const Window &win) {
    const T count = T(win.rows.size() * win.cols.size());
    forEachChunk<T>(s.c, [&](int64_t e, auto lanes) {
      constexpr int U = lanes.kVecs;
      Vec<T> sum[U] = {};
      forEachPixel(s, win, [&](int64_t px) {
        for (int u = 0; u < U; ++u)
          sum[u] += lanes.load(x + px + e, u);
      });
      for (int u = 0; u < U; ++u)
        lanes.store(y + p * s.c + e, u, sum[u] / count);
    });
  });
}

template <class T>
void max_pool2d_grad(const Pool2DShape &s, const T *x, const T *dy, T *dx) {
  scatterGrad(s, dx, [&](int64_t p, const Window &win, Span mine) {
    const Window above = win.rowsIn(s, {win.rows.lo, mine.lo});
    const Window inside = win.rowsIn(s, mine);
    forEachChunk<T>(s.c, [&](int64_t e, auto lanes) {
      constexpr int U = lanes.kVecs;
      // The maximum, NaN if the window holds one: then no element equals
      // it and the first NaN is the first maximum.
      Vec<T> m[U];
      const bool hasNaN = windowMax(s, x, win, e, lanes, m);
      Vec<T> g[U];
      for (int u = 0; u < U; ++u)
        g[u] = lanes.load(dy + p * s.c + e, u);
      // Which elements are the first maximum of their lane. Without NaNs
      // (nearly always) that is the first equal to m: m then gets all bits
      // set (a NaN), so that later ties equal nothing.
      auto scatter = [&](auto nans) {
        Mask<T> found[U] = {};
        auto firstMax = [&](int64_t px, int u) {
          const Vec<T> v = lanes.load(x + px + e, u);
          if constexpr (nans) {
            const Mask<T> max = (v == m[u]) | (v != v);
            const Mask<T> first = max & ~found[u];
            found[u] |= max;
            return first;
          } else {
            const Mask<T> first = v == m[u];
            m[u] = Vec<T>(Mask<T>(m[u]) | first);
            return first;
          }
        };
        // Rows another thread owns still decide which maximum comes first.
        forEachPixel(s, above, [&](int64_t px) {
          for (int u = 0; u < U; ++u)
            firstMax(px, u);
        });
        forEachPixel(s, inside, [&](int64_t px) {
          for (int u = 0; u < U; ++u) {
            const Mask<T> first = firstMax(px, u);
            lanes.store(dx + px + e, u,
                        lanes.load(dx + px + e, u) + keep<T>(first, g[u]));
          }
        });
      };
      if (hasNaN)
        scatter(std::true_type());
      else
        scatter(std::false_type());
    });
  });
}

template <class T>
void avg_pool2d_grad(const Pool2DShape &s, const T *dy, T *dx) {
  scatterGrad(s, dx, [&](int64_t p, const Window &win, Span mine) {
    const T scale = T(1) / T(win.rows.size() * win.cols.size());
    const Window inside = win.rowsIn(s, mine);
    forEachChunk<T>(s.c, [&](int64_t e, auto lanes) {
      constexpr int U = lanes.kVecs;
      Vec<T> g[U];
      for (int u = 0; u < U; ++u)
        g[u] = lanes.load(dy + p * s.c + e, u) * scale;
      forEachPixel(s, inside, [&](int64_t px) {
        for (int u = 0; u < U; ++u)
          lanes.store(dx + px + e, u, lanes.load(dx + px + e, u) + g[u]);
      });
    });
  });
}

template void max_pool2d<float>(const Pool2DShape &, const float *, float *);
template void max_pool2d<double>(const Pool2DShape &, const double *, double *);
template void max_pool2d_grad<float>(const Pool2DShape &, const float *,
                                     const float *, float *);
template void max_pool2d_grad<double>(const Pool2DShape &, const double *,
                                      const double *, double *);
template void max_pool2d_grad_grad<float>(const Pool2DShape &, const float *,
                                          const float *, float *);
template void max_pool2d_grad_grad<double>(const Pool2DShape &, const double *,
                                           const double *, double *);
template void avg_pool2d<float>(const Pool2DShape &, const float *, float *);
template void avg_pool2d<double>(const Pool2DShape &, const double *, double *);
template void avg_pool2d_grad<float>(const Pool2DShape &, const float *,
                                     float *);
template void avg_pool2d_grad<double>(const Pool2DShape &, const double *,
                                      double *);

} // namespace tfc::kernels
