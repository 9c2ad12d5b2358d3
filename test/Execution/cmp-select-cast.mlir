// tfc.cmp with every predicate (f32 and i32), tfc.select, and tfc.cast
// between every kind of element type: float to int truncates toward zero,
// anything to i1 is `!= 0`, i1 to a number is 0 or 1.
// RUN: tfc-run %s --mode=interpret --arg="[1,2,3,-2.7]:f32" --arg="[2,2,2,0]:f32" --arg="[-3,0,3,7]:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[1,2,3,-2.7]:f32" --arg="[2,2,2,0]:f32" --arg="[-3,0,3,7]:i32" | FileCheck %s

// CHECK: tfc.Tensor([False  True False False], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([ True False  True  True], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([ True False False  True], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([ True  True False  True], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([False False  True False], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([False  True  True False], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([False False  True  True], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([ 1.   2.   2.  -2.7], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 1  2  3 -2], shape=(4,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 1  2  3 -2], shape=(4,), dtype=int64)
// CHECK-NEXT: tfc.Tensor([ True False  True  True], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([0. 0. 1. 1.], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([-3.  0.  3.  7.], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([-3  0  3  7], shape=(4,), dtype=int64)
// CHECK-NEXT: tfc.Tensor([-3  0  3  7], shape=(4,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([-3.  0.  3.  7.], shape=(4,), dtype=float32)

func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi1>, tensor<4xf32>, tensor<4xf64>, tensor<4xi64>, tensor<4xi32>, tensor<4xf32>) {
  %eq = tfc.cmp eq, %a, %b : tensor<4xf32>
  %ne = tfc.cmp ne, %a, %b : tensor<4xf32>
  %lt = tfc.cmp lt, %a, %b : tensor<4xf32>
  %le = tfc.cmp le, %a, %b : tensor<4xf32>
  %gt = tfc.cmp gt, %a, %b : tensor<4xf32>
  %ge = tfc.cmp ge, %a, %b : tensor<4xf32>
  %zero = tfc.constant dense<0> : tensor<4xi32>
  %ipos = tfc.cmp gt, %i, %zero : tensor<4xi32>
  %sel = tfc.select %lt, %a, %b : tensor<4xi1>, tensor<4xf32>
  %f2i = tfc.cast %a : tensor<4xf32> to tensor<4xi32>
  %f2l = tfc.cast %a : tensor<4xf32> to tensor<4xi64>
  %i2b = tfc.cast %i : tensor<4xi32> to tensor<4xi1>
  %b2f = tfc.cast %ipos : tensor<4xi1> to tensor<4xf32>
  %i2d = tfc.cast %i : tensor<4xi32> to tensor<4xf64>
  %i2l = tfc.cast %i : tensor<4xi32> to tensor<4xi64>
  %l2i = tfc.cast %i2l : tensor<4xi64> to tensor<4xi32>
  %d2f = tfc.cast %i2d : tensor<4xf64> to tensor<4xf32>
  return %eq, %ne, %lt, %le, %gt, %ge, %ipos, %sel, %f2i, %f2l, %i2b, %b2f, %i2d, %i2l, %l2i, %d2f : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi64>, tensor<4xi1>, tensor<4xf32>, tensor<4xf64>, tensor<4xi64>, tensor<4xi32>, tensor<4xf32>
}
