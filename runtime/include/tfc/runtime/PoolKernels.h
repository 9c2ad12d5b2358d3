//===- PoolKernels.h - 2-D pooling on raw buffers ---------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The pooling kernels behind tfc::max_pool2d / avg_pool2d and their
// gradients, on raw row-major NHWC buffers: the eager ops and compiled code
// (library calls of the CPU pipeline) both run these. Semantics are
// TensorFlow's (tf.nn.max_pool2d / avg_pool2d): a window of kh x kw moved by
// the strides; SAME padding never contributes (max ignores it, the average
// divides by the number of input elements inside the window).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_POOLKERNELS_H
#define TFC_RUNTIME_POOLKERNELS_H

#include <array>
#include <cstdint>
#include <vector>

// Internal to libtfc.so (not installed, not exported): the public way in is
// tfc::max_pool2d / avg_pool2d (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::kernels {

/// The geometry of one pooling op: padding made explicit (the padding after
/// is what the output size implies).
struct Pool2DShape {
  int64_t n = 0, h = 0, w = 0, c = 0; ///< Input (NHWC).
  int64_t kh = 1, kw = 1;             ///< Window.
  int64_t oh = 0, ow = 0;             ///< Output (n, oh, ow, c).
  int64_t strideH = 1, strideW = 1;
  int64_t padTop = 0, padLeft = 0;
};

/// The geometry of a pool of `ksize` moved by `strides` over `input`
/// (tfc::kernels::window_dim, dilation 1). Throws InvalidArgumentError
/// naming `op` and the shapes for a rank other than 4, a window or stride
/// below 1, or a VALID window larger than the input.
Pool2DShape pool2d_shape(const char *op, const std::vector<int64_t> &input,
                         std::array<int64_t, 2> ksize,
                         std::array<int64_t, 2> strides, bool same);

/// y[n, i, j, c] = max of x over the window (NaN if any element is NaN).
template <class T> void max_pool2d(const Pool2DShape &s, const T *x, T *y);
/// dx: each dy goes to the first maximum of its window (row-major order
/// within the window; the first NaN if any), summed where windows overlap;
/// every element of dx is written.
template <class T>
void max_pool2d_grad(const Pool2DShape &s, const T *x, const T *dy, T *dx);
/// y[n, i, j, c] = g at the first maximum of x's window (i, j): the adjoint
/// of max_pool2d_grad in dy. `y` has n*oh*ow*c elements.
template <class T>
void max_pool2d_grad_grad(const Pool2DShape &s, const T *x, const T *g, T *y);
/// y = the mean of the window's elements inside the input.
template <class T> void avg_pool2d(const Pool2DShape &s, const T *x, T *y);
/// dx: each dy divided by its window's element count, spread over the
/// window's elements inside the input; every element of dx is written.
template <class T>
void avg_pool2d_grad(const Pool2DShape &s, const T *dy, T *dx);

extern template void max_pool2d<float>(const Pool2DShape &, const float *,
                                       float *);
extern template void max_pool2d<double>(const Pool2DShape &, const double *,
                                        double *);
extern template void max_pool2d_grad<float>(const Pool2DShape &, const float *,
                                            const float *, float *);
extern template void max_pool2d_grad<double>(const Pool2DShape &,
                                             const double *, const double *,
                                             double *);
extern template void max_pool2d_grad_grad<float>(const Pool2DShape &,
                                                 const float *, const float *,
                                                 float *);
extern template void max_pool2d_grad_grad<double>(const Pool2DShape &,
                                                  const double *,
                                                  const double *, double *);
extern template void avg_pool2d<float>(const Pool2DShape &, const float *,
                                       float *);
extern template void avg_pool2d<double>(const Pool2DShape &, const double *,
                                        double *);
extern template void avg_pool2d_grad<float>(const Pool2DShape &, const float *,
                                            float *);
extern template void avg_pool2d_grad<double>(const Pool2DShape &,
                                             const double *, double *);

} // namespace tfc::kernels
#pragma GCC visibility pop

#endif // TFC_RUNTIME_POOLKERNELS_H
