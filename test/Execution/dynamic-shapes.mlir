// Dynamic dims: the same function on different argument shapes, including
// empty tensors; a reshape to one dynamic dim and a broadcast whose dynamic
// target dim comes from the operand.
// RUN: tfc-run %s --mode=interpret --arg="[1,2,3]:f32" --arg="[[1,2],[3,4],[5,6]]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[1,2,3]:f32" --arg="[[1,2],[3,4],[5,6]]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=interpret --arg="[]:f32" --arg="[[],[]]:f32" | FileCheck %s --check-prefix=EMPTY
// RUN: tfc-run %s --mode=jit --arg="[]:f32" --arg="[[],[]]:f32" | FileCheck %s --check-prefix=EMPTY

// EMPTY: tfc.Tensor([], shape=(0,), dtype=float32)
// EMPTY-NEXT: tfc.Tensor([0. 0.], shape=(2,), dtype=float32)
// EMPTY-NEXT: tfc.Tensor([], shape=(0,), dtype=float32)
// EMPTY-NEXT: tfc.Tensor([], shape=(2, 0), dtype=float32)

// CHECK: tfc.Tensor([2. 4. 6.], shape=(3,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([ 3.  7. 11.], shape=(3,), dtype=float32)
// CHECK-NEXT: tfc.Tensor([1. 2. 3. 4. 5. 6.], shape=(6,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(
// CHECK-NEXT: {{\[\[}}1. 2. 3.]
// CHECK-NEXT: [1. 2. 3.]], shape=(2, 3), dtype=float32)

func.func @main(%a: tensor<?xf32>, %b: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2x?xf32>) {
  %s = tfc.add %a, %a : tensor<?xf32>
  %r = tfc.reduce_sum %b, axes = [1], keepdims = false : tensor<?x?xf32> -> tensor<?xf32>
  %f = tfc.reshape %b : tensor<?x?xf32> -> tensor<?xf32>
  %t = tfc.broadcast_to %a : tensor<?xf32> to tensor<2x?xf32>
  return %s, %r, %f, %t : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2x?xf32>
}
