//===- RandomKernels.cpp - Philox draws from a (key, counter) state -------===//

#include "tfc/runtime/RandomKernels.h"
#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <Eigen/Core>

#include <algorithm>

using namespace tfc;
using namespace tfc::detail;

// The raw kernel stays internal like its declaration (RandomKernels.h).
#pragma GCC visibility push(hidden)
namespace tfc::kernels {

namespace {

/// Philox4x32-10 of blocks base..base+kLanes-1 (attempt 0), lane-parallel:
/// the 32x32->64 multiplies of eight blocks vectorize (pmuludq), where
/// philox4x32_10 on one block is a chain of dependent scalar rounds.
constexpr int kLanes = 8;
void philoxLanes(uint64_t key, uint64_t counter, uint64_t base,
                 uint32_t (&w)[4][kLanes]) {
  uint32_t k0 = static_cast<uint32_t>(key),
           k1 = static_cast<uint32_t>(key >> 32);
  for (int j = 0; j < kLanes; ++j) {
    uint64_t c = counter + base + j;
    w[0][j] = static_cast<uint32_t>(c);
    w[1][j] = static_cast<uint32_t>(c >> 32);
    w[2][j] = 0;
    w[3][j] = 0;
  }
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    for (int j = 0; j < kLanes; ++j) {
      uint64_t p0 = uint64_t(0xD2511F53u) * w[0][j];
      uint64_t p1 = uint64_t(0xCD9E8D57u) * w[2][j];
      uint32_t n0 = static_cast<uint32_t>(p1 >> 32) ^ w[1][j] ^ k0;
      uint32_t n2 = static_cast<uint32_t>(p0 >> 32) ^ w[3][j] ^ k1;
      w[1][j] = static_cast<uint32_t>(p1);
      w[3][j] = static_cast<uint32_t>(p0);
      w[0][j] = n0;
      w[2][j] = n2;
    }
  }
}

} // namespace

template <class T>
void philox_fill(RandomDistribution dist, uint64_t key, uint64_t counter,
                 T *out, int64_t n) {
  const int words = words_per_element<T>(dist), perBlock = 4 / words;
  const int64_t blocks = (n + perBlock - 1) / perBlock;
  const int64_t groups = (blocks + kLanes - 1) / kLanes;
  // A group of kLanes blocks makes kLanes * perBlock elements, each from
  // its block's words as philox_sample makes it (truncated normals that
  // must be redrawn go through philox_sample's later attempts).
  constexpr int kMax = kLanes * 4; // elements a group makes at most
  parallel_for(groups, kLanes * perBlock * 12, [&](int64_t gb, int64_t ge) {
    uint32_t w[4][kLanes];
    T u1[kMax], u2[kMax];
    for (int64_t g = gb; g < ge; ++g) {
      philoxLanes(key, counter, static_cast<uint64_t>(g * kLanes), w);
      int64_t first = g * kLanes * perBlock;
      int count =
          static_cast<int>(std::min<int64_t>(kLanes * perBlock, n - first));
      for (int e = 0; e < count; ++e) {
        int j = e / perBlock, slot = (e % perBlock) * words;
        std::array<uint32_t, 4> block = {w[0][j], w[1][j], w[2][j], w[3][j]};
        if (dist == RandomDistribution::Uniform) {
          out[first + e] = unit_uniform<T>(block, slot);
          continue;
        }
        u1[e] = unit_uniform<T>(block, slot, /*shift=*/true);
        u2[e] = unit_uniform<T>(block, slot + words / 2);
      }
      if (dist == RandomDistribution::Uniform)
        continue;
      // Box-Muller with Eigen's vectorized log, sqrt and cos (the eager
      // kernel and compiled code both run this: the same bits).
      using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
      Eigen::Map<Arr> a(u1, count), b(u2, count);
      Eigen::Map<Arr> z(out + first, count);
      z = (T(-2) * a.log()).sqrt() *
          (static_cast<T>(6.283185307179586476925286766559) * b).cos();
      if (dist == RandomDistribution::TruncatedNormal)
        for (int e = 0; e < count; ++e)
          if (!(std::fabs(z[e]) < T(2)))
            z[e] = philox_sample<T>(dist, key, counter,
                                    static_cast<uint64_t>(first + e), 1);
    }
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
    philox_fill(dist, key, counter,
                static_cast<float *>(out.unsafe_impl()->data), total);
  else
    philox_fill(dist, key, counter,
                static_cast<double *>(out.unsafe_impl()->data), total);
  return out;
}

} // namespace tfc::kernels
