//===- Metrics.cpp - Keras metrics ----------------------------------------===//
//
// Keras 3's Mean / Sum reductions and the accuracy functions its
// MeanMetricWrapper averages. State updates are Variable assignments of
// tensor expressions, so they trace into a compiled train step.
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Metrics.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"

#include <limits>
#include <optional>

namespace tfc::keras {

namespace detail {

/// One metric's state. `fn` is set for (y_true, y_pred) metrics, which
/// average its per-sample values like Mean.
struct MetricState {
  enum class Kind { Mean, Sum };
  MetricState(std::string name, Kind kind, Metric::Fn fn)
      : name(std::move(name)), kind(kind), fn(std::move(fn)),
        total(zeros({}, DType::Float32), this->name + "/total",
              /*trainable=*/false) {
    if (kind == Kind::Mean)
      count.emplace(zeros({}, DType::Float32), this->name + "/count",
                    /*trainable=*/false);
  }
  std::string name;
  Kind kind;
  Metric::Fn fn;
  Variable total;
  std::optional<Variable> count;
};

} // namespace detail

namespace {

using detail::MetricState;

const std::shared_ptr<MetricState> &
require(const std::shared_ptr<MetricState> &s, const char *what) {
  if (!s)
    throw InvalidArgumentError(std::string("Metric::") + what +
                               ": empty metric handle");
  return s;
}

using detail::mismatch;

void requireDefined(const std::string &who, const Tensor &y_true,
                    const Tensor &y_pred) {
  if (!y_true.defined() || !y_pred.defined())
    throw InvalidArgumentError(who + ": y_true and y_pred must be defined");
}

bool isInt(DType t) { return t == DType::Int32 || t == DType::Int64; }

/// The number of samples of `samplewise` (rank 0 or 1) as a float32 scalar;
/// computed at run time when the batch dim is dynamic.
Tensor sampleCount(const Tensor &samplewise) {
  if (samplewise.rank() == 0)
    return full({}, 1, DType::Float32);
  if (samplewise.shape()[0] >= 0)
    return full({}, double(samplewise.shape()[0]), DType::Float32);
  // Every element is equal or unequal to itself (NaN): one each. No scalar
  // is broadcast to the dynamic shape, which a relaxed trace cannot do.
  return reduce_sum(cast(samplewise == samplewise, DType::Float32)) +
         reduce_sum(cast(samplewise != samplewise, DType::Float32));
}

/// Keras's Mean.update_state: values (as float32) reduced to one value per
/// sample by a mean over every dim but the first.
void accumulateMean(MetricState &s, const Tensor &values) {
  Tensor v = cast(values, DType::Float32);
  if (v.rank() >= 2) {
    std::vector<int64_t> inner;
    for (int64_t d = 1; d < v.rank(); ++d)
      inner.push_back(d);
    v = reduce_mean(v, inner);
  }
  Tensor n = sampleCount(v);
  s.total.assign_add(reduce_sum(v));
  s.count->assign_add(n);
}

/// y_true and y_pred for the accuracy functions: one dtype, the wider of the
/// two (bool < int32 < int64 < float32 < float64).
std::pair<Tensor, Tensor> commonDType(const Tensor &a, const Tensor &b) {
  DType t = int(a.dtype()) > int(b.dtype()) ? a.dtype() : b.dtype();
  return {cast(a, t), cast(b, t)};
}

/// Labels and y_pred's rows for the sparse metrics: labels of shape
/// y_pred.shape[:-1] (a trailing 1 is squeezed).
Tensor sparseLabels(const std::string &who, const Tensor &y_true,
                    const Tensor &y_pred) {
  requireDefined(who, y_true, y_pred);
  if (y_pred.rank() == 0)
    mismatch(who, y_true, y_pred, "y_pred needs a class dim");
  Tensor labels = y_true;
  if (labels.rank() == y_pred.rank() && labels.shape().back() == 1)
    labels = squeeze(labels, {-1});
  std::vector<int64_t> batch(y_pred.shape().begin(), y_pred.shape().end() - 1);
  if (!detail::shapes_match(labels.shape(), batch))
    mismatch(who, y_true, y_pred,
             "the labels' shape must be y_pred's without its last dim (or "
             "with a last dim of 1)");
  return labels;
}

/// For the categorical metrics: equal shapes with a class dim.
void requireSameShape(const std::string &who, const Tensor &y_true,
                      const Tensor &y_pred) {
  requireDefined(who, y_true, y_pred);
  if (y_pred.rank() == 0 ||
      !detail::shapes_match(y_true.shape(), y_pred.shape()))
    mismatch(who, y_true, y_pred,
             "y_true and y_pred must have the same shape, with a class dim");
}

/// tf.math.in_top_k: whether each target (int64) is among the k largest of
/// its row of `predictions`, ties at the boundary counted in; false for a
/// target out of range or a row with a non-finite prediction.
Tensor inTopK(const std::string &who, const Tensor &targets,
              const Tensor &predictions, int k) {
  int64_t classes = predictions.shape().back();
  if (classes < 0)
    throw InvalidArgumentError(who + ": the class dim of y_pred " +
                               shape_to_string(predictions.shape()) +
                               " must be static");
  Tensor p = cast(predictions, DType::Float32);
  Tensor mask = expand_dims(targets, -1) == range(0, classes, 1, DType::Int64);
  constexpr double inf = std::numeric_limits<double>::infinity();
  Tensor score = reduce_max(where(mask, p, -inf), {-1}, /*keepdims=*/true);
  Tensor better = reduce_sum(cast(p > score, DType::Int32), {-1});
  Tensor valid = reduce_any(mask, {-1}) & reduce_all(abs(p) < inf, {-1});
  return (better < k) & valid;
}

Metric meanOf(std::string name, Metric::Fn fn) {
  return Metric(std::make_shared<MetricState>(
      std::move(name), MetricState::Kind::Mean, std::move(fn)));
}

void requireK(const char *who, int k) {
  if (k < 1)
    throw InvalidArgumentError(std::string(who) + ": k must be >= 1, got " +
                               std::to_string(k));
}

} // namespace

//===----------------------------------------------------------------------===//
// Metric
//===----------------------------------------------------------------------===//

Metric::Metric(std::shared_ptr<detail::MetricState> state)
    : state_(std::move(state)) {}

void Metric::update_state(const Tensor &values) {
  MetricState &s = *require(state_, "update_state");
  if (s.fn)
    throw InvalidArgumentError(
        "Metric " + s.name +
        ": update_state takes (y_true, y_pred) for this metric, not values");
  if (!values.defined())
    throw InvalidArgumentError("Metric " + s.name +
                               ": update_state: undefined values");
  if (s.kind == MetricState::Kind::Sum)
    s.total.assign_add(reduce_sum(cast(values, DType::Float32)));
  else
    accumulateMean(s, values);
}

void Metric::update_state(const Tensor &y_true, const Tensor &y_pred) {
  MetricState &s = *require(state_, "update_state");
  if (!s.fn)
    throw InvalidArgumentError(
        "Metric " + s.name +
        ": update_state takes one tensor of values for this metric, not "
        "(y_true, y_pred)");
  accumulateMean(s, s.fn(y_true, y_pred));
}

Tensor Metric::result() const {
  const MetricState &s = *require(state_, "result");
  Tensor total = s.total.value();
  if (s.kind == MetricState::Kind::Sum)
    return total;
  // Keras's divide_no_nan: 0 before the first sample.
  Tensor count = s.count->value();
  Tensor empty = count == 0.0;
  return where(empty, 0.0, total / where(empty, 1.0, count));
}

void Metric::reset_state() {
  for (Variable &v : variables())
    v.assign(zeros({}, DType::Float32));
}

const std::string &Metric::name() const {
  return require(state_, "name")->name;
}

std::vector<Variable> Metric::variables() const {
  const MetricState &s = *require(state_, "variables");
  std::vector<Variable> out = {s.total};
  if (s.count)
    out.push_back(*s.count);
  return out;
}

//===----------------------------------------------------------------------===//
// Factories
//===----------------------------------------------------------------------===//

namespace metrics {

Metric Mean(std::string name) {
  return Metric(std::make_shared<MetricState>(
      std::move(name), MetricState::Kind::Mean, Metric::Fn()));
}

Metric Sum(std::string name) {
  return Metric(std::make_shared<MetricState>(
      std::move(name), MetricState::Kind::Sum, Metric::Fn()));
}

Metric Accuracy(std::string name) {
  return meanOf(std::move(name),
                [](const Tensor &y_true, const Tensor &y_pred) {
                  const std::string who = "Accuracy";
                  requireDefined(who, y_true, y_pred);
                  auto [t0, p0] = commonDType(y_true, y_pred);
                  auto [t, p] = losses::squeeze_or_expand_to_same_rank(t0, p0);
                  if (!detail::shapes_match(t.shape(), p.shape()))
                    mismatch(who, y_true, y_pred, "incompatible shapes");
                  return cast(t == p, DType::Float32);
                });
}

Metric BinaryAccuracy(std::string name, double threshold) {
  return meanOf(
      std::move(name), [threshold](const Tensor &y_true, const Tensor &y_pred) {
        const std::string who = "BinaryAccuracy";
        requireDefined(who, y_true, y_pred);
        auto [t, p] = losses::squeeze_or_expand_to_same_rank(y_true, y_pred);
        if (!detail::shapes_match(t.shape(), p.shape()))
          mismatch(who, y_true, y_pred, "incompatible shapes");
        return cast(t == cast(p > threshold, t.dtype()), DType::Float32);
      });
}

Metric SparseCategoricalAccuracy(std::string name) {
  return meanOf(std::move(name),
                [](const Tensor &y_true, const Tensor &y_pred) {
                  const std::string who = "SparseCategoricalAccuracy";
                  Tensor labels = sparseLabels(who, y_true, y_pred);
                  if (labels.dtype() == DType::Bool)
                    mismatch(who, y_true, y_pred, "the labels must be numeric");
                  Tensor predicted = cast(argmax(y_pred, -1), labels.dtype());
                  return cast(labels == predicted, DType::Float32);
                });
}

Metric CategoricalAccuracy(std::string name) {
  return meanOf(
      std::move(name), [](const Tensor &y_true, const Tensor &y_pred) {
        requireSameShape("CategoricalAccuracy", y_true, y_pred);
        return cast(argmax(y_true, -1) == argmax(y_pred, -1), DType::Float32);
      });
}

Metric TopKCategoricalAccuracy(int k, std::string name) {
  requireK("TopKCategoricalAccuracy", k);
  return meanOf(
      std::move(name), [k](const Tensor &y_true, const Tensor &y_pred) {
        const std::string who = "TopKCategoricalAccuracy";
        requireSameShape(who, y_true, y_pred);
        return cast(inTopK(who, argmax(y_true, -1), y_pred, k), DType::Float32);
      });
}

Metric SparseTopKCategoricalAccuracy(int k, std::string name) {
  requireK("SparseTopKCategoricalAccuracy", k);
  return meanOf(
      std::move(name), [k](const Tensor &y_true, const Tensor &y_pred) {
        const std::string who = "SparseTopKCategoricalAccuracy";
        Tensor labels = sparseLabels(who, y_true, y_pred);
        if (!isInt(labels.dtype()))
          mismatch(who, y_true, y_pred, "the labels must be int32 or int64");
        return cast(inTopK(who, cast(labels, DType::Int64), y_pred, k),
                    DType::Float32);
      });
}

Metric MeanMetricWrapper(Loss loss, std::string name) {
  if (!loss)
    throw InvalidArgumentError("MeanMetricWrapper: empty loss handle");
  return meanOf(std::move(name),
                [loss](const Tensor &y_true, const Tensor &y_pred) {
                  return loss.call(y_true, y_pred);
                });
}

Metric MeanSquaredError(std::string name) {
  return MeanMetricWrapper(losses::MeanSquaredError(), std::move(name));
}

} // namespace metrics

} // namespace tfc::keras
