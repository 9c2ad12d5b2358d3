// TFC_TIMING=1 (or TFC_LOG=timing): one stderr line per compile naming the
// function, with the wall time of each stage (no trace figure: the module
// was not traced). Unset, nothing is printed.
// RUN: env TFC_TIMING=1 tfc-run %s --mode=jit --arg="[1,2]:f32" 2>&1 >/dev/null | FileCheck %s
// RUN: env TFC_LOG=timing tfc-run %s --mode=jit --arg="[1,2]:f32" 2>&1 >/dev/null | FileCheck %s
// RUN: env -u TFC_TIMING -u TFC_LOG tfc-run %s --mode=jit --arg="[1,2]:f32" 2>&1 >/dev/null | FileCheck %s --check-prefix=OFF --allow-empty
// CHECK: tfc timing 'square' (ms, wall): verify+print {{[0-9.]+}} inline+promote {{[0-9.]+}} to-linalg {{.*}} | total {{[0-9.]+}}
// CHECK-NOT: tfc timing
// OFF-NOT: tfc
func.func @square(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfc.mul %x, %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
