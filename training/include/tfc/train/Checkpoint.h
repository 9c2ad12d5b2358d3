//===- Checkpoint.h - Checkpoints and their manager -------------*- C++ -*-===//
//
// tf.train.Checkpoint and tf.train.CheckpointManager on safetensors files
// (docs/checkpoints.md): a checkpoint names a few objects (layers and
// models, optimizers, plain Variables) and saves every variable they reach
// under a key derived from the object's name and the variable's path:
//
//   train::Checkpoint ckpt({{"model", model}, {"optimizer", opt},
//                           {"step", step}});
//   train::CheckpointManager manager(ckpt, "/tmp/run", 3);
//   manager.save();                                 // /tmp/run/ckpt-1...
//   ckpt.restore(*manager.latest_checkpoint());
//
// Restoring is all or nothing: the file must hold exactly the objects'
// variables with their dtypes and shapes, or nothing is assigned.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_TRAIN_CHECKPOINT_H
#define TFC_TRAIN_CHECKPOINT_H

#include "tfc/frontend/Variable.h"
#include "tfc/keras/Layer.h"
#include "tfc/keras/Optimizers.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace tfc::train {

/// Writes `vars` to the safetensors file `path` (atomically), each under its
/// key. Throws InvalidArgumentError for duplicate keys and when the file
/// cannot be written. Model::save_weights uses it.
void save_variables(const std::string &path,
                    const std::vector<std::pair<std::string, Variable>> &vars);

/// Assigns every variable of `vars` the tensor stored under its key in the
/// safetensors file `path`. All or nothing: the file must hold an entry for
/// every key with the variable's dtype and shape and no other entries;
/// otherwise InvalidArgumentError listing the missing, unexpected and
/// mismatched keys, and no variable changes. Model::load_weights uses it.
void load_variables(const std::string &path,
                    const std::vector<std::pair<std::string, Variable>> &vars);

/// What a checkpoint can hold.
using CheckpointObject = std::variant<keras::Layer, keras::Optimizer, Variable>;

/// An object-based checkpoint (tf.train.Checkpoint). A handle: copies share
/// the objects and the save counter.
///
/// Keys: a Layer (or Model) named "model" saves `model/<path>` for each of
/// its named_variables(); a Variable named "step" saves `step`; an Optimizer
/// named "optimizer" saves `optimizer/iterations` and, for each slot,
/// `optimizer/<slot>/<key of the slot's variable>` (e.g.
/// `optimizer/m/model/dense/kernel`), or `optimizer/<slot>/unnamed_<i>` when
/// that variable is not among the checkpoint's objects (i counts such
/// variables in slot order). A variable reached twice keeps its first key.
class Checkpoint {
public:
  /// Names must be non-empty, unique and not "__metadata__"; handles must
  /// not be empty (else InvalidArgumentError).
  Checkpoint(std::vector<std::pair<std::string, CheckpointObject>> objects);

  /// Increments the save counter to n and writes `<prefix>-<n>.safetensors`
  /// atomically (creating its directory); returns that path. The counter
  /// stays as it was when writing fails. Layers must be built.
  std::string save(const std::string &prefix);

  /// Reads and checks the whole file at `path`, then assigns every variable
  /// and sets the save counter from the file's metadata. Throws
  /// InvalidArgumentError, changing no variable, when the file is damaged,
  /// lacks an entry, holds an entry no object has, or holds one with another
  /// dtype or shape, or when a layer is not built yet. An optimizer that has
  /// no slots yet for variables whose slots the file holds gets them first
  /// (Optimizer::build, as fit() would), like tf.train.Checkpoint's deferred
  /// slot restoration.
  void restore(const std::string &path);

  /// The number of the last save (0 before any; restore sets it).
  int64_t save_counter() const;

  /// Every variable the checkpoint saves with its key: the layers' and
  /// plain variables in object order, then the optimizers' state.
  std::vector<std::pair<std::string, Variable>> named_variables() const;

  struct State;

private:
  friend class CheckpointManager;
  /// Writes the objects to `path` with save counter `n`.
  void write(const std::string &path, int64_t n) const;
  std::shared_ptr<State> state_;
};

/// Keeps the last `max_to_keep` checkpoints of `checkpoint` in `directory`
/// as `ckpt-<n>.safetensors` (tf.train.CheckpointManager). A handle: copies
/// share the list. A new manager finds the checkpoints already in the
/// directory and numbers after the highest.
class CheckpointManager {
public:
  /// `max_to_keep` must be positive (else InvalidArgumentError).
  CheckpointManager(Checkpoint checkpoint, std::string directory,
                    int max_to_keep = 5);

  /// Saves `<directory>/ckpt-<n>.safetensors` (creating the directory), n
  /// one past both the highest checkpoint number known and the
  /// checkpoint's save counter (which becomes n); then deletes the oldest
  /// checkpoints beyond max_to_keep. Returns the path written.
  std::string save();
  /// The newest checkpoint's path, if any.
  std::optional<std::string> latest_checkpoint() const;
  /// The kept checkpoints' paths, oldest first.
  std::vector<std::string> checkpoints() const;
  const std::string &directory() const;

  struct State;

private:
  std::shared_ptr<State> state_;
};

} // namespace tfc::train

#endif // TFC_TRAIN_CHECKPOINT_H
