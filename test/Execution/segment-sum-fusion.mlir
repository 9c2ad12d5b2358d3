// tfc-difftest-grad seed 910598: the gradient of a tied reduce_max through
// a gather with a scalar index. The unsorted_segment_sum of a scalar id is
// elementwise; its body once read its (zeroed) result, and elementwise
// fusion broadcast that read into the consumer's loop, accumulating once
// per element: [0 1 1.5 0] instead of [0 0.5 0.5 0].
// RUN: tfc-run %s --mode=interpret --arg="[2.0,3.5,3.5,-3.0]:f64" --arg="1.0:f64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[2.0,3.5,3.5,-3.0]:f64" --arg="1.0:f64" | FileCheck %s
// CHECK: tfc.Tensor([0.  0.5 0.5 0. ], shape=(4,), dtype=float64)

func.func @main(%x: tensor<4xf64>, %dy: tensor<f64>) -> tensor<4xf64> {
  %i = tfc.constant dense<0> : tensor<i64>
  %g = tfc.unsorted_segment_sum %dy, %i, num_segments = 1 : (tensor<f64>, tensor<i64>) -> tensor<1xf64>
  %m = tfc.reduce_max %x, axes = [0], keepdims = true : tensor<4xf64> -> tensor<1xf64>
  %b = tfc.broadcast_to %m : tensor<1xf64> to tensor<4xf64>
  %e = tfc.cmp eq, %x, %b : tensor<4xf64>
  %c = tfc.cast %e : tensor<4xi1> to tensor<4xf64>
  %s = tfc.reduce_sum %c, axes = [0], keepdims = true : tensor<4xf64> -> tensor<1xf64>
  %q = tfc.div %g, %s : tensor<1xf64>
  %qb = tfc.broadcast_to %q : tensor<1xf64> to tensor<4xf64>
  %r = tfc.mul %qb, %c : tensor<4xf64>
  return %r : tensor<4xf64>
}
