//===- Random.cpp - tf.random.Generator and dropout -----------------------===//

#include "tfc/frontend/Random.h"

#include "OpsInternal.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Ops.h"
#include "tfc/runtime/RandomKernels.h"

#include <string>

using namespace tfc;
using namespace tfc::random;

namespace {

/// SplitMix64's finaliser: a seed's bits spread over the whole key.
uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Tensor stateTensor(uint64_t key, uint64_t counter) {
  return from_vector<int64_t>(
      {static_cast<int64_t>(key), static_cast<int64_t>(counter)}, {2});
}

} // namespace

Generator Generator::from_seed(uint64_t seed, std::source_location loc) {
  return Generator(Variable(stateTensor(mix(seed), 0), "generator_state",
                            /*trainable=*/false, loc),
                   loc);
}

Generator::Generator(Variable state, std::source_location loc)
    : state_(std::move(state)) {
  Tensor v = state_.value();
  if (v.dtype() != DType::Int64 || v.shape() != std::vector<int64_t>{2})
    detail::throw_invalid_argument(
        "random::Generator: the state must be an int64 Variable of shape "
        "(2,) ([key, counter]), got " +
            std::string(to_string(v.dtype())) + " " +
            shape_to_string(v.shape()),
        loc);
}

Tensor Generator::draw(kernels::RandomDistribution dist,
                       std::vector<int64_t> shape, DType dtype, const char *op,
                       const std::source_location &loc) {
  if (dtype != DType::Float32 && dtype != DType::Float64)
    detail::throw_invalid_argument(std::string(op) +
                                       ": expected float32 or float64, got " +
                                       std::string(to_string(dtype)),
                                   loc);
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0)
      detail::throw_invalid_argument(
          std::string(op) + ": the shape " + detail::list_to_string(shape) +
              " must be static and non-negative (a traced dynamic dim is "
              "-1; draw with the static shape)",
          loc);
    if (d != 0 && n > (int64_t(1) << 62) / d)
      detail::throw_invalid_argument(std::string(op) + ": the shape " +
                                         detail::list_to_string(shape) +
                                         " is too large",
                                     loc);
    n *= d;
  }
  OpAttrs attrs;
  attrs.shape = std::move(shape);
  attrs.dtype = dtype;
  attrs.distribution = dist;
  Tensor s = state_.value();
  Tensor out = detail::dispatch(OpKind::PhiloxRandom, &s, 1, attrs, loc);
  state_.assign_add(from_vector<int64_t>({0, n}, {2}), loc);
  return out;
}

Tensor Generator::uniform(std::vector<int64_t> shape, double lo, double hi,
                          DType dtype, std::source_location loc) {
  if (!(lo < hi))
    detail::throw_invalid_argument("uniform: expected lo < hi, got lo " +
                                       std::to_string(lo) + " and hi " +
                                       std::to_string(hi),
                                   loc);
  Tensor u = draw(kernels::RandomDistribution::Uniform, std::move(shape), dtype,
                  "uniform", loc);
  if (lo == 0 && hi == 1)
    return u;
  return add(mul(u, detail::scalar_like("uniform", u, hi - lo, loc), loc),
             detail::scalar_like("uniform", u, lo, loc), loc);
}

namespace {
Tensor scaled(const Tensor &z, double mean, double stddev, const char *op,
              const std::source_location &loc) {
  if (!(stddev >= 0))
    detail::throw_invalid_argument(std::string(op) +
                                       ": expected stddev >= 0, got " +
                                       std::to_string(stddev),
                                   loc);
  if (mean == 0 && stddev == 1)
    return z;
  return add(mul(z, detail::scalar_like(op, z, stddev, loc), loc),
             detail::scalar_like(op, z, mean, loc), loc);
}
} // namespace

Tensor Generator::normal(std::vector<int64_t> shape, double mean, double stddev,
                         DType dtype, std::source_location loc) {
  return scaled(draw(kernels::RandomDistribution::Normal, std::move(shape),
                     dtype, "normal", loc),
                mean, stddev, "normal", loc);
}

Tensor Generator::truncated_normal(std::vector<int64_t> shape, double mean,
                                   double stddev, DType dtype,
                                   std::source_location loc) {
  return scaled(draw(kernels::RandomDistribution::TruncatedNormal,
                     std::move(shape), dtype, "truncated_normal", loc),
                mean, stddev, "truncated_normal", loc);
}

std::vector<Generator> Generator::split(int64_t count,
                                        std::source_location loc) {
  if (count < 0)
    detail::throw_invalid_argument(
        "split: count must be >= 0, got " + std::to_string(count), loc);
  Tensor s = state_.value();
  if (s.is_symbolic())
    detail::throw_invalid_argument(
        "split: a Generator cannot be split inside a traced function (the new "
        "generators' states are new Variables); split before and use them "
        "inside",
        loc);
  std::vector<int64_t> v = s.to_vector<int64_t>();
  uint64_t key = static_cast<uint64_t>(v[0]),
           counter = static_cast<uint64_t>(v[1]);
  std::vector<Generator> out;
  for (int64_t j = 0; j < count; ++j) {
    // Attempt 0xFFFFFFFF: a counter domain no draw uses (draws use < 64).
    std::array<uint32_t, 4> w = kernels::philox_block(
        key, counter, static_cast<uint64_t>(j), 0xFFFFFFFFu);
    uint64_t child = (static_cast<uint64_t>(w[1]) << 32) | w[0];
    out.emplace_back(Variable(stateTensor(child, 0), "generator_state",
                              /*trainable=*/false, loc),
                     loc);
  }
  state_.assign_add(from_vector<int64_t>({0, count}, {2}), loc);
  return out;
}

Tensor tfc::dropout(const Tensor &x, double rate, random::Generator &gen,
                    std::source_location loc) {
  if (!(rate >= 0 && rate < 1))
    detail::throw_invalid_argument(
        "dropout: rate must be in [0, 1), got " + std::to_string(rate), loc);
  if (x.dtype() != DType::Float32 && x.dtype() != DType::Float64)
    detail::throw_invalid_argument("dropout: expected a float tensor, got " +
                                       std::string(to_string(x.dtype())),
                                   loc);
  if (rate == 0)
    return x;
  Tensor u = gen.uniform(x.shape(), 0, 1, x.dtype(), loc);
  Tensor keep =
      cast(greater_equal(u, detail::scalar_like("dropout", u, rate, loc), loc),
           x.dtype(), loc);
  return mul(
      x, mul(keep, detail::scalar_like("dropout", x, 1 / (1 - rate), loc), loc),
      loc);
}
