//===- ConvKernels.h - 2-D convolution on raw buffers -----------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The convolution kernels behind tfc::conv2d and its two gradients, on raw
// row-major buffers: the eager ops (Tensor kernels) and compiled code (the
// tfc_rt_conv2d* library calls the CPU pipeline emits) both run these, so
// the arithmetic lives once. Layouts are TensorFlow's: input and output NHWC,
// filter HWIO (kh, kw, in channels, out channels).
//
// float32 runs oneDNN's convolution primitives where Debian's libdnnl-dev
// was found at configure time (TFC_HAVE_DNNL; the filter reordered to
// oneDNN's blocked layout per call, NHWC buffers used in place), except the
// input gradient with fewer than 8 input channels, where oneDNN pads the
// channels to 16; float64 (which oneDNN lacks) and those cases pack the
// operand into a column matrix (im2col) and run one OpenBLAS GEMM per chunk.
// See docs/performance.md, section 13, for the measured choice.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_CONVKERNELS_H
#define TFC_RUNTIME_CONVKERNELS_H

#include <array>
#include <cstdint>
#include <vector>

// Internal to libtfc.so (not installed, not exported): the public way in is
// tfc::conv2d (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::kernels {

/// The geometry of one conv2d: every size the kernels need, padding made
/// explicit (bottom/right padding is what the output size implies).
struct Conv2DShape {
  int64_t n = 0, h = 0, w = 0, c = 0; ///< Input (NHWC).
  int64_t kh = 0, kw = 0, o = 0;      ///< Filter (kh, kw, c, o).
  int64_t oh = 0, ow = 0;             ///< Output (n, oh, ow, o).
  int64_t strideH = 1, strideW = 1;
  int64_t dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0;
};

/// The geometry of conv2d(input, filter) with TensorFlow's padding rules:
/// VALID: oh = ceil((h - (kh - 1) * dilationH) / strideH); SAME: oh =
/// ceil(h / strideH), padTop = max(0, (oh - 1) * strideH + (kh - 1) *
/// dilationH + 1 - h) / 2 (the odd pixel goes to the bottom). Throws
/// InvalidArgumentError naming `op` and the shapes for ranks other than 4,
/// mismatched channels, non-positive strides or dilations, or a VALID
/// window larger than the input.
Conv2DShape conv2d_shape(const char *op, const std::vector<int64_t> &input,
                         const std::vector<int64_t> &filter,
                         std::array<int64_t, 2> strides,
                         std::array<int64_t, 2> dilations, bool same);

/// y[n, i, j, o] = sum_{a, b, c} x[n, i*sH + a*dH - padTop,
///                                 j*sW + b*dW - padLeft, c] * f[a, b, c, o]
/// (out-of-range input reads as 0). `y` has n*oh*ow*o elements.
template <class T>
void conv2d(const Conv2DShape &s, const T *x, const T *f, T *y);
/// The gradient with respect to the input: dx (n*h*w*c elements) from dy
/// (n*oh*ow*o) and the filter; every element of dx is written.
template <class T>
void conv2d_backprop_input(const Conv2DShape &s, const T *dy, const T *f,
                           T *dx);
/// The gradient with respect to the filter: df (kh*kw*c*o elements) from
/// the input and dy; every element of df is written.
template <class T>
void conv2d_backprop_filter(const Conv2DShape &s, const T *x, const T *dy,
                            T *df);

extern template void conv2d<float>(const Conv2DShape &, const float *,
                                   const float *, float *);
extern template void conv2d<double>(const Conv2DShape &, const double *,
                                    const double *, double *);
extern template void conv2d_backprop_input<float>(const Conv2DShape &,
                                                  const float *, const float *,
                                                  float *);
extern template void conv2d_backprop_input<double>(const Conv2DShape &,
                                                   const double *,
                                                   const double *, double *);
extern template void conv2d_backprop_filter<float>(const Conv2DShape &,
                                                   const float *, const float *,
                                                   float *);
extern template void conv2d_backprop_filter<double>(const Conv2DShape &,
                                                    const double *,
                                                    const double *, double *);

} // namespace tfc::kernels
#pragma GCC visibility pop

#endif // TFC_RUNTIME_CONVKERNELS_H
