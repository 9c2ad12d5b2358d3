// The first stage of tfc-cuda-pipeline: host functions that take their
// arguments in managed memory (the JIT's caller puts them there), launch
// outlined kernels and return managed buffers that the caller owns (results
// stay on the device); one kernel per elementwise group.
// RUN: tfc-opt %S/Inputs/programs.mlir --tfc-cuda-outline-pipeline | FileCheck %s

// CHECK-LABEL: func.func @chain(
// CHECK-SAME: %[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>) -> memref<4x8xf32>
// No copy in: the kernel reads the arguments.
// CHECK-NOT: memref.copy
// CHECK: %[[OUT:.*]] = gpu.alloc host_shared () : memref<4x8xf32>
// The whole add-mul-tanh-exp chain is one launch.
// CHECK-NEXT: gpu.launch_func @chain_kernel::@chain_kernel blocks in ({{.*}}) threads in ({{.*}}) args({{.*}}%[[A]] : memref<4x8xf32>, %[[B]] : memref<4x8xf32>, %[[OUT]] : memref<4x8xf32>)
// No copy out and no free: the caller adopts the managed result.
// CHECK-NOT: gpu.launch_func
// CHECK-NOT: memref.copy
// CHECK-NOT: gpu.dealloc
// CHECK: %[[OK:.*]] = call @tfc_cuda_ok()
// CHECK-NEXT: %[[MSG:.*]] = call @tfc_cuda_error_message()
// CHECK-NEXT: call @tfc_rt_assert(%[[OK]], %[[MSG]])
// CHECK-NEXT: return %[[OUT]]

// CHECK: gpu.module @chain_kernel
// CHECK: gpu.func @chain_kernel({{.*}}) kernel
// CHECK: gpu.thread_id x
// CHECK: scf.if
// CHECK: arith.addf
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: math.tanh
// CHECK-NEXT: math.exp
// CHECK-NEXT: memref.store

// The reduction: a fill kernel, then one thread per row looping over the
// reduced dimension.
// CHECK-LABEL: func.func @rowsum(
// CHECK: gpu.launch_func @rowsum_kernel::@rowsum_kernel
// CHECK: gpu.launch_func @rowsum_kernel_0::@rowsum_kernel
// CHECK: gpu.module @rowsum_kernel_0
// CHECK: gpu.func @rowsum_kernel
// CHECK: scf.for
// CHECK: memref.load
// CHECK: arith.addf
// CHECK: memref.store

// The matmul: parallel (i, j) across threads, k a per-thread loop.
// CHECK-LABEL: func.func @mm(
// CHECK: gpu.launch_func @mm_kernel::@mm_kernel
// CHECK: gpu.launch_func @mm_kernel_1::@mm_kernel
// CHECK: gpu.module @mm_kernel_1
// CHECK: gpu.func @mm_kernel
// CHECK: arith.remsi %{{.*}}thread_id_x
// CHECK: arith.divsi %{{.*}}thread_id_x
// CHECK: scf.for
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf

// The loop stays on the host: its condition is read from managed memory,
// its body launches the kernel.
// CHECK-LABEL: func.func @loop(
// CHECK: scf.while
// CHECK: memref.load
// CHECK: arith.cmpi slt
// CHECK: scf.condition
// CHECK: } do {
// CHECK: gpu.launch_func @loop_kernel::@loop_kernel
// CHECK: scf.yield
// CHECK: call @tfc_cuda_ok()
// CHECK: gpu.module @loop_kernel
