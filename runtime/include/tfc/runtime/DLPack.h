//===- DLPack.h - Zero-copy exchange with other frameworks ------*- C++ -*-===//
//
// DLPack (https://dmlc.github.io/dlpack) import and export of tfc tensors:
// PyTorch's at::toDLPack / at::fromDLPack, NumPy's and JAX's from_dlpack.
// A separate header (not included by <tfc/tfc.h>) because it needs
// <dlpack/dlpack.h> (Debian: libdlpack-dev); tfc is built with these two
// functions only when CMake found that header (TFC_DLPACK_INCLUDE_DIR set).
// docs/user-guide.md, "Interop".
//
// Both directions share memory, never copy it, with one exception: an
// imported tensor whose strides are not compact row-major is copied.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_DLPACK_H
#define TFC_RUNTIME_DLPACK_H

#include "tfc/runtime/Tensor.h"

#include <dlpack/dlpack.h>

namespace tfc {

/// DLPack's type code for bool (kDLBool, since DLPack 0.8; older dlpack.h
/// headers such as Debian bookworm's 0.6 lack the name). tfc's bool is
/// {kDLPackBool, 8 bits, 1 lane}: one byte holding 0 or 1.
inline constexpr uint8_t kDLPackBool = 6;

/// Exports `t` without copying: the result's dl_tensor points at t's data,
/// with its shape, compact row-major strides (always set) and byte_offset 0;
/// dtype {kDLInt, 32|64}, {kDLFloat, 32|64} or {kDLPackBool, 8}, one lane;
/// device {kDLCPU, 0}, or {kDLCUDAManaged, 0} for a CUDA tensor (tfc's CUDA
/// tensors are managed memory). The consumer owns the result and must call
/// its `deleter` exactly once when done; until then the data stays alive
/// (even after every tfc handle to it is gone). tfc tensors are immutable:
/// the consumer must not write the memory. InvalidArgumentError for an
/// undefined or symbolic tensor.
DLManagedTensor *to_dlpack(const Tensor &t);

/// Imports `src` without copying and takes ownership of it on success:
/// `src->deleter(src)` (when not null) runs exactly once, when the last tfc
/// tensor sharing the memory is destroyed. Accepted: device kDLCPU or
/// kDLCUDAHost (host memory: a CPU tensor) and kDLCUDAManaged (a CUDA:0
/// tensor; needs the CUDA driver, else RuntimeError); dtypes as to_dlpack
/// exports them, one lane; strides null or compact row-major (dims of size
/// 1 may have any stride), any other strides are copied into a new tensor
/// and `src` is released before returning; byte_offset is added to `data`.
/// The data pointer (after byte_offset) must be aligned to the element size.
/// The producer must not write the memory while tfc tensors view it.
/// On any error (InvalidArgumentError naming the unsupported device, dtype,
/// lanes, shape or pointer) tfc does not take ownership: `src` is untouched
/// and the caller must still call its deleter.
Tensor from_dlpack(DLManagedTensor *src);

} // namespace tfc

#endif // TFC_RUNTIME_DLPACK_H
