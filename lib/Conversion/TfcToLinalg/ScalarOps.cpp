//===- ScalarOps.cpp - Scalar bodies of tfc ops -----------------*- C++ -*-===//
//
// What one element of a tfc op computes, as arith/math ops on scalars: the
// body of each elementwise op (buildScalarOp) and the identity and step of
// each reduction. Both the per-op linalg.generic lowerings and the fused
// loop nests of tfc.fusion (FusionToLinalg.cpp) build their bodies here.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

//===----------------------------------------------------------------------===//
// Scalar bodies of elementwise ops
//===----------------------------------------------------------------------===//

Value linalg_lowering::zeroOf(OpBuilder &b, Location loc, Type t) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(t));
}
static Value oneOf(OpBuilder &b, Location loc, Type t) {
  if (isFloat(t))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(t, 1.0));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(t, 1));
}

/// Integer divisor that cannot trap: 0 and (INT_MIN, -1) lanes divide by 1.
Value linalg_lowering::safeDivisor(OpBuilder &b, Location loc, Value lhs,
                                   Value rhs) {
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

Value linalg_lowering::castScalar(OpBuilder &b, Location loc, Value x,
                                  Type to) {
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

Value linalg_lowering::compareScalar(OpBuilder &b, Location loc,
                                     CmpPredicate pred, Value lhs, Value rhs) {
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
      .Case(
          [&](ErfOp) -> Value { return math::ErfOp::create(b, loc, args[0]); })
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
// Scalar steps of reductions
//===----------------------------------------------------------------------===//

/// Identity of a reduction `kind` for element type `t`.
Value linalg_lowering::reductionInit(OpBuilder &b, Location loc,
                                     ReduceKind kind, Type t) {
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

Value linalg_lowering::combine(OpBuilder &b, Location loc, ReduceKind kind,
                               Value acc, Value x) {
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
