//===- Passes.td - tfc passes of the NVIDIA GPU path -------*- tablegen -*-===//
#ifndef TFC_GPU_PASSES_TD
#define TFC_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def TfcGpuParallelOuterPass : Pass<"tfc-gpu-parallel-outer", "func::FuncOp"> {
  let summary = "Interchange linalg.generic loops so parallel loops are outermost";
  let description = [{
    `convert-linalg-to-parallel-loops` turns the parallel loops it finds
    outside every reduction loop into one `scf.parallel`, which becomes the
    kernel's grid; a reduction loop in between (a matmul traced as
    `(i, k, j)`) would leave `j` as a sequential loop. Moving the parallel
    dimensions first gives one GPU thread per output element, with the
    reduction as a per-thread loop.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def TfcGpuHostMemoryPass : Pass<"tfc-gpu-host-memory", "ModuleOp"> {
  let summary = "Put every buffer in memory that both the host and kernels access";
  let description = [{
    Runs on bufferized IR (explicit `memref.alloc`/`memref.dealloc`). Every
    allocation becomes `gpu.alloc host_shared` (CUDA managed memory) and
    every deallocation the matching `gpu.dealloc`, so kernels and the host
    code that stays on the CPU (loop conditions, scalar updates, prints)
    share buffers without copies. Constant globals are copied into such a
    buffer once per call (and freed before returning unless a result is
    that buffer). Public functions take their memref arguments in managed
    memory (the JIT's caller copies host tensors to the device first) and
    return managed buffers that the caller owns and frees: results stay on
    the device. Before every return the function reports a pending CUDA
    failure through `tfc_rt_assert`.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TfcGpuTileParallelLoopsPass
    : Pass<"tfc-gpu-tile-parallel-loops", "func::FuncOp"> {
  let summary = "Collapse each outermost scf.parallel to 1-D and tile it into blocks";
  let description = [{
    Each outermost `scf.parallel` is collapsed to one dimension (so no grid
    dimension can exceed CUDA's 65535 limit on y/z) and tiled by
    `block-size`: the outer loop becomes the grid, the inner loop the
    threads of a block, with a bounds check for the last block.
    `gpu-map-parallel-loops` then maps them to blocks and threads.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::affine::AffineDialect"];
}

#endif // TFC_GPU_PASSES_TD
