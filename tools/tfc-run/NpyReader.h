//===- NpyReader.h - Read NumPy .npy files into tensors ---------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// A small reader for the NumPy `.npy` format (versions 1, 2 and 3 of the
// header), enough for tfc-run's arguments: little-endian `<f4 <f8 <i4 <i8`
// and `|b1`, C order.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TOOLS_TFCRUN_NPYREADER_H
#define TFC_TOOLS_TFCRUN_NPYREADER_H

#include "tfc/runtime/Tensor.h"

#include <string>
#include <string_view>

namespace tfc::run {

/// Decodes the bytes of a `.npy` file; `name` is used in messages. Throws
/// InvalidArgumentError naming the problem (bad magic, unsupported dtype,
/// Fortran order, truncated data, ...).
Tensor decodeNpy(std::string_view bytes, const std::string &name);

/// Reads and decodes the `.npy` file at `path`.
Tensor readNpy(const std::string &path);

} // namespace tfc::run

#endif // TFC_TOOLS_TFCRUN_NPYREADER_H
