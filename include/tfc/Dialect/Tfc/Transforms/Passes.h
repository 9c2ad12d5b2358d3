//===- Passes.h - tfc dialect transforms ------------------------*- C++ -*-===//
#ifndef TFC_DIALECT_TFC_TRANSFORMS_PASSES_H
#define TFC_DIALECT_TFC_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfc {

#define GEN_PASS_DECL
#include "tfc/Dialect/Tfc/Transforms/Passes.h.inc"

/// Promotes the `!tfc.var` arguments of `func` to values (see the pass
/// description). Fails, with a diagnostic, on uses it cannot thread.
LogicalResult promoteVariables(func::FuncOp func);

#define GEN_PASS_REGISTRATION
#include "tfc/Dialect/Tfc/Transforms/Passes.h.inc"

} // namespace mlir::tfc

#endif // TFC_DIALECT_TFC_TRANSFORMS_PASSES_H
