// Reducing every axis with keepdims = true (rank 0 -> all-unit shape).
// RUN: tfc-run %s --mode=interpret --arg="[[1,5,3],[4,2,6]]:f32" --arg="[[[1,2],[3,4]],[[5,6],[7,9]]]:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,5,3],[4,2,6]]:f32" --arg="[[[1,2],[3,4]],[[5,6],[7,9]]]:i32" | FileCheck %s

// CHECK: tfc.Tensor({{\[\[}}21.]], shape=(1, 1), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}3.5]], shape=(1, 1), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[\[}}9]]], shape=(1, 1, 1), dtype=int32)

func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x2x2xi32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1x1xi32>) {
  %sum = tfc.reduce_sum %x, axes = [0, 1], keepdims = true : tensor<2x3xf32> -> tensor<1x1xf32>
  %mean = tfc.reduce_mean %x, axes = [0, 1], keepdims = true : tensor<2x3xf32> -> tensor<1x1xf32>
  %max = tfc.reduce_max %y, axes = [0, 1, 2], keepdims = true : tensor<2x2x2xi32> -> tensor<1x1x1xi32>
  return %sum, %mean, %max : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1x1xi32>
}
