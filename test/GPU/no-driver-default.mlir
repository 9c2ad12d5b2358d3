// Where no CUDA driver is installed, the error names libcuda.so.1.
// UNSUPPORTED: cuda-runtime
// RUN: not tfc-run %S/Inputs/small.mlir --mode=jit --target=cuda --entry=mm --arg="[[1,2,3],[4,5,6]]:f32" --arg="[[1,0],[0,1],[1,1]]:f32" 2>&1 | FileCheck %s

// CHECK: tfc-run: error: cannot compile for Target::CUDA: the CUDA driver
