//===- KerasModelTest.cpp - compile, fit, evaluate, predict, callbacks ----===//
//
// Models trained through fit() against the same steps written by hand with
// a GradientTape, the callbacks' Keras semantics, summary(), weights files,
// and a short real training run on Fashion-MNIST (skipped without the
// Debian package dataset-fashion-mnist).
//
//===----------------------------------------------------------------------===//

#include "tfc/keras/Datasets.h"
#include "tfc/keras/Layers.h"
#include "tfc/keras/Model.h"
#include "tfc/train/Checkpoint.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Kernels.h"

#include "TestCacheDir.h"
#include "TestTempDir.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace tfc;
using namespace tfc::keras;
namespace fs = std::filesystem;

namespace {

std::vector<float> values(const Tensor &t) {
  return cast(t, DType::Float32).to_vector<float>();
}

/// Two Gaussian blobs per class in 4 dims, 3 classes: separable.
std::pair<Tensor, Tensor> blobs(int64_t n, uint64_t seed) {
  auto gen = random::Generator::from_seed(seed);
  Tensor labels = cast(gen.uniform({n}, 0, 3), DType::Int32);
  Tensor centers = constant(
      {{2.f, 0.f, 0.f, 0.f}, {0.f, 2.f, 0.f, 0.f}, {0.f, 0.f, 2.f, 2.f}});
  Tensor x = gather(centers, labels) + gen.normal({n, 4}, 0, 0.5);
  return {x, labels};
}

Model mlp(uint64_t seed) {
  return Sequential(
      {layers::Dense(
           16, {.activation = "relu",
                .kernel_initializer = initializers::glorot_uniform(seed)}),
       layers::Dense(
           3, {.kernel_initializer = initializers::glorot_uniform(seed + 1)})});
}

TEST(KerasModel, FitLearnsBlobsAndReportsHistory) {
  auto [x, y] = blobs(600, 1);
  Model m = mlp(10);
  m.compile(
      {.optimizer = optimizers::Adam({.learning_rate = 0.01}),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
       .metrics = {"accuracy"}});
  History h = m.fit(x, y,
                    {.batch_size = 32,
                     .epochs = 5,
                     .verbose = 0,
                     .validation_split = 0.2,
                     .seed = 3});
  ASSERT_EQ(h.history["loss"].size(), 5u);
  ASSERT_EQ(h.history["val_accuracy"].size(), 5u);
  EXPECT_LT(h.history["loss"].back(), h.history["loss"].front());
  EXPECT_GT(h.history["accuracy"].back(), 0.95);
  EXPECT_GT(h.history["val_accuracy"].back(), 0.95);
  auto [xt, yt] = blobs(300, 2);
  auto res = m.evaluate(xt, yt, 64);
  EXPECT_GT(res["accuracy"], 0.95);
  // evaluate's accuracy is predict's argmax agreement.
  Tensor pred = m.predict(xt, 64);
  ASSERT_EQ(pred.shape(), (std::vector<int64_t>{300, 3}));
  auto hits = values(
      cast(equal(cast(argmax(pred, 1), DType::Int32), yt), DType::Float32));
  double acc = 0;
  for (float v : hits)
    acc += v;
  EXPECT_NEAR(res["accuracy"], acc / 300, 1e-6);
}

TEST(KerasModel, TrainOnBatchIsTheHandWrittenStep) {
  auto [x, y] = blobs(64, 4);
  Model fitted = mlp(20), manual = mlp(20);
  fitted.build({-1, 4});
  manual.build({-1, 4});
  // Same seeds, same starting weights.
  for (size_t i = 0; i < 4; ++i)
    ASSERT_EQ(values(fitted.variables()[i].value()),
              values(manual.variables()[i].value()));
  fitted.compile(
      {.optimizer = optimizers::SGD({.learning_rate = 0.1, .momentum = 0.9}),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
  Optimizer opt = optimizers::SGD({.learning_rate = 0.1, .momentum = 0.9});
  for (int step = 0; step < 3; ++step) {
    auto logs = fitted.train_on_batch(x, y);
    GradientTape tape;
    Tensor loss = reduce_mean(
        sparse_softmax_cross_entropy_with_logits(y, manual(x, true)));
    auto vars = manual.trainable_variables();
    opt.apply_gradients(tape.gradient(loss, vars), vars);
    EXPECT_NEAR(logs["loss"], loss.item<float>(), 1e-5) << "step " << step;
  }
  for (size_t i = 0; i < 4; ++i) {
    auto a = values(fitted.variables()[i].value());
    auto b = values(manual.variables()[i].value());
    for (size_t j = 0; j < a.size(); ++j)
      ASSERT_NEAR(a[j], b[j], 1e-5 * (1 + std::fabs(b[j])));
  }
}

TEST(KerasModel, ErrorsNameTheProblem) {
  Model m = mlp(1);
  auto [x, y] = blobs(10, 1);
  EXPECT_THROW(m.fit(x, y), InvalidArgumentError); // not compiled
  m.compile({.optimizer = optimizers::SGD(),
             .loss = losses::SparseCategoricalCrossentropy()});
  EXPECT_THROW(m.fit(x, slice(y, {0}, {5})), InvalidArgumentError);
  EXPECT_THROW(m.fit(x, y, {.batch_size = 0}), InvalidArgumentError);
  EXPECT_THROW(m.compile({.optimizer = optimizers::SGD(),
                          .loss = losses::MeanSquaredError(),
                          .metrics = {"no_such_metric"}}),
               InvalidArgumentError);
  EXPECT_THROW(Sequential({layers::Dense(1), Layer()}), InvalidArgumentError);
  EXPECT_THROW(Model().fit(x, y), InvalidArgumentError);
}

TEST(KerasModel, EarlyStoppingPatienceOneOnAFlatLossStopsAfterEpochTwo) {
  auto [x, y] = blobs(64, 5);
  Model m = mlp(30);
  m.compile(
      {.optimizer = optimizers::SGD({.learning_rate = 1e-9}),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
  History h =
      m.fit(x, y,
            {.epochs = 10,
             .verbose = 0,
             .callbacks = {callbacks::EarlyStopping(
                 {.monitor = "loss", .min_delta = 0.5, .patience = 1})}});
  EXPECT_EQ(h.history["loss"].size(), 2u);
}

TEST(KerasModel, EarlyStoppingRestoresTheBestWeights) {
  auto [x, y] = blobs(64, 6);
  Model m = mlp(40);
  m.compile(
      {.optimizer = optimizers::SGD({.learning_rate = 0.05}),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
  std::vector<std::vector<float>> firstEpochWeights;
  auto grab =
      callbacks::LambdaCallback({.on_epoch_end = [&](int64_t e, const auto &) {
        if (e == 0)
          for (const Variable &v : m.variables())
            firstEpochWeights.push_back(values(v.value()));
      }});
  // Loss always improves here; a baseline below it means no epoch counts
  // as beating the baseline, so training stops at epoch 2 (patience 1) and
  // the best weights (the lowest loss: the last epoch's) come back.
  History h = m.fit(x, y,
                    {.epochs = 10,
                     .verbose = 0,
                     .callbacks = {grab, callbacks::EarlyStopping(
                                             {.monitor = "loss",
                                              .patience = 1,
                                              .baseline = -1.0,
                                              .restore_best_weights = true})},
                     .shuffle = false});
  ASSERT_EQ(h.history["loss"].size(), 2u);
  EXPECT_LT(h.history["loss"][1], h.history["loss"][0]);
  ASSERT_EQ(firstEpochWeights.size(), 4u);
  // The restored weights are epoch 2's, not epoch 1's.
  EXPECT_NE(values(m.variables()[0].value()), firstEpochWeights[0]);
}

TEST(KerasModel, CheckpointCsvAndLambdaCallbacks) {
  test_support::TempDir tmp;
  fs::path dir = tmp.path;
  auto [x, y] = blobs(96, 7);
  Model m = mlp(50);
  m.compile(
      {.optimizer = optimizers::Adam(),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
       .metrics = {"accuracy"}});
  int batches = 0, epochsBegun = 0;
  auto counter = callbacks::LambdaCallback(
      {.on_epoch_begin = [&](int64_t, const auto &) { ++epochsBegun; },
       .on_batch_end =
           [&](int64_t, const auto &logs) {
             ++batches;
             EXPECT_TRUE(logs.count("loss"));
           }});
  m.fit(x, y,
        {.batch_size = 32,
         .epochs = 3,
         .verbose = 0,
         .callbacks = {
             counter,
             callbacks::ModelCheckpoint(
                 (dir / "w-{epoch:02d}-{loss:.2f}.safetensors").string(),
                 {.monitor = "loss"}),
             callbacks::CSVLogger((dir / "log.csv").string())}});
  EXPECT_EQ(epochsBegun, 3);
  EXPECT_EQ(batches, 9);
  int files = 0;
  for (auto &e : fs::directory_iterator(dir))
    files += e.path().extension() == ".safetensors" &&
             e.path().filename().string().rfind("w-0", 0) == 0;
  EXPECT_EQ(files, 3);
  std::ifstream csv(dir / "log.csv");
  std::string header, line;
  std::getline(csv, header);
  EXPECT_EQ(header, "epoch,accuracy,loss");
  int rows = 0;
  while (std::getline(csv, line))
    ++rows;
  EXPECT_EQ(rows, 3);
}

TEST(KerasModel, SummaryListsLayersShapesAndParams) {
  Model m =
      Sequential({layers::Flatten(), layers::Dense(128, {.activation = "relu"}),
                  layers::Dropout(0.2), layers::Dense(10)},
                 "fashion_mlp");
  m.build({-1, 28, 28});
  std::string s = m.summary();
  EXPECT_NE(s.find("Model: \"fashion_mlp\""), std::string::npos) << s;
  EXPECT_NE(s.find("(None, 784)"), std::string::npos) << s;
  EXPECT_NE(s.find("(None, 128)"), std::string::npos) << s;
  EXPECT_NE(s.find("100,480"), std::string::npos) << s;
  EXPECT_NE(s.find("Total params: 101,770"), std::string::npos) << s;
  EXPECT_NE(s.find("Non-trainable params: 0"), std::string::npos) << s;
}

TEST(KerasModel, SaveAndLoadWeightsRoundTripAndRejectMismatch) {
  test_support::TempDir tmp;
  fs::path dir = tmp.path;
  Model a = mlp(60), b = mlp(70);
  a.build({-1, 4});
  b.build({-1, 4});
  a.save_weights((dir / "a.safetensors").string());
  b.load_weights((dir / "a.safetensors").string());
  for (size_t i = 0; i < 4; ++i)
    EXPECT_EQ(values(a.variables()[i].value()),
              values(b.variables()[i].value()));
  Model other = Sequential({layers::Dense(5)});
  other.build({-1, 4});
  auto before = values(other.variables()[0].value());
  EXPECT_THROW(other.load_weights((dir / "a.safetensors").string()), Error);
  EXPECT_EQ(values(other.variables()[0].value()), before);
}

/// The Fashion-MNIST images as float32 in [0, 1].
Tensor scaled(const Tensor &images) {
  return cast(images, DType::Float32) / 255.0f;
}

// A short real training run: one epoch of an MLP on the 60,000 training
// images, then the 10,000 test images.
TEST(KerasModel, FashionMnistMlpOneEpoch) {
  if (!fs::exists(
          "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz"))
    GTEST_SKIP() << "the Debian package dataset-fashion-mnist is not installed";
  auto [train, test] = datasets::fashion_mnist::load_data();
  set_random_seed(1);
  Model m =
      Sequential({layers::Flatten(), layers::Dense(128, {.activation = "relu"}),
                  layers::Dense(10)});
  m.compile(
      {.optimizer = optimizers::Adam(),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
       .metrics = {"accuracy"}});
  auto t0 = std::chrono::steady_clock::now();
  History h = m.fit(scaled(train.first), train.second,
                    {.batch_size = 128, .epochs = 1, .verbose = 0, .seed = 1});
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
          .count();
  auto res = m.evaluate(scaled(test.first), test.second, 256);
  std::printf("Fashion-MNIST MLP, 1 epoch: train loss %.4f accuracy %.4f, "
              "test accuracy %.4f, fit %.2f s\n",
              h.history["loss"][0], h.history["accuracy"][0], res["accuracy"],
              seconds);
  // Keras reaches ~0.82 train / ~0.84 test after one epoch of this model.
  EXPECT_GT(h.history["accuracy"][0], 0.75);
  EXPECT_GT(res["accuracy"], 0.78);
}

} // namespace

namespace {

// Training resumed from a checkpoint (model and optimizer) after epoch 2
// ends with the uninterrupted run's weights, bit for bit (same seeds, one
// thread: summation order is fixed).
TEST(KerasModel, ResumingFromACheckpointReproducesTheRunBitForBit) {
  const int saved = kernels::num_threads();
  kernels::set_num_threads(1);
  test_support::TempDir tmp;
  fs::path dir = tmp.path;
  auto [x, y] = blobs(256, 12);
  auto make = [](uint64_t seed) {
    Model m = mlp(seed);
    m.compile(
        {.optimizer = optimizers::Adam({.learning_rate = 0.01}),
         .loss = losses::SparseCategoricalCrossentropy({.from_logits = true})});
    m.build({-1, 4});
    return m;
  };
  FitOptions opts{.batch_size = 32, .epochs = 4, .verbose = 0, .seed = 77};

  Model straight = make(80);
  straight.fit(x, y, opts);

  Model first = make(80);
  FitOptions half = opts;
  half.epochs = 2;
  first.fit(x, y, half);
  Optimizer firstOpt = first.compile_options().optimizer;
  std::string path =
      train::Checkpoint({{"model", first}, {"optimizer", firstOpt}})
          .save((dir / "ckpt").string());

  // Another process would start from other weights; restore replaces them.
  Model resumed = make(90);
  Optimizer opt = resumed.compile_options().optimizer;
  opt.build(resumed.trainable_variables());
  train::Checkpoint({{"model", resumed}, {"optimizer", opt}}).restore(path);
  FitOptions rest = opts;
  rest.initial_epoch = 2;
  History h = resumed.fit(x, y, rest);
  EXPECT_EQ(h.epoch, (std::vector<int64_t>{2, 3}));

  auto a = straight.variables(), b = resumed.variables();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    Tensor va = a[i].value(), vb = b[i].value();
    ASSERT_EQ(va.nbytes(), vb.nbytes());
    EXPECT_EQ(std::memcmp(va.raw_data(), vb.raw_data(), va.nbytes()), 0)
        << "variable " << i << " differs";
  }
  EXPECT_EQ(opt.iterations().value().item<int64_t>(),
            straight.compile_options()
                .optimizer.iterations()
                .value()
                .item<int64_t>());
  kernels::set_num_threads(saved);
}

} // namespace

namespace {

// steps_per_execution = 4: several steps per compiled call (a while_loop
// over stacked batches) train exactly as one step per call; 250 rows in
// batches of 32 leave 7 full batches (one execution of 4, then 3 single
// steps) and a last batch of 26.
TEST(KerasModel, StepsPerExecutionTrainsAsOneStepPerCall) {
  const int saved = kernels::num_threads();
  kernels::set_num_threads(1);
  auto [x, y] = blobs(250, 13);
  auto run = [&](int64_t spe, int *batchEnds) {
    Model m = mlp(100);
    m.compile(
        {.optimizer = optimizers::SGD({.learning_rate = 0.05, .momentum = 0.9}),
         .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
         .metrics = {"accuracy"},
         .steps_per_execution = spe});
    auto count = callbacks::LambdaCallback(
        {.on_batch_end = [batchEnds](int64_t, const auto &) { ++*batchEnds; }});
    History h = m.fit(x, y,
                      {.batch_size = 32,
                       .epochs = 2,
                       .verbose = 0,
                       .callbacks = {count},
                       .seed = 5});
    return std::make_pair(m, h);
  };
  int endsOne = 0, endsFour = 0;
  auto [one, h1] = run(1, &endsOne);
  auto [four, h4] = run(4, &endsFour);
  EXPECT_EQ(endsOne, 2 * 8);
  EXPECT_EQ(endsFour, 2 * 5); // per epoch: 4 steps once, then 3 + 1 singly
  for (size_t i = 0; i < one.variables().size(); ++i) {
    auto a = values(one.variables()[i].value());
    auto b = values(four.variables()[i].value());
    for (size_t j = 0; j < a.size(); ++j)
      ASSERT_NEAR(a[j], b[j], 1e-6 * (1 + std::fabs(a[j]))) << i << "," << j;
  }
  EXPECT_NEAR(h1.history["loss"][1], h4.history["loss"][1], 1e-6);
  EXPECT_NEAR(h1.history["accuracy"][1], h4.history["accuracy"][1], 1e-6);
  kernels::set_num_threads(saved);
}

} // namespace
