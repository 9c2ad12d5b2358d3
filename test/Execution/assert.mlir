// A failing tfc.assert stops the call: tfc-run prints the message and the
// assert's file:line on stderr, exits 1, and prints no result. A passing
// assert does nothing.
// RUN: not tfc-run %s --mode=interpret --arg="-2:f32" 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not tfc-run %s --mode=jit --arg="-2:f32" 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: tfc-run %s --mode=interpret --arg="4:f32" | FileCheck %s --check-prefix=PASS
// RUN: tfc-run %s --mode=jit --arg="4:f32" | FileCheck %s --check-prefix=PASS

// FAIL: tfc-run: error: x must be non-negative (at {{.*}}:[[# @LINE + 8]])
// FAIL-NOT: tfc.Tensor

// PASS: tfc.Tensor(2.0, shape=(), dtype=float32)

func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %zero = tfc.constant dense<0.0> : tensor<f32>
  %ok = tfc.cmp ge, %x, %zero : tensor<f32>
  tfc.assert %ok, "x must be non-negative" : tensor<i1>
  %r = tfc.sqrt %x : tensor<f32>
  return %r : tensor<f32>
}
