//===- SavedModel.h - inference functions, loadable alone ---*- C++ -*-===//
//
// saved_model::save writes a directory that runs with no model code: the
// traced inference function as MLIR bytecode (saved_model.mlirbc, its
// weights as arguments) and a snapshot of the weights
// (variables.safetensors, with the signature in its metadata). load()
// JIT-compiles it in any process; `tfc-run DIR --arg=...` runs it too.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_SAVED_MODEL_SAVEDMODEL_H
#define TFC_SAVED_MODEL_SAVEDMODEL_H

#include "tfc/keras/Model.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tfc::saved_model {

/// Writes `model`'s inference function (training = false) for inputs of
/// `input_shape` (without the batch dim, which stays dynamic) and `dtype`
/// under the signature "serving_default", and its current weights. Builds
/// the model if needed. The saved function is checked against the model on
/// a sample input before save returns.
void save(const keras::Model &model, const std::string &dir,
          keras::Shape input_shape, DType dtype = DType::Float32);

/// A loaded saved model (a handle; copies share the compiled code).
class Loaded {
public:
  struct Impl;
  explicit Loaded(std::shared_ptr<const Impl> impl);
  /// {"serving_default"}.
  std::vector<std::string> signatures() const;
  /// Runs a signature: one input of the saved dtype and shape (any batch);
  /// InvalidArgumentError for an unknown signature or a wrong argument.
  std::vector<Tensor> call(std::string_view signature,
                           const std::vector<Tensor> &args) const;

private:
  std::shared_ptr<const Impl> impl_;
};

/// Loads and JIT-compiles a directory written by save(); Error for a
/// missing, damaged or inconsistent directory.
Loaded load(const std::string &dir);

/// The file names inside a saved model directory.
inline constexpr const char *kModuleFile = "saved_model.mlirbc";
inline constexpr const char *kVariablesFile = "variables.safetensors";

} // namespace tfc::saved_model

#endif // TFC_SAVED_MODEL_SAVEDMODEL_H
