// GPU execution against the interpreter: an elementwise chain, a reduction,
// a matmul and a while loop; the same CHECK lines for both modes. Needs a
// CUDA driver and device.
// REQUIRES: cuda-runtime
// RUN: tfc-run %S/Inputs/small.mlir --mode=interpret --entry=chain --arg="[[0.1,0.2,0.3],[-0.4,0.5,-0.6]]:f32" --arg="[[0.5,0.5,0.5],[1,1,1]]:f32" | FileCheck %s --check-prefix=CHAIN
// RUN: tfc-run %S/Inputs/small.mlir --mode=jit --target=cuda --entry=chain --arg="[[0.1,0.2,0.3],[-0.4,0.5,-0.6]]:f32" --arg="[[0.5,0.5,0.5],[1,1,1]]:f32" | FileCheck %s --check-prefix=CHAIN
// RUN: tfc-run %S/Inputs/small.mlir --mode=interpret --entry=rowsum --arg="[[1,2,3],[4,5,6]]:f32" | FileCheck %s --check-prefix=ROWSUM
// RUN: tfc-run %S/Inputs/small.mlir --mode=jit --target=cuda --entry=rowsum --arg="[[1,2,3],[4,5,6]]:f32" | FileCheck %s --check-prefix=ROWSUM
// RUN: tfc-run %S/Inputs/small.mlir --mode=interpret --entry=mm --arg="[[1,2,3],[4,5,6]]:f32" --arg="[[1,0],[0,1],[1,1]]:f32" | FileCheck %s --check-prefix=MM
// RUN: tfc-run %S/Inputs/small.mlir --mode=jit --target=cuda --entry=mm --arg="[[1,2,3],[4,5,6]]:f32" --arg="[[1,0],[0,1],[1,1]]:f32" | FileCheck %s --check-prefix=MM
// RUN: tfc-run %S/Inputs/small.mlir --mode=interpret --entry=loop --arg="[1,2,3]:f32" --arg="3:i32" | FileCheck %s --check-prefix=LOOP
// RUN: tfc-run %S/Inputs/small.mlir --mode=jit --target=cuda --entry=loop --arg="[1,2,3]:f32" --arg="3:i32" | FileCheck %s --check-prefix=LOOP

// libdevice's tanhf/expf may differ from libm in the last digit.
// CHAIN: tfc.Tensor(
// CHAIN-NEXT: {{\[\[}}1.06176{{[0-9]*}} 1.14923{{[0-9]*}} 1.26553{{[0-9]*}}]
// CHAIN-NEXT: [0.79017{{[0-9]*}}{{ +}}1.88730{{[0-9]*}} 0.79017{{[0-9]*}}{{ *}}]], shape=(2, 3), dtype=float32)
// ROWSUM: tfc.Tensor([ 6. 15.], shape=(2,), dtype=float32)
// MM: tfc.Tensor(
// MM-NEXT: {{\[\[}} 4.  5.]
// MM-NEXT: [10. 11.]], shape=(2, 2), dtype=float32)
// LOOP: tfc.Tensor([ 8. 16. 24.], shape=(3,), dtype=float32)
// LOOP-NEXT: tfc.Tensor(3, shape=(), dtype=int32)
