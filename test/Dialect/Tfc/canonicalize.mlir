// RUN: tfc-opt %s --canonicalize --split-input-file | FileCheck %s

// Canonicalization patterns and in-place folds that rewrite op chains, plus
// what canonicalization must keep (side effects, control flow it cannot
// decide).

// CHECK-LABEL: func @transpose_of_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  // [2,3,4] -p1=[2,0,1]-> [4,2,3] -p2=[2,0,1]-> [3,4,2], one transpose [1,2,0].
  // CHECK: %[[T:.*]] = tfc.transpose %[[X]], perm = [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  // CHECK-NOT: tfc.transpose
  %0 = tfc.transpose %x, perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %1 = tfc.transpose %0, perm = [2, 0, 1] : tensor<4x2x3xf32> -> tensor<3x4x2xf32>
  // CHECK: return %[[T]]
  return %1 : tensor<3x4x2xf32>
}

// -----

// CHECK-LABEL: func @transpose_roundtrip
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @transpose_roundtrip(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NOT: tfc.transpose
  %0 = tfc.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %1 = tfc.transpose %0, perm = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  // CHECK: return %[[X]]
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @reshape_of_reshape(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<2x3xf32>) {
  // CHECK: %[[R:.*]] = tfc.reshape %[[X]] : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK-NOT: tfc.reshape
  %0 = tfc.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
  %1 = tfc.reshape %0 : tensor<6xf32> -> tensor<3x2xf32>
  %2 = tfc.reshape %0 : tensor<6xf32> -> tensor<2x3xf32>
  // CHECK: return %[[R]], %[[X]]
  return %1, %2 : tensor<3x2xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
func.func @broadcast_of_broadcast(%x: tensor<3xf32>) -> tensor<4x2x3xf32> {
  // CHECK: %[[B:.*]] = tfc.broadcast_to %[[X]] : tensor<3xf32> to tensor<4x2x3xf32>
  // CHECK-NOT: tfc.broadcast_to
  %0 = tfc.broadcast_to %x : tensor<3xf32> to tensor<2x3xf32>
  %1 = tfc.broadcast_to %0 : tensor<2x3xf32> to tensor<4x2x3xf32>
  // CHECK: return %[[B]]
  return %1 : tensor<4x2x3xf32>
}

// -----

// A dynamic result dim takes its size from the aligned operand dim: composed
// with x, the leading dims would have none (x is rank 1) and the `?` over
// x's dim would lose the inner broadcast's size, so the two stay.
// (tfc-difftest-grad seed 601138.)
// CHECK-LABEL: func @broadcast_of_broadcast_to_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
func.func @broadcast_of_broadcast_to_dynamic(%x: tensor<2xf32>) -> tensor<1x?x?xf32> {
  // CHECK: %[[B:.*]] = tfc.broadcast_to %[[X]] : tensor<2xf32> to tensor<4x2xf32>
  // CHECK: tfc.broadcast_to %[[B]] : tensor<4x2xf32> to tensor<1x?x?xf32>
  %0 = tfc.broadcast_to %x : tensor<2xf32> to tensor<4x2xf32>
  %1 = tfc.broadcast_to %0 : tensor<4x2xf32> to tensor<1x?x?xf32>
  return %1 : tensor<1x?x?xf32>
}

// -----

// With a `like` that sizes every dynamic dim x lacks, the two compose (the
// outer broadcast keeps its `like`). A dim the inner broadcast's `like`
// sized stays with it: the outer `like` need not agree with it.
// CHECK-LABEL: func @broadcast_of_broadcast_like
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[Y:.*]]: tensor<?x3x2xf32>, %[[Z:.*]]: tensor<?x2xf32>, %[[W:.*]]: tensor<?x?x2xf32>)
func.func @broadcast_of_broadcast_like(%x: tensor<2xf32>, %y: tensor<?x3x2xf32>, %z: tensor<?x2xf32>, %w: tensor<?x?x2xf32>) -> (tensor<?x3x2xf32>, tensor<?x?x2xf32>) {
  // CHECK: %[[A:.*]] = tfc.broadcast_to %[[X]] like %[[Y]] : tensor<2xf32> to tensor<?x3x2xf32> like tensor<?x3x2xf32>
  %0 = tfc.broadcast_to %x : tensor<2xf32> to tensor<3x2xf32>
  %1 = tfc.broadcast_to %0 like %y : tensor<3x2xf32> to tensor<?x3x2xf32> like tensor<?x3x2xf32>
  // CHECK: %[[B:.*]] = tfc.broadcast_to %[[X]] like %[[Z]] : tensor<2xf32> to tensor<?x2xf32> like tensor<?x2xf32>
  // CHECK: %[[C:.*]] = tfc.broadcast_to %[[B]] like %[[W]] : tensor<?x2xf32> to tensor<?x?x2xf32> like tensor<?x?x2xf32>
  %2 = tfc.broadcast_to %x like %z : tensor<2xf32> to tensor<?x2xf32> like tensor<?x2xf32>
  %3 = tfc.broadcast_to %2 like %w : tensor<?x2xf32> to tensor<?x?x2xf32> like tensor<?x?x2xf32>
  // CHECK: return %[[A]], %[[C]]
  return %1, %3 : tensor<?x3x2xf32>, tensor<?x?x2xf32>
}

// -----

// CHECK-LABEL: func @if_true
// CHECK-SAME: (%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>)
func.func @if_true(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %t = tfc.constant dense<true> : tensor<i1>
  // CHECK-NOT: tfc.if
  // CHECK: %[[S:.*]] = tfc.add %[[A]], %[[B]] : tensor<f32>
  // CHECK-NOT: tfc.mul
  %r = tfc.if %t -> (tensor<f32>) {
    %s = tfc.add %a, %b : tensor<f32>
    tfc.yield %s : tensor<f32>
  } else {
    %m = tfc.mul %a, %b : tensor<f32>
    tfc.yield %m : tensor<f32>
  }
  // CHECK: return %[[S]]
  return %r : tensor<f32>
}

// -----

// CHECK-LABEL: func @if_false
// CHECK-SAME: (%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>)
func.func @if_false(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %f = tfc.constant dense<false> : tensor<i1>
  // CHECK-NOT: tfc.if
  // CHECK-NOT: tfc.add
  // CHECK: %[[M:.*]] = tfc.mul %[[A]], %[[B]] : tensor<f32>
  %r = tfc.if %f -> (tensor<f32>) {
    %s = tfc.add %a, %b : tensor<f32>
    tfc.yield %s : tensor<f32>
  } else {
    %m = tfc.mul %a, %b : tensor<f32>
    tfc.yield %m : tensor<f32>
  }
  // CHECK: return %[[M]]
  return %r : tensor<f32>
}

// -----

// CHECK-LABEL: func @if_false_without_else
func.func @if_false_without_else(%a: tensor<f32>) {
  %f = tfc.constant dense<false> : tensor<i1>
  // CHECK-NOT: tfc.if
  // CHECK-NOT: tfc.print
  tfc.if %f {
    tfc.print "never" %a : tensor<f32>
  }
  // CHECK: return
  return
}

// -----

// The taken branch's side effects survive inlining.
// CHECK-LABEL: func @if_true_side_effect
// CHECK-SAME: (%[[A:.*]]: tensor<f32>)
func.func @if_true_side_effect(%a: tensor<f32>) {
  %t = tfc.constant dense<true> : tensor<i1>
  // CHECK-NOT: tfc.if
  // CHECK: tfc.print "always" %[[A]] : tensor<f32>
  tfc.if %t {
    tfc.print "always" %a : tensor<f32>
  }
  return
}

// -----

// A predicate known only at run time keeps the if.
// CHECK-LABEL: func @if_unknown
func.func @if_unknown(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // CHECK: tfc.if
  // CHECK: } else {
  %r = tfc.if %p -> (tensor<f32>) {
    tfc.yield %a : tensor<f32>
  } else {
    tfc.yield %b : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// Nested ifs on constants collapse completely.
// CHECK-LABEL: func @if_nested
// CHECK-SAME: (%[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>)
func.func @if_nested(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %t = tfc.constant dense<true> : tensor<i1>
  %f = tfc.constant dense<false> : tensor<i1>
  // CHECK-NOT: tfc.if
  %r = tfc.if %t -> (tensor<f32>) {
    %inner = tfc.if %f -> (tensor<f32>) {
      tfc.yield %a : tensor<f32>
    } else {
      tfc.yield %b : tensor<f32>
    }
    tfc.yield %inner : tensor<f32>
  } else {
    tfc.yield %a : tensor<f32>
  }
  // CHECK: return %[[B]]
  return %r : tensor<f32>
}

// -----

// Side effects stay; pure ops and unused variable reads go.
// CHECK-LABEL: func @effects
// CHECK-SAME: (%[[V:.*]]: !tfc.var<tensor<2xf32>>, %[[X:.*]]: tensor<2xf32>, %[[P:.*]]: tensor<i1>)
func.func @effects(%v: !tfc.var<tensor<2xf32>>, %x: tensor<2xf32>, %p: tensor<i1>) {
  // CHECK-NOT: tfc.var_read
  // CHECK-NOT: tfc.exp
  %unused = tfc.var_read %v : !tfc.var<tensor<2xf32>>
  %dead = tfc.exp %x : tensor<2xf32>
  // CHECK: tfc.var_assign %[[V]], %[[X]]
  tfc.var_assign %v, %x : !tfc.var<tensor<2xf32>>
  // CHECK: tfc.var_assign_add %[[V]], %[[X]]
  tfc.var_assign_add %v, %x : !tfc.var<tensor<2xf32>>
  // CHECK: tfc.var_assign_sub %[[V]], %[[X]]
  tfc.var_assign_sub %v, %x : !tfc.var<tensor<2xf32>>
  // CHECK: tfc.print "x" %[[X]]
  tfc.print "x" %x : tensor<2xf32>
  // CHECK: tfc.assert %[[P]], "p"
  tfc.assert %p, "p" : tensor<i1>
  return
}

// -----

// An if whose regions only hold pure ops and whose results are unused goes.
// CHECK-LABEL: func @dead_if
func.func @dead_if(%p: tensor<i1>, %a: tensor<f32>) {
  // CHECK-NOT: tfc.if
  %r = tfc.if %p -> (tensor<f32>) {
    %e = tfc.exp %a : tensor<f32>
    tfc.yield %e : tensor<f32>
  } else {
    tfc.yield %a : tensor<f32>
  }
  // CHECK: return
  return
}

// -----

// A while loop is kept (its trip count is unknown) and its body is folded.
// CHECK-LABEL: func @while_body_folds
// CHECK-SAME: (%[[I:.*]]: tensor<i32>, %[[P:.*]]: tensor<i1>)
func.func @while_body_folds(%i: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  %zero = tfc.constant dense<0> : tensor<i32>
  // CHECK: tfc.while (%[[A:.*]] = %[[I]])
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %a : tensor<i32>
  } do {
  // CHECK: ^bb0(%[[B:.*]]: tensor<i32>):
  ^bb0(%b: tensor<i32>):
    // CHECK-NOT: tfc.add
    %n = tfc.add %b, %zero : tensor<i32>
    // CHECK: tfc.yield %[[B]] : tensor<i32>
    tfc.yield %n : tensor<i32>
  }
  return %r : tensor<i32>
}

// -----

// floor is idempotent: floor(floor(x)) is floor(x).
// CHECK-LABEL: func @floor_floor
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[F:.*]] = tfc.floor %[[X]] : tensor<3xf32>
// CHECK-NEXT: return %[[F]]
func.func @floor_floor(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tfc.floor %x : tensor<3xf32>
  %1 = tfc.floor %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// The summed gradients of four slices of one tensor (each its block in
// zeros, as the slice gradient builds it) become one concat of the blocks:
// no zeros, no adds.
// CHECK-LABEL: func @sum_of_slice_gradients
// CHECK-NOT: tfc.add
// CHECK-NOT: tfc.constant
// CHECK: %[[R:.*]] = tfc.concat %arg0, %arg1, %arg2, %arg3 axis = 1 : (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @sum_of_slice_gradients(%g0: tensor<4x2xf32>, %g1: tensor<4x2xf32>, %g2: tensor<4x2xf32>, %g3: tensor<4x2xf32>) -> tensor<4x8xf32> {
  %z6 = tfc.constant dense<0.0> : tensor<4x6xf32>
  %z4 = tfc.constant dense<0.0> : tensor<4x4xf32>
  %z2 = tfc.constant dense<0.0> : tensor<4x2xf32>
  %d3 = tfc.concat %z6, %g3 axis = 1 : (tensor<4x6xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  %d2 = tfc.concat %z4, %g2, %z2 axis = 1 : (tensor<4x4xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  %s = tfc.add %d3, %d2 : tensor<4x8xf32>
  %d1 = tfc.concat %z2, %g1, %z4 axis = 1 : (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %t = tfc.add %s, %d1 : tensor<4x8xf32>
  %d0 = tfc.concat %g0, %z6 axis = 1 : (tensor<4x2xf32>, tensor<4x6xf32>) -> tensor<4x8xf32>
  %u = tfc.add %t, %d0 : tensor<4x8xf32>
  return %u : tensor<4x8xf32>
}

// -----

// Kept: a block that is not a constant spans the other side's cut, and a
// concat with another use.
// CHECK-LABEL: func @misaligned_concats
// CHECK: tfc.add
// CHECK-LABEL: func @shared_concat
// CHECK: tfc.add
func.func @misaligned_concats(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x2xf32>, %d: tensor<4x6xf32>) -> tensor<4x8xf32> {
  %l = tfc.concat %a, %b axis = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %r = tfc.concat %c, %d axis = 1 : (tensor<4x2xf32>, tensor<4x6xf32>) -> tensor<4x8xf32>
  %s = tfc.add %l, %r : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
func.func @shared_concat(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %l = tfc.concat %a, %b axis = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %r = tfc.concat %b, %a axis = 1 : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  %s = tfc.add %l, %r : tensor<4x8xf32>
  return %s, %l : tensor<4x8xf32>, tensor<4x8xf32>
}
