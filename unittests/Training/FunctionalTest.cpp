//===- FunctionalTest.cpp - keras::Input and keras::functional ------------===//

#include "tfc/keras/Layers.h"
#include "tfc/keras/Model.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"

#include <gtest/gtest.h>

using namespace tfc;
using namespace tfc::keras;

namespace {

std::vector<float> values(const Tensor &t) { return t.to_vector<float>(); }

TEST(Functional, LayersAndOpsOnInputsReplayOnRealData) {
  Tensor in = Input({4});
  Layer d1 =
      layers::Dense(3, {.kernel_initializer = initializers::glorot_uniform(1)});
  Tensor h = d1(in);
  Tensor out = relu(h) * 2.0f + 1.0f; // tfc ops on symbolic tensors
  Model m = functional({in}, {out}, "affine");
  Tensor x = random::Generator::from_seed(2).normal({5, 4});
  std::vector<float> want = values(relu(d1(x)) * 2.0f + 1.0f);
  EXPECT_EQ(values(m(x)), want);
  EXPECT_EQ(m.trainable_variables().size(), 2u);
  EXPECT_EQ(m.count_params(), 4 * 3 + 3);
  EXPECT_EQ(m.name(), "affine");
  // Any batch.
  EXPECT_EQ(m(ones({9, 4})).shape(), (std::vector<int64_t>{9, 3}));
  EXPECT_THROW(m(ones({2, 5})), InvalidArgumentError);
}

TEST(Functional, SeveralInputsAndOutputsAndASharedLayer) {
  Tensor a = Input({2}), b = Input({2});
  Layer shared = layers::Dense(2, {.use_bias = false});
  Tensor ha = shared(a), hb = shared(b);
  Tensor both = concat({ha, hb}, -1);
  Tensor sum = ha + hb;
  Model m = functional({a, b}, {both, sum});
  EXPECT_EQ(m.trainable_variables().size(), 1u); // shared once
  Tensor xa = constant({{1.f, 2.f}}), xb = constant({{3.f, 4.f}});
  std::vector<Tensor> out = m({xa, xb});
  ASSERT_EQ(out.size(), 2u);
  std::vector<float> ya = values(shared(xa)), yb = values(shared(xb));
  EXPECT_EQ(values(out[0]), (std::vector<float>{ya[0], ya[1], yb[0], yb[1]}));
  EXPECT_EQ(values(out[1]), (std::vector<float>{ya[0] + yb[0], ya[1] + yb[1]}));
  EXPECT_THROW(m({xa}), InvalidArgumentError);
}

TEST(Functional, TrainsWithFitAndTrainOnBatch) {
  Tensor in = Input({4});
  Tensor h = layers::Dense(16, {.activation = "relu"})(in);
  Tensor out = layers::Dense(3)(layers::Dropout(0.1, 5)(h));
  Model m = functional({in}, {out});
  m.compile(
      {.optimizer = optimizers::Adam({.learning_rate = 0.02}),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
       .metrics = {"accuracy"}});
  auto gen = random::Generator::from_seed(9);
  Tensor labels = cast(gen.uniform({300}, 0, 3), DType::Int32);
  Tensor centers = constant(
      {{3.f, 0.f, 0.f, 0.f}, {0.f, 3.f, 0.f, 0.f}, {0.f, 0.f, 3.f, 0.f}});
  Tensor x = gather(centers, labels) + gen.normal({300, 4}, 0, 0.5);
  History h1 = m.fit(x, labels, {.batch_size = 30, .epochs = 6, .verbose = 0});
  EXPECT_GT(h1.history["accuracy"].back(), 0.95);

  // Two inputs, two outputs: the loss applies to each and sums.
  Tensor p = Input({4}), q = Input({4});
  Layer body = layers::Dense(1);
  Model two = functional({p, q}, {body(p), body(q)});
  two.compile({.optimizer = optimizers::SGD({.learning_rate = 0.02}),
               .loss = losses::MeanSquaredError()});
  Tensor xp = ones({8, 4}), xq = ones({8, 4}) * 2.0f;
  Tensor yp = ones({8, 1}), yq = ones({8, 1}) * 2.0f;
  double first = two.train_on_batch({xp, xq}, {yp, yq})["loss"];
  double later = first;
  for (int i = 0; i < 30; ++i)
    later = two.train_on_batch({xp, xq}, {yp, yq})["loss"];
  EXPECT_LT(later, 0.05 * first);
  EXPECT_THROW(two.train_on_batch({xp}, {yp}), InvalidArgumentError);
}

TEST(Functional, ErrorsNameTheProblem) {
  Tensor a = Input({3}), b = Input({3});
  Tensor c = layers::Dense(2)(a + b);
  EXPECT_THROW(functional({a}, {c}), InvalidArgumentError); // needs b
  EXPECT_THROW(functional({ones({1, 3})}, {c}), InvalidArgumentError);
  EXPECT_THROW(functional({a, b}, {ones({1, 2})}), InvalidArgumentError);
  EXPECT_THROW(Input({-1, 3}), InvalidArgumentError);
  Model ok = functional({a, b}, {c});
  EXPECT_EQ(ok({ones({2, 3}), ones({2, 3})})[0].shape(),
            (std::vector<int64_t>{2, 2}));
}

} // namespace
