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

#include "mlir/Pass/Pass.h"

namespace mlir::tfc {

#define GEN_PASS_DECL
#include "tfc/Dialect/Tfc/Transforms/AutodiffPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "tfc/Dialect/Tfc/Transforms/AutodiffPasses.h.inc"

} // namespace mlir::tfc

#endif // TFC_DIALECT_TFC_TRANSFORMS_AUTODIFF_H
