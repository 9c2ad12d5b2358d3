// tfc.philox_random in the interpreter (the runtime's kernel) and compiled
// (a library call of the same kernel): the same bits. Element 0 from key 0,
// counter 0 is Philox4x32-10's first known-answer word 0x6627e8d5, whose top
// 24 bits / 2^24 = 6694888 / 16777216 = 0.39904642...; element 0 from
// counter 1 equals element 1 from counter 0 (the counter is the index).
// RUN: tfc-run %s --mode=interpret | FileCheck %s
// RUN: tfc-run %s --mode=jit | FileCheck %s
// CHECK: tfc.Tensor([0.3990464{{[0-9]*}} [[SECOND:[0-9.]+]]], shape=(2,), dtype=float32)
// CHECK-NEXT: tfc.Tensor({{\[}}[[SECOND]]{{\]}}, shape=(1,), dtype=float32)

func.func @main() -> (tensor<2xf32>, tensor<1xf32>) {
  %s0 = tfc.constant dense<[0, 0]> : tensor<2xi64>
  %s1 = tfc.constant dense<[0, 1]> : tensor<2xi64>
  %a = tfc.philox_random %s0, "uniform" : tensor<2xi64> -> tensor<2xf32>
  %b = tfc.philox_random %s1, "uniform" : tensor<2xi64> -> tensor<1xf32>
  return %a, %b : tensor<2xf32>, tensor<1xf32>
}
