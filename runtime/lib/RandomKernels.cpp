//===- RandomKernels.cpp - Philox draws from a (key, counter) state -------===//

#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/RandomKernels.h"

using namespace tfc;
using namespace tfc::detail;

// The raw kernel stays internal like its declaration (RandomKernels.h).
#pragma GCC visibility push(hidden)
namespace tfc::kernels {

template <class T>
void philox_fill(RandomDistribution dist, uint64_t key, uint64_t counter,
                 T *out, int64_t n) {
  // About 30 cycles an element (ten rounds of two 32x32->64 multiplies;
  // Box-Muller's log, cos and sqrt for normals).
  parallel_for(n, dist == RandomDistribution::Uniform ? 16 : 48,
               [&](int64_t b, int64_t e) {
                 for (int64_t i = b; i < e; ++i)
                   out[i] = philox_sample<T>(dist, key, counter,
                                             static_cast<uint64_t>(i));
               });
}
template void philox_fill<float>(RandomDistribution, uint64_t, uint64_t,
                                 float *, int64_t);
template void philox_fill<double>(RandomDistribution, uint64_t, uint64_t,
                                  double *, int64_t);
} // namespace tfc::kernels
#pragma GCC visibility pop

namespace tfc::kernels {

Tensor philox_random(const Tensor &state, const std::vector<int64_t> &shape,
                     DType dtype, RandomDistribution dist) {
  constexpr std::string_view name = "philox_random";
  require_concrete(name, state);
  if (state.dtype() != DType::Int64 || state.shape() != std::vector<int64_t>{2})
    fail(name, "expected an int64 state of shape (2,) (key, counter), got ",
         state.dtype(), " ", state.shape());
  require_dtype(name, kMaskFloats, dtype);
  int64_t total = checked_numel(name, shape, dtype);
  Tensor out = make_tensor(dtype, shape, total);
  wait_for_device(state, name);
  const int64_t *s = static_cast<const int64_t *>(state.unsafe_impl()->data);
  uint64_t key = static_cast<uint64_t>(s[0]),
           counter = static_cast<uint64_t>(s[1]);
  if (dtype == DType::Float32)
    philox_fill(dist, key, counter, static_cast<float *>(out.unsafe_impl()->data),
                total);
  else
    philox_fill(dist, key, counter,
                static_cast<double *>(out.unsafe_impl()->data), total);
  return out;
}

} // namespace tfc::kernels
