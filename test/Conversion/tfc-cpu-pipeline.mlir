// RUN: tfc-opt %s --tfc-cpu-pipeline | FileCheck %s
// RUN: tfc-opt %s --tfc-to-linalg-pipeline | FileCheck %s --check-prefix=FUSED
// RUN: tfc-opt %s --tfc-to-linalg-pipeline=fuse-elementwise=false | FileCheck %s --check-prefix=UNFUSED

// The whole CPU pipeline ends in the LLVM dialect, allocating through the
// runtime's generic allocation functions.
// CHECK: llvm.func @_mlir_memref_to_llvm_alloc
// CHECK-LABEL: llvm.func @f
// CHECK-NOT: linalg.
// CHECK-NOT: tfc.

// Elementwise fusion merges the add and the tanh into one loop nest.
// FUSED-LABEL: func @f
// FUSED-COUNT-1: linalg.generic
// FUSED-NOT: linalg.generic
// UNFUSED-LABEL: func @f
// UNFUSED-COUNT-2: linalg.generic
func.func @f(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tfc.add %a, %b : tensor<8xf32>
  %1 = tfc.tanh %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}
