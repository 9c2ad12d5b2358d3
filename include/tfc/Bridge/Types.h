//===- Types.h - Runtime dtypes <-> MLIR types ------------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The one mapping between the runtime's DType and the dialect's element
// types (i1, i32, i64, f32, f64), used by the tracer, the interpreter, the
// JIT's signatures and the gradient rules.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BRIDGE_TYPES_H
#define TFC_BRIDGE_TYPES_H

#include "tfc/runtime/DType.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <optional>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::bridge {

/// i1, i32, i64, f32 or f64.
mlir::Type elementType(mlir::MLIRContext *ctx, DType dtype);
/// The DType of an element type; nullopt for types the runtime lacks.
std::optional<DType> toDType(mlir::Type elementType);
/// The same, as a test: false (and `out` untouched) for other types.
inline bool toDType(mlir::Type elementType, DType &out) {
  std::optional<DType> dtype = toDType(elementType);
  if (dtype)
    out = *dtype;
  return dtype.has_value();
}
/// A ranked tensor type; -1 in `shape` is a dynamic dim.
mlir::RankedTensorType tensorType(mlir::MLIRContext *ctx, DType dtype,
                                  const std::vector<int64_t> &shape);
/// The shape of `type` with -1 for dynamic dims.
std::vector<int64_t> shapeOf(mlir::RankedTensorType type);

} // namespace tfc::bridge
#pragma GCC visibility pop

#endif // TFC_BRIDGE_TYPES_H
