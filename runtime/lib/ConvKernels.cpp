//===- ConvKernels.cpp - conv2d and its gradients (im2col + GEMM) ---------===//
//
// The column matrix has one row per output pixel (n*oh*ow rows, the big
// dimension) and one column per filter tap and input channel (kh*kw*c, in
// HWIO order), so with NHWC data and an HWIO filter every operand is a
// plain row-major matrix:
//   forward:          y    [P, o] = cols [P, K] x f  [K, o]
//   backprop input:   dcol [P, K] = dy   [P, o] x f^T        (then col2im)
//   backprop filter:  df   [K, o] = cols^T       x dy [P, o]
// with P = n*oh*ow and K = kh*kw*c. Rows are processed in chunks whose
// column matrix fits kColumnBytes (it stays in cache from the packing to
// the GEMM), each chunk one GEMM. A 1x1 filter with
// stride 1 reads (or writes) the input itself as the column matrix.
//
// Float32 runs on oneDNN instead when tfc is built with it (TFC_HAVE_DNNL),
// but for the input gradient of layers with few input channels.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/ConvKernels.h"
#include "Blas.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Allocator.h"
#include "tfc/runtime/ConvGeometry.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <type_traits>
#include <utility>

#ifdef TFC_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>

#include <map>
#include <memory>
#include <mutex>
#endif

using namespace tfc;
using namespace tfc::detail;

namespace {

/// Upper bound on one chunk's column matrix. Small enough that it is still
/// in cache when the GEMM reads it back (on the 2-core EPYC, 1 to 4 MiB ran
/// the 3x3 layers of bench_conv.cpp 25-35% faster than 64 MiB), large
/// enough that each GEMM has about a thousand rows or more.
constexpr int64_t kColumnBytes = int64_t(4) << 20;

/// Element counts above this are rejected: byte sizes of double buffers and
/// every index sum stay far from int64 overflow.
constexpr int64_t kMaxElements = int64_t(1) << 56;

/// a * b, or -1 when it overflows or exceeds kMaxElements.
int64_t boundedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r) || r > kMaxElements)
    return -1;
  return r;
}

int64_t boundedProduct(std::initializer_list<int64_t> dims) {
  int64_t r = 1;
  for (int64_t d : dims)
    if ((r = boundedMul(r, d)) < 0)
      return -1;
  return r;
}

/// The kernels can be handed a Conv2DShape built by hand (compiled code):
/// every GEMM dimension and leading dimension must fit cblas's int.
void checkBlasDims(const char *op, const kernels::Conv2DShape &s) {
  int64_t k = s.kh * s.kw * s.c;
  if (k > INT_MAX || s.o > INT_MAX)
    fail(op, "filter [", s.kh, ", ", s.kw, ", ", s.c, ", ", s.o,
         "] exceeds the BLAS limit of ", INT_MAX, " (kh*kw*c = ", k, ")");
}

/// A scratch block from the runtime's caching allocator (a fresh 64 MiB
/// buffer would cost milliseconds of page faults on every call).
template <class T> class Scratch {
public:
  explicit Scratch(int64_t elems)
      : p(static_cast<T *>(
            allocator::allocate(static_cast<size_t>(elems) * sizeof(T)))) {}
  ~Scratch() { allocator::deallocate(p); }
  Scratch(const Scratch &) = delete;
  Scratch &operator=(const Scratch &) = delete;
  T *get() const { return p; }

private:
  T *p;
};

/// Whether the input itself is the column matrix ([n*h*w, c] = [P, K]).
bool isPointwise(const kernels::Conv2DShape &s) {
  return s.kh == 1 && s.kw == 1 && s.strideH == 1 && s.strideW == 1 &&
         s.padTop == 0 && s.padLeft == 0 && s.oh == s.h && s.ow == s.w;
}

/// Rows of the column matrix per chunk: at least 1, at most INT_MAX (a
/// cblas dimension) and within kColumnBytes.
template <class T> int64_t chunkRows(const kernels::Conv2DShape &s) {
  int64_t rowBytes = s.kh * s.kw * s.c * int64_t(sizeof(T));
  return std::clamp<int64_t>(kColumnBytes / rowBytes, 1, INT_MAX);
}

/// Which taps of a filter row read inside the input, per output column j.
struct ColumnTaps {
  /// taps[j] = [lo, hi): the taps b whose input column j*sW + b*dW - padLeft
  /// lies in [0, w) (lo <= hi).
  std::vector<std::pair<int64_t, int64_t>> taps;
  /// [in0, in1): the columns whose whole window row is inside the input and,
  /// undilated, one contiguous run of kw*c elements (empty when dW > 1).
  int64_t in0 = 0, in1 = 0;

  explicit ColumnTaps(const kernels::Conv2DShape &s) : taps(s.ow) {
    const int64_t kw = s.kw, dW = s.dilationW;
    for (int64_t j = 0; j < s.ow; ++j) {
      int64_t x0 = j * s.strideW - s.padLeft;
      int64_t lo = x0 >= 0 ? 0 : std::min(kw, (-x0 + dW - 1) / dW);
      int64_t hi = x0 > s.w - 1 ? 0 : std::min(kw, (s.w - 1 - x0) / dW + 1);
      taps[j] = {lo, std::max(lo, hi)};
    }
    if (dW != 1)
      return;
    // Full windows form one interval of j (x0 grows with j).
    while (in0 < s.ow && taps[in0] != std::pair<int64_t, int64_t>(0, kw))
      ++in0;
    in1 = in0;
    while (in1 < s.ow && taps[in1] == std::pair<int64_t, int64_t>(0, kw))
      ++in1;
  }
};

/// Calls f(len) with len == n: for runs of up to 9 elements (few channels:
/// a 3-tap window row of 1 to 3 channels) as a compile-time constant, so
/// the copy loops over such runs are a few moves, not a generic loop.
template <class F> inline void withRunLength(int64_t n, F &&f) {
  auto fixed = [&]<int64_t N>() { f(std::integral_constant<int64_t, N>()); };
  switch (n) {
  case 1:
    return fixed.template operator()<1>();
  case 2:
    return fixed.template operator()<2>();
  case 3:
    return fixed.template operator()<3>();
  case 4:
    return fixed.template operator()<4>();
  case 5:
    return fixed.template operator()<5>();
  case 6:
    return fixed.template operator()<6>();
  case 7:
    return fixed.template operator()<7>();
  case 8:
    return fixed.template operator()<8>();
  case 9:
    return fixed.template operator()<9>();
  default:
    f(n);
  }
}

/// Fills rows [p0, p1) of the column matrix (row-major, K columns) from x,
/// one output row (img, i) and filter row a at a time: the output columns
/// whose window row is inside the input copy one run each, the border ones
/// tap by tap. Plain loops, not memcpy: with few channels the runs are so
/// short that a library call would cost more than the copy.
template <class T>
void im2col(const kernels::Conv2DShape &s, const T *x, T *cols, int64_t p0,
            int64_t p1) {
  const int64_t c = s.c, kw = s.kw, K = s.kh * kw * c, dW = s.dilationW;
  const ColumnTaps ct(s);
  const int64_t g0 = p0 / s.ow, g1 = (p1 - 1) / s.ow + 1;
  parallel_for(g1 - g0, s.ow * K, [&](int64_t q0, int64_t q1) {
    for (int64_t g = g0 + q0; g < g0 + q1; ++g) {
      const int64_t img = g / s.oh, i = g % s.oh;
      const int64_t j0 = std::max<int64_t>(0, p0 - g * s.ow);
      const int64_t j1 = std::min(s.ow, p1 - g * s.ow);
      const int64_t in0 = std::clamp(ct.in0, j0, j1);
      const int64_t in1 = std::clamp(ct.in1, in0, j1);
      // Column matrix row of output pixel (img, i, j), at filter row a.
      auto dst = [&](int64_t j, int64_t a) {
        return cols + (g * s.ow + j - p0) * K + a * kw * c;
      };
      for (int64_t a = 0; a < s.kh; ++a) {
        const int64_t yy = i * s.strideH - s.padTop + a * s.dilationH;
        if (yy < 0 || yy >= s.h) {
          for (int64_t j = j0; j < j1; ++j)
            std::fill_n(dst(j, a), kw * c, T(0));
          continue;
        }
        const T *row = x + (img * s.h + yy) * s.w * c;
        auto border = [&](int64_t j) {
          T *d = dst(j, a);
          auto [lo, hi] = ct.taps[j];
          int64_t x0 = j * s.strideW - s.padLeft;
          std::fill_n(d, lo * c, T(0));
          for (int64_t b = lo; b < hi; ++b) {
            const T *src = row + (x0 + b * dW) * c;
            for (int64_t e = 0; e < c; ++e)
              d[b * c + e] = src[e];
          }
          std::fill_n(d + hi * c, (kw - hi) * c, T(0));
        };
        for (int64_t j = j0; j < in0; ++j)
          border(j);
        withRunLength(kw * c, [&](auto len) {
          for (int64_t j = in0; j < in1; ++j) {
            T *d = dst(j, a);
            const T *src = row + (j * s.strideW - s.padLeft) * c;
            for (int64_t e = 0; e < len; ++e)
              d[e] = src[e];
          }
        });
        for (int64_t j = in1; j < j1; ++j)
          border(j);
      }
    }
  });
}

/// dx += col2im(dcols) for column rows [p0, p1). Gathers by input row: each
/// thread owns whole rows of dx, so there are no races.
template <class T>
void col2imAdd(const kernels::Conv2DShape &s, const T *dcols, T *dx, int64_t p0,
               int64_t p1) {
  const int64_t c = s.c, kw = s.kw, K = s.kh * kw * c, per = s.oh * s.ow;
  const int64_t dW = s.dilationW;
  const int64_t img0 = p0 / per, img1 = (p1 - 1) / per + 1;
  const ColumnTaps ct(s);
  parallel_for(
      (img1 - img0) * s.h, s.kh * s.w * c, [&](int64_t r0, int64_t r1) {
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t img = img0 + r / s.h, yy = r % s.h;
          T *dxRow = dx + (img * s.h + yy) * s.w * c;
          for (int64_t a = 0; a < s.kh; ++a) {
            const int64_t t = yy + s.padTop - a * s.dilationH;
            if (t < 0)
              break;
            if (t % s.strideH != 0 || t / s.strideH >= s.oh)
              continue;
            // Output row i = t / sH of this image, clipped to the chunk.
            const int64_t rowBase = (img * s.oh + t / s.strideH) * s.ow;
            const int64_t j0 = std::clamp<int64_t>(p0 - rowBase, 0, s.ow);
            const int64_t j1 = std::clamp<int64_t>(p1 - rowBase, 0, s.ow);
            const int64_t in0 = std::clamp(ct.in0, j0, j1);
            const int64_t in1 = std::clamp(ct.in1, in0, j1);
            auto src = [&](int64_t j) {
              return dcols + (rowBase + j - p0) * K + a * kw * c;
            };
            auto border = [&](int64_t j) {
              auto [lo, hi] = ct.taps[j];
              const T *sp = src(j);
              int64_t x0 = j * s.strideW - s.padLeft;
              for (int64_t b = lo; b < hi; ++b) {
                T *d = dxRow + (x0 + b * dW) * c;
                for (int64_t e = 0; e < c; ++e)
                  d[e] += sp[b * c + e];
              }
            };
            for (int64_t j = j0; j < in0; ++j)
              border(j);
            withRunLength(kw * c, [&](auto len) {
              for (int64_t j = in0; j < in1; ++j) {
                T *d = dxRow + (j * s.strideW - s.padLeft) * c;
                const T *sp = src(j);
                for (int64_t e = 0; e < len; ++e)
                  d[e] += sp[e];
              }
            });
            for (int64_t j = in1; j < j1; ++j)
              border(j);
          }
        }
      });
}

/// C[m, n] = op(A) op(B) + beta C, all row-major (Blas.h picks the library).
template <class T>
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, const T *a,
          int64_t lda, const T *b, int64_t ldb, T beta, T *c, int64_t ldc) {
  detail::gemm(transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc);
}

/// Zeroes n elements, split across threads for big buffers.
template <class T> void zero(T *p, int64_t n) {
  parallel_for(n, 1, [&](int64_t b, int64_t e) {
    std::memset(p + b, 0, static_cast<size_t>(e - b) * sizeof(T));
  });
}

#ifdef TFC_HAVE_DNNL
/// Float32 convolutions run on oneDNN: its direct JIT kernels read and write
/// the caller's NHWC buffers, with no column matrix (bench_conv.cpp: 1.2x to
/// 4x im2col + OpenBLAS on the 2-core EPYC, and on par with libtorch, which
/// uses the same library). oneDNN has no float64 convolution: double keeps
/// im2col.
enum class Pass { Forward, BackpropInput, BackpropFilter };

dnnl::engine &cpuEngine() {
  static dnnl::engine e(dnnl::engine::kind::cpu, 0);
  return e;
}

/// One pass of one geometry, ready to run: the primitive, its operands'
/// layouts and the scratch it needs. The filter (or its gradient) is left to
/// oneDNN's choice, a blocked layout, and converted from (to) the caller's
/// HWIO on each call: with HWIO itself oneDNN falls back to its own im2col
/// + GEMM, 2x to 4x slower, while the conversion of a filter costs
/// microseconds.
struct DnnlConv {
  dnnl::primitive prim;
  dnnl::memory::desc src, dst, hwio, weights, scratchpad;
  dnnl::reorder reorder; ///< HWIO <-> weights (empty when they agree).
};

/// The primitive for pass `pass` of geometry `s`, for the calling thread's
/// OpenMP team size.
DnnlConv makeDnnlConv(const kernels::Conv2DShape &s, Pass pass) {
  using dnnl::memory;
  using tag = memory::format_tag;
  const auto f32 = memory::data_type::f32;
  // oneDNN's logical dims are NCHW / OIHW whatever the memory layout.
  memory::desc src({s.n, s.c, s.h, s.w}, f32, tag::nhwc);
  memory::desc dst({s.n, s.o, s.oh, s.ow}, f32, tag::nhwc);
  memory::desc hwio({s.o, s.c, s.kh, s.kw}, f32, tag::hwio);
  memory::desc wAny({s.o, s.c, s.kh, s.kw}, f32, tag::any);
  // oneDNN counts dilation from 0 and takes the bottom/right padding
  // explicitly (negative for VALID windows that leave input unread).
  memory::dims strides{s.strideH, s.strideW};
  memory::dims dilates{s.dilationH - 1, s.dilationW - 1};
  memory::dims padL{s.padTop, s.padLeft};
  memory::dims padR{
      (s.oh - 1) * s.strideH + (s.kh - 1) * s.dilationH + 1 - s.h - s.padTop,
      (s.ow - 1) * s.strideW + (s.kw - 1) * s.dilationW + 1 - s.w - s.padLeft};
  const auto algo = dnnl::algorithm::convolution_direct;
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);

  auto forward = [&](dnnl::prop_kind kind) {
    return dnnl::convolution_forward::primitive_desc(
        {kind, algo, src, wAny, dst, strides, dilates, padL, padR}, attr,
        cpuEngine());
  };
  DnnlConv r;
  r.src = src, r.dst = dst, r.hwio = hwio;
  auto finish = [&](const auto &pd, dnnl::memory::desc weights,
                    bool toBlocked) {
    r.prim = dnnl::primitive(pd);
    r.weights = weights;
    r.scratchpad = pd.scratchpad_desc();
    if (weights != hwio)
      r.reorder = toBlocked
                      ? dnnl::reorder(memory(hwio, cpuEngine(), nullptr),
                                      memory(weights, cpuEngine(), nullptr))
                      : dnnl::reorder(memory(weights, cpuEngine(), nullptr),
                                      memory(hwio, cpuEngine(), nullptr));
  };
  switch (pass) {
  case Pass::Forward: {
    auto pd = forward(dnnl::prop_kind::forward_inference);
    finish(pd, pd.weights_desc(), true);
    break;
  }
  case Pass::BackpropInput: {
    auto pd = dnnl::convolution_backward_data::primitive_desc(
        {algo, src, wAny, dst, strides, dilates, padL, padR}, attr, cpuEngine(),
        forward(dnnl::prop_kind::forward_training));
    finish(pd, pd.weights_desc(), true);
    break;
  }
  case Pass::BackpropFilter: {
    auto pd = dnnl::convolution_backward_weights::primitive_desc(
        {algo, src, wAny, dst, strides, dilates, padL, padR}, attr, cpuEngine(),
        forward(dnnl::prop_kind::forward_training));
    finish(pd, pd.diff_weights_desc(), false);
    break;
  }
  }
  return r;
}

/// The primitives built so far, by geometry, pass and thread count. Bounded:
/// a program cycling through more geometries rebuilds some (oneDNN's own
/// primitive cache still spares it the JIT compilation).
std::shared_ptr<const DnnlConv> dnnlConv(const kernels::Conv2DShape &s,
                                         Pass pass, int threads) {
  constexpr size_t kMaxEntries = 128;
  using Key = std::array<int64_t, 17>;
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const DnnlConv>> cache;
  const Key key{s.n,           s.h,         s.w,         s.c,      s.kh,
                s.kw,          s.o,         s.oh,        s.ow,     s.strideH,
                s.strideW,     s.dilationH, s.dilationW, s.padTop, s.padLeft,
                int64_t(pass), threads};
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end())
      return it->second;
  }
  // Built outside the lock: two threads may both build it, one copy wins.
  auto conv = std::make_shared<const DnnlConv>(makeDnnlConv(s, pass));
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= kMaxEntries)
    cache.erase(cache.begin());
  return cache.emplace(key, std::move(conv)).first->second;
}

/// A VALID window with stride > 1 can leave the input's last rows or
/// columns unread, which oneDNN takes as negative bottom/right padding. Its
/// 1x1 backward-weights kernel (2.6) then computes wrong filter gradients
/// and writes past its scratch (heap corruption: difftest-grad seed
/// 950139), and a view without those rows makes it fall back to its
/// reference loops: such geometries keep im2col + OpenBLAS.
bool dnnlServes(const kernels::Conv2DShape &s) {
  return (s.oh - 1) * s.strideH + (s.kh - 1) * s.dilationH + 1 >=
             s.h + s.padTop &&
         (s.ow - 1) * s.strideW + (s.kw - 1) * s.dilationW + 1 >=
             s.w + s.padLeft;
}

/// Runs pass `pass` of `s` on oneDNN. `src` (NHWC input or its gradient),
/// `weights` (HWIO filter or its gradient) and `dst` (NHWC output or its
/// gradient) are the caller's buffers; the pass writes the one it computes.
void runDnnl(const char *op, const kernels::Conv2DShape &s, Pass pass,
             float *src, float *weights, float *dst) {
  const int threads = gNumThreads.load(std::memory_order_relaxed);
  OmpTeamSize team(threads);
  try {
    auto conv = dnnlConv(s, pass, threads);
    dnnl::engine &eng = cpuEngine();
    // A stream per call: calls from several threads never share one.
    dnnl::stream stream(eng);
    Scratch<char> scratch(int64_t(conv->scratchpad.get_size()));
    Scratch<char> blocked(conv->reorder ? int64_t(conv->weights.get_size())
                                        : 0);
    dnnl::memory user(conv->hwio, eng, weights);
    dnnl::memory w =
        conv->reorder ? dnnl::memory(conv->weights, eng, blocked.get()) : user;
    if (conv->reorder && pass != Pass::BackpropFilter)
      conv->reorder.execute(stream, user, w);
    conv->prim.execute(
        stream,
        {{pass == Pass::BackpropInput ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC,
          dnnl::memory(conv->src, eng, src)},
         {pass == Pass::BackpropFilter ? DNNL_ARG_DIFF_WEIGHTS
                                       : DNNL_ARG_WEIGHTS,
          w},
         {pass == Pass::Forward ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST,
          dnnl::memory(conv->dst, eng, dst)},
         {DNNL_ARG_SCRATCHPAD,
          dnnl::memory(conv->scratchpad, eng, scratch.get())}});
    if (conv->reorder && pass == Pass::BackpropFilter)
      conv->reorder.execute(stream, w, user);
    stream.wait();
  } catch (const dnnl::error &e) {
    throw RuntimeError(concat_str(op, ": oneDNN: ", e.what()));
  }
}
#endif

} // namespace

namespace tfc::kernels {

Conv2DShape conv2d_shape(const char *op, const std::vector<int64_t> &input,
                         const std::vector<int64_t> &filter,
                         std::array<int64_t, 2> strides,
                         std::array<int64_t, 2> dilations, bool same) {
  auto bad = [&](const auto &...what) {
    fail(op, what..., " (input shape ", input, ", filter shape ", filter,
         ", strides [", strides[0], ", ", strides[1], "], dilations [",
         dilations[0], ", ", dilations[1], "], ", same ? "SAME" : "VALID",
         " padding)");
  };
  if (input.size() != 4 || filter.size() != 4)
    bad("expected a rank-4 NHWC input and a rank-4 HWIO filter");
  if (input[0] < 0)
    bad("negative batch size");
  if (input[1] < 1 || input[2] < 1 || input[3] < 1)
    bad("input dims must be positive");
  for (int64_t d : filter)
    if (d < 1)
      bad("filter dims must be positive");
  if (input[3] != filter[2])
    bad("input channels (", input[3], ") differ from the filter's (", filter[2],
        ")");
  if (strides[0] < 1 || strides[1] < 1)
    bad("strides must be >= 1");
  if (dilations[0] < 1 || dilations[1] < 1)
    bad("dilations must be >= 1");

  Conv2DShape s;
  s.n = input[0], s.h = input[1], s.w = input[2], s.c = input[3];
  s.kh = filter[0], s.kw = filter[1], s.o = filter[3];
  s.strideH = strides[0], s.strideW = strides[1];
  s.dilationH = dilations[0], s.dilationW = dilations[1];
  // The dilated window's extent must stay addressable (index sums add it to
  // positions inside the input).
  int64_t spanH = boundedMul(s.kh - 1, s.dilationH);
  int64_t spanW = boundedMul(s.kw - 1, s.dilationW);
  if (spanH < 0 || spanW < 0)
    bad("the dilated filter window is too large");
  auto rows = window_dim(s.h, s.kh, s.strideH, s.dilationH, same);
  auto cols = window_dim(s.w, s.kw, s.strideW, s.dilationW, same);
  if (!rows || !cols)
    bad("the dilated filter window (", spanH + 1, " x ", spanW + 1,
        ") is larger than the input (", s.h, " x ", s.w,
        ") with VALID padding");
  s.oh = rows->out, s.padTop = rows->padBefore;
  s.ow = cols->out, s.padLeft = cols->padBefore;
  // Every buffer the kernels touch, and the multiply-add count over o.
  if (boundedProduct({s.n, s.h, s.w, s.c}) < 0 ||
      boundedProduct({s.kh, s.kw, s.c, s.o}) < 0 ||
      boundedProduct({s.n, s.oh, s.ow, s.o}) < 0 ||
      boundedProduct({s.n, s.oh, s.ow, s.kh, s.kw, s.c}) < 0)
    bad("the convolution has too many elements to address");
  if (s.kh * s.kw * s.c > INT_MAX || s.o > INT_MAX)
    bad("kh*kw*c (", s.kh * s.kw * s.c,
        ") or the output channels exceed "
        "the BLAS limit of ",
        INT_MAX);
  return s;
}

template <class T>
void conv2d(const Conv2DShape &s, const T *x, const T *f, T *y) {
  checkBlasDims("conv2d", s);
  const int64_t P = s.n * s.oh * s.ow, K = s.kh * s.kw * s.c;
  if (P == 0)
    return;
#ifdef TFC_HAVE_DNNL
  if constexpr (std::is_same_v<T, float>)
    if (dnnlServes(s))
      return runDnnl("conv2d", s, Pass::Forward, const_cast<float *>(x),
                     const_cast<float *>(f), y);
#endif
  if (isPointwise(s)) {
    for (int64_t p0 = 0; p0 < P; p0 += INT_MAX) {
      int64_t m = std::min<int64_t>(INT_MAX, P - p0);
      gemm<T>(false, false, m, s.o, K, x + p0 * K, K, f, s.o, T(0),
              y + p0 * s.o, s.o);
    }
    return;
  }
  const int64_t step = chunkRows<T>(s);
  Scratch<T> cols(std::min(step, P) * K);
  for (int64_t p0 = 0; p0 < P; p0 += step) {
    int64_t m = std::min(step, P - p0);
    im2col(s, x, cols.get(), p0, p0 + m);
    gemm<T>(false, false, m, s.o, K, cols.get(), K, f, s.o, T(0), y + p0 * s.o,
            s.o);
  }
}

template <class T>
void conv2d_backprop_input(const Conv2DShape &s, const T *dy, const T *f,
                           T *dx) {
  checkBlasDims("conv2d_backprop_input", s);
  const int64_t P = s.n * s.oh * s.ow, K = s.kh * s.kw * s.c;
  if (P == 0)
    return;
#ifdef TFC_HAVE_DNNL
  // oneDNN pads the input channels to its 16-wide block here: with under 8
  // of them col2im is faster (28x28x1 -> 32, batch 128: 7 ms against 17).
  if constexpr (std::is_same_v<T, float>)
    if (s.c >= 8 && dnnlServes(s))
      return runDnnl("conv2d_backprop_input", s, Pass::BackpropInput, dx,
                     const_cast<float *>(f), const_cast<float *>(dy));
#endif
  if (isPointwise(s)) {
    // dx is the column matrix: the GEMM writes every element.
    for (int64_t p0 = 0; p0 < P; p0 += INT_MAX) {
      int64_t m = std::min<int64_t>(INT_MAX, P - p0);
      gemm<T>(false, true, m, K, s.o, dy + p0 * s.o, s.o, f, s.o, T(0),
              dx + p0 * K, K);
    }
    return;
  }
  zero(dx, s.n * s.h * s.w * s.c);
  const int64_t step = chunkRows<T>(s);
  Scratch<T> dcols(std::min(step, P) * K);
  for (int64_t p0 = 0; p0 < P; p0 += step) {
    int64_t m = std::min(step, P - p0);
    gemm<T>(false, true, m, K, s.o, dy + p0 * s.o, s.o, f, s.o, T(0),
            dcols.get(), K);
    col2imAdd(s, dcols.get(), dx, p0, p0 + m);
  }
}

template <class T>
void conv2d_backprop_filter(const Conv2DShape &s, const T *x, const T *dy,
                            T *df) {
  checkBlasDims("conv2d_backprop_filter", s);
  const int64_t P = s.n * s.oh * s.ow, K = s.kh * s.kw * s.c;
  if (P == 0) {
    zero(df, K * s.o);
    return;
  }
#ifdef TFC_HAVE_DNNL
  if constexpr (std::is_same_v<T, float>)
    if (dnnlServes(s))
      return runDnnl("conv2d_backprop_filter", s, Pass::BackpropFilter,
                     const_cast<float *>(x), df, const_cast<float *>(dy));
#endif
  if (isPointwise(s)) {
    for (int64_t p0 = 0; p0 < P; p0 += INT_MAX) {
      int64_t m = std::min<int64_t>(INT_MAX, P - p0);
      gemm<T>(true, false, K, s.o, m, x + p0 * K, K, dy + p0 * s.o, s.o,
              p0 == 0 ? T(0) : T(1), df, s.o);
    }
    return;
  }
  // The first chunk overwrites df, later ones accumulate into it.
  const int64_t step = chunkRows<T>(s);
  Scratch<T> cols(std::min(step, P) * K);
  for (int64_t p0 = 0; p0 < P; p0 += step) {
    int64_t m = std::min(step, P - p0);
    im2col(s, x, cols.get(), p0, p0 + m);
    gemm<T>(true, false, K, s.o, m, cols.get(), K, dy + p0 * s.o, s.o,
            p0 == 0 ? T(0) : T(1), df, s.o);
  }
}

template void conv2d<float>(const Conv2DShape &, const float *, const float *,
                            float *);
template void conv2d<double>(const Conv2DShape &, const double *,
                             const double *, double *);
template void conv2d_backprop_input<float>(const Conv2DShape &, const float *,
                                           const float *, float *);
template void conv2d_backprop_input<double>(const Conv2DShape &, const double *,
                                            const double *, double *);
template void conv2d_backprop_filter<float>(const Conv2DShape &, const float *,
                                            const float *, float *);
template void conv2d_backprop_filter<double>(const Conv2DShape &,
                                             const double *, const double *,
                                             double *);

} // namespace tfc::kernels
