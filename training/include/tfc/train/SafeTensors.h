//===- SafeTensors.h - Reading and writing safetensors files ----*- C++ -*-===//
//
// The safetensors format (huggingface/safetensors, "Format"): an 8-byte
// little-endian header size N, N bytes of JSON naming each tensor's dtype,
// shape and byte range, then the tensors' bytes. It is the file format of
// train::Checkpoint and Model::save_weights (docs/checkpoints.md).
//
//   save_safetensors("w.safetensors", {{"kernel", w}, {"bias", b}});
//   SafeTensorsFile f = load_safetensors("w.safetensors");
//
// Reading trusts nothing: every damaged or hostile file is an
// InvalidArgumentError naming the file and the problem.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_TRAIN_SAFETENSORS_H
#define TFC_TRAIN_SAFETENSORS_H

#include "tfc/runtime/Tensor.h"

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tfc::train {

/// What a safetensors file holds.
struct SafeTensorsFile {
  /// Named CPU tensors, in the order of their data in the file.
  std::vector<std::pair<std::string, Tensor>> tensors;
  /// The optional "__metadata__" object (string to string).
  std::map<std::string, std::string> metadata;
};

/// Writes `tensors` (concrete; any device, copied to the CPU) and `metadata`
/// to `path`: the header lists the tensors in sorted name order with
/// contiguous data in that order and is padded with spaces to a multiple of
/// 8 bytes. Atomic: the bytes go to `<path>.tmp-<pid>-<random>` beside it,
/// are flushed to disk, then renamed over `path`, so readers see the old
/// file or the whole new one. Throws InvalidArgumentError for duplicate or
/// reserved ("__metadata__") names, names or metadata that are not valid
/// UTF-8, undefined or symbolic tensors, and when the file cannot be written
/// (the temporary file is removed).
void save_safetensors(
    const std::string &path,
    const std::vector<std::pair<std::string, Tensor>> &tensors,
    const std::map<std::string, std::string> &metadata = {});

/// Reads the safetensors file at `path`. Throws InvalidArgumentError naming
/// the file and the problem when it cannot be read or is not well-formed:
/// header size beyond the file or above 100 MB, JSON outside the strict
/// subset (objects, arrays, strings, non-negative integers; no duplicate
/// keys; depth <= 8; only spaces after the object), entries without exactly
/// "dtype", "shape" and "data_offsets", dtypes other than F32, F64, I32, I64
/// and BOOL, rank above 64, byte ranges that disagree with the shape or do
/// not tile the data buffer exactly, a file size other than 8 + N + buffer
/// size, or BOOL bytes other than 0 and 1.
SafeTensorsFile load_safetensors(const std::string &path);

/// The bytes save_safetensors writes.
std::string
encode_safetensors(const std::vector<std::pair<std::string, Tensor>> &tensors,
                   const std::map<std::string, std::string> &metadata = {});

/// Decodes the bytes of a safetensors file as load_safetensors does; `name`
/// stands for the file in messages.
SafeTensorsFile decode_safetensors(std::string_view bytes,
                                   const std::string &name = "<bytes>");

} // namespace tfc::train

#endif // TFC_TRAIN_SAFETENSORS_H
