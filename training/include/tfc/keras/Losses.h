//===- Losses.h - Keras losses ----------------------------------*- C++ -*-===//
//
// A Loss is a cheap handle to a per-sample loss function with Keras's
// default reduction, "sum_over_batch_size": loss(y_true, y_pred) is the mean
// of every per-sample loss (0 for an empty batch). Losses are tensor ops
// only, so they work eagerly, under a GradientTape and inside a
// tfc::function alike.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_LOSSES_H
#define TFC_KERAS_LOSSES_H

#include "tfc/runtime/Tensor.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tfc::keras {

class Loss {
public:
  /// Per-sample losses: y_pred's shape without its last dim (Keras's
  /// LossFunctionWrapper.call, before the reduction).
  using Fn = std::function<Tensor(const Tensor &y_true, const Tensor &y_pred)>;
  /// Empty: calling it throws.
  Loss() = default;
  Loss(std::string name, Fn fn);

  /// The mean over the batch of call(y_true, y_pred): a scalar of y_pred's
  /// dtype.
  Tensor operator()(const Tensor &y_true, const Tensor &y_pred) const;
  /// The per-sample losses, unreduced.
  Tensor call(const Tensor &y_true, const Tensor &y_pred) const;
  /// Keras's name: "sparse_categorical_crossentropy", "mean_squared_error"...
  const std::string &name() const;
  explicit operator bool() const { return bool(impl_); }

private:
  struct Impl {
    std::string name;
    Fn fn;
  };
  std::shared_ptr<const Impl> impl_;
};

namespace losses {

/// Integer labels (int32/int64) of shape y_pred.shape[:-1], or that with a
/// trailing 1, against probabilities (or logits) over the last axis.
struct SparseCategoricalCrossentropyOptions {
  bool from_logits = false;
};
/// One-hot (or soft) labels of y_pred's shape; label_smoothing in [0, 1]
/// mixes them with the uniform distribution.
struct CategoricalCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0;
};
/// Targets in [0, 1] of y_pred's shape (a trailing 1 on either side may be
/// missing); label_smoothing in [0, 1] pulls them towards 0.5.
struct BinaryCrossentropyOptions {
  bool from_logits = false;
  double label_smoothing = 0;
};

Loss SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions = {});
Loss CategoricalCrossentropy(CategoricalCrossentropyOptions = {});
Loss BinaryCrossentropy(BinaryCrossentropyOptions = {});
/// mean((y_pred - y_true)^2) over the last axis, per sample.
Loss MeanSquaredError();
/// mean(|y_pred - y_true|) over the last axis, per sample.
Loss MeanAbsoluteError();
/// 0.5 e^2 where |e| <= delta, delta (|e| - 0.5 delta) elsewhere, averaged
/// over the last axis (e = y_pred - y_true; delta > 0).
Loss Huber(double delta = 1.0);

/// Keras's squeeze_or_expand_to_same_rank: when the ranks differ by one and
/// the longer tensor's last dim is 1, squeezes that dim (or, when the other
/// is rank 1, expands the other instead). Used by losses and metrics alike.
std::pair<Tensor, Tensor> squeeze_or_expand_to_same_rank(const Tensor &x1,
                                                         const Tensor &x2);

} // namespace losses

namespace detail {
/// Equal ranks and dims, a dynamic (-1) dim matching any: shapes two
/// loss or metric arguments must share (no broadcasting).
bool shapes_match(const std::vector<int64_t> &a, const std::vector<int64_t> &b);
/// Throws InvalidArgumentError "<who>: <why> (y_true <dtype> of shape ...,
/// y_pred ...)".
[[noreturn]] void mismatch(const std::string &who, const Tensor &y_true,
                           const Tensor &y_pred, const std::string &why);
} // namespace detail

} // namespace tfc::keras

#endif // TFC_KERAS_LOSSES_H
