// tfc-autodiff on a function with a dynamic batch dim (a reduce_retracing
// trace): loss = mean((x + b)^2) over a (?, 3) x, b broadcast like x. The
// adjoints take their sizes at run time: reduce_mean's count is counted,
// its adjoint is broadcast like x, b's is summed over the batch.
//   n = 2, x + b = [[2, 2, 2], [5, 5, 5]]: dx = (x + b) / 3, db = 7 / 3
//   n = 1, x + b = [[2, 2, 2]]:            dx = 4 / 3,       db = 4 / 3
// RUN: tfc-opt --tfc-autodiff %s -o %t.mlir
// RUN: tfc-run %t.mlir --mode=interpret --entry=grads --arg="[[1,2,3],[4,5,6]]:f32" --arg="[1,0,-1]:f32" | FileCheck %s --check-prefix=TWO
// RUN: tfc-run %t.mlir --mode=jit --entry=grads --arg="[[1,2,3],[4,5,6]]:f32" --arg="[1,0,-1]:f32" | FileCheck %s --check-prefix=TWO
// RUN: tfc-run %t.mlir --mode=jit --entry=grads --arg="[[1,2,3]]:f32" --arg="[1,0,-1]:f32" | FileCheck %s --check-prefix=ONE
// RUN: tfc-run %t.mlir --mode=interpret --entry=grads --arg="[[1,2,3]]:f32" --arg="[1,0,-1]:f32" | FileCheck %s --check-prefix=ONE
// RUN: tfc-opt --tfc-autodiff %s | FileCheck %s --check-prefix=IR

// TWO: tfc.Tensor(
// TWO-NEXT: {{\[\[}}0.6666667 0.6666667 0.6666667]
// TWO-NEXT: [1.666666{{[67]}} 1.666666{{[67]}} 1.666666{{[67]}}]], shape=(2, 3), dtype=float32)
// TWO-NEXT: tfc.Tensor([2.333333{{[345]}} 2.333333{{[345]}} 2.333333{{[345]}}], shape=(3,), dtype=float32)
// ONE: tfc.Tensor({{\[\[}}1.3333334 1.3333334 1.3333334]], shape=(1, 3), dtype=float32)
// ONE-NEXT: tfc.Tensor([1.3333334 1.3333334 1.3333334], shape=(3,), dtype=float32)

// IR-LABEL: func.func @loss_vjp
// IR: tfc.broadcast_to %{{.*}} like %{{.*}} : tensor<1x1xf32> to tensor<?x3xf32> like tensor<?x3xf32>
// IR: tfc.reduce_sum %{{.*}}, axes = [0, 1], keepdims = true : tensor<?x3xf32> -> tensor<1x1xf32>
func.func @loss(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<f32> {
  %bb = tfc.broadcast_to %b like %x : tensor<3xf32> to tensor<?x3xf32> like tensor<?x3xf32>
  %s = tfc.add %x, %bb : tensor<?x3xf32>
  %q = tfc.square %s : tensor<?x3xf32>
  %m = tfc.reduce_mean %q, axes = [0, 1], keepdims = false : tensor<?x3xf32> -> tensor<f32>
  return %m : tensor<f32>
}

func.func @grads(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> (tensor<?x3xf32>, tensor<3xf32>) {
  %g:2 = tfc.grad @loss(%x, %b) wrt [0, 1] : (tensor<?x3xf32>, tensor<3xf32>) -> (tensor<?x3xf32>, tensor<3xf32>)
  return %g#0, %g#1 : tensor<?x3xf32>, tensor<3xf32>
}
