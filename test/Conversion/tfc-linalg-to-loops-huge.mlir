// Static loop ranges whose product overflows int64: a 2^21 x 2^21 x 2^21
// matmul is 2^63 multiply-adds. The work estimate saturates (it used to
// wrap to a negative count, signed overflow, and pick serial loops), so the
// nest runs in parallel.
// RUN: tfc-opt %s --tfc-linalg-to-loops | FileCheck %s

// CHECK-LABEL: func @huge
// CHECK: scf.parallel
func.func @huge(%a: memref<2097152x2097152xf32>, %b: memref<2097152x2097152xf32>,
                %c: memref<2097152x2097152xf32>) {
  linalg.matmul ins(%a, %b : memref<2097152x2097152xf32>, memref<2097152x2097152xf32>)
                outs(%c : memref<2097152x2097152xf32>)
  return
}
