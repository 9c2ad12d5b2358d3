// RUN: tfc-opt --tfc-vjp="function=f recompute-loops=true" %s | FileCheck %s
// With recompute-loops the loop keeps no stacks: each adjoint iteration
// runs the body again from the inits up to the iteration it reverses
// (O(N^2)), so the gradient has no stack ops, can be differentiated again,
// and splits into @f_fwd / @f_bwd.
// CHECK-LABEL: func.func @f_vjp
// CHECK-NOT: tfc.stack
// CHECK: tfc.while
// CHECK-LABEL: func.func @f_fwd
// CHECK-LABEL: func.func @f_bwd
// CHECK-NOT: tfc.stack
func.func @f(%x: tensor<f32>, %n: tensor<i64>) -> tensor<f32> {
  %zero = tfc.constant dense<0> : tensor<i64>
  %r:2 = tfc.while (%a = %x, %i = %zero) : (tensor<f32>, tensor<i64>) -> (tensor<f32>, tensor<i64>) {
    %c = tfc.cmp lt, %i, %n : tensor<i64>
    tfc.condition(%c) %a, %i : tensor<f32>, tensor<i64>
  } do {
  ^bb0(%a: tensor<f32>, %i: tensor<i64>):
    %s = tfc.sin %a : tensor<f32>
    %one = tfc.constant dense<1> : tensor<i64>
    %j = tfc.add %i, %one : tensor<i64>
    tfc.yield %s, %j : tensor<f32>, tensor<i64>
  }
  return %r#0 : tensor<f32>
}
