// The whole tfc-cuda-pipeline: host code in the LLVM dialect calling the
// mgpu* runtime (runtime/cuda), kernels as PTX in gpu.binary ops.
// RUN: tfc-opt %S/Inputs/programs.mlir --tfc-cuda-pipeline | FileCheck %s

// CHECK-LABEL: llvm.func @chain(
// The result is managed memory (mgpuMemAlloc(size, stream, 1)); arguments
// arrive in managed memory and are not copied.
// CHECK-NOT: "llvm.intr.memcpy"
// CHECK: %[[SHARED:.*]] = llvm.mlir.constant(1 : i8) : i8
// CHECK: llvm.call @mgpuMemAlloc(%{{.*}}, %{{.*}}, %[[SHARED]])
// CHECK-NOT: "llvm.intr.memcpy"
// CHECK: gpu.launch_func @chain_kernel::@chain_kernel
// The result is returned as it is (the caller adopts it): no copy, no free.
// CHECK-NOT: "llvm.intr.memcpy"
// CHECK-NOT: llvm.call @mgpuMemFree
// CHECK: llvm.call @tfc_cuda_ok()
// CHECK: llvm.call @tfc_rt_assert

// CHECK: gpu.binary @chain_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80"{{.*}}assembly = "{{.*}}.version 8.0{{.*}}.target sm_90{{.*}}.entry chain_kernel

// CHECK-LABEL: llvm.func @loop(
// CHECK: llvm.cond_br
// CHECK: gpu.launch_func @loop_kernel::@loop_kernel
// CHECK: gpu.binary @loop_kernel

// CHECK-DAG: llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
// CHECK-DAG: llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
