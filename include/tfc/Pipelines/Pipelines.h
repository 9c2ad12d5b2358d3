//===- Pipelines.h - One pass pipeline per target ---------------*- C++ -*-===//
//
// The pipelines that take tfc IR to the LLVM dialect. tfc-opt (as named
// pipelines), the JIT and the tests all build them through these functions.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_PIPELINES_PIPELINES_H
#define TFC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace tfc {

struct CpuPipelineOptions : public PassPipelineOptions<CpuPipelineOptions> {
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("Use vectorizable polynomial approximations for f32 "
                     "transcendentals"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise producers into their consumers"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> parallelThreshold{
      *this, "parallel-threshold",
      llvm::cl::desc("Smallest loop nest run on all cores with OpenMP "
                     "(0: never)"),
      llvm::cl::init(32768)};
  PassOptions::Option<unsigned> blasMinWork{
      *this, "blas-min-work",
      llvm::cl::desc("Smallest float matmul (M*N*K) sent to OpenBLAS"),
      llvm::cl::init(1024)};
  PassOptions::Option<bool> kernelCalls{
      *this, "kernel-calls",
      llvm::cl::desc("Call the runtime's kernels for the linalg ops tagged "
                     "with one (false: run their loops, as the GPU does)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> dedupFusions{
      *this, "dedup-fusions",
      llvm::cl::desc("Compile repeated identical fusions once, as one "
                     "function (tfc-dedup-fusions)"),
      llvm::cl::init(true)};
};

/// tfc (after canonicalization) -> linalg/tensor/scf on tensors.
/// The target-independent first steps of every pipeline: inline,
/// symbol-dce, tfc-promote-variables, tfc-readonly-arguments. After it the
/// public functions have their final signatures (the JIT reads them there).
void buildTfcPreparePipeline(OpPassManager &pm);
void buildTfcToLinalgPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options);
/// Bufferized, loop-level IR -> LLVM dialect. Allocations go through the
/// generic `_mlir_memref_to_llvm_*` functions, which the runtime defines.
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const CpuPipelineOptions &options);
/// The whole CPU pipeline: tfc -> LLVM dialect (prepare, to-linalg,
/// linalg-to-llvm): exactly what the JIT runs.
void buildTfcCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Registers `tfc-cpu-pipeline`, `tfc-to-linalg-pipeline` and
/// `tfc-linalg-to-llvm-pipeline` for tfc-opt.
void registerTfcPipelines();

//===----------------------------------------------------------------------===//
// NVIDIA GPU (lib/Pipelines/GpuPipeline.cpp, docs/gpu.md)
//===----------------------------------------------------------------------===//

struct CudaPipelineOptions : public PassPipelineOptions<CudaPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("The GPU architecture (sm_XX)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (PTX 8.0 is the first that has sm_90)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<unsigned> optLevel{
      *this, "opt-level", llvm::cl::desc("NVPTX optimization level, 0..3"),
      llvm::cl::init(3)};
  PassOptions::Option<int64_t> blockSize{*this, "block-size",
                                         llvm::cl::desc("Threads per block"),
                                         llvm::cl::init(256)};
  PassOptions::Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("Fuse elementwise producers into their consumers"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("libdevice bitcode to link into kernels (for f64 math "
                     "and other __nv_* calls); empty: look under CUDA_HOME "
                     "and /usr/local/cuda"),
      llvm::cl::init("")};
};

/// Bufferized linalg on tensors -> host functions that launch outlined
/// `gpu.func` kernels; every buffer is CUDA managed memory.
void buildLinalgToGpuPipeline(OpPassManager &pm,
                              const CudaPipelineOptions &options);
/// Outlined kernels -> NVVM: attaches the NVVM target and lowers every
/// gpu.module to the LLVM/NVVM dialects.
void buildGpuToNVVMPipeline(OpPassManager &pm,
                            const CudaPipelineOptions &options);
/// NVVM kernels -> PTX (`gpu.binary`), host code -> LLVM dialect calling the
/// mgpu* runtime (runtime/cuda).
void buildGpuToLLVMPipeline(OpPassManager &pm,
                            const CudaPipelineOptions &options);
/// The whole CUDA pipeline: tfc -> LLVM dialect + embedded PTX.
void buildTfcCudaPipeline(OpPassManager &pm,
                          const CudaPipelineOptions &options);
/// The libdevice the pipeline links, or "" when none was found.
std::string findLibdevice(const CudaPipelineOptions &options);

/// Registers `tfc-cuda-pipeline` and its stages (`tfc-cuda-outline-pipeline`,
/// `tfc-cuda-nvvm-pipeline`), the tfc GPU passes and the upstream GPU passes.
void registerTfcCudaPipelines();

} // namespace tfc
} // namespace mlir

#endif // TFC_PIPELINES_PIPELINES_H
