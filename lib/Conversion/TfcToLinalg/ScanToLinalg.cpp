//===- ScanToLinalg.cpp - tfc.cumsum and tfc.top_k_indices to linalg ------===//
//
// Both become a linalg.generic over the result whose body loops over the
// operand's axis with tensor.extract (every back end runs it: the GPU
// pipeline maps the result to threads):
//
//   cumsum         out[.., j, ..] = the sum over the prefix (or suffix) of
//                  j along the axis
//   top_k_indices  out[r, j] = the position whose rank in row r is j (rank:
//                  how many elements come before it; NaN first, ties by
//                  position)
//
// That is quadratic in the axis; on the CPU the generics' library_call
// makes tfc-linalg-to-blas call the runtime's linear scan and partial sort
// (ScanKernels.h) instead.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The linalg.generic written for `resultType`, no inputs, `body(indices)`.
Value indexedGeneric(
    OpBuilder &b, Location loc, RankedTensorType resultType,
    ValueRange dynSizes,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    StringRef libraryCall) {
  Value init = emptyTensor(b, loc, resultType, dynSizes);
  int64_t rank = resultType.getRank();
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
      SmallVector<AffineMap>{b.getMultiDimIdentityMap(rank)}, parallel(rank),
      [&](OpBuilder &nb, Location nl, ValueRange) {
        SmallVector<Value> at;
        for (int64_t d = 0; d < rank; ++d)
          at.push_back(linalg::IndexOp::create(nb, nl, d));
        linalg::YieldOp::create(nb, nl, body(nb, nl, at));
      });
  generic.setLibraryCallAttr(b.getStringAttr(libraryCall));
  return generic.getResult(0);
}

struct CumsumLowering : public OpConversionPattern<CumsumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CumsumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    auto type = cast<RankedTensorType>(x.getType());
    Type elt = type.getElementType();
    int64_t axis = op.getAxis();
    bool exclusive = op.getExclusive(), reverse = op.getReverse();
    Value n = tensor::DimOp::create(rewriter, loc, x, axis);
    Value result = indexedGeneric(
        rewriter, loc, type, dynamicSizesFrom(rewriter, loc, type, x),
        [&](OpBuilder &b, Location l, ValueRange at) -> Value {
          Value j = at[axis];
          Value one = cIndex(b, l, 1);
          // The summed range [lo, hi) of positions along the axis.
          Value lo, hi;
          if (!reverse) {
            lo = cIndex(b, l, 0);
            hi = exclusive ? j : Value(arith::AddIOp::create(b, l, j, one));
          } else {
            lo = exclusive ? Value(arith::AddIOp::create(b, l, j, one)) : j;
            hi = n;
          }
          auto loop = scf::ForOp::create(
              b, l, lo, hi, one, ValueRange{zeroOf(b, l, elt)},
              [&](OpBuilder &fb, Location fl, Value t, ValueRange acc) {
                SmallVector<Value> idx(at);
                idx[axis] = t;
                Value v = tensor::ExtractOp::create(fb, fl, x, idx);
                Value s = isa<FloatType>(elt)
                              ? Value(arith::AddFOp::create(fb, fl, acc[0], v))
                              : Value(arith::AddIOp::create(fb, fl, acc[0], v));
                scf::YieldOp::create(fb, fl, s);
              });
          return loop.getResult(0);
        },
        "tfc_rt_cumsum(" + std::to_string(axis) + "," +
            std::to_string(int(exclusive)) + "," +
            std::to_string(int(reverse)) + ")");
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TopKIndicesLowering : public OpConversionPattern<TopKIndicesOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKIndicesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    auto type = cast<RankedTensorType>(x.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elt = type.getElementType();
    int64_t last = type.getRank() - 1;
    Value n = tensor::DimOp::create(rewriter, loc, x, last);
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < last; ++d)
      if (resultType.isDynamicDim(d))
        dyn.push_back(tensor::DimOp::create(rewriter, loc, x, d));
    // a comes before b: greater, NaN first (unordered compare), ties by
    // position.
    auto before = [&](OpBuilder &b, Location l, Value va, Value ia, Value vb,
                      Value ib) -> Value {
      Value gt, lt;
      if (isa<FloatType>(elt)) {
        Value aNan =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, va, va);
        Value bNan =
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, vb, vb);
        Value notB = arith::XOrIOp::create(
            b, l, bNan, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
        Value notA = arith::XOrIOp::create(
            b, l, aNan, arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
        gt = arith::OrIOp::create(
            b, l, arith::AndIOp::create(b, l, aNan, notB),
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, va, vb));
        lt = arith::OrIOp::create(
            b, l, arith::AndIOp::create(b, l, bNan, notA),
            arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, va, vb));
      } else {
        gt = arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, va, vb);
        lt = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, va, vb);
      }
      Value tie = arith::AndIOp::create(
          b, l,
          arith::XOrIOp::create(
              b, l, arith::OrIOp::create(b, l, gt, lt),
              arith::ConstantOp::create(b, l, b.getBoolAttr(true))),
          arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, ia, ib));
      return arith::OrIOp::create(b, l, gt, tie);
    };
    Value result = indexedGeneric(
        rewriter, loc, resultType, dyn,
        [&](OpBuilder &b, Location l, ValueRange at) -> Value {
          Value j = at[last], zero = cIndex(b, l, 0), one = cIndex(b, l, 1);
          auto read = [&](OpBuilder &rb, Location rl, Value i) -> Value {
            SmallVector<Value> idx(at);
            idx[last] = i;
            return tensor::ExtractOp::create(rb, rl, x, idx);
          };
          auto outer = scf::ForOp::create(
              b, l, zero, n, one, ValueRange{zero},
              [&](OpBuilder &ob, Location ol, Value i, ValueRange found) {
                Value vi = read(ob, ol, i);
                auto rank = scf::ForOp::create(
                    ob, ol, zero, n, one, ValueRange{zero},
                    [&](OpBuilder &ib, Location il, Value t, ValueRange cnt) {
                      Value vt = read(ib, il, t);
                      Value first = before(ib, il, vt, t, vi, i);
                      Value inc = arith::SelectOp::create(
                          ib, il, first, cIndex(ib, il, 1), cIndex(ib, il, 0));
                      scf::YieldOp::create(
                          ib, il,
                          Value(arith::AddIOp::create(ib, il, cnt[0], inc)));
                    });
                Value hit = arith::CmpIOp::create(
                    ob, ol, arith::CmpIPredicate::eq, rank.getResult(0), j);
                scf::YieldOp::create(
                    ob, ol,
                    Value(arith::SelectOp::create(ob, ol, hit, i, found[0])));
              });
          return arith::IndexCastOp::create(b, l, b.getI32Type(),
                                            outer.getResult(0));
        },
        "tfc_rt_top_k_indices");
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::tfc::populateScanToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<CumsumLowering, TopKIndicesLowering>(patterns.getContext());
}
