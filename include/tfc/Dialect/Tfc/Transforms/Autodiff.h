//===- Autodiff.h - tfc-autodiff: reverse mode over tfc IR ------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The `tfc-autodiff` pass (declared in AutodiffPasses.td) and the one hook
// it needs from the frontend: the gradient rule of a kernel op. The rules
// are written once, with the public tfc ops, in
// python-free-frontend/lib/GradientRules.cpp and shared with the eager tape;
// the frontend runs them through its tracer at the pass's insertion point.
// See docs/autodiff.md.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_DIALECT_TFC_TRANSFORMS_AUTODIFF_H
#define TFC_DIALECT_TFC_TRANSFORMS_AUTODIFF_H

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfc {

#define GEN_PASS_DECL
#include "tfc/Dialect/Tfc/Transforms/AutodiffPasses.h.inc"

/// Builds, at `builder`'s insertion point, the adjoints of the operands of
/// `op` (a tfc op with a runtime kernel: tfc.add, tfc.matmul, ...) given the
/// adjoint `dy` of its result. `operands` and `result` are the forward values
/// to use (the op's own, or their clones). Returns one value per operand,
/// null where no gradient flows (integer operands, non-differentiable ops).
/// Fails with a diagnostic on `op` where the rule does. Defined by the
/// frontend (python-free-frontend/lib/AutodiffRules.cpp).
FailureOr<SmallVector<Value>> emitGradientRule(OpBuilder &builder,
                                               Operation *op,
                                               ValueRange operands,
                                               Value result, Value dy);

/// Whether emitGradientRule passes an adjoint through `op` at all (false for
/// non-differentiable ops such as tfc.floor_div or tfc.cmp). Defined with it.
bool hasGradientRule(Operation *op);

#define GEN_PASS_REGISTRATION
#include "tfc/Dialect/Tfc/Transforms/AutodiffPasses.h.inc"

} // namespace mlir::tfc

#endif // TFC_DIALECT_TFC_TRANSFORMS_AUTODIFF_H
