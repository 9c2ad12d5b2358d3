// RUN: tfc-opt --split-input-file --verify-diagnostics --tfc-vjp=function=f %s | FileCheck %s
// tfc-vjp: the VJP of one function, and the same VJP cut where its forward
// sweep ends, so the backward of a compiled call reads what the forward
// call kept (its residuals) instead of recomputing it.

// sum(tanh(x * w)): tanh's rule reads tanh(x * w) (a residual), mul's rule
// reads x and w (arguments, passed to @f_bwd again, not returned).
// CHECK-LABEL: func.func @f_vjp(%{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xf32>, %{{.*}}: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-SAME: tfc.vjp_of = @f
// CHECK-LABEL: func.func @f_fwd(%{{.*}}: tensor<3xf32>, %{{.*}}: tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
// CHECK-SAME: tfc.fwd_of = @f
// CHECK: %[[M:.*]] = tfc.mul
// CHECK: %[[T:.*]] = tfc.tanh %[[M]]
// CHECK: %[[S:.*]] = tfc.reduce_sum %[[T]]
// CHECK: return %[[S]], %[[T]] : tensor<f32>, tensor<3xf32>
// CHECK: func.func @f_bwd(%[[X:.*]]: tensor<3xf32>, %[[W:.*]]: tensor<3xf32>, %[[TANH:.*]]: tensor<3xf32>, %[[DY:.*]]: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-SAME: tfc.bwd_of = @f
// CHECK-NOT: tfc.tanh
// CHECK: tfc.reshape %[[DY]]
// CHECK: tfc.square %[[TANH]]
// CHECK-DAG: tfc.mul %{{.*}}, %[[W]]
// CHECK-DAG: tfc.mul %{{.*}}, %[[X]]
// CHECK: return
func.func @f(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<f32> {
  %0 = tfc.mul %x, %w : tensor<3xf32>
  %1 = tfc.tanh %0 : tensor<3xf32>
  %2 = tfc.reduce_sum %1, axes = [0], keepdims = false : tensor<3xf32> -> tensor<f32>
  return %2 : tensor<f32>
}

// -----

// A loop's reverse sweep pops the values its forward pushed onto stacks;
// a stack is not a tensor a function can return, so only @f_vjp exists.
// CHECK-LABEL: func.func @f_vjp
// CHECK: tfc.stack_new
// CHECK-NOT: @f_fwd
// CHECK-NOT: @f_bwd
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

// -----

// expected-error @below {{tfc-vjp: no function named 'f'}}
module {
  func.func @g(%x: tensor<f32>) -> tensor<f32> {
    return %x : tensor<f32>
  }
}

