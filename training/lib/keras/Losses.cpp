//===- Losses.cpp - Keras losses ------------------------------------------===//
//
// Each loss follows Keras 3's formula (TensorFlow backend): probabilities
// are clipped to [1e-7, 1 - 1e-7] before a log, logits use the stable
// forms. Inputs are checked up front so that a mismatch is an
// InvalidArgumentError naming the loss and both shapes, never a broadcast.
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Losses.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"

#include <cmath>

namespace tfc::keras {

//===----------------------------------------------------------------------===//
// Loss
//===----------------------------------------------------------------------===//

Loss::Loss(std::string name, Fn fn)
    : impl_(
          std::make_shared<const Impl>(Impl{std::move(name), std::move(fn)})) {}

Tensor Loss::call(const Tensor &y_true, const Tensor &y_pred) const {
  if (!impl_ || !impl_->fn)
    throw InvalidArgumentError("Loss: empty loss handle");
  return impl_->fn(y_true, y_pred);
}

Tensor Loss::operator()(const Tensor &y_true, const Tensor &y_pred) const {
  Tensor values = call(y_true, y_pred);
  // "sum_over_batch_size" divides with divide_no_nan: an empty batch gives 0.
  if (values.numel() == 0)
    return zeros({}, values.dtype());
  return reduce_mean(values);
}

const std::string &Loss::name() const {
  if (!impl_)
    throw InvalidArgumentError("Loss::name: empty loss handle");
  return impl_->name;
}

namespace {
std::string describe(const char *what, const Tensor &t) {
  return std::string(what) + " " + std::string(to_string(t.dtype())) +
         " of shape " + shape_to_string(t.shape());
}
} // namespace

void detail::mismatch(const std::string &who, const Tensor &y_true,
                      const Tensor &y_pred, const std::string &why) {
  throw InvalidArgumentError(who + ": " + why + " (" +
                             describe("y_true", y_true) + ", " +
                             describe("y_pred", y_pred) + ")");
}

bool detail::shapes_match(const std::vector<int64_t> &a,
                          const std::vector<int64_t> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && a[i] >= 0 && b[i] >= 0)
      return false;
  return true;
}

namespace losses {

std::pair<Tensor, Tensor> squeeze_or_expand_to_same_rank(const Tensor &x1,
                                                         const Tensor &x2) {
  Tensor a = x1, b = x2;
  if (a.rank() == b.rank() + 1 && a.shape().back() == 1) {
    if (b.rank() == 1)
      b = expand_dims(b, -1);
    else
      a = squeeze(a, {-1});
  } else if (b.rank() == a.rank() + 1 && b.shape().back() == 1) {
    if (a.rank() == 1)
      a = expand_dims(a, -1);
    else
      b = squeeze(b, {-1});
  }
  return {a, b};
}

namespace {

/// Keras's backend.epsilon(), the clip of probabilities before a log.
constexpr double kEpsilon = 1e-7;

bool isFloat(DType t) { return t == DType::Float32 || t == DType::Float64; }
bool isInt(DType t) { return t == DType::Int32 || t == DType::Int64; }

using detail::mismatch;

/// Checks that y_pred is a floating tensor of rank >= 1 and that both are
/// defined.
void checkPred(const std::string &who, const Tensor &y_true,
               const Tensor &y_pred) {
  if (!y_true.defined() || !y_pred.defined())
    throw InvalidArgumentError(who + ": y_true and y_pred must be defined");
  if (!isFloat(y_pred.dtype()) || y_pred.rank() == 0)
    mismatch(who, y_true, y_pred,
             "y_pred must be a float32 or float64 tensor of rank >= 1");
}

/// y_true and y_pred as Keras's LossFunctionWrapper sees them: y_true in
/// y_pred's dtype (integer and bool targets are converted, a different float
/// dtype is an error), their ranks matched by squeeze_or_expand_to_same_rank
/// (a trailing 1 may be missing on either side), then equal shapes.
std::pair<Tensor, Tensor> alignDense(const std::string &who, Tensor y_true,
                                     Tensor y_pred) {
  checkPred(who, y_true, y_pred);
  if (isFloat(y_true.dtype()) && y_true.dtype() != y_pred.dtype())
    mismatch(who, y_true, y_pred, "y_true and y_pred have different dtypes");
  auto [yt, yp] =
      squeeze_or_expand_to_same_rank(cast(y_true, y_pred.dtype()), y_pred);
  if (!detail::shapes_match(yt.shape(), yp.shape()))
    mismatch(who, y_true, y_pred, "incompatible shapes");
  return {yt, yp};
}

void checkSmoothing(const char *who, double label_smoothing) {
  if (!(label_smoothing >= 0 && label_smoothing <= 1))
    throw InvalidArgumentError(std::string(who) +
                               ": label_smoothing must be in [0, 1], got " +
                               std::to_string(label_smoothing));
}

} // namespace

Loss SparseCategoricalCrossentropy(SparseCategoricalCrossentropyOptions o) {
  return {"sparse_categorical_crossentropy",
          [o](const Tensor &y_true, const Tensor &y_pred) {
            const std::string who = "SparseCategoricalCrossentropy";
            checkPred(who, y_true, y_pred);
            if (!isInt(y_true.dtype()))
              mismatch(who, y_true, y_pred,
                       "the labels must be int32 or int64 class indices");
            Tensor labels = y_true;
            if (labels.rank() == y_pred.rank() && labels.shape().back() == 1)
              labels = squeeze(labels, {-1});
            std::vector<int64_t> batch(y_pred.shape().begin(),
                                       y_pred.shape().end() - 1);
            if (!detail::shapes_match(labels.shape(), batch))
              mismatch(who, y_true, y_pred,
                       "the labels' shape must be y_pred's without its last "
                       "dim (or with a last dim of 1)");
            if (o.from_logits)
              return sparse_softmax_cross_entropy_with_logits(labels, y_pred);
            // Keras's TensorFlow backend: log of the clipped probabilities
            // taken as logits (so out-of-range labels raise, as for logits).
            Tensor logp = log(clip_by_value(y_pred, kEpsilon, 1 - kEpsilon));
            return sparse_softmax_cross_entropy_with_logits(labels, logp);
          }};
}

Loss CategoricalCrossentropy(CategoricalCrossentropyOptions o) {
  checkSmoothing("CategoricalCrossentropy", o.label_smoothing);
  return {"categorical_crossentropy",
          [o](const Tensor &y_true, const Tensor &y_pred) {
            const std::string who = "CategoricalCrossentropy";
            checkPred(who, y_true, y_pred);
            if (isFloat(y_true.dtype()) && y_true.dtype() != y_pred.dtype())
              mismatch(who, y_true, y_pred,
                       "y_true and y_pred have different dtypes");
            if (!detail::shapes_match(y_true.shape(), y_pred.shape()))
              mismatch(who, y_true, y_pred,
                       "y_true and y_pred must have the same shape");
            Tensor yt = cast(y_true, y_pred.dtype());
            if (o.label_smoothing != 0) {
              double classes = double(y_pred.shape().back());
              yt = yt * (1 - o.label_smoothing) + o.label_smoothing / classes;
            }
            if (o.from_logits)
              return softmax_cross_entropy_with_logits(yt, y_pred);
            Tensor p = y_pred / reduce_sum(y_pred, {-1}, /*keepdims=*/true);
            p = clip_by_value(p, kEpsilon, 1 - kEpsilon);
            return -reduce_sum(yt * log(p), {-1});
          }};
}

Loss BinaryCrossentropy(BinaryCrossentropyOptions o) {
  checkSmoothing("BinaryCrossentropy", o.label_smoothing);
  return {"binary_crossentropy",
          [o](const Tensor &y_true, const Tensor &y_pred) {
            auto [z, x] = alignDense("BinaryCrossentropy", y_true, y_pred);
            if (o.label_smoothing != 0)
              z = z * (1 - o.label_smoothing) + 0.5 * o.label_smoothing;
            Tensor bce;
            if (o.from_logits) {
              // tf.nn.sigmoid_cross_entropy_with_logits.
              bce = relu(x) - x * z + log1p(exp(-abs(x)));
            } else {
              Tensor p = clip_by_value(x, kEpsilon, 1 - kEpsilon);
              bce = -(z * log(p) + (1 - z) * log(1 - p));
            }
            return reduce_mean(bce, {-1});
          }};
}

Loss MeanSquaredError() {
  return {"mean_squared_error", [](const Tensor &y_true, const Tensor &y_pred) {
            auto [t, p] = alignDense("MeanSquaredError", y_true, y_pred);
            return reduce_mean(square(p - t), {-1});
          }};
}

Loss MeanAbsoluteError() {
  return {"mean_absolute_error",
          [](const Tensor &y_true, const Tensor &y_pred) {
            auto [t, p] = alignDense("MeanAbsoluteError", y_true, y_pred);
            return reduce_mean(abs(p - t), {-1});
          }};
}

Loss Huber(double delta) {
  if (!(delta > 0) || !std::isfinite(delta))
    throw InvalidArgumentError("Huber: delta must be > 0, got " +
                               std::to_string(delta));
  return {"huber_loss", [delta](const Tensor &y_true, const Tensor &y_pred) {
            auto [t, p] = alignDense("Huber", y_true, y_pred);
            Tensor error = p - t;
            Tensor absError = abs(error);
            return reduce_mean(where(absError <= delta, 0.5 * square(error),
                                     delta * absError - 0.5 * delta * delta),
                               {-1});
          }};
}

} // namespace losses

} // namespace tfc::keras
