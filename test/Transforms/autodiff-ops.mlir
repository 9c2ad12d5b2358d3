// RUN: tfc-opt --tfc-autodiff %s | FileCheck %s
// tfc-autodiff on each op family: the adjoints come from the frontend's
// gradient rules (GradientRules.cpp), built at the pass's insertion point.

// Unary and binary elementwise: sum(tanh(x * w)).
// CHECK-LABEL: func.func @elementwise_vjp
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[W:.*]]: tensor<3xf32>, %[[DY:.*]]: tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK-SAME: tfc.vjp_of = @elementwise
// CHECK: %[[M:.*]] = tfc.mul %[[X]], %[[W]]
// CHECK: %[[T:.*]] = tfc.tanh %[[M]]
// reduce_sum: dy reshaped and broadcast back.
// CHECK: %[[R:.*]] = tfc.reshape %[[DY]] : tensor<f32> -> tensor<1xf32>
// CHECK: %[[B:.*]] = tfc.broadcast_to %[[R]] : tensor<1xf32> to tensor<3xf32>
// tanh: dy * (1 - y^2).
// CHECK: %[[SQ:.*]] = tfc.square %[[T]]
// CHECK: %[[ONEM:.*]] = tfc.sub %{{.*}}, %[[SQ]]
// CHECK: %[[DM:.*]] = tfc.mul %[[B]], %[[ONEM]]
// mul: dy * w, dy * x.
// CHECK: %[[DX:.*]] = tfc.mul %[[DM]], %[[W]]
// CHECK: %[[DW:.*]] = tfc.mul %[[DM]], %[[X]]
// CHECK: return %[[DX]], %[[DW]]
func.func @elementwise(%x: tensor<3xf32>, %w: tensor<3xf32>) -> tensor<f32> {
  %m = tfc.mul %x, %w : tensor<3xf32>
  %t = tfc.tanh %m : tensor<3xf32>
  %s = tfc.reduce_sum %t, axes = [0], keepdims = false : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// A value used twice accumulates its adjoints with tfc.add; a broadcast's
// adjoint sums over the broadcast dims (un-broadcast).
// CHECK-LABEL: func.func @broadcast_vjp
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>, %[[B:.*]]: tensor<3xf64>, %[[DY:.*]]: tensor<f64>)
// CHECK: %[[BB:.*]] = tfc.broadcast_to %[[B]] : tensor<3xf64> to tensor<2x3xf64>
// CHECK: %[[P:.*]] = tfc.mul %[[A]], %[[BB]]
// CHECK: %[[Q:.*]] = tfc.add %[[P]], %[[A]]
// CHECK: %[[DYB:.*]] = tfc.broadcast_to %{{.*}} : tensor<1x1xf64> to tensor<2x3xf64>
// CHECK: %[[DA1:.*]] = tfc.mul %[[DYB]], %[[BB]]
// CHECK: %[[DBB:.*]] = tfc.mul %[[DYB]], %[[A]]
// CHECK: %[[ACC:.*]] = tfc.add %[[DYB]], %[[DA1]]
// CHECK: %[[DB:.*]] = tfc.reduce_sum %[[DBB]], axes = [0], keepdims = false : tensor<2x3xf64> -> tensor<3xf64>
// CHECK: return %[[ACC]], %[[DB]] : tensor<2x3xf64>, tensor<3xf64>
func.func @broadcast(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<f64> {
  %bb = tfc.broadcast_to %b : tensor<3xf64> to tensor<2x3xf64>
  %p = tfc.mul %a, %bb : tensor<2x3xf64>
  %q = tfc.add %p, %a : tensor<2x3xf64>
  %s = tfc.reduce_sum %q, axes = [0, 1], keepdims = false : tensor<2x3xf64> -> tensor<f64>
  return %s : tensor<f64>
}

// matmul: da = dy b^T, db = a^T dy.
// CHECK-LABEL: func.func @matmul_vjp
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[DY:.*]]: tensor<2x4xf32>)
// CHECK: %[[BT:.*]] = tfc.transpose %[[B]], perm = [1, 0]
// CHECK: %[[DA:.*]] = tfc.matmul %[[DY]], %[[BT]]
// CHECK: %[[AT:.*]] = tfc.transpose %[[A]], perm = [1, 0]
// CHECK: %[[DB:.*]] = tfc.matmul %[[AT]], %[[DY]]
// CHECK: return %[[DA]], %[[DB]]
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %c = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %c : tensor<2x4xf32>
}

// softmax: (dy - sum(dy * y)) * y; reduce_mean divides by the count.
// CHECK-LABEL: func.func @softmax_vjp
// CHECK: %[[Y:.*]] = tfc.softmax %{{.*}}, axis = 1
// CHECK: tfc.div
// CHECK: %[[DYY:.*]] = tfc.mul %{{.*}}, %[[Y]]
// CHECK: tfc.reduce_sum %[[DYY]], axes = [1], keepdims = true
// CHECK: tfc.sub
// CHECK: tfc.mul %{{.*}}, %[[Y]]
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<f32> {
  %y = tfc.softmax %x, axis = 1 : tensor<2x3xf32>
  %m = tfc.reduce_mean %y, axes = [0, 1], keepdims = false : tensor<2x3xf32> -> tensor<f32>
  return %m : tensor<f32>
}

// Integer ops and comparisons pass no gradient; an argument the result does
// not depend on gets zeros.
// CHECK-LABEL: func.func @nondiff_vjp
// CHECK-SAME: (%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<2xi32>, %{{.*}}: tensor<2xf32>, %{{.*}}: tensor<f32>) -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: %[[Z:.*]] = tfc.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: return %{{.*}}, %[[Z]]
func.func @nondiff(%x: tensor<2xf32>, %i: tensor<2xi32>, %unused: tensor<2xf32>) -> tensor<f32> {
  %c = tfc.cast %i : tensor<2xi32> to tensor<2xf32>
  %p = tfc.mul %x, %c : tensor<2xf32>
  %s = tfc.reduce_sum %p, axes = [0], keepdims = false : tensor<2xf32> -> tensor<f32>
  return %s : tensor<f32>
}

// Floor-mod (TensorFlow's FloorMod gradient): dx = dy, dy' = -(dy * floor(x / y)).
// CHECK-LABEL: func.func @floormod_vjp
// CHECK-SAME: (%[[X:.*]]: tensor<3xf64>, %[[Y:.*]]: tensor<3xf64>, %[[DY:.*]]: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)
// CHECK: tfc.mod %[[X]], %[[Y]]
// CHECK: %[[Q:.*]] = tfc.floor_div %[[X]], %[[Y]] : tensor<3xf64>
// CHECK: %[[P:.*]] = tfc.mul %[[DY]], %[[Q]]
// CHECK: %[[N:.*]] = tfc.neg %[[P]]
// CHECK: return %[[DY]], %[[N]]
func.func @floormod(%x: tensor<3xf64>, %y: tensor<3xf64>) -> tensor<3xf64> {
  %r = tfc.mod %x, %y : tensor<3xf64>
  return %r : tensor<3xf64>
}

// tfc.grad becomes a call of the generated function seeded with ones.
// CHECK-LABEL: func.func @use
// CHECK: %[[ONE:.*]] = tfc.constant dense<1.000000e+00> : tensor<f32>
// CHECK: %[[G:.*]]:2 = call @elementwise_vjp(%{{.*}}, %{{.*}}, %[[ONE]])
// CHECK: %[[H:.*]]:2 = call @broadcast_vjp
// CHECK: call @matmul_vjp
// CHECK: call @softmax_vjp
// CHECK: call @nondiff_vjp
// CHECK: call @floormod_vjp
// CHECK: return %[[G]]#1, %[[H]]#0
// CHECK-NOT: tfc.grad
func.func @use(%x: tensor<3xf32>, %w: tensor<3xf32>, %a: tensor<2x3xf64>, %b: tensor<3xf64>,
               %m: tensor<2x3xf32>, %n: tensor<3x4xf32>, %i: tensor<2xi32>, %v: tensor<2xf32>,
               %fm: tensor<3xf64>)
    -> (tensor<3xf32>, tensor<2x3xf64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<3xf64>) {
  %g = tfc.grad @elementwise(%x, %w) wrt [1] : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %h = tfc.grad @broadcast(%a, %b) wrt [0] : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  %k = tfc.grad @matmul(%m, %n) wrt [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %s = tfc.grad @softmax(%m) wrt [0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = tfc.grad @nondiff(%v, %i, %v) wrt [2] : (tensor<2xf32>, tensor<2xi32>, tensor<2xf32>) -> tensor<2xf32>
  %q = tfc.grad @floormod(%fm, %fm) wrt [1] : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  return %g, %h, %k, %s, %z, %q : tensor<3xf32>, tensor<2x3xf64>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<3xf64>
}
