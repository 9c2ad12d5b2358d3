// tfc.all_reduce in one process (no communicator: one replica) is the
// identity, in the interpreter (the runtime's kernel) and in compiled code
// (the runtime call), for a contiguous operand, a strided one (a column
// slice: copied element by element) and a dynamic one. The two-replica
// sums are tested under mpirun (test/Distribute).
// RUN: tfc-run %s --mode=interpret --arg="[[1,2,3],[4,5,6]]:f32" --arg="[7,8]:i64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1,2,3],[4,5,6]]:f32" --arg="[7,8]:i64" | FileCheck %s
// CHECK: [4. 5. 6.]
// CHECK: {{\[\[}}2. 3.]
// CHECK-NEXT: [5. 6.]]
// CHECK: tfc.Tensor([7 8], shape=(2,), dtype=int64)
func.func @main(%x: tensor<2x3xf32>, %y: tensor<?xi64>) -> (tensor<2x3xf32>, tensor<2x2xf32>, tensor<?xi64>) {
  %s = tfc.all_reduce %x, "sum" : tensor<2x3xf32>
  %c = tfc.slice %x, begin = [0, 1], size = [2, 2] : tensor<2x3xf32> -> tensor<2x2xf32>
  %m = tfc.all_reduce %c, "mean" : tensor<2x2xf32>
  %i = tfc.all_reduce %y, "sum" : tensor<?xi64>
  return %s, %m, %i : tensor<2x3xf32>, tensor<2x2xf32>, tensor<?xi64>
}
