//===- OpsInternal.h - Helpers shared by the ops layer's sources -*- C++
//-*-===//
//
// Not installed, not part of the API. MLIR-free, like the whole ops layer.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_OPS_LIB_OPSINTERNAL_H
#define TFC_OPS_LIB_OPSINTERNAL_H

#include <cstdint>
#include <string>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {
/// Shortest text that reads back as `value`: "2.5", "0.1", "1e+20".
std::string format_double(double value);
/// "[0, 2]".
std::string list_to_string(const std::vector<int64_t> &values);
/// The shape spelling of loop-variable messages (docs/api.md): "(1)",
/// "(2, 3)", "()".
std::string loop_shape_to_string(const std::vector<int64_t> &shape);
} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_OPS_LIB_OPSINTERNAL_H
