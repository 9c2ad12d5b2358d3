//===- progbar.cpp - the progress bar of fit(), and what it costs ---------===//
//
//   progbar [--epochs=N] [--steps=N] [--hidden=N]
//   progbar --measure [--steps=N] [--hidden=N]
//
// Trains a small MLP on seeded synthetic data with fit(verbose = 1): on a
// terminal the bar redraws in place, in a file it prints one line per
// epoch (test/Training/progress-bar.test runs it both ways).
//
// --measure (on a terminal, where the bar draws) times the bar's per-step
// work against a training step of the same model: the throttled path (a
// clock read) in a tight loop, one redraw, and the median step of a real
// run; the bar's cost per step is the first plus the second times the
// redraws per step (one per 50 ms, and the epoch's last step).
//
//===----------------------------------------------------------------------===//

#include <tfc/tfc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace tfc;
using namespace tfc::keras;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
  int64_t epochs = 2, steps = 200, hidden = 768, batch = 64;
  bool measure = false;
};

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2),
                   v.end());
  return v[v.size() / 2];
}

/// steps * batch examples of 64 features, labelled by the argmax of a fixed
/// random linear map: learnable, so the loss falls.
std::pair<Tensor, Tensor> syntheticData(const Options &o) {
  auto gen = random::Generator::from_seed(1);
  Tensor x = gen.normal({o.steps * o.batch, 64});
  Tensor w = gen.normal({64, 10});
  return {x, cast(argmax(matmul(x, w), -1), DType::Int32)};
}

Model buildModel(const Options &o) {
  set_random_seed(42);
  Model m = Sequential({layers::Dense(o.hidden, {.activation = "relu"}),
                        layers::Dense(o.hidden, {.activation = "relu"}),
                        layers::Dense(10)});
  m.compile(
      {.optimizer = optimizers::Adam(),
       .loss = losses::SparseCategoricalCrossentropy({.from_logits = true}),
       .metrics = {"accuracy"}});
  return m;
}

/// Records when each train step ends (a callback of a silent fit).
class StepTimer : public CallbackBase {
public:
  void on_epoch_begin(int64_t epoch, const Logs &) override {
    this->epoch = epoch;
    last = Clock::now();
  }
  void on_train_batch_end(int64_t, const Logs &) override {
    auto now = Clock::now();
    // The first epoch traces and compiles the step: not a steady step.
    if (epoch > 0)
      steps.push_back(seconds(now - last));
    last = now;
  }
  std::vector<double> steps;

private:
  int64_t epoch = 0;
  Clock::time_point last;
};

/// Tops each step up to 5 ms, so that an epoch of 200 steps lasts a second
/// or more and the bar redraws (every 50 ms) many times on a fast machine
/// too; on the 2-core build machine a step takes longer anyway.
Callback minimumStep() {
  auto begin = std::make_shared<Clock::time_point>();
  return callbacks::LambdaCallback(
      {.on_batch_begin =
           [begin](int64_t, const callbacks::Logs &) { *begin = Clock::now(); },
       .on_batch_end =
           [begin](int64_t, const callbacks::Logs &) {
             std::this_thread::sleep_until(*begin +
                                           std::chrono::milliseconds(5));
           }});
}

int measure(const Options &o) {
  if (!isatty(fileno(stdout))) {
    std::fprintf(stderr, "progbar --measure: stdout is not a terminal, so "
                         "the bar would not draw; run it in one (script)\n");
    return 1;
  }
  // A training step of the model the bar would report on.
  auto [x, y] = syntheticData(o);
  Model model = buildModel(o);
  auto timer = std::make_shared<StepTimer>();
  model.fit(x, y,
            {.batch_size = o.batch,
             .epochs = 2,
             .verbose = 0,
             .callbacks = {Callback(timer)},
             .seed = 7});
  const double step = median(timer->steps);

  const callbacks::Logs logs = {{"accuracy", 0.8125}, {"loss", 0.4321}};
  // The throttled path: calls far apart from redraws (one per 50 ms), so
  // the median block of calls is pure clock reads and comparisons.
  Callback bar = callbacks::ProgbarLogger();
  bar->set_params({.epochs = 1, .steps = int64_t(1) << 40, .verbose = 1});
  bar->on_train_begin({});
  bar->on_epoch_begin(0, {});
  constexpr int blockCalls = 1000;
  std::vector<double> perCall;
  int64_t at = 0;
  for (int b = 0; b < 201; ++b) {
    auto t0 = Clock::now();
    for (int i = 0; i < blockCalls; ++i)
      bar->on_train_batch_end(at++, logs);
    perCall.push_back(seconds(Clock::now() - t0) / blockCalls);
  }
  const double fast = median(perCall);

  // A redraw: the epoch's last step always draws.
  Callback last = callbacks::ProgbarLogger();
  last->set_params({.epochs = 1, .steps = o.steps, .verbose = 1});
  last->on_train_begin({});
  std::printf("\n");
  last->on_epoch_begin(0, {});
  std::vector<double> draws;
  for (int i = 0; i < 101; ++i) {
    auto t0 = Clock::now();
    last->on_train_batch_end(o.steps - 1, logs);
    draws.push_back(seconds(Clock::now() - t0));
  }
  std::printf("\n");
  const double draw = median(draws);

  const double redrawsPerStep =
      std::min(1.0, step / 0.05) + 1.0 / double(o.steps);
  const double cost = fast + draw * redrawsPerStep;
  std::printf("training step: %.3f ms (median of %zu)\n", step * 1e3,
              timer->steps.size());
  std::printf("bar: %.1f ns per throttled step, %.1f us per redraw, %.3f "
              "redraws per step\n",
              fast * 1e9, draw * 1e6, redrawsPerStep);
  std::printf("progress bar: %.3f us per step = %.3f%% of a step\n", cost * 1e6,
              100 * cost / step);
  return 0;
}

bool parse(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag, int64_t &out) {
      std::string f = flag;
      if (a.rfind(f, 0) != 0)
        return false;
      try {
        size_t used = 0;
        out = std::stoll(a.substr(f.size()), &used);
        return used == a.size() - f.size() && out > 0;
      } catch (const std::exception &) {
        return false;
      }
    };
    if (a == "--measure")
      o.measure = true;
    else if (!value("--epochs=", o.epochs) && !value("--steps=", o.steps) &&
             !value("--hidden=", o.hidden))
      return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: %s [--measure] [--epochs=N] [--steps=N] "
                 "[--hidden=N] (N > 0)\n",
                 argv[0]);
    return 2;
  }
  try {
    if (o.measure)
      return measure(o);
    auto [x, y] = syntheticData(o);
    Model model = buildModel(o);
    model.fit(x, y,
              {.batch_size = o.batch,
               .epochs = o.epochs,
               .verbose = 1,
               .callbacks = {minimumStep()},
               .seed = 7});
  } catch (const std::exception &e) {
    std::fprintf(stderr, "progbar: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
