// tfc-autodiff through tfc.if (an if on the same predicate over the
// branches' adjoints) and tfc.custom_gradient (the user's backward region is
// the rule), plus a second derivative (tfc.grad of a function that contains
// a tfc.grad).
// RUN: tfc-opt --tfc-autodiff %s -o %t.mlir
// RUN: tfc-run %t.mlir --mode=interpret --entry=if_grads --arg=2.0:f64 --arg=3.0:f64 | FileCheck %s --check-prefix=THEN
// RUN: tfc-run %t.mlir --mode=jit --entry=if_grads --arg=2.0:f64 --arg=3.0:f64 | FileCheck %s --check-prefix=THEN
// RUN: tfc-run %t.mlir --mode=interpret --entry=if_grads --arg=-1.0:f64 --arg=3.0:f64 | FileCheck %s --check-prefix=ELSE
// RUN: tfc-run %t.mlir --mode=jit --entry=if_grads --arg=-1.0:f64 --arg=3.0:f64 | FileCheck %s --check-prefix=ELSE
// RUN: tfc-run %t.mlir --mode=interpret --entry=log1pexp_grads --arg="[0.0,100.0]:f32" | FileCheck %s --check-prefix=SOFTPLUS
// RUN: tfc-run %t.mlir --mode=jit --entry=log1pexp_grads --arg="[0.0,100.0]:f32" | FileCheck %s --check-prefix=SOFTPLUS
// RUN: tfc-run %t.mlir --mode=interpret --entry=second --arg=2.0:f64 | FileCheck %s --check-prefix=SECOND
// RUN: tfc-run %t.mlir --mode=jit --entry=second --arg=2.0:f64 | FileCheck %s --check-prefix=SECOND

// x > 0: f = x * y * y, df/dx = y^2 = 9, df/dy = 2 x y = 12.
// THEN: tfc.Tensor(9.0, shape=(), dtype=float64)
// THEN-NEXT: tfc.Tensor(12.0, shape=(), dtype=float64)
// else: f = sin(x) + y, df/dx = cos(-1) = 0.5403023058681398, df/dy = 1.
// ELSE: tfc.Tensor(0.5403023058681398, shape=(), dtype=float64)
// ELSE-NEXT: tfc.Tensor(1.0, shape=(), dtype=float64)
func.func @branchy(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %zero = tfc.constant dense<0.0> : tensor<f64>
  %p = tfc.cmp gt, %x, %zero : tensor<f64>
  %r = tfc.if %p -> (tensor<f64>) {
    %a = tfc.mul %x, %y : tensor<f64>
    %b = tfc.mul %a, %y : tensor<f64>
    tfc.yield %b : tensor<f64>
  } else {
    %s = tfc.sin %x : tensor<f64>
    %t = tfc.add %s, %y : tensor<f64>
    tfc.yield %t : tensor<f64>
  }
  return %r : tensor<f64>
}

func.func @if_grads(%x: tensor<f64>, %y: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %g:2 = tfc.grad @branchy(%x, %y) wrt [0, 1] : (tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)
  return %g#0, %g#1 : tensor<f64>, tensor<f64>
}

// The stable log(1 + exp(x)) of TensorFlow's eager announcement: the plain
// gradient exp(x) / (1 + exp(x)) is nan at x = 100 in float32; the custom
// backward dy * (1 - 1 / (1 + e)) gives 0.5 and 1.
// SOFTPLUS-NOT: nan
// SOFTPLUS: tfc.Tensor([0.5 1. ], shape=(2,), dtype=float32)
func.func @log1pexp(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = tfc.custom_gradient (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %e = tfc.exp %a : tensor<2xf32>
    %l = tfc.log1p %e : tensor<2xf32>
    tfc.custom_yield %l : tensor<2xf32>
  } backward {
  ^bb0(%a: tensor<2xf32>, %out: tensor<2xf32>, %dy: tensor<2xf32>):
    %one = tfc.constant dense<1.0> : tensor<2xf32>
    %e = tfc.exp %a : tensor<2xf32>
    %d = tfc.add %one, %e : tensor<2xf32>
    %q = tfc.div %one, %d : tensor<2xf32>
    %s = tfc.sub %one, %q : tensor<2xf32>
    %g = tfc.mul %dy, %s : tensor<2xf32>
    tfc.custom_yield %g : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

func.func @log1pexp_grads(%x: tensor<2xf32>) -> tensor<2xf32> {
  %g = tfc.grad @log1pexp(%x) wrt [0] : (tensor<2xf32>) -> tensor<2xf32>
  return %g : tensor<2xf32>
}

// d2/dx2 x^3 = 6 x = 12 at x = 2: @first is 3 x^2 through a tfc.grad.
// SECOND: tfc.Tensor(12.0, shape=(), dtype=float64)
func.func @cube(%x: tensor<f64>) -> tensor<f64> {
  %a = tfc.mul %x, %x : tensor<f64>
  %b = tfc.mul %a, %x : tensor<f64>
  return %b : tensor<f64>
}
func.func @first(%x: tensor<f64>) -> tensor<f64> {
  %g = tfc.grad @cube(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  return %g : tensor<f64>
}
func.func @second(%x: tensor<f64>) -> tensor<f64> {
  %g = tfc.grad @first(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  return %g : tensor<f64>
}
