//===- DType.h - Element types of runtime tensors ---------------*- C++ -*-===//
//
// The five element types tfc supports. MLIR-free: the runtime links alone.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_DTYPE_H
#define TFC_RUNTIME_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace tfc {

enum class DType { Bool, Int32, Int64, Float32, Float64 };

/// "bool", "int32", "int64", "float32", "float64".
std::string_view to_string(DType);
/// Short MLIR-style spelling: "i1", "i32", "i64", "f32", "f64".
std::string_view to_mlir_string(DType);

/// Bytes per element (Bool is stored as one byte).
constexpr size_t dtype_size(DType t) {
  switch (t) {
  case DType::Bool: return 1;
  case DType::Int32: return 4;
  case DType::Int64: return 8;
  case DType::Float32: return 4;
  case DType::Float64: return 8;
  }
  return 0;
}
constexpr bool is_floating(DType t) {
  return t == DType::Float32 || t == DType::Float64;
}
constexpr bool is_integer(DType t) {
  return t == DType::Int32 || t == DType::Int64;
}
/// Promotion order for mixed literals: bool < int32 < int64 < float32 < float64.
constexpr DType promote(DType a, DType b) {
  return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

/// The C++ type that stores one element of a dtype (bool is stored as bool,
/// which is one byte on every platform tfc supports).
template <class T> struct DTypeOf;
template <> struct DTypeOf<bool> { static constexpr DType value = DType::Bool; };
template <> struct DTypeOf<int32_t> { static constexpr DType value = DType::Int32; };
template <> struct DTypeOf<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct DTypeOf<float> { static constexpr DType value = DType::Float32; };
template <> struct DTypeOf<double> { static constexpr DType value = DType::Float64; };
template <class T> inline constexpr DType dtype_of = DTypeOf<T>::value;

/// Calls f(T{}) with T the storage type of `t`.
template <class F> decltype(auto) dispatch_dtype(DType t, F &&f) {
  switch (t) {
  case DType::Bool: return f(bool{});
  case DType::Int32: return f(int32_t{});
  case DType::Int64: return f(int64_t{});
  case DType::Float32: return f(float{});
  case DType::Float64: break;
  }
  return f(double{});
}

} // namespace tfc

#endif // TFC_RUNTIME_DTYPE_H
