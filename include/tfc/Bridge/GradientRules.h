//===- GradientRules.h - The gradient rules at an OpBuilder -----*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The ops layer's gradient rules (one per op, written with the public tfc
// ops, shared with the eager tape) run here at an OpBuilder's insertion
// point through an IRTrace, so they build tfc IR. This is what the
// tfc-autodiff pass calls for each kernel op; nothing here needs the user
// API, the JIT or a runtime kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BRIDGE_GRADIENTRULES_H
#define TFC_BRIDGE_GRADIENTRULES_H

#include "mlir/IR/Builders.h"
#include "mlir/Support/LLVM.h"

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::bridge {

/// Builds, at `builder`'s insertion point, the adjoints of the operands of
/// `op` (a tfc op with a runtime kernel: tfc.add, tfc.matmul, ...) given the
/// adjoint `dy` of its result. `operands` and `result` are the forward values
/// to use (the op's own, or their clones). Returns one value per operand,
/// null where no gradient flows (integer operands, non-differentiable ops).
/// Fails with a diagnostic on `op` where the rule does.
mlir::FailureOr<llvm::SmallVector<mlir::Value>>
emitGradientRule(mlir::OpBuilder &builder, mlir::Operation *op,
                 mlir::ValueRange operands, mlir::Value result, mlir::Value dy);

/// Whether emitGradientRule passes an adjoint through `op` at all (false for
/// non-differentiable ops such as tfc.floor_div or tfc.cmp).
bool hasGradientRule(mlir::Operation *op);

} // namespace tfc::bridge
#pragma GCC visibility pop

#endif // TFC_BRIDGE_GRADIENTRULES_H
