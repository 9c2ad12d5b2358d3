// TFC_DUMP_DIR makes the JIT write the IR after each stage, like XLA's
// --xla_dump_to.
// RUN: rm -rf %t && env TFC_DUMP_DIR=%t tfc-run %s --mode=jit --arg="[1,2]:f32" | FileCheck %s --check-prefix=RESULT
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: cat %t/0-tfc.mlir | FileCheck %s --check-prefix=TFC
// RUN: cat %t/1-optimized.mlir | FileCheck %s --check-prefix=OPT
// RUN: cat %t/3-llvm.ll | FileCheck %s --check-prefix=LLVM

// RESULT: tfc.Tensor([2. 4.], shape=(2,), dtype=float32)
// FILES: 0-tfc.mlir
// FILES: 1-optimized.mlir
// FILES: 2-llvm-dialect.mlir
// FILES: 3-llvm.ll
// TFC: tfc.add
// OPT: linalg.generic
// LLVM: define {{.*}}@double
func.func @double(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfc.add %x, %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
