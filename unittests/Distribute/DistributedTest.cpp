//===- DistributedTest.cpp - Collectives and the strategy, any size -------===//
//
// Runs as one process under lit (one replica: collectives are identities)
// and as two under mpirun (test/Distribute/mpi-two-replicas.test). Every
// test makes the same collective calls on every replica, in the same
// order, whatever its assertions find.
//
//===----------------------------------------------------------------------===//

#include "tfc/distribute/Mpi.h"
#include "tfc/tfc.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>

using namespace tfc;
using namespace tfc::keras;
namespace fs = std::filesystem;

namespace {

// Before any test: every replica joins (mpirun) or is alone.
const auto comm = distribute::init_mpi();

int n() { return distribute::size(); }
int r() { return distribute::rank(); }

TEST(Collectives, AllReduceSumsAndAveragesEveryDtype) {
  Tensor x = from_vector<float>({float(r() + 1), 10.f * float(r())}, {2});
  Tensor s = distribute::all_reduce(x);
  const float tri = float(n() * (n() + 1) / 2);
  const float tens = 10.f * float(n() * (n() - 1) / 2);
  EXPECT_EQ(s.to_vector<float>()[0], tri);
  EXPECT_EQ(s.to_vector<float>()[1], tens);
  Tensor m = distribute::all_reduce(x, distribute::ReduceOp::Mean);
  EXPECT_FLOAT_EQ(m.to_vector<float>()[0], tri / float(n()));
  Tensor i = distribute::all_reduce(constant(int64_t(r() + 1)));
  EXPECT_EQ(i.item<int64_t>(), int64_t(tri));
  Tensor d = distribute::all_reduce(cast(x, DType::Float64));
  EXPECT_EQ(d.dtype(), DType::Float64);
  EXPECT_EQ(d.to_vector<double>()[0], double(tri));
  // x itself is unchanged.
  EXPECT_EQ(x.to_vector<float>()[0], float(r() + 1));
}

TEST(Collectives, BoolIsRejectedWithTheOpName) {
  try {
    (void)distribute::all_reduce(constant(true));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("all_reduce"), std::string::npos)
        << e.what();
  }
}

TEST(Collectives, BroadcastCopiesReplicaZerosValues) {
  Variable v(from_vector<float>({float(r()), float(r() * 2)}, {2}));
  distribute::broadcast(std::vector<Variable>{v});
  EXPECT_EQ(v.value().to_vector<float>()[0], 0.f);
  EXPECT_EQ(v.value().to_vector<float>()[1], 0.f);
  Tensor t = distribute::broadcast(constant(int32_t(7 + r())), n() - 1);
  EXPECT_EQ(t.item<int32_t>(), 7 + n() - 1);
  EXPECT_THROW(distribute::broadcast(constant(1.f), n()), InvalidArgumentError);
  distribute::barrier();
}

// The collective is an op in the compiled function and gives the eager
// result; its gradient is the all_reduce of the output gradients.
TEST(Collectives, CompiledAllReduceAndItsGradientMatchEager) {
  auto step = [](const Tensor &x) {
    return distribute::all_reduce(x * x, distribute::ReduceOp::Mean) + 1.f;
  };
  auto f = function(step);
  Tensor x = from_vector<float>({1.f + float(r()), -2.f, 0.5f}, {3});
  Tensor eager = step(x), compiled = f(x);
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_EQ(compiled.to_vector<float>()[size_t(i)],
              eager.to_vector<float>()[size_t(i)]);
  EXPECT_NE(f.ir().find("tfc.all_reduce"), std::string::npos);

  auto g = function([&](const Tensor &xs) {
    GradientTape tape;
    tape.watch(xs);
    Tensor loss = reduce_sum(step(xs));
    return tape.gradient(loss, xs);
  });
  GradientTape tape;
  tape.watch(x);
  Tensor eagerGrad = tape.gradient(reduce_sum(step(x)), x);
  Tensor compiledGrad = g(x);
  // d/dx_r of sum_r' mean_r''(x_r''^2) = 2 x_r (the n replicas' 1/n add up).
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_FLOAT_EQ(eagerGrad.to_vector<float>()[size_t(i)],
                    2.f * x.to_vector<float>()[size_t(i)]);
    EXPECT_FLOAT_EQ(compiledGrad.to_vector<float>()[size_t(i)],
                    eagerGrad.to_vector<float>()[size_t(i)]);
  }
}

// Replica r holds r + 1 rows whose mean gradient is r + 1: the combined
// gradient weighs each by its rows.
TEST(Strategy, ReduceGradientsWeighsReplicasByTheirRows) {
  distribute::MultiWorkerMirroredStrategy s({.bucket_bytes = 8});
  std::vector<Tensor> g = {full({2}, r() + 1, DType::Float32),
                           full({3}, r() + 1, DType::Float64),
                           full({1, 2}, -(r() + 1), DType::Float32)};
  // Summed alongside, unweighted (a metric's total and count).
  std::vector<Tensor> sums = {full({2}, r() + 1, DType::Float32)};
  std::vector<Tensor> out = s.reduce_gradients(g, r() + 1, &sums);
  EXPECT_EQ(sums[0].to_vector<float>()[1], float(n() * (n() + 1) / 2));
  double num = 0, den = 0;
  for (int k = 1; k <= n(); ++k)
    num += double(k) * k, den += k;
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FLOAT_EQ(out[0].to_vector<float>()[1], float(num / den));
  EXPECT_DOUBLE_EQ(out[1].to_vector<double>()[2], num / den);
  EXPECT_EQ(out[2].shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_FLOAT_EQ(out[2].to_vector<float>()[1], float(-num / den));
}

// Replicas built alike hold the same dropout stream; on_replica (called
// by fit under a strategy) gives each its own, so their masks differ.
TEST(Strategy, DropoutDrawsItsOwnMaskOnEachReplica) {
  set_random_seed(9);
  Layer d = layers::Dropout(0.5);
  (void)d(ones({1, 256}), false);
  d.get()->on_replica(r(), n());
  Tensor mask = d(ones({1, 256}), true);
  Tensor mean = distribute::all_reduce(mask, distribute::ReduceOp::Mean);
  float spread = reduce_max(abs(mean - mask)).item<float>();
  if (n() > 1)
    EXPECT_GT(spread, 0.f);
  else
    EXPECT_EQ(spread, 0.f);
}

Tensor scaled(const Tensor &images) {
  return cast(images, DType::Float32) / 255.0f;
}

Model mlp() {
  set_random_seed(5);
  Model m = Sequential(
      {layers::Flatten(), layers::Dense(256, {.activation = "relu"}),
       layers::Dense(128, {.activation = "relu"}), layers::Dense(10)});
  return m;
}

CompileOptions
adam(std::shared_ptr<distribute::MultiWorkerMirroredStrategy> s) {
  return {.optimizer = optimizers::Adam({.learning_rate = 1e-3}),
          .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
          .metrics = {"accuracy"},
          .strategy = std::move(s)};
}

// The MLP (784-256-128-10, Adam 1e-3) on 3,999 Fashion-MNIST
// images, global batch 128 (the last one 31 rows: 16 and 15 on two
// replicas, weighed by their rows): n replicas at 128 / n rows each end
// bit-identical to one another and within 1e-5 of one process at 128
// rows; their metrics are the whole batch's.
TEST(Strategy, ReplicasAgreeBitForBitAndMatchOneProcessAtTheGlobalBatch) {
  bool have = fs::exists(
      "/usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz");
  if (!have)
    GTEST_SKIP() << "the Debian package dataset-fashion-mnist is not installed";
  auto [train, test] = datasets::fashion_mnist::load_data();
  Tensor x = slice(scaled(train.first), {0, 0, 0}, {3999, 28, 28});
  Tensor y = slice(train.second, {0}, {3999});
  FitOptions fo{.batch_size = 128, .epochs = 2, .verbose = 0, .seed = 3};

  Model dist = mlp();
  dist.compile(adam(std::make_shared<distribute::MultiWorkerMirroredStrategy>(
      distribute::StrategyOptions{.bucket_bytes = 256 << 10})));
  History hd = dist.fit(x, y, fo);
  Model ref = mlp();
  ref.compile(adam(nullptr));
  History hr = ref.fit(x, y, fo);

  std::vector<Variable> dv = dist.variables(), rv = ref.variables();
  ASSERT_EQ(dv.size(), rv.size());
  for (size_t i = 0; i < dv.size(); ++i) {
    Tensor mine = dv[i].value();
    Tensor chief = distribute::broadcast(mine);
    EXPECT_EQ(std::memcmp(mine.raw_data(), chief.raw_data(),
                          size_t(mine.numel()) * sizeof(float)),
              0)
        << dv[i].name() << " differs from replica 0's";
    Tensor diff = reduce_max(abs(mine - rv[i].value()));
    Tensor scale = reduce_max(abs(rv[i].value()));
    EXPECT_LE(diff.item<float>(), 1e-5f * scale.item<float>())
        << dv[i].name() << ": " << diff.item<float>() << " vs scale "
        << scale.item<float>();
  }
  // Metrics over every replica's rows: the one-process run's, up to
  // summation order.
  EXPECT_NEAR(hd.history["accuracy"][1], hr.history["accuracy"][1], 1e-4);
  EXPECT_NEAR(hd.history["loss"][1], hr.history["loss"][1], 1e-4);
  Tensor tx = slice(scaled(test.first), {0, 0, 0}, {1000, 28, 28});
  Tensor ty = slice(test.second, {0}, {1000});
  auto ed = dist.evaluate(tx, ty, 100), er = ref.evaluate(tx, ty, 100);
  EXPECT_NEAR(ed["accuracy"], er["accuracy"], 1e-6);
  EXPECT_GT(ed["accuracy"], 0.6);
}

// steps_per_execution runs K train steps (and K all_reduces) in one
// compiled while_loop: the same weights as one step per call, and
// validation figures over every replica's rows.
TEST(Strategy, StepsPerExecutionAndValidationUnderTheStrategy) {
  set_random_seed(11);
  Tensor x = random_uniform({600, 8}, -1, 1, 5);
  Tensor y = cast(reduce_sum(x, {1}) > 0.f, DType::Int32);
  auto train = [&](int64_t k) {
    set_random_seed(3);
    Model m = Sequential(
        {layers::Dense(16, {.activation = "relu"}), layers::Dense(2)});
    CompileOptions o =
        adam(std::make_shared<distribute::MultiWorkerMirroredStrategy>());
    o.steps_per_execution = k;
    m.compile(std::move(o));
    History h = m.fit(x, y,
                      {.batch_size = 64,
                       .epochs = 2,
                       .verbose = 0,
                       .validation_data = std::make_pair(x, y),
                       .seed = 7});
    return std::make_pair(m, h);
  };
  auto [one, h1] = train(1);
  auto [four, h4] = train(4);
  std::vector<Variable> a = one.variables(), b = four.variables();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    float diff = reduce_max(abs(a[i].value() - b[i].value())).item<float>();
    EXPECT_LE(diff, 1e-6f) << a[i].name();
  }
  // Validation over all 600 rows whatever the replica count: the model's
  // own evaluate on one replica's view would see 600 / n().
  auto all = one.evaluate(x, y, 64);
  EXPECT_NEAR(h1.history["val_accuracy"][1], all["accuracy"], 1e-6);
  EXPECT_GT(all["accuracy"], 0.6);
}

} // namespace
