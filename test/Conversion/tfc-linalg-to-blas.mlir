// RUN: tfc-opt %s --tfc-linalg-to-blas | FileCheck %s
// RUN: tfc-opt %s --tfc-linalg-to-blas="min-work=1000000000" | FileCheck %s --check-prefix=NOBLAS

// A large f32 matmul calls the runtime's GEMM; the zero fill before it
// becomes beta = 0.
// CHECK-DAG: func.func private @tfc_rt_gemm_f32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, f32) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @tfc_rt_gemm_f64(
// CHECK-LABEL: func @big
// CHECK-NOT: linalg.fill
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<64x128xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT: %[[B:.*]] = memref.cast %arg1
// CHECK-NEXT: %[[C:.*]] = memref.cast %arg2
// CHECK-NEXT: %[[BETA:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: call @tfc_rt_gemm_f32(%[[A]], %[[B]], %[[C]], %[[BETA]])
// CHECK-NOT: linalg.matmul
// NOBLAS-LABEL: func @big
// NOBLAS: linalg.fill
// NOBLAS: linalg.matmul
func.func @big(%a: memref<64x128xf32>, %b: memref<128x64xf32>, %c: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.matmul ins(%a, %b : memref<64x128xf32>, memref<128x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// Without a zero fill the call accumulates (beta = 1); f64 has its own
// entry point.
// CHECK-LABEL: func @accumulate
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: call @tfc_rt_gemm_f64(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]])
func.func @accumulate(%a: memref<64x128xf64>, %b: memref<128x64xf64>, %c: memref<64x64xf64>) {
  linalg.matmul ins(%a, %b : memref<64x128xf64>, memref<128x64xf64>) outs(%c : memref<64x64xf64>)
  return
}

// Small matmuls stay for generated loops; dynamic sizes always go to BLAS.
// CHECK-LABEL: func @small
// CHECK: linalg.fill
// CHECK: linalg.matmul
// CHECK-LABEL: func @dynamic
// CHECK: call @tfc_rt_gemm_f32
func.func @small(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// Integer matmuls are not BLAS's.
// CHECK-LABEL: func @integer
// CHECK: linalg.matmul
func.func @integer(%a: memref<64x128xi32>, %b: memref<128x64xi32>, %c: memref<64x64xi32>) {
  linalg.matmul ins(%a, %b : memref<64x128xi32>, memref<128x64xi32>) outs(%c : memref<64x64xi32>)
  return
}
