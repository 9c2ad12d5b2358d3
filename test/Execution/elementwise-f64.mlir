// Elementwise ops on f64. Results in order: add sub mul div pow maximum
// minimum floor_div mod. floor_div and mod follow Python on negatives.
// RUN: tfc-run %s --mode=interpret --arg="[0.1,-7.5,7.5,-1e300]:f64" --arg="[0.2,2,-2,1e300]:f64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[0.1,-7.5,7.5,-1e300]:f64" --arg="[0.2,2,-2,1e300]:f64" | FileCheck %s

// CHECK: tfc.Tensor([ 0.3 -5.5  5.5  0. ], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([-1.0e-001 -9.5e+000  9.5e+000 -2.0e+300], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([  0.02 -15.   -15.     -inf], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([ 0.5  -3.75 -3.75 -1.  ], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([0.04 4.   4.    inf], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([2.0e-001 2.0e+000 7.5e+000 1.0e+300], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([ 1.0e-001 -7.5e+000 -2.0e+000 -1.0e+300], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([ 0. -4. -4. -1.], shape=(4,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([ 0.1  0.5 -0.5 -0. ], shape=(4,), dtype=float64)

func.func @main(%a: tensor<4xf64>, %b: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %add = tfc.add %a, %b : tensor<4xf64>
  %sub = tfc.sub %a, %b : tensor<4xf64>
  %mul = tfc.mul %a, %b : tensor<4xf64>
  %div = tfc.div %a, %b : tensor<4xf64>
  %two = tfc.constant dense<2.0> : tensor<4xf64>
  %pow = tfc.pow %b, %two : tensor<4xf64>
  %max = tfc.maximum %a, %b : tensor<4xf64>
  %min = tfc.minimum %a, %b : tensor<4xf64>
  %fd = tfc.floor_div %a, %b : tensor<4xf64>
  %mod = tfc.mod %a, %b : tensor<4xf64>
  return %add, %sub, %mul, %div, %pow, %max, %min, %fd, %mod : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}
