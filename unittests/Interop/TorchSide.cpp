//===- TorchSide.cpp - libtorch's half of TorchDLPackTest ----------------===//
#include "TorchSide.h"

#include <ATen/DLConvertor.h>
#include <torch/torch.h>

DLManagedTensor *torch_side::export_arange(int64_t rows, int64_t cols,
                                           void **data) {
  at::Tensor t = torch::arange(rows * cols, torch::kFloat32)
                     .reshape({rows, cols})
                     .mul(1.5)
                     .contiguous();
  *data = t.data_ptr();
  return at::toDLPack(t);
}

void torch_side::consume(DLManagedTensor *m, void **data,
                         std::vector<int64_t> *sizes,
                         std::vector<float> *values) {
  at::Tensor t = at::fromDLPack(m);
  *data = t.data_ptr();
  sizes->assign(t.sizes().begin(), t.sizes().end());
  at::Tensor flat = t.reshape({-1}).to(torch::kFloat32).contiguous();
  const float *p = flat.data_ptr<float>();
  values->assign(p, p + flat.numel());
}
