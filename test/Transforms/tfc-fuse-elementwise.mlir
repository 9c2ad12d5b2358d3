// RUN: tfc-opt %s --tfc-fuse-elementwise --split-input-file | FileCheck %s
// RUN: tfc-opt %s --tfc-fuse-elementwise="max-inputs=1" --split-input-file | FileCheck %s --check-prefix=BOUNDED

// A chain of elementwise ops becomes one loop fusion; the scalar constant
// and its broadcast are cloned into the body, the broadcast row is read
// through its broadcast (an input of its own shape).
// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>, %[[B:.*]]: tensor<8xf32>)
// Inputs come in the order the body first reads them.
// CHECK: %[[F:.*]] = tfc.fusion loop(%[[B]], %[[X]]) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK-NEXT: ^bb0(%[[A1:.*]]: tensor<8xf32>, %[[A0:.*]]: tensor<4x8xf32>):
// CHECK-NEXT: tfc.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: tfc.broadcast_to %{{.*}} : tensor<f32> to tensor<4x8xf32>
// CHECK-NEXT: tfc.broadcast_to %[[A1]] : tensor<8xf32> to tensor<4x8xf32>
// CHECK-NEXT: tfc.mul %[[A0]]
// CHECK-NEXT: tfc.add
// CHECK-NEXT: tfc.tanh
// CHECK-NEXT: tfc.sigmoid %[[A0]]
// CHECK: %[[R:.*]] = tfc.mul
// CHECK: tfc.yield %[[R]] : tensor<4x8xf32>
// CHECK: return %[[F]]
// With one input allowed, only x * 2 (its constant cloned in) is fused.
// BOUNDED-LABEL: func @chain
// BOUNDED: tfc.fusion loop(%arg0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// BOUNDED-NOT: tfc.fusion
// BOUNDED: return
func.func @chain(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %c = tfc.constant dense<2.0> : tensor<f32>
  %a = tfc.broadcast_to %c : tensor<f32> to tensor<4x8xf32>
  %bb = tfc.broadcast_to %b : tensor<8xf32> to tensor<4x8xf32>
  %0 = tfc.mul %x, %a : tensor<4x8xf32>
  %1 = tfc.add %0, %bb : tensor<4x8xf32>
  %2 = tfc.tanh %1 : tensor<4x8xf32>
  %3 = tfc.sigmoid %x : tensor<4x8xf32>
  %4 = tfc.mul %2, %3 : tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// -----

// An expensive value with two consumers is computed once: the first
// consumer's fusion also yields it (multi-output), the second reads it.
// CHECK-LABEL: func @shared_tanh
// CHECK: %[[F:.*]]:2 = tfc.fusion loop(%{{.*}}, %{{.*}}) : (tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
// CHECK: %[[T:.*]] = tfc.tanh
// CHECK: %[[M:.*]] = tfc.mul %[[T]]
// CHECK: tfc.yield %[[M]], %[[T]]
// CHECK-NOT: tfc.tanh
// CHECK: %[[A:.*]] = tfc.add %[[F]]#1, %{{.*}} : tensor<16xf32>
// CHECK: return %[[F]]#0, %[[A]]
func.func @shared_tanh(%x: tensor<16xf32>, %y: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %t = tfc.tanh %x : tensor<16xf32>
  %a = tfc.mul %t, %y : tensor<16xf32>
  %b = tfc.add %t, %y : tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// -----

// A value printed before the consumer is needed outside before the fusion
// would run: it stays a boundary (no multi-output, no duplication).
// CHECK-LABEL: func @printed_before
// CHECK: %[[E:.*]] = tfc.exp
// CHECK: tfc.print "e" %[[E]]
// CHECK: %[[N:.*]] = tfc.neg %[[E]]
// CHECK-NOT: tfc.fusion
func.func @printed_before(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tfc.exp %x : tensor<16xf32>
  tfc.print "e" %e : tensor<16xf32>
  %n = tfc.neg %e : tensor<16xf32>
  return %n : tensor<16xf32>
}

// -----

// A reduction absorbs its elementwise producers (input fusion), here the
// numerator of a softmax: reduce_sum(exp(x - max)).
// CHECK-LABEL: func @input_fusion
// CHECK: %[[F:.*]] = tfc.fusion input(%{{.*}}, %{{.*}}) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK: tfc.broadcast_to %{{.*}} : tensor<4x1xf32> to tensor<4x8xf32>
// CHECK: tfc.sub
// CHECK: tfc.exp
// CHECK: %[[S:.*]] = tfc.reduce_sum %{{.*}}, axes = [1], keepdims = true
// CHECK: tfc.yield %[[S]]
func.func @input_fusion(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> tensor<4x1xf32> {
  %mb = tfc.broadcast_to %m : tensor<4x1xf32> to tensor<4x8xf32>
  %d = tfc.sub %x, %mb : tensor<4x8xf32>
  %e = tfc.exp %d : tensor<4x8xf32>
  %s = tfc.reduce_sum %e, axes = [1], keepdims = true : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// -----

// One op alone is not a fusion; neither is a matmul.
// CHECK-LABEL: func @single
// CHECK-NOT: tfc.fusion
func.func @single(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = tfc.matmul %x, %x : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = tfc.relu %0 : tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// Dynamic dims: the size comes from %x, read at the iteration space's shape;
// the row broadcast is affine (its dims are a static 1 and a matching 4). Its
// `like` operand sizes the dynamic dim outside a fusion; inside, the
// iteration space does, so the fused copy has none and %x is not an extra
// input. (A broadcast to a dim nothing sizes does not verify.)
// CHECK-LABEL: func @dynamic
// CHECK: tfc.fusion loop(%{{.*}}, %{{.*}}) : (tensor<1x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: tfc.broadcast_to %{{[a-z0-9]+}} : tensor<1x4xf32> to tensor<?x4xf32>
// CHECK: tfc.add
// CHECK: tfc.relu
func.func @dynamic(%x: tensor<?x4xf32>, %b: tensor<1x4xf32>) -> tensor<?x4xf32> {
  %bb = tfc.broadcast_to %b like %x : tensor<1x4xf32> to tensor<?x4xf32> like tensor<?x4xf32>
  %0 = tfc.add %x, %bb : tensor<?x4xf32>
  %1 = tfc.relu %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// A lower-rank bias broadcast like a dynamic batch: fused, no `like` inside.
// CHECK-LABEL: func @bias_like
// CHECK: tfc.fusion loop(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK: tfc.broadcast_to %{{[a-z0-9]+}} : tensor<4xf32> to tensor<?x4xf32>
// CHECK-NOT: like
// CHECK: tfc.yield
func.func @bias_like(%x: tensor<?x4xf32>, %b: tensor<4xf32>) -> tensor<?x4xf32> {
  %bb = tfc.broadcast_to %b like %x : tensor<4xf32> to tensor<?x4xf32> like tensor<?x4xf32>
  %0 = tfc.add %x, %bb : tensor<?x4xf32>
  %1 = tfc.relu %0 : tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// -----

// A broadcast of a dynamic dim (1 or n, known only at run time) cannot be an
// affine map: it stays outside and its result is an input.
// CHECK-LABEL: func @runtime_broadcast
// CHECK: %[[BB:.*]] = tfc.broadcast_to %{{.*}} : tensor<?xf32> to tensor<4xf32>
// CHECK: tfc.fusion loop(%{{.*}}, %[[BB]])
func.func @runtime_broadcast(%x: tensor<4xf32>, %b: tensor<?xf32>) -> tensor<4xf32> {
  %bb = tfc.broadcast_to %b : tensor<?xf32> to tensor<4xf32>
  %0 = tfc.add %x, %bb : tensor<4xf32>
  %1 = tfc.exp %0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Fusion works inside control-flow regions, one block at a time; values
// from outside the region enter as inputs (the fusion is isolated), except
// splat constants, which are cloned in.
// CHECK-LABEL: func @in_loop
// CHECK: tfc.while
// CHECK: tfc.fusion loop(%{{.*}}) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tfc.constant dense<1.500000e+00> : tensor<8xf32>
// CHECK-NEXT: tfc.mul
// CHECK-NEXT: tfc.sin
func.func @in_loop(%x: tensor<8xf32>, %n: tensor<i32>) -> tensor<8xf32> {
  %zero = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  %s = tfc.constant dense<1.5> : tensor<8xf32>
  %r:2 = tfc.while (%i = %zero, %v = %x) : (tensor<i32>, tensor<8xf32>) -> (tensor<i32>, tensor<8xf32>) {
    %c = tfc.cmp lt, %i, %n : tensor<i32>
    tfc.condition(%c) %i, %v : tensor<i32>, tensor<8xf32>
  } do {
  ^bb0(%i: tensor<i32>, %v: tensor<8xf32>):
    %m = tfc.mul %v, %s : tensor<8xf32>
    %t = tfc.sin %m : tensor<8xf32>
    %i1 = tfc.add %i, %one : tensor<i32>
    tfc.yield %i1, %t : tensor<i32>, tensor<8xf32>
  }
  return %r#1 : tensor<8xf32>
}

// -----

// A reduction whose operand is computed only from broadcasts has no input
// spanning its reduced dims (linalg needs one for every loop dim): the
// elementwise part is a loop fusion and the reduction stays outside.
// CHECK-LABEL: func @reduce_of_broadcast
// CHECK: %[[F:.*]] = tfc.fusion loop(%arg0) : (tensor<8xf32>) -> tensor<4x8xf32>
// CHECK: tfc.reduce_sum %[[F]], axes = [0, 1]
func.func @reduce_of_broadcast(%b: tensor<8xf32>) -> tensor<f32> {
  %bb = tfc.broadcast_to %b : tensor<8xf32> to tensor<4x8xf32>
  %e = tfc.exp %bb : tensor<4x8xf32>
  %s = tfc.reduce_sum %e, axes = [0, 1], keepdims = false : tensor<4x8xf32> -> tensor<f32>
  return %s : tensor<f32>
}
