//===- CompiledCalls.h - Library calls made by JIT-compiled code -*- C++
//-*-===//
//
// Entry points that compiled code calls through `llvm.emit_c_interface`
// (memref descriptors passed by pointer); the JIT registers them by name.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_COMPILEDCALLS_H
#define TFC_RUNTIME_COMPILEDCALLS_H

#include <cstdint>

extern "C" {
/// C = A B + beta C on 2-d memref descriptors (tfc-linalg-to-blas).
void _mlir_ciface_tfc_rt_gemm_f32(void *a, void *b, void *c, float beta);
void _mlir_ciface_tfc_rt_gemm_f64(void *a, void *b, void *c, double beta);
/// Size of each OpenMP team compiled code starts: kernels::num_threads()
/// (tfc-openmp-num-threads).
int32_t tfc_rt_num_threads();
}

#endif // TFC_RUNTIME_COMPILEDCALLS_H
