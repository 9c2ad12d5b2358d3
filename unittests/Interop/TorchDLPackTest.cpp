//===- TorchDLPackTest.cpp - Round trips with libtorch --------------------===//
//
// Built only when CMake finds libtorch (Debian: libtorch-dev).
//
//===----------------------------------------------------------------------===//
#include "TorchSide.h"

#include <tfc/runtime/DLPack.h>
#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <optional>

using namespace tfc;

namespace {

TEST(TorchDLPack, TorchToTfcToTorchSharesOneBuffer) {
  void *torchData = nullptr;
  DLManagedTensor *m = torch_side::export_arange(2, 3, &torchData);
  Tensor t = from_dlpack(m);
  EXPECT_EQ(t.raw_data(), torchData); // zero copy into tfc
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.to_vector<float>(),
            (std::vector<float>{0, 1.5f, 3, 4.5f, 6, 7.5f}));
  EXPECT_EQ((t + 1.f).to_vector<float>(),
            (std::vector<float>{1, 2.5f, 4, 5.5f, 7, 8.5f}));
  void *back = nullptr;
  std::vector<int64_t> sizes;
  std::vector<float> values;
  torch_side::consume(to_dlpack(t), &back, &sizes, &values);
  EXPECT_EQ(back, torchData); // and back into torch, still the same memory
  EXPECT_EQ(sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(values, t.to_vector<float>());
}

TEST(TorchDLPack, TfcToTorchReleasesOnce) {
  std::vector<float> buf = {1, 2, 3, 4};
  int freed = 0;
  std::optional<Tensor> t =
      from_blob(buf.data(), {4}, DType::Float32, [&](void *) { ++freed; });
  DLManagedTensor *m = to_dlpack(*t);
  t.reset();
  EXPECT_EQ(freed, 0); // the DLManagedTensor keeps the memory
  void *data = nullptr;
  std::vector<int64_t> sizes;
  std::vector<float> values;
  torch_side::consume(m, &data, &sizes, &values); // torch drops it at once
  EXPECT_EQ(data, static_cast<void *>(buf.data()));
  EXPECT_EQ(sizes, (std::vector<int64_t>{4}));
  EXPECT_EQ(values, buf);
  EXPECT_EQ(freed, 1);
}

} // namespace
