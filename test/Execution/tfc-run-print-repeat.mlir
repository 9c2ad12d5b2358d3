// tfc-run --print-full prints every element of a large tensor; --repeat=N
// times N calls after the first on stderr, leaving stdout as without it
// (tfc.print output from the first call only).
// RUN: %python %S/Inputs/npy_tool.py range %t.range.npy 2000
//
// By default 2000 elements are summarised, as NumPy does.
// RUN: tfc-run %s --entry=echo --arg=%t.range.npy | FileCheck %s --check-prefix=SUMMARY
// SUMMARY: tfc.Tensor([   0    1    2 ... 1997 1998 1999], shape=(2000,), dtype=int32)
//
// RUN: tfc-run %s --entry=echo --arg=%t.range.npy --print-full | FileCheck %s --check-prefix=FULL
// RUN: tfc-run %s --entry=echo --arg=%t.range.npy --print-full | %python %S/Inputs/npy_tool.py ints 2000 | FileCheck %s --check-prefix=ALL
// RUN: tfc-run %s --entry=echo --mode=jit --arg=%t.range.npy --print-full | %python %S/Inputs/npy_tool.py ints 2000 | FileCheck %s --check-prefix=ALL
// FULL: tfc.Tensor(
// FULL-NEXT: [   0    1    2    3    4    5    6    7    8    9   10   11   12   13
// FULL-NOT: ...
// FULL: 1000 1001
// FULL-NOT: ...
// FULL: 1997 1998 1999], shape=(2000,), dtype=int32)
// ALL: ints 0..1999 in order
//
// --repeat: the same stdout, one timing line on stderr.
// RUN: tfc-run %s --entry=twice --arg="[1,2]:f32" --repeat=5 2>%t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=TIME-INTERP < %t.err
// RUN: tfc-run %s --entry=twice --mode=jit --arg="[1,2]:f32" --repeat=3 2>%t.jit.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=TIME-JIT < %t.jit.err
// OUT: twice [1. 2.]
// OUT-NEXT: tfc.Tensor([2. 4.], shape=(2,), dtype=float32)
// OUT-NOT: {{.}}
// TIME-INTERP: tfc-run: @twice (interpret): setup {{[0-9]+\.[0-9]+}} ms; 5 timed calls after 1 warm-up: min {{[0-9]+\.[0-9]+}} us, median {{[0-9]+\.[0-9]+}} us, mean {{[0-9]+\.[0-9]+}} us per call
// TIME-INTERP-NOT: {{.}}
// TIME-JIT: tfc-run: @twice (jit, cpu): compile {{[0-9]+\.[0-9]+}} ms; 3 timed calls after 1 warm-up: min {{[0-9]+\.[0-9]+}} us, median {{[0-9]+\.[0-9]+}} us, mean {{[0-9]+\.[0-9]+}} us per call
//
// Without --repeat nothing is timed.
// RUN: tfc-run %s --entry=twice --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NOTIME
// NOTIME-NOT: timed calls
// RUN: not tfc-run %s --entry=twice --arg="[1,2]:f32" --repeat=-1 2>&1 | FileCheck %s --check-prefix=BADREPEAT
// BADREPEAT: '-1' value invalid for uint argument

func.func @echo(%x: tensor<2000xi32>) -> tensor<2000xi32> {
  return %x : tensor<2000xi32>
}

func.func @twice(%x: tensor<2xf32>) -> tensor<2xf32> {
  tfc.print "twice" %x : tensor<2xf32>
  %y = tfc.add %x, %x : tensor<2xf32>
  return %y : tensor<2xf32>
}
