// RUN: tfc-opt %s --tfc-promote-variables --split-input-file --verify-diagnostics | FileCheck %s

// A read after an assign_add sees the new value; the final value of the
// written variable is returned after the original results.
// CHECK-LABEL: func @inc
// CHECK-SAME: (%[[V:.*]]: tensor<f32>) -> (tensor<f32>, tensor<f32>)
// CHECK-SAME: attributes {tfc.written_vars = array<i64: 0>}
// CHECK: %[[ONE:.*]] = tfc.constant
// CHECK: %[[NEW:.*]] = tfc.add %[[V]], %[[ONE]]
// CHECK-NOT: tfc.var_
// CHECK: return %[[NEW]], %[[NEW]]
func.func @inc(%v: !tfc.var<tensor<f32>>) -> tensor<f32> {
  %one = tfc.constant dense<1.0> : tensor<f32>
  tfc.var_assign_add %v, %one : !tfc.var<tensor<f32>>
  %0 = tfc.var_read %v : !tfc.var<tensor<f32>>
  return %0 : tensor<f32>
}

// -----

// Read-only variables become plain arguments and are not returned.
// CHECK-LABEL: func @read_only
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[V:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK-SAME: attributes {tfc.written_vars = array<i64>}
// CHECK: tfc.mul %[[X]], %[[V]]
func.func @read_only(%x: tensor<2xf32>, %v: !tfc.var<tensor<2xf32>>) -> tensor<2xf32> {
  %0 = tfc.var_read %v : !tfc.var<tensor<2xf32>>
  %1 = tfc.mul %x, %0 : tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// A write inside one branch of tfc.if: both branches yield the variable's
// value (the else branch its unchanged value), and the if gains a result.
// CHECK-LABEL: func @in_if
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[V:.*]]: tensor<i32>)
// CHECK: %[[R:.*]]:2 = tfc.if %[[P]] -> (tensor<i32>, tensor<i32>)
// CHECK:   %[[S:.*]] = tfc.sub %[[V]]
// CHECK:   tfc.yield %{{.*}}, %[[S]] : tensor<i32>, tensor<i32>
// CHECK: } else {
// CHECK:   tfc.yield %{{.*}}, %[[V]] : tensor<i32>, tensor<i32>
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @in_if(%p: tensor<i1>, %v: !tfc.var<tensor<i32>>) -> tensor<i32> {
  %one = tfc.constant dense<1> : tensor<i32>
  %r = tfc.if %p -> (tensor<i32>) {
    tfc.var_assign_sub %v, %one : !tfc.var<tensor<i32>>
    tfc.yield %one : tensor<i32>
  } else {
    tfc.yield %one : tensor<i32>
  }
  return %r : tensor<i32>
}

// -----

// A write inside tfc.while: the variable becomes a loop-carried value of
// both regions, and the loop gains a result.
// CHECK-LABEL: func @in_while
// CHECK: %[[W:.*]]:2 = tfc.while (%[[A:.*]] = %{{.*}}, %[[B:.*]] = %arg0)
// CHECK:   tfc.condition(%{{.*}}) %{{.*}}, %{{.*}} : tensor<i32>, tensor<i32>
// CHECK: } do {
// CHECK: ^bb0(%[[I:.*]]: tensor<i32>, %[[ACC:.*]]: tensor<i32>):
// CHECK:   %[[N:.*]] = tfc.add %[[ACC]], %[[I]]
// CHECK:   tfc.yield %{{.*}}, %[[N]] : tensor<i32>, tensor<i32>
// CHECK: return %[[W]]#1
func.func @in_while(%v: !tfc.var<tensor<i32>>) {
  %zero = tfc.constant dense<0> : tensor<i32>
  %r = tfc.while (%i = %zero) : (tensor<i32>) -> tensor<i32> {
    %three = tfc.constant dense<3> : tensor<i32>
    %c = tfc.cmp lt, %i, %three : tensor<i32>
    tfc.condition(%c) %i : tensor<i32>
  } do {
  ^bb0(%i: tensor<i32>):
    tfc.var_assign_add %v, %i : !tfc.var<tensor<i32>>
    %one = tfc.constant dense<1> : tensor<i32>
    %n = tfc.add %i, %one : tensor<i32>
    tfc.yield %n : tensor<i32>
  }
  return
}

// -----

// A handle used by anything but the variable ops cannot be threaded.
func.func private @takes_var(!tfc.var<tensor<f32>>)
func.func @escapes(%v: !tfc.var<tensor<f32>>) {
  // expected-error @below {{uses a variable handle in a way tfc-promote-variables cannot thread}}
  func.call @takes_var(%v) : (!tfc.var<tensor<f32>>) -> ()
  return
}
