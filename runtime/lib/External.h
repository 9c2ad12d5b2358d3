//===- External.h - Tensors over memory tfc did not allocate ----*- C++ -*-===//
//
// Shared by from_blob (Tensor.cpp) and from_dlpack (DLPack.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_LIB_EXTERNAL_H
#define TFC_RUNTIME_LIB_EXTERNAL_H

#include "tfc/runtime/Tensor.h"

#include <string_view>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {

/// Checks memory that tfc is asked to view (from_blob, from_dlpack): the
/// shape as checked_numel does, a non-null `ptr` when there are elements,
/// and `ptr` aligned to the element size. Returns the element count.
int64_t check_external(std::string_view op, const void *ptr,
                       const std::vector<int64_t> &shape, DType dtype);
/// A concrete tensor viewing `ptr` through a new Storage on `device` whose
/// last release calls `deleter(ctx, ptr, bytes)` (none: nothing). Call
/// check_external first; `numel` is its result. Allocates only after every
/// check, so a failure never leaves the caller's memory owned.
Tensor wrap_external(void *ptr, std::vector<int64_t> shape, DType dtype,
                     int64_t numel, Storage::Deleter deleter, void *ctx,
                     Device device);

} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_RUNTIME_LIB_EXTERNAL_H
