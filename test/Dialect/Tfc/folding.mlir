// RUN: tfc-opt %s --canonicalize --split-input-file | FileCheck %s

// Folders of tfc ops: constant folding of elementwise ops and cmp on splat
// and dense constants, and identities that return an existing value.

// CHECK-LABEL: func @fold_float_unary
func.func @fold_float_unary() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %zero = tfc.constant dense<0.0> : tensor<2xf32>
  %one = tfc.constant dense<1.0> : tensor<2xf32>
  %four = tfc.constant dense<4.0> : tensor<2xf32>
  // CHECK-DAG: %[[E:.*]] = tfc.constant dense<2.71828175> : tensor<2xf32>
  // CHECK-DAG: %[[ZERO:.*]] = tfc.constant dense<0.000000e+00> : tensor<2xf32>
  // CHECK-DAG: %[[TWO:.*]] = tfc.constant dense<2.000000e+00> : tensor<2xf32>
  // CHECK-DAG: %[[ONE:.*]] = tfc.constant dense<1.000000e+00> : tensor<2xf32>
  // CHECK-DAG: %[[HALF:.*]] = tfc.constant dense<5.000000e-01> : tensor<2xf32>
  %0 = tfc.exp %one : tensor<2xf32>
  %1 = tfc.log %one : tensor<2xf32>
  %2 = tfc.sqrt %four : tensor<2xf32>
  %3 = tfc.sin %zero : tensor<2xf32>
  %4 = tfc.cos %zero : tensor<2xf32>
  %5 = tfc.tanh %zero : tensor<2xf32>
  %6 = tfc.sigmoid %zero : tensor<2xf32>
  %7 = tfc.log1p %zero : tensor<2xf32>
  // CHECK-NOT: tfc.exp
  // CHECK-NOT: tfc.sigmoid
  // CHECK: return %[[E]], %[[ZERO]], %[[TWO]], %[[ZERO]], %[[ONE]], %[[ZERO]], %[[HALF]], %[[ZERO]]
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @fold_f64_dense
func.func @fold_f64_dense() -> tensor<3xf64> {
  %x = tfc.constant dense<[0.0, 1.0, 4.0]> : tensor<3xf64>
  // CHECK: %[[R:.*]] = tfc.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00]> : tensor<3xf64>
  // CHECK-NOT: tfc.sqrt
  %0 = tfc.sqrt %x : tensor<3xf64>
  // CHECK: return %[[R]]
  return %0 : tensor<3xf64>
}

// -----

// CHECK-LABEL: func @fold_numeric_unary
func.func @fold_numeric_unary() -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<2xi1>) {
  %i = tfc.constant dense<[3, -4, 0]> : tensor<3xi32>
  %f = tfc.constant dense<[1.5, -2.0, 0.0]> : tensor<3xf32>
  %b = tfc.constant dense<[true, false]> : tensor<2xi1>
  // CHECK-DAG: %[[NEG:.*]] = tfc.constant dense<[-3, 4, 0]> : tensor<3xi32>
  // CHECK-DAG: %[[ABS:.*]] = tfc.constant dense<[3, 4, 0]> : tensor<3xi32>
  // CHECK-DAG: %[[SQ:.*]] = tfc.constant dense<[9, 16, 0]> : tensor<3xi32>
  // CHECK-DAG: %[[RELU:.*]] = tfc.constant dense<[3, 0, 0]> : tensor<3xi32>
  // CHECK-DAG: %[[FNEG:.*]] = tfc.constant dense<[-1.500000e+00, 2.000000e+00, -0.000000e+00]> : tensor<3xf32>
  // CHECK-DAG: %[[FRELU:.*]] = tfc.constant dense<[1.500000e+00, 0.000000e+00, 0.000000e+00]> : tensor<3xf32>
  // CHECK-DAG: %[[NOT:.*]] = tfc.constant dense<[false, true]> : tensor<2xi1>
  %0 = tfc.neg %i : tensor<3xi32>
  %1 = tfc.abs %i : tensor<3xi32>
  %2 = tfc.square %i : tensor<3xi32>
  %3 = tfc.relu %i : tensor<3xi32>
  %4 = tfc.neg %f : tensor<3xf32>
  %5 = tfc.relu %f : tensor<3xf32>
  %6 = tfc.logical_not %b : tensor<2xi1>
  // CHECK: return %[[NEG]], %[[ABS]], %[[SQ]], %[[RELU]], %[[FNEG]], %[[FRELU]], %[[NOT]]
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func @fold_binary_float
func.func @fold_binary_float() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = tfc.constant dense<[7.0, -7.0]> : tensor<2xf32>
  %b = tfc.constant dense<[2.0, 2.0]> : tensor<2xf32>
  // CHECK-DAG: %[[ADD:.*]] = tfc.constant dense<[9.000000e+00, -5.000000e+00]>
  // CHECK-DAG: %[[SUB:.*]] = tfc.constant dense<[5.000000e+00, -9.000000e+00]>
  // CHECK-DAG: %[[MUL:.*]] = tfc.constant dense<[1.400000e+01, -1.400000e+01]>
  // CHECK-DAG: %[[DIV:.*]] = tfc.constant dense<[3.500000e+00, -3.500000e+00]>
  // CHECK-DAG: %[[MAX:.*]] = tfc.constant dense<[7.000000e+00, 2.000000e+00]>
  // CHECK-DAG: %[[MIN:.*]] = tfc.constant dense<[2.000000e+00, -7.000000e+00]>
  // CHECK-DAG: %[[FDIV:.*]] = tfc.constant dense<[3.000000e+00, -4.000000e+00]>
  // CHECK-DAG: %[[MOD:.*]] = tfc.constant dense<1.000000e+00>
  // CHECK-DAG: %[[POW:.*]] = tfc.constant dense<4.900000e+01>
  %0 = tfc.add %a, %b : tensor<2xf32>
  %1 = tfc.sub %a, %b : tensor<2xf32>
  %2 = tfc.mul %a, %b : tensor<2xf32>
  %3 = tfc.div %a, %b : tensor<2xf32>
  %4 = tfc.maximum %a, %b : tensor<2xf32>
  %5 = tfc.minimum %a, %b : tensor<2xf32>
  %6 = tfc.floor_div %a, %b : tensor<2xf32>
  %7 = tfc.mod %a, %b : tensor<2xf32>
  %8 = tfc.pow %a, %b : tensor<2xf32>
  // CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[MAX]], %[[MIN]], %[[FDIV]], %[[MOD]], %[[POW]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @fold_binary_int
func.func @fold_binary_int() -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) {
  %a = tfc.constant dense<[7, -7, 2147483647]> : tensor<3xi32>
  %b = tfc.constant dense<[3, 3, 1]> : tensor<3xi32>
  %c = tfc.constant dense<[7, -7, 7]> : tensor<3xi32>
  %d = tfc.constant dense<[-3, -3, 2]> : tensor<3xi32>
  // Integer addition wraps; floor_div and mod round toward -inf.
  // CHECK-DAG: %[[ADD:.*]] = tfc.constant dense<[10, -4, -2147483648]> : tensor<3xi32>
  // CHECK-DAG: %[[FDIV:.*]] = tfc.constant dense<[-3, 2, 3]> : tensor<3xi32>
  // CHECK-DAG: %[[MOD:.*]] = tfc.constant dense<[-2, -1, 1]> : tensor<3xi32>
  // CHECK-DAG: %[[MAX:.*]] = tfc.constant dense<[7, 3, 2147483647]> : tensor<3xi32>
  // CHECK-DAG: %[[POW:.*]] = tfc.constant dense<49> : tensor<3xi32>
  %0 = tfc.add %a, %b : tensor<3xi32>
  %1 = tfc.floor_div %c, %d : tensor<3xi32>
  %2 = tfc.mod %c, %d : tensor<3xi32>
  %3 = tfc.maximum %a, %b : tensor<3xi32>
  %two = tfc.constant dense<2> : tensor<3xi32>
  %4 = tfc.pow %c, %two : tensor<3xi32>
  // CHECK: return %[[ADD]], %[[FDIV]], %[[MOD]], %[[MAX]], %[[POW]]
  return %0, %1, %2, %3, %4 : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
}

// -----

// Undefined integer results are left for run time.
// CHECK-LABEL: func @no_fold_undefined
func.func @no_fold_undefined() -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) {
  %a = tfc.constant dense<[7, 8]> : tensor<2xi32>
  %z = tfc.constant dense<[1, 0]> : tensor<2xi32>
  %n = tfc.constant dense<[1, -1]> : tensor<2xi32>
  // CHECK: tfc.floor_div
  %0 = tfc.floor_div %a, %z : tensor<2xi32>
  // CHECK: tfc.mod
  %1 = tfc.mod %a, %z : tensor<2xi32>
  // CHECK: tfc.pow
  %2 = tfc.pow %a, %n : tensor<2xi32>
  return %0, %1, %2 : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func @fold_logical
func.func @fold_logical() -> (tensor<4xi1>, tensor<4xi1>) {
  %a = tfc.constant dense<[true, true, false, false]> : tensor<4xi1>
  %b = tfc.constant dense<[true, false, true, false]> : tensor<4xi1>
  // CHECK-DAG: %[[AND:.*]] = tfc.constant dense<[true, false, false, false]> : tensor<4xi1>
  // CHECK-DAG: %[[OR:.*]] = tfc.constant dense<[true, true, true, false]> : tensor<4xi1>
  %0 = tfc.logical_and %a, %b : tensor<4xi1>
  %1 = tfc.logical_or %a, %b : tensor<4xi1>
  // CHECK: return %[[AND]], %[[OR]]
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func @fold_cmp
func.func @fold_cmp() -> (tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2xi1>, tensor<2xi1>) {
  %a = tfc.constant dense<[1.0, 2.0, 0x7FC00000]> : tensor<3xf32>
  %b = tfc.constant dense<[2.0, 2.0, 1.0]> : tensor<3xf32>
  // Floats compare ordered: NaN makes every predicate but ne false.
  // CHECK-DAG: %[[EQ:.*]] = tfc.constant dense<[false, true, false]> : tensor<3xi1>
  // CHECK-DAG: %[[NE:.*]] = tfc.constant dense<[true, false, true]> : tensor<3xi1>
  // CHECK-DAG: %[[LT:.*]] = tfc.constant dense<[true, false, false]> : tensor<3xi1>
  // CHECK-DAG: %[[LE:.*]] = tfc.constant dense<[true, true, false]> : tensor<3xi1>
  // CHECK-DAG: %[[GT:.*]] = tfc.constant dense<false> : tensor<3xi1>
  %0 = tfc.cmp eq, %a, %b : tensor<3xf32>
  %1 = tfc.cmp ne, %a, %b : tensor<3xf32>
  %2 = tfc.cmp lt, %a, %b : tensor<3xf32>
  %3 = tfc.cmp le, %a, %b : tensor<3xf32>
  %4 = tfc.cmp gt, %a, %b : tensor<3xf32>
  %5 = tfc.cmp ge, %a, %b : tensor<3xf32>
  // Integers compare signed.
  %i = tfc.constant dense<[-1, 5]> : tensor<2xi64>
  %j = tfc.constant dense<[1, 5]> : tensor<2xi64>
  // CHECK-DAG: %[[ILT:.*]] = tfc.constant dense<[true, false]> : tensor<2xi1>
  // CHECK-DAG: %[[IGE:.*]] = tfc.constant dense<[false, true]> : tensor<2xi1>
  %6 = tfc.cmp lt, %i, %j : tensor<2xi64>
  %7 = tfc.cmp ge, %i, %j : tensor<2xi64>
  // CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[EQ]], %[[ILT]], %[[IGE]]
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<3xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func @arith_identities
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[I:.*]]: tensor<2xi32>)
func.func @arith_identities(%x: tensor<2xf32>, %i: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>) {
  %zero = tfc.constant dense<0.0> : tensor<2xf32>
  %one = tfc.constant dense<1.0> : tensor<2xf32>
  %izero = tfc.constant dense<0> : tensor<2xi32>
  %ione = tfc.constant dense<1> : tensor<2xi32>
  %0 = tfc.add %x, %zero : tensor<2xf32>
  %1 = tfc.add %zero, %x : tensor<2xf32>
  %2 = tfc.sub %x, %zero : tensor<2xf32>
  %3 = tfc.mul %one, %x : tensor<2xf32>
  %4 = tfc.div %x, %one : tensor<2xf32>
  %5 = tfc.sub %i, %izero : tensor<2xi32>
  %6 = tfc.mul %i, %ione : tensor<2xi32>
  %7 = tfc.floor_div %i, %ione : tensor<2xi32>
  %8 = tfc.pow %x, %one : tensor<2xf32>
  // CHECK-NOT: tfc.add
  // CHECK-NOT: tfc.sub
  // CHECK-NOT: tfc.mul
  // CHECK-NOT: tfc.div
  // CHECK-NOT: tfc.floor_div
  // CHECK-NOT: tfc.pow
  // CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[I]], %[[I]], %[[I]], %[[X]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xf32>
}

// -----

// Float floor_div by one is floor(x), not x; x - x is not folded (NaN/inf).
// CHECK-LABEL: func @no_fold_non_identities
func.func @no_fold_non_identities(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %one = tfc.constant dense<1.0> : tensor<2xf32>
  %two = tfc.constant dense<2.0> : tensor<2xf32>
  // CHECK: tfc.floor_div
  %0 = tfc.floor_div %x, %one : tensor<2xf32>
  // CHECK: tfc.sub
  %1 = tfc.sub %x, %x : tensor<2xf32>
  // CHECK: tfc.mul
  %2 = tfc.mul %x, %two : tensor<2xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @idempotent_binary
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[P:.*]]: tensor<2xi1>)
func.func @idempotent_binary(%x: tensor<2xf32>, %p: tensor<2xi1>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>) {
  %t = tfc.constant dense<true> : tensor<2xi1>
  %f = tfc.constant dense<false> : tensor<2xi1>
  // CHECK-DAG: %[[F:.*]] = tfc.constant dense<false> : tensor<2xi1>
  // CHECK-DAG: %[[T:.*]] = tfc.constant dense<true> : tensor<2xi1>
  %0 = tfc.maximum %x, %x : tensor<2xf32>
  %1 = tfc.minimum %x, %x : tensor<2xf32>
  %2 = tfc.logical_and %p, %t : tensor<2xi1>
  %3 = tfc.logical_and %p, %f : tensor<2xi1>
  %4 = tfc.logical_or %f, %p : tensor<2xi1>
  %5 = tfc.logical_or %p, %t : tensor<2xi1>
  // CHECK: return %[[X]], %[[X]], %[[P]], %[[F]], %[[P]], %[[T]]
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<2xf32>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>, tensor<2xi1>
}

// -----

// CHECK-LABEL: func @unary_involutions
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[P:.*]]: tensor<2xi1>)
func.func @unary_involutions(%x: tensor<2xf32>, %p: tensor<2xi1>) -> (tensor<2xf32>, tensor<2xi1>, tensor<2xf32>) {
  %0 = tfc.neg %x : tensor<2xf32>
  %1 = tfc.neg %0 : tensor<2xf32>
  %2 = tfc.logical_not %p : tensor<2xi1>
  %3 = tfc.logical_not %2 : tensor<2xi1>
  // CHECK: %[[R:.*]] = tfc.relu %[[X]] : tensor<2xf32>
  // CHECK-NOT: tfc.relu
  %4 = tfc.relu %x : tensor<2xf32>
  %5 = tfc.relu %4 : tensor<2xf32>
  // CHECK: return %[[X]], %[[P]], %[[R]]
  return %1, %3, %5 : tensor<2xf32>, tensor<2xi1>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @shape_identities
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[Y:.*]]: tensor<3xf32>)
func.func @shape_identities(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = tfc.cast %x : tensor<2x3xf32> to tensor<2x3xf32>
  %1 = tfc.broadcast_to %x : tensor<2x3xf32> to tensor<2x3xf32>
  %2 = tfc.reshape %x : tensor<2x3xf32> -> tensor<2x3xf32>
  %3 = tfc.transpose %x, perm = [0, 1] : tensor<2x3xf32> -> tensor<2x3xf32>
  %4 = tfc.squeeze %x, axes = [] : tensor<2x3xf32> -> tensor<2x3xf32>
  %e = tfc.expand_dims %y, axis = 1 : tensor<3xf32> -> tensor<3x1xf32>
  %5 = tfc.squeeze %e, axes = [1] : tensor<3x1xf32> -> tensor<3xf32>
  %6 = tfc.concat %x axis = 1 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tfc.slice %x, begin = [0, 0], size = [2, 3] : tensor<2x3xf32> -> tensor<2x3xf32>
  %8 = tfc.reduce_sum %x, axes = [], keepdims = false : tensor<2x3xf32> -> tensor<2x3xf32>
  // CHECK-NOT: tfc.
  // CHECK: return %[[X]], %[[X]], %[[X]], %[[X]], %[[X]], %[[Y]], %[[X]], %[[X]], %[[X]]
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @expand_of_squeeze
// CHECK-SAME: (%[[X:.*]]: tensor<1x3xf32>)
func.func @expand_of_squeeze(%x: tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<3x1xf32>) {
  %s = tfc.squeeze %x, axes = [0] : tensor<1x3xf32> -> tensor<3xf32>
  %0 = tfc.expand_dims %s, axis = 0 : tensor<3xf32> -> tensor<1x3xf32>
  // A different axis is a real reshape and stays.
  // CHECK: %[[S:.*]] = tfc.squeeze %[[X]], axes = [0]
  // CHECK: %[[E:.*]] = tfc.expand_dims %[[S]], axis = 1
  %1 = tfc.expand_dims %s, axis = 1 : tensor<3xf32> -> tensor<3x1xf32>
  // CHECK: return %[[X]], %[[E]]
  return %0, %1 : tensor<1x3xf32>, tensor<3x1xf32>
}

// -----

// CHECK-LABEL: func @fold_shape_of_constants
func.func @fold_shape_of_constants() -> (tensor<2x3xf32>, tensor<3x2xi32>) {
  %s = tfc.constant dense<1.5> : tensor<3xf32>
  %d = tfc.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  // CHECK-DAG: %[[B:.*]] = tfc.constant dense<1.500000e+00> : tensor<2x3xf32>
  // CHECK-DAG: %[[R:.*]] = tfc.constant dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %0 = tfc.broadcast_to %s : tensor<3xf32> to tensor<2x3xf32>
  %1 = tfc.reshape %d : tensor<6xi32> -> tensor<3x2xi32>
  // CHECK: return %[[B]], %[[R]]
  return %0, %1 : tensor<2x3xf32>, tensor<3x2xi32>
}

// -----

// CHECK-LABEL: func @select_fold
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<2xi1>)
func.func @select_fold(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xi1>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %t = tfc.constant dense<true> : tensor<2xi1>
  %f = tfc.constant dense<false> : tensor<2xi1>
  %0 = tfc.select %t, %a, %b : tensor<2xi1>, tensor<2xf32>
  %1 = tfc.select %f, %a, %b : tensor<2xi1>, tensor<2xf32>
  %2 = tfc.select %c, %a, %a : tensor<2xi1>, tensor<2xf32>
  // CHECK: %[[S:.*]] = tfc.select %[[C]], %[[A]], %[[B]]
  %3 = tfc.select %c, %a, %b : tensor<2xi1>, tensor<2xf32>
  // CHECK: return %[[A]], %[[B]], %[[A]], %[[S]]
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// stop_gradient is an identity for values but not for gradients: kept.
// CHECK-LABEL: func @keep_stop_gradient
func.func @keep_stop_gradient(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfc.stop_gradient
  %0 = tfc.stop_gradient %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
