//===- TorchSide.h - libtorch's half of TorchDLPackTest ---------*- C++ -*-===//
//
// libtorch's headers need C++17 and exceptions, tfc's C++20: TorchSide.cpp
// is its own translation unit and talks to the test through plain types.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_UNITTESTS_INTEROP_TORCHSIDE_H
#define TFC_UNITTESTS_INTEROP_TORCHSIDE_H

#include <cstdint>
#include <vector>

struct DLManagedTensor;

namespace torch_side {
/// torch::arange(rows * cols, kFloat32).reshape({rows, cols}) * 1.5,
/// exported with at::toDLPack; `*data` is the torch tensor's data_ptr().
DLManagedTensor *export_arange(int64_t rows, int64_t cols, void **data);
/// at::fromDLPack(m) (which takes ownership), then its data_ptr(), sizes
/// and float values; the torch tensor is dropped before returning.
void consume(DLManagedTensor *m, void **data, std::vector<int64_t> *sizes,
             std::vector<float> *values);
} // namespace torch_side

#endif
