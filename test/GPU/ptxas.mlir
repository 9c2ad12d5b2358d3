// The PTX of every kernel of the four programs assembles with ptxas for
// sm_90 (CUDA toolkit needed; UNSUPPORTED without it).
// REQUIRES: ptxas
// RUN: tfc-opt %S/Inputs/programs.mlir --tfc-cuda-pipeline -o %t.mlir
// RUN: rm -rf %t.dir
// RUN: %python %S/Inputs/assemble-ptx.py %ptxas sm_90 %t.mlir %t.dir | FileCheck %s

// CHECK: ptxas ok: chain_kernel (1 entries)
// CHECK-NEXT: ptxas ok: rowsum_kernel (1 entries)
// CHECK-NEXT: ptxas ok: rowsum_kernel_0 (1 entries)
// CHECK-NEXT: ptxas ok: mm_kernel (1 entries)
// CHECK-NEXT: ptxas ok: mm_kernel_1 (1 entries)
// CHECK-NEXT: ptxas ok: loop_kernel (1 entries)
// CHECK-NOT: ptxas ok
