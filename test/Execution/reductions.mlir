// Reductions with and without keepdims, over one axis, several axes and all
// axes, on f32 and i32 (an integer mean truncates), and argmax (first
// maximal index wins ties). Reducing every axis with keepdims = true fails
// in JIT mode: see jit-known-failures/reduce-all-keepdims.mlir.
// RUN: tfc-run %s --mode=interpret --arg="[[1,5,3],[4,2,6]]:f32" --arg="[[[1,2],[3,4]],[[5,6],[7,9]]]:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,5,3],[4,2,6]]:f32" --arg="[[[1,2],[3,4]],[[5,6],[7,9]]]:i32" | FileCheck %s

// CHECK: tfc.Tensor([5. 7. 9.], shape=(3,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}} 9.]
// CHECK-NEXT: [12.]], shape=(2, 1), dtype=float32)
// CHECK-NEXT: tfc.Tensor(21.0, shape=(), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}2.5 3.5 4.5]], shape=(1, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor([5. 6.], shape=(2,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([1. 2. 3.], shape=(3,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([15. 48.], shape=(2,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([14 23], shape=(2,), dtype=int32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[}}3]
// CHECK-NEXT: [5]]], shape=(1, 2, 1), dtype=int32)
// CHECK-NEXT: tfc.Tensor([4 9], shape=(2,), dtype=int32)
// CHECK-NEXT: tfc.Tensor(45360, shape=(), dtype=int32)
// CHECK-NEXT: tfc.Tensor([1 2], shape=(2,), dtype=int64)
// CHECK-NEXT: tfc.Tensor([1 0 1], shape=(3,), dtype=int64)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}0 0]
// CHECK-NEXT: [1 0]], shape=(2, 2), dtype=int64)

func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x2x2xi32>) -> (tensor<3xf32>, tensor<2x1xf32>, tensor<f32>, tensor<1x3xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xi32>, tensor<1x2x1xi32>, tensor<2xi32>, tensor<i32>, tensor<2xi64>, tensor<3xi64>, tensor<2x2xi64>) {
  %sum0 = tfc.reduce_sum %x, axes = [0], keepdims = false : tensor<2x3xf32> -> tensor<3xf32>
  %sum1k = tfc.reduce_sum %x, axes = [1], keepdims = true : tensor<2x3xf32> -> tensor<2x1xf32>
  %sumall = tfc.reduce_sum %x, axes = [0, 1], keepdims = false : tensor<2x3xf32> -> tensor<f32>
  %mean0k = tfc.reduce_mean %x, axes = [0], keepdims = true : tensor<2x3xf32> -> tensor<1x3xf32>
  %max1 = tfc.reduce_max %x, axes = [1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  %min0 = tfc.reduce_min %x, axes = [0], keepdims = false : tensor<2x3xf32> -> tensor<3xf32>
  %prod1 = tfc.reduce_prod %x, axes = [1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  %isum = tfc.reduce_sum %y, axes = [0, 2], keepdims = false : tensor<2x2x2xi32> -> tensor<2xi32>
  %imeank = tfc.reduce_mean %y, axes = [0, 2], keepdims = true : tensor<2x2x2xi32> -> tensor<1x2x1xi32>
  %imax = tfc.reduce_max %y, axes = [1, 2], keepdims = false : tensor<2x2x2xi32> -> tensor<2xi32>
  %iprod = tfc.reduce_prod %y, axes = [0, 1, 2], keepdims = false : tensor<2x2x2xi32> -> tensor<i32>
  %am1 = tfc.argmax %x, axis = 1 : tensor<2x3xf32> -> tensor<2xi64>
  %am0 = tfc.argmax %x, axis = 0 : tensor<2x3xf32> -> tensor<3xi64>
  %ties = tfc.constant dense<[[[1, 1], [0, 0]], [[2, 3], [3, 2]]]> : tensor<2x2x2xi32>
  %amt = tfc.argmax %ties, axis = 2 : tensor<2x2x2xi32> -> tensor<2x2xi64>
  return %sum0, %sum1k, %sumall, %mean0k, %max1, %min0, %prod1, %isum, %imeank, %imax, %iprod, %am1, %am0, %amt : tensor<3xf32>, tensor<2x1xf32>, tensor<f32>, tensor<1x3xf32>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>, tensor<2xi32>, tensor<1x2x1xi32>, tensor<2xi32>, tensor<i32>, tensor<2xi64>, tensor<3xi64>, tensor<2x2xi64>
}
