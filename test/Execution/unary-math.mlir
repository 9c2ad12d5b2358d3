// Transcendental unary ops on f32 and f64. Results in order: exp log log1p
// sqrt sin cos tanh sigmoid (f32), then exp tanh sigmoid (f64).
// RUN: tfc-run %s --mode=interpret --arg="[0,1,0.5,4]:f32" --arg="[0,-1,2]:f64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[0,1,0.5,4]:f32" --arg="[0,-1,2]:f64" | FileCheck %s

// The JIT may use polynomial approximations: digits past the sixth
// significant one are not checked.
// CHECK: tfc.Tensor([{{ *}}1. 2.71828{{[0-9]*}} 1.64872{{[0-9]*}} 54.5981{{[0-9]*}}{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}-inf 0. -0.693147{{[0-9]*}} 1.38629{{[0-9]*}}{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}0. 0.693147{{[0-9]*}} 0.405465{{[0-9]*}} 1.60943{{[0-9]*}}{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}0. 1. 0.707106{{[0-9]*}} 2.{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}0. 0.841470{{[0-9]*}} 0.479425{{[0-9]*}} -0.756802{{[0-9]*}}{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}1. 0.540302{{[0-9]*}} 0.877582{{[0-9]*}} -0.653643{{[0-9]*}}{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}0. 0.761594{{[0-9]*}} 0.462117{{[0-9]*}} 0.999329{{[0-9]*}}{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}0.5 0.731058{{[0-9]*}} 0.622459{{[0-9]*}} 0.982013{{[0-9]*}}{{ *}}], shape=(4,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([{{ *}}1. 0.367879{{[0-9]*}} 7.38905{{[0-9]*}}{{ *}}], shape=(3,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([{{ *}}0. -0.761594{{[0-9]*}} 0.964027{{[0-9]*}}{{ *}}], shape=(3,), dtype=float64)
// CHECK-NEXT: tfc.Tensor([{{ *}}0.5 0.268941{{[0-9]*}} 0.880797{{[0-9]*}}{{ *}}], shape=(3,), dtype=float64)

func.func @main(%x: tensor<4xf32>, %y: tensor<3xf64>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>) {
  %exp = tfc.exp %x : tensor<4xf32>
  %log = tfc.log %x : tensor<4xf32>
  %log1p = tfc.log1p %x : tensor<4xf32>
  %sqrt = tfc.sqrt %x : tensor<4xf32>
  %sin = tfc.sin %x : tensor<4xf32>
  %cos = tfc.cos %x : tensor<4xf32>
  %tanh = tfc.tanh %x : tensor<4xf32>
  %sig = tfc.sigmoid %x : tensor<4xf32>
  %exp64 = tfc.exp %y : tensor<3xf64>
  %tanh64 = tfc.tanh %y : tensor<3xf64>
  %sig64 = tfc.sigmoid %y : tensor<3xf64>
  return %exp, %log, %log1p, %sqrt, %sin, %cos, %tanh, %sig, %exp64, %tanh64, %sig64 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf64>, tensor<3xf64>, tensor<3xf64>
}
