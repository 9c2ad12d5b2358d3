//===- bench_fit_torch.cpp - epochs of Model::fit next to libtorch --------===//
//
//   build/bin/tfc-bench-fit-torch --benchmark_repetitions=3
//       --benchmark_enable_random_interleaving=true
//   TFC_BENCH_FIT_STEPS=epoch build/bin/tfc-bench-fit-torch   (whole epochs)
//
// Time per epoch of Keras-style training in tfc (Model::fit, its train step
// one compiled tfc::function) next to libtorch 1.13's idiomatic C++ loop
// (bench_fit_torch_side.cpp), same model, data, batch (128), optimizer
// (Adam, lr 1e-3) and loss (sparse categorical cross-entropy on logits), on
// 1 and 2 threads, in one binary so the ratios come from one run:
//
//   Epoch/MLP/<n>thread(s)/{Tfc,Torch}  Flatten, Dense 256, 128 (ReLU), 10
//   Epoch/CNN/<n>thread(s)/{Tfc,Torch}  Conv 32 3x3, pool 2, Conv 64 3x3,
//                                      pool 2, Flatten, Dropout 0.5, Dense 10
//
// Fashion-MNIST's training images (fit_cases.h). One iteration is one epoch
// over the first 50 * 128 examples, shuffled (TFC_BENCH_FIT_STEPS changes
// the 50; =epoch: all 60,000, 469 steps); `epoch_s` extrapolates to 469
// steps. Each case sets both libraries' thread counts
// (tfc::kernels::set_num_threads, torch::set_num_threads). Each (model,
// library, threads) trains one model across its repetitions, after an
// untimed first epoch (tracing and JIT compilation for tfc; oneDNN's
// primitives for libtorch) whose first-step loss must be near ln 10; a
// case fails unless its timed epochs' loss is below that first epoch's.
// Real time; `cores` is process CPU time / real time (1 on one thread).
//
//===----------------------------------------------------------------------===//

#include "fit_cases.h"

#include <benchmark/benchmark.h>

#include <functional>
#include <map>
#include <memory>
#include <tuple>

using namespace fitbench;
namespace keras = tfc::keras;

namespace {

enum class Side { Tfc, Torch };

/// tfc's side: Model::fit over `rows` examples, one epoch a call.
class TfcTrainer {
public:
  TfcTrainer(Net net, int64_t rows)
      : model_(buildModel(net)),
        x_(modelInput(net, firstRows(trainData().x, rows))),
        y_(firstRows(trainData().y, rows)) {
    model_.compile(compileOptions());
  }

  EpochLosses epoch() {
    double first = 0;
    keras::FitOptions o{
        .batch_size = kBatch, .epochs = 1, .verbose = 0, .seed = ++seed_};
    // Only to read the first step's loss: the timed epochs have no callback.
    if (seed_ == 1)
      o.callbacks.push_back(keras::callbacks::LambdaCallback(
          {.on_batch_end = [&](int64_t b, const keras::callbacks::Logs &l) {
            if (b == 0)
              first = l.at("loss");
          }}));
    keras::History h = model_.fit(x_, y_, o);
    return {first, h.history.at("loss").back()};
  }

private:
  keras::Model model_;
  tfc::Tensor x_, y_;
  uint64_t seed_ = 0;
};

void setThreads(int n) {
  tfc::kernels::set_num_threads(n);
  torchSetNumThreads(n);
}

/// One trained model per (net, side, threads), with its first epoch.
struct Trainer {
  std::function<EpochLosses()> epoch;
  EpochLosses first;
};

Trainer &trainer(Net net, Side side, int threads) {
  static std::map<std::tuple<Net, Side, int>, std::unique_ptr<Trainer>> all;
  std::unique_ptr<Trainer> &t = all[{net, side, threads}];
  if (t)
    return *t;
  t = std::make_unique<Trainer>();
  const int64_t rows = timedRows();
  if (side == Side::Tfc) {
    auto impl = std::make_shared<TfcTrainer>(net, rows);
    t->epoch = [impl] { return impl->epoch(); };
  } else {
    // libtorch gets the same numbers (NHWC, C = 1; it lays them out as NCHW).
    std::vector<float> x = firstRows(trainData().x, rows).to_vector<float>();
    std::vector<int32_t> y =
        firstRows(trainData().y, rows).to_vector<int32_t>();
    std::shared_ptr<TorchTrainer> impl =
        TorchTrainer::create(net, x.data(), y.data(), rows, kBatch, 42);
    t->epoch = [impl] { return impl->epoch(); };
  }
  t->first = t->epoch();
  // Logits of a fresh model are O(1): the first loss is about ln 10 = 2.30.
  check(t->first.first > 1.5 && t->first.first < 4.0,
        "first loss " + std::to_string(t->first.first) + ", want ~2.3");
  return *t;
}

void epochCase(benchmark::State &st, Net net, Side side, int threads) {
  setThreads(threads);
  Trainer &t = trainer(net, side, threads);
  EpochLosses last;
  Meter m;
  m.start();
  for (auto _ : st) {
    last = t.epoch();
    benchmark::DoNotOptimize(last.mean);
  }
  m.stop();
  if (!(last.mean < t.first.mean))
    st.SkipWithError(("loss did not decrease: " + std::to_string(last.mean) +
                      " after " + std::to_string(t.first.mean))
                         .c_str());
  st.counters["epoch_s"] = m.real() / double(st.iterations()) /
                           double(timedSteps()) * double(kEpochSteps);
  st.counters["cores"] = m.cores();
  st.counters["loss"] = last.mean;
  st.SetLabel(
      std::string(side == Side::Tfc ? "tfc Model::fit" : torchDescription()) +
      ", " + dataLabel() + ", " + stepsLabel());
}

[[maybe_unused]] const bool gRegistered = [] {
  const std::pair<Net, const char *> nets[] = {{Net::Mlp, "MLP"},
                                               {Net::Cnn, "CNN"}};
  const std::pair<Side, const char *> sides[] = {{Side::Tfc, "Tfc"},
                                                 {Side::Torch, "Torch"}};
  for (auto [net, netName] : nets)
    for (int threads : {1, 2})
      for (auto [side, sideName] : sides)
        benchmark::RegisterBenchmark(
            (std::string("Epoch/") + netName + "/" +
             (threads == 1 ? "1thread/" : "2threads/") + sideName)
                .c_str(),
            epochCase, net, side, threads)
            // One epoch an iteration; the MLP's short epochs run several.
            ->MinTime(net == Net::Mlp ? 0.5 : 0.01)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
  return true;
}();

} // namespace
