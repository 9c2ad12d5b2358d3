// Target::CUDA writes the same per-compile dump files as the CPU, with its
// own stages, named after the module's first public function (@chain)
// (docs/environment.md). Compiling to PTX and LLVM IR needs no
// GPU: the missing driver stops the compile only after the last dump.
// RUN: rm -rf %t && env TFC_DUMP_DIR=%t TFC_CUDA_DRIVER=%t.missing/libcuda.so.1 not tfc-run %S/Inputs/small.mlir --mode=jit --target=cuda --entry=rowsum --arg="[[1,2,3],[4,5,6]]:f32" 2>&1 | FileCheck %s --check-prefix=ERROR
// RUN: ls %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=TFC < %t/0000-chain.0-tfc.mlir
// ERROR: cannot compile for Target::CUDA
// CHECK: 0000-chain.0-tfc.mlir
// CHECK-NEXT: 0000-chain.1-optimized.mlir
// CHECK-NEXT: 0000-chain.2-gpu.mlir
// CHECK-NEXT: 0000-chain.3-nvvm.mlir
// CHECK-NEXT: 0000-chain.4-llvm-dialect.mlir
// CHECK-NEXT: 0000-chain.5-llvm.ll
// CHECK-NOT: {{.}}
// TFC: loc("{{.*}}small.mlir":{{[0-9]+}}:{{[0-9]+}})
