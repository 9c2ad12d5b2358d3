// Three identical blocks (matmul, then a fused y * 2 - 1): tfc-dedup-fusions
// compiles the fusion once and calls it three times; the results must be
// the interpreter's. With M the identity, each block maps y to 2y - 1:
// [1,2,3,4] -> [1,3,5,7] -> [1,5,9,13] -> [1,9,17,25].
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3,4]]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3,4]]:f32" | FileCheck %s
// RUN: tfc-opt %s --tfc-cpu-pipeline | FileCheck %s --check-prefix=IR

// IR-COUNT-3: llvm.call @main_fusion(
// CHECK: tfc.Tensor({{\[}}[ 1.  9. 17. 25.]], shape=(1, 4), dtype=float32)

func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %m = tfc.constant dense<[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]> : tensor<4x4xf32>
  %two = tfc.constant dense<2.0> : tensor<1x4xf32>
  %one = tfc.constant dense<1.0> : tensor<1x4xf32>
  %z0 = tfc.matmul %x, %m : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a0 = tfc.mul %z0, %two : tensor<1x4xf32>
  %y0 = tfc.sub %a0, %one : tensor<1x4xf32>
  %z1 = tfc.matmul %y0, %m : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a1 = tfc.mul %z1, %two : tensor<1x4xf32>
  %y1 = tfc.sub %a1, %one : tensor<1x4xf32>
  %z2 = tfc.matmul %y1, %m : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
  %a2 = tfc.mul %z2, %two : tensor<1x4xf32>
  %y2 = tfc.sub %a2, %one : tensor<1x4xf32>
  return %y2 : tensor<1x4xf32>
}
