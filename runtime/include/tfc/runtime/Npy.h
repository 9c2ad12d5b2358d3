//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reading and writing NumPy's `.npy` format (numpy.save / numpy.load), the
// interchange format of tfc-run and of user code (docs/user-guide.md, ".npy
// files"):
//
//   save_npy("w.npy", w);            // numpy.load("w.npy") reads it back
//   Tensor x = load_npy("x.npy");    // from numpy.save("x.npy", x)
//
// Supported: the dtypes tfc has (|b1 <i4 <i8 <f4 <f8; big-endian >i4 >i8
// >f4 >f8 are converted on reading), C order, any rank up to 64, header
// versions 1.0, 2.0 and 3.0. Everything else, and every damaged file, is an
// InvalidArgumentError naming the file and the problem.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_NPY_H
#define TFC_RUNTIME_NPY_H

#include "tfc/runtime/Tensor.h"

#include <string>
#include <string_view>

namespace tfc {

/// Reads the `.npy` file at `path` into a new CPU tensor. Throws
/// InvalidArgumentError when it cannot be opened, is not a well-formed .npy
/// file (bad magic or version, malformed header, data shorter or longer than
/// the header's shape says), or holds an unsupported dtype or Fortran order.
Tensor load_npy(const std::string &path);

/// Writes `t` (concrete; on any device) to `path` as a version 1.0 `.npy`
/// file: header padded to a multiple of 64 bytes, C order, little-endian.
/// Atomic: the data goes to a temporary file beside `path` that is then
/// renamed over it, so readers see the old file or the whole new one.
/// Throws InvalidArgumentError for an undefined or symbolic tensor and when
/// the file cannot be written.
void save_npy(const std::string &path, const Tensor &t);

/// The bytes of a `.npy` file, decoded as load_npy does; `name` stands for
/// the file in messages.
Tensor decode_npy(std::string_view bytes, const std::string &name = "<bytes>");

/// The bytes save_npy writes for `t`.
std::string encode_npy(const Tensor &t);

} // namespace tfc

#endif // TFC_RUNTIME_NPY_H
