// Reducing every axis with keepdims = true. Interpret mode only until the
// lowering is fixed. In JIT mode
// (tfc-run %s --mode=jit --arg="[[1,5,3],[4,2,6]]:f32" --arg="[[[1,2],[3,4]],[[5,6],[7,9]]]:i32")
// it fails with:
//   tfc-run: error: lowering tfc to linalg failed:
//   loc("<source>":16:10): error: 'tensor.expand_shape' op expected number of
//   static shape dims to be equal to the output rank (2) but found 0 inputs
//   instead
//   note: see current operation: %4 = "tensor.expand_shape"(%3)
//   <{reassociation = [], static_output_shape = array<i64>}>
//   : (tensor<f32>) -> tensor<1x1xf32>
// (the rank-0 reduction result is expanded with an empty reassociation).
// RUN: tfc-run %s --mode=interpret --arg="[[1,5,3],[4,2,6]]:f32" --arg="[[[1,2],[3,4]],[[5,6],[7,9]]]:i32" | FileCheck %s

// CHECK: tfc.Tensor({{\[\[}}21.]], shape=(1, 1), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[}}3.5]], shape=(1, 1), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[\[\[}}9]]], shape=(1, 1, 1), dtype=int32)

func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x2x2xi32>) -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1x1xi32>) {
  %sum = tfc.reduce_sum %x, axes = [0, 1], keepdims = true : tensor<2x3xf32> -> tensor<1x1xf32>
  %mean = tfc.reduce_mean %x, axes = [0, 1], keepdims = true : tensor<2x3xf32> -> tensor<1x1xf32>
  %max = tfc.reduce_max %y, axes = [0, 1, 2], keepdims = true : tensor<2x2x2xi32> -> tensor<1x1x1xi32>
  return %sum, %mean, %max : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1x1xi32>
}
