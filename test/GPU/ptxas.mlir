// The PTX of every kernel of the four programs assembles with ptxas for
// sm_90 (CUDA toolkit needed; UNSUPPORTED without it).
// REQUIRES: ptxas
// RUN: tfc-opt %S/Inputs/programs.mlir --tfc-cuda-pipeline -o %t.mlir
// RUN: rm -rf %t.dir
// RUN: %python %S/Inputs/assemble-ptx.py %ptxas sm_90 %t.mlir %t.dir | FileCheck %s

// CHECK: ptxas ok: chain_kernel (1 entries)
// CHECK-NEXT: ptxas ok: rowsum_kernel (1 entries)
// CHECK-NEXT: ptxas ok: rowsum_kernel_0 (1 entries)
// CHECK-NEXT: ptxas ok: mm_kernel (1 entries)
// CHECK-NEXT: ptxas ok: mm_kernel_1 (1 entries)
// CHECK-NEXT: ptxas ok: loop_kernel (1 entries)
// CHECK-NOT: ptxas ok

// Integer pow, f64 math with dynamic shapes, softmax.
// RUN: tfc-opt %S/Inputs/more.mlir --tfc-cuda-pipeline -o %t.more.mlir
// RUN: rm -rf %t.more.dir
// RUN: %python %S/Inputs/assemble-ptx.py %ptxas sm_90 %t.more.mlir %t.more.dir | FileCheck %s --check-prefix=MORE

// MORE: ptxas ok: ipow_kernel (1 entries)
// MORE-NEXT: ptxas ok: f64math_kernel (1 entries)
// MORE-NEXT: ptxas ok: softmax_kernel (1 entries)
// MORE-COUNT-5: ptxas ok: softmax_kernel_{{[0-9]}} (1 entries)
// MORE-NOT: ptxas ok

// conv2d and both gradients (ConvToLinalg.cpp's linalg forms, tiled like
// any linalg op: the fills, pads, the flipped filter, the strided spread of
// dy and the three convolutions).
// RUN: tfc-opt %S/Inputs/conv.mlir --tfc-cuda-pipeline -o %t.conv.mlir
// RUN: rm -rf %t.conv.dir
// RUN: %python %S/Inputs/assemble-ptx.py %ptxas sm_90 %t.conv.mlir %t.conv.dir | FileCheck %s --check-prefix=CONV

// CONV: ptxas ok: conv_kernel (1 entries)
// CONV-COUNT-9: ptxas ok: conv_kernel_{{[0-9]}} (1 entries)
// CONV-NOT: ptxas ok

// max/avg pooling and their three gradient ops (PoolToLinalg.cpp: one
// kernel each, the window loops inside).
// RUN: tfc-opt %S/Inputs/pool.mlir --tfc-cuda-pipeline -o %t.pool.mlir
// RUN: rm -rf %t.pool.dir
// RUN: %python %S/Inputs/assemble-ptx.py %ptxas sm_90 %t.pool.mlir %t.pool.dir | FileCheck %s --check-prefix=POOL

// POOL: ptxas ok: pool_kernel (1 entries)
// POOL-COUNT-4: ptxas ok: pool_kernel_{{[0-9]}} (1 entries)
// POOL-NOT: ptxas ok

// gather, unsorted_segment_sum and the three Philox draws
// (GatherToLinalg.cpp, RandomToLinalg.cpp: Philox in the kernel's body).
// RUN: tfc-opt %S/Inputs/gather.mlir --tfc-cuda-pipeline -o %t.gather.mlir
// RUN: rm -rf %t.gather.dir
// RUN: %python %S/Inputs/assemble-ptx.py %ptxas sm_90 %t.gather.mlir %t.gather.dir | FileCheck %s --check-prefix=GATHER

// GATHER: ptxas ok: gather_kernel (1 entries)
// GATHER-COUNT-5: ptxas ok: gather_kernel_{{[0-9]}} (1 entries)
// GATHER-NOT: ptxas ok

// cumsum, top_k_indices, sparse_softmax_cross_entropy (one-hot and the
// dense cross entropy's kernels) and erf (ScanToLinalg.cpp: the scans loop
// over the axis inside each thread).
// RUN: tfc-opt %S/Inputs/scan.mlir --tfc-cuda-pipeline -o %t.scan.mlir
// RUN: rm -rf %t.scan.dir
// RUN: %python %S/Inputs/assemble-ptx.py %ptxas sm_90 %t.scan.mlir %t.scan.dir | FileCheck %s --check-prefix=SCAN

// SCAN: ptxas ok: scan_kernel (1 entries)
// SCAN-COUNT-8: ptxas ok: scan_kernel_{{[0-9]}} (1 entries)
// SCAN-NOT: ptxas ok
