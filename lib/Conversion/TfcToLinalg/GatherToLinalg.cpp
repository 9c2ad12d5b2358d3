//===- GatherToLinalg.cpp - tfc.gather, tfc.unsorted_segment_sum ----------===//
//
//   gather                a linalg.generic over the result reading params
//                         with tensor.extract at the index (clamped into
//                         the axis: tfc-insert-runtime-checks has rejected
//                         bad indices before, and a clamped read can never
//                         leave the buffer); on the CPU its library_call
//                         makes tfc-linalg-to-blas copy whole rows with the
//                         runtime's kernel instead
//   unsorted_segment_sum  a linalg.generic over the result that reduces
//                         over the ids, out[s, j] += (ids[i] == s ?
//                         data[i, j] : 0): every back end can run it (the
//                         GPU maps (s, j) to threads); on the CPU its
//                         library_call makes tfc-linalg-to-blas call the
//                         runtime's scatter-add instead (linear, not
//                         num_segments times the data)
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

struct GatherLowering : public OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value params = adaptor.getParams(), indices = adaptor.getIndices();
    auto indicesType = cast<RankedTensorType>(indices.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getAxis(), q = indicesType.getRank();
    int64_t rank = resultType.getRank();
    // Result dims: params' before the axis, the indices', params' after.
    auto source = [&](int64_t d) -> std::pair<Value, int64_t> {
      if (d < axis)
        return {params, d};
      if (d < axis + q)
        return {indices, d - axis};
      return {params, d - q + 1};
    };
    SmallVector<Value> dyn;
    for (int64_t d = 0; d < rank; ++d)
      if (resultType.isDynamicDim(d)) {
        auto [v, i] = source(d);
        dyn.push_back(tensor::DimOp::create(rewriter, loc, v, i));
      }
    Value init = emptyTensor(rewriter, loc, resultType, dyn);
    SmallVector<AffineExpr> exprs;
    for (int64_t d = axis; d < axis + q; ++d)
      exprs.push_back(rewriter.getAffineDimExpr(d));
    AffineMap indexMap = AffineMap::get(rank, 0, exprs, rewriter.getContext());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value last = arith::SubIOp::create(
        rewriter, loc, tensor::DimOp::create(rewriter, loc, params, axis), one);
    Value result = buildGeneric(
        rewriter, loc, resultType, {indices}, {indexMap}, init,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value i = arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
          i = arith::MaxSIOp::create(
              b, l, arith::MinSIOp::create(b, l, i, last), zero);
          SmallVector<Value> at;
          for (int64_t d = 0; d < axis; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          at.push_back(i);
          for (int64_t d = axis + q; d < rank; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          return tensor::ExtractOp::create(b, l, params, at);
        });
    if (auto generic = result.getDefiningOp<linalg::GenericOp>())
      generic.setLibraryCallAttr(rewriter.getStringAttr(
          "tfc_rt_gather(" + std::to_string(axis) + ")"));
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct UnsortedSegmentSumLowering
    : public OpConversionPattern<UnsortedSegmentSumOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnsortedSegmentSumOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value data = adaptor.getData(), ids = adaptor.getSegmentIds();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elt = resultType.getElementType();
    int64_t r = cast<RankedTensorType>(ids.getType()).getRank();
    int64_t k = dataType.getRank() - r;
    SmallVector<Value> dyn;
    for (int64_t d = 1; d < resultType.getRank(); ++d)
      if (resultType.isDynamicDim(d))
        dyn.push_back(tensor::DimOp::create(rewriter, loc, data, d - 1 + r));
    Value init = emptyTensor(rewriter, loc, resultType, dyn);
    // With ids (a reduction) the body accumulates into a zeroed result. A
    // scalar id makes an elementwise body that must not read the result:
    // elementwise fusion would broadcast it into a consumer's loop and
    // accumulate once per consumer element.
    if (r > 0)
      init = linalg::FillOp::create(rewriter, loc, zeroOf(rewriter, loc, elt),
                                    init)
                 .getResult(0);
    // Iteration (s, j_1..j_k, i_1..i_r), the i reduced (no reshapes: MLIR
    // 22 crashes on some of their dynamic forms once fusion moves them):
    // out[s, j] += ids[i] == s ? data[i, j] : 0.
    unsigned dims = 1 + k + r;
    SmallVector<AffineExpr> inner, idx;
    for (int64_t d = 0; d < k; ++d)
      inner.push_back(getAffineDimExpr(1 + d, ctx));
    for (int64_t d = 0; d < r; ++d)
      idx.push_back(getAffineDimExpr(1 + k + d, ctx));
    SmallVector<AffineExpr> dataExprs(idx),
        outExprs = {getAffineDimExpr(0, ctx)};
    llvm::append_range(dataExprs, inner);
    llvm::append_range(outExprs, inner);
    SmallVector<AffineMap> maps = {AffineMap::get(dims, 0, idx, ctx),
                                   AffineMap::get(dims, 0, dataExprs, ctx),
                                   AffineMap::get(dims, 0, outExprs, ctx)};
    SmallVector<utils::IteratorType> iterators(1 + k,
                                               utils::IteratorType::parallel);
    iterators.append(r, utils::IteratorType::reduction);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{ids, data},
        ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value seg = arith::IndexCastOp::create(
              b, l, args[0].getType(), linalg::IndexOp::create(b, l, 0));
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            args[0], seg);
          if (r == 0) {
            linalg::YieldOp::create(
                b, l,
                Value(arith::SelectOp::create(b, l, hit, args[1],
                                              zeroOf(b, l, elt))));
            return;
          }
          Value add =
              isa<FloatType>(elt)
                  ? Value(arith::AddFOp::create(b, l, args[2], args[1]))
                  : Value(arith::AddIOp::create(b, l, args[2], args[1]));
          linalg::YieldOp::create(
              b, l, Value(arith::SelectOp::create(b, l, hit, add, args[2])));
        });
    if (r > 0)
      generic.setLibraryCallAttr(
          rewriter.getStringAttr("tfc_rt_unsorted_segment_sum"));
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::tfc::populateGatherToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherLowering, UnsortedSegmentSumLowering>(
      patterns.getContext());
}
