// tfc-run --output: results and variables' final values as .npy files
// (tfc::save_npy), read back by tfc-run --arg (tfc::load_npy). Several
// outputs: STEM.I.npy for result I, STEM.varN.npy for !tfc.var parameter N;
// one result and no variable: PATH itself.
// RUN: rm -rf %t && mkdir -p %t
// RUN: tfc-run %s --entry=step --arg="[[1,2],[3,4]]:f32" --arg="[10,-20]:i64" --output=%t/out.npy | FileCheck %s --check-prefix=STEP
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// STEP: tfc.Tensor(
// STEP-NEXT: {{\[\[}} 1.  4.]
// STEP-NEXT: [ 9. 16.]], shape=(2, 2), dtype=float32)
// STEP-NEXT: tfc.Tensor([ True False  True False], shape=(4,), dtype=bool)
// STEP-NEXT: var 1: tfc.Tensor([ 20 -40], shape=(2,), dtype=int64)
// FILES: out.0.npy
// FILES-NEXT: out.1.npy
// FILES-NEXT: out.var1.npy
// FILES-NOT: tmp
//
// Each file reads back as the value printed above.
// RUN: tfc-run %s --entry=echo_f32 --arg=%t/out.0.npy | FileCheck %s --check-prefix=BACK0
// BACK0: tfc.Tensor(
// BACK0-NEXT: {{\[\[}} 1.  4.]
// BACK0-NEXT: [ 9. 16.]], shape=(2, 2), dtype=float32)
// RUN: tfc-run %s --entry=echo_i1 --arg=%t/out.1.npy | FileCheck %s --check-prefix=BACK1
// BACK1: tfc.Tensor([ True False  True False], shape=(4,), dtype=bool)
// RUN: tfc-run %s --entry=echo_i64 --arg=%t/out.var1.npy | FileCheck %s --check-prefix=BACKV
// BACKV: tfc.Tensor([ 20 -40], shape=(2,), dtype=int64)
//
// The JIT writes the same bytes; -o is --output; a stem without .npy works.
// RUN: tfc-run %s --mode=jit --entry=step --arg="[[1,2],[3,4]]:f32" --arg="[10,-20]:i64" -o %t/jit > /dev/null
// RUN: cmp %t/out.0.npy %t/jit.0.npy
// RUN: cmp %t/out.1.npy %t/jit.1.npy
// RUN: cmp %t/out.var1.npy %t/jit.var1.npy
//
// One result: PATH itself, a 0-d tensor here, overwritten atomically.
// RUN: tfc-run %s --entry=total --arg="[[1,2],[3,4.5]]:f32" -o %t/total.npy | FileCheck %s --check-prefix=TOTAL
// RUN: tfc-run %s --entry=total --arg="[[1,2],[3,4.5]]:f32" -o %t/total.npy > /dev/null
// RUN: tfc-run %s --entry=echo_scalar --arg=%t/total.npy | FileCheck %s --check-prefix=TOTAL
// TOTAL: tfc.Tensor(10.5, shape=(), dtype=float32)
//
// An output file that cannot be written is an error after the results.
// RUN: not tfc-run %s --entry=total --arg="[[1,2],[3,4]]:f32" -o %t/missing/dir/x.npy 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: tfc-run: error: save_npy: cannot write '{{.*}}missing/dir/x.npy': No such file or directory

func.func @step(%x: tensor<2x2xf32>, %v: !tfc.var<tensor<2xi64>>) -> (tensor<2x2xf32>, tensor<4xi1>) {
  %r = tfc.var_read %v : !tfc.var<tensor<2xi64>>
  %d = tfc.add %r, %r : tensor<2xi64>
  tfc.var_assign %v, %d : !tfc.var<tensor<2xi64>>
  %sq = tfc.mul %x, %x : tensor<2x2xf32>
  %flat = tfc.reshape %x : tensor<2x2xf32> -> tensor<4xf32>
  %two = tfc.constant dense<2.0> : tensor<4xf32>
  %odd = tfc.mod %flat, %two : tensor<4xf32>
  %b = tfc.cast %odd : tensor<4xf32> to tensor<4xi1>
  return %sq, %b : tensor<2x2xf32>, tensor<4xi1>
}

func.func @total(%x: tensor<2x2xf32>) -> tensor<f32> {
  %s = tfc.reduce_sum %x, axes = [0, 1], keepdims = false : tensor<2x2xf32> -> tensor<f32>
  return %s : tensor<f32>
}

func.func @echo_f32(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  return %x : tensor<2x2xf32>
}
func.func @echo_i1(%x: tensor<4xi1>) -> tensor<4xi1> {
  return %x : tensor<4xi1>
}
func.func @echo_i64(%x: tensor<2xi64>) -> tensor<2xi64> {
  return %x : tensor<2xi64>
}
func.func @echo_scalar(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
