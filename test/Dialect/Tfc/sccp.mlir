// RUN: tfc-opt %s --sccp | FileCheck %s

// Sparse conditional constant propagation through tfc ops: folders give the
// constants, RegionBranchOpInterface tells it which regions run.

// CHECK-LABEL: func @if_constant_predicate
func.func @if_constant_predicate(%a: tensor<f32>) -> tensor<f32> {
  %p = tfc.constant dense<false> : tensor<i1>
  %one = tfc.constant dense<1.0> : tensor<f32>
  %two = tfc.constant dense<2.0> : tensor<f32>
  // Only the else branch can run, so the result is the constant it yields.
  // CHECK: %[[C:.*]] = tfc.constant dense<4.000000e+00> : tensor<f32>
  %r = tfc.if %p -> (tensor<f32>) {
    tfc.yield %a : tensor<f32>
  } else {
    %s = tfc.add %two, %two : tensor<f32>
    tfc.yield %s : tensor<f32>
  }
  // CHECK: return %[[C]]
  return %r : tensor<f32>
}

// CHECK-LABEL: func @while_never_taken
func.func @while_never_taken() -> tensor<i32> {
  %init = tfc.constant dense<10> : tensor<i32>
  %limit = tfc.constant dense<5> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  // The condition folds to false on entry: the loop yields its init.
  // CHECK: %[[C:.*]] = tfc.constant dense<10> : tensor<i32>
  %r = tfc.while (%i = %init) : (tensor<i32>) -> tensor<i32> {
    %c = tfc.cmp lt, %i, %limit : tensor<i32>
    tfc.condition(%c) %i : tensor<i32>
  } do {
  ^bb0(%j: tensor<i32>):
    %n = tfc.add %j, %one : tensor<i32>
    tfc.yield %n : tensor<i32>
  }
  // CHECK: return %[[C]]
  return %r : tensor<i32>
}

// CHECK-LABEL: func @while_unknown
func.func @while_unknown(%limit: tensor<i32>) -> tensor<i32> {
  %init = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  // The trip count is unknown: the result is not a constant.
  // CHECK: %[[R:.*]] = tfc.while
  %r = tfc.while (%i = %init) : (tensor<i32>) -> tensor<i32> {
    %c = tfc.cmp lt, %i, %limit : tensor<i32>
    tfc.condition(%c) %i : tensor<i32>
  } do {
  ^bb0(%j: tensor<i32>):
    %n = tfc.add %j, %one : tensor<i32>
    tfc.yield %n : tensor<i32>
  }
  // CHECK: return %[[R]]
  return %r : tensor<i32>
}
