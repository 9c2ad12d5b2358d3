// Arguments read from .npy files (format 1.0 and 2.0 headers; <f4, <i8, |b1,
// <f8 scalars, <i4 with zero elements), mixed with literal arguments.
// RUN: tfc-run %s --mode=interpret --arg=%S/Inputs/f32_2x3.npy --arg=%S/Inputs/i64_3.npy --arg=%S/Inputs/b1_3.npy --arg=%S/Inputs/f64_scalar.npy --arg=%S/Inputs/i32_empty.npy --arg="[1,1,1]:i64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg=%S/Inputs/f32_2x3.npy --arg=%S/Inputs/i64_3.npy --arg=%S/Inputs/b1_3.npy --arg=%S/Inputs/f64_scalar.npy --arg=%S/Inputs/i32_empty.npy --arg="[1,1,1]:i64" | FileCheck %s

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}  2.   5.   6.]
// CHECK-NEXT: [  8.  10. -12.]], shape=(2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor([         0          1 9000000001], shape=(3,), dtype=int64)
// CHECK-NEXT: tfc.Tensor([False  True False], shape=(3,), dtype=bool)
// CHECK-NEXT: tfc.Tensor(6.25, shape=(), dtype=float64)
// CHECK-NEXT: tfc.Tensor([], shape=(0,), dtype=int32)

func.func @main(%x: tensor<2x3xf32>, %i: tensor<3xi64>, %b: tensor<3xi1>, %d: tensor<f64>, %e: tensor<0xi32>, %one: tensor<3xi64>) -> (tensor<2x3xf32>, tensor<3xi64>, tensor<3xi1>, tensor<f64>, tensor<0xi32>) {
  %x2 = tfc.add %x, %x : tensor<2x3xf32>
  %i1 = tfc.add %i, %one : tensor<3xi64>
  %nb = tfc.logical_not %b : tensor<3xi1>
  %d2 = tfc.mul %d, %d : tensor<f64>
  return %x2, %i1, %nb, %d2, %e : tensor<2x3xf32>, tensor<3xi64>, tensor<3xi1>, tensor<f64>, tensor<0xi32>
}
