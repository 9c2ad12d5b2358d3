// tfc.floor: round toward -inf on f32 and f64 (negative halves, integers,
// -0, infinities and NaN pass through), the same in the interpreter (the
// runtime's kernel) and in compiled code (math.floor).
// RUN: tfc-run %s --mode=interpret --arg="[-1.5,-0.5,0,0.5,2,2.7,-3]:f32" --arg="[-2.25,1e300,-1e-300]:f64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[-1.5,-0.5,0,0.5,2,2.7,-3]:f32" --arg="[-2.25,1e300,-1e-300]:f64" | FileCheck %s
// CHECK: tfc.Tensor([-2. -1.  0.  0.  2.  2. -3.], shape=(7,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([-3.e+000  1.e+300 -1.e+000], shape=(3,), dtype=float64)
// floor after a fused elementwise chain (x * 2 - 0.5), and twice (idempotent).
// CHECK-NEXT: tfc.Tensor([-4. -2. -1.  0.  3.  4. -7.], shape=(7,), dtype=float32)

func.func @main(%x: tensor<7xf32>, %y: tensor<3xf64>) -> (tensor<7xf32>, tensor<3xf64>, tensor<7xf32>) {
  %f = tfc.floor %x : tensor<7xf32>
  %g = tfc.floor %y : tensor<3xf64>
  %two = tfc.constant dense<2.0> : tensor<7xf32>
  %half = tfc.constant dense<0.5> : tensor<7xf32>
  %m = tfc.mul %x, %two : tensor<7xf32>
  %s = tfc.sub %m, %half : tensor<7xf32>
  %h = tfc.floor %s : tensor<7xf32>
  %hh = tfc.floor %h : tensor<7xf32>
  return %f, %g, %hh : tensor<7xf32>, tensor<3xf64>, tensor<7xf32>
}
