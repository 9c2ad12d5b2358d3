// tfc.matmul: 2-D on f32, i32 and f64, and batched (rank 3) on f32.
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3],[4,5,6]]:f32" --arg="[[1,0],[0,1],[2,-1]]:f32" --arg="[[1,2],[3,4]]:i32" --arg="[[[1,2],[3,4]],[[0,1],[1,0]]]:f32" --arg="[[[2,0],[0,2]],[[1,2],[3,4]]]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3],[4,5,6]]:f32" --arg="[[1,0],[0,1],[2,-1]]:f32" --arg="[[1,2],[3,4]]:i32" --arg="[[[1,2],[3,4]],[[0,1],[1,0]]]:f32" --arg="[[[2,0],[0,2]],[[1,2],[3,4]]]:f32" | FileCheck %s

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}} 7. -1.]
// CHECK-NEXT: [16. -1.]], shape=(2, 2), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}} 1.  2.  3.]
// CHECK-NEXT: [ 4.  5.  6.]
// CHECK-NEXT: [-2. -1.  0.]], shape=(3, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}} 7 10]
// CHECK-NEXT: [15 22]], shape=(2, 2), dtype=int32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}11.]], shape=(1, 1), dtype=float64)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[}}2. 4.]
// CHECK-NEXT: [6. 8.]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}3. 4.]
// CHECK-NEXT: [1. 2.]]], shape=(2, 2, 2), dtype=float32)

func.func @main(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %i: tensor<2x2xi32>, %x: tensor<2x2x2xf32>, %y: tensor<2x2x2xf32>) -> (tensor<2x2xf32>, tensor<3x3xf32>, tensor<2x2xi32>, tensor<1x1xf64>, tensor<2x2x2xf32>) {
  %ab = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %ba = tfc.matmul %b, %a : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %ii = tfc.matmul %i, %i : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
  %u = tfc.constant dense<[[1.5, 2.0]]> : tensor<1x2xf64>
  %v = tfc.constant dense<[[2.0], [4.0]]> : tensor<2x1xf64>
  %uv = tfc.matmul %u, %v : (tensor<1x2xf64>, tensor<2x1xf64>) -> tensor<1x1xf64>
  %xy = tfc.matmul %x, %y : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  return %ab, %ba, %ii, %uv, %xy : tensor<2x2xf32>, tensor<3x3xf32>, tensor<2x2xi32>, tensor<1x1xf64>, tensor<2x2x2xf32>
}
