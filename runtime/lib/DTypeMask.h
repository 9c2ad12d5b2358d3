//===- DTypeMask.h - Sets of dtypes a kernel accepts ------------*- C++ -*-===//
#ifndef TFC_RUNTIME_LIB_DTYPEMASK_H
#define TFC_RUNTIME_LIB_DTYPEMASK_H

#include "Internal.h"

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {

enum : unsigned {
  kMaskBool = 1u << int(DType::Bool),
  kMaskI32 = 1u << int(DType::Int32),
  kMaskI64 = 1u << int(DType::Int64),
  kMaskF32 = 1u << int(DType::Float32),
  kMaskF64 = 1u << int(DType::Float64),
  kMaskInts = kMaskI32 | kMaskI64,
  kMaskFloats = kMaskF32 | kMaskF64,
  kMaskNumeric = kMaskInts | kMaskFloats,
  kMaskAll = kMaskNumeric | kMaskBool,
};

constexpr unsigned dtype_bit(DType t) { return 1u << int(t); }

/// Throws "<op>: expected <what the mask allows>, got <dtype>".
[[noreturn]] [[gnu::cold]] void fail_dtype(std::string_view op,
                                           unsigned allowed, DType got);

/// Checks `t`'s dtype against `allowed` (after require_concrete).
inline void require_dtype(std::string_view op, unsigned allowed, DType t) {
  if (!(allowed & dtype_bit(t))) [[unlikely]]
    fail_dtype(op, allowed, t);
}

} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_RUNTIME_LIB_DTYPEMASK_H
