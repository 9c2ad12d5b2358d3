//===- Passes.td - tfc conversion passes -------------------*- tablegen -*-===//
#ifndef TFC_CONVERSION_PASSES_TD
#define TFC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTfcToLinalgPass : Pass<"convert-tfc-to-linalg", "ModuleOp"> {
  let summary = "Lower tfc ops to linalg, tensor, arith, math and scf";
  let description = [{
    Every tfc value op becomes upstream ops on tensors: elementwise ops and
    broadcasts become `linalg.generic` with parallel iterators (so upstream
    elementwise fusion applies), reductions become `linalg.generic` with
    reduction iterators, `tfc.matmul` becomes `linalg.matmul` /
    `linalg.batch_matmul`, shape ops become `tensor` reshapes and slices, and
    `tfc.if` / `tfc.while` become `scf.if` / `scf.while` on the extracted
    `i1`. `tfc.print` and `tfc.assert` become calls to runtime functions
    (`tfc_rt_print_tensor`, `tfc_rt_assert`). Variable ops must have been
    removed by `tfc-promote-variables` first.

    Integer division lowers with a guarded divisor: a zero divisor (or
    INT_MIN / -1) would trap in LLVM; such lanes yield 0 instead (see
    docs/semantics.md).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect"
  ];
}

def TfcApproximateMathPass : Pass<"tfc-approximate-math"> {
  let summary = "Replace transcendental math ops by vectorizable polynomials";
  let description = [{
    Scalar libm calls do not vectorize; MLIR's polynomial approximations of
    `math.tanh`, `math.exp`, `math.log`, `math.log1p`, `math.sin`, `math.cos`,
    ... are plain arithmetic that LLVM vectorizes. Upstream exposes them only
    as a test pass; this is the production wrapper.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // TFC_CONVERSION_PASSES_TD
