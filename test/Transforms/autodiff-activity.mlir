// RUN: tfc-opt --tfc-autodiff %s | FileCheck %s
// tfc-autodiff gives an adjoint only to values that reach a value with one. A
// captured value used by a dead op, a loop value the result does not use, or
// a callee argument that reaches only an unused result gets no adjoint: an
// explicit zero would flow through the rules of what computed it, and
// sqrt's rule at 0 gives 0 * inf = NaN (tfc issue 5, bug G3). So none of
// these gradients contains sqrt's rule (a tfc.div).

// The loop body uses the captured %s only in a dead op: the backward loop
// carries the counter and the adjoint of %x alone.
// CHECK-LABEL: func.func @dead_capture_vjp
// CHECK-SAME: (%[[X0:.*]]: tensor<f64>, %[[DY:.*]]: tensor<f64>)
// CHECK: tfc.sqrt %[[X0]]
// CHECK: %[[BWD:.*]]:2 = tfc.while (%{{.*}} = %{{.*}}, %{{.*}} = %[[DY]]) : (tensor<i64>, tensor<f64>) -> (tensor<i64>, tensor<f64>)
// CHECK-NOT: tfc.div
// CHECK: return %[[BWD]]#1 : tensor<f64>
func.func @dead_capture(%x0: tensor<f64>) -> tensor<f64> {
  %s = tfc.sqrt %x0 : tensor<f64>
  %bound = tfc.constant dense<4.0> : tensor<f64>
  %two = tfc.constant dense<2.0> : tensor<f64>
  %r = tfc.while (%x = %x0) : (tensor<f64>) -> tensor<f64> {
    %c = tfc.cmp lt, %x, %bound : tensor<f64>
    tfc.condition(%c) %x : tensor<f64>
  } do {
  ^bb0(%y: tensor<f64>):
    %unused = tfc.mul %s, %two : tensor<f64>
    %next = tfc.mul %y, %two : tensor<f64>
    tfc.yield %next : tensor<f64>
  }
  return %r : tensor<f64>
}

// The loop value %z (from %s) is not used by the result: no adjoint is
// carried for it nor for %s.
// CHECK-LABEL: func.func @unused_loop_value_vjp
// CHECK: %[[BWD:.*]]:2 = tfc.while ({{.*}}) : (tensor<i64>, tensor<f64>) -> (tensor<i64>, tensor<f64>)
// CHECK-NOT: tfc.div
// CHECK: return %[[BWD]]#1 : tensor<f64>
func.func @unused_loop_value(%x0: tensor<f64>) -> tensor<f64> {
  %s = tfc.sqrt %x0 : tensor<f64>
  %bound = tfc.constant dense<4.0> : tensor<f64>
  %two = tfc.constant dense<2.0> : tensor<f64>
  %r:2 = tfc.while (%x = %x0, %z = %s) : (tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>) {
    %c = tfc.cmp lt, %x, %bound : tensor<f64>
    tfc.condition(%c) %x, %z : tensor<f64>, tensor<f64>
  } do {
  ^bb0(%y: tensor<f64>, %w: tensor<f64>):
    %next = tfc.mul %y, %two : tensor<f64>
    %z2 = tfc.add %w, %s : tensor<f64>
    tfc.yield %next, %z2 : tensor<f64>, tensor<f64>
  }
  return %r#0 : tensor<f64>
}

// A loop value reaches the result through another one (%w feeds %y): both
// adjoints are carried, and %s, which %w adds, gets one.
// CHECK-LABEL: func.func @coupled_loop_values_vjp
// CHECK: %[[BWD:.*]]:4 = tfc.while ({{.*}}) : (tensor<i64>, tensor<f64>, tensor<f64>, tensor<f64>) -> (tensor<i64>, tensor<f64>, tensor<f64>, tensor<f64>)
// CHECK: tfc.div
// CHECK: return
func.func @coupled_loop_values(%x0: tensor<f64>) -> tensor<f64> {
  %s = tfc.sqrt %x0 : tensor<f64>
  %bound = tfc.constant dense<4.0> : tensor<f64>
  %r:2 = tfc.while (%x = %x0, %z = %x0) : (tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>) {
    %c = tfc.cmp lt, %x, %bound : tensor<f64>
    tfc.condition(%c) %x, %z : tensor<f64>, tensor<f64>
  } do {
  ^bb0(%y: tensor<f64>, %w: tensor<f64>):
    %next = tfc.add %y, %w : tensor<f64>
    %z2 = tfc.add %w, %s : tensor<f64>
    tfc.yield %next, %z2 : tensor<f64>, tensor<f64>
  }
  return %r#0 : tensor<f64>
}

// A branch uses the captured %s only in a dead op: the adjoint if yields the
// adjoint of %x alone.
// CHECK-LABEL: func.func @if_dead_capture_vjp
// CHECK-SAME: (%[[X:.*]]: tensor<f64>, %[[DY:.*]]: tensor<f64>)
// CHECK: %[[P:.*]] = tfc.cmp gt, %[[X]]
// CHECK: tfc.if %[[P]] -> (tensor<f64>)
// CHECK: %[[ADJ:.*]] = tfc.if %[[P]] -> (tensor<f64>) {
// CHECK: } else {
// CHECK-NEXT: tfc.yield %[[DY]] : tensor<f64>
// CHECK-NOT: tfc.div
// CHECK: return %[[ADJ]] : tensor<f64>
func.func @if_dead_capture(%x: tensor<f64>) -> tensor<f64> {
  %s = tfc.sqrt %x : tensor<f64>
  %zero = tfc.constant dense<0.0> : tensor<f64>
  %p = tfc.cmp gt, %x, %zero : tensor<f64>
  %r = tfc.if %p -> (tensor<f64>) {
    %unused = tfc.mul %s, %s : tensor<f64>
    %a = tfc.mul %x, %x : tensor<f64>
    tfc.yield %a : tensor<f64>
  } else {
    tfc.yield %x : tensor<f64>
  }
  return %r : tensor<f64>
}

// The callee's second result is unused: its VJP returns an adjoint (zeros)
// for %s too, which the caller does not pass on to sqrt.
// CHECK-LABEL: func.func @dead_call_vjp
// CHECK: call @pair_vjp
// CHECK-NOT: tfc.div
// CHECK: return
// CHECK-LABEL: func.func @pair_vjp
func.func @dead_call(%x: tensor<f64>) -> tensor<f64> {
  %s = tfc.sqrt %x : tensor<f64>
  %r:2 = func.call @pair(%x, %s) : (tensor<f64>, tensor<f64>) -> (tensor<f64>, tensor<f64>)
  return %r#0 : tensor<f64>
}
func.func @pair(%x: tensor<f64>, %s: tensor<f64>) -> (tensor<f64>, tensor<f64>) {
  %y = tfc.mul %x, %x : tensor<f64>
  %t = tfc.mul %s, %s : tensor<f64>
  return %y, %t : tensor<f64>, tensor<f64>
}

func.func @use(%x: tensor<f64>) -> (tensor<f64>, tensor<f64>, tensor<f64>,
                                     tensor<f64>, tensor<f64>) {
  %a = tfc.grad @dead_capture(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  %b = tfc.grad @unused_loop_value(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  %c = tfc.grad @coupled_loop_values(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  %d = tfc.grad @if_dead_capture(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  %e = tfc.grad @dead_call(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  return %a, %b, %c, %d, %e : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}
