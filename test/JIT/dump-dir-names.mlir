// Dump names: the module's first public function (not a private helper
// before it) names the files, its characters that do not belong in a
// portable file name replaced by '_'.
// RUN: rm -rf %t && env TFC_DUMP_DIR=%t tfc-run %s --mode=jit --arg="[1,2]:f32"
// RUN: ls %t | FileCheck %s
// CHECK: 0000-odd_name.0-tfc.mlir
// CHECK-NEXT: 0000-odd_name.1-optimized.mlir
// CHECK-NEXT: 0000-odd_name.2-llvm-dialect.mlir
// CHECK-NEXT: 0000-odd_name.3-llvm.ll
// CHECK-NOT: {{.}}
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfc.mul %x, %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @"odd name"(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @helper(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
