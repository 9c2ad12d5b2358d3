//===- ControlFlowToSCF.cpp - tfc control flow to scf -----------*- C++ -*-===//
//
// tfc.if/while and their terminators become scf.if/while/yield/condition;
// the regions move over unchanged, their rank-0 tensor<i1> predicates
// become i1 scalars.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

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

} // namespace

void mlir::tfc::populateControlFlowToSCFPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<IfLowering, WhileLowering, YieldLowering, ConditionLowering>(
      ctx);
}
