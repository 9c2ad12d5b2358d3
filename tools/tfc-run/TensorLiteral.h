//===- TensorLiteral.h - Tensors from command-line literals -----*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// tfc-run's argument syntax: `VALUE:DTYPE` where VALUE is a scalar or nested
// brackets (`[[1,2],[3,4]]:f32`, `3:i32`, `[true,false]:i1`, `[]:f32`), or
// the path of a `.npy` file.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TOOLS_TFCRUN_TENSORLITERAL_H
#define TFC_TOOLS_TFCRUN_TENSORLITERAL_H

#include "tfc/runtime/Tensor.h"

#include <string_view>

namespace tfc::run {

/// Parses `VALUE:DTYPE`. DTYPE is i1/i32/i64/f32/f64 (or bool, int32, int64,
/// float32, float64). Throws InvalidArgumentError saying what is wrong:
/// ragged rows, a value that does not fit the dtype, a missing dtype, ...
Tensor parseTensorLiteral(std::string_view text);

/// A `.npy` path (ends in ".npy") is read with tfc::load_npy, anything else is
/// parsed with parseTensorLiteral.
Tensor parseTensorArgument(std::string_view text);

} // namespace tfc::run

#endif // TFC_TOOLS_TFCRUN_TENSORLITERAL_H
