//===- ElementwiseToLinalg.cpp - Elementwise tfc ops to linalg --*- C++ -*-===//
//
// Ops computed element by element, each result element from one element
// of each operand: every tfc elementwise op (its scalar body from
// buildScalarOp), constants, broadcast_to and one_hot become
// linalg.generic (fusable by upstream elementwise fusion) or fill.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

/// Any op with an elementwise scalar body.
struct ElementwiseLowering : public ConversionPattern {
  ElementwiseLowering(MLIRContext *ctx)
      : ConversionPattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<TfcDialect>(op->getDialect()) || op->getNumResults() != 1 ||
        !op->hasTrait<OpTrait::Elementwise>())
      return rewriter.notifyMatchFailure(op, "not a tfc elementwise op");
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || operands.empty())
      return rewriter.notifyMatchFailure(op, "expected ranked tensor result");
    if (isa<StopGradientOp>(op)) {
      rewriter.replaceOp(op, operands[0]);
      return success();
    }
    Location loc = op->getLoc();
    Value init =
        emptyTensor(rewriter, loc, resultType,
                    dynamicSizesFrom(rewriter, loc, resultType, operands[0]));
    SmallVector<AffineMap> maps(
        operands.size(), rewriter.getMultiDimIdentityMap(resultType.getRank()));
    bool failed = false;
    Value result = buildGeneric(
        rewriter, loc, resultType, operands, maps, init,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = buildScalarOp(op, b, l, args, resultType.getElementType());
          if (!v) {
            failed = true;
            v = args[0];
          }
          return v;
        });
    if (failed)
      return rewriter.notifyMatchFailure(op, "no scalar body for this op");
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ConstantLowering : public OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto attr = dyn_cast<TypedAttr>(op.getValue());
    if (!attr)
      return rewriter.notifyMatchFailure(op, "constant is not a TypedAttr");
    // A large splat (a broadcast scalar folded by canonicalization) is a
    // fill: as a dense constant it would become a global of that size in
    // the object code.
    auto dense = dyn_cast<DenseElementsAttr>(attr);
    auto type = dyn_cast<RankedTensorType>(attr.getType());
    if (dense && dense.isSplat() && type && type.getNumElements() > 16) {
      Location loc = op.getLoc();
      Value scalar = arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
      Value empty = emptyTensor(rewriter, loc, type, {});
      rewriter.replaceOp(
          op,
          linalg::FillOp::create(rewriter, loc, scalar, empty).getResult(0));
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, attr);
    return success();
  }
};

struct BroadcastToLowering : public OpConversionPattern<BroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value input = adaptor.getOperands()[0];
    auto inType = cast<RankedTensorType>(input.getType());
    // Dynamic result dims come from the aligned (non-broadcast) input dim,
    // or from `like`'s.
    SmallVector<Value> dyn;
    int64_t offset = resultType.getRank() - inType.getRank();
    for (int64_t i = 0; i < resultType.getRank(); ++i) {
      if (!resultType.isDynamicDim(i))
        continue;
      auto source = op.dynamicDimSource(i);
      if (!source)
        return rewriter.notifyMatchFailure(
            op, "dynamic result dim with no input dim to take its size from");
      Value from = source->first == op.getOperand() ? input : adaptor.getLike();
      dyn.push_back(tensor::DimOp::create(rewriter, loc, from, source->second));
    }
    Value init = emptyTensor(rewriter, loc, resultType, dyn);
    // A dynamic operand dim under a static target dim > 1 is that size or 1
    // at run time, which no affine map can express (broadcastMap reads it
    // as the identity, out of bounds when it is 1). Such broadcasts read the
    // operand with tensor.extract at index 0 where its dim is 1.
    bool runtimeBroadcast = false;
    for (int64_t i = 0; i < inType.getRank(); ++i)
      runtimeBroadcast |= inType.isDynamicDim(i) &&
                          !resultType.isDynamicDim(i + offset) &&
                          resultType.getDimSize(i + offset) != 1;
    if (runtimeBroadcast) {
      SmallVector<Value> sizes;
      for (int64_t i = 0; i < inType.getRank(); ++i)
        sizes.push_back(tensor::DimOp::create(rewriter, loc, input, i));
      auto generic = linalg::GenericOp::create(
          rewriter, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
          ArrayRef<AffineMap>{
              rewriter.getMultiDimIdentityMap(resultType.getRank())},
          parallel(resultType.getRank()),
          [&](OpBuilder &b, Location l, ValueRange) {
            Value zero = arith::ConstantIndexOp::create(b, l, 0);
            Value one = arith::ConstantIndexOp::create(b, l, 1);
            SmallVector<Value> indices;
            for (int64_t i = 0; i < inType.getRank(); ++i) {
              if (inType.getDimSize(i) == 1) {
                indices.push_back(zero);
                continue;
              }
              Value j = linalg::IndexOp::create(b, l, i + offset);
              if (inType.isDynamicDim(i)) {
                Value isOne = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::eq, sizes[i], one);
                j = arith::SelectOp::create(b, l, isOne, zero, j);
              }
              indices.push_back(j);
            }
            linalg::YieldOp::create(
                b, l,
                tensor::ExtractOp::create(b, l, input, indices).getResult());
          });
      rewriter.replaceOp(op, generic.getResult(0));
      return success();
    }
    AffineMap map = broadcastMap(rewriter.getContext(), inType, resultType);
    Value result = buildGeneric(
        rewriter, loc, resultType, {input}, {map}, init,
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct OneHotLowering : public OpConversionPattern<OneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value indices = adaptor.getOperands()[0];
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    SmallVector<Value> dyn;
    for (int64_t i = 0; i + 1 < rank; ++i)
      if (resultType.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(rewriter, loc, indices, i));
    Value init = emptyTensor(rewriter, loc, resultType, dyn);
    SmallVector<AffineExpr> exprs;
    for (int64_t i = 0; i + 1 < rank; ++i)
      exprs.push_back(rewriter.getAffineDimExpr(i));
    AffineMap inMap = AffineMap::get(rank, 0, exprs, rewriter.getContext());
    Type elt = resultType.getElementType();
    Value result = buildGeneric(
        rewriter, loc, resultType, {indices}, {inMap}, init,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value j = linalg::IndexOp::create(b, l, rank - 1);
          Value jCast = arith::IndexCastOp::create(b, l, args[0].getType(), j);
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            args[0], jCast);
          return castScalar(b, l, hit, elt);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tfc::populateElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLowering>(ctx);
  patterns.add<ConstantLowering, BroadcastToLowering, OneHotLowering>(ctx);
}
