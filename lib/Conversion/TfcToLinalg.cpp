//===- TfcToLinalg.cpp - Lower tfc to linalg/tensor/arith/scf ---*- C++ -*-===//
//
// tfc values are builtin tensors, so this lowering keeps types and rewrites
// ops: elementwise ops and broadcasts become linalg.generic (fusable by
// upstream elementwise fusion), reductions become linalg.generic with
// reduction iterators, matmul becomes linalg.(batch_)matmul, shape ops become
// tensor reshapes/slices, tfc.if/while become scf.if/while.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/Passes.h"
#include "tfc/Conversion/TfcStackToRuntime.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_CONVERTTFCTOLINALGPASS
#include "tfc/Conversion/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using namespace mlir::tfc;

//===----------------------------------------------------------------------===//
// Scalar bodies of elementwise ops
//===----------------------------------------------------------------------===//

static bool isFloat(Type t) { return isa<FloatType>(t); }

static Value zeroOf(OpBuilder &b, Location loc, Type t) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
}
static Value oneOf(OpBuilder &b, Location loc, Type t) {
  if (isFloat(t))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 1.0));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 1));
}

/// Integer divisor that cannot trap: 0 and (INT_MIN, -1) lanes divide by 1.
static Value safeDivisor(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type t = rhs.getType();
  unsigned width = t.getIntOrFloatBitWidth();
  Value zero = zeroOf(b, loc, t);
  Value one = oneOf(b, loc, t);
  Value minusOne = arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, -1));
  Value intMin = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(t, APInt::getSignedMinValue(width)));
  Value isZero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, zero);
  Value overflow = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lhs, intMin),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, rhs, minusOne));
  Value bad = arith::OrIOp::create(b, loc, isZero, overflow);
  return arith::SelectOp::create(b, loc, bad, one, rhs);
}

/// Python's modulo: the result takes the sign of the divisor.
static Value pythonMod(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type t = lhs.getType();
  Value zero = zeroOf(b, loc, t);
  Value rem, remNeg, rhsNeg, remNonZero;
  if (isFloat(t)) {
    rem = arith::RemFOp::create(b, loc, lhs, rhs);
    remNeg =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rem, zero);
    rhsNeg =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, rhs, zero);
    remNonZero =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::ONE, rem, zero);
  } else {
    rem = arith::RemSIOp::create(b, loc, lhs, safeDivisor(b, loc, lhs, rhs));
    remNeg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rem, zero);
    rhsNeg =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rhs, zero);
    remNonZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rem, zero);
  }
  Value signsDiffer = arith::XOrIOp::create(b, loc, remNeg, rhsNeg);
  Value adjust = arith::AndIOp::create(b, loc, signsDiffer, remNonZero);
  Value adjusted = isFloat(t) ? Value(arith::AddFOp::create(b, loc, rem, rhs))
                              : Value(arith::AddIOp::create(b, loc, rem, rhs));
  return arith::SelectOp::create(b, loc, adjust, adjusted, rem);
}

static Value castScalar(OpBuilder &b, Location loc, Value x, Type to) {
  Type from = x.getType();
  if (from == to)
    return x;
  if (to.isInteger(1)) {
    Value zero = zeroOf(b, loc, from);
    if (isFloat(from))
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, x, zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x, zero);
  }
  bool fromBool = from.isInteger(1);
  if (isFloat(from) && isFloat(to)) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, x);
    return arith::TruncFOp::create(b, loc, to, x);
  }
  if (isFloat(from))
    return arith::FPToSIOp::create(b, loc, to, x);
  if (isFloat(to))
    return fromBool ? Value(arith::UIToFPOp::create(b, loc, to, x))
                    : Value(arith::SIToFPOp::create(b, loc, to, x));
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return fromBool ? Value(arith::ExtUIOp::create(b, loc, to, x))
                    : Value(arith::ExtSIOp::create(b, loc, to, x));
  return arith::TruncIOp::create(b, loc, to, x);
}

static Value compareScalar(OpBuilder &b, Location loc, CmpPredicate pred,
                           Value lhs, Value rhs) {
  if (isFloat(lhs.getType())) {
    arith::CmpFPredicate p = arith::CmpFPredicate::OEQ;
    switch (pred) {
    case CmpPredicate::eq:
      p = arith::CmpFPredicate::OEQ;
      break;
    case CmpPredicate::ne:
      p = arith::CmpFPredicate::UNE;
      break;
    case CmpPredicate::lt:
      p = arith::CmpFPredicate::OLT;
      break;
    case CmpPredicate::le:
      p = arith::CmpFPredicate::OLE;
      break;
    case CmpPredicate::gt:
      p = arith::CmpFPredicate::OGT;
      break;
    case CmpPredicate::ge:
      p = arith::CmpFPredicate::OGE;
      break;
    }
    return arith::CmpFOp::create(b, loc, p, lhs, rhs);
  }
  bool isBool = lhs.getType().isInteger(1);
  arith::CmpIPredicate p = arith::CmpIPredicate::eq;
  switch (pred) {
  case CmpPredicate::eq:
    p = arith::CmpIPredicate::eq;
    break;
  case CmpPredicate::ne:
    p = arith::CmpIPredicate::ne;
    break;
  case CmpPredicate::lt:
    p = isBool ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case CmpPredicate::le:
    p = isBool ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case CmpPredicate::gt:
    p = isBool ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case CmpPredicate::ge:
    p = isBool ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  }
  return arith::CmpIOp::create(b, loc, p, lhs, rhs);
}

Value mlir::tfc::buildScalarOp(Operation *op, OpBuilder &b, Location loc,
                               ValueRange args, Type resultElementType) {
  Type t = args.empty() ? resultElementType : args[0].getType();
  bool f = isFloat(t);
  auto binary = [&](auto floatOp, auto intOp) -> Value {
    using F = decltype(floatOp);
    using I = decltype(intOp);
    if (f)
      return F::create(b, loc, args[0], args[1]);
    return I::create(b, loc, args[0], args[1]);
  };
  return llvm::TypeSwitch<Operation *, Value>(op)
      // Unary.
      .Case([&](NegOp) -> Value {
        if (f)
          return arith::NegFOp::create(b, loc, args[0]);
        return arith::SubIOp::create(b, loc, zeroOf(b, loc, t), args[0]);
      })
      .Case([&](AbsOp) -> Value {
        if (f)
          return math::AbsFOp::create(b, loc, args[0]);
        return math::AbsIOp::create(b, loc, args[0]);
      })
      .Case(
          [&](ExpOp) -> Value { return math::ExpOp::create(b, loc, args[0]); })
      .Case(
          [&](LogOp) -> Value { return math::LogOp::create(b, loc, args[0]); })
      .Case([&](Log1pOp) -> Value {
        return math::Log1pOp::create(b, loc, args[0]);
      })
      .Case([&](FloorOp) -> Value {
        return math::FloorOp::create(b, loc, args[0]);
      })
      .Case([&](SqrtOp) -> Value {
        return math::SqrtOp::create(b, loc, args[0]);
      })
      .Case(
          [&](SinOp) -> Value { return math::SinOp::create(b, loc, args[0]); })
      .Case(
          [&](CosOp) -> Value { return math::CosOp::create(b, loc, args[0]); })
      .Case([&](TanhOp) -> Value {
        return math::TanhOp::create(b, loc, args[0]);
      })
      .Case([&](SquareOp) -> Value {
        if (f)
          return arith::MulFOp::create(b, loc, args[0], args[0]);
        return arith::MulIOp::create(b, loc, args[0], args[0]);
      })
      .Case([&](SigmoidOp) -> Value {
        // 1 / (1 + exp(-x))
        Value negX = arith::NegFOp::create(b, loc, args[0]);
        Value e = math::ExpOp::create(b, loc, negX);
        Value one = oneOf(b, loc, t);
        return arith::DivFOp::create(b, loc, one,
                                     arith::AddFOp::create(b, loc, one, e));
      })
      .Case([&](ReluOp) -> Value {
        Value zero = zeroOf(b, loc, t);
        if (f) {
          // x < 0 ? 0 : x. The dialect says NaN stays NaN; maxnumf(NaN, 0)
          // is 0. This also keeps -0.0, as the runtime kernel does.
          Value negative = arith::CmpFOp::create(
              b, loc, arith::CmpFPredicate::OLT, args[0], zero);
          return arith::SelectOp::create(b, loc, negative, zero, args[0]);
        }
        return arith::MaxSIOp::create(b, loc, args[0], zero);
      })
      .Case([&](LogicalNotOp) -> Value {
        Value trueV = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
        return arith::XOrIOp::create(b, loc, args[0], trueV);
      })
      .Case([&](StopGradientOp) -> Value { return args[0]; })
      // Binary.
      .Case([&](AddOp) { return binary(arith::AddFOp(), arith::AddIOp()); })
      .Case([&](SubOp) { return binary(arith::SubFOp(), arith::SubIOp()); })
      .Case([&](MulOp) { return binary(arith::MulFOp(), arith::MulIOp()); })
      .Case([&](DivOp) -> Value {
        return arith::DivFOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](MaximumOp) {
        return binary(arith::MaximumFOp(), arith::MaxSIOp());
      })
      .Case([&](MinimumOp) {
        return binary(arith::MinimumFOp(), arith::MinSIOp());
      })
      .Case([&](PowOp) -> Value {
        if (f)
          return math::PowFOp::create(b, loc, args[0], args[1]);
        return math::IPowIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](FloorDivOp) -> Value {
        if (f)
          return math::FloorOp::create(
              b, loc, arith::DivFOp::create(b, loc, args[0], args[1]));
        return arith::FloorDivSIOp::create(
            b, loc, args[0], safeDivisor(b, loc, args[0], args[1]));
      })
      .Case([&](ModOp) { return pythonMod(b, loc, args[0], args[1]); })
      .Case([&](LogicalAndOp) -> Value {
        return arith::AndIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](LogicalOrOp) -> Value {
        return arith::OrIOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](CmpOp cmp) {
        return compareScalar(b, loc, cmp.getPredicate(), args[0], args[1]);
      })
      .Case([&](SelectOp) -> Value {
        return arith::SelectOp::create(b, loc, args[0], args[1], args[2]);
      })
      .Case([&](CastOp) {
        return castScalar(b, loc, args[0], resultElementType);
      })
      .Default([](Operation *) { return Value(); });
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Dynamic sizes of `type`, read from `like` (same rank, same dynamic dims).
static SmallVector<Value> dynamicSizesFrom(OpBuilder &b, Location loc,
                                           RankedTensorType type, Value like) {
  SmallVector<Value> sizes;
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(tensor::DimOp::create(b, loc, like, i));
  return sizes;
}

static Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                         ValueRange dynSizes) {
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynSizes);
}

static SmallVector<utils::IteratorType> parallel(int64_t n) {
  return SmallVector<utils::IteratorType>(n, utils::IteratorType::parallel);
}

/// A linalg.generic over `resultType` whose inputs are indexed by `maps` and
/// whose body is `body(args) -> result scalar`.
static Value
buildGeneric(OpBuilder &b, Location loc, RankedTensorType resultType,
             ValueRange inputs, ArrayRef<AffineMap> inputMaps, Value init,
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
static AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType operandType,
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
static Value buildReshape(OpBuilder &b, Location loc, Value source,
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

/// Identity of a reduction `kind` for element type `t`.
enum class ReduceKind { Sum, Prod, Max, Min };
static Value reductionInit(OpBuilder &b, Location loc, ReduceKind kind,
                           Type t) {
  if (auto ft = dyn_cast<FloatType>(t)) {
    const llvm::fltSemantics &sem = ft.getFloatSemantics();
    APFloat v(0.0);
    switch (kind) {
    case ReduceKind::Sum:
      v = APFloat::getZero(sem);
      break;
    case ReduceKind::Prod:
      v = APFloat::getOne(sem);
      break;
    case ReduceKind::Max:
      v = APFloat::getInf(sem, /*Negative=*/true);
      break;
    case ReduceKind::Min:
      v = APFloat::getInf(sem, /*Negative=*/false);
      break;
    }
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, v));
  }
  unsigned w = t.getIntOrFloatBitWidth();
  APInt v;
  switch (kind) {
  case ReduceKind::Sum:
    v = APInt(w, 0);
    break;
  case ReduceKind::Prod:
    v = APInt(w, 1);
    break;
  case ReduceKind::Max:
    v = APInt::getSignedMinValue(w);
    break;
  case ReduceKind::Min:
    v = APInt::getSignedMaxValue(w);
    break;
  }
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, v));
}

static Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value acc,
                     Value x) {
  bool f = isFloat(x.getType());
  switch (kind) {
  case ReduceKind::Sum:
    return f ? Value(arith::AddFOp::create(b, loc, x, acc))
             : Value(arith::AddIOp::create(b, loc, x, acc));
  case ReduceKind::Prod:
    return f ? Value(arith::MulFOp::create(b, loc, x, acc))
             : Value(arith::MulIOp::create(b, loc, x, acc));
  case ReduceKind::Max:
    return f ? Value(arith::MaximumFOp::create(b, loc, x, acc))
             : Value(arith::MaxSIOp::create(b, loc, x, acc));
  case ReduceKind::Min:
    return f ? Value(arith::MinimumFOp::create(b, loc, x, acc))
             : Value(arith::MinSIOp::create(b, loc, x, acc));
  }
  return acc;
}

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

static Value
elementwiseMap(OpBuilder &b, Location loc, Value x,
               function_ref<Value(OpBuilder &, Location, Value)> fn,
               Type resultElt = {}) {
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

/// Inserts the unit dims of `axes` back into a reduced value (keepdims).
static Value keepDims(OpBuilder &b, Location loc, Value reduced,
                      RankedTensorType resultType) {
  return buildReshape(b, loc, reduced, resultType);
}

static SmallVector<int64_t> i64Array(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return SmallVector<int64_t>(attr.asArrayRef());
  return {};
}
static int64_t i64Attr(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return 0;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

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
    // Dynamic result dims come from the aligned (non-broadcast) input dim.
    SmallVector<Value> dyn;
    int64_t offset = resultType.getRank() - inType.getRank();
    for (int64_t i = 0; i < resultType.getRank(); ++i) {
      if (!resultType.isDynamicDim(i))
        continue;
      if (i < offset)
        return rewriter.notifyMatchFailure(
            op, "dynamic result dim with no input dim to take its size from");
      dyn.push_back(tensor::DimOp::create(rewriter, loc, input, i - offset));
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

/// 2-d float: linalg.matmul. Otherwise
/// C[b.., i, j] += A[b.., i, k] * B[b.., k, j] as a linalg.generic whose loops
/// run (batch.., i, k, j): the innermost loop walks rows of B and C
/// contiguously, so LLVM vectorizes it (linalg.matmul's i, j, k order leaves
/// a strided reduction innermost, about 3x slower here).
struct MatmulLowering : public OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs = adaptor.getOperands()[0], rhs = adaptor.getOperands()[1];
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t rank = resultType.getRank();
    if (rank < 2)
      return rewriter.notifyMatchFailure(op, "matmul needs rank >= 2");
    Type elt = resultType.getElementType();
    int64_t batch = rank - 2;
    // Dynamic result dims: batch and i from lhs, j from rhs.
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < rank; ++d)
      if (resultType.isDynamicDim(d))
        dyn.push_back(
            tensor::DimOp::create(rewriter, loc, d == rank - 1 ? rhs : lhs, d));
    Value init =
        linalg::FillOp::create(rewriter, loc, zeroOf(rewriter, loc, elt),
                               emptyTensor(rewriter, loc, resultType, dyn))
            .getResult(0);
    // 2-d float matmuls stay named: on buffers tfc-linalg-to-blas sends the
    // large ones to OpenBLAS and tfc-linalg-to-loops reorders the rest.
    if (rank == 2 && (elt.isF32() || elt.isF64())) {
      rewriter.replaceOpWithNewOp<linalg::MatmulOp>(
          op, TypeRange{resultType}, ValueRange{lhs, rhs}, ValueRange{init});
      return success();
    }
    // Iteration dims: batch..., i, k, j.
    MLIRContext *ctx = rewriter.getContext();
    int64_t nLoops = rank + 1;
    SmallVector<AffineExpr> b, a, c;
    for (int64_t d = 0; d < batch; ++d)
      b.push_back(getAffineDimExpr(d, ctx));
    AffineExpr i = getAffineDimExpr(batch, ctx),
               k = getAffineDimExpr(batch + 1, ctx),
               j = getAffineDimExpr(batch + 2, ctx);
    SmallVector<AffineExpr> lhsExprs(b), rhsExprs(b), outExprs(b);
    lhsExprs.append({i, k});
    rhsExprs.append({k, j});
    outExprs.append({i, j});
    SmallVector<AffineMap> maps = {AffineMap::get(nLoops, 0, lhsExprs, ctx),
                                   AffineMap::get(nLoops, 0, rhsExprs, ctx),
                                   AffineMap::get(nLoops, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iters(batch + 1,
                                           utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    iters.push_back(utils::IteratorType::parallel);
    bool isF = isFloat(elt);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{lhs, rhs},
        ValueRange{init}, maps, iters,
        [&](OpBuilder &nb, Location nloc, ValueRange args) {
          Value prod =
              isF ? Value(arith::MulFOp::create(nb, nloc, args[0], args[1]))
                  : Value(arith::MulIOp::create(nb, nloc, args[0], args[1]));
          Value sum =
              isF ? Value(arith::AddFOp::create(nb, nloc, args[2], prod))
                  : Value(arith::AddIOp::create(nb, nloc, args[2], prod));
          linalg::YieldOp::create(nb, nloc, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

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

/// Extracts the i1 of a rank-0 tensor<i1>.
static Value extractPredicate(OpBuilder &b, Location loc, Value pred) {
  return tensor::ExtractOp::create(b, loc, pred, ValueRange{});
}

struct IfLowering : public OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value cond = extractPredicate(rewriter, loc, adaptor.getOperands()[0]);
    auto ifOp = scf::IfOp::create(rewriter, loc, op.getResultTypes(), cond,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op->getRegion(0), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op->getRegion(1), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct WhileLowering : public OpConversionPattern<WhileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(WhileOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto whileOp = scf::WhileOp::create(
        rewriter, op.getLoc(), op.getResultTypes(), adaptor.getOperands());
    rewriter.inlineRegionBefore(op->getRegion(0), whileOp.getBefore(),
                                whileOp.getBefore().end());
    rewriter.inlineRegionBefore(op->getRegion(1), whileOp.getAfter(),
                                whileOp.getAfter().end());
    // MLIR erases side-effect-free scf.while loops whose results are unused
    // or invariant, also ones that never end. An empty asm statement with
    // side effects (no instructions) keeps the loop, as in tfc.while.
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&whileOp.getBefore().front());
      auto marker = LLVM::InlineAsmOp::create(
          rewriter, op.getLoc(), TypeRange(), ValueRange(), "", "",
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None, LLVM::AsmDialectAttr(),
          ArrayAttr());
      (void)marker;
    }
    rewriter.replaceOp(op, whileOp.getResults());
    return success();
  }
};

struct YieldLowering : public OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getOperands());
    return success();
  }
};

struct ConditionLowering : public OpConversionPattern<ConditionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConditionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    Value cond = extractPredicate(rewriter, op.getLoc(), operands[0]);
    rewriter.replaceOpWithNewOp<scf::ConditionOp>(op, cond,
                                                  operands.drop_front());
    return success();
  }
};

/// The runtime function `name` (declared once per module).
static func::FuncOp getOrInsertRuntimeFunc(OpBuilder &b, Operation *anchor,
                                           StringRef name, FunctionType type) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, anchor->getLoc(), name, type);
  f.setPrivate();
  return f;
}

/// A pointer to a NUL-terminated global holding `text`.
static Value globalString(OpBuilder &b, Location loc, Operation *anchor,
                          StringRef text) {
  auto module = anchor->getParentOfType<ModuleOp>();
  std::string name;
  for (unsigned i = 0;; ++i) {
    name = ("__tfc_str_" + Twine(i)).str();
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    if (auto v = dyn_cast_or_null<StringAttr>(existing.getValueOrNull()))
      if (v.getValue().drop_back() == text)
        return LLVM::AddressOfOp::create(b, loc, existing);
  }
  std::string withNul = text.str();
  withNul.push_back('\0');
  return LLVM::createGlobalString(loc, b, name, withNul,
                                  LLVM::Linkage::Internal);
}

static int32_t dtypeCode(Type elt) {
  // Matches tfc::DType's order: Bool, Int32, Int64, Float32, Float64.
  if (elt.isInteger(1))
    return 0;
  if (elt.isInteger(32))
    return 1;
  if (elt.isInteger(64))
    return 2;
  if (elt.isF32())
    return 3;
  return 4;
}

/// tfc.print "label" %a, %b -> one runtime call per tensor (index, count).
struct PrintLowering : public OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto label = op->getAttrOfType<StringAttr>("label");
    Value labelPtr =
        globalString(rewriter, loc, op, label ? label.getValue() : "");
    ValueRange operands = adaptor.getOperands();
    auto i32 = rewriter.getI32Type();
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value count = arith::ConstantIntOp::create(rewriter, loc, i32,
                                               (int64_t)operands.size());
    if (operands.empty()) {
      auto fnType = FunctionType::get(rewriter.getContext(),
                                      {ptrType, i32, i32, i32}, {});
      auto fn =
          getOrInsertRuntimeFunc(rewriter, op, "tfc_rt_print_label", fnType);
      Value zero = arith::ConstantIntOp::create(rewriter, loc, i32, 0);
      func::CallOp::create(rewriter, loc, fn,
                           ValueRange{labelPtr, zero, count, zero});
    }
    for (auto [i, v] : llvm::enumerate(operands)) {
      auto type = cast<RankedTensorType>(v.getType());
      Type elt = type.getElementType();
      auto unranked = UnrankedTensorType::get(elt);
      std::string name = "tfc_rt_print_tensor_";
      llvm::raw_string_ostream(name) << elt;
      auto fnType = FunctionType::get(rewriter.getContext(),
                                      {ptrType, i32, i32, i32, unranked}, {});
      auto fn = getOrInsertRuntimeFunc(rewriter, op, name, fnType);
      // The runtime only reads the tensor: no copy before the call.
      fn.setArgAttr(4, "bufferization.access", rewriter.getStringAttr("read"));
      Value cast = tensor::CastOp::create(rewriter, loc, unranked, v);
      Value idx = arith::ConstantIntOp::create(rewriter, loc, i32, (int64_t)i);
      Value code =
          arith::ConstantIntOp::create(rewriter, loc, i32, dtypeCode(elt));
      func::CallOp::create(rewriter, loc, fn,
                           ValueRange{labelPtr, idx, count, code, cast});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// tfc.assert %pred, "msg" -> call @tfc_rt_assert(i1, ptr). The runtime
/// records the first failure; the JIT turns it into tfc::RuntimeError.
struct AssertLowering : public OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto msg = op->getAttrOfType<StringAttr>("message");
    std::string text = msg ? msg.getValue().str() : std::string();
    // Carry the user's source line into the runtime message.
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
      text += " (at " + fileLoc.getFilename().str() + ":" +
              std::to_string(fileLoc.getLine()) + ")";
    Value msgPtr = globalString(rewriter, loc, op, text);
    Value pred = extractPredicate(rewriter, loc, adaptor.getOperands()[0]);
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto fnType = FunctionType::get(rewriter.getContext(),
                                    {rewriter.getI1Type(), ptrType}, {});
    auto fn = getOrInsertRuntimeFunc(rewriter, op, "tfc_rt_assert", fnType);
    func::CallOp::create(rewriter, loc, fn, ValueRange{pred, msgPtr});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Calls tfc_rt_check_failed(kind, msg, count, v0..v7) under `scf.if !ok`:
/// the passing path is one compare and branch. The runtime stops the call.
static void emitCheckFailure(OpBuilder &b, Location loc, Operation *anchor,
                             Value ok, CheckKind kind, StringRef message,
                             ValueRange values) {
  constexpr unsigned kMaxValues = 8; // the runtime entry point's arity
  auto i32 = b.getI32Type();
  auto i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  SmallVector<Type> argTypes = {i32, ptrType, i64};
  argTypes.append(kMaxValues, i64);
  auto fn =
      getOrInsertRuntimeFunc(b, anchor, "tfc_rt_check_failed",
                             FunctionType::get(b.getContext(), argTypes, {}));
  Value failed = arith::XOrIOp::create(
      b, loc, ok, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value msgPtr = globalString(b, loc, anchor, message);
  SmallVector<Value> args = {
      arith::ConstantIntOp::create(b, loc, i32, static_cast<int64_t>(kind)),
      msgPtr,
      arith::ConstantIntOp::create(b, loc, i64, (int64_t)values.size())};
  for (unsigned i = 0; i < kMaxValues; ++i)
    args.push_back(
        i < values.size()
            ? Value(arith::IndexCastOp::create(b, loc, i64, values[i]))
            : Value(arith::ConstantIntOp::create(b, loc, i64, 0)));
  func::CallOp::create(b, loc, fn, args);
}

/// tfc.check -> a call of the runtime when the condition is false.
struct CheckLowering : public OpConversionPattern<CheckOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CheckOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitCheckFailure(rewriter, op.getLoc(), op, adaptor.getOk(), op.getKind(),
                     op.getMessage(), adaptor.getValues());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tfc.check_elements -> an OR-reduction of "element fails" over the tensor
/// (flattened), then a scalar check. An scf.for carrying the flag in a
/// register, no early exit: LLVM vectorizes it (a linalg reduction into a
/// rank-0 buffer stored the flag every iteration, which kept it scalar).
struct CheckElementsLowering : public OpConversionPattern<CheckElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CheckElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    auto type = cast<RankedTensorType>(x.getType());
    ElementPredicate pred = op.getPredicate();
    auto isBad = [&](OpBuilder &b, Location l, Value v) -> Value {
      return arith::CmpIOp::create(b, l,
                                   pred == ElementPredicate::nonzero
                                       ? arith::CmpIPredicate::eq
                                       : arith::CmpIPredicate::slt,
                                   v, zeroOf(b, l, v.getType()));
    };
    Value anyBad;
    if (type.getRank() == 0) {
      anyBad = isBad(rewriter, loc,
                     tensor::ExtractOp::create(rewriter, loc, x, ValueRange{}));
    } else {
      Value flat = x;
      if (type.getRank() > 1) {
        int64_t n = type.hasStaticShape() ? type.getNumElements()
                                          : ShapedType::kDynamic;
        SmallVector<ReassociationIndices> all(1);
        for (int64_t d = 0; d < type.getRank(); ++d)
          all[0].push_back(d);
        flat = tensor::CollapseShapeOp::create(
            rewriter, loc, RankedTensorType::get({n}, type.getElementType()), x,
            all);
      }
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value n = tensor::DimOp::create(rewriter, loc, flat, 0);
      Value init =
          arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(false));
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, n, one, ValueRange{init},
          [&](OpBuilder &b, Location l, Value i, ValueRange acc) {
            Value v = tensor::ExtractOp::create(b, l, flat, ValueRange{i});
            Value bad = arith::OrIOp::create(b, l, acc[0], isBad(b, l, v));
            scf::YieldOp::create(b, l, bad);
          });
      anyBad = loop.getResult(0);
    }
    Value ok = arith::XOrIOp::create(
        rewriter, loc, anyBad,
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    emitCheckFailure(rewriter, loc, op, ok, CheckKind::runtime, op.getMessage(),
                     {});
    rewriter.eraseOp(op);
    return success();
  }
};

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

struct ConvertTfcToLinalgPass
    : public tfc::impl::ConvertTfcToLinalgPassBase<ConvertTfcToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect, func::FuncDialect,
                           LLVM::LLVMDialect>();
    target.addIllegalDialect<TfcDialect>();
    RewritePatternSet patterns(ctx);
    populateTfcToLinalgPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::tfc::populateTfcToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLowering>(ctx);
  patterns.add<
      ConstantLowering, BroadcastToLowering, MatmulLowering, TransposeLowering,
      ReshapeLikeLowering<ReshapeOp>, ReshapeLikeLowering<ExpandDimsOp>,
      ReshapeLikeLowering<SqueezeOp>, ConcatLowering, SliceLowering,
      ReduceLowering<ReduceSumOp, ReduceKind::Sum>,
      ReduceLowering<ReduceMeanOp, ReduceKind::Sum, /*Mean=*/true>,
      ReduceLowering<ReduceMaxOp, ReduceKind::Max>,
      ReduceLowering<ReduceMinOp, ReduceKind::Min>,
      ReduceLowering<ReduceProdOp, ReduceKind::Prod>, ArgmaxLowering,
      SoftmaxLowering<SoftmaxOp, false>, SoftmaxLowering<LogSoftmaxOp, true>,
      CrossEntropyLowering, OneHotLowering, IfLowering, WhileLowering,
      YieldLowering, ConditionLowering, PrintLowering, AssertLowering,
      CheckLowering, CheckElementsLowering, FusionLowering>(ctx);
  populateTfcStackToRuntimePatterns(patterns); // tfc-autodiff's ops
}
