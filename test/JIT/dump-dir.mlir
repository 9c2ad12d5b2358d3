// TFC_DUMP_DIR makes the JIT write the IR after each stage, like XLA's
// --xla_dump_to: one set of files per compile, <NNNN>-<function>.<index>-
// <stage>, the MLIR with locations (docs/environment.md).
// RUN: rm -rf %t && env TFC_DUMP_DIR=%t tfc-run %s --mode=jit --arg="[1,2]:f32" | FileCheck %s --check-prefix=RESULT
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: cat %t/0000-double.0-tfc.mlir | FileCheck %s --check-prefix=TFC
// RUN: cat %t/0000-double.1-optimized.mlir | FileCheck %s --check-prefix=OPT
// RUN: cat %t/0000-double.2-llvm-dialect.mlir | FileCheck %s --check-prefix=LLVMDIALECT
// RUN: cat %t/0000-double.3-llvm.ll | FileCheck %s --check-prefix=LLVM

// RESULT: tfc.Tensor([2. 4.], shape=(2,), dtype=float32)
// FILES: 0000-double.0-tfc.mlir
// FILES-NEXT: 0000-double.1-optimized.mlir
// FILES-NEXT: 0000-double.2-llvm-dialect.mlir
// FILES-NEXT: 0000-double.3-llvm.ll
// FILES-NOT: {{.}}
// The source lines of this file survive each MLIR stage.
// TFC: tfc.add {{.*}} loc("{{.*}}dump-dir.mlir":{{[0-9]+}}:8)
// OPT: linalg.generic
// OPT: arith.addf {{.*}} loc("{{.*}}dump-dir.mlir":{{[0-9]+}}:8)
// LLVMDIALECT: llvm.fadd {{.*}} loc(
// LLVMDIALECT-SAME: dump-dir.mlir
// LLVM: define {{.*}}@double
func.func @double(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfc.add %x, %x : tensor<2xf32>
  return %0 : tensor<2xf32>
}
