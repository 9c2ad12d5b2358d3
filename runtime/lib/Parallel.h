//===- Parallel.h - Splitting big kernels across threads --------*- C++ -*-===//
//
// Small ops must not pay for a parallel region (waking the OpenMP team costs
// microseconds), so work below parallel_threshold() runs inline.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_LIB_PARALLEL_H
#define TFC_RUNTIME_LIB_PARALLEL_H

#include <algorithm>
#include <atomic>
#include <cstdint>

#include <omp.h>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {

/// Threads kernels may use (>= 1); kept in sync by kernels::set_num_threads.
extern std::atomic<int> gNumThreads;
/// Elements (of cost 1) below which a kernel stays on one thread.
extern std::atomic<int64_t> gParallelThreshold;

/// Runs f(begin, end) over [0, n) split into contiguous chunks, one per
/// thread, when n * cost is big enough to pay for a parallel region; chunk
/// edges are multiples of 16 elements (no false sharing of output lines).
/// `f` must not throw.
template <class F> inline void parallel_for(int64_t n, int64_t cost, F &&f) {
  int nt = gNumThreads.load(std::memory_order_relaxed);
  int64_t threshold = gParallelThreshold.load(std::memory_order_relaxed);
  if (nt <= 1 || n * cost < threshold || n < 32) {
    if (n > 0)
      f(int64_t(0), n);
    return;
  }
  int64_t chunks =
      std::min<int64_t>(nt, std::max<int64_t>(1, (n * cost) / threshold));
  chunks = std::max<int64_t>(2, chunks);
#pragma omp parallel num_threads(int(chunks))
  {
    int64_t t = omp_get_thread_num();
    int64_t T = omp_get_num_threads();
    int64_t per = ((n + T - 1) / T + 15) & ~int64_t(15);
    int64_t b = std::min(n, t * per), e = std::min(n, b + per);
    if (b < e)
      f(b, e);
  }
}

/// With the OpenMP runtime oneDNN sizes its teams by the calling thread's
/// omp_get_max_threads(): make that tfc's thread count for a oneDNN call.
class OmpTeamSize {
public:
  explicit OmpTeamSize(int n) : saved(omp_get_max_threads()) {
    if (n != saved)
      omp_set_num_threads(n);
  }
  ~OmpTeamSize() {
    if (omp_get_max_threads() != saved)
      omp_set_num_threads(saved);
  }
  OmpTeamSize(const OmpTeamSize &) = delete;
  OmpTeamSize &operator=(const OmpTeamSize &) = delete;

private:
  int saved;
};

} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_RUNTIME_LIB_PARALLEL_H
