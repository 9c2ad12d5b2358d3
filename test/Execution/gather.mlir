// gather on both axes and unsorted_segment_sum on hand-computed cases, the
// same in the interpreter (the runtime's GatherKernels.cpp) and in compiled
// code (GatherToLinalg.cpp; the segment sum a library call on the CPU):
//   p = [[1 2 3] [4 5 6]]; rows [1 0 1]; columns [2 0];
//   segment sum of [[1 2] [3 4] [5 6]] by [2 -1 2] into 3: [[0 0] [0 0] [6 8]].
// RUN: tfc-run %s --mode=interpret | FileCheck %s
// RUN: tfc-run %s --mode=jit | FileCheck %s
// The loops the ops lower to (what the GPU pipeline runs), not the kernels:
// RUN: tfc-run %s --mode=jit --kernel-calls=false | FileCheck %s
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}4. 5. 6.]
// CHECK-NEXT: [1. 2. 3.]
// CHECK-NEXT: [4. 5. 6.]], shape=(3, 3), dtype=float32)
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}3. 1.]
// CHECK-NEXT: [6. 4.]], shape=(2, 2), dtype=float32)
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}0. 0.]
// CHECK-NEXT: [0. 0.]
// CHECK-NEXT: [6. 8.]], shape=(3, 2), dtype=float32)

func.func @main() -> (tensor<3x3xf32>, tensor<2x2xf32>, tensor<3x2xf32>) {
  %p = tfc.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %rows = tfc.constant dense<[1, 0, 1]> : tensor<3xi32>
  %cols = tfc.constant dense<[2, 0]> : tensor<2xi64>
  %a = tfc.gather %p, %rows, axis = 0 : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<3x3xf32>
  %b = tfc.gather %p, %cols, axis = 1 : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %d = tfc.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %ids = tfc.constant dense<[2, -1, 2]> : tensor<3xi32>
  %s = tfc.unsorted_segment_sum %d, %ids, num_segments = 3 : (tensor<3x2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
  return %a, %b, %s : tensor<3x3xf32>, tensor<2x2xf32>, tensor<3x2xf32>
}
