//===- PoolKernels.cpp - max_pool2d / avg_pool2d and their gradients ------===//
//
// Memory-bound loops over NHWC: each output pixel's window is a few runs of
// c contiguous channels, and the innermost loop of every kernel runs over
// those channels (vectorized, in blocks of kBlock whose accumulators live on
// the stack).
//
//   forward:    parallel over output rows (n, i); every y element is
//               written once. max_pool2d_grad_grad is the same loop,
//               keeping g's element where the maximum is.
//   avg grad:   gather, parallel over input rows (n, yy): a dx row sums the
//               windows that cover it, so no two threads write one element.
//   max grad:   two passes: the position of each window's first maximum per
//               channel (parallel over output rows, into a scratch index),
//               then the same gather as avg grad, adding dy where the index
//               names the element.
//
// Every window of a shape from pool2d_shape holds at least one input
// element (SAME pads less than a window on either side).
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/PoolKernels.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Allocator.h"
#include "tfc/runtime/ConvGeometry.h"

#include <algorithm>
#include <climits>
#include <limits>
#include <memory>
#include <type_traits>

using namespace tfc;
using namespace tfc::detail;

namespace {

using kernels::Pool2DShape;

/// Element counts above this are rejected, as in ConvKernels.cpp: byte
/// sizes and index sums stay far from int64 overflow.
constexpr int64_t kMaxElements = int64_t(1) << 56;

/// Channels per block: the accumulators of one block live on the stack. Not
/// a compile-time trip count: GCC then unrolls the loops completely before
/// vectorizing them, and the select-heavy ones end up scalar (2.5-6x
/// slower in bench_pool.cpp).
constexpr int64_t kBlock = 256;
/// An integer as wide as T: masks next to T in one vector loop.
template <class T>
using SameWidthInt = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;

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

/// Work per output row (or input row): the window's elements in reach.
int64_t rowCost(const Pool2DShape &s) {
  return s.ow * std::min(s.kh, s.h) * std::min(s.kw, s.w) * s.c;
}

/// Calls f(p, img, rows, cols, e0, len) for each output pixel p of output
/// rows [r0, r1) (r = img * oh + i) and each block [e0, e0 + len) of its
/// channels.
template <class F>
inline void forEachPixelBlock(const Pool2DShape &s, int64_t r0, int64_t r1,
                              F &&f) {
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t img = r / s.oh, i = r % s.oh;
    const Span rows = window(i, s.strideH, s.padTop, s.kh, s.h);
    for (int64_t j = 0; j < s.ow; ++j) {
      const Span cols = window(j, s.strideW, s.padLeft, s.kw, s.w);
      const int64_t p = r * s.ow + j;
      for (int64_t e0 = 0; e0 < s.c; e0 += kBlock)
        f(p, img, rows, cols, e0, std::min(kBlock, s.c - e0));
    }
  }
}

/// Calls v(px) for the window's input pixels in row-major order, px
/// pointing at channel e0 of the pixel.
template <class T, class V>
inline void forEachWindowPixel(const Pool2DShape &s, const T *x, int64_t img,
                               Span rows, Span cols, int64_t e0, V &&v) {
  for (int64_t yy = rows.lo; yy < rows.hi; ++yy) {
    const T *row = x + ((img * s.h + yy) * s.w) * s.c + e0;
    for (int64_t xx = cols.lo; xx < cols.hi; ++xx)
      v(row + xx * s.c);
  }
}

/// Whether v replaces m as the running maximum: larger, or the first NaN
/// (bitwise ops, not ||, so the loop has no branch to stop vectorization).
template <class T> inline bool replaces(T v, T m) {
  return (v > m) | ((v != v) & (m == m));
}

/// Fills dx by input rows (n, yy) in parallel: each row is zeroed, then
/// add(p, t, rows, cols, d) runs for every window covering one of its pixels,
/// with p the window's output pixel, rows x cols its clipped extent, t the
/// pixel's row-major index within it and d the pixel's c channels of dx.
template <class T, class Add>
void gatherGrad(const Pool2DShape &s, T *dx, Add &&add) {
  const int64_t rowElems = s.w * s.c;
  parallel_for(s.n * s.h, rowCost(s), [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t img = r / s.h, yy = r % s.h;
      T *dxRow = dx + r * rowElems;
      std::fill_n(dxRow, rowElems, T(0));
      const Span is = covering(yy, s.strideH, s.padTop, s.kh, s.oh);
      for (int64_t i = is.lo; i < is.hi; ++i) {
        const Span rows = window(i, s.strideH, s.padTop, s.kh, s.h);
        for (int64_t j = 0; j < s.ow; ++j) {
          const Span cols = window(j, s.strideW, s.padLeft, s.kw, s.w);
          const int64_t p = (img * s.oh + i) * s.ow + j;
          int64_t t = (yy - rows.lo) * cols.size();
          for (int64_t xx = cols.lo; xx < cols.hi; ++xx, ++t)
            add(p, t, rows, cols, dxRow + xx * s.c);
        }
      }
    }
  });
}

/// max_pool2d_grad with window indices of type I.
template <class T, class I>
void maxPoolGrad(const Pool2DShape &s, const T *x, const T *dy, T *dx) {
  const int64_t outElems = s.n * s.oh * s.ow * s.c;
  std::unique_ptr<void, void (*)(void *)> mem(
      allocator::allocate(static_cast<size_t>(outElems) * sizeof(I)),
      allocator::deallocate);
  I *idx = static_cast<I *>(mem.get());
  parallel_for(s.n * s.oh, rowCost(s), [&](int64_t r0, int64_t r1) {
    forEachPixelBlock(
        s, r0, r1,
        [&](int64_t p, int64_t img, Span rows, Span cols, int64_t e0,
            int64_t len) {
          T best[kBlock];
          I id[kBlock];
          std::fill_n(best, len, -std::numeric_limits<T>::infinity());
          std::fill_n(id, len, I(0));
          I t = 0;
          forEachWindowPixel(s, x, img, rows, cols, e0, [&](const T *px) {
            for (int64_t e = 0; e < len; ++e) {
              bool take = replaces(px[e], best[e]);
              best[e] = take ? px[e] : best[e];
              id[e] = take ? t : id[e];
            }
            ++t;
          });
          std::copy_n(id, len, idx + p * s.c + e0);
        });
  });
  const int64_t c = s.c;
  gatherGrad(s, dx, [&](int64_t p, int64_t t, Span, Span, T *d) {
    const I *id = idx + p * c;
    const I at = I(t);
    const T *g = dy + p * c;
    // Adding +0 elsewhere leaves d as it is (it starts at +0, so it is never
    // -0); the unconditional load lets the loop vectorize.
    for (int64_t e = 0; e < c; ++e) {
      const T v = g[e];
      d[e] += id[e] == at ? v : T(0);
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
  parallel_for(s.n * s.oh, rowCost(s), [&](int64_t r0, int64_t r1) {
    forEachPixelBlock(
        s, r0, r1,
        [&](int64_t p, int64_t img, Span rows, Span cols, int64_t e0,
            int64_t len) {
          // A plain maximum (one maxps; NaNs never replace m) and whether
          // a NaN was seen: cheaper than replaces() on SSE2.
          T m[kBlock];
          SameWidthInt<T> nan[kBlock];
          std::fill_n(m, len, -std::numeric_limits<T>::infinity());
          std::fill_n(nan, len, 0);
          forEachWindowPixel(s, x, img, rows, cols, e0, [&](const T *px) {
            for (int64_t e = 0; e < len; ++e) {
              m[e] = px[e] > m[e] ? px[e] : m[e];
              nan[e] |= px[e] != px[e];
            }
          });
          T *out = y + p * s.c + e0;
          for (int64_t e = 0; e < len; ++e)
            out[e] = nan[e] ? std::numeric_limits<T>::quiet_NaN() : m[e];
        });
  });
}

template <class T>
void max_pool2d_grad_grad(const Pool2DShape &s, const T *x, const T *g, T *y) {
  parallel_for(s.n * s.oh, rowCost(s), [&](int64_t r0, int64_t r1) {
    forEachPixelBlock(
        s, r0, r1,
        [&](int64_t p, int64_t img, Span rows, Span cols, int64_t e0,
            int64_t len) {
          T best[kBlock], picked[kBlock];
          std::fill_n(best, len, -std::numeric_limits<T>::infinity());
          // The first element is picked unless another replaces it.
          const T *first =
              g + ((img * s.h + rows.lo) * s.w + cols.lo) * s.c + e0;
          std::copy_n(first, len, picked);
          forEachWindowPixel(s, x, img, rows, cols, e0, [&](const T *px) {
            const T *gp = g + (px - x);
            for (int64_t e = 0; e < len; ++e) {
              bool take = replaces(px[e], best[e]);
              best[e] = take ? px[e] : best[e];
              picked[e] = take ? gp[e] : picked[e];
            }
          });
          std::copy_n(picked, len, y + p * s.c + e0);
        });
  });
}

template <class T> void avg_pool2d(const Pool2DShape &s, const T *x, T *y) {
  parallel_for(s.n * s.oh, rowCost(s), [&](int64_t r0, int64_t r1) {
    forEachPixelBlock(s, r0, r1,
                      [&](int64_t p, int64_t img, Span rows, Span cols,
                          int64_t e0, int64_t len) {
                        T sum[kBlock];
                        std::fill_n(sum, len, T(0));
                        forEachWindowPixel(s, x, img, rows, cols, e0,
                                           [&](const T *px) {
                                             for (int64_t e = 0; e < len; ++e)
                                               sum[e] += px[e];
                                           });
                        const T count = T(rows.size() * cols.size());
                        T *out = y + p * s.c + e0;
                        for (int64_t e = 0; e < len; ++e)
                          out[e] = sum[e] / count;
                      });
  });
}

template <class T>
void max_pool2d_grad(const Pool2DShape &s, const T *x, const T *dy, T *dx) {
  // Narrow indices halve the scratch traffic; a window of more than
  // INT32_MAX elements (clipped to the input) needs 64 bits.
  if (std::min(s.kh, s.h) * std::min(s.kw, s.w) <= INT32_MAX)
    maxPoolGrad<T, int32_t>(s, x, dy, dx);
  else
    maxPoolGrad<T, int64_t>(s, x, dy, dx);
}

template <class T>
void avg_pool2d_grad(const Pool2DShape &s, const T *dy, T *dx) {
  const int64_t c = s.c;
  gatherGrad(s, dx, [&](int64_t p, int64_t, Span rows, Span cols, T *d) {
    const T *g = dy + p * c;
    const T scale = T(1) / T(rows.size() * cols.size());
    for (int64_t e = 0; e < c; ++e)
      d[e] += g[e] * scale;
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
