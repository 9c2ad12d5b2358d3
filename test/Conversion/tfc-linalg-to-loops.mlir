// RUN: tfc-opt %s --tfc-linalg-to-loops --canonicalize | FileCheck %s
// RUN: tfc-opt %s --tfc-linalg-to-loops="parallel-threshold=0" --canonicalize | FileCheck %s --check-prefix=SEQ

// CHECK: #[[UNROLL:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[NOUNROLL:.*]] = #llvm.loop_annotation<unroll = #[[UNROLL]]>

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#red = affine_map<(d0, d1) -> (d0)>

// A big elementwise loop nest runs in parallel over its leading dim (512
// iterations are plenty), the inner one sequential: OpenMP would flatten a
// two-dim parallel loop and divide per element to rebuild the indices, and
// such loops do not vectorize.
// CHECK-LABEL: func @big
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c512)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c512
// CHECK: math.exp
// CHECK-NOT: loop_annotation
// CHECK: return
// SEQ-LABEL: func @big
// SEQ-NOT: scf.parallel
// SEQ: scf.for
// SEQ: scf.for
func.func @big(%x: memref<512x512xf32>, %y: memref<512x512xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<512x512xf32>) outs(%y : memref<512x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// An NHWC bias + ReLU: parallel over batch and rows until 64 iterations
// (2 x 40), sequential over columns and channels.
// CHECK-LABEL: func @nhwc
// CHECK: scf.parallel (%{{.*}}, %{{.*}}) = (%c0, %c0) to (%c2, %c40)
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c40
// CHECK-NEXT: scf.for %{{.*}} = %c0 to %c32
// CHECK: arith.addf
// CHECK: arith.maximumf
#ident4 = affine_map<(n, h, w, c) -> (n, h, w, c)>
#last4 = affine_map<(n, h, w, c) -> (c)>
func.func @nhwc(%x: memref<2x40x40x32xf32>, %b: memref<32xf32>, %y: memref<2x40x40x32xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#ident4, #last4, #ident4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %b : memref<2x40x40x32xf32>, memref<32xf32>) outs(%y : memref<2x40x40x32xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// A small one stays sequential: waking a thread costs more than it takes.
// Its body calls a transcendental (later a long polynomial), so its loops
// are marked not to be unrolled; the parallel version above is not.
// CHECK-LABEL: func @small
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK: scf.for
// CHECK: math.exp
// CHECK: } {loop_annotation = #[[NOUNROLL]]}
// CHECK: } {loop_annotation = #[[NOUNROLL]]}
func.func @small(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%y : memref<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// Dynamic sizes: both versions, chosen by the run-time size.
// CHECK-LABEL: func @dynamic
// CHECK: %[[WORK:.*]] = arith.muli
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %[[WORK]], %c32768
// CHECK: scf.if %[[BIG]] {
// CHECK: scf.parallel
// CHECK: } else {
// CHECK: scf.for
func.func @dynamic(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// A row reduction: rows in parallel, each row's sum a sequential loop.
// CHECK-LABEL: func @rows
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: scf.for
// CHECK: arith.addf
func.func @rows(%x: memref<1024x256xf32>, %y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<1024x256xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// A generated matmul runs (i, k, j): the innermost loop walks B's and C's
// rows.
// CHECK-LABEL: func @matmul
// CHECK: scf.for %[[I:.*]] = %c0 to %c4
// CHECK: scf.for %[[K:.*]] = %c0 to %c8
// CHECK: scf.for %[[J:.*]] = %c0 to %c6
// CHECK: memref.load %{{.*}}[%[[I]], %[[K]]]
// CHECK: memref.load %{{.*}}[%[[K]], %[[J]]]
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %c: memref<4x6xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x6xf32>) outs(%c : memref<4x6xf32>)
  return
}

// A big generated matmul: parallel over i (256 rows), then k, then j
// innermost, as sequentially: the inner loop still walks B's and C's rows.
// CHECK-LABEL: func @big_matmul
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c256)
// CHECK-NEXT: scf.for %[[K:.*]] = %c0 to %c4
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c1024
// CHECK: memref.load %{{.*}}[%[[K]], %[[J]]]
func.func @big_matmul(%a: memref<256x4xf32>, %b: memref<4x1024xf32>, %c: memref<256x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<256x4xf32>, memref<4x1024xf32>) outs(%c : memref<256x1024xf32>)
  return
}

// A thin one (1 x 65536): the leading dim alone has one iteration, so both
// dims stay parallel (canonicalize drops the unit one) rather than one
// thread doing all of it.
// CHECK-LABEL: func @thin
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c65536)
// CHECK-NOT: scf.for
// CHECK: return
func.func @thin(%x: memref<1x65536xf32>, %y: memref<1x65536xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1x65536xf32>) outs(%y : memref<1x65536xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  return
}

// A reduction over the leading dims of a row-major operand (a bias
// gradient: sum over n, h, w of an NHWC tensor) keeps its loop order and
// runs on one thread: the innermost loop adds a contiguous row into the
// output row and vectorizes (parallel over the channels, every access would
// be strided and scalar).
// CHECK-LABEL: func @leading_reduction
// CHECK-NOT: scf.parallel
// CHECK: scf.for %[[N:.*]] = %c0 to %c128
// CHECK: scf.for %[[H:.*]] = %c0 to %c26
// CHECK: scf.for %[[W:.*]] = %c0 to %c26
// CHECK: scf.for %[[C:.*]] = %c0 to %c32
// CHECK: memref.load %{{.*}}[%[[N]], %[[H]], %[[W]], %[[C]]]
// CHECK: arith.addf
#nhwc = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#chan = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @leading_reduction(%x: memref<128x26x26x32xf32>, %y: memref<32xf32>) {
  linalg.generic {indexing_maps = [#nhwc, #chan],
                  iterator_types = ["reduction", "reduction", "reduction", "parallel"]}
      ins(%x : memref<128x26x26x32xf32>) outs(%y : memref<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// The same reduction read through a transposed map is no row sum: the
// parallel kept loop goes outermost, each element summing serially in the
// original order; innermost, it would start one OpenMP region per
// (n, h, w).
// CHECK-LABEL: func @leading_reduction_transposed
// CHECK: scf.parallel (%[[C:.*]]) = (%c0) to (%c32)
// CHECK: scf.for %[[N:.*]] = %c0 to %c128
// CHECK: scf.for %[[H:.*]] = %c0 to %c26
// CHECK: scf.for %[[W:.*]] = %c0 to %c26
// CHECK: memref.load %{{.*}}[%[[C]], %[[N]], %[[H]], %[[W]]]
// CHECK: arith.addf
#cnhw = affine_map<(d0, d1, d2, d3) -> (d3, d0, d1, d2)>
func.func @leading_reduction_transposed(%x: memref<32x128x26x26xf32>, %y: memref<32xf32>) {
  linalg.generic {indexing_maps = [#cnhw, #chan],
                  iterator_types = ["reduction", "reduction", "reduction", "parallel"]}
      ins(%x : memref<32x128x26x26xf32>) outs(%y : memref<32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %out, %in : f32
    linalg.yield %s : f32
  }
  return
}

// A copy into a strided view (a block of a concat or of a slice's
// gradient) becomes loops over contiguous rows, not a call of MLIR's
// element-at-a-time memrefCopy; a copy of a splat constant global becomes
// a fill; a copy between contiguous buffers stays (memcpy).
memref.global "private" constant @zeros : memref<64x768xf32> = dense<0.000000e+00>
// CHECK-LABEL: func @strided_copies
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: memref.get_global
// CHECK: scf.for
// CHECK: memref.load %arg0
// CHECK: memref.store %{{.*}}, %{{.*}} : memref<64x256xf32, strided<[1024, 1], offset: 768>>
// CHECK: memref.store %[[ZERO]], %{{.*}} : memref<64x768xf32, strided<[1024, 1]>>
// CHECK: memref.copy %arg0, %arg2 : memref<64x256xf32> to memref<64x256xf32>
// SEQ-LABEL: func @strided_copies
// SEQ-NOT: memref.get_global
func.func @strided_copies(%g: memref<64x256xf32>, %out: memref<64x1024xf32>, %c: memref<64x256xf32>) {
  %z = memref.get_global @zeros : memref<64x768xf32>
  %left = memref.subview %out[0, 0] [64, 768] [1, 1] : memref<64x1024xf32> to memref<64x768xf32, strided<[1024, 1]>>
  %right = memref.subview %out[0, 768] [64, 256] [1, 1] : memref<64x1024xf32> to memref<64x256xf32, strided<[1024, 1], offset: 768>>
  memref.copy %g, %right : memref<64x256xf32> to memref<64x256xf32, strided<[1024, 1], offset: 768>>
  memref.copy %z, %left : memref<64x768xf32> to memref<64x768xf32, strided<[1024, 1]>>
  memref.copy %g, %c : memref<64x256xf32> to memref<64x256xf32>
  return
}
