//===- RandomToLinalg.cpp - tfc.philox_random to linalg -------------------===//
//
// A 1-d linalg.generic over the elements (reshaped to the result) whose
// body is Philox4x32-10 in arith ops (tfc/runtime/RandomKernels.h is the
// same definition in C++): every element depends on its index, the key and
// the counter only, so the GPU pipeline maps it to threads as it is. On the
// CPU its library_call makes tfc-linalg-to-blas call the runtime's
// philox_fill instead, so compiled code and the eager kernel give the same
// bits (the loop lowering approximates log and cos; the library does not).
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

struct Bits {
  OpBuilder &b;
  Location loc;
  Value i32(uint32_t v) {
    return arith::ConstantOp::create(
        b, loc, b.getI32IntegerAttr(static_cast<int32_t>(v)));
  }
  Value i64(int64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  }
  Value lo(Value x64) {
    return arith::TruncIOp::create(b, loc, b.getI32Type(), x64);
  }
  Value hi(Value x64) {
    return lo(arith::ShRUIOp::create(b, loc, x64, i64(32)));
  }
  Value xorI(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value addI(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
};

/// The four Philox4x32-10 words of element `i` (index) at `attempt` (i32).
SmallVector<Value> philoxWords(OpBuilder &b, Location loc, Value key,
                               Value counter, Value i, Value attempt) {
  Bits x{b, loc};
  Value c =
      x.addI(counter, arith::IndexCastUIOp::create(b, loc, b.getI64Type(), i));
  SmallVector<Value> w = {x.lo(c), x.hi(c), attempt, x.i32(0)};
  Value k0 = x.lo(key), k1 = x.hi(key);
  Value m0 = x.i32(0xD2511F53u), m1 = x.i32(0xCD9E8D57u);
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 = x.addI(k0, x.i32(0x9E3779B9u));
      k1 = x.addI(k1, x.i32(0xBB67AE85u));
    }
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, w[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, w[2]);
    w = {x.xorI(x.xorI(p1.getHigh(), w[1]), k0), p1.getLow(),
         x.xorI(x.xorI(p0.getHigh(), w[3]), k1), p0.getLow()};
  }
  return w;
}

/// [0, 1) (or [2^-p, 1] with `shift`) from `first` (f32) or `first` and
/// `second` (f64), as RandomKernels.h's unit_uniform.
Value unitUniform(OpBuilder &b, Location loc, Value first, Value second,
                  FloatType elt, bool shift) {
  Bits x{b, loc};
  Value bits;
  double scale;
  if (elt.isF32()) {
    bits = arith::ShRUIOp::create(b, loc, first, x.i32(8));
    scale = 0x1p-24;
  } else {
    Value a = arith::ExtUIOp::create(b, loc, b.getI64Type(), first);
    Value c = arith::ExtUIOp::create(
        b, loc, b.getI64Type(),
        arith::ShRUIOp::create(b, loc, second, x.i32(11)));
    bits = arith::OrIOp::create(b, loc,
                                arith::ShLIOp::create(b, loc, a, x.i64(21)), c);
    scale = 0x1p-53;
  }
  Value f = arith::UIToFPOp::create(b, loc, elt, bits);
  if (shift)
    f = arith::AddFOp::create(
        b, loc, f, arith::ConstantOp::create(b, loc, b.getFloatAttr(elt, 1.0)));
  return arith::MulFOp::create(
      b, loc, f, arith::ConstantOp::create(b, loc, b.getFloatAttr(elt, scale)));
}

/// Element `i` of a draw (RandomKernels.h's philox_sample): block
/// i / perBlock, its words from (i % perBlock) * words on.
Value sample(OpBuilder &b, Location loc, StringRef dist, Value key,
             Value counter, Value i, FloatType elt) {
  Bits x{b, loc};
  int words = (elt.isF32() ? 1 : 2) * (dist == "uniform" ? 1 : 2);
  int perBlock = 4 / words;
  auto cIdx = [&](OpBuilder &ib, Location il, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(ib, il, v);
  };
  Value block = arith::DivUIOp::create(b, loc, i, cIdx(b, loc, perBlock));
  Value slot = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, i, cIdx(b, loc, perBlock)),
      cIdx(b, loc, words));
  // Word slot + offset of w (a select chain: the slot is dynamic).
  auto word = [&](OpBuilder &wb, Location wl, ArrayRef<Value> w,
                  int offset) -> Value {
    Value at = arith::AddIOp::create(wb, wl, slot, cIdx(wb, wl, offset));
    Value v = w[0];
    for (int k = 1; k < 4; ++k)
      v = arith::SelectOp::create(
          wb, wl,
          arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::eq, at,
                                cIdx(wb, wl, k)),
          w[k], v);
    return v;
  };
  // The f32 uniform takes one word, the f64 two.
  auto uniformAt = [&](OpBuilder &ub, Location ul, ArrayRef<Value> w,
                       int offset, bool shift) -> Value {
    Value hi = word(ub, ul, w, offset);
    Value lo = elt.isF32() ? Value() : word(ub, ul, w, offset + 1);
    return unitUniform(ub, ul, hi, lo, elt, shift);
  };
  auto normalAt = [&](OpBuilder &nb, Location nl, Value attempt) -> Value {
    SmallVector<Value> w = philoxWords(nb, nl, key, counter, block, attempt);
    Value u1 = uniformAt(nb, nl, w, 0, /*shift=*/true);
    Value u2 = uniformAt(nb, nl, w, words / 2, /*shift=*/false);
    auto cst = [&](double v) {
      return arith::ConstantOp::create(nb, nl, nb.getFloatAttr(elt, v));
    };
    Value r = math::SqrtOp::create(
        nb, nl,
        arith::MulFOp::create(nb, nl, cst(-2.0),
                              math::LogOp::create(nb, nl, u1)));
    Value theta = arith::MulFOp::create(
        nb, nl, cst(6.283185307179586476925286766559), u2);
    return arith::MulFOp::create(nb, nl, r, math::CosOp::create(nb, nl, theta));
  };
  if (dist == "uniform")
    return uniformAt(b, loc, philoxWords(b, loc, key, counter, block, x.i32(0)),
                     0, false);
  if (dist == "normal")
    return normalAt(b, loc, x.i32(0));
  // truncated_normal: redraw with the next attempt while |z| >= 2 (at most
  // 64 attempts; then 0, as the kernel).
  Value two = arith::ConstantOp::create(b, loc, b.getFloatAttr(elt, 2.0));
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{b.getI32Type(), elt},
      ValueRange{x.i32(0),
                 arith::ConstantOp::create(b, loc, b.getFloatAttr(elt, 0.0))},
      [&](OpBuilder &wb, Location wl, ValueRange args) {
        Bits y{wb, wl};
        Value z = normalAt(wb, wl, args[0]);
        Value far = arith::CmpFOp::create(wb, wl, arith::CmpFPredicate::UGE,
                                          math::AbsFOp::create(wb, wl, z), two);
        Value more = arith::CmpIOp::create(wb, wl, arith::CmpIPredicate::ult,
                                           args[0], y.i32(63));
        Value again = arith::AndIOp::create(wb, wl, far, more);
        Value zOut = arith::SelectOp::create(
            wb, wl, far,
            arith::ConstantOp::create(wb, wl, wb.getFloatAttr(elt, 0.0)), z);
        scf::ConditionOp::create(wb, wl, again,
                                 ValueRange{y.addI(args[0], y.i32(1)), zOut});
      },
      [&](OpBuilder &ab, Location al, ValueRange args) {
        scf::YieldOp::create(ab, al, args);
      });
  return loop.getResult(1);
}

struct PhiloxRandomLowering : public OpConversionPattern<PhiloxRandomOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PhiloxRandomOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto resultType = cast<RankedTensorType>(op.getType());
    auto elt = cast<FloatType>(resultType.getElementType());
    StringRef dist = op.getDistribution();
    auto flat = RankedTensorType::get({resultType.getNumElements()}, elt);
    Value init = emptyTensor(rewriter, loc, flat, {});
    // The state twice, at [0] (key) and [1] (counter): the body gets both
    // as scalars, and the library call finds the state buffer.
    Value state = adaptor.getState();
    AffineExpr zero = getAffineConstantExpr(0, ctx),
               one = getAffineConstantExpr(1, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(1, 0, {zero}, ctx),
                                   AffineMap::get(1, 0, {one}, ctx),
                                   rewriter.getMultiDimIdentityMap(1)};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flat}, ValueRange{state, state},
        ValueRange{init}, maps, parallel(1),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = linalg::IndexOp::create(b, l, 0);
          linalg::YieldOp::create(b, l,
                                  sample(b, l, dist, args[0], args[1], i, elt));
        });
    int code = dist == "uniform" ? 0 : dist == "normal" ? 1 : 2;
    generic.setLibraryCallAttr(rewriter.getStringAttr(
        "tfc_rt_philox_random(" + std::to_string(code) + ")"));
    Value result =
        buildReshape(rewriter, loc, generic.getResult(0), resultType);
    if (!result)
      return rewriter.notifyMatchFailure(op, "cannot reshape the draw");
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tfc::populateRandomToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<PhiloxRandomLowering>(patterns.getContext());
}
