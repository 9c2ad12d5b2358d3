//===- MatmulToLinalg.cpp - tfc.matmul to linalg ----------------*- C++ -*-===//
//
// tfc.matmul becomes linalg.matmul where the buffer passes after it
// (tfc-linalg-to-blas, tfc-linalg-to-loops) know what to do with it, and
// a linalg.generic in a vectorizable loop order otherwise.
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

} // namespace

void mlir::tfc::populateMatmulToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<MatmulLowering>(ctx);
}
