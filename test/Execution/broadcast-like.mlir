// tfc.broadcast_to with a `like` operand: a dynamic dim the operand cannot
// size (a lower-rank bias, a static 1) takes its run-time size from `like`,
// for any batch, fused (JIT) or not (interpreter).
// RUN: tfc-run %s --mode=interpret --entry=bias --arg="[[1,2,3],[4,5,6]]:f32" --arg="[10,-20,30]:f32" | FileCheck %s --check-prefix=BIAS2
// RUN: tfc-run %s --mode=jit --entry=bias --arg="[[1,2,3],[4,5,6]]:f32" --arg="[10,-20,30]:f32" | FileCheck %s --check-prefix=BIAS2
// RUN: tfc-run %s --mode=jit --entry=bias --arg="[[1,2,3]]:f32" --arg="[10,-20,30]:f32" | FileCheck %s --check-prefix=BIAS1
// RUN: tfc-run %s --mode=interpret --entry=bias --arg="[[1,2,3]]:f32" --arg="[10,-20,30]:f32" | FileCheck %s --check-prefix=BIAS1
// RUN: tfc-run %s --mode=interpret --entry=rows --arg="[[1,2],[3,4],[5,6]]:f32" --arg="[[1],[10],[100]]:f32" | FileCheck %s --check-prefix=ROWS
// RUN: tfc-run %s --mode=jit --entry=rows --arg="[[1,2],[3,4],[5,6]]:f32" --arg="[[1],[10],[100]]:f32" | FileCheck %s --check-prefix=ROWS
// A dynamic dim of 1 that would have to broadcast at run time is an error,
// not a silently short result.
// RUN: not tfc-run %s --mode=jit --entry=rows --arg="[[1,2],[3,4],[5,6]]:f32" --arg="[[1]]:f32" 2>&1 | FileCheck %s --check-prefix=ROWS-BAD
// RUN: not tfc-run %s --mode=interpret --entry=rows --arg="[[1,2],[3,4],[5,6]]:f32" --arg="[[1]]:f32" 2>&1 | FileCheck %s --check-prefix=ROWS-BAD-I

// BIAS2: tfc.Tensor(
// BIAS2-NEXT: {{\[\[}}11.  0. 33.]
// BIAS2-NEXT: [14.  0. 36.]], shape=(2, 3), dtype=float32)
// BIAS1: tfc.Tensor({{\[\[}}11.  0. 33.]], shape=(1, 3), dtype=float32)
func.func @bias(%x: tensor<?x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %bb = tfc.broadcast_to %b like %x : tensor<3xf32> to tensor<?x3xf32> like tensor<?x3xf32>
  %0 = tfc.add %x, %bb : tensor<?x3xf32>
  %1 = tfc.relu %0 : tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}

// ROWS: tfc.Tensor(
// ROWS-NEXT: {{\[\[}}  1.   2.]
// ROWS-NEXT: [ 30.  40.]
// ROWS-NEXT: [500. 600.]], shape=(3, 2), dtype=float32)
// ROWS-BAD: cannot broadcast a tensor of shape (1, 1) like a tensor of shape (3, 2) to tensor<?x?xf32>
// ROWS-BAD-I: error: tfc.broadcast_to: cannot broadcast a tensor of shape (1, 1) like a tensor of shape (3, 2) to tensor<?x?xf32>
func.func @rows(%x: tensor<?x?xf32>, %s: tensor<?x1xf32>) -> tensor<?x?xf32> {
  %ss = tfc.broadcast_to %s like %x : tensor<?x1xf32> to tensor<?x?xf32> like tensor<?x?xf32>
  %0 = tfc.mul %x, %ss : tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
