// Results stay in managed memory and belong to the caller (the JIT adopts
// them as CUDA tensors): no copy out and no free of what is returned. A
// constant's managed copy is freed before returning unless a result is that
// buffer, checked by pointer at run time.
// RUN: tfc-opt %s --tfc-cuda-outline-pipeline | FileCheck %s

// CHECK-LABEL: func.func @table() -> memref<3xf32>
// CHECK: %[[G:.*]] = memref.get_global @__constant_3xf32
// CHECK-NEXT: %[[M:.*]] = gpu.alloc host_shared () : memref<3xf32>
// CHECK-NEXT: memref.copy %[[G]], %[[M]]
// CHECK: %[[R:.*]] = gpu.alloc host_shared () : memref<3xf32>
// CHECK-NEXT: memref.copy %[[M]], %[[R]]
// CHECK-DAG: %[[PR:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// CHECK-DAG: %[[PM:.*]] = memref.extract_aligned_pointer_as_index %[[M]]
// CHECK: %[[NE:.*]] = arith.cmpi ne, %[[PM]], %[[PR]] : index
// CHECK-NEXT: scf.if %[[NE]] {
// CHECK: gpu.dealloc async [{{.*}}] %[[M]]
// CHECK-NOT: gpu.dealloc
// CHECK: call @tfc_cuda_ok()
// CHECK: return %[[R]]
func.func @table() -> tensor<3xf32> {
  %c = tfc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  return %c : tensor<3xf32>
}

// The kernel reads the argument where it is (managed memory from the
// caller).
// CHECK-LABEL: func.func @shift(
// CHECK-SAME: %[[A:.*]]: memref<3xf32>) -> memref<3xf32>
// CHECK-NOT: memref.copy %[[A]]
// CHECK: memref.get_global @__constant_3xf32
// CHECK-NEXT: %[[M:.*]] = gpu.alloc host_shared () : memref<3xf32>
// CHECK-NEXT: memref.copy %{{.*}}, %[[M]]
// CHECK-NEXT: %[[OUT:.*]] = gpu.alloc host_shared () : memref<3xf32>
// CHECK-NEXT: gpu.launch_func @shift_kernel::@shift_kernel {{.*}} args(%[[A]] : memref<3xf32>, %[[M]] : memref<3xf32>, %[[OUT]] : memref<3xf32>)
// CHECK-NOT: gpu.dealloc {{.*}}%[[OUT]]
// CHECK: return %[[OUT]]
func.func @shift(%a: tensor<3xf32>) -> tensor<3xf32> {
  %c = tfc.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %s = tfc.add %a, %c : tensor<3xf32>
  return %s : tensor<3xf32>
}

// Returning an argument returns a fresh buffer (the deallocation pipeline's
// clone), never the caller's.
// CHECK-LABEL: func.func @same(
// CHECK-SAME: %[[A:.*]]: memref<3xf32>) -> memref<3xf32>
// CHECK-NEXT: %[[C:.*]] = gpu.alloc host_shared () : memref<3xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[C]]
// CHECK-NOT: gpu.dealloc
// CHECK: return %[[C]]
func.func @same(%a: tensor<3xf32>) -> tensor<3xf32> {
  return %a : tensor<3xf32>
}
