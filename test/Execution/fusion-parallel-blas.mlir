// Fusion, parallel loops and library matmul together: an outer product and
// a 64x64x64 matmul (both large enough for OpenBLAS), a broadcast to
// 8x64x64 (32768 elements: run on all cores) feeding one fused loop, and a
// reduction absorbing its producers. Values are small integers, so the
// interpreter's and the JIT's summation orders agree exactly; the expected
// values were computed independently (exact integer arithmetic in Python).
// RUN: tfc-run %s --mode=interpret --arg="[0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0]:f32" --arg="[1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1]:f32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,0]:f32" --arg="[1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1,0,2,1]:f32" | FileCheck %s
// RUN: tfc-opt %s --tfc-cpu-pipeline | FileCheck %s --check-prefix=IR

// IR: llvm.call @_mlir_ciface_tfc_rt_gemm_f32
// Teams sized by kernels::set_num_threads at run time.
// IR: %[[N:.*]] = llvm.call @tfc_rt_num_threads() : () -> i32
// IR-NEXT: omp.parallel num_threads(%[[N]] : i32)

// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[}} 512. 60902. 135990. 512. 60902. 135990. 512. 60902. 135990.
// CHECK: shape=(64,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(4145996.0, shape=(), dtype=float32)

func.func @main(%x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<f32>) {
  %xc = tfc.reshape %x : tensor<64xf32> -> tensor<64x1xf32>
  %yr = tfc.reshape %y : tensor<64xf32> -> tensor<1x64xf32>
  %o = tfc.matmul %xc, %yr : (tensor<64x1xf32>, tensor<1x64xf32>) -> tensor<64x64xf32>
  %m = tfc.matmul %o, %o : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %b = tfc.broadcast_to %m : tensor<64x64xf32> to tensor<8x64x64xf32>
  %scale = tfc.constant dense<[[[0.0]], [[1.0]], [[2.0]], [[3.0]], [[4.0]], [[5.0]], [[6.0]], [[7.0]]]> : tensor<8x1x1xf32>
  %sb = tfc.broadcast_to %scale : tensor<8x1x1xf32> to tensor<8x64x64xf32>
  %c100 = tfc.constant dense<100.0> : tensor<8x64x64xf32>
  %half = tfc.constant dense<0.5> : tensor<8x64x64xf32>
  %one = tfc.constant dense<1.0> : tensor<8x64x64xf32>
  %0 = tfc.mul %b, %sb : tensor<8x64x64xf32>
  %1 = tfc.sub %0, %c100 : tensor<8x64x64xf32>
  %2 = tfc.relu %1 : tensor<8x64x64xf32>
  %3 = tfc.mul %2, %half : tensor<8x64x64xf32>
  %4 = tfc.add %3, %one : tensor<8x64x64xf32>
  %s = tfc.reduce_sum %4, axes = [0, 2], keepdims = false : tensor<8x64x64xf32> -> tensor<64xf32>
  %t = tfc.reduce_sum %s, axes = [0], keepdims = false : tensor<64xf32> -> tensor<f32>
  return %s, %t : tensor<64xf32>, tensor<f32>
}
