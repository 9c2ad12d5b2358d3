//===- Random.h - tf.random.Generator and dropout ---------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// A Generator's state is a Variable ([key, counter], int64): each draw reads
// it, makes the numbers with tfc.philox_random (Philox4x32-10, counter
// based) and advances the counter by the number of elements drawn. Inside a
// tfc::function the read and the advance are traced like any Variable use,
// so every call of the compiled function draws fresh numbers, in program
// order, and the same seed gives the same numbers eagerly and compiled.
// Generators are handles: copies share one state.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_RANDOM_H
#define TFC_FRONTEND_RANDOM_H

#include "tfc/frontend/Variable.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <source_location>
#include <vector>

namespace tfc::random {

class Generator {
public:
  /// A generator whose key is derived from `seed` (counter 0).
  static Generator
  from_seed(uint64_t seed,
            std::source_location loc = std::source_location::current());
  /// A generator on an existing state: an int64 Variable of shape (2,)
  /// holding [key, counter] (InvalidArgumentError otherwise).
  explicit Generator(Variable state, std::source_location loc =
                                         std::source_location::current());

  /// Uniform in [lo, hi).
  Tensor uniform(std::vector<int64_t> shape, double lo = 0, double hi = 1,
                 DType dtype = DType::Float32,
                 std::source_location loc = std::source_location::current());
  /// Normal with `mean` and `stddev`.
  Tensor normal(std::vector<int64_t> shape, double mean = 0, double stddev = 1,
                DType dtype = DType::Float32,
                std::source_location loc = std::source_location::current());
  /// Normal with values more than two standard deviations from the mean
  /// redrawn (tf.random.truncated_normal).
  Tensor
  truncated_normal(std::vector<int64_t> shape, double mean = 0,
                   double stddev = 1, DType dtype = DType::Float32,
                   std::source_location loc = std::source_location::current());
  /// `count` new generators with independent streams (keys drawn from this
  /// one, which advances). Eager only: the new states are new Variables.
  std::vector<Generator>
  split(int64_t count,
        std::source_location loc = std::source_location::current());

  /// The state Variable ([key, counter]): checkpoint it to resume a stream.
  const Variable &state() const { return state_; }

private:
  Tensor draw(kernels::RandomDistribution dist, std::vector<int64_t> shape,
              DType dtype, const char *op, const std::source_location &loc);
  Variable state_;
};

} // namespace tfc::random

namespace tfc {
/// tf.nn.dropout: each element of float `x` kept with probability
/// 1 - rate and scaled by 1 / (1 - rate), else 0. `rate` in [0, 1); 0
/// returns `x`. The mask comes from `gen`, so a compiled training step
/// drops different elements at every call.
Tensor dropout(const Tensor &x, double rate, random::Generator &gen,
               std::source_location loc = std::source_location::current());
} // namespace tfc

#endif // TFC_FRONTEND_RANDOM_H
