//===- Autodiff.h - tfc-autodiff: reverse mode over tfc IR ------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The `tfc-autodiff` pass (declared in AutodiffPasses.td). It reaches the
// gradient rule of each kernel op through the bridge
// (tfc/Bridge/GradientRules.h): the rules are written once, with the public
// tfc ops, in ops/lib/GradientRules.cpp, and shared with the eager tape.
// See docs/autodiff.md.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_DIALECT_TFC_TRANSFORMS_AUTODIFF_H
#define TFC_DIALECT_TFC_TRANSFORMS_AUTODIFF_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tfc {

/// What generateVJP adds to the module.
struct GeneratedVJP {
  /// @f_vjp(args..., dys...) -> (dargs...): forward sweep, then reverse.
  func::FuncOp vjp;
  /// @f_fwd(args...) -> (results..., residuals...) and
  /// @f_bwd(args..., residuals..., dys...) -> (dargs...): the VJP cut after
  /// its forward sweep, the residuals being the values the forward sweep
  /// computes and the reverse sweep reads, so a caller keeps them from the
  /// forward call instead of recomputing it. Null when a residual is not a
  /// tensor (a loop's !tfc.stack), where only @f_vjp exists.
  func::FuncOp fwd, bwd;
};

/// Generates the VJP of `fn` (see the tfc-vjp pass); diagnostics are
/// emitted at `fn`. With `recomputeLoops`, a loop's adjoint recomputes the
/// values entering each iteration from the loop's inits instead of popping
/// them from stacks (O(N^2) for N iterations instead of O(N)): the result
/// has no stack ops, so it can be differentiated again (higher orders), and
/// it always splits into @f_fwd / @f_bwd.
FailureOr<GeneratedVJP> generateVJP(ModuleOp module, func::FuncOp fn,
                                    bool recomputeLoops = false);

/// The arguments of `fn` (a function of one block) that the adjoints of its
/// results reach, by the pass's activity analysis: the others get no
/// gradient at all (not an explicit zero, which would flow through the rules
/// of what computed them: sqrt's at 0 gives 0 * inf = NaN).
SmallVector<unsigned> activeArguments(ModuleOp module, func::FuncOp fn);

#define GEN_PASS_DECL
#include "tfc/Dialect/Tfc/Transforms/AutodiffPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tfc/Dialect/Tfc/Transforms/AutodiffPasses.h.inc"

} // namespace mlir::tfc

#endif // TFC_DIALECT_TFC_TRANSFORMS_AUTODIFF_H
