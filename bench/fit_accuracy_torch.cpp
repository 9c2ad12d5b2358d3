//===- fit_accuracy_torch.cpp - test accuracy per epoch, libtorch ---------===//
//
//   build/bin/tfc-fit-accuracy-torch [--model=cnn|mlp] [--epochs=15]
//       [--seed=N] [--threads=N]
//
// The reference for docs/training.md's accuracy figures: the same model,
// optimizer (Adam 1e-3, epsilon 1e-7), loss and batch (128) as
// examples/fashion_mnist, trained with libtorch's idiomatic loop
// (bench_fit_torch_side.cpp) on Fashion-MNIST's 60,000 training images;
// prints the 10,000 test images' accuracy after every epoch.
//
//===----------------------------------------------------------------------===//

#include "fit_cases.h"

#include <cstdio>
#include <string>

using namespace fitbench;

int main(int argc, char **argv) {
  Net net = Net::Cnn;
  int64_t epochs = 15;
  uint64_t seed = 42;
  int threads = 2;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--model=mlp")
      net = Net::Mlp;
    else if (a == "--model=cnn")
      net = Net::Cnn;
    else if (a.rfind("--epochs=", 0) == 0)
      epochs = std::stoll(a.substr(9));
    else if (a.rfind("--seed=", 0) == 0)
      seed = std::stoull(a.substr(7));
    else if (a.rfind("--threads=", 0) == 0)
      threads = std::stoi(a.substr(10));
    else {
      std::fprintf(stderr,
                   "usage: %s [--model=cnn|mlp] [--epochs=N] [--seed=N] "
                   "[--threads=N]\n",
                   argv[0]);
      return 2;
    }
  }
  try {
    auto [train, test] = tfc::keras::datasets::fashion_mnist::load_data();
    tfc::Tensor x = tfc::cast(train.first, tfc::DType::Float32) / 255.0f;
    tfc::Tensor tx = tfc::cast(test.first, tfc::DType::Float32) / 255.0f;
    std::vector<float> xv = x.to_vector<float>(), txv = tx.to_vector<float>();
    std::vector<int32_t> yv = train.second.to_vector<int32_t>(),
                         tyv = test.second.to_vector<int32_t>();
    torchSetNumThreads(threads);
    auto trainer = TorchTrainer::create(net, xv.data(), yv.data(),
                                        int64_t(yv.size()), kBatch, seed);
    std::printf("%s, %s, seed %llu, %d thread(s)\n", torchDescription().c_str(),
                net == Net::Cnn ? "CNN" : "MLP", (unsigned long long)seed,
                threads);
    for (int64_t e = 1; e <= epochs; ++e) {
      EpochLosses l = trainer->epoch();
      double acc =
          trainer->accuracy(txv.data(), tyv.data(), int64_t(tyv.size()));
      std::printf("epoch %lld: loss %.4f, test accuracy %.4f\n", (long long)e,
                  l.mean, acc);
      std::fflush(stdout);
    }
    return 0;
  } catch (const tfc::Error &e) {
    std::fprintf(stderr, "tfc-fit-accuracy-torch: %s\n", e.what());
    return 1;
  }
}
