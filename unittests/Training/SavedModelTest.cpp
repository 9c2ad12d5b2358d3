//===- SavedModelTest.cpp - saved_model::save / load ----------------------===//

#include "tfc/saved_model/SavedModel.h"
#include "tfc/train/SafeTensors.h"

#include "tfc/keras/Layers.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"

#include "TestTempDir.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace tfc;
using namespace tfc::keras;
namespace fs = std::filesystem;

namespace {

std::vector<float> values(const Tensor &t) { return t.to_vector<float>(); }

Model cnn() {
  return Sequential({layers::Conv2D(4, {3, 3}, {.activation = "relu"}),
                     layers::MaxPooling2D(), layers::Flatten(),
                     layers::BatchNormalization(), layers::Dropout(0.5),
                     layers::Dense(3, {.activation = "softmax"})});
}

TEST(SavedModel, LoadedFunctionMatchesTheModelAtAnyBatch) {
  test_support::TempDir tmp;
  fs::path dir = tmp.path;
  Model m = cnn();
  m.build({-1, 8, 8, 1});
  saved_model::save(m, dir.string(), {8, 8, 1});
  EXPECT_TRUE(fs::exists(dir / saved_model::kModuleFile));
  EXPECT_TRUE(fs::exists(dir / saved_model::kVariablesFile));
  // The module is MLIR bytecode.
  std::ifstream in(dir / saved_model::kModuleFile, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  EXPECT_EQ(std::string(magic, 4), std::string("ML\xef"
                                               "R",
                                               4));

  // One function with a dynamic batch dim (the biases are broadcast like
  // the activations), not fixed-batch specialisations served in chunks.
  EXPECT_EQ(
      train::load_safetensors((dir / saved_model::kVariablesFile).string())
          .metadata.at("functions"),
      "serving_default:-1");

  saved_model::Loaded loaded = saved_model::load(dir.string());
  EXPECT_EQ(loaded.signatures(), std::vector<std::string>{"serving_default"});
  for (int64_t batch : {1, 5, 17, 64}) {
    Tensor x =
        random::Generator::from_seed(uint64_t(batch)).normal({batch, 8, 8, 1});
    std::vector<float> want = values(m(x, false));
    std::vector<float> got = values(loaded.call("serving_default", {x})[0]);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 1e-5) << "batch " << batch << " at " << i;
  }
}

TEST(SavedModel, RecurrentModelsServeAnyBatchToo) {
  // LSTM and GRU run on while_loop: their state is broadcast like the batch.
  test_support::TempDir tmp;
  Model m =
      Sequential({layers::LSTM(5, true), layers::GRU(4), layers::Dense(2)});
  m.build({-1, 6, 3});
  saved_model::save(m, tmp.path.string(), {6, 3});
  EXPECT_EQ(
      train::load_safetensors((tmp.path / saved_model::kVariablesFile).string())
          .metadata.at("functions"),
      "serving_default:-1");
  saved_model::Loaded loaded = saved_model::load(tmp.path.string());
  for (int64_t batch : {1, 4, 9}) {
    Tensor x =
        random::Generator::from_seed(uint64_t(batch)).normal({batch, 6, 3});
    std::vector<float> want = values(m(x, false));
    std::vector<float> got = values(loaded.call("serving_default", {x})[0]);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 1e-5) << "batch " << batch << " at " << i;
  }
}

TEST(SavedModel, IsASnapshotOfTheWeights) {
  test_support::TempDir tmp;
  fs::path dir = tmp.path;
  Model m = Sequential({layers::Dense(2)});
  m.build({-1, 3});
  Tensor x = ones({1, 3});
  std::vector<float> before = values(m(x));
  saved_model::save(m, dir.string(), {3});
  m.variables()[0].assign(zeros({3, 2}));
  auto loaded = saved_model::load(dir.string());
  EXPECT_EQ(values(loaded.call("serving_default", {x})[0]), before);
}

TEST(SavedModel, WrongArgumentsAndDamagedDirectoriesThrow) {
  test_support::TempDir tmp;
  fs::path dir = tmp.path;
  Model m = Sequential({layers::Dense(2)});
  saved_model::save(m, dir.string(), {3});
  auto loaded = saved_model::load(dir.string());
  EXPECT_THROW(loaded.call("predict", {ones({1, 3})}), InvalidArgumentError);
  EXPECT_THROW(loaded.call("serving_default", {ones({1, 4})}),
               InvalidArgumentError);
  EXPECT_THROW(loaded.call("serving_default", {ones({1, 3}, DType::Float64)}),
               InvalidArgumentError);
  EXPECT_THROW(loaded.call("serving_default", {}), InvalidArgumentError);
  EXPECT_THROW(saved_model::save(m, dir.string(), {0}), InvalidArgumentError);
  EXPECT_THROW(saved_model::load((dir / "missing").string()), Error);
  // A truncated module and a truncated weights file are rejected.
  fs::path module = dir / saved_model::kModuleFile;
  auto size = fs::file_size(module);
  fs::resize_file(module, size / 2);
  EXPECT_THROW(saved_model::load(dir.string()), Error);
  saved_model::save(m, dir.string(), {3});
  fs::path vars = dir / saved_model::kVariablesFile;
  fs::resize_file(vars, fs::file_size(vars) - 1);
  EXPECT_THROW(saved_model::load(dir.string()), Error);
}

} // namespace
