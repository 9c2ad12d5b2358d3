//===- Callbacks.h - Keras callbacks: hooks into fit ------------*- C++ -*-===//
//
// A Callback is a handle to a CallbackBase whose on_* methods fit() calls
// with Keras's logs (a name -> value map: "loss", "accuracy", "val_loss",
// ...). fit() sets the model and the run's parameters first.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_CALLBACKS_H
#define TFC_KERAS_CALLBACKS_H

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tfc::keras {

class Model;

namespace callbacks {
using Logs = std::map<std::string, double>;
}

/// What fit() tells its callbacks before training.
struct CallbackParams {
  int64_t epochs = 1;
  int64_t steps = -1; ///< Steps per epoch; -1 when unknown.
  int verbose = 1;
};

/// Derive and override what you need (all default to nothing).
class CallbackBase {
public:
  using Logs = callbacks::Logs;
  virtual ~CallbackBase();
  virtual void set_model(Model *model) { model_ = model; }
  virtual void set_params(const CallbackParams &params) { params_ = params; }
  virtual void on_train_begin(const Logs &) {}
  virtual void on_train_end(const Logs &) {}
  virtual void on_epoch_begin(int64_t, const Logs &) {}
  virtual void on_epoch_end(int64_t, const Logs &) {}
  virtual void on_train_batch_begin(int64_t, const Logs &) {}
  virtual void on_train_batch_end(int64_t, const Logs &) {}
  virtual void on_test_begin(const Logs &) {}
  virtual void on_test_end(const Logs &) {}
  /// Under a distribution strategy, runs on the chief replica only (it
  /// writes files or the terminal: ProgbarLogger, ModelCheckpoint,
  /// CSVLogger).
  virtual bool chief_only() const { return false; }

protected:
  /// The model being trained (valid from set_model to on_train_end).
  Model *model_ = nullptr;
  CallbackParams params_;
};

/// A handle (copies share one callback object).
class Callback {
public:
  Callback() = default;
  explicit Callback(std::shared_ptr<CallbackBase> impl)
      : impl_(std::move(impl)) {}
  CallbackBase *get() const { return impl_.get(); }
  CallbackBase *operator->() const { return impl_.get(); }
  explicit operator bool() const { return bool(impl_); }

private:
  std::shared_ptr<CallbackBase> impl_;
};

template <class C, class... A> Callback make_callback(A &&...args) {
  return Callback(std::make_shared<C>(std::forward<A>(args)...));
}

namespace callbacks {
/// Keras's progress bar: on a terminal, a live bar with the step count, ETA
/// or elapsed time, steps/s and the running metrics, redrawn at most every
/// 0.05 s; otherwise one line per epoch. fit() adds one when verbose != 0.
/// Writes to stdout.
Callback ProgbarLogger();

struct EarlyStoppingOptions {
  std::string monitor = "val_loss";
  double min_delta = 0;
  int64_t patience = 0;
  std::string mode = "auto"; ///< "min", "max", or "auto" (max for accuracy)
  std::optional<double> baseline;
  bool restore_best_weights = false;
  int64_t start_from_epoch = 0;
};
Callback EarlyStopping(EarlyStoppingOptions = {});

struct ModelCheckpointOptions {
  std::string monitor = "val_loss";
  bool save_best_only = false;
  bool save_weights_only = true;
  std::string mode = "auto";
};
/// Saves the weights after each epoch to `filepath`, where "{epoch}" (1
/// based, or "{epoch:02d}") and "{<metric>}" / "{<metric>:.4f}" are
/// replaced by the epoch's values.
Callback ModelCheckpoint(std::string filepath, ModelCheckpointOptions = {});
/// One row per epoch: "epoch" then the logs' keys, sorted.
Callback CSVLogger(std::string filename, std::string separator = ",",
                   bool append = false);

struct LambdaCallbackOptions {
  std::function<void(int64_t epoch, const Logs &logs)> on_epoch_begin,
      on_epoch_end;
  std::function<void(int64_t batch, const Logs &logs)> on_batch_begin,
      on_batch_end;
  std::function<void(const Logs &logs)> on_train_begin, on_train_end;
};
Callback LambdaCallback(LambdaCallbackOptions);
} // namespace callbacks

} // namespace tfc::keras

#endif // TFC_KERAS_CALLBACKS_H
