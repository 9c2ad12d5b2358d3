// tfc-autodiff through a tfc.while whose trip count depends on the data:
// x = sin(x) * w until x >= 1.4 (issue 5). The forward loop pushes the
// values entering each iteration on stacks; the backward loop pops them.
// Expected values are finite differences computed by hand (float64, central
// differences with h = 1e-6, agreeing with the exact chain rule to 1e-9):
//   x0 = 0.5, w = 1.5: 4 iterations, x = 1.42464, dx/dx0 = 0.575664, dx/dw = 1.806665
//   x0 = 0.2, w = 1.5: 7 iterations, x = 1.47318, dx/dx0 = 0.533130, dx/dw = 1.689196
//   x0 = 1.5: no iteration, dx/dx0 = 1, dx/dw = 0
// RUN: tfc-opt --tfc-autodiff %s -o %t.mlir
// RUN: tfc-run %t.mlir --mode=interpret --entry=grads --arg=0.5:f64 --arg=1.5:f64 | FileCheck %s --check-prefix=A
// RUN: tfc-run %t.mlir --mode=jit --entry=grads --arg=0.5:f64 --arg=1.5:f64 | FileCheck %s --check-prefix=A
// RUN: tfc-run %t.mlir --mode=interpret --entry=grads --arg=0.2:f64 --arg=1.5:f64 | FileCheck %s --check-prefix=B
// RUN: tfc-run %t.mlir --mode=jit --entry=grads --arg=0.2:f64 --arg=1.5:f64 | FileCheck %s --check-prefix=B
// RUN: tfc-run %t.mlir --mode=interpret --entry=grads --arg=1.5:f64 --arg=1.5:f64 | FileCheck %s --check-prefix=ZERO
// RUN: tfc-run %t.mlir --mode=jit --entry=grads --arg=1.5:f64 --arg=1.5:f64 | FileCheck %s --check-prefix=ZERO

// A: tfc.Tensor(0.57566358{{[0-9]*}}, shape=(), dtype=float64)
// A-NEXT: tfc.Tensor(1.80666538{{[0-9]*}}, shape=(), dtype=float64)
// B: tfc.Tensor(0.53312980{{[0-9]*}}, shape=(), dtype=float64)
// B-NEXT: tfc.Tensor(1.68919577{{[0-9]*}}, shape=(), dtype=float64)
// ZERO: tfc.Tensor(1.0, shape=(), dtype=float64)
// ZERO-NEXT: tfc.Tensor(0.0, shape=(), dtype=float64)

// The loop also counts its iterations in an i64 loop value (not
// differentiated, but saved and restored like the others).
func.func @loop(%x0: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %bound = tfc.constant dense<1.4> : tensor<f64>
  %zero = tfc.constant dense<0> : tensor<i64>
  %one = tfc.constant dense<1> : tensor<i64>
  %r:2 = tfc.while (%x = %x0, %n = %zero) : (tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<i64>) {
    %c = tfc.cmp lt, %x, %bound : tensor<f64>
    tfc.condition(%c) %x, %n : tensor<f64>, tensor<i64>
  } do {
  ^bb0(%y: tensor<f64>, %k: tensor<i64>):
    %s = tfc.sin %y : tensor<f64>
    %next = tfc.mul %s, %w : tensor<f64>
    %k1 = tfc.add %k, %one : tensor<i64>
    tfc.yield %next, %k1 : tensor<f64>, tensor<i64>
  }
  return %r#0 : tensor<f64>
}

func.func @grads(%x0: tensor<f64>, %w: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %g:2 = tfc.grad @loop(%x0, %w) wrt [0, 1] : (tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)
  return %g#0, %g#1 : tensor<f64>, tensor<f64>
}
