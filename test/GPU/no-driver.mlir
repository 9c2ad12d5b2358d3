// Target::CUDA without a usable driver is a clear error, never a crash.
// TFC_CUDA_DRIVER points the runtime at a library that does not exist, so
// this runs on every machine; the second RUN uses the real default name
// where no driver is installed.
// RUN: env TFC_CUDA_DRIVER=%t.missing/libcuda.so.1 not tfc-run %S/Inputs/small.mlir --mode=jit --target=cuda --entry=rowsum --arg="[[1,2,3],[4,5,6]]:f32" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: env TFC_CUDA_DRIVER=%t.missing/libcuda.so.1 tfc-run %S/Inputs/small.mlir --mode=jit --target=cpu --entry=rowsum --arg="[[1,2,3],[4,5,6]]:f32" | FileCheck %s --check-prefix=CPU

// MISSING: tfc-run: error: cannot compile for Target::CUDA: the CUDA driver ({{.*}}.missing/libcuda.so.1) was not found
// MISSING-SAME: compile for Target::CPU instead
// CPU: tfc.Tensor([ 6. 15.], shape=(2,), dtype=float32)
