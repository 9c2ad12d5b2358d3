// tfc-autodiff through a tfc.while nested in a tfc.while's body, followed by
// a tfc.if: the inner loop is augmented (stacks) when the outer body is
// recomputed in the backward loop, so its stacks live within one backward
// iteration. Expected: central finite differences computed by hand
// (h = 1e-6) at x0 = 1.7, w = 1.3: d/dx0 = -0.92629661, d/dw = -4.72724216.
// RUN: tfc-opt --tfc-autodiff %s -o %t.mlir
// RUN: tfc-run %t.mlir --mode=interpret --entry=grads --arg=1.7:f64 --arg=1.3:f64 | FileCheck %s
// RUN: tfc-run %t.mlir --mode=jit --entry=grads --arg=1.7:f64 --arg=1.3:f64 | FileCheck %s

// CHECK: tfc.Tensor(-0.92629661{{[0-9]*}}, shape=(), dtype=float64)
// CHECK-NEXT: tfc.Tensor(-4.72724215{{[0-9]*}}, shape=(), dtype=float64)

// Three times: z = x / 2; z = z * w + 0.1 while z < 2; x = z > 1.5 ? sin(z) * w : z * z.
func.func @f(%x0: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %zero = tfc.constant dense<0> : tensor<i64>
  %one = tfc.constant dense<1> : tensor<i64>
  %three = tfc.constant dense<3> : tensor<i64>
  %half = tfc.constant dense<0.5> : tensor<f64>
  %two = tfc.constant dense<2.0> : tensor<f64>
  %tenth = tfc.constant dense<0.1> : tensor<f64>
  %th = tfc.constant dense<1.5> : tensor<f64>
  %r:2 = tfc.while (%x = %x0, %k = %zero) : (tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<i64>) {
    %c = tfc.cmp lt, %k, %three : tensor<i64>
    tfc.condition(%c) %x, %k : tensor<f64>, tensor<i64>
  } do {
  ^bb0(%y: tensor<f64>, %j: tensor<i64>):
    %h = tfc.mul %y, %half : tensor<f64>
    %in = tfc.while (%z = %h) : (tensor<f64>) -> tensor<f64> {
      %c2 = tfc.cmp lt, %z, %two : tensor<f64>
      tfc.condition(%c2) %z : tensor<f64>
    } do {
    ^bb0(%u: tensor<f64>):
      %m = tfc.mul %u, %w : tensor<f64>
      %n = tfc.add %m, %tenth : tensor<f64>
      tfc.yield %n : tensor<f64>
    }
    %p = tfc.cmp gt, %in, %th : tensor<f64>
    %v = tfc.if %p -> (tensor<f64>) {
      %s = tfc.sin %in : tensor<f64>
      %s2 = tfc.mul %s, %w : tensor<f64>
      tfc.yield %s2 : tensor<f64>
    } else {
      %q = tfc.mul %in, %in : tensor<f64>
      tfc.yield %q : tensor<f64>
    }
    %j1 = tfc.add %j, %one : tensor<i64>
    tfc.yield %v, %j1 : tensor<f64>, tensor<i64>
  }
  return %r#0 : tensor<f64>
}
func.func @grads(%x0: tensor<f64>, %w: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %g:2 = tfc.grad @f(%x0, %w) wrt [0, 1] : (tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)
  return %g#0, %g#1 : tensor<f64>, tensor<f64>
}
