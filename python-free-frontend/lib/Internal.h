//===- Internal.h - Helpers shared by the frontend's sources ----*- C++ -*-===//
//
// Not installed, not part of the API.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_LIB_INTERNAL_H
#define TFC_FRONTEND_LIB_INTERNAL_H

#include "tfc/runtime/Tensor.h"

#include "mlir/IR/Builders.h"

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

// --- tfc-autodiff ------------------------------------------------------------
class TraceSession;

/// While alive, ops dispatched on this thread build tfc IR at the insertion
/// point of `at` (captured on construction), every op located at `loc`, as a
/// trace would. `tfc-autodiff` runs the shared gradient rules through it
/// (GradientRules.cpp): `bind` gives a symbolic tensor for an existing
/// value, `value` the IR value of a tensor a rule returned (a constant for a
/// concrete one). Not nestable with a tfc::function trace on this thread.
class ExternalTrace {
public:
  ExternalTrace(mlir::OpBuilder &at, mlir::Location loc);
  ~ExternalTrace();
  Tensor bind(mlir::Value value);
  mlir::Value value(const Tensor &t);

private:
  ExternalTrace(const ExternalTrace &) = delete;
  ExternalTrace &operator=(const ExternalTrace &) = delete;
  TraceSession *session;
};
// --- end tfc-autodiff --------------------------------------------------------
} // namespace tfc::detail

#endif // TFC_FRONTEND_LIB_INTERNAL_H
