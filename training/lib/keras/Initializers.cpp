//===- Initializers.cpp - Keras weight initializers -----------------------===//
//
// Keras's fan rules (glorot, he) and draws on tfc::random::Generator, so a
// seeded initializer gives the same values eagerly, in any process, on any
// thread count.
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Layer.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"

#include <cmath>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>

namespace tfc::keras {

Initializer::Initializer(std::string name, Fn fn)
    : name_(std::move(name)), fn_(std::move(fn)) {}

Tensor Initializer::operator()(const Shape &shape, DType dtype) const {
  if (!fn_)
    throw InvalidArgumentError("Initializer: empty initializer");
  for (int64_t d : shape)
    if (d < 0) {
      std::ostringstream os;
      os << "Initializer " << name_ << ": negative dim in shape [";
      for (size_t i = 0; i < shape.size(); ++i)
        os << (i ? ", " : "") << shape[i];
      os << "]";
      throw InvalidArgumentError(os.str());
    }
  return fn_(shape, dtype);
}

namespace {

std::mutex &globalMutex() {
  static std::mutex mu;
  return mu;
}

/// The generator behind unseeded initializers: seeded from the system's
/// entropy until set_random_seed fixes it.
std::optional<random::Generator> &globalGenerator() {
  static std::optional<random::Generator> gen;
  return gen;
}

} // namespace

random::Generator seed_generator(uint64_t seed) {
  if (seed != 0)
    return random::Generator::from_seed(seed);
  std::lock_guard<std::mutex> lock(globalMutex());
  auto &gen = globalGenerator();
  if (!gen)
    gen = random::Generator::from_seed(
        std::random_device{}() | (uint64_t(std::random_device{}()) << 32));
  return gen->split(1)[0];
}

namespace {

void requireFloat(const char *name, DType dtype) {
  if (dtype != DType::Float32 && dtype != DType::Float64)
    throw InvalidArgumentError(std::string("Initializer ") + name +
                               ": needs a floating dtype, got " +
                               std::string(to_string(dtype)));
}

/// Keras's compute_fans: (fan_in, fan_out) of a kernel shape; convolution
/// kernels (HWIO) multiply in the receptive field.
std::pair<double, double> fans(const Shape &shape) {
  if (shape.empty())
    return {1, 1};
  if (shape.size() == 1)
    return {double(shape[0]), double(shape[0])};
  if (shape.size() == 2)
    return {double(shape[0]), double(shape[1])};
  double receptive = 1;
  for (size_t i = 0; i + 2 < shape.size(); ++i)
    receptive *= double(shape[i]);
  return {receptive * double(shape[shape.size() - 2]),
          receptive * double(shape.back())};
}

// Keras's truncated normal keeps values within two standard deviations,
// which shrinks the variance by this factor.
constexpr double kTruncatedStddev = 0.87962566103423978;

enum class Mode { FanIn, FanAvg };
enum class Dist { Uniform, TruncatedNormal };

Initializer varianceScaling(const char *name, double scale, Mode mode,
                            Dist dist, uint64_t seed) {
  return Initializer(name, [=](const Shape &shape, DType dtype) {
    requireFloat(name, dtype);
    auto [in, out] = fans(shape);
    double n = mode == Mode::FanIn ? in : (in + out) / 2;
    double variance = scale / std::max(1.0, n);
    random::Generator gen = seed_generator(seed);
    if (dist == Dist::Uniform) {
      double limit = std::sqrt(3 * variance);
      return gen.uniform(shape, -limit, limit, dtype);
    }
    return gen.truncated_normal(shape, 0,
                                std::sqrt(variance) / kTruncatedStddev, dtype);
  });
}

} // namespace

void set_random_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(globalMutex());
  globalGenerator() = random::Generator::from_seed(seed);
}

namespace initializers {

Initializer zeros() {
  return Initializer("zeros", [](const Shape &shape, DType dtype) {
    return tfc::zeros(shape, dtype);
  });
}

Initializer ones() {
  return Initializer("ones", [](const Shape &shape, DType dtype) {
    return tfc::ones(shape, dtype);
  });
}

Initializer constant(double value) {
  return Initializer("constant", [value](const Shape &shape, DType dtype) {
    return tfc::ones(shape, dtype) * value;
  });
}

Initializer glorot_uniform(uint64_t seed) {
  return varianceScaling("glorot_uniform", 1, Mode::FanAvg, Dist::Uniform,
                         seed);
}
Initializer glorot_normal(uint64_t seed) {
  return varianceScaling("glorot_normal", 1, Mode::FanAvg,
                         Dist::TruncatedNormal, seed);
}
Initializer he_uniform(uint64_t seed) {
  return varianceScaling("he_uniform", 2, Mode::FanIn, Dist::Uniform, seed);
}
Initializer he_normal(uint64_t seed) {
  return varianceScaling("he_normal", 2, Mode::FanIn, Dist::TruncatedNormal,
                         seed);
}

Initializer random_uniform(double minval, double maxval, uint64_t seed) {
  return Initializer("random_uniform", [=](const Shape &shape, DType dtype) {
    requireFloat("random_uniform", dtype);
    return seed_generator(seed).uniform(shape, minval, maxval, dtype);
  });
}

Initializer random_normal(double mean, double stddev, uint64_t seed) {
  return Initializer("random_normal", [=](const Shape &shape, DType dtype) {
    requireFloat("random_normal", dtype);
    return seed_generator(seed).normal(shape, mean, stddev, dtype);
  });
}

Initializer orthogonal(double gain, uint64_t seed) {
  return Initializer("orthogonal", [=](const Shape &shape, DType dtype) {
    requireFloat("orthogonal", dtype);
    if (shape.size() < 2)
      throw InvalidArgumentError(
          "Initializer orthogonal: needs a shape of rank 2 or more");
    int64_t cols = shape.back(), rows = 1;
    for (size_t i = 0; i + 1 < shape.size(); ++i)
      rows *= shape[i];
    // Orthonormalise the columns of a tall normal matrix (modified
    // Gram-Schmidt in double; the sign convention of QR with a positive
    // diagonal of R), transposed back when the shape is wide.
    int64_t n = std::max(rows, cols), m = std::min(rows, cols);
    std::vector<double> a =
        cast(seed_generator(seed).normal({n, m}, 0, 1, DType::Float64),
             DType::Float64)
            .to_vector<double>();
    for (int64_t j = 0; j < m; ++j) {
      for (int64_t k = 0; k < j; ++k) {
        double dot = 0;
        for (int64_t i = 0; i < n; ++i)
          dot += a[i * m + k] * a[i * m + j];
        for (int64_t i = 0; i < n; ++i)
          a[i * m + j] -= dot * a[i * m + k];
      }
      double norm = 0;
      for (int64_t i = 0; i < n; ++i)
        norm += a[i * m + j] * a[i * m + j];
      norm = std::sqrt(norm);
      for (int64_t i = 0; i < n; ++i)
        a[i * m + j] = norm > 0 ? a[i * m + j] / norm : 0;
    }
    std::vector<double> q(size_t(rows * cols));
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        q[size_t(i * cols + j)] =
            gain * (rows >= cols ? a[i * m + j] : a[j * m + i]);
    return cast(from_vector(std::move(q), shape), dtype);
  });
}

} // namespace initializers
} // namespace tfc::keras
