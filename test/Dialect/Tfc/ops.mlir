// RUN: tfc-opt %s | tfc-opt | FileCheck %s
// RUN: tfc-opt %s --mlir-print-op-generic | tfc-opt | FileCheck %s

// Every tfc op, in its custom form, survives a print/parse round trip (and a
// trip through the generic form).

// CHECK-LABEL: func @constant
func.func @constant() -> tensor<1x2xf32> {
  // CHECK: tfc.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
  %0 = tfc.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// CHECK-LABEL: func @unary
// CHECK-SAME: (%[[F:.*]]: tensor<2xf32>, %[[I:.*]]: tensor<?xi32>, %[[B:.*]]: tensor<2xi1>)
func.func @unary(%f: tensor<2xf32>, %i: tensor<?xi32>, %b: tensor<2xi1>) {
  // CHECK: tfc.neg %[[I]] : tensor<?xi32>
  %0 = tfc.neg %i : tensor<?xi32>
  // CHECK: tfc.abs %[[F]] : tensor<2xf32>
  %1 = tfc.abs %f : tensor<2xf32>
  // CHECK: tfc.exp %[[F]] : tensor<2xf32>
  %2 = tfc.exp %f : tensor<2xf32>
  // CHECK: tfc.log %[[F]] : tensor<2xf32>
  %3 = tfc.log %f : tensor<2xf32>
  // CHECK: tfc.log1p %[[F]] : tensor<2xf32>
  %4 = tfc.log1p %f : tensor<2xf32>
  // CHECK: tfc.sqrt %[[F]] : tensor<2xf32>
  %5 = tfc.sqrt %f : tensor<2xf32>
  // CHECK: tfc.square %[[I]] : tensor<?xi32>
  %6 = tfc.square %i : tensor<?xi32>
  // CHECK: tfc.sin %[[F]] : tensor<2xf32>
  %7 = tfc.sin %f : tensor<2xf32>
  // CHECK: tfc.cos %[[F]] : tensor<2xf32>
  %8 = tfc.cos %f : tensor<2xf32>
  // CHECK: tfc.tanh %[[F]] : tensor<2xf32>
  %9 = tfc.tanh %f : tensor<2xf32>
  // CHECK: tfc.sigmoid %[[F]] : tensor<2xf32>
  %10 = tfc.sigmoid %f : tensor<2xf32>
  // CHECK: tfc.relu %[[I]] : tensor<?xi32>
  %11 = tfc.relu %i : tensor<?xi32>
  // CHECK: tfc.logical_not %[[B]] : tensor<2xi1>
  %12 = tfc.logical_not %b : tensor<2xi1>
  // CHECK: tfc.stop_gradient %[[B]] : tensor<2xi1>
  %13 = tfc.stop_gradient %b : tensor<2xi1>
  // CHECK: tfc.floor %[[F]] : tensor<2xf32>
  %14 = tfc.floor %f : tensor<2xf32>
  return
}

// CHECK-LABEL: func @binary
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf32>, %[[B:.*]]: tensor<?x3xf32>, %[[I:.*]]: tensor<2xi64>, %[[P:.*]]: tensor<2xi1>)
func.func @binary(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>, %i: tensor<2xi64>, %p: tensor<2xi1>) {
  // CHECK: tfc.add %[[A]], %[[B]] : tensor<?x3xf32>
  %0 = tfc.add %a, %b : tensor<?x3xf32>
  // CHECK: tfc.sub %[[A]], %[[B]] : tensor<?x3xf32>
  %1 = tfc.sub %a, %b : tensor<?x3xf32>
  // CHECK: tfc.mul %[[I]], %[[I]] : tensor<2xi64>
  %2 = tfc.mul %i, %i : tensor<2xi64>
  // CHECK: tfc.div %[[A]], %[[B]] : tensor<?x3xf32>
  %3 = tfc.div %a, %b : tensor<?x3xf32>
  // CHECK: tfc.maximum %[[A]], %[[B]] : tensor<?x3xf32>
  %4 = tfc.maximum %a, %b : tensor<?x3xf32>
  // CHECK: tfc.minimum %[[I]], %[[I]] : tensor<2xi64>
  %5 = tfc.minimum %i, %i : tensor<2xi64>
  // CHECK: tfc.floor_div %[[I]], %[[I]] : tensor<2xi64>
  %6 = tfc.floor_div %i, %i : tensor<2xi64>
  // CHECK: tfc.mod %[[A]], %[[B]] : tensor<?x3xf32>
  %7 = tfc.mod %a, %b : tensor<?x3xf32>
  // CHECK: tfc.pow %[[A]], %[[B]] : tensor<?x3xf32>
  %8 = tfc.pow %a, %b : tensor<?x3xf32>
  // CHECK: tfc.logical_and %[[P]], %[[P]] : tensor<2xi1>
  %9 = tfc.logical_and %p, %p : tensor<2xi1>
  // CHECK: tfc.logical_or %[[P]], %[[P]] : tensor<2xi1>
  %10 = tfc.logical_or %p, %p : tensor<2xi1>
  return
}

// CHECK-LABEL: func @cmp_select_cast
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[I:.*]]: tensor<2xi32>)
func.func @cmp_select_cast(%a: tensor<2xf32>, %b: tensor<2xf32>, %i: tensor<2xi32>) -> (tensor<2xi1>, tensor<2xf32>, tensor<2xi32>) {
  // CHECK: %[[C:.*]] = tfc.cmp lt, %[[A]], %[[B]] : tensor<2xf32>
  %c = tfc.cmp lt, %a, %b : tensor<2xf32>
  // CHECK: tfc.cmp eq, %[[I]], %[[I]] : tensor<2xi32>
  %e = tfc.cmp eq, %i, %i : tensor<2xi32>
  // CHECK: tfc.cmp ne
  %0 = tfc.cmp ne, %a, %b : tensor<2xf32>
  // CHECK: tfc.cmp le
  %1 = tfc.cmp le, %a, %b : tensor<2xf32>
  // CHECK: tfc.cmp gt
  %2 = tfc.cmp gt, %a, %b : tensor<2xf32>
  // CHECK: tfc.cmp ge
  %3 = tfc.cmp ge, %a, %b : tensor<2xf32>
  // CHECK: %[[S:.*]] = tfc.select %[[C]], %[[A]], %[[B]] : tensor<2xi1>, tensor<2xf32>
  %s = tfc.select %c, %a, %b : tensor<2xi1>, tensor<2xf32>
  // CHECK: %[[K:.*]] = tfc.cast %[[S]] : tensor<2xf32> to tensor<2xi32>
  %k = tfc.cast %s : tensor<2xf32> to tensor<2xi32>
  // CHECK: return %[[C]], %[[S]], %[[K]]
  return %c, %s, %k : tensor<2xi1>, tensor<2xf32>, tensor<2xi32>
}

// CHECK-LABEL: func @shapes
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<2x3xf32>, %[[N:.*]]: tensor<3x4xf32>, %[[Q:.*]]: tensor<5x2x3xf32>, %[[R:.*]]: tensor<5x3x?xf32>)
func.func @shapes(%x: tensor<3xf32>, %m: tensor<2x3xf32>, %n: tensor<3x4xf32>, %q: tensor<5x2x3xf32>, %r: tensor<5x3x?xf32>) {
  // CHECK: tfc.broadcast_to %[[X]] : tensor<3xf32> to tensor<2x3xf32>
  %0 = tfc.broadcast_to %x : tensor<3xf32> to tensor<2x3xf32>
  // CHECK: tfc.matmul %[[M]], %[[N]] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = tfc.matmul %m, %n : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: tfc.matmul %[[Q]], %[[R]] : (tensor<5x2x3xf32>, tensor<5x3x?xf32>) -> tensor<5x2x?xf32>
  %2 = tfc.matmul %q, %r : (tensor<5x2x3xf32>, tensor<5x3x?xf32>) -> tensor<5x2x?xf32>
  // CHECK: tfc.transpose %[[M]], perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  %3 = tfc.transpose %m, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  // CHECK: tfc.reshape %[[M]] : tensor<2x3xf32> -> tensor<6xf32>
  %4 = tfc.reshape %m : tensor<2x3xf32> -> tensor<6xf32>
  // CHECK: tfc.expand_dims %[[X]], axis = 0 : tensor<3xf32> -> tensor<1x3xf32>
  %5 = tfc.expand_dims %x, axis = 0 : tensor<3xf32> -> tensor<1x3xf32>
  // CHECK: tfc.squeeze %{{.*}}, axes = [0] : tensor<1x3xf32> -> tensor<3xf32>
  %6 = tfc.squeeze %5, axes = [0] : tensor<1x3xf32> -> tensor<3xf32>
  // CHECK: tfc.concat %{{.*}}, %[[M]] axis = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %7 = tfc.concat %5, %m axis = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  // CHECK: tfc.slice %[[N]], begin = [0, 1], size = [2, 2] : tensor<3x4xf32> -> tensor<2x2xf32>
  %8 = tfc.slice %n, begin = [0, 1], size = [2, 2] : tensor<3x4xf32> -> tensor<2x2xf32>
  return
}

// CHECK-LABEL: func @reductions
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2x3xi32>)
func.func @reductions(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) {
  // CHECK: tfc.reduce_sum %[[X]], axes = [1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  %0 = tfc.reduce_sum %x, axes = [1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  // CHECK: tfc.reduce_mean %[[X]], axes = [0, 1], keepdims = true : tensor<2x3xf32> -> tensor<1x1xf32>
  %1 = tfc.reduce_mean %x, axes = [0, 1], keepdims = true : tensor<2x3xf32> -> tensor<1x1xf32>
  // CHECK: tfc.reduce_max %[[I]], axes = [0], keepdims = false : tensor<2x3xi32> -> tensor<3xi32>
  %2 = tfc.reduce_max %i, axes = [0], keepdims = false : tensor<2x3xi32> -> tensor<3xi32>
  // CHECK: tfc.reduce_min %[[X]], axes = [0, 1], keepdims = false : tensor<2x3xf32> -> tensor<f32>
  %3 = tfc.reduce_min %x, axes = [0, 1], keepdims = false : tensor<2x3xf32> -> tensor<f32>
  // CHECK: tfc.reduce_prod %[[I]], axes = [1], keepdims = true : tensor<2x3xi32> -> tensor<2x1xi32>
  %4 = tfc.reduce_prod %i, axes = [1], keepdims = true : tensor<2x3xi32> -> tensor<2x1xi32>
  // CHECK: tfc.argmax %[[X]], axis = 1 : tensor<2x3xf32> -> tensor<2xi64>
  %5 = tfc.argmax %x, axis = 1 : tensor<2x3xf32> -> tensor<2xi64>
  return
}

// CHECK-LABEL: func @nn
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[L:.*]]: tensor<2x3xf32>, %[[I:.*]]: tensor<2xi32>)
func.func @nn(%x: tensor<2x3xf32>, %labels: tensor<2x3xf32>, %i: tensor<2xi32>) {
  // CHECK: tfc.softmax %[[X]], axis = 1 : tensor<2x3xf32>
  %0 = tfc.softmax %x, axis = 1 : tensor<2x3xf32>
  // CHECK: tfc.log_softmax %[[X]], axis = 0 : tensor<2x3xf32>
  %1 = tfc.log_softmax %x, axis = 0 : tensor<2x3xf32>
  // CHECK: tfc.softmax_cross_entropy %[[L]], %[[X]] : tensor<2x3xf32> -> tensor<2xf32>
  %2 = tfc.softmax_cross_entropy %labels, %x : tensor<2x3xf32> -> tensor<2xf32>
  // CHECK: tfc.one_hot %[[I]], depth = 3 : tensor<2xi32> -> tensor<2x3xf32>
  %3 = tfc.one_hot %i, depth = 3 : tensor<2xi32> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func @if
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>)
func.func @if(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // CHECK: %[[R:.*]] = tfc.if %[[P]] -> (tensor<f32>) {
  // CHECK-NEXT: %[[S:.*]] = tfc.add %[[A]], %[[B]] : tensor<f32>
  // CHECK-NEXT: tfc.yield %[[S]] : tensor<f32>
  // CHECK-NEXT: } else {
  // CHECK-NEXT: tfc.yield %[[B]] : tensor<f32>
  // CHECK-NEXT: }
  %r = tfc.if %p -> (tensor<f32>) {
    %s = tfc.add %a, %b : tensor<f32>
    tfc.yield %s : tensor<f32>
  } else {
    tfc.yield %b : tensor<f32>
  }
  // CHECK: tfc.if %[[P]] {
  // CHECK-NEXT: tfc.print "then" %[[A]] : tensor<f32>
  // CHECK-NEXT: }
  // CHECK-NOT: else
  tfc.if %p {
    tfc.print "then" %a : tensor<f32>
  }
  // CHECK: tfc.if %[[P]] {
  // CHECK-NEXT: } else {
  // CHECK-NEXT: tfc.print "else"
  tfc.if %p {
  } else {
    tfc.print "else"
  }
  // CHECK: return %[[R]]
  return %r : tensor<f32>
}

// CHECK-LABEL: func @if_two_results
func.func @if_two_results(%p: tensor<i1>, %a: tensor<f32>, %i: tensor<2xi32>) -> (tensor<f32>, tensor<2xi32>) {
  // CHECK: %[[R:.*]]:2 = tfc.if %{{.*}} -> (tensor<f32>, tensor<2xi32>)
  %r:2 = tfc.if %p -> (tensor<f32>, tensor<2xi32>) {
    tfc.yield %a, %i : tensor<f32>, tensor<2xi32>
  } else {
    %n = tfc.neg %i : tensor<2xi32>
    tfc.yield %a, %n : tensor<f32>, tensor<2xi32>
  }
  // CHECK: return %[[R]]#0, %[[R]]#1
  return %r#0, %r#1 : tensor<f32>, tensor<2xi32>
}

// CHECK-LABEL: func @while
// CHECK-SAME: (%[[INIT:.*]]: tensor<i32>, %[[LIMIT:.*]]: tensor<i32>)
func.func @while(%init: tensor<i32>, %limit: tensor<i32>) -> tensor<i32> {
  %one = tfc.constant dense<1> : tensor<i32>
  // CHECK: %[[R:.*]] = tfc.while (%[[A:.*]] = %[[INIT]]) : (tensor<i32>) -> tensor<i32> {
  // CHECK-NEXT: %[[C:.*]] = tfc.cmp lt, %[[A]], %[[LIMIT]] : tensor<i32>
  // CHECK-NEXT: tfc.condition(%[[C]]) %[[A]] : tensor<i32>
  // CHECK-NEXT: } do {
  // CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<i32>):
  // CHECK-NEXT: %[[N:.*]] = tfc.add %[[B]], %{{.*}} : tensor<i32>
  // CHECK-NEXT: tfc.yield %[[N]] : tensor<i32>
  // CHECK-NEXT: }
  %r = tfc.while (%a = %init) : (tensor<i32>) -> tensor<i32> {
    %c = tfc.cmp lt, %a, %limit : tensor<i32>
    tfc.condition(%c) %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    %n = tfc.add %b, %one : tensor<i32>
    tfc.yield %n : tensor<i32>
  }
  // CHECK: return %[[R]]
  return %r : tensor<i32>
}

// CHECK-LABEL: func @while_multi
func.func @while_multi(%i: tensor<i32>, %x: tensor<2xf32>, %p: tensor<i1>) -> (tensor<i32>, tensor<2xf32>) {
  // CHECK: tfc.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  %r:2 = tfc.while (%a = %i, %b = %x) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
    tfc.condition(%p) %a, %b : tensor<i32>, tensor<2xf32>
  } do {
  ^bb0(%c: tensor<i32>, %d: tensor<2xf32>):
    tfc.yield %c, %d : tensor<i32>, tensor<2xf32>
  }
  return %r#0, %r#1 : tensor<i32>, tensor<2xf32>
}

// CHECK-LABEL: func @while_no_values
func.func @while_no_values(%p: tensor<i1>) {
  // CHECK: tfc.while : () -> () {
  // CHECK-NEXT: tfc.condition(%{{.*}})
  // CHECK-NEXT: } do {
  // CHECK-NEXT: tfc.yield
  tfc.while : () -> () {
    tfc.condition(%p)
  } do {
    tfc.yield
  }
  return
}

// CHECK-LABEL: func @variables
// CHECK-SAME: (%[[V:.*]]: !tfc.var<tensor<2xf32>>, %[[X:.*]]: tensor<2xf32>)
func.func @variables(%v: !tfc.var<tensor<2xf32>>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = tfc.var_read %[[V]] : !tfc.var<tensor<2xf32>>
  %r = tfc.var_read %v : !tfc.var<tensor<2xf32>>
  // CHECK: tfc.var_assign %[[V]], %[[X]] : !tfc.var<tensor<2xf32>>
  tfc.var_assign %v, %x : !tfc.var<tensor<2xf32>>
  // CHECK: tfc.var_assign_add %[[V]], %[[R]] : !tfc.var<tensor<2xf32>>
  tfc.var_assign_add %v, %r : !tfc.var<tensor<2xf32>>
  // CHECK: tfc.var_assign_sub %[[V]], %[[X]] : !tfc.var<tensor<2xf32>>
  tfc.var_assign_sub %v, %x : !tfc.var<tensor<2xf32>>
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func @print_assert
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[I:.*]]: tensor<i32>, %[[P:.*]]: tensor<i1>)
func.func @print_assert(%a: tensor<2xf32>, %i: tensor<i32>, %p: tensor<i1>) {
  // CHECK: tfc.print "label" %[[A]], %[[I]] : tensor<2xf32>, tensor<i32>
  tfc.print "label" %a, %i : tensor<2xf32>, tensor<i32>
  // CHECK: tfc.print "only a label"
  tfc.print "only a label"
  // CHECK: tfc.assert %[[P]], "must hold" : tensor<i1>
  tfc.assert %p, "must hold" : tensor<i1>
  return
}

// CHECK-LABEL: func @conv2d
func.func @conv2d(%x: tensor<2x7x7x3xf32>, %f: tensor<3x3x3x4xf32>, %dy: tensor<2x4x4x4xf32>, %xd: tensor<?x7x7x3xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>, tensor<?x5x5x4xf32>) {
  // CHECK: tfc.conv2d %{{.*}}, %{{.*}}, strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32>
  %y = tfc.conv2d %x, %f, strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32>
  // CHECK: tfc.conv2d_backprop_input %{{.*}}, %{{.*}}, input_shape = [2, 7, 7, 3], strides = [2, 2], dilations = [1, 2], padding = "SAME"
  %dx = tfc.conv2d_backprop_input %f, %dy, input_shape = [2, 7, 7, 3], strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<3x3x3x4xf32>, tensor<2x4x4x4xf32>) -> tensor<2x7x7x3xf32>
  // CHECK: tfc.conv2d_backprop_filter %{{.*}}, %{{.*}}, filter_shape = [3, 3, 3, 4], strides = [2, 2], dilations = [1, 2], padding = "SAME"
  %df = tfc.conv2d_backprop_filter %x, %dy, filter_shape = [3, 3, 3, 4], strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x4x4x4xf32>) -> tensor<3x3x3x4xf32>
  // A dynamic batch stays dynamic; VALID: (7 - 3) / 1 + 1 = 5.
  // CHECK: tfc.conv2d {{.*}} padding = "VALID" : (tensor<?x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x5x5x4xf32>
  %yd = tfc.conv2d %xd, %f, strides = [1, 1], dilations = [1, 1], padding = "VALID" : (tensor<?x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<?x5x5x4xf32>
  return %y, %dx, %df, %yd : tensor<2x4x4x4xf32>, tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>, tensor<?x5x5x4xf32>
}

// CHECK-LABEL: func @pool
func.func @pool(%x: tensor<2x7x7x3xf32>, %dy: tensor<2x4x4x3xf32>, %xd: tensor<?x8x8x?xf64>) -> (tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<?x4x4x?xf64>) {
  // CHECK: tfc.max_pool2d %{{.*}}, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x7x7x3xf32> -> tensor<2x4x4x3xf32>
  %m = tfc.max_pool2d %x, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x7x7x3xf32> -> tensor<2x4x4x3xf32>
  // CHECK: tfc.max_pool2d_grad %{{.*}}, %{{.*}}, ksize = [3, 3], strides = [2, 2], padding = "SAME"
  %dm = tfc.max_pool2d_grad %x, %dy, ksize = [3, 3], strides = [2, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>) -> tensor<2x7x7x3xf32>
  // CHECK: tfc.max_pool2d_grad_grad %{{.*}}, %{{.*}}, ksize = [3, 3], strides = [2, 2], padding = "SAME"
  %gg = tfc.max_pool2d_grad_grad %x, %dm, ksize = [3, 3], strides = [2, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x7x7x3xf32>) -> tensor<2x4x4x3xf32>
  // CHECK: tfc.avg_pool2d_grad %{{.*}}, input_shape = [2, 7, 7, 3], ksize = [3, 3], strides = [2, 2], padding = "SAME"
  %da = tfc.avg_pool2d_grad %dy, input_shape = [2, 7, 7, 3], ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x4x4x3xf32> -> tensor<2x7x7x3xf32>
  // Dynamic batch and channels stay dynamic; VALID: (8 - 2) / 2 + 1 = 4.
  // CHECK: tfc.avg_pool2d {{.*}} : tensor<?x8x8x?xf64> -> tensor<?x4x4x?xf64>
  %a = tfc.avg_pool2d %xd, ksize = [2, 2], strides = [2, 2], padding = "VALID" : tensor<?x8x8x?xf64> -> tensor<?x4x4x?xf64>
  return %m, %dm, %gg, %da, %a : tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<?x4x4x?xf64>
}

// gather, segment sums, Philox draws, scans and the sparse cross entropy.
// CHECK-LABEL: func @more_ops
func.func @more_ops(%p: tensor<5x?x3xf32>, %i: tensor<2x4xi64>, %s: tensor<2xi64>, %l: tensor<?xi32>, %z: tensor<?x10xf32>) -> (tensor<5x2x4x3xf32>, tensor<7x3xf32>, tensor<4x4xf64>, tensor<5x?x3xf32>, tensor<5x?x2xi32>, tensor<?xf32>, tensor<?x10xf32>) {
  // CHECK: tfc.gather %{{.*}}, %{{.*}}, axis = 1 : (tensor<5x?x3xf32>, tensor<2x4xi64>) -> tensor<5x2x4x3xf32>
  %g = tfc.gather %p, %i, axis = 1 : (tensor<5x?x3xf32>, tensor<2x4xi64>) -> tensor<5x2x4x3xf32>
  %d = tfc.constant dense<1.0> : tensor<2x4x3xf32>
  // CHECK: tfc.unsorted_segment_sum %{{.*}}, %{{.*}}, num_segments = 7 : (tensor<2x4x3xf32>, tensor<2x4xi64>) -> tensor<7x3xf32>
  %u = tfc.unsorted_segment_sum %d, %i, num_segments = 7 : (tensor<2x4x3xf32>, tensor<2x4xi64>) -> tensor<7x3xf32>
  // CHECK: tfc.philox_random %{{.*}}, "truncated_normal" : tensor<2xi64> -> tensor<4x4xf64>
  %r = tfc.philox_random %s, "truncated_normal" : tensor<2xi64> -> tensor<4x4xf64>
  // CHECK: tfc.cumsum %{{.*}}, axis = 1, exclusive = true, reverse = false : tensor<5x?x3xf32>
  %c = tfc.cumsum %p, axis = 1, exclusive = true, reverse = false : tensor<5x?x3xf32>
  // CHECK: tfc.top_k_indices %{{.*}}, k = 2 : tensor<5x?x3xf32> -> tensor<5x?x2xi32>
  %t = tfc.top_k_indices %p, k = 2 : tensor<5x?x3xf32> -> tensor<5x?x2xi32>
  // CHECK: tfc.sparse_softmax_cross_entropy %{{.*}}, %{{.*}} : (tensor<?xi32>, tensor<?x10xf32>) -> tensor<?xf32>
  %x = tfc.sparse_softmax_cross_entropy %l, %z : (tensor<?xi32>, tensor<?x10xf32>) -> tensor<?xf32>
  // CHECK: tfc.erf %{{.*}} : tensor<?x10xf32>
  %e = tfc.erf %z : tensor<?x10xf32>
  return %g, %u, %r, %c, %t, %x, %e : tensor<5x2x4x3xf32>, tensor<7x3xf32>, tensor<4x4xf64>, tensor<5x?x3xf32>, tensor<5x?x2xi32>, tensor<?xf32>, tensor<?x10xf32>
}
