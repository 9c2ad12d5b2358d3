//===- bench_fusion_ref.h - Hand-written references for bench_fusion ------===//
#ifndef TFC_BENCH_FUSION_REF_H
#define TFC_BENCH_FUSION_REF_H

#include <cstdint>

namespace ref {
/// y = ((tanh(x * a + b) * sigmoid(x) + x) * c - d), fused, all cores.
void chain8(const float *x, float *y, int64_t n, float a, float b, float c,
            float d);
/// One LSTM step: two sgemm calls, then one fused loop over the gates.
void lstmStep(const float *x, const float *h, const float *c, const float *wx,
              const float *wh, const float *bias, float *gates, float *hOut,
              float *cOut, int64_t batch, int64_t input, int64_t hidden);
/// y = x @ w (m x k times k x n).
void sgemm(const float *x, const float *w, float *y, int64_t m, int64_t k,
           int64_t n);
/// STREAM triad c = a + s b, all cores: the bandwidth reference.
void triad(const float *a, const float *b, float *c, int64_t n, float s);
} // namespace ref

#endif // TFC_BENCH_FUSION_REF_H
