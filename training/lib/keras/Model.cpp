//===- Model.cpp - compile, fit, evaluate, predict, summary ---------------===//
//
// The train, test and predict steps are functors run through
// tfc::function: each traces once per input signature and runs compiled
// code after that. Metric and optimizer state are Variables, so the
// compiled steps update them in place.
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Model.h"

#include "tfc/frontend/ControlFlow.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Distribute.h"
#include "tfc/frontend/Function.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/train/Checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <sched.h>
#include <sstream>
#include <thread>

namespace tfc::keras {

namespace detail {
struct ModelState;
}

// The steps in an anonymous namespace: libtfc.map exports every tfc name,
// and tfc::function names a functor type through its typeinfo.
namespace {
using detail::ModelState;

/// Cores this process may run on (its affinity mask).
int availableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return CPU_COUNT(&set);
  return std::max(1, int(std::thread::hardware_concurrency()));
}

/// The compiled steps run with subnormals flushed to zero, as TensorFlow
/// runs Keras's (docs/training.md, "compile, fit, evaluate, predict").
FunctionOptions stepOptions(const char *name) {
  return FunctionOptions{.name = name, .flush_denormals = true};
}

/// Forward, loss, gradients, optimizer update, metric updates: one step.
/// Each step holds the state by pointer (the state owns the Function that
/// owns the step) and takes the inputs, then the targets, as separate
/// tensors: tfc::function traces tensor arguments, not vectors of them.
struct TrainStep {
  ModelState *m;
  template <class... T> Tensor operator()(const T &...ts) const;
};
/// steps_per_execution train steps in one call: a tfc::while_loop over the
/// K batches stacked in each argument (K * batch rows), one train step per
/// iteration.
struct MultiTrainStep {
  ModelState *m;
  template <class... T> Tensor operator()(const T &...ts) const;
};
struct TestStep {
  ModelState *m;
  template <class... T> Tensor operator()(const T &...ts) const;
};
struct PredictStep {
  ModelState *m;
  template <class... T> std::vector<Tensor> operator()(const T &...ts) const;
};

} // namespace

namespace detail {
struct ModelState {
  Layer network;
  CompileOptions options;
  bool compiled = false;
  bool stop = false;
  /// The loss tracker ("loss") first, then the compiled metrics.
  std::vector<Metric> metrics;
  std::optional<Function<TrainStep>> train;
  std::optional<Function<MultiTrainStep>> multi;
  std::optional<Function<TestStep>> test;
  std::optional<Function<PredictStep>> predict;

  size_t numInputs() const { return network.get()->num_inputs(); }
  size_t numOutputs() const { return network.get()->num_outputs(); }

  std::vector<Tensor> forward(const std::vector<Tensor> &xs, bool training) {
    if (xs.size() == 1 && numOutputs() == 1)
      return {network(xs[0], training)};
    return network.get()->call_multi(xs, training);
  }

  /// The loss of a batch (summed over the outputs, one Loss for each) and
  /// the metric updates (of the first output), for the train and test
  /// steps. `flat` holds the inputs, then one target per output.
  Tensor step(const std::vector<Tensor> &flat, bool training) {
    std::vector<Tensor> xs(flat.begin(), flat.begin() + long(numInputs()));
    std::vector<Tensor> ys(flat.begin() + long(numInputs()), flat.end());
    std::vector<Tensor> preds = forward(xs, training);
    Tensor loss;
    for (size_t i = 0; i < preds.size(); ++i) {
      Tensor l = options.loss(ys[i], preds[i]);
      loss = i == 0 ? l : loss + l;
    }
    // The loss tracker weighs each batch by its size (Keras's).
    metrics[0].update_state(broadcast_to(loss, {xs[0].shape()[0]}));
    for (size_t i = 1; i < metrics.size(); ++i)
      metrics[i].update_state(ys[0], preds[0]);
    return loss;
  }
};
} // namespace detail

namespace {

/// One train step on one batch (inputs then targets). Under a strategy
/// the metrics' updates (their state Variables' changes) ride in the
/// gradients' first all_reduce, so every replica's metrics hold the sums
/// over all replicas' rows without a collective of their own.
Tensor trainStep(ModelState *m, const std::vector<Tensor> &flat) {
  std::vector<Variable> vars = m->network.trainable_variables();
  const auto &strategy = m->options.strategy;
  std::vector<Variable> states;
  std::vector<Tensor> before;
  if (strategy && strategy->num_replicas_in_sync() > 1)
    for (const Metric &metric : m->metrics)
      for (const Variable &v : metric.variables()) {
        states.push_back(v);
        before.push_back(v.value());
      }
  GradientTape tape;
  Tensor loss = m->step(flat, true);
  std::vector<Tensor> grads = tape.gradient(loss, vars);
  if (strategy) {
    std::vector<Tensor> updates;
    for (size_t i = 0; i < states.size(); ++i)
      updates.push_back(states[i].value() - before[i]);
    grads = strategy->reduce_gradients(grads, flat[0].shape()[0],
                                       states.empty() ? nullptr : &updates);
    for (size_t i = 0; i < states.size(); ++i)
      states[i].assign(before[i] + updates[i]);
  }
  m->options.optimizer.apply_gradients(grads, vars);
  return loss;
}

template <class... T> Tensor TrainStep::operator()(const T &...ts) const {
  return trainStep(m, {ts...});
}

template <class... T> Tensor MultiTrainStep::operator()(const T &...ts) const {
  std::vector<Tensor> stacked{ts...};
  const int64_t k = m->options.steps_per_execution;
  const int64_t rows = stacked[0].shape()[0] / k;
  Tensor iota = cast(range(0, rows), DType::Int32);
  std::vector<Tensor> out = while_loop(
      [k](const std::vector<Tensor> &v) { return v[0] < int32_t(k); },
      [&](const std::vector<Tensor> &v) {
        // Batch i: rows [i * rows, (i + 1) * rows) of each argument.
        Tensor at = iota + v[0] * int32_t(rows);
        std::vector<Tensor> flat;
        for (const Tensor &t : stacked)
          flat.push_back(gather(t, at));
        return std::vector<Tensor>{v[0] + 1, trainStep(m, flat)};
      },
      {constant(0), constant(0.f)});
  return out[1];
}

template <class... T> Tensor TestStep::operator()(const T &...ts) const {
  return m->step({ts...}, false);
}

template <class... T>
std::vector<Tensor> PredictStep::operator()(const T &...ts) const {
  return m->forward({ts...}, false);
}

/// f(a[0], a[1], ...): a runtime list to the steps' separate arguments.
template <class F> auto callFlat(const F &f, const std::vector<Tensor> &a) {
  switch (a.size()) {
  case 1:
    return f(a[0]);
  case 2:
    return f(a[0], a[1]);
  case 3:
    return f(a[0], a[1], a[2]);
  case 4:
    return f(a[0], a[1], a[2], a[3]);
  case 5:
    return f(a[0], a[1], a[2], a[3], a[4]);
  case 6:
    return f(a[0], a[1], a[2], a[3], a[4], a[5]);
  default:
    throw InvalidArgumentError(
        "Model: at most 6 inputs and targets together, got " +
        std::to_string(a.size()));
  }
}

} // namespace

namespace {

/// The Sequential container: each layer feeds the next.
class SequentialNetwork : public LayerBase {
public:
  SequentialNetwork(std::vector<Layer> layers, std::string name)
      : LayerBase(std::move(name)) {
    for (Layer &l : layers)
      track(std::move(l));
  }
  std::string class_name() const override { return "Sequential"; }
  Tensor call(const Tensor &x, bool training) override {
    Tensor h = x;
    for (const Layer &l : children())
      h = l(h, training);
    return h;
  }
  std::vector<Layer> children() const {
    return Layer(const_cast<SequentialNetwork *>(this)->shared_from_this())
        .layers();
  }
};

[[noreturn]] void fail(const std::string &what) {
  throw InvalidArgumentError("Model: " + what);
}

std::string shapeStr(const Shape &s, bool batchUnknown) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + ((i == 0 && batchUnknown) || s[i] < 0
                                ? std::string("None")
                                : std::to_string(s[i]));
  return r + (s.size() == 1 ? ",)" : ")");
}

/// 101770 -> "101,770".
std::string withCommas(int64_t n) {
  std::string digits = std::to_string(n), r;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      r += ',';
    r += digits[i];
  }
  return r;
}

/// The metric a name given to compile() stands for, with the loss deciding
/// what "accuracy" means (Keras's get_metric).
Metric resolveMetric(const std::string &name, const Loss &loss) {
  const std::string &l = loss.name();
  if (name == "accuracy" || name == "acc") {
    if (l == "sparse_categorical_crossentropy")
      return metrics::SparseCategoricalAccuracy("accuracy");
    if (l == "categorical_crossentropy")
      return metrics::CategoricalAccuracy("accuracy");
    if (l == "binary_crossentropy")
      return metrics::BinaryAccuracy("accuracy");
    return metrics::Accuracy("accuracy");
  }
  if (name == "sparse_categorical_accuracy")
    return metrics::SparseCategoricalAccuracy();
  if (name == "categorical_accuracy")
    return metrics::CategoricalAccuracy();
  if (name == "top_k_categorical_accuracy")
    return metrics::TopKCategoricalAccuracy();
  if (name == "sparse_top_k_categorical_accuracy")
    return metrics::SparseTopKCategoricalAccuracy();
  if (name == "mse" || name == "mean_squared_error")
    return metrics::MeanSquaredError(name);
  fail("compile: unknown metric '" + name +
       "' (known: accuracy, sparse_categorical_accuracy, "
       "categorical_accuracy, top_k_categorical_accuracy, "
       "sparse_top_k_categorical_accuracy, mse)");
}

callbacks::Logs readMetrics(const std::vector<Metric> &ms,
                            const std::string &prefix = "") {
  callbacks::Logs logs;
  for (const Metric &m : ms)
    logs[prefix + m.name()] = double(m.result().item<float>());
  return logs;
}

/// The metrics' values over every replica after replica-local updates
/// (evaluate's test steps): their state Variables (sums and counts) summed
/// across replicas for the read, then restored. Train steps sum their
/// updates across replicas themselves (trainStep).
callbacks::Logs readMetricsAcrossReplicas(const detail::ModelState &s,
                                          const std::string &prefix = "") {
  const auto &strategy = s.options.strategy;
  if (!strategy || strategy->num_replicas_in_sync() == 1)
    return readMetrics(s.metrics, prefix);
  std::vector<Variable> vars;
  for (const Metric &m : s.metrics)
    for (const Variable &v : m.variables())
      vars.push_back(v);
  std::vector<Tensor> local, parts;
  for (const Variable &v : vars) {
    local.push_back(v.value());
    parts.push_back(reshape(cast(v.value(), DType::Float64), {-1}));
  }
  Tensor summed = distribute::all_reduce(concat(parts, 0));
  int64_t at = 0;
  for (size_t i = 0; i < vars.size(); ++i) {
    int64_t n = local[i].numel();
    Variable v = vars[i];
    v.assign(cast(reshape(slice(summed, {at}, {n}), local[i].shape()),
                  local[i].dtype()));
    at += n;
  }
  callbacks::Logs logs = readMetrics(s.metrics, prefix);
  for (size_t i = 0; i < vars.size(); ++i) {
    Variable v = vars[i];
    v.assign(local[i]);
  }
  return logs;
}

void resetMetrics(std::vector<Metric> ms) {
  for (Metric &m : ms)
    m.reset_state();
}

/// f on `l` and every layer below it.
template <class F> void forEachLayer(const Layer &l, const F &f) {
  f(l);
  for (const Layer &child : l.layers())
    forEachLayer(child, f);
}

/// The first `n` rows of t, or rows [begin, begin + n).
Tensor rows(const Tensor &t, int64_t begin, int64_t n) {
  std::vector<int64_t> b(size_t(t.rank()), 0), s = t.shape();
  b[0] = begin;
  s[0] = n;
  return slice(t, b, s);
}

} // namespace

Model::Model(Layer network) : Layer(std::move(network)) {
  if (!impl_)
    fail("empty network");
  state_ = std::make_shared<detail::ModelState>();
  state_->network = Layer(impl_);
}

Model Sequential(std::vector<Layer> layers, std::string name) {
  for (size_t i = 0; i < layers.size(); ++i)
    if (!layers[i])
      fail("Sequential: layer " + std::to_string(i) + " is an empty handle");
  return Model(
      make_layer<SequentialNetwork>(std::move(layers), std::move(name)));
}

std::vector<Tensor> Model::operator()(const std::vector<Tensor> &inputs,
                                      bool training) const {
  if (!state_)
    fail("empty model");
  return state_->forward(inputs, training);
}

void Model::build(const Shape &input_shape) {
  if (!state_)
    fail("build: empty model");
  if (built())
    return;
  Shape concrete = input_shape;
  for (int64_t &d : concrete)
    if (d < 0)
      d = 1;
  (void)(*this)(zeros(concrete, DType::Float32), false);
}

void Model::compile(CompileOptions options) {
  if (!state_)
    fail("compile: empty model");
  if (!options.optimizer)
    fail("compile: no optimizer");
  if (!options.loss)
    fail("compile: no loss");
  if (options.steps_per_execution < 1)
    fail("compile: steps_per_execution must be >= 1, got " +
         std::to_string(options.steps_per_execution));
  std::vector<Metric> ms{metrics::Mean("loss")};
  for (const std::string &name : options.metrics)
    ms.push_back(resolveMetric(name, options.loss));
  state_->options = std::move(options);
  state_->metrics = std::move(ms);
  state_->compiled = true;
  // New configuration, new traces.
  state_->train.reset();
  state_->multi.reset();
  state_->test.reset();
}

namespace {

void requireCompiled(const detail::ModelState *s, const char *what) {
  if (!s)
    fail(std::string(what) + ": empty model");
  if (!s->compiled)
    fail(std::string(what) + ": call compile() first");
}

void requireBatchPair(const char *what, const Tensor &x, const Tensor &y) {
  if (!x.defined() || !y.defined())
    fail(std::string(what) + ": undefined x or y");
  if (x.rank() < 1 || y.rank() < 1 || x.shape()[0] != y.shape()[0])
    fail(std::string(what) +
         ": x and y must have the same number of rows, "
         "got shapes " +
         shapeStr(x.shape(), false) + " and " + shapeStr(y.shape(), false));
}

} // namespace

std::map<std::string, double> Model::train_on_batch(const Tensor &x,
                                                    const Tensor &y) {
  return train_on_batch(std::vector<Tensor>{x}, std::vector<Tensor>{y});
}

namespace {

/// The inputs then the targets of one batch, checked against the model.
std::vector<Tensor> flatBatch(const char *what, const detail::ModelState &s,
                              const std::vector<Tensor> &x,
                              const std::vector<Tensor> &y) {
  if (x.size() != s.numInputs() || y.size() != s.numOutputs())
    fail(std::string(what) + ": the model takes " +
         std::to_string(s.numInputs()) + " inputs and " +
         std::to_string(s.numOutputs()) + " targets, got " +
         std::to_string(x.size()) + " and " + std::to_string(y.size()));
  std::vector<Tensor> flat = x;
  flat.insert(flat.end(), y.begin(), y.end());
  for (const Tensor &t : flat)
    requireBatchPair(what, x[0], t);
  return flat;
}

/// A dataset element (inputs then targets) checked against the model.
std::vector<Tensor> splitAndCheck(const char *what, const detail::ModelState &s,
                                  const std::vector<Tensor> &element) {
  const size_t ni = s.numInputs();
  if (element.size() != ni + s.numOutputs())
    fail(std::string(what) + ": dataset elements must hold " +
         std::to_string(ni) + " inputs and " + std::to_string(s.numOutputs()) +
         " targets, got " + std::to_string(element.size()) + " components");
  return flatBatch(
      what, s, std::vector<Tensor>(element.begin(), element.begin() + long(ni)),
      std::vector<Tensor>(element.begin() + long(ni), element.end()));
}

} // namespace

void Model::ensureTrainStep(const std::vector<Tensor> &flat) {
  if (!built())
    build(flat[0].shape());
  if (!state_->train) {
    state_->options.optimizer.build(state_->network.trainable_variables());
    // Every replica starts from replica 0's weights and optimizer state.
    if (const auto &strategy = state_->options.strategy;
        strategy && strategy->num_replicas_in_sync() > 1) {
      distribute::broadcast(state_->network.variables());
      distribute::broadcast(state_->options.optimizer.variables());
      forEachLayer(state_->network, [&](const Layer &l) {
        l.get()->on_replica(strategy->replica_id(),
                            strategy->num_replicas_in_sync());
      });
    }
    state_->train.emplace(TrainStep{state_.get()}, stepOptions("train_step"));
  }
}

std::map<std::string, double>
Model::train_on_batch(const std::vector<Tensor> &x,
                      const std::vector<Tensor> &y) {
  requireCompiled(state_.get(), "train_on_batch");
  std::vector<Tensor> flat = flatBatch("train_on_batch", *state_, x, y);
  ensureTrainStep(flat);
  resetMetrics(state_->metrics);
  callFlat(*state_->train, flat);
  return readMetrics(state_->metrics);
}

History Model::fit(const Tensor &x, const Tensor &y, FitOptions o) {
  requireCompiled(state_.get(), "fit");
  requireBatchPair("fit", x, y);
  if (o.batch_size < 1)
    fail("fit: batch_size must be >= 1, got " + std::to_string(o.batch_size));
  if (!(o.validation_split >= 0 && o.validation_split < 1))
    fail("fit: validation_split must be in [0, 1), got " +
         std::to_string(o.validation_split));
  Tensor xt = x, yt = y;
  if (o.validation_split > 0) {
    if (o.validation_data)
      fail("fit: give validation_split or validation_data, not both");
    // Keras holds out the last rows, before any shuffling.
    const int64_t n = x.shape()[0];
    const int64_t held = int64_t(double(n) * o.validation_split);
    if (held == 0 || held == n)
      fail("fit: validation_split " + std::to_string(o.validation_split) +
           " of " + std::to_string(n) + " rows leaves an empty split");
    xt = rows(x, 0, n - held), yt = rows(y, 0, n - held);
    o.validation_data =
        std::make_pair(rows(x, n - held, held), rows(y, n - held, held));
    o.validation_split = 0; // now validation_data
  }
  const auto &strategy = state_->options.strategy;
  const int64_t replicas = strategy ? strategy->num_replicas_in_sync() : 1;
  // Replicas split the same global batches: they must shuffle alike.
  if (replicas > 1 && o.shuffle && o.seed == 0) {
    Tensor seed =
        from_vector<int64_t>({int64_t(std::random_device{}() >> 1) + 1}, {1});
    o.seed = uint64_t(distribute::broadcast(seed).item<int64_t>());
  }
  data::Dataset ds = data::Dataset::from_tensor_slices({xt, yt});
  if (o.shuffle)
    ds = o.seed ? ds.shuffle(xt.shape()[0], o.seed) : ds.shuffle(xt.shape()[0]);
  // Under a strategy each replica reads only its rows: shard the shuffled
  // rows, then batch batch_size / N of them. Replica r's batch i holds rows
  // i*B + r, i*B + r + N, ... of the shuffled order, so the replicas' batch
  // i together is the global batch i. A last global batch with fewer rows
  // than replicas is dropped (every replica must run every step).
  bool perReplica = false;
  if (replicas > 1 && o.batch_size % replicas == 0) {
    const int64_t n = xt.shape()[0];
    if (const int64_t tail = n % o.batch_size; tail != 0 && tail < replicas)
      ds = ds.take(n - tail);
    ds = ds.shard(replicas, strategy->replica_id())
             .batch(o.batch_size / replicas);
    perReplica = true;
  } else {
    ds = ds.batch(o.batch_size);
  }
  // As Keras's fit on arrays (its tf.data pipeline ends with
  // prefetch(AUTOTUNE)), the next batch is gathered on a background thread
  // while the step runs -- when a core is left over from the compute
  // threads, where it would otherwise take time from them, and not for
  // replicas, whose processes share the machine's cores. Same batches in the
  // same order either way.
  if (replicas == 1 && kernels::num_threads() < availableCores())
    ds = ds.prefetch(data::AUTOTUNE);
  // Epoch e shuffles with pass e of the seeded stream: a run resumed at
  // initial_epoch (from a checkpoint) sees the orders the uninterrupted run
  // saw. Starting a pass draws its order; its first batch is discarded.
  if (o.shuffle)
    for (int64_t e = 0; e < o.initial_epoch; ++e)
      (void)ds.begin();
  return fitBatches(ds, std::move(o), perReplica);
}

History Model::fit(const data::Dataset &train, FitOptions o) {
  return fitBatches(train, std::move(o), /*perReplica=*/false);
}

History Model::fitBatches(const data::Dataset &train, FitOptions o,
                          bool perReplica) {
  requireCompiled(state_.get(), "fit");
  if (o.epochs < 0 || o.initial_epoch < 0)
    fail("fit: epochs and initial_epoch must be >= 0");
  if (o.validation_split > 0)
    fail("fit: validation_split needs tensors, not a Dataset");
  int64_t steps = train.cardinality();
  if (steps == data::INFINITE_CARDINALITY)
    fail("fit: the dataset is infinite (repeat()); take() a finite part");

  const auto &strategy = state_->options.strategy;
  const bool chief = !strategy || strategy->is_chief();
  std::vector<Callback> cbs;
  for (const Callback &c : o.callbacks)
    if (chief || !c->chief_only())
      cbs.push_back(c);
  if (o.verbose != 0 && chief)
    cbs.push_back(callbacks::ProgbarLogger());
  CallbackParams params{o.epochs, steps, o.verbose};
  for (Callback &c : cbs) {
    c->set_model(this);
    c->set_params(params);
  }
  History history;
  state_->stop = false;
  for (Callback &c : cbs)
    c->on_train_begin({});
  for (int64_t epoch = o.initial_epoch; epoch < o.epochs; ++epoch) {
    for (Callback &c : cbs)
      c->on_epoch_begin(epoch, {});
    resetMetrics(state_->metrics);
    int64_t step = 0;
    callbacks::Logs logs;
    // Batches wait here until steps_per_execution of one shape are ready.
    std::vector<std::vector<Tensor>> pending;
    auto execute = [&](const std::vector<std::vector<Tensor>> &batches) {
      for (Callback &c : cbs)
        c->on_train_batch_begin(step, {});
      if (batches.size() == 1) {
        callFlat(*state_->train, batches[0]);
      } else {
        std::vector<Tensor> stacked;
        for (size_t i = 0; i < batches[0].size(); ++i) {
          std::vector<Tensor> parts;
          for (const auto &b : batches)
            parts.push_back(b[i]);
          stacked.push_back(concat(parts, 0));
        }
        if (!state_->multi)
          state_->multi.emplace(MultiTrainStep{state_.get()},
                                stepOptions("train_steps"));
        callFlat(*state_->multi, stacked);
      }
      step += int64_t(batches.size());
      logs = readMetrics(state_->metrics);
      // Keras calls the batch hooks once per execution.
      for (Callback &c : cbs)
        c->on_train_batch_end(step - 1, logs);
    };
    const size_t per = size_t(state_->options.steps_per_execution);
    for (const std::vector<Tensor> &batch : train) {
      std::vector<Tensor> flat = splitAndCheck("fit", *state_, batch);
      if (strategy && !perReplica &&
          (flat = strategy->local_part(flat)).empty())
        continue; // fewer rows than replicas: every replica skips it
      ensureTrainStep(flat);
      if (per == 1) {
        execute({flat});
        continue;
      }
      if (!pending.empty() && pending[0][0].shape() != flat[0].shape()) {
        for (const auto &b : pending) // a smaller last batch: one by one
          execute({b});
        pending.clear();
      }
      pending.push_back(std::move(flat));
      if (pending.size() == per) {
        execute(pending);
        pending.clear();
      }
    }
    for (const auto &b : pending)
      execute({b});
    if (o.validation_data) {
      auto val = evaluate(o.validation_data->first, o.validation_data->second,
                          o.batch_size);
      for (auto &[k, v] : val)
        logs["val_" + k] = v;
    }
    for (Callback &c : cbs)
      c->on_epoch_end(epoch, logs);
    history.epoch.push_back(epoch);
    for (auto &[k, v] : logs)
      history.history[k].push_back(v);
    if (state_->stop)
      break;
  }
  for (Callback &c : cbs)
    c->on_train_end({});
  for (Callback &c : cbs)
    c->set_model(nullptr);
  return history;
}

std::map<std::string, double> Model::evaluate(const data::Dataset &ds) {
  requireCompiled(state_.get(), "evaluate");
  if (ds.cardinality() == data::INFINITE_CARDINALITY)
    fail("evaluate: the dataset is infinite (repeat()); take() a finite part");
  if (!state_->test)
    state_->test.emplace(TestStep{state_.get()}, stepOptions("test_step"));
  resetMetrics(state_->metrics);
  const auto &strategy = state_->options.strategy;
  for (const std::vector<Tensor> &batch : ds) {
    std::vector<Tensor> flat = splitAndCheck("evaluate", *state_, batch);
    if (strategy && (flat = strategy->local_part(flat)).empty())
      continue;
    if (!built())
      build(flat[0].shape());
    callFlat(*state_->test, flat);
  }
  return readMetricsAcrossReplicas(*state_);
}

std::map<std::string, double> Model::evaluate(const Tensor &x, const Tensor &y,
                                              int64_t batch_size) {
  requireCompiled(state_.get(), "evaluate");
  requireBatchPair("evaluate", x, y);
  if (batch_size < 1)
    fail("evaluate: batch_size must be >= 1");
  return evaluate(data::Dataset::from_tensor_slices({x, y}).batch(batch_size));
}

Tensor Model::predict(const Tensor &x, int64_t batch_size) {
  if (!state_)
    fail("predict: empty model");
  if (!x.defined() || x.rank() < 1)
    fail("predict: x must have a batch dim");
  if (state_->numInputs() != 1 || state_->numOutputs() != 1)
    fail("predict: the model has several inputs or outputs; call it with a "
         "vector of inputs");
  if (batch_size < 1)
    fail("predict: batch_size must be >= 1");
  if (!built())
    build(x.shape());
  if (!state_->predict)
    state_->predict.emplace(PredictStep{state_.get()},
                            stepOptions("predict_step"));
  std::vector<Tensor> outs;
  const int64_t n = x.shape()[0];
  for (int64_t b = 0; b < n; b += batch_size)
    outs.push_back(
        (*state_->predict)(rows(x, b, std::min(batch_size, n - b)))[0]);
  if (outs.empty())
    fail("predict: x has no rows");
  return outs.size() == 1 ? outs[0] : concat(outs, 0);
}

std::string Model::summary() const {
  if (!state_)
    fail("summary: empty model");
  std::ostringstream os;
  const std::string rule(65, '_'), dbl(65, '=');
  auto row = [&](const std::string &a, const std::string &b,
                 const std::string &c) {
    std::string line = " " + a;
    line.resize(std::max<size_t>(line.size() + 1, 29), ' ');
    line += b;
    line.resize(std::max<size_t>(line.size() + 1, 55), ' ');
    line += c;
    os << line << "\n";
  };
  os << "Model: \"" << name() << "\"\n" << rule << "\n";
  row("Layer (type)", "Output Shape", "Param #");
  os << dbl << "\n";
  std::vector<Layer> subs = layers();
  if (subs.empty())
    subs.push_back(*this);
  for (size_t i = 0; i < subs.size(); ++i) {
    const Layer &l = subs[i];
    Shape out = l.get()->last_output_shape();
    row(l.name() + " (" + l.class_name() + ")",
        out.empty() && !l.built() ? "(unbuilt)" : shapeStr(out, true),
        withCommas(l.built() ? l.count_params() : 0));
    if (i + 1 < subs.size())
      os << "\n";
  }
  int64_t trainable = 0, total = count_params();
  for (const Variable &v : trainable_variables()) {
    int64_t e = 1;
    for (int64_t d : v.shape())
      e *= d;
    trainable += e;
  }
  os << dbl << "\n";
  os << "Total params: " << withCommas(total) << "\n";
  os << "Trainable params: " << withCommas(trainable) << "\n";
  os << "Non-trainable params: " << withCommas(total - trainable) << "\n";
  os << rule << "\n";
  return os.str();
}

void Model::save_weights(const std::string &path) const {
  if (!state_)
    fail("save_weights: empty model");
  if (!built())
    fail("save_weights: the model has no weights yet (build or call it)");
  train::save_variables(path, named_variables());
}

void Model::load_weights(const std::string &path) {
  if (!state_)
    fail("load_weights: empty model");
  if (!built())
    fail("load_weights: build or call the model first, so that its weights "
         "exist");
  train::load_variables(path, named_variables());
}

void Model::set_stop_training(bool stop) {
  if (state_)
    state_->stop = stop;
}
bool Model::stop_training() const { return state_ && state_->stop; }

std::vector<Metric> Model::metrics() const {
  return state_ ? state_->metrics : std::vector<Metric>{};
}

const CompileOptions &Model::compile_options() const {
  requireCompiled(state_.get(), "compile_options");
  return state_->options;
}

} // namespace tfc::keras
