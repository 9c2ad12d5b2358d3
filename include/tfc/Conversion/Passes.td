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
    (`tfc_rt_print_tensor`, `tfc_rt_assert`); `tfc.all_reduce` a call of
    `tfc_rt_all_reduce_<type>` that writes a fresh buffer
    (`memref.alloc` + `bufferization.to_tensor restrict`). Variable ops must have been
    removed by `tfc-promote-variables` first.

    Integer division lowers with a guarded divisor: a zero divisor (or
    INT_MIN / -1) would trap in LLVM; such lanes yield 0 instead (see
    docs/semantics.md).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect", "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::memref::MemRefDialect",
    "::mlir::bufferization::BufferizationDialect"
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

def TfcLinalgFuseElementwisePass : Pass<"tfc-linalg-fuse-elementwise"> {
  let summary = "Fuse elementwise linalg.generic ops, except library calls";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` (elementwise fusion of
    single-use producers, reshape propagation by expansion, the generic
    canonicalizations), with one difference: a `linalg.generic` that
    carries a `library_call` (gather, segment sums, scans, Philox draws,
    pooling: ops whose CPU code is a runtime kernel) is neither fused into
    its consumer nor has its producers fused into it. Fused, it would lose
    the tag: its loops would run instead of the kernel, and a Philox draw
    would no longer give the eager kernel's bits.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::affine::AffineDialect"];
}

def TfcLinalgToBlasPass : Pass<"tfc-linalg-to-blas", "ModuleOp"> {
  let summary = "Call OpenBLAS for large float matmuls (on buffers)";
  let description = [{
    Replaces `linalg.matmul` on f32/f64 memrefs whose iteration space has at
    least `min-work` points (M * N * K; dynamic sizes always qualify) by a
    call of the runtime's `tfc_rt_gemm_f32`/`_f64`, which passes the views
    to `cblas_sgemm`/`cblas_dgemm`. A zero `linalg.fill` of the output just
    before the matmul is folded into the call (beta = 0). Row-vector
    products (M = 1) below 16 * `min-work` stay inline. Smaller matmuls
    stay for `tfc-linalg-to-loops`, which emits vectorizable loops: below
    the threshold the library call's fixed cost dominates.

    Example:
    ```mlir
    linalg.fill ins(%zero : f32) outs(%c : memref<64x256xf32>)
    linalg.matmul ins(%a, %b : memref<64x784xf32>, memref<784x256xf32>)
                  outs(%c : memref<64x256xf32>)
    // becomes
    call @tfc_rt_gemm_f32(%a', %b', %c', %beta0)
        : (memref<?x?xf32, strided<[?, ?], offset: ?>>, ..., f32) -> ()
    ```
  }];
  let options = [
    Option<"minWork", "min-work", "unsigned", /*default=*/"1024",
           "Smallest M*N*K sent to the library">,
    Option<"kernelCalls", "kernel-calls", "bool", /*default=*/"true",
           "Replace the linalg.generic ops tagged with a runtime kernel "
           "(library_call: pooling, gather, segment sums, scans, Philox) by "
           "calls of it; false runs their loops, what the GPU pipeline runs">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TfcLinalgToLoopsPass : Pass<"tfc-linalg-to-loops"> {
  let summary = "Lower linalg ops on buffers to loops, parallel where it pays";
  let description = [{
    Like `convert-linalg-to-loops`, with two decisions:
    - an op whose iteration space has at least `parallel-threshold` points
      and a parallel dim runs its leading parallel dims as an
      `scf.parallel` (later OpenMP, one thread per core): as many as it
      takes to reach 64 iterations, the other loops sequential inside in
      the op's order, so the innermost one walks contiguous memory and
      vectorizes (OpenMP flattens a multi-dim parallel loop and divides
      per element to rebuild the indices, which does not). Smaller ops
      stay sequential `scf.for` loops, since waking a thread costs more
      than they take. With dynamic sizes both versions are emitted under
      an `scf.if` on the run-time size.
    - a reduction over the leading dims of row-major operands whose kept
      dims are innermost (a bias gradient, summing an NHWC tensor over
      n, h, w) stays sequential in its own order: its inner loop adds
      contiguous rows and vectorizes, where a parallel loop over the kept
      dims would read every element strided.
    - a generated `linalg.matmul` runs its loops in (i, k, j) order: the
      innermost loop walks rows of B and C contiguously and vectorizes
      (the named op's (i, j, k) order is about 3x slower here).
    - the sequential loops of an op whose body calls a transcendental
      function (`math.tanh`, `math.exp`, ...) carry
      `#llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>`:
      each call later expands into a polynomial of tens of vector
      instructions, and LLVM's full unrolling of small static loops
      multiplied that code (and the compile time) without making it
      faster. The vectorizer still widens the innermost loop.
    - a `memref.copy` between strided views (the blocks of a concat or a
      slice's gradient) becomes `linalg.copy` first, hence loops like the
      rest; MLIR lowers it to a call of the generic `memrefCopy`, which
      moves one element at a time. A copy of a splat constant global
      becomes `linalg.fill`. Copies between contiguous buffers stay
      (`memcpy`).
    `parallel-threshold=0` keeps everything sequential.
  }];
  let options = [
    Option<"parallelThreshold", "parallel-threshold", "unsigned",
           /*default=*/"32768",
           "Smallest iteration space run in parallel (0: never)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def TfcOpenMPNumThreadsPass : Pass<"tfc-openmp-num-threads", "ModuleOp"> {
  let summary = "Size every OpenMP team by the runtime's thread setting";
  let description = [{
    Gives each `omp.parallel` without a `num_threads` clause one read at run
    time from the runtime (`tfc_rt_num_threads()`, the value of
    `tfc::kernels::set_num_threads` / `TFC_NUM_THREADS`). Without it libomp
    sizes a team by the calling thread's own `nthreads-var` ICV, which
    `omp_set_num_threads` sets for that thread only, so a process-wide
    setting could not reach code run from other threads, and a compiled
    (cached) function could not follow later changes. Runs after
    `convert-scf-to-openmp`.

    Example:
    ```mlir
    omp.parallel { ... }
    // becomes
    %n = call @tfc_rt_num_threads() : () -> i32
    omp.parallel num_threads(%n : i32) { ... }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::omp::OpenMPDialect"];
}

#endif // TFC_CONVERSION_PASSES_TD
