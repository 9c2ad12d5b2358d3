// Elementwise ops on f32. Results in order: add sub mul div pow maximum
// minimum floor_div mod neg abs square relu. floor_div and mod on negative
// operands follow Python: floor(a / b), and the remainder has the sign of b.
// RUN: tfc-run %s --mode=interpret --arg="[1,-7.5,3,4,5,-6]:f32" --arg="[2,2,-2,0.5,-3,4]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[1,-7.5,3,4,5,-6]:f32" --arg="[2,2,-2,0.5,-3,4]:f32" | FileCheck %s

// CHECK: tfc.Tensor([ 3.  -5.5  1.   4.5  2.  -2. ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ -1.   -9.5   5.    3.5   8.  -10. ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([  2. -15.  -6.   2. -15. -24.], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 0.5       -3.75      -1.5        8.        -1.6666666 -1.5      ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: [1.0000000e+00 5.6250000e+01 1.1111111e-01 2.0000000e+00 8.0000000e-03
// CHECK-NEXT: 1.2960000e+03], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([2. 2. 3. 4. 5. 4.], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 1.  -7.5 -2.   0.5 -3.  -6. ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 0. -4. -2.  8. -2. -2.], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 1.   0.5 -1.   0.  -1.   2. ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([-1.   7.5 -3.  -4.  -5.   6. ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([1.  7.5 3.  4.  5.  6. ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 1.   56.25  9.   16.   25.   36.  ], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([1. 0. 3. 4. 5. 0.], shape=(6,), dtype=float32)

func.func @main(%a: tensor<6xf32>, %b: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %add = tfc.add %a, %b : tensor<6xf32>
  %sub = tfc.sub %a, %b : tensor<6xf32>
  %mul = tfc.mul %a, %b : tensor<6xf32>
  %div = tfc.div %a, %b : tensor<6xf32>
  %pow = tfc.pow %a, %b : tensor<6xf32>
  %max = tfc.maximum %a, %b : tensor<6xf32>
  %min = tfc.minimum %a, %b : tensor<6xf32>
  %fd = tfc.floor_div %a, %b : tensor<6xf32>
  %mod = tfc.mod %a, %b : tensor<6xf32>
  %neg = tfc.neg %a : tensor<6xf32>
  %abs = tfc.abs %neg : tensor<6xf32>
  %sq = tfc.square %a : tensor<6xf32>
  %relu = tfc.relu %a : tensor<6xf32>
  return %add, %sub, %mul, %div, %pow, %max, %min, %fd, %mod, %neg, %abs, %sq, %relu : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}
