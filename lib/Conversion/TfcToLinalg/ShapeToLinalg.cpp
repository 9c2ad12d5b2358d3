//===- ShapeToLinalg.cpp - Shape ops to linalg and tensor -------*- C++ -*-===//
//
// Ops that move data without computing: transpose becomes a
// linalg.generic, reshape/expand_dims/squeeze become tensor reshapes
// (buildReshape), concat and slice become insert/extract_slice.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

struct TransposeLowering : public OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getOperands()[0];
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> perm = i64Array(op, "perm");
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < resultType.getRank(); ++i)
      if (resultType.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(rewriter, loc, input, perm[i]));
    Value init = emptyTensor(rewriter, loc, resultType, dyn);
    // out[i0..in] = in[...]: input dim perm[i] is iterated by output dim i.
    SmallVector<AffineExpr> exprs(perm.size());
    for (size_t i = 0; i < perm.size(); ++i)
      exprs[perm[i]] = rewriter.getAffineDimExpr(i);
    AffineMap inMap =
        AffineMap::get(resultType.getRank(), 0, exprs, rewriter.getContext());
    rewriter.replaceOp(
        op, buildGeneric(rewriter, loc, resultType, {input}, {inMap}, init,
                         [](OpBuilder &, Location, ValueRange args) {
                           return args[0];
                         }));
    return success();
  }
};

/// reshape, expand_dims and squeeze: all are reshapes of the same data.
template <typename OpTy>
struct ReshapeLikeLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Value result = buildReshape(rewriter, op.getLoc(), adaptor.getOperands()[0],
                                resultType);
    if (!result)
      return op.emitOpError("cannot lower a reshape to ")
             << resultType
             << ": with more than one dynamic dim the size of each is "
                "ambiguous";
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConcatLowering : public OpConversionPattern<ConcatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t axis = i64Attr(op, "axis");
    ValueRange inputs = adaptor.getOperands();
    int64_t rank = resultType.getRank();
    // Size along `axis` = sum of the inputs'; other dims from input 0.
    SmallVector<Value> dyn;
    for (int64_t i = 0; i < rank; ++i) {
      if (!resultType.isDynamicDim(i))
        continue;
      if (i != axis) {
        dyn.push_back(tensor::DimOp::create(rewriter, loc, inputs[0], i));
        continue;
      }
      Value sum = arith::ConstantIndexOp::create(rewriter, loc, 0);
      for (Value in : inputs)
        sum = arith::AddIOp::create(
            rewriter, loc, sum, tensor::DimOp::create(rewriter, loc, in, i));
      dyn.push_back(sum);
    }
    Value result = emptyTensor(rewriter, loc, resultType, dyn);
    // Nothing to copy into an empty result; insert_slice would reject the
    // static offsets into a size-0 dim.
    if (llvm::is_contained(resultType.getShape(), 0)) {
      rewriter.replaceOp(op, result);
      return success();
    }
    OpFoldResult offset = rewriter.getIndexAttr(0);
    for (Value in : inputs) {
      // An input empty along a static dim adds nothing.
      if (llvm::is_contained(cast<RankedTensorType>(in.getType()).getShape(),
                             0))
        continue;
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(rewriter, loc, in);
      SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
      offsets[axis] = offset;
      result = tensor::InsertSliceOp::create(rewriter, loc, in, result, offsets,
                                             sizes, strides);
      offset = rewriter.createOrFold<arith::AddIOp>(
          loc, getValueOrCreateConstantIndexOp(rewriter, loc, offset),
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes[axis]));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SliceLowering : public OpConversionPattern<SliceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> begin = i64Array(op, "begin");
    SmallVector<int64_t> size = i64Array(op, "size");
    SmallVector<int64_t> strides(begin.size(), 1);
    Value input = adaptor.getOperands()[0];
    // An empty slice reads nothing (and extract_slice would reject a static
    // offset into a size-0 dim).
    if (resultType.hasStaticShape() && resultType.getNumElements() == 0) {
      rewriter.replaceOp(op,
                         emptyTensor(rewriter, op.getLoc(), resultType, {}));
      return success();
    }
    Value out = tensor::ExtractSliceOp::create(
        rewriter, op.getLoc(), resultType, input, ValueRange{}, ValueRange{},
        ValueRange{}, rewriter.getDenseI64ArrayAttr(begin),
        rewriter.getDenseI64ArrayAttr(size),
        rewriter.getDenseI64ArrayAttr(strides));
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::tfc::populateShapeToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<TransposeLowering, ReshapeLikeLowering<ReshapeOp>,
               ReshapeLikeLowering<ExpandDimsOp>,
               ReshapeLikeLowering<SqueezeOp>, ConcatLowering, SliceLowering>(
      ctx);
}
