//===- GatherToLinalg.cpp - tfc.gather, tfc.unsorted_segment_sum ----------===//
//
//   gather                a linalg.generic over the result reading params
//                         with tensor.extract at the index (clamped into
//                         the axis: tfc-insert-runtime-checks has rejected
//                         bad indices before, and a clamped read can never
//                         leave the buffer); on the CPU its library_call
//                         makes tfc-linalg-to-blas copy whole rows with the
//                         runtime's kernel instead
//   unsorted_segment_sum  a linalg.generic over [num_segments, inner] that
//                         reduces over the ids, out[s, j] += (ids[i] == s ?
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
    AffineMap indexMap =
        AffineMap::get(rank, 0, exprs, rewriter.getContext());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value last = arith::SubIOp::create(
        rewriter, loc, tensor::DimOp::create(rewriter, loc, params, axis), one);
    Value result = buildGeneric(
        rewriter, loc, resultType, {indices}, {indexMap}, init,
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value i = arith::IndexCastOp::create(b, l, b.getIndexType(), args[0]);
          i = arith::MaxSIOp::create(b, l, arith::MinSIOp::create(b, l, i, last),
                                     zero);
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
    auto idsType = cast<RankedTensorType>(ids.getType());
    auto resultType = cast<RankedTensorType>(op.getType());
    Type elt = resultType.getElementType();
    int64_t r = idsType.getRank(), k = dataType.getRank() - r;
    int64_t n = op.getNumSegments();

    // Flatten to ids [m], data [m, inner], out [n, inner]: one generic and
    // one library call serve every rank.
    auto collapse = [&](Value v, int64_t from, int64_t to,
                        int64_t rankOf) -> Value {
      // Groups: [0, from) unchanged, [from, to) merged, the rest unchanged.
      SmallVector<ReassociationIndices> groups;
      for (int64_t d = 0; d < from; ++d)
        groups.push_back({d});
      ReassociationIndices merged;
      for (int64_t d = from; d < to; ++d)
        merged.push_back(d);
      groups.push_back(merged);
      for (int64_t d = to; d < rankOf; ++d)
        groups.push_back({d});
      return tensor::CollapseShapeOp::create(rewriter, loc, v, groups);
    };
    auto expandUnit = [&](Value v) -> Value {
      // [x] -> [x, 1].
      auto t = cast<RankedTensorType>(v.getType());
      SmallVector<OpFoldResult> shape = {
          t.isDynamicDim(0)
              ? OpFoldResult(tensor::DimOp::create(rewriter, loc, v, 0))
              : OpFoldResult(rewriter.getIndexAttr(t.getDimSize(0))),
          rewriter.getIndexAttr(1)};
      return tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({t.getDimSize(0), 1}, t.getElementType()), v,
          SmallVector<ReassociationIndices>{{0, 1}}, shape);
    };
    if (r == 0) {
      // One slice: expand the id and the data to a leading unit dim.
      ids = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, idsType.getElementType()),
          ids, SmallVector<ReassociationIndices>{},
          SmallVector<OpFoldResult>{rewriter.getIndexAttr(1)});
      SmallVector<int64_t> shape = {1};
      llvm::append_range(shape, dataType.getShape());
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1)};
      for (int64_t d = 0; d < dataType.getRank(); ++d)
        sizes.push_back(
            dataType.isDynamicDim(d)
                ? OpFoldResult(tensor::DimOp::create(rewriter, loc, data, d))
                : OpFoldResult(rewriter.getIndexAttr(dataType.getDimSize(d))));
      SmallVector<ReassociationIndices> groups;
      if (dataType.getRank() > 0) {
        groups.push_back({0, 1});
        for (int64_t d = 1; d < dataType.getRank(); ++d)
          groups.push_back({d + 1});
      }
      data = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get(shape, elt), data, groups,
          sizes);
      r = 1;
    }
    if (r > 1) {
      ids = collapse(ids, 0, r, r);
      data = collapse(data, 0, r, r + k);
    }
    if (k == 0)
      data = expandUnit(data);
    else if (k > 1)
      data = collapse(data, 1, 1 + k, 1 + k);
    auto flatData = cast<RankedTensorType>(data.getType());
    auto flatOut = RankedTensorType::get({n, flatData.getDimSize(1)}, elt);
    SmallVector<Value> dyn;
    if (flatOut.isDynamicDim(1))
      dyn.push_back(tensor::DimOp::create(rewriter, loc, data, 1));
    Value init = emptyTensor(rewriter, loc, flatOut, dyn);
    Value zero = zeroOf(rewriter, loc, elt);
    init = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
    AffineExpr s = getAffineDimExpr(0, ctx), j = getAffineDimExpr(1, ctx),
               i = getAffineDimExpr(2, ctx);
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {i}, ctx),
                                   AffineMap::get(3, 0, {i, j}, ctx),
                                   AffineMap::get(3, 0, {s, j}, ctx)};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{flatOut}, ValueRange{ids, data},
        ValueRange{init}, maps,
        {utils::IteratorType::parallel, utils::IteratorType::parallel,
         utils::IteratorType::reduction},
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value seg = arith::IndexCastOp::create(b, l, args[0].getType(),
                                                 linalg::IndexOp::create(b, l, 0));
          Value hit = arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                            args[0], seg);
          Value add = isa<FloatType>(elt)
                          ? Value(arith::AddFOp::create(b, l, args[2], args[1]))
                          : Value(arith::AddIOp::create(b, l, args[2], args[1]));
          linalg::YieldOp::create(
              b, l, Value(arith::SelectOp::create(b, l, hit, add, args[2])));
        });
    generic.setLibraryCallAttr(
        rewriter.getStringAttr("tfc_rt_unsorted_segment_sum"));
    Value out = generic.getResult(0);
    if (k == 0) {
      out = tensor::CollapseShapeOp::create(
          rewriter, loc, resultType, out,
          SmallVector<ReassociationIndices>{{0, 1}});
    } else if (k > 1) {
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(n)};
      Value original = adaptor.getData();
      int64_t dataRank = cast<RankedTensorType>(original.getType()).getRank();
      for (int64_t d = dataRank - k; d < dataRank; ++d)
        sizes.push_back(resultType.isDynamicDim(d - (dataRank - k) + 1)
                            ? OpFoldResult(tensor::DimOp::create(
                                  rewriter, loc, original, d))
                            : OpFoldResult(rewriter.getIndexAttr(
                                  resultType.getDimSize(d - (dataRank - k) +
                                                        1))));
      ReassociationIndices inner;
      for (int64_t d = 1; d <= k; ++d)
        inner.push_back(d);
      out = tensor::ExpandShapeOp::create(
          rewriter, loc, resultType, out,
          SmallVector<ReassociationIndices>{{0}, inner}, sizes);
    }
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

void mlir::tfc::populateGatherToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherLowering, UnsortedSegmentSumLowering>(
      patterns.getContext());
}
