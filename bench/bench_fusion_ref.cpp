//===- bench_fusion_ref.cpp - Hand-written references for bench_fusion ----===//
//
// What a careful C++ programmer writes by hand: one fused loop over the
// data, compiled with -O3 -march=native -ffast-math (so glibc's vector math
// library vectorizes tanhf/expf) and split across the cores with OpenMP;
// OpenBLAS for the matmuls. Its own translation unit because of those flags.
//
//===----------------------------------------------------------------------===//

#include "bench_fusion_ref.h"

#include <cblas.h>

#include <cmath>

namespace ref {

// y = ((tanh(x * a + b) * sigmoid(x) + x) * c - d): 8 tfc ops.
void chain8(const float *x, float *y, int64_t n, float a, float b, float c,
            float d) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    float v = x[i];
    float s = 1.0f / (1.0f + std::exp(-v));
    y[i] = (std::tanh(v * a + b) * s + v) * c - d;
  }
}

float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }

void lstmStep(const float *x, const float *h, const float *c, const float *wx,
              const float *wh, const float *bias, float *gates, float *hOut,
              float *cOut, int64_t batch, int64_t input, int64_t hidden) {
  int64_t g4 = 4 * hidden;
  if (batch == 1) {
    cblas_sgemv(CblasRowMajor, CblasTrans, int(input), int(g4), 1.0f, wx,
                int(g4), x, 1, 0.0f, gates, 1);
    cblas_sgemv(CblasRowMajor, CblasTrans, int(hidden), int(g4), 1.0f, wh,
                int(g4), h, 1, 1.0f, gates, 1);
  } else {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(batch), int(g4),
                int(input), 1.0f, x, int(input), wx, int(g4), 0.0f, gates,
                int(g4));
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(batch), int(g4),
                int(hidden), 1.0f, h, int(hidden), wh, int(g4), 1.0f, gates,
                int(g4));
  }
  for (int64_t r = 0; r < batch; ++r) {
    const float *gr = gates + r * g4;
#pragma omp simd
    for (int64_t j = 0; j < hidden; ++j) {
      float i = 1.0f / (1.0f + std::exp(-(gr[j] + bias[j])));
      float f = 1.0f / (1.0f + std::exp(-(gr[hidden + j] + bias[hidden + j])));
      float g = std::tanh(gr[2 * hidden + j] + bias[2 * hidden + j]);
      float o = 1.0f /
                (1.0f + std::exp(-(gr[3 * hidden + j] + bias[3 * hidden + j])));
      float c2 = f * c[r * hidden + j] + i * g;
      cOut[r * hidden + j] = c2;
      hOut[r * hidden + j] = o * std::tanh(c2);
    }
  }
}

void sgemm(const float *x, const float *w, float *y, int64_t m, int64_t k,
           int64_t n) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k),
              1.0f, x, int(k), w, int(n), 0.0f, y, int(n));
}

void triad(const float *a, const float *b, float *c, int64_t n, float s) {
#pragma omp parallel for simd schedule(static)
  for (int64_t i = 0; i < n; ++i)
    c[i] = a[i] + s * b[i];
}

} // namespace ref
