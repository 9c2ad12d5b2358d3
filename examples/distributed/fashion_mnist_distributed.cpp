//===- fashion_mnist_distributed.cpp - data-parallel Fashion-MNIST --------===//
//
//   mpirun -np N fashion_mnist_distributed [--model=mlp|cnn] [--epochs=N]
//       [--batch=N] [--train-rows=N] [--ckpt=DIR] [--pid-dir=DIR]
//
// Every replica (process) runs this same program: the model trains with a
// MultiWorkerMirroredStrategy on Open MPI (docs/distributed.md), batch N
// being the global batch. With --ckpt, replica 0 saves model, optimizer
// and epoch after every epoch, and a restart (with any number of
// replicas) resumes from the latest checkpoint. --pid-dir writes each
// replica's pid to DIR/<rank>.pid (the failure test kills one).
//
//===----------------------------------------------------------------------===//

#include <tfc/distribute/Mpi.h>
#include <tfc/tfc.h>

#include "../fashion_mnist/FashionModels.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace tfc;
using namespace tfc::keras;

int main(int argc, char **argv) {
  std::string kind = "mlp", ckptDir, pidDir;
  int64_t epochs = 5, batch = 128, trainRows = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag) -> const char * {
      size_t n = std::string(flag).size();
      return a.compare(0, n, flag) == 0 ? argv[i] + n : nullptr;
    };
    if (auto v = value("--model="))
      kind = v;
    else if (auto v = value("--epochs="))
      epochs = std::stoll(v);
    else if (auto v = value("--batch="))
      batch = std::stoll(v);
    else if (auto v = value("--train-rows="))
      trainRows = std::stoll(v);
    else if (auto v = value("--ckpt="))
      ckptDir = v;
    else if (auto v = value("--pid-dir="))
      pidDir = v;
    else {
      std::fprintf(stderr,
                   "usage: %s [--model=mlp|cnn] [--epochs=N] [--batch=N] "
                   "[--train-rows=N] [--ckpt=DIR] [--pid-dir=DIR]\n",
                   argv[0]);
      return 2;
    }
  }
  try {
    auto comm = distribute::init_mpi();
    const int rank = comm->rank(), size = comm->size();
    const bool chief = rank == 0;
    if (!pidDir.empty())
      std::ofstream(pidDir + "/" + std::to_string(rank) + ".pid") << getpid();

    auto [train, test] = datasets::fashion_mnist::load_data();
    auto prepare = [&](const Tensor &images) {
      Tensor x = cast(images, DType::Float32) / 255.0f;
      return kind == "cnn" ? expand_dims(x, -1) : x;
    };
    Tensor xTrain = prepare(train.first), yTrain = train.second;
    if (trainRows > 0 && trainRows < xTrain.shape()[0]) {
      std::vector<int64_t> begin(size_t(xTrain.rank()), 0),
          shape = xTrain.shape();
      shape[0] = trainRows;
      xTrain = slice(xTrain, begin, shape);
      yTrain = slice(yTrain, {0}, {trainRows});
    }
    Tensor xTest = prepare(test.first);

    set_random_seed(42);
    Model model = build_fashion_model(kind);
    Optimizer opt = optimizers::Adam();
    auto strategy = std::make_shared<distribute::MultiWorkerMirroredStrategy>();
    model.compile(
        {.optimizer = opt,
         .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
         .metrics = {"accuracy"},
         .strategy = strategy});
    model.build(kind == "cnn" ? Shape{-1, 28, 28, 1} : Shape{-1, 28, 28});
    if (chief)
      std::printf("%d replica(s) on %s (%s), global batch %lld\n", size,
                  comm->name().c_str(),
                  distribute::MpiCommunicator::library_version().c_str(),
                  (long long)batch);

    // Every replica restores the same file (a directory all can read); the
    // strategy then broadcasts replica 0's state anyway.
    Variable epoch(constant(int64_t(0)), "epoch");
    train::Checkpoint ckpt(
        {{"model", model}, {"optimizer", opt}, {"epoch", epoch}});
    std::optional<train::CheckpointManager> manager;
    if (!ckptDir.empty()) {
      manager.emplace(ckpt, ckptDir, 3);
      if (auto latest = manager->latest_checkpoint()) {
        ckpt.restore(*latest);
        if (chief)
          std::printf("resumed from %s at epoch %lld\n", latest->c_str(),
                      (long long)epoch.value().item<int64_t>());
      }
    }

    auto t0 = std::chrono::steady_clock::now();
    std::vector<Callback> cbs = {callbacks::LambdaCallback(
        {.on_epoch_begin =
             [&](int64_t, const callbacks::Logs &) {
               t0 = std::chrono::steady_clock::now();
             },
         .on_epoch_end =
             [&](int64_t e, const callbacks::Logs &logs) {
               double s = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - t0)
                              .count();
               epoch.assign(constant(int64_t(e + 1)));
               if (!chief)
                 return;
               std::printf("epoch %lld: %.3f s, loss %.4f, accuracy %.4f\n",
                           (long long)(e + 1), s, logs.at("loss"),
                           logs.at("accuracy"));
               if (manager)
                 std::printf("saved %s\n", manager->save().c_str());
               std::fflush(stdout);
             }})};
    model.fit(xTrain, yTrain,
              {.batch_size = batch,
               .epochs = epochs,
               .verbose = 2, // one line per epoch (on replica 0)
               .callbacks = cbs,
               .seed = 42,
               .initial_epoch = epoch.value().item<int64_t>()});
    auto res = model.evaluate(xTest, test.second, 256);
    if (chief)
      std::printf("test loss %.4f, test accuracy %.4f\n", res["loss"],
                  res["accuracy"]);
    return 0;
  } catch (const Error &e) {
    std::fprintf(stderr, "fashion_mnist_distributed: %s\n", e.what());
    return 1;
  }
}
