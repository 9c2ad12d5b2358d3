// tfc.all_reduce becomes a call of the runtime's collective entry that
// fills a fresh buffer: the operand is only read (no copy before the
// call), dynamic dims size the buffer, and the two reductions differ in
// the op code (0 sum, 1 mean) after the dtype code (3 f32, 2 i64).
// RUN: tfc-opt %s --convert-tfc-to-linalg | FileCheck %s

// CHECK-DAG: func.func private @tfc_rt_all_reduce_f32(i32, i32, tensor<*xf32> {bufferization.access = "read"}, memref<*xf32>)
// CHECK-DAG: func.func private @tfc_rt_all_reduce_i64(i32, i32, tensor<*xi64> {bufferization.access = "read"}, memref<*xi64>)
// CHECK-LABEL: func.func @main
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK-DAG: %[[F32:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[SUM:.*]] = arith.constant 0 : i32
// CHECK: call @tfc_rt_all_reduce_f32(%[[F32]], %[[SUM]], %{{.*}}, %{{.*}})
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: %[[DIM:.*]] = tensor.dim %arg1
// CHECK: memref.alloc(%[[DIM]]) : memref<?xi64>
// CHECK-DAG: %[[I64:.*]] = arith.constant 2 : i32
// CHECK-DAG: %[[MEAN:.*]] = arith.constant 1 : i32
// CHECK: call @tfc_rt_all_reduce_i64(%[[I64]], %[[MEAN]], %{{.*}}, %{{.*}})
func.func @main(%x: tensor<2x3xf32>, %y: tensor<?xi64>) -> (tensor<2x3xf32>, tensor<?xi64>) {
  %s = tfc.all_reduce %x, "sum" : tensor<2x3xf32>
  %m = tfc.all_reduce %y, "mean" : tensor<?xi64>
  return %s, %m : tensor<2x3xf32>, tensor<?xi64>
}
