// max/avg pooling and the max gradient on hand-computed cases (x = 1..16 as
// 4x4), the same in the interpreter (the runtime's PoolKernels.cpp) and in
// compiled code (PoolToLinalg.cpp's window loops):
//   max 2x2/2 VALID: 6 8 14 16; avg 2x2/2 VALID: 3.5 5.5 11.5 13.5;
//   avg 3x3/2 SAME (padding 1 after, not counted): 6 7.5 12 13.5;
//   max_pool2d_grad of dy = 1 2 3 4: each at its window's maximum.
// RUN: tfc-run %s --mode=interpret | FileCheck %s
// RUN: tfc-run %s --mode=jit | FileCheck %s
// The loops the ops lower to (what the GPU pipeline runs), not the kernels:
// RUN: tfc-run %s --mode=jit --kernel-calls=false | FileCheck %s
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}{{\[\[}} 6.]
// CHECK-NEXT: [ 8.]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}14.]
// CHECK-NEXT: [16.]]]], shape=(1, 2, 2, 1), dtype=float32)
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}{{\[\[}} 3.5]
// CHECK-NEXT: [ 5.5]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}11.5]
// CHECK-NEXT: [13.5]]]], shape=(1, 2, 2, 1), dtype=float32)
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}{{\[\[}} 6. ]
// CHECK-NEXT: [ 7.5]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}12. ]
// CHECK-NEXT: [13.5]]]], shape=(1, 2, 2, 1), dtype=float32)
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}{{\[\[}}0.]
// CHECK-NEXT: [0.]
// CHECK-NEXT: [0.]
// CHECK-NEXT: [0.]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}0.]
// CHECK-NEXT: [1.]
// CHECK-NEXT: [0.]
// CHECK-NEXT: [2.]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}0.]
// CHECK-NEXT: [0.]
// CHECK-NEXT: [0.]
// CHECK-NEXT: [0.]]
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}0.]
// CHECK-NEXT: [3.]
// CHECK-NEXT: [0.]
// CHECK-NEXT: [4.]]]], shape=(1, 4, 4, 1), dtype=float32)

func.func @main() -> (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x4x4x1xf32>) {
  %x = tfc.constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[5.0], [6.0], [7.0], [8.0]], [[9.0], [10.0], [11.0], [12.0]], [[13.0], [14.0], [15.0], [16.0]]]]> : tensor<1x4x4x1xf32>
  %m = tfc.max_pool2d %x, ksize = [2, 2], strides = [2, 2], padding = "VALID" : tensor<1x4x4x1xf32> -> tensor<1x2x2x1xf32>
  %a = tfc.avg_pool2d %x, ksize = [2, 2], strides = [2, 2], padding = "VALID" : tensor<1x4x4x1xf32> -> tensor<1x2x2x1xf32>
  %s = tfc.avg_pool2d %x, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<1x4x4x1xf32> -> tensor<1x2x2x1xf32>
  %dy = tfc.constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %g = tfc.max_pool2d_grad %x, %dy, ksize = [2, 2], strides = [2, 2], padding = "VALID" : (tensor<1x4x4x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32>
  return %m, %a, %s, %g : tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x4x4x1xf32>
}
