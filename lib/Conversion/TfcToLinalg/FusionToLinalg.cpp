//===- FusionToLinalg.cpp - tfc.fusion to one linalg.generic ----*- C++ -*-===//
//
// tfc-fuse's tfc.fusion regions become one linalg.generic each: the
// region's ops become its scalar body (ScalarOps.cpp), so a fused chain
// of elementwise ops and a trailing reduction run in one loop nest.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

/// tfc.fusion -> one linalg.generic over the fusion's iteration space: the
/// body's ops become the generic's scalar body, broadcasts become indexing
/// maps, splat constants scalars; an input fusion's reduction accumulates
/// into the output in the same loop nest.
struct FusionLowering : public OpConversionPattern<FusionOp> {
  using OpConversionPattern::OpConversionPattern;

  static std::optional<ReduceKind> reduceKind(Operation *op) {
    if (isa<ReduceSumOp, ReduceMeanOp>(op))
      return ReduceKind::Sum;
    if (isa<ReduceMaxOp>(op))
      return ReduceKind::Max;
    if (isa<ReduceMinOp>(op))
      return ReduceKind::Min;
    if (isa<ReduceProdOp>(op))
      return ReduceKind::Prod;
    return std::nullopt;
  }

  LogicalResult
  matchAndRewrite(FusionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Block &body = op.getBody().front();
    YieldOp yield = op.getYieldOp();
    Operation *reduction =
        op.getKind() == FusionKind::input ? yield->getPrevNode() : nullptr;
    auto domain = cast<RankedTensorType>(
        reduction ? reduction->getOperand(0).getType() : op.getType(0));
    int64_t rank = domain.getRank();
    MLIRContext *ctx = rewriter.getContext();

    // Every check before the first op is created (no rollback needed).
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<BlockArgument> usedArgs;
    Value shapeSource; // a direct input of the domain's shape
    for (BlockArgument arg : body.getArguments()) {
      if (arg.use_empty())
        continue;
      auto type = cast<RankedTensorType>(arg.getType());
      bool direct = llvm::any_of(
          arg.getUsers(), [](Operation *u) { return !isa<BroadcastToOp>(u); });
      if (direct) {
        if (type.getShape() != domain.getShape())
          return rewriter.notifyMatchFailure(
              op, "input used directly must have the iteration space's shape");
        maps.push_back(rewriter.getMultiDimIdentityMap(rank));
        if (!shapeSource)
          shapeSource = adaptor.getInputs()[arg.getArgNumber()];
      } else {
        for (Operation *u : arg.getUsers())
          if (cast<RankedTensorType>(u->getResult(0).getType()).getShape() !=
              domain.getShape())
            return rewriter.notifyMatchFailure(
                op, "broadcast inside a fusion must reach the iteration "
                    "space's shape");
        maps.push_back(broadcastMap(ctx, type, domain));
      }
      inputs.push_back(adaptor.getInputs()[arg.getArgNumber()]);
      usedArgs.push_back(arg);
    }
    if (!domain.hasStaticShape() && !shapeSource)
      return rewriter.notifyMatchFailure(
          op, "no input gives the dynamic sizes of the iteration space");
    std::optional<ReduceKind> kind;
    SmallVector<int64_t> axes;
    if (reduction) {
      kind = reduceKind(reduction);
      if (!kind)
        return rewriter.notifyMatchFailure(op, "unknown reduction");
      axes = i64Array(reduction, "axes");
    }

    auto dimSize = [&](int64_t d) -> Value {
      if (!domain.isDynamicDim(d))
        return arith::ConstantIndexOp::create(rewriter, loc,
                                              domain.getDimSize(d));
      return tensor::DimOp::create(rewriter, loc, shapeSource, d);
    };
    SmallVector<Value> outInits;
    SmallVector<utils::IteratorType> iters = parallel(rank);
    if (!reduction) {
      SmallVector<Value> dyn;
      for (int64_t d = 0; d < rank; ++d)
        if (domain.isDynamicDim(d))
          dyn.push_back(dimSize(d));
      for (Type t : op.getResultTypes()) {
        outInits.push_back(emptyTensor(
            rewriter, loc, cast<RankedTensorType>(t).clone(domain.getShape()),
            dyn));
        maps.push_back(rewriter.getMultiDimIdentityMap(rank));
      }
    } else {
      SmallVector<int64_t> outShape;
      SmallVector<Value> dyn;
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < rank; ++d) {
        if (llvm::is_contained(axes, d)) {
          iters[d] = utils::IteratorType::reduction;
          continue;
        }
        outShape.push_back(domain.getDimSize(d));
        exprs.push_back(rewriter.getAffineDimExpr(d));
        if (domain.isDynamicDim(d))
          dyn.push_back(dimSize(d));
      }
      Type elt = domain.getElementType();
      auto outType = RankedTensorType::get(outShape, elt);
      outInits.push_back(
          linalg::FillOp::create(rewriter, loc,
                                 reductionInit(rewriter, loc, *kind, elt),
                                 emptyTensor(rewriter, loc, outType, dyn))
              .getResult(0));
      maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
    }

    auto generic = linalg::GenericOp::create(
        rewriter, loc, ValueRange(outInits).getTypes(), inputs, outInits, maps,
        iters, [&](OpBuilder &b, Location l, ValueRange args) {
          IRMapping scalars;
          for (auto [arg, scalar] : llvm::zip(usedArgs, args))
            scalars.map(arg, scalar);
          Value acc = reduction ? args.back() : Value();
          for (Operation &inner : body.without_terminator()) {
            Location il = inner.getLoc();
            Value v;
            if (auto c = dyn_cast<ConstantOp>(inner)) {
              auto splat = cast<DenseElementsAttr>(c.getValue());
              v = arith::ConstantOp::create(
                  b, il, cast<TypedAttr>(splat.getSplatValue<Attribute>()));
            } else if (isa<BroadcastToOp>(inner)) {
              v = scalars.lookup(inner.getOperand(0));
            } else if (&inner == reduction) {
              v = combine(b, il, *kind, acc,
                          scalars.lookup(inner.getOperand(0)));
            } else {
              SmallVector<Value> operands =
                  llvm::map_to_vector(inner.getOperands(), [&](Value x) {
                    return scalars.lookup(x);
                  });
              Type elt = cast<RankedTensorType>(inner.getResult(0).getType())
                             .getElementType();
              v = buildScalarOp(&inner, b, il, operands, elt);
            }
            scalars.map(inner.getResult(0), v);
          }
          SmallVector<Value> yielded = llvm::map_to_vector(
              yield.getOperands(), [&](Value x) { return scalars.lookup(x); });
          linalg::YieldOp::create(b, l, yielded);
        });
    if (!reduction) {
      rewriter.replaceOp(op, generic.getResults());
      return success();
    }
    Value r = generic.getResult(0);
    if (isa<ReduceMeanOp>(reduction)) {
      Type elt = domain.getElementType();
      Value count = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (int64_t a : axes)
        count = arith::MulIOp::create(rewriter, loc, count, dimSize(a));
      Value asInt = arith::IndexCastOp::create(rewriter, loc,
                                               rewriter.getI64Type(), count);
      if (isFloat(elt))
        count = arith::SIToFPOp::create(rewriter, loc, elt, asInt);
      else if (elt.getIntOrFloatBitWidth() < 64)
        count = arith::TruncIOp::create(rewriter, loc, elt, asInt);
      else
        count = asInt;
      r = elementwiseMap(
          rewriter, loc, r, [&](OpBuilder &b, Location l, Value v) -> Value {
            if (isFloat(elt))
              return arith::DivFOp::create(b, l, v, count);
            return arith::DivSIOp::create(b, l, v, safeDivisor(b, l, v, count));
          });
    }
    auto resultType = cast<RankedTensorType>(op.getType(0));
    if (cast<RankedTensorType>(r.getType()) != resultType)
      r = keepDims(rewriter, loc, r, resultType);
    rewriter.replaceOp(op, r);
    return success();
  }
};

} // namespace

void mlir::tfc::populateFusionToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FusionLowering>(ctx);
}
