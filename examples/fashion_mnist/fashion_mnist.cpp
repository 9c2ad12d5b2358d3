//===- fashion_mnist.cpp - train a Keras-style model on Fashion-MNIST -----===//
//
//   fashion_mnist [--model=mlp|cnn] [--epochs=N] [--batch=N] [--out=DIR]
//                 [--seed=N] [--lr=X] [--cosine] [--standardize]
//
// Loads Fashion-MNIST from the Debian package dataset-fashion-mnist, builds
// a model, trains it with a compiled train step and a progress bar,
// evaluates it on the test set, then saves its weights and a checkpoint of
// model and optimizer in DIR (default: the current directory) and restores
// the weights into a fresh model.
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include "FashionModels.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace tfc;
using namespace tfc::keras;

int main(int argc, char **argv) {
  std::string kind = "mlp", out = ".";
  int64_t epochs = 5, batch = 128;
  uint64_t seed = 42;
  bool cosine = false, standardize = false;
  double lr = 1e-3;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--model=", 0) == 0)
      kind = a.substr(8);
    else if (a.rfind("--epochs=", 0) == 0)
      epochs = std::stoll(a.substr(9));
    else if (a.rfind("--batch=", 0) == 0)
      batch = std::stoll(a.substr(8));
    else if (a.rfind("--seed=", 0) == 0)
      seed = std::stoull(a.substr(7));
    else if (a.rfind("--out=", 0) == 0)
      out = a.substr(6);
    else if (a == "--cosine")
      cosine = true;
    else if (a == "--standardize")
      standardize = true;
    else if (a.rfind("--lr=", 0) == 0)
      lr = std::stod(a.substr(5));
    else {
      std::fprintf(stderr,
                   "usage: %s [--model=mlp|cnn] [--epochs=N] "
                   "[--batch=N] [--out=DIR] [--seed=N] [--lr=X] "
                   "[--cosine] [--standardize]\n",
                   argv[0]);
      return 2;
    }
  }
  try {
    auto [train, test] = datasets::fashion_mnist::load_data();
    // Scale to [0, 1]; the CNN wants a channel dim (NHWC).
    auto prepare = [&](const Tensor &images) {
      Tensor x = cast(images, DType::Float32) / 255.0f;
      return kind == "cnn" ? expand_dims(x, -1) : x;
    };
    Tensor xTrain = prepare(train.first), xTest = prepare(test.first);
    if (standardize) {
      // Zero mean, unit variance by the training images' statistics.
      Tensor mean = reduce_mean(xTrain);
      Tensor std = sqrt(reduce_mean(square(xTrain - mean)));
      xTrain = (xTrain - mean) / std;
      xTest = (xTest - mean) / std;
    }

    set_random_seed(seed);
    Model model = build_fashion_model(kind);
    // Adam (1e-3 unless --lr); --cosine decays it to 0 over the run
    // (Keras's CosineDecay).
    optimizers::AdamOptions adam;
    adam.learning_rate = lr;
    if (cosine) {
      int64_t steps = (xTrain.shape()[0] + batch - 1) / batch;
      adam.schedule = schedules::CosineDecay(lr, steps * epochs);
    }
    Optimizer opt = optimizers::Adam(adam);
    model.compile(
        {.optimizer = opt,
         .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
         .metrics = {"accuracy"}});
    model.build(kind == "cnn" ? Shape{-1, 28, 28, 1} : Shape{-1, 28, 28});
    std::printf("%s", model.summary().c_str());

    History h =
        model.fit(xTrain, train.second,
                  {.batch_size = batch,
                   .epochs = epochs,
                   .validation_data = std::make_pair(xTest, test.second),
                   .seed = seed});
    auto res = model.evaluate(xTest, test.second, 256);
    std::printf("test loss %.4f, test accuracy %.4f\n", res["loss"],
                res["accuracy"]);

    // Weights alone, then model + optimizer as an object checkpoint.
    std::string weights = out + "/" + kind + ".weights.safetensors";
    model.save_weights(weights);
    train::Checkpoint ckpt({{"model", model}, {"optimizer", opt}});
    std::string saved = ckpt.save(out + "/" + kind + "-ckpt");
    std::printf("saved %s and %s\n", weights.c_str(), saved.c_str());

    Model fresh = build_fashion_model(kind);
    fresh.build(kind == "cnn" ? Shape{-1, 28, 28, 1} : Shape{-1, 28, 28});
    fresh.load_weights(weights);
    fresh.compile(
        {.optimizer = optimizers::Adam(),
         .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
         .metrics = {"accuracy"}});
    auto again = fresh.evaluate(xTest, test.second, 256);
    std::printf("restored model: test accuracy %.4f\n", again["accuracy"]);
    return again["accuracy"] == res["accuracy"] ? 0 : 1;
  } catch (const Error &e) {
    std::fprintf(stderr, "fashion_mnist: %s\n", e.what());
    return 1;
  }
}
