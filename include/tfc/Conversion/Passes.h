//===- Passes.h - tfc conversion passes -------------------------*- C++ -*-===//
#ifndef TFC_CONVERSION_PASSES_H
#define TFC_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
namespace tfc {

#define GEN_PASS_DECL
#include "tfc/Conversion/Passes.h.inc"

/// Patterns lowering tfc value ops and control flow to linalg/tensor/scf.
void populateTfcToLinalgPatterns(RewritePatternSet &patterns);

/// The scalar computation of one tfc elementwise op (add, exp, cmp, cast,
/// select, ...) on already-extracted scalars `args`, producing an element of
/// `resultElementType`. Returns nullptr for ops that are not elementwise.
/// Shared by the linalg lowering and by fused loop emission.
Value buildScalarOp(Operation *op, OpBuilder &b, Location loc, ValueRange args,
                    Type resultElementType);

#define GEN_PASS_REGISTRATION
#include "tfc/Conversion/Passes.h.inc"

} // namespace tfc
} // namespace mlir

#endif // TFC_CONVERSION_PASSES_H
