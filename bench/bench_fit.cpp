//===- bench_fit.cpp - Model::fit's overhead: loop, datasets, progress bar
//-===//
//
//   build/bin/tfc-bench-fit --benchmark_repetitions=5
//       --benchmark_enable_random_interleaving=true
//   TFC_BENCH_FIT_STEPS=epoch build/bin/tfc-bench-fit   (whole epochs)
//
// What Keras-style training costs above its compiled train step, on the MLP
// 784-256-128-10 of bench_fit_torch.cpp (Adam, sparse categorical
// cross-entropy on logits, batch 128, Fashion-MNIST: fit_cases.h), on one
// thread (tfc::kernels::set_num_threads(1)). One iteration is one epoch of
// 50 steps over the first 6,400 examples (TFC_BENCH_FIT_STEPS: the steps;
// =epoch: 469 steps over all 60,000); `epoch_s` extrapolates to 469 steps.
//
//   Fit/Tensors          model.fit(x, y, verbose 0): shuffle, batch, step,
//                        read the loss tracker, call the callbacks.
//   Fit/BareLoop         the same train step written by hand (tfc::function
//                        over GradientTape, the Adam optimizer and the loss)
//                        called on batches sliced once up front.
//   Fit/DatasetPrefetch  model.fit on from_tensor_slices + shuffle + batch
//                        + prefetch(AUTOTUNE).
//   Fit/Verbose1/Tty     fit(x, y) with verbose 1, stdout a pseudo-terminal
//                        (the live bar).
//   Fit/Verbose1/NotTty  the same, stdout /dev/null (one line an epoch).
//   Progbar/BatchEnd/{Tty,NotTty}  keras::callbacks::ProgbarLogger()'s
//                        on_train_batch_end alone, per call (a step's bar
//                        work), the epoch ending every 469 calls.
//   Fit/Piece/DatasetPass  one pass of fit's pipeline (shuffle + batch of
//                        the tensors) without training: the input side.
//   Fit/Piece/ReadLoss   reading the loss tracker once per step, as fit
//                        does for its callbacks' logs.
//
// Targets (issue): Fit/Tensors within 1.05x of Fit/BareLoop;
// Fit/DatasetPrefetch within 1.10x of Fit/Tensors; the progress bar under
// 1% of an epoch. Every training case runs an untimed first epoch (tracing
// and compiling its step) whose loss must start near ln 10, and fails
// unless its timed epochs end below that. Real time (the prefetch thread
// works beside the main one); `cores` is process CPU / real time.
//
//===----------------------------------------------------------------------===//

#include "fit_cases.h"

#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <functional>
#include <optional>
#include <thread>

using namespace fitbench;
namespace keras = tfc::keras;

namespace {

/// The timed epoch's examples: the model's (N, 28, 28) input and labels.
const tfc::Tensor &xs() {
  static const tfc::Tensor x = firstRows(trainData().x, timedRows());
  return x;
}
const tfc::Tensor &ys() {
  static const tfc::Tensor y = firstRows(trainData().y, timedRows());
  return y;
}

keras::Model compiledMlp() {
  keras::Model m = buildModel(Net::Mlp);
  m.compile(compileOptions());
  return m;
}

/// The per-epoch counters: `epoch_s` is the case's time extrapolated to a
/// whole epoch; `loss` the last timed epoch's (training cases).
void report(benchmark::State &st, const Meter &m,
            std::optional<double> loss = std::nullopt) {
  st.counters["epoch_s"] = m.real() / double(st.iterations()) /
                           double(timedSteps()) * double(kEpochSteps);
  st.counters["cores"] = m.cores();
  if (loss)
    st.counters["loss"] = *loss;
  st.SetLabel(std::string(dataLabel()) + ", " + stepsLabel());
}

/// fit's loss of its first step and of the epoch, through a LambdaCallback
/// (untimed epochs only).
struct FirstEpoch {
  double first = 0;
  double mean = 0;
};

FirstEpoch
firstFit(keras::FitOptions o,
         const std::function<keras::History(keras::FitOptions)> &fit) {
  FirstEpoch r;
  o.callbacks.push_back(keras::callbacks::LambdaCallback(
      {.on_batch_end = [&](int64_t b, const keras::callbacks::Logs &l) {
        if (b == 0)
          r.first = l.at("loss");
      }}));
  r.mean = fit(o).history.at("loss").back();
  check(r.first > 1.5 && r.first < 4.0,
        "first loss " + std::to_string(r.first) + ", want ~2.3");
  return r;
}

/// Points stdout at a pseudo-terminal (isatty: the live progress bar; a
/// thread drains it) or at /dev/null, for the object's lifetime.
class RedirectStdout {
public:
  explicit RedirectStdout(bool tty) {
    std::fflush(stdout);
    saved_ = dup(STDOUT_FILENO);
    int target;
    if (tty) {
      master_ = posix_openpt(O_RDWR | O_NOCTTY);
      if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0)
        fail("no pseudo-terminal");
      target = open(ptsname(master_), O_RDWR | O_NOCTTY);
      drain_ = std::thread([fd = master_] {
        char buf[4096];
        while (read(fd, buf, sizeof buf) > 0) {
        }
      });
    } else {
      target = open("/dev/null", O_WRONLY);
    }
    if (saved_ < 0 || target < 0 || dup2(target, STDOUT_FILENO) < 0)
      fail("cannot redirect stdout");
    close(target);
    check(bool(isatty(STDOUT_FILENO)) == tty, "stdout redirected");
  }
  ~RedirectStdout() {
    std::fflush(stdout);
    dup2(saved_, STDOUT_FILENO); // Closes the last slave fd: read() ends.
    close(saved_);
    if (master_ >= 0) {
      drain_.join();
      close(master_);
    }
  }
  RedirectStdout(const RedirectStdout &) = delete;
  RedirectStdout &operator=(const RedirectStdout &) = delete;

private:
  int saved_ = -1, master_ = -1;
  std::thread drain_;
};

/// fit on the tensors, `verbose` 0 or 1 (stdout a terminal or not).
void fitTensors(benchmark::State &st, int verbose, bool tty) {
  tfc::kernels::set_num_threads(1);
  keras::Model model = compiledMlp();
  uint64_t seed = 0;
  auto fit = [&](keras::FitOptions o) { return model.fit(xs(), ys(), o); };
  auto options = [&] {
    return keras::FitOptions{
        .batch_size = kBatch, .epochs = 1, .verbose = verbose, .seed = ++seed};
  };
  std::optional<RedirectStdout> redirect;
  if (verbose)
    redirect.emplace(tty);
  FirstEpoch first = firstFit(options(), fit);
  double loss = 0;
  Meter m;
  m.start();
  for (auto _ : st)
    loss = fit(options()).history.at("loss").back();
  m.stop();
  redirect.reset();
  if (!(loss < first.mean))
    st.SkipWithError("loss did not decrease");
  report(st, m, loss);
}

void BM_FitTensors(benchmark::State &st) { fitTensors(st, 0, false); }
void BM_FitVerboseTty(benchmark::State &st) { fitTensors(st, 1, true); }
void BM_FitVerboseNotTty(benchmark::State &st) { fitTensors(st, 1, false); }

/// The train step a user writes without fit: forward, loss, GradientTape,
/// the optimizer's update. `vars` are the model's trainable variables.
struct BareStep {
  keras::Model model;
  keras::Loss loss;
  keras::Optimizer opt;
  std::vector<tfc::Variable> vars;
  tfc::Tensor operator()(const tfc::Tensor &x, const tfc::Tensor &y) {
    tfc::GradientTape tape;
    tfc::Tensor l = loss(y, model(x, true));
    std::vector<tfc::Tensor> grads = tape.gradient(l, vars);
    opt.apply_gradients(grads, vars);
    return l;
  }
};

void BM_BareLoop(benchmark::State &st) {
  tfc::kernels::set_num_threads(1);
  keras::Model model = buildModel(Net::Mlp);
  model.build(inputShape(Net::Mlp));
  std::vector<tfc::Variable> vars = model.trainable_variables();
  keras::Optimizer opt = keras::optimizers::Adam({.learning_rate = 1e-3});
  opt.build(vars);
  auto step = tfc::function(BareStep{model, lossFn(), opt, vars},
                            {.name = "bare_train_step"});
  // Batches sliced once, in order (a full epoch's last one has 96 rows).
  std::vector<std::pair<tfc::Tensor, tfc::Tensor>> batches;
  for (int64_t b = 0; b < timedRows(); b += kBatch) {
    int64_t n = std::min(kBatch, timedRows() - b);
    batches.emplace_back(rowRange(xs(), b, n), rowRange(ys(), b, n));
  }
  // Untimed first epoch: traces (each batch shape once) and compiles.
  double first = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    tfc::Tensor l = step(batches[i].first, batches[i].second);
    if (i == 0)
      first = l.item<float>();
  }
  check(first > 1.5 && first < 4.0,
        "first loss " + std::to_string(first) + ", want ~2.3");
  tfc::Tensor last;
  Meter m;
  m.start();
  for (auto _ : st)
    for (auto &[x, y] : batches)
      last = step(x, y);
  m.stop();
  double loss = last.item<float>();
  if (!(loss < first))
    st.SkipWithError("loss did not decrease");
  report(st, m, loss);
}

void BM_FitDatasetPrefetch(benchmark::State &st) {
  tfc::kernels::set_num_threads(1);
  keras::Model model = compiledMlp();
  tfc::data::Dataset ds = tfc::data::Dataset::from_tensor_slices({xs(), ys()})
                              .shuffle(timedRows(), 7)
                              .batch(kBatch)
                              .prefetch(tfc::data::AUTOTUNE);
  auto fit = [&](keras::FitOptions o) { return model.fit(ds, o); };
  keras::FitOptions o{.epochs = 1, .verbose = 0};
  FirstEpoch first = firstFit(o, fit);
  double loss = 0;
  Meter m;
  m.start();
  for (auto _ : st)
    loss = fit(o).history.at("loss").back();
  m.stop();
  if (!(loss < first.mean))
    st.SkipWithError("loss did not decrease");
  report(st, m, loss);
}

/// The bar's work for one step, as fit calls it (logs of the loss alone).
void progbarCase(benchmark::State &st, bool tty) {
  RedirectStdout redirect(tty);
  keras::Callback bar = keras::callbacks::ProgbarLogger();
  bar->set_params({.epochs = 1, .steps = kEpochSteps, .verbose = 1});
  bar->on_train_begin({});
  const keras::callbacks::Logs logs{{"loss", 0.4321}};
  int64_t step = 0;
  bar->on_epoch_begin(0, {});
  for (auto _ : st) {
    bar->on_train_batch_end(step, logs);
    if (++step == kEpochSteps) {
      bar->on_epoch_end(0, logs);
      bar->on_epoch_begin(0, {});
      step = 0;
    }
  }
  bar->on_train_end({});
}

void BM_ProgbarTty(benchmark::State &st) { progbarCase(st, true); }
void BM_ProgbarNotTty(benchmark::State &st) { progbarCase(st, false); }

/// fit's input pipeline alone: one pass of shuffle + batch over the tensors.
void BM_DatasetPass(benchmark::State &st) {
  tfc::data::Dataset ds = tfc::data::Dataset::from_tensor_slices({xs(), ys()})
                              .shuffle(timedRows(), 7)
                              .batch(kBatch);
  int64_t rows = 0;
  Meter m;
  m.start();
  for (auto _ : st)
    for (const std::vector<tfc::Tensor> &b : ds) {
      rows += b[0].shape()[0];
      benchmark::DoNotOptimize(b[0].unsafe_impl());
    }
  m.stop();
  check(rows == timedRows() * int64_t(st.iterations()), "rows of a pass");
  report(st, m);
}

/// The loss tracker read once per step, as fit reads it for the logs.
void BM_ReadLoss(benchmark::State &st) {
  tfc::kernels::set_num_threads(1);
  keras::Model model = compiledMlp();
  model.train_on_batch(firstRows(xs(), kBatch), firstRows(ys(), kBatch));
  keras::Metric tracker = model.metrics().at(0);
  check(tracker.name() == "loss", "the loss tracker comes first");
  double sum = 0;
  Meter m;
  m.start();
  for (auto _ : st)
    for (int64_t s = 0; s < timedSteps(); ++s)
      sum += double(tracker.result().item<float>());
  m.stop();
  check(std::isfinite(sum), "loss tracker finite");
  report(st, m);
}

} // namespace

// Training cases: several epochs a repetition.
BENCHMARK(BM_FitTensors)
    ->Name("Fit/Tensors")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BareLoop)
    ->Name("Fit/BareLoop")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitDatasetPrefetch)
    ->Name("Fit/DatasetPrefetch")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitVerboseTty)
    ->Name("Fit/Verbose1/Tty")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FitVerboseNotTty)
    ->Name("Fit/Verbose1/NotTty")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ProgbarTty)
    ->Name("Progbar/BatchEnd/Tty")
    ->UseRealTime()
    ->Unit(benchmark::kNanosecond);
BENCHMARK(BM_ProgbarNotTty)
    ->Name("Progbar/BatchEnd/NotTty")
    ->UseRealTime()
    ->Unit(benchmark::kNanosecond);
BENCHMARK(BM_DatasetPass)
    ->Name("Fit/Piece/DatasetPass")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadLoss)
    ->Name("Fit/Piece/ReadLoss")
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
