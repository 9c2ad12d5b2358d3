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

// A matmul gradient's transposed copy (x^T for dW = x^T dy) is not made:
// the GEMM reads x through a transposed view (BLAS's transpose flag), and
// the copy's buffer goes with its dealloc.
// CHECK-LABEL: func @transposed_operand
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// CHECK: %[[T:.*]] = memref.transpose %arg0 (d0, d1) -> (d1, d0) : memref<128x784xf32> to memref<784x128xf32, strided<[1, 784]>>
// CHECK: %[[A:.*]] = memref.cast %[[T]]
// CHECK: call @tfc_rt_gemm_f32(%[[A]],
func.func @transposed_operand(%x: memref<128x784xf32>, %d: memref<128x256xf32>) -> memref<784x256xf32> {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<784x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<128x784xf32>) outs(%t : memref<784x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %c = memref.alloc() : memref<784x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<784x256xf32>)
  linalg.matmul ins(%t, %d : memref<784x128xf32>, memref<128x256xf32>) outs(%c : memref<784x256xf32>)
  memref.dealloc %t : memref<784x128xf32>
  return %c : memref<784x256xf32>
}

// The right operand too (dx = dy W^T); bufferization reused the copy's
// buffer for a later op that overwrites it whole, so the buffer stays.
// CHECK-LABEL: func @transposed_rhs_reused
// CHECK: %[[BUF:.*]] = memref.alloc() : memref<128x256xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[T:.*]] = memref.transpose %arg1 (d0, d1) -> (d1, d0)
// CHECK: call @tfc_rt_gemm_f32(
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[BUF]]
func.func @transposed_rhs_reused(%dy: memref<128x128xf32>, %w: memref<256x128xf32>, %o: memref<128x256xf32>) -> memref<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<128x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : memref<256x128xf32>) outs(%t : memref<128x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %c = memref.alloc() : memref<128x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<128x256xf32>)
  linalg.matmul ins(%dy, %t : memref<128x128xf32>, memref<128x256xf32>) outs(%c : memref<128x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%o : memref<128x256xf32>) outs(%t : memref<128x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  return %t : memref<128x256xf32>
}

// Kept: the source is written between the copy and the matmul, and a
// later op reads the copy's buffer before overwriting it.
// CHECK-LABEL: func @transposed_source_written
// CHECK: linalg.generic
// CHECK: linalg.fill
// CHECK-NOT: memref.transpose
// CHECK: call @tfc_rt_gemm_f32(
// CHECK-LABEL: func @transposed_copy_read_later
// CHECK: linalg.generic
// CHECK-NOT: memref.transpose
// CHECK: call @tfc_rt_gemm_f32(
func.func @transposed_source_written(%d: memref<128x256xf32>) -> memref<784x256xf32> {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<128x784xf32>
  %t = memref.alloc() : memref<784x128xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<128x784xf32>) outs(%t : memref<784x128xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.fill ins(%zero : f32) outs(%x : memref<128x784xf32>)
  %c = memref.alloc() : memref<784x256xf32>
  linalg.matmul ins(%t, %d : memref<784x128xf32>, memref<128x256xf32>) outs(%c : memref<784x256xf32>)
  return %c : memref<784x256xf32>
}
func.func @transposed_copy_read_later(%dy: memref<128x128xf32>, %w: memref<256x128xf32>) -> memref<128x256xf32> {
  %t = memref.alloc() : memref<128x256xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w : memref<256x128xf32>) outs(%t : memref<128x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %c = memref.alloc() : memref<128x256xf32>
  linalg.matmul ins(%dy, %t : memref<128x128xf32>, memref<128x256xf32>) outs(%c : memref<128x256xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%t : memref<128x256xf32>) {
  ^bb0(%out: f32):
    %r = arith.addf %out, %out : f32
    linalg.yield %r : f32
  }
  return %c : memref<128x256xf32>
}

// Two matmuls shared one CSE'd zero init: bufferization filled one buffer
// and copied it for the other. Both calls overwrite (beta = 0), and the
// fill and the copy go, as do the other ops in between that leave C alone.
// CHECK-LABEL: func @shared_zero_init
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: %[[B1:cst_[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: call @tfc_rt_gemm_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[B1]])
// CHECK: %[[B2:cst_[0-9]+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: call @tfc_rt_gemm_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[B2]])
func.func @shared_zero_init(%a: memref<256x64xf32>, %b: memref<64x1024xf32>, %x: memref<256x64xf32>) -> (memref<256x1024xf32>, memref<256x1024xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = memref.alloc() : memref<256x1024xf32>
  linalg.fill ins(%zero : f32) outs(%c0 : memref<256x1024xf32>)
  %c1 = memref.alloc() : memref<256x1024xf32>
  memref.copy %c0, %c1 : memref<256x1024xf32> to memref<256x1024xf32>
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x1024xf32>) outs(%c1 : memref<256x1024xf32>)
  %t = memref.alloc() : memref<256x64xf32>
  linalg.copy ins(%x : memref<256x64xf32>) outs(%t : memref<256x64xf32>)
  linalg.matmul ins(%t, %b : memref<256x64xf32>, memref<64x1024xf32>) outs(%c0 : memref<256x1024xf32>)
  return %c0, %c1 : memref<256x1024xf32>, memref<256x1024xf32>
}

// Kept: an op in between reads C's zeros (beta = 1 then).
// CHECK-LABEL: func @zero_init_read
// CHECK: linalg.fill
// CHECK: linalg.generic
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: call @tfc_rt_gemm_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]])
func.func @zero_init_read(%a: memref<256x64xf32>, %b: memref<64x1024xf32>, %o: memref<256x1024xf32>) -> memref<256x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x1024xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<256x1024xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<256x1024xf32>) outs(%o : memref<256x1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %b : memref<256x64xf32>, memref<64x1024xf32>) outs(%c : memref<256x1024xf32>)
  return %c : memref<256x1024xf32>
}
