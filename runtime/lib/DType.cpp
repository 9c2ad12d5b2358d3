//===- DType.cpp - Element type names -------------------------------------===//

#include "tfc/runtime/DType.h"

namespace tfc {

std::string_view to_string(DType t) {
  switch (t) {
  case DType::Bool: return "bool";
  case DType::Int32: return "int32";
  case DType::Int64: return "int64";
  case DType::Float32: return "float32";
  case DType::Float64: return "float64";
  }
  return "<invalid dtype>";
}

std::string_view to_mlir_string(DType t) {
  switch (t) {
  case DType::Bool: return "i1";
  case DType::Int32: return "i32";
  case DType::Int64: return "i64";
  case DType::Float32: return "f32";
  case DType::Float64: return "f64";
  }
  return "<invalid dtype>";
}

} // namespace tfc
