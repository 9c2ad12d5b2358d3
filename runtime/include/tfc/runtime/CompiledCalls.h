//===- CompiledCalls.h - Library calls of JIT-compiled code -----*- C++ -*-===//
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
/// Convolutions (tfc-linalg-to-blas, ConvKernels.h): 4-d memref descriptors
/// of the (already padded) NHWC input, the HWIO filter and the NHWC output
/// (overwritten), then the strides and dilations (height, width).
void _mlir_ciface_tfc_rt_conv2d_f32(void *input, void *filter, void *output,
                                    int64_t sh, int64_t sw, int64_t dh,
                                    int64_t dw);
void _mlir_ciface_tfc_rt_conv2d_f64(void *input, void *filter, void *output,
                                    int64_t sh, int64_t sw, int64_t dh,
                                    int64_t dw);
/// The filter gradient: the padded input, dy, and the HWIO result
/// (overwritten).
void _mlir_ciface_tfc_rt_conv2d_backprop_filter_f32(void *input, void *dy,
                                                    void *filter, int64_t sh,
                                                    int64_t sw, int64_t dh,
                                                    int64_t dw);
void _mlir_ciface_tfc_rt_conv2d_backprop_filter_f64(void *input, void *dy,
                                                    void *filter, int64_t sh,
                                                    int64_t sw, int64_t dh,
                                                    int64_t dw);
void _mlir_ciface_tfc_rt_gemm_f64(void *a, void *b, void *c, double beta);
/// Pooling (tfc-linalg-to-blas, PoolKernels.h): 4-d memref descriptors of
/// the operands (max_pool2d/avg_pool2d: the input; max_pool2d_grad: the
/// input and dy; max_pool2d_grad_grad: the input and grad;
/// avg_pool2d_grad: dy), then the result (overwritten), then the window
/// (kh, kw), the strides and the padding before (top, left).
void _mlir_ciface_tfc_rt_max_pool2d_f32(void *a, void *out, int64_t kh,
                                        int64_t kw, int64_t sh, int64_t sw,
                                        int64_t pt, int64_t pl);
void _mlir_ciface_tfc_rt_max_pool2d_f64(void *a, void *out, int64_t kh,
                                        int64_t kw, int64_t sh, int64_t sw,
                                        int64_t pt, int64_t pl);
void _mlir_ciface_tfc_rt_avg_pool2d_f32(void *a, void *out, int64_t kh,
                                        int64_t kw, int64_t sh, int64_t sw,
                                        int64_t pt, int64_t pl);
void _mlir_ciface_tfc_rt_avg_pool2d_f64(void *a, void *out, int64_t kh,
                                        int64_t kw, int64_t sh, int64_t sw,
                                        int64_t pt, int64_t pl);
void _mlir_ciface_tfc_rt_max_pool2d_grad_f32(void *a, void *b, void *out,
                                             int64_t kh, int64_t kw, int64_t sh,
                                             int64_t sw, int64_t pt,
                                             int64_t pl);
void _mlir_ciface_tfc_rt_max_pool2d_grad_f64(void *a, void *b, void *out,
                                             int64_t kh, int64_t kw, int64_t sh,
                                             int64_t sw, int64_t pt,
                                             int64_t pl);
void _mlir_ciface_tfc_rt_max_pool2d_grad_grad_f32(void *a, void *b, void *out,
                                                  int64_t kh, int64_t kw,
                                                  int64_t sh, int64_t sw,
                                                  int64_t pt, int64_t pl);
void _mlir_ciface_tfc_rt_max_pool2d_grad_grad_f64(void *a, void *b, void *out,
                                                  int64_t kh, int64_t kw,
                                                  int64_t sh, int64_t sw,
                                                  int64_t pt, int64_t pl);
void _mlir_ciface_tfc_rt_avg_pool2d_grad_f32(void *a, void *out, int64_t kh,
                                             int64_t kw, int64_t sh, int64_t sw,
                                             int64_t pt, int64_t pl);
void _mlir_ciface_tfc_rt_avg_pool2d_grad_f64(void *a, void *out, int64_t kh,
                                             int64_t kw, int64_t sh, int64_t sw,
                                             int64_t pt, int64_t pl);
/// unsorted_segment_sum on flat contiguous buffers: ids [m], data [m,
/// inner], the result [n, inner] (overwritten); one entry per data and id
/// type, named tfc_rt_unsorted_segment_sum_<data>_<ids>.
#define TFC_SEGMENT_SUM_ENTRIES(X)                                             \
  X(float, int32_t, f32_i32)                                                   \
  X(float, int64_t, f32_i64)                                                   \
  X(double, int32_t, f64_i32)                                                  \
  X(double, int64_t, f64_i64)                                                  \
  X(int32_t, int32_t, i32_i32)                                                 \
  X(int32_t, int64_t, i32_i64)                                                 \
  X(int64_t, int32_t, i64_i32)                                                 \
  X(int64_t, int64_t, i64_i64)
#define TFC_DECLARE_SEGMENT_SUM(T, I, SUFFIX)                                  \
  void _mlir_ciface_tfc_rt_unsorted_segment_sum_##SUFFIX(                      \
      void *ids, void *data, void *out, int64_t n, int64_t inner);
TFC_SEGMENT_SUM_ENTRIES(TFC_DECLARE_SEGMENT_SUM)
#undef TFC_DECLARE_SEGMENT_SUM
/// gather on flat contiguous buffers: params [outer, n, inner], ids [m],
/// out [outer, m, inner] (the indices checked before the call); the segment
/// sums' types and bool params.
#define TFC_GATHER_ENTRIES(X)                                                  \
  TFC_SEGMENT_SUM_ENTRIES(X)                                                   \
  X(uint8_t, int32_t, i1_i32)                                                  \
  X(uint8_t, int64_t, i1_i64)
#define TFC_DECLARE_GATHER(T, I, SUFFIX)                                       \
  void _mlir_ciface_tfc_rt_gather_##SUFFIX(void *params, void *ids, void *out, \
                                           int64_t outer, int64_t n,           \
                                           int64_t inner);
TFC_GATHER_ENTRIES(TFC_DECLARE_GATHER)
#undef TFC_DECLARE_GATHER
/// cumsum on flat contiguous buffers viewed as [outer, n, inner], and the
/// top_k indices of [rows, n] into [rows, k] (ScanKernels.h).
#define TFC_SCAN_ENTRIES(X)                                                    \
  X(float, f32) X(double, f64) X(int32_t, i32) X(int64_t, i64)
#define TFC_DECLARE_SCAN(T, SUFFIX)                                            \
  void _mlir_ciface_tfc_rt_cumsum_##SUFFIX(                                    \
      void *x, void *out, int64_t outer, int64_t n, int64_t inner,             \
      int64_t exclusive, int64_t reverse);                                     \
  void _mlir_ciface_tfc_rt_top_k_indices_##SUFFIX(                             \
      void *x, void *out, int64_t rows, int64_t n, int64_t k);
TFC_SCAN_ENTRIES(TFC_DECLARE_SCAN)
#undef TFC_DECLARE_SCAN
/// philox_random: `state` a 1-d int64 memref [key, counter], `out` a 1-d
/// float memref filled with draw `dist` (RandomDistribution's value).
void _mlir_ciface_tfc_rt_philox_random_f32(void *state, void *out,
                                           int64_t dist);
void _mlir_ciface_tfc_rt_philox_random_f64(void *state, void *out,
                                           int64_t dist);
/// Size of each OpenMP team compiled code starts: kernels::num_threads()
/// (tfc-openmp-num-threads).
int32_t tfc_rt_num_threads();
/// Sets KMP_BLOCKTIME (how long an idle OpenMP worker spins before it
/// sleeps) to tfc's default unless the user set it; call before libomp
/// initializes. The runtime calls it when it loads, the JIT before it loads
/// libomp itself.
void tfc_rt_default_omp_blocktime();
}

#endif // TFC_RUNTIME_COMPILEDCALLS_H
