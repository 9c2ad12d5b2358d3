// tfc.broadcast_to: a scalar, a row, a column and a middle unit dim, then an
// elementwise op on the broadcast operands (the dialect never broadcasts
// implicitly).
// RUN: tfc-run %s --mode=interpret --arg="5:f32" --arg="[1,2,3]:f32" --arg="[[10],[20]]:i32" --arg="[[[1,2]],[[3,4]]]:i64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="5:f32" --arg="[1,2,3]:f32" --arg="[[10],[20]]:i32" --arg="[[[1,2]],[[3,4]]]:i64" | FileCheck %s

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}5. 5. 5.]
// CHECK-NEXT: [5. 5. 5.]], shape=(2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1. 2. 3.]
// CHECK-NEXT: [1. 2. 3.]], shape=(2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}6. 7. 8.]
// CHECK-NEXT: [6. 7. 8.]], shape=(2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}10 10 10]
// CHECK-NEXT: [20 20 20]], shape=(2, 3), dtype=int32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[}}1 2]
// CHECK-NEXT: [1 2]
// CHECK-NEXT: [1 2]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}3 4]
// CHECK-NEXT: [3 4]
// CHECK-NEXT: [3 4]]], shape=(2, 3, 2), dtype=int64)

func.func @main(%s: tensor<f32>, %row: tensor<3xf32>, %col: tensor<2x1xi32>, %mid: tensor<2x1x2xi64>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3x2xi64>) {
  %bs = tfc.broadcast_to %s : tensor<f32> to tensor<2x3xf32>
  %br = tfc.broadcast_to %row : tensor<3xf32> to tensor<2x3xf32>
  %sum = tfc.add %bs, %br : tensor<2x3xf32>
  %bc = tfc.broadcast_to %col : tensor<2x1xi32> to tensor<2x3xi32>
  %bm = tfc.broadcast_to %mid : tensor<2x1x2xi64> to tensor<2x3x2xi64>
  return %bs, %br, %sum, %bc, %bm : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>, tensor<2x3x2xi64>
}
