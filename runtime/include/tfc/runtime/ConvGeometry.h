//===- ConvGeometry.h - Windows of convolutions and pools -------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// TensorFlow's output size and padding of one spatial dim of a sliding
// window (conv2d, pooling): header-only, MLIR-free and exception-free, so the
// dialect's type inference, the tracer and the kernels agree by using the
// same arithmetic.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_CONVGEOMETRY_H
#define TFC_RUNTIME_CONVGEOMETRY_H

#include <cstdint>
#include <optional>

namespace tfc {
/// TensorFlow's padding of window ops (conv2d): VALID keeps every window
/// inside the input, SAME pads with zeros so that out = ceil(in / stride).
enum class Padding { Valid, Same };
} // namespace tfc

namespace tfc::kernels {

/// One spatial dim of a window op: its output size and the padding before
/// the first element (the padding after is what the output size implies).
struct WindowDim {
  int64_t out = 0;
  int64_t padBefore = 0;
};

/// A window of `k` taps `dilation` apart moved by `stride` over `in`
/// elements. VALID: every window inside the input, out = (in - span) /
/// stride + 1 with span = (k - 1) * dilation + 1. SAME: out = ceil(in /
/// stride), padded with max(0, (out - 1) * stride + span - in) elements,
/// the smaller half first (TensorFlow's rule). Empty when `in`, `k`,
/// `stride` or `dilation` is below 1, the span overflows, or a VALID window
/// is longer than the input.
inline std::optional<WindowDim>
window_dim(int64_t in, int64_t k, int64_t stride, int64_t dilation, bool same) {
  if (in < 1 || k < 1 || stride < 1 || dilation < 1)
    return std::nullopt;
  int64_t span;
  if (__builtin_mul_overflow(k - 1, dilation, &span) ||
      __builtin_add_overflow(span, 1, &span))
    return std::nullopt;
  WindowDim d;
  if (same) {
    d.out = in / stride + (in % stride != 0);
    // (out - 1) * stride <= in - 1 + stride - 1: no overflow for sane `in`.
    __int128 total = __int128(d.out - 1) * stride + span - in;
    d.padBefore = total > 0 ? int64_t(total / 2) : 0;
    return d;
  }
  if (span > in)
    return std::nullopt;
  d.out = (in - span) / stride + 1;
  return d;
}

} // namespace tfc::kernels

#endif // TFC_RUNTIME_CONVGEOMETRY_H
