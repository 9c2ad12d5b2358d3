//===- ReductionToLinalg.cpp - Reductions to linalg -------------*- C++ -*-===//
//
// Ops that reduce over axes: the reduce_* ops, argmax, (log_)softmax and
// softmax_cross_entropy become linalg.generic with reduction iterators
// (scalar identities and steps from ScalarOps.cpp), followed by
// elementwise generics where the op needs them.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

/// Reduces `input` over sorted `axes`, dropping them (keepdims = false).
static Value buildReduce(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> axes, ReduceKind kind) {
  auto inType = cast<RankedTensorType>(input.getType());
  int64_t rank = inType.getRank();
  SmallVector<int64_t> outShape;
  SmallVector<Value> dyn;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iters;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = llvm::is_contained(axes, i);
    iters.push_back(reduced ? utils::IteratorType::reduction
                            : utils::IteratorType::parallel);
    if (reduced)
      continue;
    outShape.push_back(inType.getDimSize(i));
    outExprs.push_back(b.getAffineDimExpr(i));
    if (inType.isDynamicDim(i))
      dyn.push_back(tensor::DimOp::create(b, loc, input, i));
  }
  Type elt = inType.getElementType();
  auto outType = RankedTensorType::get(outShape, elt);
  Value init = linalg::FillOp::create(b, loc, reductionInit(b, loc, kind, elt),
                                      emptyTensor(b, loc, outType, dyn))
                   .getResult(0);
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, outExprs, b.getContext())};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{outType}, ValueRange{input}, ValueRange{init}, maps,
      iters, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc,
                                combine(nb, nloc, kind, args[1], args[0]));
      });
  return generic.getResult(0);
}

/// Number of elements reduced over `axes`, as a scalar of type `t`.
static Value reducedCount(OpBuilder &b, Location loc, Value input,
                          ArrayRef<int64_t> axes, Type t) {
  auto inType = cast<RankedTensorType>(input.getType());
  Value count = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t a : axes)
    count = arith::MulIOp::create(b, loc, count,
                                  tensor::DimOp::create(b, loc, input, a));
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  (void)inType;
  if (isFloat(t))
    return arith::SIToFPOp::create(b, loc, t, asInt);
  if (t.getIntOrFloatBitWidth() < 64)
    return arith::TruncIOp::create(b, loc, t, asInt);
  return asInt;
}

/// Broadcasts `reduced` (input shape with `axes` dropped) back over the
/// shape of `like` and combines elementwise with `like`.
static Value buildBroadcastCombine(
    OpBuilder &b, Location loc, Value like, Value reduced,
    ArrayRef<int64_t> axes,
    function_ref<Value(OpBuilder &, Location, Value, Value)> fn) {
  auto type = cast<RankedTensorType>(like.getType());
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (!llvm::is_contained(axes, i))
      exprs.push_back(b.getAffineDimExpr(i));
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  AffineMap red = AffineMap::get(type.getRank(), 0, exprs, b.getContext());
  Value init = emptyTensor(b, loc, type, dynamicSizesFrom(b, loc, type, like));
  return buildGeneric(b, loc, type, {like, reduced}, {id, red}, init,
                      [&](OpBuilder &nb, Location nloc, ValueRange args) {
                        return fn(nb, nloc, args[0], args[1]);
                      });
}

/// log_softmax or softmax over `axis`, numerically stable.
static Value buildSoftmax(OpBuilder &b, Location loc, Value x, int64_t axis,
                          bool log) {
  SmallVector<int64_t> axes = {axis};
  Value m = buildReduce(b, loc, x, axes, ReduceKind::Max);
  Value shifted = buildBroadcastCombine(
      b, loc, x, m, axes, [](OpBuilder &nb, Location l, Value v, Value mv) {
        return arith::SubFOp::create(nb, l, v, mv).getResult();
      });
  Value e =
      elementwiseMap(b, loc, shifted, [](OpBuilder &nb, Location l, Value v) {
        return math::ExpOp::create(nb, l, v).getResult();
      });
  Value s = buildReduce(b, loc, e, axes, ReduceKind::Sum);
  if (log)
    return buildBroadcastCombine(
        b, loc, shifted, s, axes,
        [](OpBuilder &nb, Location l, Value v, Value sv) {
          return arith::SubFOp::create(nb, l, v, math::LogOp::create(nb, l, sv))
              .getResult();
        });
  return buildBroadcastCombine(
      b, loc, e, s, axes, [](OpBuilder &nb, Location l, Value v, Value sv) {
        return arith::DivFOp::create(nb, l, v, sv).getResult();
      });
}

namespace {

template <typename OpTy, ReduceKind Kind, bool Mean = false>
struct ReduceLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getOperands()[0];
    auto resultType = cast<RankedTensorType>(op.getType());
    SmallVector<int64_t> axes = i64Array(op, "axes");
    Value r = buildReduce(rewriter, loc, input, axes, Kind);
    if (Mean) {
      Type elt = resultType.getElementType();
      Value count = reducedCount(rewriter, loc, input, axes, elt);
      r = elementwiseMap(
          rewriter, loc, r, [&](OpBuilder &b, Location l, Value v) -> Value {
            if (isFloat(elt))
              return arith::DivFOp::create(b, l, v, count);
            return arith::DivSIOp::create(b, l, v, safeDivisor(b, l, v, count));
          });
    }
    Value kept = keepDims(rewriter, loc, r, resultType);
    if (!kept) // unit dims only: buildReshape always finds a reassociation
      return rewriter.notifyMatchFailure(op, "cannot reinsert reduced dims");
    rewriter.replaceOp(op, kept);
    return success();
  }
};

struct ArgmaxLowering : public OpConversionPattern<ArgMaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ArgMaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getOperands()[0];
    auto inType = cast<RankedTensorType>(input.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t axis = i64Attr(op, "axis");
    int64_t rank = inType.getRank();
    Type elt = inType.getElementType();
    SmallVector<Value> dyn;
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iters;
    for (int64_t i = 0; i < rank; ++i) {
      iters.push_back(i == axis ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
      if (i == axis)
        continue;
      outExprs.push_back(rewriter.getAffineDimExpr(i));
      if (inType.isDynamicDim(i))
        dyn.push_back(tensor::DimOp::create(rewriter, loc, input, i));
    }
    auto valType = resultType.clone(elt);
    Value valInit =
        linalg::FillOp::create(
            rewriter, loc, reductionInit(rewriter, loc, ReduceKind::Max, elt),
            emptyTensor(rewriter, loc, valType, dyn))
            .getResult(0);
    Value idxInit =
        linalg::FillOp::create(
            rewriter, loc, zeroOf(rewriter, loc, resultType.getElementType()),
            emptyTensor(rewriter, loc, resultType, dyn))
            .getResult(0);
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, rewriter.getContext());
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank),
                                   outMap, outMap};
    Type idxType = resultType.getElementType();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valType, resultType}, ValueRange{input},
        ValueRange{valInit, idxInit}, maps, iters,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[1], bestIdx = args[2];
          Value i = linalg::IndexOp::create(b, l, axis);
          Value iCast = arith::IndexCastOp::create(b, l, idxType, i);
          // Strictly greater keeps the first maximal index; the first element
          // always wins so -inf / INT_MIN inputs still give index 0.
          Value gt = compareScalar(b, l, CmpPredicate::gt, x, best);
          if (isFloat(elt)) {
            // NaN counts as the largest value and the first NaN wins, as
            // in the runtime kernel and NumPy (reduce_max propagates NaN
            // too); ordered `gt` alone never picks a NaN.
            Value xIsNaN =
                arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, x, x);
            Value bestIsNumber = arith::CmpFOp::create(
                b, l, arith::CmpFPredicate::ORD, best, best);
            gt = arith::OrIOp::create(
                b, l, gt, arith::AndIOp::create(b, l, xIsNaN, bestIsNumber));
          }
          Value isFirst =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, i,
                                    arith::ConstantIndexOp::create(b, l, 0));
          Value take = arith::OrIOp::create(b, l, gt, isFirst);
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, take, x, best),
                         arith::SelectOp::create(b, l, take, iCast, bestIdx)});
        });
    rewriter.replaceOp(op, generic.getResult(1));
    return success();
  }
};

template <typename OpTy, bool Log>
struct SoftmaxLowering : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, buildSoftmax(rewriter, op.getLoc(),
                                        adaptor.getOperands()[0],
                                        i64Attr(op, "axis"), Log));
    return success();
  }
};

struct CrossEntropyLowering
    : public OpConversionPattern<SoftmaxCrossEntropyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxCrossEntropyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value labels = adaptor.getOperands()[0], logits = adaptor.getOperands()[1];
    int64_t axis = cast<RankedTensorType>(logits.getType()).getRank() - 1;
    Value ls = buildSoftmax(rewriter, loc, logits, axis, /*log=*/true);
    auto type = cast<RankedTensorType>(ls.getType());
    AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
    Value init = emptyTensor(rewriter, loc, type,
                             dynamicSizesFrom(rewriter, loc, type, ls));
    Value prod =
        buildGeneric(rewriter, loc, type, {labels, ls}, {id, id}, init,
                     [](OpBuilder &b, Location l, ValueRange args) -> Value {
                       return arith::NegFOp::create(
                           b, l, arith::MulFOp::create(b, l, args[0], args[1]));
                     });
    rewriter.replaceOp(
        op, buildReduce(rewriter, loc, prod, {axis}, ReduceKind::Sum));
    return success();
  }
};

/// sparse_softmax_cross_entropy: softmax_cross_entropy of the one-hot labels
/// (lowered by the pattern above; the labels were range-checked before).
struct SparseCrossEntropyLowering
    : public OpConversionPattern<SparseSoftmaxCrossEntropyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SparseSoftmaxCrossEntropyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto logitsType = cast<RankedTensorType>(adaptor.getLogits().getType());
    int64_t classes = logitsType.getDimSize(logitsType.getRank() - 1);
    SmallVector<int64_t> shape(
        cast<RankedTensorType>(adaptor.getLabels().getType()).getShape());
    shape.push_back(classes);
    auto oneHotType = RankedTensorType::get(shape, logitsType.getElementType());
    Value labels =
        OneHotOp::create(rewriter, op.getLoc(), oneHotType, adaptor.getLabels(),
                         rewriter.getI64IntegerAttr(classes));
    // Dynamic leading dims: the logits' type (equal at run time, checked).
    if (oneHotType != logitsType)
      labels =
          tensor::CastOp::create(rewriter, op.getLoc(), logitsType, labels);
    rewriter.replaceOpWithNewOp<SoftmaxCrossEntropyOp>(op, labels,
                                                       adaptor.getLogits());
    return success();
  }
};

} // namespace

void mlir::tfc::populateReductionToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ReduceLowering<ReduceSumOp, ReduceKind::Sum>,
               ReduceLowering<ReduceMeanOp, ReduceKind::Sum, /*Mean=*/true>,
               ReduceLowering<ReduceMaxOp, ReduceKind::Max>,
               ReduceLowering<ReduceMinOp, ReduceKind::Min>,
               ReduceLowering<ReduceProdOp, ReduceKind::Prod>, ArgmaxLowering,
               SoftmaxLowering<SoftmaxOp, false>,
               SoftmaxLowering<LogSoftmaxOp, true>, CrossEntropyLowering,
               SparseCrossEntropyLowering>(ctx);
}
