//===- CompiledCalls.cpp - Library calls made by JIT-compiled code --------===//
//
// `tfc-linalg-to-blas` turns large float matmuls and convolutions into calls
// of these functions (as XLA's CPU backend calls Eigen). They take MLIR memref
// descriptors (`llvm.emit_c_interface`), so any strided 2-d view works:
// rows with unit inner stride go straight to the GEMM (Blas.h), transposed
// views as transposed operands, anything else through a packed copy.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/CompiledCalls.h"
#include "Blas.h"
#include "tfc/runtime/ConvKernels.h"
#include "tfc/runtime/GatherKernels.h"
#include "tfc/runtime/PoolKernels.h"
#include "tfc/runtime/RandomKernels.h"
#include "tfc/runtime/ScanKernels.h"

#include <cblas.h>

#include <cstdint>
#include <vector>

namespace {
template <typename T> struct Memref2D {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
  T *data() const { return aligned + offset; }
};

/// A BLAS view of `m`: pointer, leading dim and whether it is transposed.
template <typename T> struct View {
  const T *data;
  int ld;
  CBLAS_TRANSPOSE trans;
};

template <typename T>
View<T> blasView(const Memref2D<T> &m, std::vector<T> &scratch) {
  int64_t rows = m.sizes[0], cols = m.sizes[1];
  if (m.strides[1] == 1 && m.strides[0] >= std::max<int64_t>(cols, 1))
    return {m.data(), int(std::max<int64_t>(m.strides[0], 1)), CblasNoTrans};
  if (m.strides[0] == 1 && m.strides[1] >= std::max<int64_t>(rows, 1))
    return {m.data(), int(std::max<int64_t>(m.strides[1], 1)), CblasTrans};
  scratch.resize(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      scratch[i * cols + j] = m.data()[i * m.strides[0] + j * m.strides[1]];
  return {scratch.data(), int(std::max<int64_t>(cols, 1)), CblasNoTrans};
}

/// C = A B + beta C; C must have unit inner stride (compiled code allocates
/// it), which the pass guarantees.
template <typename T>
void gemm(Memref2D<T> *a, Memref2D<T> *b, Memref2D<T> *c, T beta) {
  int64_t m = c->sizes[0], n = c->sizes[1], k = a->sizes[1];
  if (m == 0 || n == 0)
    return;
  T *cd = c->data();
  int ldc = int(std::max<int64_t>(c->strides[0], 1));
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        cd[i * ldc + j] *= beta;
    return;
  }
  std::vector<T> sa, sb;
  View<T> va = blasView(*a, sa), vb = blasView(*b, sb);
  if (m == 1) {
    // A row vector times a matrix: gemv (y = B^T x), which OpenBLAS runs
    // several times faster than a one-row gemm.
    int64_t incx = va.trans == CblasNoTrans ? 1 : va.ld;
    CBLAS_TRANSPOSE t = vb.trans == CblasNoTrans ? CblasTrans : CblasNoTrans;
    if constexpr (sizeof(T) == 4)
      cblas_sgemv(CblasRowMajor, t, vb.trans == CblasNoTrans ? int(k) : int(n),
                  vb.trans == CblasNoTrans ? int(n) : int(k), 1.0f, vb.data,
                  vb.ld, va.data, int(incx), beta, cd, 1);
    else
      cblas_dgemv(CblasRowMajor, t, vb.trans == CblasNoTrans ? int(k) : int(n),
                  vb.trans == CblasNoTrans ? int(n) : int(k), 1.0, vb.data,
                  vb.ld, va.data, int(incx), beta, cd, 1);
    return;
  }
  tfc::detail::gemm(va.trans == CblasTrans, vb.trans == CblasTrans, m, n, k,
                    va.data, va.ld, vb.data, vb.ld, beta, cd, ldc);
}
} // namespace

void _mlir_ciface_tfc_rt_gemm_f32(void *a, void *b, void *c, float beta) {
  gemm(static_cast<Memref2D<float> *>(a), static_cast<Memref2D<float> *>(b),
       static_cast<Memref2D<float> *>(c), beta);
}
void _mlir_ciface_tfc_rt_gemm_f64(void *a, void *b, void *c, double beta) {
  gemm(static_cast<Memref2D<double> *>(a), static_cast<Memref2D<double> *>(b),
       static_cast<Memref2D<double> *>(c), beta);
}

namespace {
template <typename T> struct Memref4D {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[4];
  int64_t strides[4];
  T *data() const { return aligned + offset; }
};

/// `m`'s elements in row-major order: the buffer itself when it is
/// contiguous, else a packed copy in `scratch`.
template <typename T>
const T *contiguous(const Memref4D<T> &m, std::vector<T> &scratch) {
  int64_t expect = 1;
  bool dense = true;
  for (int d = 3; d >= 0; --d) {
    if (m.sizes[d] != 1 && m.strides[d] != expect)
      dense = false;
    expect *= m.sizes[d];
  }
  if (dense)
    return m.data();
  scratch.resize(static_cast<size_t>(expect));
  T *out = scratch.data();
  for (int64_t a = 0; a < m.sizes[0]; ++a)
    for (int64_t b = 0; b < m.sizes[1]; ++b)
      for (int64_t c = 0; c < m.sizes[2]; ++c)
        for (int64_t d = 0; d < m.sizes[3]; ++d)
          *out++ = m.data()[a * m.strides[0] + b * m.strides[1] +
                            c * m.strides[2] + d * m.strides[3]];
  return scratch.data();
}

/// The geometry of a convolution of the padded `input` (no padding left)
/// by a filter of `filter`'s sizes into `output`.
template <typename T>
tfc::kernels::Conv2DShape shapeOf(const Memref4D<T> &input,
                                  const int64_t filter[4],
                                  const Memref4D<T> &output, int64_t sh,
                                  int64_t sw, int64_t dh, int64_t dw) {
  tfc::kernels::Conv2DShape s;
  s.n = input.sizes[0];
  s.h = input.sizes[1];
  s.w = input.sizes[2];
  s.c = input.sizes[3];
  s.kh = filter[0];
  s.kw = filter[1];
  s.o = filter[3];
  s.oh = output.sizes[1];
  s.ow = output.sizes[2];
  s.strideH = sh;
  s.strideW = sw;
  s.dilationH = dh;
  s.dilationW = dw;
  return s;
}

template <typename T>
void conv2d(void *in, void *f, void *out, int64_t sh, int64_t sw, int64_t dh,
            int64_t dw) {
  auto &x = *static_cast<Memref4D<T> *>(in);
  auto &w = *static_cast<Memref4D<T> *>(f);
  auto &y = *static_cast<Memref4D<T> *>(out);
  std::vector<T> sx, sf;
  tfc::kernels::conv2d<T>(shapeOf(x, w.sizes, y, sh, sw, dh, dw),
                          contiguous(x, sx), contiguous(w, sf), y.data());
}

template <typename T>
void conv2dBackpropFilter(void *in, void *dyp, void *out, int64_t sh,
                          int64_t sw, int64_t dh, int64_t dw) {
  auto &x = *static_cast<Memref4D<T> *>(in);
  auto &dy = *static_cast<Memref4D<T> *>(dyp);
  auto &df = *static_cast<Memref4D<T> *>(out);
  std::vector<T> sx, sdy;
  tfc::kernels::conv2d_backprop_filter<T>(
      shapeOf(x, df.sizes, dy, sh, sw, dh, dw), contiguous(x, sx),
      contiguous(dy, sdy), df.data());
}
} // namespace

void _mlir_ciface_tfc_rt_conv2d_f32(void *input, void *filter, void *output,
                                    int64_t sh, int64_t sw, int64_t dh,
                                    int64_t dw) {
  conv2d<float>(input, filter, output, sh, sw, dh, dw);
}
void _mlir_ciface_tfc_rt_conv2d_f64(void *input, void *filter, void *output,
                                    int64_t sh, int64_t sw, int64_t dh,
                                    int64_t dw) {
  conv2d<double>(input, filter, output, sh, sw, dh, dw);
}
void _mlir_ciface_tfc_rt_conv2d_backprop_filter_f32(void *input, void *dy,
                                                    void *filter, int64_t sh,
                                                    int64_t sw, int64_t dh,
                                                    int64_t dw) {
  conv2dBackpropFilter<float>(input, dy, filter, sh, sw, dh, dw);
}
void _mlir_ciface_tfc_rt_conv2d_backprop_filter_f64(void *input, void *dy,
                                                    void *filter, int64_t sh,
                                                    int64_t sw, int64_t dh,
                                                    int64_t dw) {
  conv2dBackpropFilter<double>(input, dy, filter, sh, sw, dh, dw);
}

namespace {
/// The geometry of a pooling of `image` (NHWC) into `pooled`.
template <typename T>
tfc::kernels::Pool2DShape
poolShape(const Memref4D<T> &image, const Memref4D<T> &pooled, int64_t kh,
          int64_t kw, int64_t sh, int64_t sw, int64_t pt, int64_t pl) {
  tfc::kernels::Pool2DShape s;
  s.n = image.sizes[0];
  s.h = image.sizes[1];
  s.w = image.sizes[2];
  s.c = image.sizes[3];
  s.kh = kh;
  s.kw = kw;
  s.oh = pooled.sizes[1];
  s.ow = pooled.sizes[2];
  s.strideH = sh;
  s.strideW = sw;
  s.padTop = pt;
  s.padLeft = pl;
  return s;
}

template <typename T> Memref4D<T> &view(void *p) {
  return *static_cast<Memref4D<T> *>(p);
}
} // namespace

#define TFC_POOL_ENTRIES(T, SUFFIX)                                            \
  void _mlir_ciface_tfc_rt_max_pool2d_##SUFFIX(                                \
      void *x, void *y, int64_t kh, int64_t kw, int64_t sh, int64_t sw,        \
      int64_t pt, int64_t pl) {                                                \
    std::vector<T> sx;                                                         \
    tfc::kernels::max_pool2d<T>(                                               \
        poolShape(view<T>(x), view<T>(y), kh, kw, sh, sw, pt, pl),             \
        contiguous(view<T>(x), sx), view<T>(y).data());                        \
  }                                                                            \
  void _mlir_ciface_tfc_rt_avg_pool2d_##SUFFIX(                                \
      void *x, void *y, int64_t kh, int64_t kw, int64_t sh, int64_t sw,        \
      int64_t pt, int64_t pl) {                                                \
    std::vector<T> sx;                                                         \
    tfc::kernels::avg_pool2d<T>(                                               \
        poolShape(view<T>(x), view<T>(y), kh, kw, sh, sw, pt, pl),             \
        contiguous(view<T>(x), sx), view<T>(y).data());                        \
  }                                                                            \
  void _mlir_ciface_tfc_rt_max_pool2d_grad_##SUFFIX(                           \
      void *x, void *dy, void *dx, int64_t kh, int64_t kw, int64_t sh,         \
      int64_t sw, int64_t pt, int64_t pl) {                                    \
    std::vector<T> sx, sdy;                                                    \
    tfc::kernels::max_pool2d_grad<T>(                                          \
        poolShape(view<T>(x), view<T>(dy), kh, kw, sh, sw, pt, pl),            \
        contiguous(view<T>(x), sx), contiguous(view<T>(dy), sdy),              \
        view<T>(dx).data());                                                   \
  }                                                                            \
  void _mlir_ciface_tfc_rt_max_pool2d_grad_grad_##SUFFIX(                      \
      void *x, void *g, void *y, int64_t kh, int64_t kw, int64_t sh,           \
      int64_t sw, int64_t pt, int64_t pl) {                                    \
    std::vector<T> sx, sg;                                                     \
    tfc::kernels::max_pool2d_grad_grad<T>(                                     \
        poolShape(view<T>(x), view<T>(y), kh, kw, sh, sw, pt, pl),             \
        contiguous(view<T>(x), sx), contiguous(view<T>(g), sg),                \
        view<T>(y).data());                                                    \
  }                                                                            \
  void _mlir_ciface_tfc_rt_avg_pool2d_grad_##SUFFIX(                           \
      void *dy, void *dx, int64_t kh, int64_t kw, int64_t sh, int64_t sw,      \
      int64_t pt, int64_t pl) {                                                \
    std::vector<T> sdy;                                                        \
    tfc::kernels::avg_pool2d_grad<T>(                                          \
        poolShape(view<T>(dx), view<T>(dy), kh, kw, sh, sw, pt, pl),           \
        contiguous(view<T>(dy), sdy), view<T>(dx).data());                     \
  }
TFC_POOL_ENTRIES(float, f32)
TFC_POOL_ENTRIES(double, f64)
#undef TFC_POOL_ENTRIES

namespace {
/// A 1-d memref descriptor: the library calls below take flat views.
template <typename T> struct Memref1D {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[1];
  int64_t strides[1];
};
} // namespace

#define TFC_DEFINE_SEGMENT_SUM(T, I, SUFFIX)                                   \
  void _mlir_ciface_tfc_rt_unsorted_segment_sum_##SUFFIX(                      \
      void *ids, void *data, void *out, int64_t n, int64_t inner) {            \
    auto &vi = *static_cast<Memref1D<I> *>(ids);                               \
    auto &vd = *static_cast<Memref1D<T> *>(data);                              \
    auto &vo = *static_cast<Memref1D<T> *>(out);                               \
    tfc::kernels::unsorted_segment_sum<T, I>(                                  \
        vd.aligned + vd.offset, vi.aligned + vi.offset,                        \
        vo.aligned + vo.offset, vi.sizes[0], inner, n);                        \
  }
TFC_SEGMENT_SUM_ENTRIES(TFC_DEFINE_SEGMENT_SUM)
#undef TFC_DEFINE_SEGMENT_SUM

#define TFC_DEFINE_GATHER(T, I, SUFFIX)                                        \
  void _mlir_ciface_tfc_rt_gather_##SUFFIX(void *params, void *ids, void *out, \
                                           int64_t outer, int64_t n,           \
                                           int64_t inner) {                    \
    auto &vp = *static_cast<Memref1D<T> *>(params);                            \
    auto &vi = *static_cast<Memref1D<I> *>(ids);                               \
    auto &vo = *static_cast<Memref1D<T> *>(out);                               \
    tfc::kernels::gather<T, I>(vp.aligned + vp.offset, vi.aligned + vi.offset, \
                               vo.aligned + vo.offset, outer, n, vi.sizes[0],  \
                               inner);                                         \
  }
TFC_GATHER_ENTRIES(TFC_DEFINE_GATHER)
#undef TFC_DEFINE_GATHER

#define TFC_DEFINE_SCAN(T, SUFFIX)                                             \
  void _mlir_ciface_tfc_rt_cumsum_##SUFFIX(                                    \
      void *x, void *out, int64_t outer, int64_t n, int64_t inner,             \
      int64_t exclusive, int64_t reverse) {                                    \
    auto &vx = *static_cast<Memref1D<T> *>(x);                                 \
    auto &vo = *static_cast<Memref1D<T> *>(out);                               \
    tfc::kernels::cumsum<T>(vx.aligned + vx.offset, vo.aligned + vo.offset,    \
                            outer, n, inner, exclusive != 0, reverse != 0);    \
  }                                                                            \
  void _mlir_ciface_tfc_rt_top_k_indices_##SUFFIX(                             \
      void *x, void *out, int64_t rows, int64_t n, int64_t k) {                \
    auto &vx = *static_cast<Memref1D<T> *>(x);                                 \
    auto &vo = *static_cast<Memref1D<int32_t> *>(out);                         \
    tfc::kernels::top_k_indices<T>(vx.aligned + vx.offset,                     \
                                   vo.aligned + vo.offset, rows, n, k);        \
  }
TFC_SCAN_ENTRIES(TFC_DEFINE_SCAN)
#undef TFC_DEFINE_SCAN

namespace {
template <typename T> void philoxCall(void *state, void *out, int64_t dist) {
  auto &s = *static_cast<Memref1D<int64_t> *>(state);
  auto &o = *static_cast<Memref1D<T> *>(out);
  const int64_t *sp = s.aligned + s.offset;
  uint64_t key = static_cast<uint64_t>(sp[0]),
           counter = static_cast<uint64_t>(sp[s.strides[0]]);
  T *op = o.aligned + o.offset;
  if (o.strides[0] == 1 || o.sizes[0] <= 1) {
    tfc::kernels::philox_fill<T>(
        static_cast<tfc::kernels::RandomDistribution>(dist), key, counter, op,
        o.sizes[0]);
    return;
  }
  std::vector<T> tmp(static_cast<size_t>(o.sizes[0]));
  tfc::kernels::philox_fill<T>(
      static_cast<tfc::kernels::RandomDistribution>(dist), key, counter,
      tmp.data(), o.sizes[0]);
  for (int64_t i = 0; i < o.sizes[0]; ++i)
    op[i * o.strides[0]] = tmp[static_cast<size_t>(i)];
}
} // namespace

void _mlir_ciface_tfc_rt_philox_random_f32(void *state, void *out,
                                           int64_t dist) {
  philoxCall<float>(state, out, dist);
}
void _mlir_ciface_tfc_rt_philox_random_f64(void *state, void *out,
                                           int64_t dist) {
  philoxCall<double>(state, out, dist);
}
