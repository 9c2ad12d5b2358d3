//===- NNKernels.cpp - softmax, log_softmax, cross entropy, one_hot -------===//
//
// Softmax-family kernels subtract the maximum first (numerically stable for
// any finite input) and view the input as [outer, n, inner] around the axis.
//
//===----------------------------------------------------------------------===//

#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/ConvKernels.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/PoolKernels.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <type_traits>

using namespace tfc;
using namespace tfc::detail;

namespace {

template <class T>
using ArrMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using CArrMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Max with NaN propagation.
template <class T> inline T nanMax(T a, T b) {
  return (a > b || a != a) ? a : b;
}

/// Softmax (or log-softmax) of one contiguous row of n > 0 elements.
template <class T, bool Log> void softmaxRow(T *y, const T *x, int64_t n) {
  CArrMap<T> xin(x, n);
  ArrMap<T> out(y, n);
  T m = xin.template maxCoeff<Eigen::PropagateNaN>();
  if constexpr (Log) {
    out = xin - m;
    T lse = std::log(out.exp().sum());
    out -= lse;
  } else {
    out = (xin - m).exp();
    T s = out.sum();
    out /= s;
  }
}

/// Softmax (or log-softmax) along the middle axis of [outer, n, inner].
template <class T, bool Log>
void softmaxImpl(T *y, const T *x, int64_t outer, int64_t n, int64_t inner) {
  if (inner == 1) {
    parallel_for(outer, n * 12, [&](int64_t ob, int64_t oe) {
      for (int64_t o = ob; o < oe; ++o)
        softmaxRow<T, Log>(y + o * n, x + o * n, n);
    });
    return;
  }
  // Strided: keep per-column max and sum in small buffers, whole rows at a
  // time so the inner loops stay contiguous.
  parallel_for(outer, n * inner * 12, [&](int64_t ob, int64_t oe) {
    std::vector<T> mx(inner), sum(inner);
    for (int64_t o = ob; o < oe; ++o) {
      const T *src = x + o * n * inner;
      T *dst = y + o * n * inner;
      for (int64_t j = 0; j < inner; ++j)
        mx[j] = src[j];
      for (int64_t i = 1; i < n; ++i)
        for (int64_t j = 0; j < inner; ++j)
          mx[j] = nanMax(mx[j], src[i * inner + j]);
      std::fill(sum.begin(), sum.end(), T(0));
      for (int64_t i = 0; i < n; ++i) {
        ArrMap<T> row(dst + i * inner, inner);
        row =
            (CArrMap<T>(src + i * inner, inner) - CArrMap<T>(mx.data(), inner))
                .exp();
        ArrMap<T>(sum.data(), inner) += row;
      }
      for (int64_t i = 0; i < n; ++i) {
        if constexpr (Log) {
          ArrMap<T>(dst + i * inner, inner) =
              CArrMap<T>(src + i * inner, inner) -
              CArrMap<T>(mx.data(), inner) -
              CArrMap<T>(sum.data(), inner).log();
        } else {
          ArrMap<T>(dst + i * inner, inner) /= CArrMap<T>(sum.data(), inner);
        }
      }
    }
  });
}

template <bool Log>
Tensor softmaxKernel(std::string_view name, const Tensor &x, int64_t axis) {
  require_concrete(name, x);
  require_dtype(name, kMaskFloats, x.dtype());
  const auto &xs = x.shape();
  if (xs.empty())
    fail(name, "expected a tensor of rank >= 1, got shape () (", x.dtype(),
         ")");
  int64_t ax = normalize_axis(name, axis, xs);
  int64_t outer = 1, inner = 1, n = xs[ax];
  for (int64_t i = 0; i < ax; ++i)
    outer *= xs[i];
  for (size_t i = ax + 1; i < xs.size(); ++i)
    inner *= xs[i];
  Tensor out = make_tensor(x.dtype(), xs, x.numel());
  if (x.numel() == 0)
    return out;
  dispatch_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>)
      softmaxImpl<T, Log>(static_cast<T *>(out.unsafe_impl()->data),
                          static_cast<const T *>(x.unsafe_impl()->data), outer,
                          n, inner);
  });
  return out;
}

} // namespace

namespace tfc::kernels {

Tensor softmax(const Tensor &x, int64_t axis) {
  return softmaxKernel<false>("softmax", x, axis);
}

Tensor log_softmax(const Tensor &x, int64_t axis) {
  return softmaxKernel<true>("log_softmax", x, axis);
}

Tensor softmax_cross_entropy_with_logits(const Tensor &labels,
                                         const Tensor &logits) {
  constexpr std::string_view name = "softmax_cross_entropy_with_logits";
  require_concrete(name, labels);
  require_concrete(name, logits);
  if (labels.dtype() != logits.dtype())
    fail(name, "mixed dtypes ", labels.dtype(), " (labels) and ",
         logits.dtype(), " (logits)");
  require_dtype(name, kMaskFloats, logits.dtype());
  const auto &ls = logits.shape();
  if (labels.shape() != ls)
    fail(name, "labels shape ", labels.shape(), " and logits shape ", ls,
         " must be equal (", labels.dtype(), " vs ", logits.dtype(), ")");
  if (ls.empty())
    fail(name, "expected logits of rank >= 1, got shape () (", logits.dtype(),
         ")");
  std::vector<int64_t> outShape(ls.begin(), ls.end() - 1);
  int64_t rows = shape_numel(outShape), n = ls.back();
  Tensor out = make_tensor(logits.dtype(), outShape, rows);
  dispatch_dtype(logits.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      const T *lab = static_cast<const T *>(labels.unsafe_impl()->data);
      const T *lg = static_cast<const T *>(logits.unsafe_impl()->data);
      T *op = static_cast<T *>(out.unsafe_impl()->data);
      parallel_for(rows, n * 12 + 1, [&](int64_t rb, int64_t re) {
        for (int64_t r = rb; r < re; ++r) {
          if (n == 0) {
            op[r] = T(0);
            continue;
          }
          CArrMap<T> z(lg + r * n, n), y(lab + r * n, n);
          T m = z.template maxCoeff<Eigen::PropagateNaN>();
          T lse = m + std::log((z - m).exp().sum());
          // -sum(y * (z - lse)) = sum(y) * lse - sum(y * z)
          op[r] = (y * (lse - z)).sum();
        }
      });
    }
  });
  return out;
}

Tensor sparse_softmax_cross_entropy_with_logits(const Tensor &labels,
                                                const Tensor &logits) {
  constexpr std::string_view name = "sparse_softmax_cross_entropy_with_logits";
  require_concrete(name, labels);
  require_concrete(name, logits);
  require_dtype(name, kMaskInts, labels.dtype());
  require_dtype(name, kMaskFloats, logits.dtype());
  const auto &ls = logits.shape();
  if (ls.empty())
    fail(name, "expected logits of rank >= 1, got shape () (", logits.dtype(),
         ")");
  std::vector<int64_t> outShape(ls.begin(), ls.end() - 1);
  if (labels.shape() != outShape)
    fail(name, "labels shape ", labels.shape(), " must be logits shape ", ls,
         " without its last dim (", labels.dtype(), " labels, ", logits.dtype(),
         " logits)");
  int64_t rows = shape_numel(outShape), n = ls.back();
  // TensorFlow's CPU kernel rejects a label outside [0, classes).
  std::vector<int64_t> lab(static_cast<size_t>(rows));
  dispatch_dtype(labels.dtype(), [&](auto itag) {
    using I = decltype(itag);
    if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool>) {
      const I *ip = static_cast<const I *>(labels.unsafe_impl()->data);
      for (int64_t r = 0; r < rows; ++r) {
        lab[r] = static_cast<int64_t>(ip[r]);
        if (lab[r] < 0 || lab[r] >= n)
          fail(name, "labels[", r, "] = ", lab[r],
               " is outside the valid range of classes [0, ", n,
               ") (logits shape ", ls, ")");
      }
    }
  });
  Tensor out = make_tensor(logits.dtype(), outShape, rows);
  dispatch_dtype(logits.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      const T *lg = static_cast<const T *>(logits.unsafe_impl()->data);
      T *op = static_cast<T *>(out.unsafe_impl()->data);
      parallel_for(rows, n * 12 + 1, [&](int64_t rb, int64_t re) {
        for (int64_t r = rb; r < re; ++r) {
          CArrMap<T> z(lg + r * n, n);
          T m = z.template maxCoeff<Eigen::PropagateNaN>();
          T lse = m + std::log((z - m).exp().sum());
          op[r] = lse - z[lab[r]];
        }
      });
    }
  });
  return out;
}

Tensor one_hot(const Tensor &indices, int64_t depth, DType dtype) {
  constexpr std::string_view name = "one_hot";
  require_concrete(name, indices);
  require_dtype(name, kMaskInts, indices.dtype());
  if (depth < 0)
    fail(name, "depth must be >= 0, got ", depth);
  if (static_cast<unsigned>(dtype) > static_cast<unsigned>(DType::Float64))
    fail(name, "invalid dtype ", static_cast<int>(dtype));
  std::vector<int64_t> outShape = indices.shape();
  outShape.push_back(depth);
  int64_t total = checked_numel(name, outShape, dtype);
  Tensor out = make_tensor(dtype, outShape, total);
  if (total == 0)
    return out;
  int64_t n = indices.numel();
  dispatch_dtype(dtype, [&](auto tag) {
    using E = elem_t<decltype(tag)>;
    E *op = static_cast<E *>(out.unsafe_impl()->data);
    std::fill(op, op + total, E(0));
    dispatch_dtype(indices.dtype(), [&](auto itag) {
      using I = decltype(itag);
      if constexpr (std::is_integral_v<I> && !std::is_same_v<I, bool>) {
        const I *ip = static_cast<const I *>(indices.unsafe_impl()->data);
        for (int64_t i = 0; i < n; ++i) {
          int64_t v = static_cast<int64_t>(ip[i]);
          if (v >= 0 && v < depth) // Out of range: an all-zero row (as TF).
            op[i * depth + v] = E(1);
        }
      }
    });
  });
  return out;
}

// --- Convolution (the arithmetic is ConvKernels.cpp's) ----------------------

namespace {

/// Checks the operands of a conv op: concrete, one float dtype.
void requireConvOperands(std::string_view name, const Tensor &a,
                         const char *aName, const Tensor &b,
                         const char *bName) {
  require_concrete(name, a);
  require_concrete(name, b);
  require_dtype(name, kMaskFloats, a.dtype());
  if (a.dtype() != b.dtype())
    fail(name, "mixed dtypes ", a.dtype(), " (", aName, ") and ", b.dtype(),
         " (", bName, ")");
}

/// Checks that `dy` has the shape the convolution gives.
void requireDyShape(std::string_view name, const Conv2DShape &s,
                    const Tensor &dy) {
  std::vector<int64_t> want{s.n, s.oh, s.ow, s.o};
  if (dy.shape() != want)
    fail(name, "dy has shape ", dy.shape(),
         " but the convolution's result has shape ", want);
}

template <class F> void dispatchFloat(DType dtype, F &&f) {
  if (dtype == DType::Float32)
    f(float());
  else
    f(double());
}

} // namespace

Tensor conv2d(const Tensor &input, const Tensor &filter,
              std::array<int64_t, 2> strides, std::array<int64_t, 2> dilations,
              Padding padding) {
  constexpr std::string_view name = "conv2d";
  requireConvOperands(name, input, "input", filter, "filter");
  Conv2DShape s = conv2d_shape("conv2d", input.shape(), filter.shape(), strides,
                               dilations, padding == Padding::Same);
  std::vector<int64_t> outShape{s.n, s.oh, s.ow, s.o};
  int64_t total = checked_numel(name, outShape, input.dtype());
  Tensor out = make_tensor(input.dtype(), outShape, total);
  dispatchFloat(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    conv2d<T>(s, static_cast<const T *>(input.unsafe_impl()->data),
              static_cast<const T *>(filter.unsafe_impl()->data),
              static_cast<T *>(out.unsafe_impl()->data));
  });
  return out;
}

Tensor conv2d_backprop_input(const std::vector<int64_t> &inputShape,
                             const Tensor &filter, const Tensor &dy,
                             std::array<int64_t, 2> strides,
                             std::array<int64_t, 2> dilations,
                             Padding padding) {
  constexpr std::string_view name = "conv2d_backprop_input";
  requireConvOperands(name, filter, "filter", dy, "dy");
  Conv2DShape s =
      conv2d_shape("conv2d_backprop_input", inputShape, filter.shape(), strides,
                   dilations, padding == Padding::Same);
  requireDyShape(name, s, dy);
  int64_t total = checked_numel(name, inputShape, dy.dtype());
  Tensor out = make_tensor(dy.dtype(), inputShape, total);
  dispatchFloat(dy.dtype(), [&](auto tag) {
    using T = decltype(tag);
    conv2d_backprop_input<T>(s, static_cast<const T *>(dy.unsafe_impl()->data),
                             static_cast<const T *>(filter.unsafe_impl()->data),
                             static_cast<T *>(out.unsafe_impl()->data));
  });
  return out;
}

Tensor conv2d_backprop_filter(const Tensor &input,
                              const std::vector<int64_t> &filterShape,
                              const Tensor &dy, std::array<int64_t, 2> strides,
                              std::array<int64_t, 2> dilations,
                              Padding padding) {
  constexpr std::string_view name = "conv2d_backprop_filter";
  requireConvOperands(name, input, "input", dy, "dy");
  Conv2DShape s =
      conv2d_shape("conv2d_backprop_filter", input.shape(), filterShape,
                   strides, dilations, padding == Padding::Same);
  requireDyShape(name, s, dy);
  int64_t total = checked_numel(name, filterShape, dy.dtype());
  Tensor out = make_tensor(dy.dtype(), filterShape, total);
  dispatchFloat(dy.dtype(), [&](auto tag) {
    using T = decltype(tag);
    conv2d_backprop_filter<T>(s,
                              static_cast<const T *>(input.unsafe_impl()->data),
                              static_cast<const T *>(dy.unsafe_impl()->data),
                              static_cast<T *>(out.unsafe_impl()->data));
  });
  return out;
}

// --- Pooling (the arithmetic is PoolKernels.cpp's) --------------------------

namespace {

Pool2DShape poolShape(const char *op, const std::vector<int64_t> &input,
                      std::array<int64_t, 2> ksize,
                      std::array<int64_t, 2> strides, Padding padding) {
  return pool2d_shape(op, input, ksize, strides, padding == Padding::Same);
}

std::vector<int64_t> pooledShape(const Pool2DShape &s) {
  return {s.n, s.oh, s.ow, s.c};
}

/// `t` (a pooling operand) is concrete and float.
void requireFloat(std::string_view name, const Tensor &t) {
  require_concrete(name, t);
  require_dtype(name, kMaskFloats, t.dtype());
}

template <class T> const T *dataOf(const Tensor &t) {
  return static_cast<const T *>(t.unsafe_impl()->data);
}
template <class T> T *dataOf(Tensor &t) {
  return static_cast<T *>(t.unsafe_impl()->data);
}

/// `x` pooled by `run(shape, x, y)` into the pooling's result shape.
template <class Run>
Tensor pool(const char *name, const Tensor &x, std::array<int64_t, 2> ksize,
            std::array<int64_t, 2> strides, Padding padding, Run &&run) {
  requireFloat(name, x);
  Pool2DShape s = poolShape(name, x.shape(), ksize, strides, padding);
  std::vector<int64_t> shape = pooledShape(s);
  Tensor out =
      make_tensor(x.dtype(), shape, checked_numel(name, shape, x.dtype()));
  dispatchFloat(x.dtype(), [&](auto tag) { run(tag, s, out); });
  return out;
}

} // namespace

Tensor max_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                  std::array<int64_t, 2> strides, Padding padding) {
  return pool("max_pool2d", input, ksize, strides, padding,
              [&](auto tag, const Pool2DShape &s, Tensor &out) {
                using T = decltype(tag);
                kernels::max_pool2d<T>(s, dataOf<T>(input), dataOf<T>(out));
              });
}

Tensor avg_pool2d(const Tensor &input, std::array<int64_t, 2> ksize,
                  std::array<int64_t, 2> strides, Padding padding) {
  return pool("avg_pool2d", input, ksize, strides, padding,
              [&](auto tag, const Pool2DShape &s, Tensor &out) {
                using T = decltype(tag);
                kernels::avg_pool2d<T>(s, dataOf<T>(input), dataOf<T>(out));
              });
}

Tensor max_pool2d_grad(const Tensor &input, const Tensor &dy,
                       std::array<int64_t, 2> ksize,
                       std::array<int64_t, 2> strides, Padding padding) {
  constexpr const char *name = "max_pool2d_grad";
  requireConvOperands(name, input, "input", dy, "dy");
  Pool2DShape s = poolShape(name, input.shape(), ksize, strides, padding);
  if (dy.shape() != pooledShape(s))
    fail(name, "dy has shape ", dy.shape(),
         " but the pooling's result has "
         "shape ",
         pooledShape(s));
  Tensor out = make_tensor(input.dtype(), input.shape(),
                           checked_numel(name, input.shape(), input.dtype()));
  dispatchFloat(input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    kernels::max_pool2d_grad<T>(s, dataOf<T>(input), dataOf<T>(dy),
                                dataOf<T>(out));
  });
  return out;
}

Tensor max_pool2d_grad_grad(const Tensor &input, const Tensor &grad,
                            std::array<int64_t, 2> ksize,
                            std::array<int64_t, 2> strides, Padding padding) {
  constexpr const char *name = "max_pool2d_grad_grad";
  requireConvOperands(name, input, "input", grad, "grad");
  if (grad.shape() != input.shape())
    fail(name, "grad has shape ", grad.shape(), " but input has shape ",
         input.shape());
  return pool(name, input, ksize, strides, padding,
              [&](auto tag, const Pool2DShape &s, Tensor &out) {
                using T = decltype(tag);
                kernels::max_pool2d_grad_grad<T>(
                    s, dataOf<T>(input), dataOf<T>(grad), dataOf<T>(out));
              });
}

Tensor avg_pool2d_grad(const std::vector<int64_t> &inputShape, const Tensor &dy,
                       std::array<int64_t, 2> ksize,
                       std::array<int64_t, 2> strides, Padding padding) {
  constexpr const char *name = "avg_pool2d_grad";
  requireFloat(name, dy);
  Pool2DShape s = poolShape(name, inputShape, ksize, strides, padding);
  if (dy.shape() != pooledShape(s))
    fail(name, "dy has shape ", dy.shape(),
         " but the pooling's result has "
         "shape ",
         pooledShape(s));
  Tensor out = make_tensor(dy.dtype(), inputShape,
                           checked_numel(name, inputShape, dy.dtype()));
  dispatchFloat(dy.dtype(), [&](auto tag) {
    using T = decltype(tag);
    kernels::avg_pool2d_grad<T>(s, dataOf<T>(dy), dataOf<T>(out));
  });
  return out;
}

} // namespace tfc::kernels
