// tfc.philox_random in the interpreter (the runtime's kernel) and compiled
// (a library call of the same kernel): the same bits. A float32 uniform
// takes one word, so elements 0-3 are the four words of block 0 and element
// 4 is word 0 of block 1. From key 0, counter 0, block 0 is Philox4x32-10's
// first known answer (0x6627e8d5, 0xe169c58d, ...): element 0 is
// 0x6627e8 / 2^24 = 0.39904642..., element 1 0xe169c5 / 2^24 =
// 0.88052016...; element 4 equals element 0 drawn from counter 1.
// RUN: tfc-run %s --mode=interpret | FileCheck %s
// RUN: tfc-run %s --mode=jit | FileCheck %s
// The loops the ops lower to (what the GPU pipeline runs), not the kernels:
// RUN: tfc-run %s --mode=jit --kernel-calls=false | FileCheck %s
// CHECK: tfc.Tensor([0.3990464{{[0-9]*}} 0.8805201{{[0-9]*}} {{[0-9.]+}} {{[0-9.]+}} [[FIFTH:[0-9.]+]]], shape=(5,), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[}}[[FIFTH]]{{\]}}, shape=(1,), dtype=float32)

func.func @main() -> (tensor<5xf32>, tensor<1xf32>) {
  %s0 = tfc.constant dense<[0, 0]> : tensor<2xi64>
  %s1 = tfc.constant dense<[0, 1]> : tensor<2xi64>
  %a = tfc.philox_random %s0, "uniform" : tensor<2xi64> -> tensor<5xf32>
  %b = tfc.philox_random %s1, "uniform" : tensor<2xi64> -> tensor<1xf32>
  return %a, %b : tensor<5xf32>, tensor<1xf32>
}
