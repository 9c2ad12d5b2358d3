//===- RandomKernels.h - Philox4x32-10 random numbers -----------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Counter-based random numbers (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3", SC'11; the generator TensorFlow and JAX use). Element i
// of a draw from state (key, counter) is a function of the key and the
// 128-bit counter (counter + i, attempt) alone, so any element can be made
// on any thread or GPU lane, in any order, with the same result, and a draw
// of n elements advances the counter by n. tfc::random::Generator keeps
// (key, counter) in a Variable; the eager kernel and compiled code (a CPU
// library call, or the same arithmetic in the generic's body on a GPU) run
// this definition.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_RANDOMKERNELS_H
#define TFC_RUNTIME_RANDOMKERNELS_H

#include <array>
#include <cmath>
#include <cstdint>

#include "tfc/runtime/Kernels.h"

// Internal to libtfc.so (not installed, not exported): the public way in is
// tfc::random::Generator (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::kernels {

/// Philox4x32 with 10 rounds on counter (c0, c1, c2, c3) and key (k0, k1).
inline std::array<uint32_t, 4> philox4x32_10(std::array<uint32_t, 4> c,
                                             uint32_t k0, uint32_t k1) {
  constexpr uint64_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u;
  constexpr uint32_t W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += W0;
      k1 += W1;
    }
    uint64_t p0 = M0 * c[0], p1 = M1 * c[2];
    c = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1,
         static_cast<uint32_t>(p0)};
  }
  return c;
}

/// The four words for element `i` of a draw (attempt `attempt`).
inline std::array<uint32_t, 4> philox_block(uint64_t key, uint64_t counter,
                                            uint64_t i, uint32_t attempt) {
  uint64_t c = counter + i;
  return philox4x32_10(
      {static_cast<uint32_t>(c), static_cast<uint32_t>(c >> 32), attempt, 0u},
      static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32));
}

/// [0, 1) from the words: 24 bits for float, 53 for double. `shift` moves
/// to [2^-24, 1] / [2^-53, 1] (Box-Muller's log argument).
template <class T>
inline T unit_uniform(const std::array<uint32_t, 4> &w, int first,
                      bool shift = false) {
  if constexpr (sizeof(T) == 4) {
    return (static_cast<float>(w[first] >> 8) + (shift ? 1.0f : 0.0f)) *
           0x1p-24f;
  } else {
    uint64_t bits =
        (static_cast<uint64_t>(w[first]) << 21) | (w[first + 1] >> 11);
    return (static_cast<double>(bits) + (shift ? 1.0 : 0.0)) * 0x1p-53;
  }
}

/// The words one element takes: a uniform 1 (float) or 2 (double), a normal
/// twice that. A block's four words serve 4 / words_per_element elements:
/// element i uses block i / per_block at word (i % per_block) * words.
template <class T> constexpr int words_per_element(RandomDistribution dist) {
  int uniform = sizeof(T) == 4 ? 1 : 2;
  return dist == RandomDistribution::Uniform ? uniform : 2 * uniform;
}

/// Element `i` of a draw of `dist` from (key, counter). A truncated normal
/// that must be redrawn takes the same words of its block at the next
/// attempt, so every element stays a function of (key, counter, i).
template <class T>
inline T philox_sample(RandomDistribution dist, uint64_t key, uint64_t counter,
                       uint64_t i, uint32_t firstAttempt = 0) {
  constexpr T twoPi = static_cast<T>(6.283185307179586476925286766559);
  const int words = words_per_element<T>(dist), perBlock = 4 / words;
  const int slot = static_cast<int>(i % perBlock) * words;
  const uint64_t block = i / perBlock;
  for (uint32_t attempt = firstAttempt;; ++attempt) {
    std::array<uint32_t, 4> w = philox_block(key, counter, block, attempt);
    if (dist == RandomDistribution::Uniform)
      return unit_uniform<T>(w, slot);
    T u1 = unit_uniform<T>(w, slot, /*shift=*/true);
    T u2 = unit_uniform<T>(w, slot + words / 2);
    T z = std::sqrt(T(-2) * std::log(u1)) * std::cos(twoPi * u2);
    // P(|z| >= 2) = 4.6%: 64 attempts all failing has probability 1e-85.
    if (dist == RandomDistribution::Normal || std::fabs(z) < T(2) ||
        attempt == 63)
      return dist == RandomDistribution::Normal || std::fabs(z) < T(2) ? z
                                                                       : T(0);
  }
}

/// out[i] = philox_sample(dist, key, counter, i) for i < n: Philox on eight
/// blocks at a time, Box-Muller with Eigen's vectorized log, sqrt and cos
/// (within a few ulps of philox_sample's libm values; eager ops and
/// compiled code both run this, so they agree bit for bit).
template <class T>
void philox_fill(RandomDistribution dist, uint64_t key, uint64_t counter,
                 T *out, int64_t n);

} // namespace tfc::kernels
#pragma GCC visibility pop

#endif // TFC_RUNTIME_RANDOMKERNELS_H
