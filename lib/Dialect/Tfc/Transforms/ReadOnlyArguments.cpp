//===- ReadOnlyArguments.cpp - tfc-readonly-arguments ---------------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
#include "tfc/Dialect/Tfc/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCREADONLYARGUMENTSPASS
#include "tfc/Dialect/Tfc/Transforms/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;

namespace {
struct ReadOnlyArgumentsPass
    : tfc::impl::TfcReadOnlyArgumentsPassBase<ReadOnlyArgumentsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isDeclaration() || fn.isPrivate())
        continue;
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (isa<TensorType>(fn.getArgument(i).getType()))
          fn.setArgAttr(i,
                        bufferization::BufferizationDialect::kWritableAttrName,
                        BoolAttr::get(ctx, false));
    }
  }
};
} // namespace
