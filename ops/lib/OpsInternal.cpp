//===- OpsInternal.cpp - Helpers shared by the ops layer's sources ------===//
#include "OpsInternal.h"

#include <cstdio>
#include <cstdlib>

std::string tfc::detail::format_double(double value) {
  char buf[40];
  // The fewest digits that read back exactly.
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value)
      break;
  }
  return buf;
}

std::string tfc::detail::list_to_string(const std::vector<int64_t> &values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(values[i]);
  }
  return s + "]";
}

std::string
tfc::detail::loop_shape_to_string(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + ")";
}
