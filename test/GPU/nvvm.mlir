// The second stage: kernels lowered to NVVM for sm_90 with PTX 8.0, f32
// transcendentals through libdevice (linked when the toolkit has it).
// RUN: tfc-opt %S/Inputs/programs.mlir --tfc-cuda-nvvm-pipeline | FileCheck %s
// RUN: tfc-opt %S/Inputs/programs.mlir --tfc-cuda-nvvm-pipeline="chip=sm_80 features=+ptx70" | FileCheck %s --check-prefix=SM80

// CHECK: gpu.module @chain_kernel [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"
// CHECK: llvm.func @__nv_tanhf(f32) -> f32
// CHECK: llvm.func @__nv_expf(f32) -> f32
// CHECK: llvm.func @chain_kernel({{.*}}) attributes {gpu.kernel, {{.*}}nvvm.kernel
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.fadd
// CHECK: llvm.fmul
// CHECK: llvm.call @__nv_tanhf
// CHECK: llvm.call @__nv_expf
// CHECK: llvm.store

// CHECK: gpu.module @rowsum_kernel_0
// CHECK: llvm.func @rowsum_kernel({{.*}}nvvm.kernel
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.fadd

// CHECK: gpu.module @mm_kernel_1
// CHECK: llvm.func @mm_kernel({{.*}}nvvm.kernel
// CHECK: llvm.fmul
// CHECK: llvm.fadd

// CHECK: gpu.module @loop_kernel
// CHECK: llvm.func @loop_kernel({{.*}}nvvm.kernel

// SM80: #nvvm.target<O = 3, chip = "sm_80", features = "+ptx70"
