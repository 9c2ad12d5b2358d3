//===- ApproximateMath.cpp - Vectorizable transcendentals -------*- C++ -*-===//
//
// libm calls (expf, tanhf, ...) block LLVM's loop vectorizer; MLIR's
// polynomial approximations are plain arithmetic that vectorizes. Upstream
// only exposes them through a test pass, hence this thin wrapper.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/Passes.h"

#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCAPPROXIMATEMATHPASS
#include "tfc/Conversion/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;

namespace {
struct TfcApproximateMathPass
    : public tfc::impl::TfcApproximateMathPassBase<TfcApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // f32 polynomials only: the patterns match f32 and leave f64 math on
    // libm, where the approximations would lose precision.
    auto selected = [](StringRef name) {
      name.consume_front("math.");
      return llvm::is_contained({"tanh", "exp", "expm1", "log", "log1p", "log2",
                                 "sin", "cos", "atan", "erf"},
                                name);
    };
    populateMathPolynomialApproximationPatterns(patterns, selected);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
