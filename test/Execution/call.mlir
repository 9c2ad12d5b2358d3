// func.call to other functions of the module: a private helper called
// twice, a call inside a loop body, and a function returning two values.
// RUN: tfc-run %s --mode=interpret --arg="[1,2,3]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[1,2,3]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=interpret --entry=stats --arg="[1,2,3]:f32" | FileCheck %s --check-prefix=STATS
// RUN: tfc-run %s --mode=jit --entry=stats --arg="[1,2,3]:f32" | FileCheck %s --check-prefix=STATS

// CHECK: tfc.Tensor([ 3.  6. 11.], shape=(3,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(6.0, shape=(), dtype=float32)
// CHECK-NEXT: tfc.Tensor(2.0, shape=(), dtype=float32)

// STATS: tfc.Tensor(6.0, shape=(), dtype=float32)
// STATS-NEXT: tfc.Tensor(2.0, shape=(), dtype=float32)

// Results: x*x + 2; the mean of x added up three times in a loop (calling
// @stats in the loop body); the mean of x.
func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<f32>, tensor<f32>) {
  %y = func.call @square_plus_two(%x) : (tensor<3xf32>) -> tensor<3xf32>
  %zero = tfc.constant dense<0.0> : tensor<f32>
  %three = tfc.constant dense<3.0> : tensor<f32>
  %one = tfc.constant dense<1.0> : tensor<f32>
  %r:2 = tfc.while (%i = %zero, %acc = %zero) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %c = tfc.cmp lt, %i, %three : tensor<f32>
    tfc.condition(%c) %i, %acc : tensor<f32>, tensor<f32>
  } do {
  ^bb0(%j: tensor<f32>, %a: tensor<f32>):
    %s:2 = func.call @stats(%x) : (tensor<3xf32>) -> (tensor<f32>, tensor<f32>)
    %a1 = tfc.add %a, %s#1 : tensor<f32>
    %j1 = tfc.add %j, %one : tensor<f32>
    tfc.yield %j1, %a1 : tensor<f32>, tensor<f32>
  }
  %s:2 = func.call @stats(%x) : (tensor<3xf32>) -> (tensor<f32>, tensor<f32>)
  return %y, %r#1, %s#1 : tensor<3xf32>, tensor<f32>, tensor<f32>
}

func.func private @square_plus_two(%x: tensor<3xf32>) -> tensor<3xf32> {
  %two = tfc.constant dense<2.0> : tensor<3xf32>
  %sq = tfc.square %x : tensor<3xf32>
  %r = tfc.add %sq, %two : tensor<3xf32>
  return %r : tensor<3xf32>
}

// Sum and mean.
func.func @stats(%x: tensor<3xf32>) -> (tensor<f32>, tensor<f32>) {
  %sum = tfc.reduce_sum %x, axes = [0], keepdims = false : tensor<3xf32> -> tensor<f32>
  %mean = tfc.reduce_mean %x, axes = [0], keepdims = false : tensor<3xf32> -> tensor<f32>
  return %sum, %mean : tensor<f32>, tensor<f32>
}
