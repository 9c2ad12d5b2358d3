// tfc.concat along a non-leading axis (each input lands in a strided slice
// of the result; the JIT provides memrefCopy for such copies).
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3],[4,5,6]]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3],[4,5,6]]:f32" | FileCheck %s

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}} 1.  2.  3. 10.  1.  2.  3.]
// CHECK-NEXT: [ 4.  5.  6. 20.  4.  5.  6.]], shape=(2, 7), dtype=float32)

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x7xf32> {
  %c = tfc.constant dense<[[10.0], [20.0]]> : tensor<2x1xf32>
  %r = tfc.concat %x, %c, %x axis = 1 : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
  return %r : tensor<2x7xf32>
}
