// Ops that are the identity on their operand: stop_gradient, reductions and
// squeeze with an empty `axes` list (the dialect's meaning: reduce no dims),
// a transpose with the identity permutation, and a reshape to the same type.
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3]]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3]]:f32" | FileCheck %s

// CHECK: tfc.Tensor({{\[\[}}1. 2. 3.]], shape=(1, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}1. 2. 3.]], shape=(1, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}1. 2. 3.]], shape=(1, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}1. 2. 3.]], shape=(1, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}1. 2. 3.]], shape=(1, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}1. 2. 3.]], shape=(1, 3), dtype=float32)

func.func @main(%x: tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %sg = tfc.stop_gradient %x : tensor<1x3xf32>
  %sum = tfc.reduce_sum %x, axes = [], keepdims = false : tensor<1x3xf32> -> tensor<1x3xf32>
  %max = tfc.reduce_max %x, axes = [], keepdims = true : tensor<1x3xf32> -> tensor<1x3xf32>
  %sq = tfc.squeeze %x, axes = [] : tensor<1x3xf32> -> tensor<1x3xf32>
  %t = tfc.transpose %x, perm = [0, 1] : tensor<1x3xf32> -> tensor<1x3xf32>
  %r = tfc.reshape %x : tensor<1x3xf32> -> tensor<1x3xf32>
  return %sg, %sum, %max, %sq, %t, %r : tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}
