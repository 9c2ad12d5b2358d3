// softmax and log_softmax along the last and the first axis (large logits:
// computed stably), softmax_cross_entropy (moderate logits: the runtime
// kernel loses precision at |logits| ~ 1000), and one_hot (an index outside
// [0, depth) gives a zero row) into f32 and i32.
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3],[1000,1000,1000]]:f32" --arg="[0,2,-1,3]:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3],[1000,1000,1000]]:f32" --arg="[0,2,-1,3]:i32" | FileCheck %s

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}0.09003057 0.24472848 0.66524094]
// CHECK-NEXT: [0.33333334 0.33333334 0.33333334]], shape=(2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}-2.407606   -1.4076059  -0.40760595]
// CHECK-NEXT: [-1.0986123  -1.0986123  -1.0986123 ]], shape=(2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}0. 0. 0.]
// CHECK-NEXT: [1. 1. 1.]], shape=(2, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor([0.407605{{[0-9]*}} 1.0986123{{ *}}], shape=(2,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1. 0. 0.]
// CHECK-NEXT: [0. 0. 1.]
// CHECK-NEXT: [0. 0. 0.]
// CHECK-NEXT: [0. 0. 0.]], shape=(4, 3), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1 0 0]
// CHECK-NEXT: [0 0 1]
// CHECK-NEXT: [0 0 0]
// CHECK-NEXT: [0 0 0]], shape=(4, 3), dtype=int32)

func.func @main(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<4x3xf32>, tensor<4x3xi32>) {
  %sm = tfc.softmax %x, axis = 1 : tensor<2x3xf32>
  %lsm = tfc.log_softmax %x, axis = 1 : tensor<2x3xf32>
  %sm0 = tfc.softmax %x, axis = 0 : tensor<2x3xf32>
  %labels = tfc.constant dense<[[0.0, 0.0, 1.0], [0.5, 0.5, 0.0]]> : tensor<2x3xf32>
  %logits = tfc.constant dense<[[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]> : tensor<2x3xf32>
  %xent = tfc.softmax_cross_entropy %labels, %logits : tensor<2x3xf32> -> tensor<2xf32>
  %oh = tfc.one_hot %i, depth = 3 : tensor<4xi32> -> tensor<4x3xf32>
  %ohi = tfc.one_hot %i, depth = 3 : tensor<4xi32> -> tensor<4x3xi32>
  return %sm, %lsm, %sm0, %xent, %oh, %ohi : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<4x3xf32>, tensor<4x3xi32>
}
