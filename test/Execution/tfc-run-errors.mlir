// tfc-run on bad input: each case prints one clear error on stderr and exits
// with a failure code (`not` also fails the test on a crash).
//
// Missing input file.
// RUN: not tfc-run %t.missing.mlir --mode=interpret 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: tfc-run: error: cannot open '{{.*}}.missing.mlir'
//
// IR that does not verify: the diagnostic with its location.
// RUN: not tfc-run %S/Inputs/bad-syntax.mlir --mode=interpret --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=BADIR
// RUN: not tfc-run %S/Inputs/bad-syntax.mlir --mode=jit --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=BADIR
// BADIR: tfc-run: error: failed to parse the tfc module:
// BADIR-NEXT: bad-syntax.mlir":2:{{[0-9]+}}): error: use of value '%x' expects different type than prior uses
//
// Bad literals.
// RUN: not tfc-run %s --arg="[[1,2],[3]]:f32" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=RAGGED
// RAGGED: tfc-run: error: --arg #0: bad tensor literal '{{\[\[}}1,2],[3]]:f32': rows at depth 1 have 2 and 1 elements (ragged)
// RUN: not tfc-run %s --arg="[1,[2]]:f32" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=DEPTH
// DEPTH: bad tensor literal '[1,[2]]:f32': rows nest to different depths (ragged)
// RUN: not tfc-run %s --arg="[1,2]" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NODTYPE
// NODTYPE: bad tensor literal '[1,2]': expected VALUE:DTYPE (e.g. {{\[\[}}1,2],[3,4]]:f32 or 3:i32) or the path of a .npy file
// RUN: not tfc-run %s --arg="[1,2]:f16" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=BADDTYPE
// BADDTYPE: bad tensor literal '[1,2]:f16': unknown dtype 'f16' (expected i1, i32, i64, f32 or f64)
// RUN: not tfc-run %s --arg="[1,2]:f32" --arg="[1,x]:f32" 2>&1 | FileCheck %s --check-prefix=NOTNUM
// NOTNUM: tfc-run: error: --arg #1: bad tensor literal '[1,x]:f32': 'x' is not a number
// RUN: not tfc-run %s --arg="[1,2:f32" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=UNCLOSED
// UNCLOSED: bad tensor literal '[1,2:f32': missing ']'
// RUN: not tfc-run %s --arg="3000000000:i32" 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: bad tensor literal '3000000000:i32': '3000000000' does not fit in int32
// RUN: not tfc-run %s --arg="1.5:i64" 2>&1 | FileCheck %s --check-prefix=NOTINT
// NOTINT: bad tensor literal '1.5:i64': '1.5' is not an integer
// RUN: not tfc-run %s --arg="[true,2]:i1" 2>&1 | FileCheck %s --check-prefix=NOTBOOL
// NOTBOOL: bad tensor literal '[true,2]:i1': '2' is not a bool (true, false, 1 or 0)
//
// Wrong number of arguments.
// RUN: not tfc-run %s --mode=interpret --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not tfc-run %s --mode=jit --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: tfc-run: error: @main takes 2 arguments, but 1 --arg values were given
//
// Wrong dtype and wrong shape.
// RUN: not tfc-run %s --mode=interpret --arg="[1,2]:i32" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not tfc-run %s --mode=jit --arg="[1,2]:i32" --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: tfc-run: error: {{.*}}@main: argument 0 expected float32 (2,), got int32 (2,)
// RUN: not tfc-run %s --mode=interpret --arg="[1,2]:f32" --arg="[[1,2]]:f32" 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not tfc-run %s --mode=jit --arg="[1,2]:f32" --arg="[[1,2]]:f32" 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: tfc-run: error: {{.*}}@main: argument 1 expected float32 (2,), got float32 (1, 2)
//
// Unknown entry function and unknown mode.
// RUN: not tfc-run %s --entry=nope 2>&1 | FileCheck %s --check-prefix=ENTRY
// ENTRY: tfc-run: error: no function @nope with a body in '{{.*}}tfc-run-errors.mlir'
// RUN: not tfc-run %s --mode=fast 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: Cannot find option named 'fast'!
//
// Bad .npy files.
// RUN: not tfc-run %s --arg=%t.missing.npy --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NPYMISSING
// NPYMISSING: tfc-run: error: --arg #0: cannot open '{{.*}}.missing.npy'
// RUN: not tfc-run %s --arg=%S/Inputs/not_npy.npy --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NPYMAGIC
// NPYMAGIC: not_npy.npy' as .npy: not a .npy file (missing the \x93NUMPY magic)
// (Big-endian data is not an error: it is converted on reading.)
// RUN: tfc-run %s --arg=%S/Inputs/big_endian.npy --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NPYBIG
// NPYBIG: tfc.Tensor([2. 4.], shape=(2,), dtype=float32)
// RUN: not tfc-run %s --arg=%S/Inputs/fortran.npy --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NPYFORTRAN
// NPYFORTRAN: fortran.npy' as .npy: Fortran-order arrays are not supported
// RUN: not tfc-run %s --arg=%S/Inputs/truncated.npy --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NPYTRUNC
// NPYTRUNC: truncated.npy' as .npy: the data has 20 bytes, but float32 (2, 3) needs 24
// RUN: not tfc-run %s --arg=%S/Inputs/uint16.npy --arg="[1,2]:f32" 2>&1 | FileCheck %s --check-prefix=NPYDTYPE
// NPYDTYPE: uint16.npy' as .npy: unsupported dtype '<u2' (supported: <f4 <f8 <i4 <i8 |b1, and big-endian >f4 >f8 >i4 >i8)

func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfc.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
}
