// RUN: tfc-opt %s --convert-tfc-to-linalg --split-input-file | FileCheck %s

// Elementwise ops become one linalg.generic each with identity maps; the
// scalar body is the arith/math op.
// CHECK-LABEL: func @elementwise
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]{{.*}} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<2x3xf32>) outs(%[[E]] : tensor<2x3xf32>)
// CHECK:   arith.addf
// CHECK: linalg.generic
// CHECK:   math.tanh
func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tfc.add %a, %b : tensor<2x3xf32>
  %1 = tfc.tanh %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// Dynamic dims come from tensor.dim of the operand.
// CHECK-LABEL: func @dynamic
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4xf32>
// CHECK: tensor.empty(%[[D]]) : tensor<?x4xf32>
func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = tfc.exp %a : tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// Broadcast dims read index 0 or are dropped from the input map.
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func @broadcast
// CHECK: linalg.generic {indexing_maps = [#[[ROW]], #[[ID]]]
func.func @broadcast(%a: tensor<1x3xf32>) -> tensor<4x3xf32> {
  %0 = tfc.broadcast_to %a : tensor<1x3xf32> to tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Python flooring: floor_div uses arith.floordivsi with a guarded divisor,
// mod adjusts the remainder to the divisor's sign.
// CHECK-LABEL: func @int_division
// CHECK: arith.select
// CHECK: arith.floordivsi
// CHECK: arith.remsi
// CHECK: arith.xori
func.func @int_division(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = tfc.floor_div %a, %b : tensor<4xi32>
  %1 = tfc.mod %a, %b : tensor<4xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func @compare_select_cast
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.fptosi
func.func @compare_select_cast(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xi32> {
  %c = tfc.cmp lt, %a, %b : tensor<3xf32>
  %s = tfc.select %c, %a, %b : tensor<3xi1>, tensor<3xf32>
  %i = tfc.cast %s : tensor<3xf32> to tensor<3xi32>
  return %i : tensor<3xi32>
}

// -----

// A 2-d float matmul stays a named linalg.matmul: on buffers,
// tfc-linalg-to-blas calls OpenBLAS for the large ones and
// tfc-linalg-to-loops runs the rest in (i, k, j) order.
// CHECK-LABEL: func @matmul
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[Z]] : tensor<2x4xf32>)
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Integer matmul is a generic whose loops run (i, k, j): the innermost loop
// is contiguous in B and C, so it vectorizes.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func @matmul_i32
// CHECK: %[[Z:.*]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0, %arg1 : tensor<2x3xi32>, tensor<3x4xi32>) outs(%[[Z]] : tensor<2x4xi32>)
// CHECK:   arith.muli
// CHECK:   arith.addi
func.func @matmul_i32(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  %0 = tfc.matmul %a, %b : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// Batched matmul keeps its batch dims as outer parallel loops.
// CHECK-LABEL: func @batch_matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]
func.func @batch_matmul(%a: tensor<2x5x3x4xf32>, %b: tensor<2x5x4x6xf32>) -> tensor<2x5x3x6xf32> {
  %0 = tfc.matmul %a, %b : (tensor<2x5x3x4xf32>, tensor<2x5x4x6xf32>) -> tensor<2x5x3x6xf32>
  return %0 : tensor<2x5x3x6xf32>
}

// -----

// A reduction is a linalg.generic with a reduction iterator over a filled
// init; keepdims reinserts the unit dim with expand_shape.
// CHECK-LABEL: func @reduce_keepdims
// CHECK: %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32)
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%[[INIT]] : tensor<2xf32>)
// CHECK:   arith.maximumf
// CHECK: tensor.expand_shape {{.*}} : tensor<2xf32> into tensor<2x1xf32>
func.func @reduce_keepdims(%a: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %0 = tfc.reduce_max %a, axes = [1], keepdims = true : tensor<2x3xf32> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// CHECK-LABEL: func @mean
// CHECK: arith.addf
// CHECK: arith.divf
func.func @mean(%a: tensor<2x3xf32>) -> tensor<f32> {
  %0 = tfc.reduce_mean %a, axes = [0, 1], keepdims = false : tensor<2x3xf32> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func @argmax
// CHECK: linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xi64>)
// CHECK:   linalg.index 1
// CHECK: return %{{.*}}#1 : tensor<2xi64>
func.func @argmax(%a: tensor<2x3xf32>) -> tensor<2xi64> {
  %0 = tfc.argmax %a, axis = 1 : tensor<2x3xf32> -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// Softmax is max-shifted: reduce max, subtract, exp, reduce sum, divide.
// CHECK-LABEL: func @softmax
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
func.func @softmax(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tfc.softmax %a, axis = 1 : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func @shapes
// CHECK: linalg.generic
// CHECK: tensor.collapse_shape
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [2, 2] [1, 1]
// CHECK: tensor.insert_slice
// CHECK: tensor.insert_slice
func.func @shapes(%a: tensor<3x2xf32>, %c: tensor<1x3xf32>) -> (tensor<6xf32>, tensor<2x2xf32>, tensor<3x3xf32>) {
  %t = tfc.transpose %a, perm = [1, 0] : tensor<3x2xf32> -> tensor<2x3xf32>
  %r = tfc.reshape %t : tensor<2x3xf32> -> tensor<6xf32>
  %s = tfc.slice %t, begin = [0, 1], size = [2, 2] : tensor<2x3xf32> -> tensor<2x2xf32>
  %k = tfc.concat %t, %c axis = 0 : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
  return %r, %s, %k : tensor<6xf32>, tensor<2x2xf32>, tensor<3x3xf32>
}

// -----

// Control flow: the predicate is extracted from its rank-0 tensor.
// CHECK-LABEL: func @control_flow
// CHECK: %[[P:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: scf.if %[[P]] -> (tensor<f32>)
// CHECK:   scf.yield
// CHECK: scf.while
// CHECK:   scf.condition
func.func @control_flow(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = tfc.if %p -> (tensor<f32>) {
    %n = tfc.neg %x : tensor<f32>
    tfc.yield %n : tensor<f32>
  } else {
    tfc.yield %x : tensor<f32>
  }
  %1 = tfc.while (%a = %0) : (tensor<f32>) -> tensor<f32> {
    %z = tfc.constant dense<0.0> : tensor<f32>
    %c = tfc.cmp lt, %a, %z : tensor<f32>
    tfc.condition(%c) %a : tensor<f32>
  } do {
  ^bb0(%a: tensor<f32>):
    %one = tfc.constant dense<1.0> : tensor<f32>
    %b = tfc.add %a, %one : tensor<f32>
    tfc.yield %b : tensor<f32>
  }
  return %1 : tensor<f32>
}

// -----

// print and assert become calls into the runtime, with their strings as
// LLVM globals; the assert message carries the op's source line.
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("x:\00")
// CHECK-DAG: llvm.mlir.global internal constant @{{.*}}("must hold (at {{.*}}convert-tfc-to-linalg.mlir:[[@LINE+8]])\00")
// CHECK-DAG: func.func private @tfc_rt_assert(i1, !llvm.ptr)
// CHECK-DAG: func.func private @tfc_rt_print_tensor_f32(!llvm.ptr, i32, i32, i32, tensor<*xf32> {bufferization.access = "read"})
// CHECK-LABEL: func @effects
// CHECK: call @tfc_rt_print_tensor_f32
// CHECK: call @tfc_rt_assert
func.func @effects(%x: tensor<f32>, %p: tensor<i1>) {
  tfc.print "x:" %x : tensor<f32>
  tfc.assert %p, "must hold" : tensor<i1>
  return
}
