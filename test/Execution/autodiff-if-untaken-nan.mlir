// The adjoint of a tfc.if lives in an if on the same predicate: the untaken
// branch contributes exactly zero, also where its own adjoint is NaN
// (d sqrt(|x|) at 0 is 0 * inf). Eagerly the gradient is 0; so it must be
// here (issue 13; unittests/Reliability has the tfc::function cases).
// RUN: tfc-opt --tfc-autodiff %s -o %t.mlir
// RUN: tfc-run %t.mlir --mode=interpret --entry=g --arg=true:i1 --arg=0:f32 | FileCheck %s --check-prefix=TAKEN
// RUN: tfc-run %t.mlir --mode=jit --entry=g --arg=true:i1 --arg=0:f32 | FileCheck %s --check-prefix=TAKEN
// RUN: tfc-run %t.mlir --mode=jit --entry=g --arg=false:i1 --arg=4:f32 | FileCheck %s --check-prefix=ELSE
// TAKEN: tfc.Tensor(0.0, shape=(), dtype=float32)
// ELSE: tfc.Tensor(0.25, shape=(), dtype=float32)
func.func @f(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %r = tfc.if %p -> (tensor<f32>) {
    %one = tfc.constant dense<1.0> : tensor<f32>
    tfc.yield %one : tensor<f32>
  } else {
    %a = tfc.abs %x : tensor<f32>
    %s = tfc.sqrt %a : tensor<f32>
    tfc.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @g(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %g = tfc.grad @f(%p, %x) wrt [1] : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}
