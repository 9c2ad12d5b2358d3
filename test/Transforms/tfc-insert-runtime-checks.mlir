// RUN: tfc-opt %s --tfc-insert-runtime-checks --cse --split-input-file | FileCheck %s

// Dynamic elementwise operands: one check on the dims, read from the
// arguments (an elementwise result's dims are its first operand's), before
// the op; nothing in any loop.
// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[A:.*]]: tensor<?xf32>, %[[B:.*]]: tensor<?xf32>)
// CHECK-DAG: %[[DA:.*]] = tensor.dim %[[A]]
// CHECK-DAG: %[[DB:.*]] = tensor.dim %[[B]]
// CHECK: %[[OK:.*]] = arith.cmpi eq, %[[DA]], %[[DB]] : index
// CHECK: tfc.check %[[OK]], invalid_argument, "tfc.add: operand shapes ({},) and ({},) differ at run time; elementwise ops do not broadcast (at {{.*}}tfc-insert-runtime-checks.mlir:[[# @LINE + 9]])"(%[[DA]], %[[DB]])
// CHECK-NEXT: tfc.add %[[A]], %[[B]]
// CHECK-NOT: tensor.dim
// The neg's result has the dims of %a: the mul's check reads those.
// CHECK: tfc.check %[[OK]], invalid_argument, "tfc.mul: operand shapes ({},) and ({},) differ{{.*}}(%[[DA]], %[[DB]])
// CHECK-NEXT: tfc.mul %{{.*}}, %[[B]]
// CHECK-NOT: tfc.check
// CHECK: return
func.func @elementwise(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tfc.add %a, %b : tensor<?xf32>
  %1 = tfc.neg %0 : tensor<?xf32>
  %2 = tfc.mul %1, %b : tensor<?xf32>
  return %2 : tensor<?xf32>
}

// -----

// Static shapes need no check.
// CHECK-LABEL: func.func @static
// CHECK-NOT: tfc.check
// CHECK-NOT: tensor.dim
// CHECK: return
func.func @static(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<2x4xf32>, tensor<3xf32>) {
  %0 = tfc.add %a, %a : tensor<3xf32>
  %1 = tfc.slice %b, begin = [1, 0], size = [2, 4] : tensor<3x4xf32> -> tensor<2x4xf32>
  %2 = tfc.reduce_max %b, axes = [1], keepdims = false : tensor<3x4xf32> -> tensor<3xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<2x4xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @shapes
// CHECK: %[[D:.*]] = tensor.dim %arg0
// CHECK: arith.cmpi uge, %[[D]], %c4
// CHECK: tfc.check {{.*}}"tfc.slice: begin [1] size [3] is out of bounds for shape ({},) (at
// CHECK-NEXT: tfc.slice
// CHECK: tfc.check {{.*}}"tfc.reshape: cannot reshape a tensor of shape ({},) into tensor<2x2xf32>
// CHECK-NEXT: tfc.reshape
// CHECK: arith.ori
// CHECK: tfc.check {{.*}}"tfc.broadcast_to: cannot broadcast a tensor of shape ({},) to tensor<2x3xf32>
// CHECK-NEXT: tfc.broadcast_to
// CHECK: tfc.check {{.*}}"tfc.matmul: inner or batch dimensions of shapes ({}, {}) and ({}, {}) differ at run time
// CHECK-NEXT: tfc.matmul
// CHECK: tfc.check {{.*}}"tfc.argmax: cannot take the argmax over an axis of size 0
// CHECK-NEXT: tfc.argmax
// CHECK: tfc.check {{.*}}"tfc.reduce_min: cannot reduce over zero elements
// CHECK-NEXT: tfc.reduce_min
// CHECK-NOT: tfc.check
// CHECK: tfc.reduce_sum
func.func @shapes(%a: tensor<?xf32>, %m: tensor<?x?xf32>, %n: tensor<?x?xf32>) -> (tensor<3xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<?xi64>, tensor<f32>, tensor<f32>) {
  %0 = tfc.slice %a, begin = [1], size = [3] : tensor<?xf32> -> tensor<3xf32>
  %1 = tfc.reshape %a : tensor<?xf32> -> tensor<2x2xf32>
  %2 = tfc.broadcast_to %a : tensor<?xf32> to tensor<2x3xf32>
  %3 = tfc.matmul %m, %n : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %4 = tfc.argmax %m, axis = 1 : tensor<?x?xf32> -> tensor<?xi64>
  %5 = tfc.reduce_min %a, axes = [0], keepdims = false : tensor<?xf32> -> tensor<f32>
  %6 = tfc.reduce_sum %a, axes = [0], keepdims = false : tensor<?xf32> -> tensor<f32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<?xi64>, tensor<f32>, tensor<f32>
}

// -----

// Integer division: a data check on a divisor only when it is not a
// constant without zeros; float division needs none.
// CHECK-LABEL: func.func @divisors
// CHECK-SAME: (%[[A:.*]]: tensor<4xi32>, %[[B:.*]]: tensor<4xi32>, %[[F:.*]]: tensor<4xf32>)
// CHECK: tfc.check_elements %[[B]], nonzero, "tfc.floor_div: integer division by zero (at
// CHECK-NEXT: tfc.floor_div %[[A]], %[[B]]
// CHECK-NOT: tfc.check_elements
// CHECK: tfc.mod %[[A]], %{{.*}}
// CHECK: tfc.check_elements %[[B]], nonnegative, "tfc.pow: integers to negative integer powers are not allowed
// CHECK-NEXT: tfc.pow %[[A]], %[[B]]
// CHECK-NOT: tfc.check
// CHECK: tfc.floor_div %[[F]], %[[F]]
func.func @divisors(%a: tensor<4xi32>, %b: tensor<4xi32>, %f: tensor<4xf32>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>) {
  %two = tfc.constant dense<2> : tensor<4xi32>
  %0 = tfc.floor_div %a, %b : tensor<4xi32>
  %1 = tfc.mod %a, %two : tensor<4xi32>
  %2 = tfc.pow %a, %b : tensor<4xi32>
  %3 = tfc.floor_div %f, %f : tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>
}

// -----

// A reduction over a static empty dim folds to a failing check.
// CHECK-LABEL: func.func @empty
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: tfc.check %[[FALSE]], invalid_argument, "tfc.reduce_max: cannot reduce over zero elements (shape (0, 3))
func.func @empty(%a: tensor<0x3xf32>) -> tensor<3xf32> {
  %0 = tfc.reduce_max %a, axes = [0], keepdims = false : tensor<0x3xf32> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
