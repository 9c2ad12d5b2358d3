//===- Metrics.h - Keras metrics --------------------------------*- C++ -*-===//
//
// A Metric is a cheap handle (copies share one metric) whose state lives in
// non-trainable float32 Variables created by its factory ("total", and
// "count" for means), so update_state, result and reset_state work eagerly
// and inside a compiled train step alike.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_METRICS_H
#define TFC_KERAS_METRICS_H

#include "tfc/frontend/Variable.h"
#include "tfc/keras/Losses.h"
#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tfc::keras {

namespace detail {
struct MetricState;
}

class Metric {
public:
  /// The per-sample values a (y_true, y_pred) metric averages (Keras's
  /// MeanMetricWrapper function): e.g. 1.0 / 0.0 per sample for accuracy.
  using Fn = std::function<Tensor(const Tensor &y_true, const Tensor &y_pred)>;

  /// Empty: every call throws.
  Metric() = default;
  explicit Metric(std::shared_ptr<detail::MetricState> state);

  /// Mean and Sum: accumulate `values` (any numeric dtype, converted to
  /// float32). Mean counts the samples: values' first dim (1 for a scalar),
  /// each sample's value being the mean over its other dims.
  void update_state(const Tensor &values);
  /// The (y_true, y_pred) metrics: accumulate Fn(y_true, y_pred) as Mean.
  /// Calling the overload a metric does not take throws
  /// InvalidArgumentError.
  void update_state(const Tensor &y_true, const Tensor &y_pred);
  /// The float32 scalar so far: total / count (0 while count is 0), or
  /// total for Sum.
  Tensor result() const;
  /// Zeros every state Variable.
  void reset_state();
  const std::string &name() const;
  /// The state: total, then count (Mean-like metrics).
  std::vector<Variable> variables() const;

  const std::shared_ptr<detail::MetricState> &state() const { return state_; }
  explicit operator bool() const { return bool(state_); }

private:
  std::shared_ptr<detail::MetricState> state_;
};

namespace metrics {
/// The running mean of the values given to update_state(values).
Metric Mean(std::string name = "mean");
/// The running sum of the values given to update_state(values).
Metric Sum(std::string name = "sum");
/// Fraction of elements where y_true == y_pred exactly (after matching a
/// trailing dim of 1, and converting both to the wider dtype).
Metric Accuracy(std::string name = "accuracy");
/// Fraction of elements where y_true == (y_pred > threshold), for 0/1
/// targets and probabilities.
Metric BinaryAccuracy(std::string name = "binary_accuracy",
                      double threshold = 0.5);
/// Fraction of samples whose integer label (shape y_pred.shape[:-1], or with
/// a trailing 1) is argmax(y_pred, -1).
Metric
SparseCategoricalAccuracy(std::string name = "sparse_categorical_accuracy");
/// Fraction of samples where argmax(y_true, -1) == argmax(y_pred, -1).
Metric CategoricalAccuracy(std::string name = "categorical_accuracy");
/// Fraction of samples whose one-hot class (argmax(y_true, -1)) is among the
/// k largest entries of y_pred (ties at the boundary count as in, as
/// tf.math.in_top_k).
Metric TopKCategoricalAccuracy(int k = 5,
                               std::string name = "top_k_categorical_accuracy");
/// TopKCategoricalAccuracy with integer labels, as SparseCategoricalAccuracy.
Metric SparseTopKCategoricalAccuracy(
    int k = 5, std::string name = "sparse_top_k_categorical_accuracy");
/// The running mean of a loss's per-sample values (Keras's
/// MeanMetricWrapper around a loss function).
Metric MeanMetricWrapper(Loss loss, std::string name);
/// MeanMetricWrapper(losses::MeanSquaredError(), name).
Metric MeanSquaredError(std::string name = "mean_squared_error");
} // namespace metrics

} // namespace tfc::keras

#endif // TFC_KERAS_METRICS_H
