//===- Threading.cpp - Thread count and parallel threshold ----------------===//

#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/CompiledCalls.h"
#include "tfc/runtime/Kernels.h"

#include <cblas.h>
#include <cstdlib>

namespace {
// Runs before anything in this file touches OpenMP (libomp reads
// KMP_BLOCKTIME when it initializes).
[[maybe_unused]] const bool gOmpBlocktimeSet = [] {
  tfc_rt_default_omp_blocktime();
  return true;
}();

int defaultThreads() {
  if (const char *s = std::getenv("TFC_NUM_THREADS"))
    if (int n = std::atoi(s); n > 0) {
      // One setting for all three pools, as set_num_threads (OpenBLAS
      // initialised itself when it was loaded, before this runs).
      openblas_set_num_threads(n);
      return n;
    }
  return std::max(1, omp_get_max_threads());
}

int64_t defaultThreshold() {
  // Measured on a 2-core AMD EPYC: below ~32K floats an add takes less time
  // than waking a second thread.
  if (const char *s = std::getenv("TFC_PARALLEL_THRESHOLD"))
    if (long long n = std::atoll(s); n > 0)
      return n;
  return 32768;
}
} // namespace

namespace tfc::detail {
std::atomic<int> gNumThreads{defaultThreads()};
std::atomic<int64_t> gParallelThreshold{defaultThreshold()};
} // namespace tfc::detail

namespace tfc::kernels {

int64_t parallel_threshold() {
  return detail::gParallelThreshold.load(std::memory_order_relaxed);
}

// Every OpenMP team tfc starts names its size (eager kernels: parallel_for;
// compiled code: tfc-openmp-num-threads), so this needs no
// omp_set_num_threads, which would reach the calling thread's teams only.
void set_num_threads(int n) {
  if (n < 0)
    detail::fail("set_num_threads", "expected n >= 0 (0: all cores), got ", n);
  if (n == 0)
    n = std::max(1, omp_get_num_procs());
  detail::gNumThreads.store(n, std::memory_order_relaxed);
  openblas_set_num_threads(n);
}

int num_threads() {
  return detail::gNumThreads.load(std::memory_order_relaxed);
}

int get_num_threads() { return num_threads(); }

} // namespace tfc::kernels

/// libomp's workers spin for 200 ms after each parallel region by default,
/// taking the cores OpenBLAS's own threads need next: on this 2-core machine
/// an MLP training step ran 25x slower in real time. So they wait briefly:
/// 1 ms where oneDNN runs the big float32 GEMMs (Blas.h) in the same
/// OpenMP team as compiled loops, so the team's next region finds them
/// awake (the 2-thread MLP step 1.4x faster than sleeping at once); 0 (sleep
/// at once) where only OpenBLAS's pthreads run GEMMs.
extern "C" void tfc_rt_default_omp_blocktime() {
#ifdef TFC_HAVE_DNNL
  setenv("KMP_BLOCKTIME", "1", /*overwrite=*/0);
#else
  setenv("KMP_BLOCKTIME", "0", /*overwrite=*/0);
#endif
}

extern "C" int32_t tfc_rt_num_threads() {
  return tfc::detail::gNumThreads.load(std::memory_order_relaxed);
}
