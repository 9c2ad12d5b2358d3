//===- PoolToLinalg.cpp - tfc pooling ops to linalg -------------*- C++ -*-===//
//
// Each pooling op (and gradient) becomes a linalg.generic over its result
// whose body loops over the window (scf.for) and reads the operands with
// bounds-checked tensor.extract: TensorFlow's rules (padding never counts)
// hold without materialising a padded copy, and every back end lowers it like
// any linalg.generic (the GPU pipeline maps the result's dims to threads).
//
//   max_pool2d            max over the window's elements inside the input
//   avg_pool2d            their sum / their count
//   max_pool2d_grad       per input element: the dy of every window whose
//                         first maximum it is
//   max_pool2d_grad_grad  per window: grad at its first maximum
//   avg_pool2d_grad       per input element: dy / count of every window
//                         holding it
//
// Height and width must be static; batch and channels may be dynamic.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"
#include "tfc/runtime/ConvGeometry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

/// A pooling op's window, padding explicit.
struct PoolWindow {
  int64_t k[2], s[2], pad[2], in[2], out[2];
};

FailureOr<PoolWindow> poolWindow(ArrayRef<int64_t> input,
                                 ArrayRef<int64_t> ksize,
                                 ArrayRef<int64_t> strides, StringRef padding) {
  PoolWindow w;
  for (int d = 0; d < 2; ++d) {
    if (ShapedType::isDynamic(input[1 + d]))
      return failure();
    std::optional<::tfc::kernels::WindowDim> dim = ::tfc::kernels::window_dim(
        input[1 + d], ksize[d], strides[d], 1, padding == "SAME");
    if (!dim)
      return failure();
    w.k[d] = ksize[d];
    w.s[d] = strides[d];
    w.pad[d] = dim->padBefore;
    w.in[d] = input[1 + d];
    w.out[d] = dim->out;
  }
  return w;
}

/// Builds index arithmetic tersely.
struct Ix {
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t v) {
    return v == 1 ? x : arith::MulIOp::create(b, loc, x, c(v));
  }
  Value lt(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  /// 0 <= x < n.
  Value inRange(Value x, int64_t n) {
    Value lo =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, x, c(0));
    return andI(lo, lt(x, c(n)));
  }
  /// x clamped to [0, n): a safe index where `inRange` is false.
  Value clamp(Value x, int64_t n) {
    Value lo = arith::MaxSIOp::create(b, loc, x, c(0));
    return arith::MinSIOp::create(b, loc, lo, c(n - 1));
  }
};

/// `body(b, loc, a, b2, iterArgs) -> new iterArgs` for a in [0, k0), b2 in
/// [0, k1): two nested scf.for loops carrying `inits`.
SmallVector<Value>
windowLoop(OpBuilder &b, Location loc, const int64_t k[2], ValueRange inits,
           function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value,
                                           ValueRange)>
               body) {
  Ix ix{b, loc};
  auto outer = scf::ForOp::create(
      b, loc, ix.c(0), ix.c(k[0]), ix.c(1), inits,
      [&](OpBuilder &ob, Location ol, Value a, ValueRange outerArgs) {
        Ix ox{ob, ol};
        auto inner = scf::ForOp::create(
            ob, ol, ox.c(0), ox.c(k[1]), ox.c(1), outerArgs,
            [&](OpBuilder &ib, Location il, Value bb, ValueRange innerArgs) {
              scf::YieldOp::create(ib, il, body(ib, il, a, bb, innerArgs));
            });
        scf::YieldOp::create(ob, ol, inner.getResults());
      });
  return SmallVector<Value>(outer.getResults());
}

/// x[n, r, q, c] where (r, q) is inside, `fill` elsewhere (never read out
/// of bounds).
Value readOr(OpBuilder &b, Location loc, Value x, const PoolWindow &w, Value n,
             Value r, Value q, Value c, Value fill) {
  Ix ix{b, loc};
  Value inside = ix.andI(ix.inRange(r, w.in[0]), ix.inRange(q, w.in[1]));
  Value v = tensor::ExtractOp::create(
      b, loc, x, ValueRange{n, ix.clamp(r, w.in[0]), ix.clamp(q, w.in[1]), c});
  return arith::SelectOp::create(b, loc, inside, v, fill);
}

/// The first maximum of window (i, j) of `x` (row-major in the window, the
/// first NaN if any) as (row, column) in the input.
std::pair<Value, Value> firstMax(OpBuilder &b, Location loc, Value x,
                                 const PoolWindow &w, Value n, Value i, Value j,
                                 Value c, Type elt) {
  Ix ix{b, loc};
  Value r0 = ix.sub(ix.mul(i, w.s[0]), ix.c(w.pad[0]));
  Value q0 = ix.sub(ix.mul(j, w.s[1]), ix.c(w.pad[1]));
  Value negInf = arith::ConstantOp::create(
      b, loc, b.getFloatAttr(elt, -std::numeric_limits<double>::infinity()));
  // Carried: the best value so far, its row and column; a NaN, once seen,
  // is never replaced (nothing compares greater than it).
  SmallVector<Value> found = windowLoop(
      b, loc, w.k, ValueRange{negInf, ix.c(-1), ix.c(-1)},
      [&](OpBuilder &lb, Location ll, Value a, Value bb, ValueRange acc) {
        Ix lx{lb, ll};
        Value r = lx.add(r0, a), q = lx.add(q0, bb);
        Value inside = lx.andI(lx.inRange(r, w.in[0]), lx.inRange(q, w.in[1]));
        Value v = tensor::ExtractOp::create(
            lb, ll, x,
            ValueRange{n, lx.clamp(r, w.in[0]), lx.clamp(q, w.in[1]), c});
        Value bestIsNaN = arith::CmpFOp::create(
            lb, ll, arith::CmpFPredicate::UNO, acc[0], acc[0]);
        // v wins when inside, the best is not NaN, and v > best, v is NaN,
        // or nothing was found yet.
        Value greater =
            arith::CmpFOp::create(lb, ll, arith::CmpFPredicate::UGT, v, acc[0]);
        Value none = lx.lt(acc[1], lx.c(0));
        Value wins = arith::OrIOp::create(lb, ll, greater, none);
        Value notNaN = arith::XOrIOp::create(
            lb, ll, bestIsNaN,
            arith::ConstantOp::create(lb, ll, lb.getBoolAttr(true)));
        wins = lx.andI(lx.andI(wins, notNaN), inside);
        return SmallVector<Value>{
            arith::SelectOp::create(lb, ll, wins, v, acc[0]),
            arith::SelectOp::create(lb, ll, wins, r, acc[1]),
            arith::SelectOp::create(lb, ll, wins, q, acc[2])};
      });
  return {found[1], found[2]};
}

/// A linalg.generic over `resultType` (dynamic batch/channels from `like`)
/// whose body computes each element from its indices (n, i, j, c).
Value generateOver(
    OpBuilder &b, Location loc, RankedTensorType resultType, Value like,
    ValueRange operands, StringRef kernel, const PoolWindow &w,
    function_ref<Value(OpBuilder &, Location, Value, Value, Value, Value)>
        element) {
  SmallVector<Value> dyn;
  for (int64_t d : {0, 3})
    if (resultType.isDynamicDim(d))
      dyn.push_back(tensor::DimOp::create(b, loc, like, d));
  Value init = emptyTensor(b, loc, resultType, dyn);
  MLIRContext *ctx = b.getContext();
  // The operands the body reads (through tensor.extract) are also listed as
  // the generic's inputs, indexed (n, 0, 0, c) so that any shape verifies
  // (canonicalization may drop them again: the body reads the values, not
  // the block arguments). On the CPU tfc-linalg-to-blas calls the runtime's
  // kernel named by library_call on the buffers the body reads.
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  AffineMap operandMap = AffineMap::get(
      4, 0, {getAffineDimExpr(0, ctx), zero, zero, getAffineDimExpr(3, ctx)},
      ctx);
  SmallVector<AffineMap> maps(operands.size(), operandMap);
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{resultType}, operands, ValueRange{init}, maps,
      parallel(4), [&](OpBuilder &gb, Location gl, ValueRange) {
        Value idx[4];
        for (int d = 0; d < 4; ++d)
          idx[d] = linalg::IndexOp::create(gb, gl, d);
        linalg::YieldOp::create(
            gb, gl, element(gb, gl, idx[0], idx[1], idx[2], idx[3]));
      });
  // "name(kh,kw,sh,sw,pt,pl)": the window, which the shapes do not give.
  std::string call = (kernel + "(" + Twine(w.k[0]) + "," + Twine(w.k[1]) + "," +
                      Twine(w.s[0]) + "," + Twine(w.s[1]) + "," +
                      Twine(w.pad[0]) + "," + Twine(w.pad[1]) + ")")
                         .str();
  generic.setLibraryCallAttr(b.getStringAttr(call));
  return generic.getResult(0);
}

Value floatConst(OpBuilder &b, Location loc, Type elt, double v) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(elt, v));
}

/// The number of input elements in window (i, j), as a float.
Value windowCount(OpBuilder &b, Location loc, const PoolWindow &w, Value i,
                  Value j, Type elt) {
  Ix ix{b, loc};
  Value count = nullptr;
  Value ij[2] = {i, j};
  for (int d = 0; d < 2; ++d) {
    Value lo = ix.sub(ix.mul(ij[d], w.s[d]), ix.c(w.pad[d]));
    Value hi = ix.add(lo, ix.c(w.k[d]));
    lo = arith::MaxSIOp::create(b, loc, lo, ix.c(0));
    hi = arith::MinSIOp::create(b, loc, hi, ix.c(w.in[d]));
    Value len = ix.sub(hi, lo);
    count = count ? arith::MulIOp::create(b, loc, count, len) : len;
  }
  Value asInt = arith::IndexCastOp::create(b, loc, b.getI64Type(), count);
  return arith::SIToFPOp::create(b, loc, elt, asInt);
}

/// For input element (r, q): `visit(i, j, valid)` for each window
/// (i, j) = ((r + pad - a) / s, (q + pad - b) / s) that may hold it, `valid`
/// saying whether it does (the division is exact and the window exists).
/// Returns the sum of what `visit` returns.
Value sumOverWindows(
    OpBuilder &b, Location loc, const PoolWindow &w, Value r, Value q, Type elt,
    function_ref<Value(OpBuilder &, Location, Value, Value, Value)> visit) {
  SmallVector<Value> sum = windowLoop(
      b, loc, w.k, ValueRange{floatConst(b, loc, elt, 0.0)},
      [&](OpBuilder &lb, Location ll, Value a, Value bb, ValueRange acc) {
        Ix lx{lb, ll};
        Value ti = lx.sub(lx.add(r, lx.c(w.pad[0])), a);
        Value tj = lx.sub(lx.add(q, lx.c(w.pad[1])), bb);
        Value valid = lx.andI(lx.inRange(ti, w.out[0] * w.s[0]),
                              lx.inRange(tj, w.out[1] * w.s[1]));
        Value zero = lx.c(0);
        for (auto [t, s] : {std::pair{ti, w.s[0]}, std::pair{tj, w.s[1]}})
          if (s > 1)
            valid = lx.andI(
                valid, lx.eq(arith::RemSIOp::create(lb, ll, t, lx.c(s)), zero));
        Value i = arith::DivSIOp::create(
            lb, ll, lx.clamp(ti, w.out[0] * w.s[0]), lx.c(w.s[0]));
        Value j = arith::DivSIOp::create(
            lb, ll, lx.clamp(tj, w.out[1] * w.s[1]), lx.c(w.s[1]));
        Value v = visit(lb, ll, i, j, valid);
        Value add = arith::AddFOp::create(lb, ll, acc[0], v);
        return SmallVector<Value>{
            arith::SelectOp::create(lb, ll, valid, add, acc[0])};
      });
  return sum[0];
}

struct MaxPool2DLowering : public OpConversionPattern<MaxPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput();
    FailureOr<PoolWindow> w =
        poolWindow(op.getInput().getType().getShape(), op.getKsize(),
                   op.getStrides(), op.getPadding());
    if (failed(w))
      return rewriter.notifyMatchFailure(op, "needs a static height and width");
    Type elt = op.getType().getElementType();
    rewriter.replaceOp(
        op,
        generateOver(rewriter, op.getLoc(), op.getType(), x, x,
                     "tfc_rt_max_pool2d", *w,
                     [&](OpBuilder &b, Location loc, Value n, Value i, Value j,
                         Value c) {
                       Ix ix{b, loc};
                       Value negInf =
                           floatConst(b, loc, elt,
                                      -std::numeric_limits<double>::infinity());
                       Value r0 = ix.sub(ix.mul(i, w->s[0]), ix.c(w->pad[0]));
                       Value q0 = ix.sub(ix.mul(j, w->s[1]), ix.c(w->pad[1]));
                       // maximumf propagates NaN, as tf.nn.max_pool2d.
                       return windowLoop(
                           b, loc, w->k, ValueRange{negInf},
                           [&](OpBuilder &lb, Location ll, Value a, Value bb,
                               ValueRange acc) {
                             Ix lx{lb, ll};
                             Value v = readOr(lb, ll, x, *w, n, lx.add(r0, a),
                                              lx.add(q0, bb), c, negInf);
                             return SmallVector<Value>{
                                 arith::MaximumFOp::create(lb, ll, acc[0], v)};
                           })[0];
                     }));
    return success();
  }
};

struct AvgPool2DLowering : public OpConversionPattern<AvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AvgPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput();
    FailureOr<PoolWindow> w =
        poolWindow(op.getInput().getType().getShape(), op.getKsize(),
                   op.getStrides(), op.getPadding());
    if (failed(w))
      return rewriter.notifyMatchFailure(op, "needs a static height and width");
    Type elt = op.getType().getElementType();
    rewriter.replaceOp(
        op,
        generateOver(
            rewriter, op.getLoc(), op.getType(), x, x, "tfc_rt_avg_pool2d", *w,
            [&](OpBuilder &b, Location loc, Value n, Value i, Value j,
                Value c) {
              Ix ix{b, loc};
              Value zero = floatConst(b, loc, elt, 0.0);
              Value r0 = ix.sub(ix.mul(i, w->s[0]), ix.c(w->pad[0]));
              Value q0 = ix.sub(ix.mul(j, w->s[1]), ix.c(w->pad[1]));
              Value sum =
                  windowLoop(b, loc, w->k, ValueRange{zero},
                             [&](OpBuilder &lb, Location ll, Value a, Value bb,
                                 ValueRange acc) {
                               Ix lx{lb, ll};
                               Value v = readOr(lb, ll, x, *w, n, lx.add(r0, a),
                                                lx.add(q0, bb), c, zero);
                               return SmallVector<Value>{
                                   arith::AddFOp::create(lb, ll, acc[0], v)};
                             })[0];
              return arith::DivFOp::create(b, loc, sum,
                                           windowCount(b, loc, *w, i, j, elt));
            }));
    return success();
  }
};

struct MaxPool2DGradLowering : public OpConversionPattern<MaxPool2DGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPool2DGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput(), dy = adaptor.getDy();
    FailureOr<PoolWindow> w =
        poolWindow(op.getInput().getType().getShape(), op.getKsize(),
                   op.getStrides(), op.getPadding());
    if (failed(w))
      return rewriter.notifyMatchFailure(op, "needs a static height and width");
    Type elt = op.getType().getElementType();
    rewriter.replaceOp(
        op,
        generateOver(rewriter, op.getLoc(), op.getType(), x, ValueRange{x, dy},
                     "tfc_rt_max_pool2d_grad", *w,
                     [&](OpBuilder &b, Location loc, Value n, Value r, Value q,
                         Value c) {
                       return sumOverWindows(
                           b, loc, *w, r, q, elt,
                           [&](OpBuilder &vb, Location vl, Value i, Value j,
                               Value valid) {
                             Ix vx{vb, vl};
                             auto [mr, mq] =
                                 firstMax(vb, vl, x, *w, n, i, j, c, elt);
                             Value mine = vx.andI(vx.eq(mr, r), vx.eq(mq, q));
                             Value g = tensor::ExtractOp::create(
                                 vb, vl, dy, ValueRange{n, i, j, c});
                             return arith::SelectOp::create(
                                 vb, vl, mine, g, floatConst(vb, vl, elt, 0.0));
                           });
                     }));
    return success();
  }
};

struct MaxPool2DGradGradLowering
    : public OpConversionPattern<MaxPool2DGradGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MaxPool2DGradGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput(), g = adaptor.getGrad();
    FailureOr<PoolWindow> w =
        poolWindow(op.getInput().getType().getShape(), op.getKsize(),
                   op.getStrides(), op.getPadding());
    if (failed(w))
      return rewriter.notifyMatchFailure(op, "needs a static height and width");
    Type elt = op.getType().getElementType();
    rewriter.replaceOp(
        op, generateOver(rewriter, op.getLoc(), op.getType(), x,
                         ValueRange{x, g}, "tfc_rt_max_pool2d_grad_grad", *w,
                         [&](OpBuilder &b, Location loc, Value n, Value i,
                             Value j, Value c) {
                           auto [mr, mq] =
                               firstMax(b, loc, x, *w, n, i, j, c, elt);
                           return tensor::ExtractOp::create(
                               b, loc, g, ValueRange{n, mr, mq, c});
                         }));
    return success();
  }
};

struct AvgPool2DGradLowering : public OpConversionPattern<AvgPool2DGradOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AvgPool2DGradOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value dy = adaptor.getDy();
    FailureOr<PoolWindow> w = poolWindow(op.getType().getShape(), op.getKsize(),
                                         op.getStrides(), op.getPadding());
    if (failed(w))
      return rewriter.notifyMatchFailure(op, "needs a static height and width");
    Type elt = op.getType().getElementType();
    rewriter.replaceOp(
        op, generateOver(
                rewriter, op.getLoc(), op.getType(), dy, dy,
                "tfc_rt_avg_pool2d_grad", *w,
                [&](OpBuilder &b, Location loc, Value n, Value r, Value q,
                    Value c) {
                  return sumOverWindows(
                      b, loc, *w, r, q, elt,
                      [&](OpBuilder &vb, Location vl, Value i, Value j, Value) {
                        Value v = tensor::ExtractOp::create(
                            vb, vl, dy, ValueRange{n, i, j, c});
                        return arith::DivFOp::create(
                            vb, vl, v, windowCount(vb, vl, *w, i, j, elt));
                      });
                }));
    return success();
  }
};

} // namespace

void mlir::tfc::populatePoolToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPool2DLowering, AvgPool2DLowering, MaxPool2DGradLowering,
               MaxPool2DGradGradLowering, AvgPool2DGradLowering>(
      patterns.getContext());
}
