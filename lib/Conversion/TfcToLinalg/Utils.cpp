//===- Utils.cpp - Builders shared by the op families -----------*- C++ -*-===//
//
// The tensor and linalg.generic builders that more than one op family of
// convert-tfc-to-linalg uses (empty tensors, generics, broadcast maps,
// reshapes, keepdims, attribute reads), defined once here.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Dynamic sizes of `type`, read from `like` (same rank, same dynamic dims).
SmallVector<Value> linalg_lowering::dynamicSizesFrom(OpBuilder &b, Location loc,
                                                     RankedTensorType type,
                                                     Value like) {
  SmallVector<Value> sizes;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, like, i));
  return sizes;
}

Value linalg_lowering::emptyTensor(OpBuilder &b, Location loc,
                                   RankedTensorType type, ValueRange dynSizes) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynSizes);
}

SmallVector<utils::IteratorType> linalg_lowering::parallel(int64_t n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

/// A linalg.generic over `resultType` whose inputs are indexed by `maps` and
/// whose body is `body(args) -> result scalar`.
Value linalg_lowering::buildGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType, ValueRange inputs,
    ArrayRef<AffineMap> inputMaps, Value init,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
      parallel(resultType.getRank()),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = body(nb, nloc, args.drop_back());
        linalg::YieldOp::create(nb, nloc, v);
      });
  return generic.getResult(0);
}

/// Map from the iteration space of `resultRank` dims to an operand broadcast
/// NumPy-style into it (trailing alignment; size-1 dims read index 0).
AffineMap linalg_lowering::broadcastMap(MLIRContext *ctx,
                                        RankedTensorType operandType,
                                        RankedTensorType resultType) {
  int64_t offset = resultType.getRank() - operandType.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operandType.getRank(); ++i) {
    int64_t od = operandType.getDimSize(i);
    int64_t rd = resultType.getDimSize(i + offset);
    if (od == 1 && rd != 1)
      exprs.push_back(getAffineConstantExpr(0, ctx));
    else
      exprs.push_back(getAffineDimExpr(i + offset, ctx));
  }
  return AffineMap::get(resultType.getRank(), 0, exprs, ctx);
}

/// Reshape between two shapes with equal element counts.
Value linalg_lowering::buildReshape(OpBuilder &b, Location loc, Value source,
                                    RankedTensorType resultType) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  if (sourceType == resultType)
    return source;
  // Rank 0 <-> all-unit shapes: an empty reassociation (checked first: the
  // generic path below would build an empty output shape for it). One
  // element means every dim of the ranked side is 1, so a dynamic dim there
  // goes through the all-ones static type with a tensor.cast (an empty
  // reassociation needs static unit dims).
  auto unitDimsOnly = [](RankedTensorType t) {
    return llvm::all_of(t.getShape(), [](int64_t d) {
      return d == 1 || ShapedType::isDynamic(d);
    });
  };
  if ((sourceType.getRank() == 0 && unitDimsOnly(resultType)) ||
      (resultType.getRank() == 0 && unitDimsOnly(sourceType))) {
    SmallVector<ReassociationIndices> empty;
    auto onesLike = [](RankedTensorType t) {
      return RankedTensorType::get(SmallVector<int64_t>(t.getRank(), 1),
                                   t.getElementType());
    };
    if (resultType.getRank() == 0) {
      Value ones = source;
      if (!sourceType.hasStaticShape())
        ones = tensor::CastOp::create(b, loc, onesLike(sourceType), source);
      return tensor::CollapseShapeOp::create(b, loc, resultType, ones, empty);
    }
    SmallVector<OpFoldResult> outShape(resultType.getRank(), b.getIndexAttr(1));
    Value ones = tensor::ExpandShapeOp::create(b, loc, onesLike(resultType),
                                               source, empty, outShape);
    if (resultType.hasStaticShape())
      return ones;
    return tensor::CastOp::create(b, loc, resultType, ones);
  }
  // Unit-dim insertion/removal and other regroupings that keep dims:
  // expand/collapse handle dynamic dims without a shape computation.
  if (auto reassoc =
          getReassociationIndicesForReshape(sourceType, resultType)) {
    if (sourceType.getRank() > resultType.getRank())
      return tensor::CollapseShapeOp::create(b, loc, resultType, source,
                                             *reassoc);
    if (sourceType.getRank() < resultType.getRank()) {
      SmallVector<OpFoldResult> outShape;
      bool expressible = true;
      // A dynamic output dim is the source dim of its group divided by the
      // group's static dims (not the whole source dim: ? -> 4x?x1 has
      // ? = n / 4). Two dynamic dims in one group are ambiguous.
      for (auto [srcDim, group] : llvm::enumerate(*reassoc)) {
        int64_t staticProduct = 1, dynamicDims = 0;
        for (int64_t d : group) {
          if (resultType.isDynamicDim(d))
            ++dynamicDims;
          else
            staticProduct *= resultType.getDimSize(d);
        }
        expressible &= dynamicDims <= 1;
        for (int64_t d : group) {
          if (!resultType.isDynamicDim(d)) {
            outShape.push_back(b.getIndexAttr(resultType.getDimSize(d)));
            continue;
          }
          Value size = tensor::DimOp::create(b, loc, source, srcDim);
          if (staticProduct != 1)
            size = arith::DivUIOp::create(
                b, loc, size,
                arith::ConstantIndexOp::create(b, loc, staticProduct));
          outShape.push_back(size);
        }
      }
      if (expressible)
        return tensor::ExpandShapeOp::create(b, loc, resultType, source,
                                             *reassoc, outShape);
    }
  }
  // General case: tensor.reshape with an explicit shape operand. A single
  // dynamic result dim is numel / (product of static dims). With several the
  // size of each is ambiguous (the interpreter refuses them too): no result,
  // rather than giving each the whole quotient and reading out of bounds.
  if (llvm::count_if(resultType.getShape(), ShapedType::isDynamic) > 1)
    return Value();
  Value numel = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t i = 0; i < sourceType.getRank(); ++i)
    numel = arith::MulIOp::create(b, loc, numel,
                                  tensor::DimOp::create(b, loc, source, i));
  int64_t staticProduct = 1;
  for (int64_t d : resultType.getShape())
    if (!ShapedType::isDynamic(d))
      staticProduct *= d;
  SmallVector<Value> dims;
  for (int64_t d : resultType.getShape()) {
    Value v;
    if (ShapedType::isDynamic(d))
      v = arith::DivUIOp::create(
          b, loc, numel,
          arith::ConstantIndexOp::create(b, loc,
                                         std::max<int64_t>(staticProduct, 1)));
    else
      v = arith::ConstantIndexOp::create(b, loc, d);
    dims.push_back(
        arith::IndexCastOp::create(b, loc, b.getI64Type(), v).getResult());
  }
  Value shape = tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({resultType.getRank()}, b.getI64Type()),
      dims);
  return tensor::ReshapeOp::create(b, loc, resultType, source, shape);
}

Value linalg_lowering::elementwiseMap(
    OpBuilder &b, Location loc, Value x,
    function_ref<Value(OpBuilder &, Location, Value)> fn, Type resultElt) {
  auto type = cast<RankedTensorType>(x.getType());
  auto outType = resultElt ? type.clone(resultElt) : type;
  Value init =
      emptyTensor(b, loc, outType, dynamicSizesFrom(b, loc, outType, x));
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return buildGeneric(b, loc, outType, {x}, {id}, init,
                      [&](OpBuilder &nb, Location nloc, ValueRange args) {
                        return fn(nb, nloc, args[0]);
                      });
}

/// Inserts the unit dims of `axes` back into a reduced value (keepdims).
Value linalg_lowering::keepDims(OpBuilder &b, Location loc, Value reduced,
                                RankedTensorType resultType) {
  return buildReshape(b, loc, reduced, resultType);
}

SmallVector<int64_t> linalg_lowering::i64Array(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return SmallVector<int64_t>(attr.asArrayRef());
  return {};
}
int64_t linalg_lowering::i64Attr(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

/// Extracts the i1 of a rank-0 tensor<i1>.
Value linalg_lowering::extractPredicate(OpBuilder &b, Location loc,
                                        Value pred) {
  return tensor::ExtractOp::create(b, loc, pred, ValueRange{});
}
