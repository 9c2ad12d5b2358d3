// RUN: tfc-opt --tfc-autodiff %s | FileCheck %s
// tfc-autodiff through control flow: tfc.if, tfc.while (stacks), calls and
// tfc.custom_gradient.

// The adjoint of an if is an if on the same predicate; each branch recomputes
// its forward branch and yields the adjoints of the captured x and y.
// CHECK-LABEL: func.func @branchy_vjp
// CHECK-SAME: (%[[X:.*]]: tensor<f64>, %[[Y:.*]]: tensor<f64>, %[[DY:.*]]: tensor<f64>)
// CHECK: %[[P:.*]] = tfc.cmp gt, %[[X]]
// CHECK: tfc.if %[[P]] -> (tensor<f64>)
// CHECK: %[[ADJ:.*]]:2 = tfc.if %[[P]] -> (tensor<f64>, tensor<f64>) {
// CHECK-NEXT: tfc.mul %[[X]], %[[Y]]
// CHECK-NEXT: %[[DXT:.*]] = tfc.mul %[[DY]], %[[Y]]
// CHECK-NEXT: %[[DYT:.*]] = tfc.mul %[[DY]], %[[X]]
// CHECK-NEXT: tfc.yield %[[DXT]], %[[DYT]]
// CHECK-NEXT: } else {
// CHECK-NEXT: tfc.sin %[[X]]
// CHECK-NEXT: %[[C:.*]] = tfc.cos %[[X]]
// CHECK-NEXT: %[[DXE:.*]] = tfc.mul %[[DY]], %[[C]]
// CHECK-NEXT: %[[Z:.*]] = tfc.constant dense<0.000000e+00>
// CHECK-NEXT: tfc.yield %[[DXE]], %[[Z]]
// CHECK: return %[[ADJ]]#0, %[[ADJ]]#1
func.func @branchy(%x: tensor<f64>, %y: tensor<f64>) -> tensor<f64> {
  %zero = tfc.constant dense<0.0> : tensor<f64>
  %p = tfc.cmp gt, %x, %zero : tensor<f64>
  %r = tfc.if %p -> (tensor<f64>) {
    %a = tfc.mul %x, %y : tensor<f64>
    tfc.yield %a : tensor<f64>
  } else {
    %s = tfc.sin %x : tensor<f64>
    tfc.yield %s : tensor<f64>
  }
  return %r : tensor<f64>
}

// The forward loop counts its iterations and pushes the value entering each
// one; the backward loop runs that many times, popping, recomputing the body
// and accumulating the adjoint of the captured w.
// CHECK-LABEL: func.func @loop_vjp
// CHECK-SAME: (%[[X0:.*]]: tensor<f64>, %[[W:.*]]: tensor<f64>, %[[DY:.*]]: tensor<f64>)
// CHECK: %[[S:.*]] = tfc.stack_new : !tfc.stack<tensor<f64>>
// CHECK: %[[ZERO:.*]] = tfc.constant dense<0> : tensor<i64>
// CHECK: %[[FWD:.*]]:2 = tfc.while (%[[X:.*]] = %[[X0]], %[[N:.*]] = %[[ZERO]]) : (tensor<f64>, tensor<i64>) -> (tensor<f64>, tensor<i64>)
// CHECK: tfc.condition(%{{.*}}) %[[X]], %[[N]]
// CHECK: ^bb0(%[[XB:.*]]: tensor<f64>, %[[NB:.*]]: tensor<i64>):
// CHECK-NEXT: tfc.stack_push %[[S]], %[[XB]] : !tfc.stack<tensor<f64>>
// CHECK-NEXT: tfc.sin %[[XB]]
// CHECK-NEXT: %[[NEXT:.*]] = tfc.mul %{{.*}}, %[[W]]
// CHECK-NEXT: %[[ONE:.*]] = tfc.constant dense<1> : tensor<i64>
// CHECK-NEXT: %[[N1:.*]] = tfc.add %[[NB]], %[[ONE]]
// CHECK-NEXT: tfc.yield %[[NEXT]], %[[N1]]
// CHECK: %[[BWD:.*]]:3 = tfc.while (%[[K:.*]] = %[[FWD]]#1, %[[DX:.*]] = %[[DY]], %[[DW:.*]] = %{{.*}}) : (tensor<i64>, tensor<f64>, tensor<f64>)
// CHECK: tfc.cmp gt, %[[K]]
// CHECK: ^bb0(%[[KB:.*]]: tensor<i64>, %[[DXB:.*]]: tensor<f64>, %[[DWB:.*]]: tensor<f64>):
// CHECK: %[[K1:.*]] = tfc.sub %[[KB]]
// CHECK-NEXT: %[[XP:.*]] = tfc.stack_pop %[[S]] : !tfc.stack<tensor<f64>>
// CHECK-NEXT: %[[SIN:.*]] = tfc.sin %[[XP]]
// CHECK: %[[DSIN:.*]] = tfc.mul %[[DXB]], %[[W]]
// CHECK-NEXT: %[[DWI:.*]] = tfc.mul %[[DXB]], %[[SIN]]
// CHECK-NEXT: %[[COS:.*]] = tfc.cos %[[XP]]
// CHECK-NEXT: %[[DXP:.*]] = tfc.mul %[[DSIN]], %[[COS]]
// CHECK-NEXT: %[[DWACC:.*]] = tfc.add %[[DWB]], %[[DWI]]
// CHECK-NEXT: tfc.yield %[[K1]], %[[DXP]], %[[DWACC]]
// CHECK: tfc.stack_free %[[S]]
// CHECK-NEXT: return %[[BWD]]#1, %[[BWD]]#2
func.func @loop(%x0: tensor<f64>, %w: tensor<f64>) -> tensor<f64> {
  %bound = tfc.constant dense<1.4> : tensor<f64>
  %r = tfc.while (%x = %x0) : (tensor<f64>) -> tensor<f64> {
    %c = tfc.cmp lt, %x, %bound : tensor<f64>
    tfc.condition(%c) %x : tensor<f64>
  } do {
  ^bb0(%y: tensor<f64>):
    %s = tfc.sin %y : tensor<f64>
    %next = tfc.mul %s, %w : tensor<f64>
    tfc.yield %next : tensor<f64>
  }
  return %r : tensor<f64>
}

// A custom gradient: the forward op stays, its backward region is inlined
// as the rule (forward not differentiated: no exp/log1p rule ops).
// CHECK-LABEL: func.func @softplus_vjp
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[DY:.*]]: tensor<2xf32>)
// CHECK: tfc.custom_gradient(%[[X]])
// CHECK: } backward {
// CHECK: %[[SIG:.*]] = tfc.sigmoid %[[X]]
// CHECK-NEXT: %[[D:.*]] = tfc.mul %[[DY]], %[[SIG]]
// CHECK-NEXT: return %[[D]]
func.func @softplus(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = tfc.custom_gradient (%x) : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xf32>):
    %e = tfc.exp %a : tensor<2xf32>
    %l = tfc.log1p %e : tensor<2xf32>
    tfc.custom_yield %l : tensor<2xf32>
  } backward {
  ^bb0(%a: tensor<2xf32>, %out: tensor<2xf32>, %dy: tensor<2xf32>):
    %s = tfc.sigmoid %a : tensor<2xf32>
    %d = tfc.mul %dy, %s : tensor<2xf32>
    tfc.custom_yield %d : tensor<2xf32>
  }
  return %y : tensor<2xf32>
}

// A call's adjoint calls the callee's generated gradient; a tfc.grad inside a
// differentiated function is lowered first (second derivative).
// CHECK-LABEL: func.func @calls_vjp
// CHECK: %[[F:.*]] = call @softplus(%{{.*}})
// CHECK: call @softplus_vjp(%{{.*}}, %{{.*}})
// CHECK-LABEL: func.func @first
// CHECK: call @square_vjp
// CHECK-LABEL: func.func @first_vjp
// CHECK: call @square_vjp
// CHECK: call @square_vjp_vjp
// CHECK-LABEL: func.func @use
// CHECK-NOT: tfc.grad
// CHECK: call @branchy_vjp
// CHECK: call @loop_vjp
// CHECK: call @softplus_vjp
// CHECK: call @calls_vjp
// CHECK: call @first_vjp
func.func @calls(%x: tensor<2xf32>) -> tensor<f32> {
  %f = func.call @softplus(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %s = tfc.reduce_sum %f, axes = [0], keepdims = false : tensor<2xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @square(%x: tensor<f64>) -> tensor<f64> {
  %y = tfc.mul %x, %x : tensor<f64>
  return %y : tensor<f64>
}
func.func @first(%x: tensor<f64>) -> tensor<f64> {
  %g = tfc.grad @square(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  return %g : tensor<f64>
}

func.func @use(%x: tensor<f64>, %y: tensor<f64>, %v: tensor<2xf32>)
    -> (tensor<f64>, tensor<f64>, tensor<2xf32>, tensor<2xf32>, tensor<f64>) {
  %g = tfc.grad @branchy(%x, %y) wrt [1] : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %h = tfc.grad @loop(%x, %y) wrt [0] : (tensor<f64>, tensor<f64>) -> tensor<f64>
  %s = tfc.grad @softplus(%v) wrt [0] : (tensor<2xf32>) -> tensor<2xf32>
  %c = tfc.grad @calls(%v) wrt [0] : (tensor<2xf32>) -> tensor<2xf32>
  %d = tfc.grad @first(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  return %g, %h, %s, %c, %d : tensor<f64>, tensor<f64>, tensor<2xf32>, tensor<2xf32>, tensor<f64>
}
