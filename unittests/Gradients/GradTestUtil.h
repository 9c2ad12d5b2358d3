//===- GradTestUtil.h - Helpers for the gradient tests ----------*- C++ -*-===//
//
// Finite differences, and the same gradient computed eagerly and inside a
// tfc::function, for functions of a few float64 tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_UNITTESTS_GRADIENTS_GRADTESTUTIL_H
#define TFC_UNITTESTS_GRADIENTS_GRADTESTUTIL_H

#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <typeinfo>
#include <vector>

namespace tfc::gradtest {

/// A differentiable function of a few tensors.
using Fn = std::function<Tensor(const std::vector<Tensor> &)>;

/// Random float64 values in [lo, hi) of `shape`.
inline Tensor rand64(std::vector<int64_t> shape, double lo, double hi,
                     uint64_t seed) {
  return random_uniform(std::move(shape), lo, hi, seed, DType::Float64);
}

/// The scalar whose gradient the checks take: sum(fn(inputs) * weights), so
/// that every output element gets its own upstream gradient.
inline Tensor weightedLoss(const Fn &fn, const std::vector<Tensor> &inputs,
                           const Tensor &weights) {
  return reduce_sum(fn(inputs) * weights);
}

/// Fixed random weights shaped like fn's output.
inline Tensor weightsFor(const Fn &fn, const std::vector<Tensor> &inputs) {
  Tensor y = fn(inputs);
  return random_uniform(y.shape(), 0.5, 1.5, 1234, y.dtype());
}

/// Central differences of weightedLoss with respect to every input element.
inline std::vector<Tensor> numericGradients(const Fn &fn,
                                            const std::vector<Tensor> &inputs,
                                            const Tensor &weights,
                                            double h = 1e-6) {
  std::vector<Tensor> grads;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::vector<double> base = inputs[i].to_vector<double>();
    std::vector<double> g(base.size());
    for (size_t k = 0; k < base.size(); ++k) {
      double step = h * std::max(1.0, std::fabs(base[k]));
      auto lossAt = [&](double value) {
        std::vector<double> data = base;
        data[k] = value;
        std::vector<Tensor> in = inputs;
        in[i] = from_vector<double>(data, inputs[i].shape());
        return weightedLoss(fn, in, weights).item<double>();
      };
      g[k] = (lossAt(base[k] + step) - lossAt(base[k] - step)) / (2 * step);
    }
    grads.push_back(from_vector<double>(g, inputs[i].shape()));
  }
  return grads;
}

/// The tape's gradients of weightedLoss, eagerly.
inline std::vector<Tensor> eagerGradients(const Fn &fn,
                                          const std::vector<Tensor> &inputs,
                                          const Tensor &weights) {
  GradientTape tape;
  tape.watch(inputs);
  Tensor loss = weightedLoss(fn, inputs, weights);
  return tape.gradient(loss, inputs);
}

/// The same, with the tape inside a tfc::function: traced and compiled.
inline std::vector<Tensor> compiledGradients(const Fn &fn,
                                             const std::vector<Tensor> &inputs,
                                             const Tensor &weights,
                                             std::string *ir = nullptr,
                                             const char *stage = "tfc") {
  auto f = function([&](const auto &...xs) -> std::vector<Tensor> {
    std::vector<Tensor> in{xs...};
    GradientTape tape;
    tape.watch(in);
    Tensor loss = weightedLoss(fn, in, weights);
    return tape.gradient(loss, in);
  });
  std::vector<Tensor> grads;
  switch (inputs.size()) {
  case 1:
    grads = f(inputs[0]);
    break;
  case 2:
    grads = f(inputs[0], inputs[1]);
    break;
  case 3:
    grads = f(inputs[0], inputs[1], inputs[2]);
    break;
  default:
    ADD_FAILURE() << "compiledGradients: 1 to 3 inputs";
  }
  if (ir)
    *ir = f.ir(stage);
  return grads;
}

/// The tape's gradients with the tape outside and the loss computed by a
/// tfc::function: the call is recorded with its compiled VJP (tfc-vjp).
inline std::vector<Tensor>
aroundCallGradients(const Fn &fn, const std::vector<Tensor> &inputs,
                    const Tensor &weights) {
  auto f = function([&](const auto &...xs) {
    return weightedLoss(fn, std::vector<Tensor>{xs...}, weights);
  });
  GradientTape tape;
  tape.watch(inputs);
  Tensor loss;
  switch (inputs.size()) {
  case 1:
    loss = f(inputs[0]);
    break;
  case 2:
    loss = f(inputs[0], inputs[1]);
    break;
  case 3:
    loss = f(inputs[0], inputs[1], inputs[2]);
    break;
  default:
    ADD_FAILURE() << "aroundCallGradients: 1 to 3 inputs";
    return {};
  }
  return tape.gradient(loss, inputs);
}

/// `got` equals `want` in dtype and shape, and elementwise within
/// rtol * max(1, |want|).
inline ::testing::AssertionResult
allClose(const Tensor &got, const Tensor &want, double rtol = 1e-6) {
  if (!got.defined() || !want.defined())
    return ::testing::AssertionFailure() << "undefined tensor";
  if (got.dtype() != want.dtype() || got.shape() != want.shape())
    return ::testing::AssertionFailure()
           << "got " << to_string(got.dtype()) << " "
           << shape_to_string(got.shape()) << ", want "
           << to_string(want.dtype()) << " " << shape_to_string(want.shape());
  Tensor a = cast(got, DType::Float64), b = cast(want, DType::Float64);
  std::vector<double> x = a.to_vector<double>(), y = b.to_vector<double>();
  for (size_t i = 0; i < x.size(); ++i) {
    bool same = (std::isnan(x[i]) && std::isnan(y[i])) ||
                std::fabs(x[i] - y[i]) <= rtol * std::max(1.0, std::fabs(y[i]));
    if (!same)
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << x[i] << ", want " << y[i]
             << "\ngot:  " << got << "\nwant: " << want;
  }
  return ::testing::AssertionSuccess();
}

/// Checks fn's gradients against finite differences, eagerly, compiled
/// (the tape inside a tfc::function) and around a compiled call (the tape
/// outside), and the compiled ones against the eager ones.
inline void checkGradients(const std::string &what, const Fn &fn,
                           const std::vector<Tensor> &inputs,
                           double rtol = 1e-6) {
  SCOPED_TRACE(what);
  Tensor weights = weightsFor(fn, inputs);
  std::vector<Tensor> numeric = numericGradients(fn, inputs, weights);
  std::vector<Tensor> eager = eagerGradients(fn, inputs, weights);
  std::vector<Tensor> compiled = compiledGradients(fn, inputs, weights);
  std::vector<Tensor> around = aroundCallGradients(fn, inputs, weights);
  ASSERT_EQ(eager.size(), inputs.size());
  ASSERT_EQ(compiled.size(), inputs.size());
  ASSERT_EQ(around.size(), inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    SCOPED_TRACE("input " + std::to_string(i));
    EXPECT_TRUE(allClose(eager[i], numeric[i], rtol)) << "eager";
    EXPECT_TRUE(allClose(compiled[i], numeric[i], rtol)) << "compiled";
    EXPECT_TRUE(allClose(compiled[i], eager[i], 1e-9)) << "compiled vs eager";
    EXPECT_TRUE(allClose(around[i], eager[i], 1e-9))
        << "around a compiled call vs eager";
  }
}

/// `fn()` throws exactly `E` with a message containing every substring.
template <class E>
::testing::AssertionResult throwsWith(const std::function<void()> &fn,
                                      const std::vector<std::string> &parts) {
  try {
    fn();
  } catch (const E &e) {
    if (typeid(e) != typeid(E))
      return ::testing::AssertionFailure()
             << "threw a subclass " << typeid(e).name() << ": " << e.what();
    std::string msg = e.what();
    for (const std::string &s : parts)
      if (msg.find(s) == std::string::npos)
        return ::testing::AssertionFailure()
               << "message \"" << msg << "\" lacks \"" << s << "\"";
    return ::testing::AssertionSuccess();
  } catch (const std::exception &e) {
    return ::testing::AssertionFailure()
           << "threw another class: " << typeid(e).name() << ": " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

/// `run` throws an InvalidArgumentError whose message contains `part`.
inline void expectError(const std::function<void()> &run,
                        const std::string &part) {
  try {
    run();
    ADD_FAILURE() << "no error; expected one containing " << part;
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

} // namespace tfc::gradtest

#endif // TFC_UNITTESTS_GRADIENTS_GRADTESTUTIL_H
