//===- Internal.h - Helpers shared by the frontend's sources ----*- C++ -*-===//
//
// Not installed, not part of the API.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_LIB_INTERNAL_H
#define TFC_FRONTEND_LIB_INTERNAL_H

#include <cstdint>
#include <string>
#include <vector>

namespace tfc::detail {
/// Shortest text that reads back as `value`: "2.5", "0.1", "1e+20".
std::string format_double(double value);
/// "[0, 2]".
std::string list_to_string(const std::vector<int64_t> &values);
/// API.md's shape spelling in loop-variable messages: "(1)", "(2, 3)", "()".
std::string loop_shape_to_string(const std::vector<int64_t> &shape);
} // namespace tfc::detail

#endif // TFC_FRONTEND_LIB_INTERNAL_H
