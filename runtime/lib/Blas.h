//===- Blas.h - The one place tfc picks a GEMM library ----------*- C++ -*-===//
//
// Eager matmul, convolution's im2col GEMMs and the GEMMs compiled code calls
// (CompiledCalls.cpp) all go through gemm() here, so one library choice
// covers them and eager and compiled matmuls of one shape round alike.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_LIB_BLAS_H
#define TFC_RUNTIME_LIB_BLAS_H

#include <cstdint>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {

/// Multiply-adds (m * n * k) from which float32 GEMMs run on oneDNN's sgemm
/// when tfc is built with oneDNN: measured 6-28% faster than OpenBLAS's
/// from about this size on AVX-512 (docs/performance.md, section 15), and
/// slower below it, where OpenBLAS's small-matrix paths win.
constexpr int64_t kDnnlGemmMinMacs = int64_t(1) << 21;

/// Row-major C[m, n] = op(A) op(B) + beta C, op transposing when asked; lda,
/// ldb, ldc are row strides. beta = 0 overwrites C without reading it.
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
          float *c, int64_t ldc);
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const double *a, int64_t lda, const double *b, int64_t ldb,
          double beta, double *c, int64_t ldc);

} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_RUNTIME_LIB_BLAS_H
