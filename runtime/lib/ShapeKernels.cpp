//===- ShapeKernels.cpp - broadcast_to, reshape, transpose, ... -----------===//
//
// Views where the result is a dense row-major slice of the input (reshape,
// expand_dims, squeeze, contiguous slices); copies otherwise. Copies move
// whole elements of 1, 4 or 8 bytes, whatever the dtype.
//
//===----------------------------------------------------------------------===//

#include "Broadcast.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <algorithm>
#include <cstring>

using namespace tfc;
using namespace tfc::detail;

namespace {

/// Calls f(W{}) with W an unsigned type as wide as one element of `t`.
template <class F> void dispatch_width(DType t, F &&f) {
  switch (dtype_size(t)) {
  case 1:
    f(uint8_t{});
    return;
  case 4:
    f(uint32_t{});
    return;
  default:
    f(uint64_t{});
    return;
  }
}

void checkShapeArg(std::string_view op, const std::vector<int64_t> &shape) {
  for (int64_t d : shape)
    if (d < 0)
      fail(op, "invalid target shape ", shape, ": dimensions must be >= 0");
}

/// Copies the strided view (dims, input strides in elements, starting at
/// `src`) of a tensor into dense row-major `dst`.
template <class W>
void stridedCopy(W *dst, const W *src, const SmallVec<int64_t> &dims,
                 const SmallVec<int64_t> &strides) {
  size_t m = dims.size();
  int64_t total = 1;
  for (size_t i = 0; i < m; ++i)
    total *= dims[i];
  if (total == 0)
    return;
  if (m == 0) {
    *dst = *src;
    return;
  }
  int64_t inner = dims[m - 1], sIn = strides[m - 1];
  int64_t outer = total / inner;
  auto rows = [&](int64_t ob, int64_t oe) {
    SmallVec<int64_t> idx(m - 1, 0);
    int64_t off = 0, rem = ob;
    for (size_t d = m - 1; d-- > 0;) {
      idx[d] = rem % dims[d];
      rem /= dims[d];
      off += idx[d] * strides[d];
    }
    for (int64_t o = ob; o < oe; ++o) {
      W *out = dst + o * inner;
      const W *in = src + off;
      if (sIn == 1)
        std::memcpy(out, in, inner * sizeof(W));
      else
        for (int64_t i = 0; i < inner; ++i)
          out[i] = in[i * sIn];
      for (size_t d = m - 1; d-- > 0;) {
        off += strides[d];
        if (++idx[d] < dims[d])
          break;
        off -= strides[d] * dims[d];
        idx[d] = 0;
      }
    }
  };
  parallel_for(outer, inner, rows);
}

/// out[i][j] = in[j][i] for an R x C block, in cache-sized tiles.
template <class W>
void transpose2d(W *out, const W *in, int64_t rows, int64_t cols,
                 int64_t inStride, int64_t outStride) {
  constexpr int64_t kTile = 32;
  for (int64_t i0 = 0; i0 < rows; i0 += kTile)
    for (int64_t j0 = 0; j0 < cols; j0 += kTile) {
      int64_t i1 = std::min(rows, i0 + kTile), j1 = std::min(cols, j0 + kTile);
      for (int64_t i = i0; i < i1; ++i)
        for (int64_t j = j0; j < j1; ++j)
          out[i * outStride + j] = in[j * inStride + i];
    }
}

} // namespace

namespace tfc::kernels {

Tensor broadcast_to(const Tensor &x, const std::vector<int64_t> &shape) {
  constexpr std::string_view name = "broadcast_to";
  require_concrete(name, x);
  checkShapeArg(name, shape);
  const auto &xs = x.shape();
  bool ok = xs.size() <= shape.size();
  for (size_t i = 0; ok && i < xs.size(); ++i) {
    int64_t d = xs[xs.size() - 1 - i], t = shape[shape.size() - 1 - i];
    ok = d == t || d == 1;
  }
  if (!ok)
    fail(name, "cannot broadcast tensor of shape ", xs, " (", x.dtype(),
         ") to shape ", shape);
  int64_t n = checked_numel(name, shape, x.dtype());
  if (xs == shape)
    return alias(x, shape);
  Tensor out = make_tensor(x.dtype(), shape, n);
  if (n == 0)
    return out;
  BroadcastPlan<1> plan;
  const std::vector<int64_t> *ins[1] = {&xs};
  plan.build(shape.data(), shape.size(), ins);
  int64_t s = plan.innerStride(0);
  dispatch_width(x.dtype(), [&](auto w) {
    using W = decltype(w);
    const W *src = static_cast<const W *>(x.unsafe_impl()->data);
    W *dst = static_cast<W *>(out.unsafe_impl()->data);
    plan.forEachRun(1, [&](int64_t oo, const int64_t *off, int64_t len) {
      if (s)
        std::memcpy(dst + oo, src + off[0], len * sizeof(W));
      else
        std::fill(dst + oo, dst + oo + len, src[off[0]]);
    });
  });
  return out;
}

Tensor reshape(const Tensor &x, const std::vector<int64_t> &shape) {
  constexpr std::string_view name = "reshape";
  require_concrete(name, x);
  int64_t known = 1;
  int inferred = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (inferred >= 0)
        fail(name, "only one dimension can be -1, got shape ", shape);
      inferred = static_cast<int>(i);
    } else if (shape[i] < 0) {
      fail(name, "invalid target shape ", shape,
           ": dimensions must be >= 0 or -1");
    } else if (__builtin_mul_overflow(known, shape[i], &known)) {
      fail(name, "cannot reshape tensor of shape ", x.shape(), " (", x.numel(),
           " elements) into shape ", shape);
    }
  }
  int64_t n = x.numel();
  if (inferred < 0) {
    if (known != n)
      fail(name, "cannot reshape tensor of shape ", x.shape(), " (", n,
           " elements) into shape ", shape);
    return alias(x, shape);
  }
  if (known == 0 || n % known != 0)
    fail(name, "cannot reshape tensor of shape ", x.shape(), " (", n,
         " elements) into shape ", shape);
  SmallVec<int64_t> dims(shape.size());
  for (size_t i = 0; i < shape.size(); ++i)
    dims[i] = shape[i];
  dims[inferred] = n / known;
  return alias(x, dims.data(), dims.size());
}

Tensor transpose(const Tensor &x, const std::vector<int64_t> &perm) {
  constexpr std::string_view name = "transpose";
  require_concrete(name, x);
  const auto &xs = x.shape();
  size_t r = xs.size();
  SmallVec<int64_t> p(r);
  if (perm.empty()) {
    for (size_t i = 0; i < r; ++i)
      p[i] = static_cast<int64_t>(r - 1 - i);
  } else {
    if (perm.size() != r)
      fail(name, "perm ", perm, " has ", perm.size(),
           " entries but the tensor of shape ", xs, " has rank ", r);
    SmallVec<int64_t> seen(r, 0);
    for (size_t i = 0; i < r; ++i) {
      int64_t v = perm[i];
      if (v < 0)
        v += static_cast<int64_t>(r);
      if (v < 0 || v >= static_cast<int64_t>(r) || seen[v]++)
        fail(name, "perm ", perm, " is not a permutation of the ", r,
             " dims of shape ", xs);
      p[i] = v;
    }
  }
  std::vector<int64_t> outShape(r);
  bool identity = true;
  for (size_t i = 0; i < r; ++i) {
    outShape[i] = xs[p[i]];
    identity &= p[i] == static_cast<int64_t>(i);
  }
  if (identity)
    return alias(x, outShape);
  Tensor out = make_tensor(x.dtype(), outShape, x.numel());
  if (x.numel() == 0)
    return out;
  // Input strides, then the output dims with their input strides, dropping
  // size-1 dims and merging dims that stay adjacent.
  SmallVec<int64_t> inStride(r);
  int64_t s = 1;
  for (size_t i = r; i-- > 0;) {
    inStride[i] = s;
    s *= xs[i];
  }
  SmallVec<int64_t> dims, strides;
  for (size_t i = 0; i < r; ++i) {
    int64_t d = outShape[i], st = inStride[p[i]];
    if (d == 1)
      continue;
    if (!dims.empty() && strides.back() == st * d) {
      dims.back() *= d;
      strides.back() = st;
      continue;
    }
    dims.push_back(d);
    strides.push_back(st);
  }
  dispatch_width(x.dtype(), [&](auto w) {
    using W = decltype(w);
    const W *src = static_cast<const W *>(x.unsafe_impl()->data);
    W *dst = static_cast<W *>(out.unsafe_impl()->data);
    size_t m = dims.size();
    if (m >= 2 && strides[m - 2] == 1 && strides[m - 1] == dims[m - 2]) {
      // The last two dims swap: tile them; walk the others.
      int64_t rows = dims[m - 2], cols = dims[m - 1];
      int64_t outer = x.numel() / (rows * cols);
      SmallVec<int64_t> odims(m - 2), ostrides(m - 2);
      for (size_t i = 0; i + 2 < m; ++i) {
        odims[i] = dims[i];
        ostrides[i] = strides[i];
      }
      parallel_for(outer, rows * cols, [&](int64_t ob, int64_t oe) {
        for (int64_t o = ob; o < oe; ++o) {
          int64_t off = 0, rem = o;
          for (size_t d = m - 2; d-- > 0;) {
            off += (rem % odims[d]) * ostrides[d];
            rem /= odims[d];
          }
          transpose2d(dst + o * rows * cols, src + off, rows, cols, rows, cols);
        }
      });
      return;
    }
    stridedCopy(dst, src, dims, strides);
  });
  return out;
}

Tensor expand_dims(const Tensor &x, int64_t axis) {
  require_concrete("expand_dims", x);
  const auto &xs = x.shape();
  int64_t r = static_cast<int64_t>(xs.size());
  if (axis < -(r + 1) || axis > r)
    fail("expand_dims", "axis ", axis, " out of range [", -(r + 1), ", ", r,
         "] for tensor of shape ", xs);
  if (axis < 0)
    axis += r + 1;
  SmallVec<int64_t> dims;
  for (int64_t i = 0; i <= r; ++i) {
    if (i == axis)
      dims.push_back(1);
    if (i < r)
      dims.push_back(xs[i]);
  }
  return alias(x, dims.data(), dims.size());
}

Tensor squeeze(const Tensor &x, const std::vector<int64_t> &axes) {
  require_concrete("squeeze", x);
  const auto &xs = x.shape();
  SmallVec<int64_t> drop(xs.size(), 0);
  if (axes.empty()) {
    for (size_t i = 0; i < xs.size(); ++i)
      drop[i] = xs[i] == 1;
  } else {
    for (int64_t a : axes) {
      int64_t ax = normalize_axis("squeeze", a, xs);
      if (xs[ax] != 1)
        fail("squeeze", "cannot squeeze axis ", a, " of shape ", xs,
             ": its size is ", xs[ax], ", not 1");
      drop[ax] = 1;
    }
  }
  SmallVec<int64_t> dims;
  for (size_t i = 0; i < xs.size(); ++i)
    if (!drop[i])
      dims.push_back(xs[i]);
  return alias(x, dims.data(), dims.size());
}

Tensor concat(const std::vector<Tensor> &xs, int64_t axis) {
  constexpr std::string_view name = "concat";
  if (xs.empty())
    fail(name, "expected at least one tensor");
  for (const Tensor &t : xs)
    require_concrete(name, t);
  const Tensor &first = xs[0];
  const auto &fs = first.shape();
  if (fs.empty())
    fail(name, "cannot concatenate scalars (shape ())");
  int64_t ax = normalize_axis(name, axis, fs);
  std::vector<int64_t> outShape = fs;
  int64_t total = 0;
  for (size_t k = 0; k < xs.size(); ++k) {
    const auto &s = xs[k].shape();
    if (xs[k].dtype() != first.dtype())
      fail(name, "mixed dtypes ", first.dtype(), " and ", xs[k].dtype(),
           " (input 0 and input ", k, ")");
    bool ok = s.size() == fs.size();
    for (size_t i = 0; ok && i < s.size(); ++i)
      ok = static_cast<int64_t>(i) == ax || s[i] == fs[i];
    if (!ok)
      fail(name, "input ", k, " has shape ", s, " but input 0 has shape ", fs,
           "; all dims except axis ", ax, " must match (", first.dtype(), ")");
    total += s[ax];
  }
  outShape[ax] = total;
  int64_t n = checked_numel(name, outShape, first.dtype());
  Tensor out = make_tensor(first.dtype(), outShape, n);
  if (n == 0)
    return out;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < ax; ++i)
    outer *= fs[i];
  for (size_t i = ax + 1; i < fs.size(); ++i)
    inner *= fs[i];
  size_t es = dtype_size(first.dtype());
  auto *dst = static_cast<char *>(out.unsafe_impl()->data);
  size_t rowBytes = static_cast<size_t>(total * inner) * es;
  size_t at = 0;
  for (const Tensor &t : xs) {
    size_t chunk = static_cast<size_t>(t.shape()[ax] * inner) * es;
    auto *src = static_cast<const char *>(t.unsafe_impl()->data);
    if (chunk)
      for (int64_t o = 0; o < outer; ++o)
        std::memcpy(dst + o * rowBytes + at, src + o * chunk, chunk);
    at += chunk;
  }
  return out;
}

Tensor slice(const Tensor &x, const std::vector<int64_t> &begin,
             const std::vector<int64_t> &size) {
  constexpr std::string_view name = "slice";
  require_concrete(name, x);
  const auto &xs = x.shape();
  size_t r = xs.size();
  if (begin.size() != r || size.size() != r)
    fail(name, "begin ", begin, " and size ", size,
         " must both have one entry per dim of shape ", xs);
  std::vector<int64_t> outShape(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t b = begin[i], s = size[i];
    if (b < 0 || b > xs[i])
      fail(name, "begin ", begin, " is out of bounds for shape ", xs);
    if (s == -1)
      s = xs[i] - b;
    if (s < 0 || s > xs[i] - b) // b + s could overflow
      fail(name, "size ", size, " at begin ", begin,
           " is out of bounds for shape ", xs);
    outShape[i] = s;
  }
  int64_t n = shape_numel(outShape);
  SmallVec<int64_t> inStride(r);
  int64_t st = 1;
  for (size_t i = r; i-- > 0;) {
    inStride[i] = st;
    st *= xs[i];
  }
  int64_t offset = 0;
  for (size_t i = 0; i < r; ++i)
    offset += begin[i] * inStride[i];
  // Contiguous: leading dims of size 1, one partial dim, then full dims.
  bool contiguous = true;
  {
    size_t k = 0;
    while (k < r && outShape[k] == 1)
      ++k;
    for (size_t i = k + 1; i < r; ++i)
      contiguous &= outShape[i] == xs[i];
  }
  if (n == 0)
    return make_tensor(x.dtype(), outShape, 0);
  if (contiguous) {
    auto *data = static_cast<char *>(x.unsafe_impl()->data) +
                 offset * static_cast<int64_t>(dtype_size(x.dtype()));
    return Tensor::from_storage(x.dtype(), std::move(outShape), x.storage(),
                                data);
  }
  Tensor out = make_tensor(x.dtype(), outShape, n);
  SmallVec<int64_t> dims, strides;
  for (size_t i = 0; i < r; ++i) {
    if (outShape[i] == 1)
      continue;
    // Merge with the previous dim when this one is taken whole.
    if (!dims.empty() && outShape[i] == xs[i] &&
        strides.back() == inStride[i] * xs[i]) {
      dims.back() *= outShape[i];
      strides.back() = inStride[i];
      continue;
    }
    dims.push_back(outShape[i]);
    strides.push_back(inStride[i]);
  }
  dispatch_width(x.dtype(), [&](auto w) {
    using W = decltype(w);
    stridedCopy(static_cast<W *>(out.unsafe_impl()->data),
                static_cast<const W *>(x.unsafe_impl()->data) + offset, dims,
                strides);
  });
  return out;
}

} // namespace tfc::kernels
