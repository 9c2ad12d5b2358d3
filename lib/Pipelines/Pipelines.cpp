//===- Pipelines.cpp - One pass pipeline per target -------------*- C++ -*-===//
#include "tfc/Pipelines/Pipelines.h"
#include "tfc/Conversion/Passes.h"
#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tfc::buildTfcPreparePipeline(OpPassManager &pm) {
  // Gradients first (a tape inside a traced function emits tfc.grad); then
  // inline calls, so that variable handles passed to callees are
  // promoted along with the caller's.
  pm.addPass(createTfcAutodiffPass());
  pm.addPass(createInlinerPass());
  pm.addPass(createSymbolDCEPass());
  pm.addPass(createTfcPromoteVariablesPass());
  pm.addPass(createTfcReadOnlyArgumentsPass());
}

void tfc::buildTfcToLinalgPipeline(OpPassManager &pm,
                                   const CpuPipelineOptions &options) {
  pm.addPass(createInlinerPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Before fusion: the checks read dims off the unfused values.
  pm.addPass(createTfcInsertRuntimeChecksPass());
  pm.addPass(createCSEPass());
  if (options.fuseElementwise) {
    pm.addPass(createTfcFuseElementwisePass());
    if (options.dedupFusions)
      pm.addPass(createTfcDedupFusionsPass());
  }
  pm.addPass(createConvertTfcToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  if (options.fuseElementwise)
    pm.addNestedPass<func::FuncOp>(createTfcLinalgFuseElementwisePass());
  pm.addPass(createCSEPass());
}

void tfc::buildLinalgToLLVMPipeline(OpPassManager &pm,
                                    const CpuPipelineOptions &options) {
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // tfc.while carries fresh tensors around the loop (x = f(x)).
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createConvertBufferizationToMemRefPass());
  TfcLinalgToBlasPassOptions blas;
  blas.minWork = options.blasMinWork;
  blas.kernelCalls = options.kernelCalls;
  pm.addPass(createTfcLinalgToBlasPass(blas));
  TfcLinalgToLoopsPassOptions loops;
  loops.parallelThreshold = options.parallelThreshold;
  pm.addNestedPass<func::FuncOp>(createTfcLinalgToLoopsPass(loops));
  if (options.parallelThreshold > 0) {
    pm.addPass(createConvertSCFToOpenMPPass());
    // scf-to-openmp wraps each loop body in memref.alloca_scope; with no
    // alloca inside, canonicalization inlines it (a scope must stay one
    // block, which scf-to-cf would break).
    pm.addPass(createCanonicalizerPass());
    // Teams sized by kernels::set_num_threads at run time, on any thread.
    pm.addPass(createTfcOpenMPNumThreadsPass());
  }
  if (options.approximateMath)
    pm.addPass(tfc::createTfcApproximateMathPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  // log1p must stay log1p (libm) for f64: the default expansion as
  // log(1 + x) loses all precision for small x (docs/testing.md, bug 13).
  ConvertMathToLLVMPassOptions mathToLLVM;
  mathToLLVM.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathToLLVM));
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  if (options.parallelThreshold > 0)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void tfc::buildTfcCpuPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options) {
  buildTfcPreparePipeline(pm);
  buildTfcToLinalgPipeline(pm, options);
  buildLinalgToLLVMPipeline(pm, options);
}

void tfc::registerTfcPipelines() {
  PassPipelineRegistration<CpuPipelineOptions>(
      "tfc-cpu-pipeline", "Lower tfc to the LLVM dialect for the CPU JIT",
      buildTfcCpuPipeline);
  PassPipelineRegistration<>(
      "tfc-prepare-pipeline",
      "Inline, drop dead symbols, promote variables to values, mark "
      "arguments read-only (the first steps of every target's pipeline; the "
      "JIT reads function signatures after it)",
      buildTfcPreparePipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "tfc-to-linalg-pipeline",
      "Lower tfc to linalg/tensor/scf on tensors (first half of the CPU "
      "pipeline)",
      buildTfcToLinalgPipeline);
  PassPipelineRegistration<CpuPipelineOptions>(
      "tfc-linalg-to-llvm-pipeline",
      "Bufferize and lower linalg on tensors to the LLVM dialect (second half "
      "of the CPU pipeline)",
      buildLinalgToLLVMPipeline);
  registerTfcCudaPipelines();
}
