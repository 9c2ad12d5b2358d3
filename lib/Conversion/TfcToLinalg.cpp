//===- TfcToLinalg.cpp - Lower tfc to linalg/tensor/arith/scf ---*- C++ -*-===//
//
// tfc values are builtin tensors, so this lowering keeps types and rewrites
// ops: elementwise ops and broadcasts become linalg.generic (fusable by
// upstream elementwise fusion), reductions become linalg.generic with
// reduction iterators, matmul becomes linalg.(batch_)matmul, shape ops become
// tensor reshapes/slices, tfc.if/while become scf.if/while.
//
// This file holds the pass and populateTfcToLinalgPatterns; the patterns live
// one op family per file in TfcToLinalg/ (see TfcToLinalg/Patterns.h).
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/Passes.h"
#include "tfc/Conversion/TfcStackToRuntime.h"
#include "tfc/Conversion/TfcToLinalg/Patterns.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_CONVERTTFCTOLINALGPASS
#include "tfc/Conversion/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using namespace mlir::tfc;

namespace {

struct ConvertTfcToLinalgPass
    : public tfc::impl::ConvertTfcToLinalgPassBase<ConvertTfcToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    ConversionTarget target(*ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect, func::FuncDialect,
                           LLVM::LLVMDialect, memref::MemRefDialect,
                           bufferization::BufferizationDialect>();
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
  populateElementwiseToLinalgPatterns(patterns);
  populateMatmulToLinalgPatterns(patterns);
  populateConvToLinalgPatterns(patterns);
  populatePoolToLinalgPatterns(patterns);
  populateGatherToLinalgPatterns(patterns);
  populateRandomToLinalgPatterns(patterns);
  populateScanToLinalgPatterns(patterns);
  populateShapeToLinalgPatterns(patterns);
  populateReductionToLinalgPatterns(patterns);
  populateControlFlowToSCFPatterns(patterns);
  populatePrintAndChecksToRuntimePatterns(patterns);
  populateFusionToLinalgPatterns(patterns);
  populateTfcStackToRuntimePatterns(patterns); // tfc-autodiff's ops
}
