//===- Pipelines.h - One pass pipeline per target ---------------*- C++ -*-===//
//
// The pipelines that take tfc IR to the LLVM dialect. tfc-opt (as named
// pipelines), the JIT and the tests all build them through these functions.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_PIPELINES_PIPELINES_H
#define TFC_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

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
};

/// tfc (after canonicalization) -> linalg/tensor/scf on tensors.
void buildTfcToLinalgPipeline(OpPassManager &pm,
                              const CpuPipelineOptions &options);
/// Bufferized, loop-level IR -> LLVM dialect. Allocations go through the
/// generic `_mlir_memref_to_llvm_*` functions, which the runtime defines.
void buildLinalgToLLVMPipeline(OpPassManager &pm,
                               const CpuPipelineOptions &options);
/// The whole CPU pipeline: tfc -> LLVM dialect.
void buildTfcCpuPipeline(OpPassManager &pm, const CpuPipelineOptions &options);

/// Registers `tfc-cpu-pipeline`, `tfc-to-linalg-pipeline` and
/// `tfc-linalg-to-llvm-pipeline` for tfc-opt.
void registerTfcPipelines();

} // namespace tfc
} // namespace mlir

#endif // TFC_PIPELINES_PIPELINES_H
