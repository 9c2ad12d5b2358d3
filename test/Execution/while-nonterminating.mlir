// A tfc.while that never ends must not become one that returns. MLIR erases
// side-effect-free loops whose results are unused or equal their inits (the
// JIT used to return the input at once); tfc.while declares a write to the
// tfc.loop-termination resource and its lowering keeps an empty
// side-effecting llvm.inline_asm in the loop, so the loops survive.
// RUN: tfc-opt %s --canonicalize | FileCheck %s --check-prefix=TFC
// RUN: tfc-opt %s --tfc-cpu-pipeline | FileCheck %s --check-prefix=LLVM
// The loops still end when their condition says so ...
// RUN: tfc-run %s --mode=interpret --entry=unused --arg=1.5:f32 --arg=2:f32 | FileCheck %s --check-prefix=ENDS
// RUN: tfc-run %s --mode=jit --entry=unused --arg=1.5:f32 --arg=2:f32 | FileCheck %s --check-prefix=ENDS
// ... and run forever when it never does (the JIT run above put the module
// in the compile cache, so the runs below spend their time in the loop).
// RUN: %python %S/Inputs/expect-timeout.py 4 tfc-run %s --mode=jit --entry=spin --arg=1:f32 | FileCheck %s --check-prefix=FOREVER
// RUN: %python %S/Inputs/expect-timeout.py 4 tfc-run %s --mode=jit --entry=unused --arg=0.5:f32 --arg=2:f32 | FileCheck %s --check-prefix=FOREVER
// RUN: %python %S/Inputs/expect-timeout.py 2 tfc-run %s --mode=interpret --entry=spin --arg=1:f32 | FileCheck %s --check-prefix=FOREVER

// ENDS: tfc.Tensor(1.5, shape=(), dtype=float32)
// FOREVER: still running after

// TFC-LABEL: func.func @spin
// TFC: tfc.while
// TFC-LABEL: func.func @unused
// TFC: tfc.while

// LLVM-LABEL: llvm.func @spin
// LLVM: llvm.inline_asm has_side_effects
// LLVM-LABEL: llvm.func @unused
// LLVM: llvm.inline_asm has_side_effects

// Loops forever: the condition always holds and the body changes nothing.
func.func @spin(%x: tensor<f32>) -> tensor<f32> {
  %r = tfc.while (%a = %x) : (tensor<f32>) -> tensor<f32> {
    %t = tfc.constant dense<true> : tensor<i1>
    tfc.condition(%t) %a : tensor<f32>
  } do {
  ^bb0(%b: tensor<f32>):
    tfc.yield %b : tensor<f32>
  }
  return %r : tensor<f32>
}

// Squares a until it reaches lim (forever when 0 <= a < 1 < lim); the
// result is unused.
func.func @unused(%x: tensor<f32>, %lim: tensor<f32>) -> tensor<f32> {
  %r = tfc.while (%a = %x) : (tensor<f32>) -> tensor<f32> {
    %c = tfc.cmp lt, %a, %lim : tensor<f32>
    tfc.condition(%c) %a : tensor<f32>
  } do {
  ^bb0(%b: tensor<f32>):
    %s = tfc.mul %b, %b : tensor<f32>
    tfc.yield %s : tensor<f32>
  }
  return %x : tensor<f32>
}
