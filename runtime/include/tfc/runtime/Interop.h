//===- Interop.h - Tensors viewing memory owned elsewhere -------*- C++ -*-===//
//
// tfc::from_blob wraps existing memory as a tensor without copying. Kept out
// of Tensor.h (included everywhere) so <functional> stays out of the hot
// header; <tfc/tfc.h> includes it. DLPack is in tfc/runtime/DLPack.h.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_INTEROP_H
#define TFC_RUNTIME_INTEROP_H

#include "tfc/runtime/Tensor.h"

#include <functional>

namespace tfc {

/// A CPU tensor that views `ptr` (dense, row-major, `shape`, `dtype`; bool is
/// one byte holding 0 or 1) without copying it: PyTorch's torch::from_blob.
/// Ownership: with a `deleter`, tfc owns the memory and calls `deleter(ptr)`
/// exactly once, when the last tensor sharing it (copies, reshape views,
/// results that alias it) is destroyed, on whichever thread that happens; it
/// must not throw. Without one the caller keeps ownership and must keep the
/// memory alive as long as any such tensor lives. Tensors are immutable
/// values: nobody may write the memory while a tensor views it. `ptr` must be
/// aligned to the element size (4 bytes for float32); nothing in tfc assumes
/// more. InvalidArgumentError (and `deleter` not called: the caller still
/// owns `ptr`) for a negative or too large shape, a null `ptr` with
/// elements, or a misaligned `ptr`. docs/user-guide.md, "Interop".
Tensor from_blob(void *ptr, std::vector<int64_t> shape, DType dtype,
                 std::function<void(void *)> deleter = {});

} // namespace tfc

#endif // TFC_RUNTIME_INTEROP_H
