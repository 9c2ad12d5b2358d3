// A slice that is not contiguous in its operand, returned as a result
// (copied out through the JIT-provided memrefCopy).
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3],[4,5,6]]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3],[4,5,6]]:f32" | FileCheck %s

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}2. 3.]
// CHECK-NEXT: [5. 6.]], shape=(2, 2), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}3.]
// CHECK-NEXT: [6.]], shape=(2, 1), dtype=float32)

func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<2x1xf32>) {
  %box = tfc.slice %x, begin = [0, 1], size = [2, 2] : tensor<2x3xf32> -> tensor<2x2xf32>
  %col = tfc.slice %x, begin = [0, 2], size = [2, 1] : tensor<2x3xf32> -> tensor<2x1xf32>
  return %box, %col : tensor<2x2xf32>, tensor<2x1xf32>
}
