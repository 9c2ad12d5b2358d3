//===- Model.h - Keras models: compile, fit, evaluate, predict --*- C++ -*-===//
//
// A Model is a Layer with a training configuration. fit() runs the train
// step -- forward, loss, gradients, optimizer update, metric updates -- as
// one tfc::function, traced once per input signature (a last partial batch
// is one more signature, traced once, not once per epoch).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_MODEL_H
#define TFC_KERAS_MODEL_H

#include "tfc/data/Dataset.h"
#include "tfc/distribute/Strategy.h"
#include "tfc/keras/Callbacks.h"
#include "tfc/keras/Layer.h"
#include "tfc/keras/Losses.h"
#include "tfc/keras/Metrics.h"
#include "tfc/keras/Optimizers.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tfc::keras {

struct CompileOptions {
  Optimizer optimizer;
  Loss loss;
  /// Names ("accuracy", "sparse_categorical_accuracy", "mse", ...);
  /// "accuracy" is the accuracy that fits the loss.
  std::vector<std::string> metrics;
  /// Train steps per compiled call (a tfc::while_loop over that many
  /// batches): fewer calls for small models.
  int64_t steps_per_execution = 1;
  /// Data-parallel training across processes (tf.distribute's
  /// MultiWorkerMirroredStrategy); null: this process alone.
  std::shared_ptr<distribute::MultiWorkerMirroredStrategy> strategy;
};

struct FitOptions {
  int64_t batch_size = 32;
  int64_t epochs = 1;
  /// 0: silent; 1: progress bar; 2: one line per epoch.
  int verbose = 1;
  std::vector<Callback> callbacks;
  /// The last fraction of x and y (before shuffling) held out.
  double validation_split = 0;
  std::optional<std::pair<Tensor, Tensor>> validation_data;
  bool shuffle = true;
  uint64_t seed = 0; ///< Shuffle seed; 0: unseeded.
  int64_t initial_epoch = 0;
};

struct History {
  /// "loss", the metric names, and "val_" + those; one value per epoch.
  std::map<std::string, std::vector<double>> history;
  std::vector<int64_t> epoch;
};

namespace detail {
struct ModelState;
}

class Model : public Layer {
public:
  Model() = default;
  /// The model whose network is `network` (any layer).
  explicit Model(Layer network);

  using Layer::operator();
  /// Several inputs and outputs (functional models); a one-input model
  /// takes one.
  std::vector<Tensor> operator()(const std::vector<Tensor> &inputs,
                                 bool training = false) const;

  /// Creates the weights from an input shape (batch dim included, -1 for
  /// unknown) by calling the model once on zeros.
  void build(const Shape &input_shape);

  void compile(CompileOptions options);
  History fit(const Tensor &x, const Tensor &y, FitOptions options = {});
  /// Elements (x, y) already batched; batch_size is ignored.
  History fit(const data::Dataset &train, FitOptions options = {});
  std::map<std::string, double> evaluate(const Tensor &x, const Tensor &y,
                                         int64_t batch_size = 32);
  std::map<std::string, double> evaluate(const data::Dataset &data);
  Tensor predict(const Tensor &x, int64_t batch_size = 32);
  /// One train step on one batch; returns the logs (loss and metrics of
  /// this batch alone).
  std::map<std::string, double> train_on_batch(const Tensor &x,
                                               const Tensor &y);
  std::map<std::string, double> train_on_batch(const std::vector<Tensor> &x,
                                               const std::vector<Tensor> &y);

  /// A table like Keras's: layer (type), output shape, parameter count.
  std::string summary() const;
  void save_weights(const std::string &path) const;
  void load_weights(const std::string &path);

  /// Set by a callback (EarlyStopping) to end fit after the current epoch.
  void set_stop_training(bool stop);
  bool stop_training() const;
  /// The compiled configuration's metrics (after compile), loss first.
  std::vector<Metric> metrics() const;
  const CompileOptions &compile_options() const;

private:
  /// Builds the weights, the optimizer's slots and the train step before
  /// the first step (`flat`: one batch's inputs and targets).
  void ensureTrainStep(const std::vector<Tensor> &flat);
  /// fit's loop; `perReplica`: the batches are this replica's part already
  /// (fit on tensors under a strategy shards before batching).
  History fitBatches(const data::Dataset &train, FitOptions options,
                     bool perReplica);

  std::shared_ptr<detail::ModelState> state_;
};

/// keras.Sequential: each layer's output feeds the next.
Model Sequential(std::vector<Layer> layers, std::string name = "");

/// The functional API. Input returns a symbolic input: a placeholder of
/// `shape_without_batch` with a batch of 1. Layers called on it, and tfc ops
/// applied to it or to tensors computed from it (`concat({a, b}, -1)`,
/// `x * 2`), are recorded on this thread; functional() makes a model of
/// what leads from `inputs` to `outputs`, which replays it on real data.
/// Write batch dims as -1 in shapes (reshape(x, {-1, 10})): the
/// placeholder's batch of 1 is not the model's.
Tensor Input(Shape shape_without_batch, DType dtype = DType::Float32);
Model functional(std::vector<Tensor> inputs, std::vector<Tensor> outputs,
                 std::string name = "");

/// A subclassed model: M derives from LayerBase.
template <class M, class... A> Model make_model(A &&...args) {
  return Model(make_layer<M>(std::forward<A>(args)...));
}

} // namespace tfc::keras

#endif // TFC_KERAS_MODEL_H
