// Shape ops: transpose (2-D and 3-D), reshape, expand_dims, squeeze, concat
// along axis 0, and slices (a contiguous one returned, a strided one
// consumed by a reduction). A strided slice returned as a result and concat
// along an inner axis fail in JIT mode: see jit-known-failures/.
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3],[4,5,6]]:f32" --arg="[[[1,2]],[[3,4]]]:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3],[4,5,6]]:f32" --arg="[[[1,2]],[[3,4]]]:i32" | FileCheck %s

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1. 4.]
// CHECK-NEXT: [2. 5.]
// CHECK-NEXT: [3. 6.]], shape=(3, 2), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[}}1]
// CHECK-NEXT: [3]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}2]
// CHECK-NEXT: [4]]], shape=(2, 2, 1), dtype=int32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1. 2.]
// CHECK-NEXT: [3. 4.]
// CHECK-NEXT: [5. 6.]], shape=(3, 2), dtype=float32)
// CHECK-NEXT: tfc.Tensor([1. 2. 3. 4. 5. 6.], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[}}1. 2. 3.]
// CHECK-NEXT: [4. 5. 6.]]], shape=(1, 2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[}}1.]
// CHECK-NEXT: [2.]
// CHECK-NEXT: [3.]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}4.]
// CHECK-NEXT: [5.]
// CHECK-NEXT: [6.]]], shape=(2, 3, 1), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1 2]
// CHECK-NEXT: [3 4]], shape=(2, 2), dtype=int32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1. 2. 3.]
// CHECK-NEXT: [4. 5. 6.]
// CHECK-NEXT: [1. 2. 3.]
// CHECK-NEXT: [4. 5. 6.]], shape=(4, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}4. 5. 6.]], shape=(1, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 5. 11.], shape=(2,), dtype=float32)

func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x1x2xi32>) -> (tensor<3x2xf32>, tensor<2x2x1xi32>, tensor<3x2xf32>, tensor<6xf32>, tensor<1x2x3xf32>, tensor<2x3x1xf32>, tensor<2x2xi32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<2xf32>) {
  %t = tfc.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %t3 = tfc.transpose %y, perm = [2, 0, 1] : tensor<2x1x2xi32> -> tensor<2x2x1xi32>
  %r = tfc.reshape %x : tensor<2x3xf32> -> tensor<3x2xf32>
  %flat = tfc.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %e0 = tfc.expand_dims %x, axis = 0 : tensor<2x3xf32> -> tensor<1x2x3xf32>
  %e2 = tfc.expand_dims %x, axis = 2 : tensor<2x3xf32> -> tensor<2x3x1xf32>
  %sq = tfc.squeeze %y, axes = [1] : tensor<2x1x2xi32> -> tensor<2x2xi32>
  %c0 = tfc.concat %x, %x axis = 0 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %row = tfc.slice %x, begin = [1, 0], size = [1, 3] : tensor<2x3xf32> -> tensor<1x3xf32>
  %box = tfc.slice %x, begin = [0, 1], size = [2, 2] : tensor<2x3xf32> -> tensor<2x2xf32>
  %boxsum = tfc.reduce_sum %box, axes = [1], keepdims = false : tensor<2x2xf32> -> tensor<2xf32>
  return %t, %t3, %r, %flat, %e0, %e2, %sq, %c0, %row, %boxsum : tensor<3x2xf32>, tensor<2x2x1xi32>, tensor<3x2xf32>, tensor<6xf32>, tensor<1x2x3xf32>, tensor<2x3x1xf32>, tensor<2x2xi32>, tensor<4x3xf32>, tensor<1x3xf32>, tensor<2xf32>
}
