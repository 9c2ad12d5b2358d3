//===- GpuPipeline.cpp - The NVIDIA GPU pass pipeline -----------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// tfc -> linalg on tensors (shared with the CPU) -> bufferized loops ->
// scf.parallel -> gpu.launch -> outlined gpu.func -> NVVM -> PTX embedded in
// a gpu.binary; the host side becomes LLVM dialect calling mgpu* functions
// (runtime/cuda). One elementwise linalg.generic (one fused group) becomes
// one kernel; reductions and matmul become one kernel with a per-thread loop
// over the reduced dimensions. See docs/gpu.md.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/Passes.h"
#include "tfc/GPU/Passes.h"
#include "tfc/Pipelines/Pipelines.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace mlir;

std::string tfc::findLibdevice(const CudaPipelineOptions &options) {
  if (!options.libdevice.empty())
    return options.libdevice;
  SmallVector<std::string> roots;
  for (const char *env : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *v = std::getenv(env); v && *v)
      roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<128> path(root);
    llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
    if (llvm::sys::fs::exists(path))
      return std::string(path);
  }
  return "";
}

void tfc::buildLinalgToGpuPipeline(OpPassManager &pm,
                                   const CudaPipelineOptions &options) {
  pm.addNestedPass<func::FuncOp>(createTfcGpuParallelOuterPass());
  // Bufferization and deallocation exactly as on the CPU.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::BufferDeallocationPipelineOptions dealloc;
  bufferization::buildBufferDeallocationPipeline(pm, dealloc);
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createTfcGpuHostMemoryPass());
  // Parallel loops become kernels; no canonicalization before the mapping,
  // which would fold single-trip block loops and shift the mapping.
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  TfcGpuTileParallelLoopsPassOptions tile;
  tile.blockSize = options.blockSize;
  pm.addNestedPass<func::FuncOp>(createTfcGpuTileParallelLoopsPass(tile));
  pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createLowerAffinePass());
  // math.ipowi/fpowi have no NVVM lowering: expand them into functions,
  // which outlining copies into each gpu.module that calls them.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createGpuKernelOutliningPass());
}

void tfc::buildGpuToNVVMPipeline(OpPassManager &pm,
                                 const CudaPipelineOptions &options) {
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  std::string libdevice = findLibdevice(options);
  if (!libdevice.empty())
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
}

void tfc::buildGpuToLLVMPipeline(OpPassManager &pm,
                                 const CudaPipelineOptions &options) {
  // PTX, which the driver compiles for whatever GPU it finds (format "bin"
  // or "fatbin" would need ptxas on the compiling machine).
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
  // The host side, as in the CPU pipeline; launches, allocations and frees
  // become mgpu* calls.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertMathToFuncs());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  ConvertMathToLLVMPassOptions mathToLLVM;
  mathToLLVM.approximateLog1p = false;
  pm.addPass(createConvertMathToLLVMPass(mathToLLVM));
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

namespace {
/// The tfc -> linalg half shared with the CPU pipeline.
void addTfcToLinalg(OpPassManager &pm,
                    const tfc::CudaPipelineOptions &options) {
  tfc::CpuPipelineOptions cpu;
  cpu.fuseElementwise = options.fuseElementwise;
  // One kernel per fusion is launched from the host function; a fusion
  // outlined into a callee would launch from there (not validated yet).
  cpu.dedupFusions = false;
  tfc::buildTfcToLinalgPipeline(pm, cpu);
}
} // namespace

void tfc::buildTfcCudaPipeline(OpPassManager &pm,
                               const CudaPipelineOptions &options) {
  buildTfcPreparePipeline(pm);
  addTfcToLinalg(pm, options);
  buildLinalgToGpuPipeline(pm, options);
  buildGpuToNVVMPipeline(pm, options);
  buildGpuToLLVMPipeline(pm, options);
}

void tfc::registerTfcCudaPipelines() {
  registerTfcGPUPasses();
  registerGPUPasses();
  PassPipelineRegistration<CudaPipelineOptions>(
      "tfc-cuda-pipeline",
      "Lower tfc to the LLVM dialect for NVIDIA GPUs: host code calling the "
      "mgpu* runtime, kernels as embedded PTX",
      buildTfcCudaPipeline);
  PassPipelineRegistration<CudaPipelineOptions>(
      "tfc-cuda-outline-pipeline",
      "First stage of tfc-cuda-pipeline: tfc -> host functions launching "
      "outlined gpu.func kernels",
      [](OpPassManager &pm, const CudaPipelineOptions &options) {
        addTfcToLinalg(pm, options);
        buildLinalgToGpuPipeline(pm, options);
      });
  PassPipelineRegistration<CudaPipelineOptions>(
      "tfc-cuda-nvvm-pipeline",
      "First two stages of tfc-cuda-pipeline: tfc -> host functions and "
      "kernels lowered to NVVM",
      [](OpPassManager &pm, const CudaPipelineOptions &options) {
        addTfcToLinalg(pm, options);
        buildLinalgToGpuPipeline(pm, options);
        buildGpuToNVVMPipeline(pm, options);
      });
}
