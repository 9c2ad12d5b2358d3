//===- ConvToLinalg.cpp - conv2d and its gradients to linalg ----*- C++ -*-===//
//
// Each op becomes linalg that states its meaning, so every back end can run
// it (the GPU pipeline tiles it like any linalg op); on the CPU,
// tfc-linalg-to-blas then sends the heavy part to the runtime's im2col+GEMM
// kernels (ConvKernels.h):
//
//   conv2d                  tensor.pad (SAME) + linalg.conv_2d_nhwc_hwcf
//   conv2d_backprop_input   dy spread out by the strides (zeros between),
//                           padded, convolved with the filter flipped in
//                           space and transposed (o <-> c), stride 1: again
//                           linalg.conv_2d_nhwc_hwcf
//   conv2d_backprop_filter  tensor.pad + a linalg.generic summing
//                           x[n, i*sh + a*dh, j*sw + b*dw, c] * dy[n, i, j, o]
//                           over (n, i, j), tagged with library_call
//                           "tfc_rt_conv2d_backprop_filter"
//
// Height and width must be static; the batch may be dynamic.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"
#include "tfc/runtime/ConvGeometry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

struct Window {
  int64_t stride[2], dilation[2];
  int64_t padBefore[2], padAfter[2];
  int64_t out[2];
};

/// The geometry of a conv of `input` (NHWC) by a filter of `kh` x `kw`,
/// shared with the kernels (tfc::kernels::window_dim). Fails for a dynamic
/// height or width.
FailureOr<Window> windowOf(ArrayRef<int64_t> input, int64_t kh, int64_t kw,
                           ArrayRef<int64_t> strides,
                           ArrayRef<int64_t> dilations, StringRef padding) {
  Window w;
  int64_t k[2] = {kh, kw};
  for (int d = 0; d < 2; ++d) {
    int64_t in = input[1 + d];
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k[d]))
      return failure();
    std::optional<::tfc::kernels::WindowDim> dim = ::tfc::kernels::window_dim(
        in, k[d], strides[d], dilations[d], padding == "SAME");
    if (!dim)
      return failure();
    w.stride[d] = strides[d];
    w.dilation[d] = dilations[d];
    w.out[d] = dim->out;
    w.padBefore[d] = dim->padBefore;
    // What the last window needs beyond the input (never negative here).
    int64_t span = (k[d] - 1) * dilations[d] + 1;
    w.padAfter[d] = std::max<int64_t>(0, (dim->out - 1) * strides[d] + span -
                                             in - dim->padBefore);
  }
  return w;
}

/// `x` padded with zeros by `low`/`high` on its height and width.
Value padSpatial(OpBuilder &b, Location loc, Value x, const int64_t low[2],
                 const int64_t high[2]) {
  if (!low[0] && !low[1] && !high[0] && !high[1])
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> shape(type.getShape());
  shape[1] += low[0] + high[0];
  shape[2] += low[1] + high[1];
  // An empty batch has nothing to copy (and tensor.pad's subview of an
  // empty buffer does not lower).
  if (type.getDimSize(0) == 0)
    return tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  SmallVector<OpFoldResult> lo{b.getIndexAttr(0), b.getIndexAttr(low[0]),
                               b.getIndexAttr(low[1]), b.getIndexAttr(0)};
  SmallVector<OpFoldResult> hi{b.getIndexAttr(0), b.getIndexAttr(high[0]),
                               b.getIndexAttr(high[1]), b.getIndexAttr(0)};
  Value zero = zeroOf(b, loc, type.getElementType());
  return tensor::PadOp::create(b, loc, type.clone(shape), x, lo, hi, zero);
}

/// A zero-filled tensor of `type`, its dynamic batch read from `like`.
Value zeros(OpBuilder &b, Location loc, RankedTensorType type, Value like) {
  SmallVector<Value> dyn;
  if (type.isDynamicDim(0))
    dyn.push_back(tensor::DimOp::create(b, loc, like, 0));
  return linalg::FillOp::create(b, loc, zeroOf(b, loc, type.getElementType()),
                                emptyTensor(b, loc, type, dyn))
      .getResult(0);
}

Value conv(OpBuilder &b, Location loc, RankedTensorType resultType, Value input,
           Value filter, ArrayRef<int64_t> strides,
           ArrayRef<int64_t> dilations) {
  Value init = zeros(b, loc, resultType, input);
  return linalg::Conv2DNhwcHwcfOp::create(
             b, loc, TypeRange{resultType}, ValueRange{input, filter},
             ValueRange{init}, b.getI64TensorAttr(strides),
             b.getI64TensorAttr(dilations))
      .getResult(0);
}

struct Conv2DLowering : public OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto filterType = cast<RankedTensorType>(op.getFilter().getType());
    FailureOr<Window> w =
        windowOf(op.getInput().getType().getShape(), filterType.getDimSize(0),
                 filterType.getDimSize(1), op.getStrides(), op.getDilations(),
                 op.getPadding());
    if (failed(w))
      return rewriter.notifyMatchFailure(op, "needs a static height and width");
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), w->padBefore,
                             w->padAfter);
    rewriter.replaceOp(op, conv(rewriter, loc, op.getType(), input,
                                adaptor.getFilter(), op.getStrides(),
                                op.getDilations()));
    return success();
  }
};

struct Conv2DBackpropInputLowering
    : public OpConversionPattern<Conv2DBackpropInputOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DBackpropInputOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto filterType = cast<RankedTensorType>(op.getFilter().getType());
    auto dyType = cast<RankedTensorType>(op.getDy().getType());
    RankedTensorType resultType = op.getType();
    ArrayRef<int64_t> f = filterType.getShape();
    FailureOr<Window> w =
        windowOf(resultType.getShape(), f[0], f[1], op.getStrides(),
                 op.getDilations(), op.getPadding());
    if (failed(w) || !filterType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "needs static window shapes");
    Type elt = resultType.getElementType();
    // 1. dy spread out by the strides: row i goes to row i * stride.
    Value spread = adaptor.getDy();
    int64_t n = dyType.getDimSize(0), o = dyType.getDimSize(3);
    int64_t sh = w->stride[0], sw = w->stride[1];
    if ((sh > 1 || sw > 1) && n != 0) {
      auto type = RankedTensorType::get(
          {n, (w->out[0] - 1) * sh + 1, (w->out[1] - 1) * sw + 1, o}, elt);
      Value dest = zeros(rewriter, loc, type, spread);
      SmallVector<OpFoldResult> offsets(4, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, spread);
      SmallVector<OpFoldResult> strides{
          rewriter.getIndexAttr(1), rewriter.getIndexAttr(sh),
          rewriter.getIndexAttr(sw), rewriter.getIndexAttr(1)};
      spread = tensor::InsertSliceOp::create(rewriter, loc, spread, dest,
                                             offsets, sizes, strides);
    }
    // 2. Padded so that a stride-1 convolution with the flipped filter
    // (taps `dilation` apart) lands on every input position: low
    // (k - 1) * dilation - padBefore, high what makes it in + span - 1 long.
    int64_t low[2], high[2];
    for (int d = 0; d < 2; ++d) {
      low[d] = (f[d] - 1) * w->dilation[d] - w->padBefore[d];
      high[d] = resultType.getDimSize(1 + d) + w->padBefore[d] -
                (w->out[d] - 1) * w->stride[d] - 1;
      if (low[d] < 0 || high[d] < 0)
        return rewriter.notifyMatchFailure(op, "unexpected window geometry");
    }
    if (n == 0 && (sh > 1 || sw > 1))
      spread = tensor::EmptyOp::create(
          rewriter, loc,
          ArrayRef<int64_t>{0, (w->out[0] - 1) * sh + 1,
                            (w->out[1] - 1) * sw + 1, o},
          elt);
    Value padded = padSpatial(rewriter, loc, spread, low, high);
    // 3. The filter flipped in space, its channels swapped: (kh, kw, o, c).
    auto flippedType = RankedTensorType::get({f[0], f[1], f[3], f[2]}, elt);
    AffineExpr a = getAffineDimExpr(0, ctx), b = getAffineDimExpr(1, ctx),
               oc = getAffineDimExpr(2, ctx), c = getAffineDimExpr(3, ctx);
    AffineMap flipMap =
        AffineMap::get(4, 0, {f[0] - 1 - a, f[1] - 1 - b, c, oc}, ctx);
    Value flipped = buildGeneric(
        rewriter, loc, flippedType, adaptor.getFilter(), flipMap,
        emptyTensor(rewriter, loc, flippedType, {}),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    // 4. The convolution, stride 1.
    int64_t ones[2] = {1, 1};
    rewriter.replaceOp(op, conv(rewriter, loc, resultType, padded, flipped,
                                ones, op.getDilations()));
    return success();
  }
};

struct Conv2DBackpropFilterLowering
    : public OpConversionPattern<Conv2DBackpropFilterOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DBackpropFilterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType resultType = op.getType();
    ArrayRef<int64_t> f = resultType.getShape();
    FailureOr<Window> w =
        windowOf(op.getInput().getType().getShape(), f[0], f[1],
                 op.getStrides(), op.getDilations(), op.getPadding());
    if (failed(w))
      return rewriter.notifyMatchFailure(op, "needs a static height and width");
    Value input = padSpatial(rewriter, loc, adaptor.getInput(), w->padBefore,
                             w->padAfter);
    // Loops (a, b, c, o, n, i, j): the filter's dims, then the sum.
    AffineExpr a = getAffineDimExpr(0, ctx), b = getAffineDimExpr(1, ctx),
               c = getAffineDimExpr(2, ctx), o = getAffineDimExpr(3, ctx),
               n = getAffineDimExpr(4, ctx), i = getAffineDimExpr(5, ctx),
               j = getAffineDimExpr(6, ctx);
    SmallVector<AffineMap> maps{
        AffineMap::get(7, 0,
                       {n, i * w->stride[0] + a * w->dilation[0],
                        j * w->stride[1] + b * w->dilation[1], c},
                       ctx),
        AffineMap::get(7, 0, {n, i, j, o}, ctx),
        AffineMap::get(7, 0, {a, b, c, o}, ctx)};
    SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
    iters.append(3, utils::IteratorType::reduction);
    Value init = zeros(rewriter, loc, resultType, Value());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType},
        ValueRange{input, adaptor.getDy()}, ValueRange{init}, maps, iters,
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          Value prod = arith::MulFOp::create(nb, nl, args[0], args[1]);
          Value sum = arith::AddFOp::create(nb, nl, args[2], prod);
          linalg::YieldOp::create(nb, nl, sum);
        });
    generic.setLibraryCallAttr(
        rewriter.getStringAttr("tfc_rt_conv2d_backprop_filter"));
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::tfc::populateConvToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<Conv2DLowering, Conv2DBackpropInputLowering,
               Conv2DBackpropFilterLowering>(patterns.getContext());
}
