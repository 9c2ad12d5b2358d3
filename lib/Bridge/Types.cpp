//===- Types.cpp - Runtime dtypes <-> MLIR types --------------------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
#include "tfc/Bridge/Types.h"

namespace tfc::bridge {

mlir::Type elementType(mlir::MLIRContext *ctx, DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return mlir::IntegerType::get(ctx, 1);
  case DType::Int32:
    return mlir::IntegerType::get(ctx, 32);
  case DType::Int64:
    return mlir::IntegerType::get(ctx, 64);
  case DType::Float32:
    return mlir::Float32Type::get(ctx);
  case DType::Float64:
    return mlir::Float64Type::get(ctx);
  }
  return {};
}

std::optional<DType> toDType(mlir::Type type) {
  if (type.isInteger(1))
    return DType::Bool;
  if (type.isInteger(32))
    return DType::Int32;
  if (type.isInteger(64))
    return DType::Int64;
  if (type.isF32())
    return DType::Float32;
  if (type.isF64())
    return DType::Float64;
  return std::nullopt;
}

mlir::RankedTensorType tensorType(mlir::MLIRContext *ctx, DType dtype,
                                  const std::vector<int64_t> &shape) {
  llvm::SmallVector<int64_t> dims;
  for (int64_t d : shape)
    dims.push_back(d < 0 ? mlir::ShapedType::kDynamic : d);
  return mlir::RankedTensorType::get(dims, elementType(ctx, dtype));
}

std::vector<int64_t> shapeOf(mlir::RankedTensorType type) {
  std::vector<int64_t> shape;
  for (int64_t d : type.getShape())
    shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
  return shape;
}

} // namespace tfc::bridge
