// cumsum, top_k_indices, sparse_softmax_cross_entropy and erf on
// hand-computed cases, the same in the interpreter (the runtime's kernels)
// and compiled (library calls of the same kernels on the CPU; the sparse
// cross entropy as softmax_cross_entropy of one-hot labels):
//   cumsum of [[1 2 3] [4 5 6]] along 1: [[1 3 6] [4 9 15]]; exclusive and
//   reverse: [[5 3 0] [11 6 0]];
//   top 2 of [[3 1 3 0] [0 5 2 4]]: [[0 2] [1 3]] (ties in index order);
//   cross entropy of logits [0 0] with label 1: log 2 = 0.6931472;
//   erf(1) = 0.8427008.
// RUN: tfc-run %s --mode=interpret | FileCheck %s
// RUN: tfc-run %s --mode=jit | FileCheck %s
// The loops the ops lower to (what the GPU pipeline runs), not the kernels:
// RUN: tfc-run %s --mode=jit --kernel-calls=false | FileCheck %s
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}} 1  3  6]
// CHECK-NEXT: [ 4  9 15]], shape=(2, 3), dtype=int32)
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}} 5  3  0]
// CHECK-NEXT: [11  6  0]], shape=(2, 3), dtype=int32)
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}0 2]
// CHECK-NEXT: [1 3]], shape=(2, 2), dtype=int32)
// CHECK: tfc.Tensor([0.693147{{[0-9]*}}], shape=(1,), dtype=float32)
// CHECK: tfc.Tensor(0.842700{{[0-9]*}}, shape=(), dtype=float32)

func.func @main() -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x2xi32>, tensor<1xf32>, tensor<f32>) {
  %x = tfc.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %a = tfc.cumsum %x, axis = 1, exclusive = false, reverse = false : tensor<2x3xi32>
  %b = tfc.cumsum %x, axis = 1, exclusive = true, reverse = true : tensor<2x3xi32>
  %y = tfc.constant dense<[[3.0, 1.0, 3.0, 0.0], [0.0, 5.0, 2.0, 4.0]]> : tensor<2x4xf32>
  %t = tfc.top_k_indices %y, k = 2 : tensor<2x4xf32> -> tensor<2x2xi32>
  %z = tfc.constant dense<[[0.0, 0.0]]> : tensor<1x2xf32>
  %l = tfc.constant dense<[1]> : tensor<1xi32>
  %c = tfc.sparse_softmax_cross_entropy %l, %z : (tensor<1xi32>, tensor<1x2xf32>) -> tensor<1xf32>
  %one = tfc.constant dense<1.0> : tensor<f32>
  %e = tfc.erf %one : tensor<f32>
  return %a, %b, %t, %c, %e : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x2xi32>, tensor<1xf32>, tensor<f32>
}
