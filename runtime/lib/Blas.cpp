//===- Blas.cpp - The one place tfc picks a GEMM library ------------------===//

#include "Blas.h"
#include "Parallel.h"

#include <cblas.h>
#ifdef TFC_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
#endif

namespace tfc::detail {

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const float *a, int64_t lda, const float *b, int64_t ldb, float beta,
          float *c, int64_t ldc) {
#ifdef TFC_HAVE_DNNL
  if (m * n * k >= kDnnlGemmMinMacs) {
    OmpTeamSize team(gNumThreads.load(std::memory_order_relaxed));
    // oneDNN checks its arguments and allocates its scratch before it
    // writes C; should it refuse, OpenBLAS computes the same product.
    if (dnnl_sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, 1.0f, a,
                   lda, b, ldb, beta, c, ldc) == dnnl_success)
      return;
  }
#endif
  cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, int(m), int(n), int(k), 1.0f,
              a, int(lda), b, int(ldb), beta, c, int(ldc));
}

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k,
          const double *a, int64_t lda, const double *b, int64_t ldb,
          double beta, double *c, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans,
              transB ? CblasTrans : CblasNoTrans, int(m), int(n), int(k), 1.0,
              a, int(lda), b, int(ldb), beta, c, int(ldc));
}

} // namespace tfc::detail
