// f64 log1p keeps full precision for small arguments in both modes (the JIT
// calls libm's log1p instead of expanding it as log(1 + x)).
// RUN: tfc-run %s --mode=interpret --arg="[0.001,1e-20]:f64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[0.001,1e-20]:f64" | FileCheck %s
// CHECK: tfc.Tensor([9.99500333e-04 1.00000000e-20], shape=(2,), dtype=float64)
func.func @main(%x: tensor<2xf64>) -> tensor<2xf64> {
  %0 = tfc.log1p %x : tensor<2xf64>
  return %0 : tensor<2xf64>
}
