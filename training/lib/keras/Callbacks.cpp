//===- Callbacks.cpp - progress bar, early stopping, checkpoints, CSV -----===//

#include "tfc/keras/Callbacks.h"

#include "tfc/keras/Model.h"
#include "tfc/runtime/Error.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <regex>
#include <unistd.h>

namespace tfc::keras {

CallbackBase::~CallbackBase() = default;

namespace {

using Clock = std::chrono::steady_clock;
using callbacks::Logs;

/// Keras's number format in logs: 4 decimals, scientific below 1e-3.
std::string formatValue(double v) {
  char buf[64];
  if (v != 0 && std::fabs(v) < 1e-3)
    std::snprintf(buf, sizeof buf, "%.4e", v);
  else
    std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

std::string formatLogs(const Logs &logs) {
  std::string r;
  for (auto &[k, v] : logs)
    r += " - " + k + ": " + formatValue(v);
  return r;
}

std::string formatDuration(double seconds) {
  char buf[64];
  if (seconds >= 3600)
    std::snprintf(buf, sizeof buf, "%d:%02d:%02d", int(seconds) / 3600,
                  (int(seconds) % 3600) / 60, int(seconds) % 60);
  else if (seconds >= 60)
    std::snprintf(buf, sizeof buf, "%d:%02d", int(seconds) / 60,
                  int(seconds) % 60);
  else
    std::snprintf(buf, sizeof buf, "%.0fs", seconds);
  return buf;
}

class ProgbarLoggerImpl : public CallbackBase {
public:
  bool chief_only() const override { return true; }
  void on_train_begin(const Logs &) override {
    tty = isatty(fileno(stdout)) != 0;
  }
  void on_epoch_begin(int64_t epoch, const Logs &) override {
    start = last = Clock::now();
    seen = 0;
    // Keras prints the header for runs of several epochs, in both modes.
    if (params_.verbose != 0 && params_.epochs > 1)
      print("Epoch " + std::to_string(epoch + 1) + "/" +
            std::to_string(params_.epochs) + "\n");
  }
  void on_train_batch_end(int64_t step, const Logs &logs) override {
    seen = step + 1;
    if (!tty || params_.verbose != 1)
      return;
    // Redraw at most every 0.05 s: a step costs one clock read otherwise.
    auto now = Clock::now();
    if (now - last < std::chrono::milliseconds(50) && seen != params_.steps)
      return;
    last = now;
    double elapsed = std::chrono::duration<double>(now - start).count();
    std::string line(1, '\r');
    line += counter();
    line += bar();
    if (params_.steps > 0 && seen < params_.steps)
      line += " - ETA: " + formatDuration(elapsed / double(seen) *
                                          double(params_.steps - seen));
    else
      line += " - " + formatDuration(elapsed);
    char rate[48];
    std::snprintf(rate, sizeof rate, " - %.1f steps/s",
                  elapsed > 0 ? double(seen) / elapsed : 0.0);
    print(line + rate + formatLogs(logs) + "\033[K");
  }
  void on_epoch_end(int64_t, const Logs &logs) override {
    if (params_.verbose == 0)
      return;
    double elapsed =
        std::chrono::duration<double>(Clock::now() - start).count();
    char perStep[48];
    std::snprintf(perStep, sizeof perStep, " %.0fms/step",
                  seen ? 1e3 * elapsed / double(seen) : 0.0);
    std::string line;
    if (tty)
      line = '\r' + counter() + bar();
    else
      line = counter();
    line += " - ";
    line += formatDuration(elapsed);
    line += perStep;
    line += formatLogs(logs);
    line += tty ? "\033[K\n" : "\n";
    print(line);
  }

private:
  std::string counter() const {
    std::string total = params_.steps > 0 ? std::to_string(params_.steps) : "?";
    std::string done = std::to_string(seen);
    std::string pad(total.size() > done.size() ? total.size() - done.size() : 0,
                    ' ');
    return pad + done + "/" + total;
  }
  std::string bar() const {
    constexpr int width = 30;
    if (params_.steps <= 0)
      return "";
    int filled = int(double(width) * double(seen) / double(params_.steps));
    std::string b = " [";
    for (int i = 0; i < width; ++i)
      b += i < filled - 1 || (i == filled - 1 && seen == params_.steps) ? '='
           : i == filled - 1                                            ? '>'
                                                                        : '.';
    return b + "]";
  }
  static void print(const std::string &s) {
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
  }

  bool tty = false;
  Clock::time_point start, last;
  int64_t seen = 0;
};

/// "min" or "max" for a monitored quantity (Keras's "auto": max for
/// accuracies and AUC).
bool maximises(const std::string &mode, const std::string &monitor,
               const char *who) {
  if (mode == "max")
    return true;
  if (mode == "min")
    return false;
  if (mode != "auto")
    throw InvalidArgumentError(std::string(who) +
                               ": mode must be \"auto\", "
                               "\"min\" or \"max\", got \"" +
                               mode + "\"");
  return monitor.find("acc") != std::string::npos ||
         monitor.find("auc") != std::string::npos;
}

class EarlyStoppingImpl : public CallbackBase {
public:
  explicit EarlyStoppingImpl(callbacks::EarlyStoppingOptions o)
      : o(std::move(o)),
        max(maximises(this->o.mode, this->o.monitor, "EarlyStopping")) {
    if (this->o.patience < 0)
      throw InvalidArgumentError("EarlyStopping: patience must be >= 0");
  }
  void on_train_begin(const Logs &) override {
    wait = 0;
    best = max ? -std::numeric_limits<double>::infinity()
               : std::numeric_limits<double>::infinity();
    bestWeights.clear();
  }
  void on_epoch_end(int64_t epoch, const Logs &logs) override {
    auto it = logs.find(o.monitor);
    if (it == logs.end() || epoch < o.start_from_epoch)
      return;
    const double current = it->second;
    if (o.restore_best_weights && bestWeights.empty())
      bestWeights = snapshot();
    ++wait;
    if (improves(current, best)) {
      best = current;
      if (o.restore_best_weights)
        bestWeights = snapshot();
      // Against a baseline, only beating the baseline resets the wait.
      if (!o.baseline || improves(current, *o.baseline)) {
        wait = 0;
        return;
      }
    }
    if (wait >= o.patience && epoch > 0) {
      model_->set_stop_training(true);
      if (o.restore_best_weights && !bestWeights.empty()) {
        std::vector<Variable> vars = model_->variables();
        for (size_t i = 0; i < vars.size() && i < bestWeights.size(); ++i)
          vars[i].assign(bestWeights[i]);
      }
    }
  }

private:
  bool improves(double v, double reference) const {
    return max ? v - o.min_delta > reference : v + o.min_delta < reference;
  }
  std::vector<Tensor> snapshot() const {
    std::vector<Tensor> values;
    for (const Variable &v : model_->variables())
      values.push_back(v.value());
    return values;
  }

  callbacks::EarlyStoppingOptions o;
  bool max;
  int64_t wait = 0;
  double best = 0;
  std::vector<Tensor> bestWeights;
};

/// Replaces "{epoch}", "{epoch:02d}", "{name}", "{name:.4f}" in `pattern`
/// (Python's str.format as Keras uses it, for ints and floats).
std::string formatPath(const std::string &pattern, int64_t epoch,
                       const Logs &logs) {
  static const std::regex field(R"(\{([A-Za-z_][A-Za-z0-9_]*)(:([^}]*))?\})");
  std::string out;
  auto begin = pattern.cbegin();
  for (std::sregex_iterator it(pattern.begin(), pattern.end(), field), end;
       it != end; ++it) {
    const std::smatch &m = *it;
    out.append(begin, m[0].first);
    begin = m[0].second;
    std::string name = m[1], spec = m[3];
    double value;
    if (name == "epoch")
      value = double(epoch + 1);
    else if (auto l = logs.find(name); l != logs.end())
      value = l->second;
    else
      throw InvalidArgumentError("ModelCheckpoint: the file path names {" +
                                 name + "}, which the logs do not have");
    static const std::regex specRe(R"(0?(\d*)(\.(\d+))?([dfe]?))");
    std::smatch sm;
    if (!std::regex_match(spec, sm, specRe))
      throw InvalidArgumentError("ModelCheckpoint: unsupported format spec '" +
                                 spec + "' in {" + name + "}");
    char buf[128];
    bool zeroPad = !spec.empty() && spec[0] == '0';
    int width = sm[1].length() ? std::stoi(sm[1]) : 0;
    std::string kind = sm[4];
    if (kind == "d" || (kind.empty() && name == "epoch" && !sm[2].matched))
      std::snprintf(buf, sizeof buf, zeroPad ? "%0*lld" : "%*lld", width,
                    static_cast<long long>(std::llround(value)));
    else
      std::snprintf(buf, sizeof buf, kind == "e" ? "%*.*e" : "%*.*f", width,
                    sm[3].length() ? std::stoi(sm[3]) : 6, value);
    out += buf;
  }
  out.append(begin, pattern.cend());
  return out;
}

class ModelCheckpointImpl : public CallbackBase {
public:
  bool chief_only() const override { return true; }
  ModelCheckpointImpl(std::string path, callbacks::ModelCheckpointOptions o)
      : path(std::move(path)), o(std::move(o)),
        max(maximises(this->o.mode, this->o.monitor, "ModelCheckpoint")) {
    if (!this->o.save_weights_only)
      throw InvalidArgumentError(
          "ModelCheckpoint: save_weights_only = false is not supported; "
          "save whole models with saved_model::save");
    best = max ? -std::numeric_limits<double>::infinity()
               : std::numeric_limits<double>::infinity();
  }
  void on_epoch_end(int64_t epoch, const Logs &logs) override {
    if (o.save_best_only) {
      auto it = logs.find(o.monitor);
      if (it == logs.end())
        return;
      bool better = max ? it->second > best : it->second < best;
      if (!better)
        return;
      best = it->second;
    }
    model_->save_weights(formatPath(path, epoch, logs));
  }

private:
  std::string path;
  callbacks::ModelCheckpointOptions o;
  bool max;
  double best;
};

class CSVLoggerImpl : public CallbackBase {
public:
  bool chief_only() const override { return true; }
  CSVLoggerImpl(std::string filename, std::string sep, bool append)
      : filename(std::move(filename)), sep(std::move(sep)), append(append) {}
  void on_train_begin(const Logs &) override {
    bool hadRows = false;
    if (append) {
      std::ifstream in(filename);
      hadRows = in.good() && in.peek() != std::ifstream::traits_type::eof();
    }
    out.open(filename, append ? std::ios::app : std::ios::trunc);
    if (!out)
      throw RuntimeError("CSVLogger: cannot open '" + filename +
                         "' for writing");
    headerWritten = hadRows;
  }
  void on_epoch_end(int64_t epoch, const Logs &logs) override {
    if (!headerWritten) {
      out << "epoch";
      for (auto &[k, v] : logs)
        out << sep << k;
      out << "\n";
      headerWritten = true;
    }
    out << epoch;
    for (auto &[k, v] : logs) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      out << sep << buf;
    }
    out << "\n";
    out.flush();
  }
  void on_train_end(const Logs &) override { out.close(); }

private:
  std::string filename, sep;
  bool append;
  bool headerWritten = false;
  std::ofstream out;
};

class LambdaCallbackImpl : public CallbackBase {
public:
  explicit LambdaCallbackImpl(callbacks::LambdaCallbackOptions o)
      : o(std::move(o)) {}
  void on_train_begin(const Logs &l) override {
    if (o.on_train_begin)
      o.on_train_begin(l);
  }
  void on_train_end(const Logs &l) override {
    if (o.on_train_end)
      o.on_train_end(l);
  }
  void on_epoch_begin(int64_t e, const Logs &l) override {
    if (o.on_epoch_begin)
      o.on_epoch_begin(e, l);
  }
  void on_epoch_end(int64_t e, const Logs &l) override {
    if (o.on_epoch_end)
      o.on_epoch_end(e, l);
  }
  void on_train_batch_begin(int64_t b, const Logs &l) override {
    if (o.on_batch_begin)
      o.on_batch_begin(b, l);
  }
  void on_train_batch_end(int64_t b, const Logs &l) override {
    if (o.on_batch_end)
      o.on_batch_end(b, l);
  }

private:
  callbacks::LambdaCallbackOptions o;
};

} // namespace

namespace callbacks {
Callback ProgbarLogger() { return make_callback<ProgbarLoggerImpl>(); }
Callback EarlyStopping(EarlyStoppingOptions o) {
  return make_callback<EarlyStoppingImpl>(std::move(o));
}
Callback ModelCheckpoint(std::string filepath, ModelCheckpointOptions o) {
  return make_callback<ModelCheckpointImpl>(std::move(filepath), std::move(o));
}
Callback CSVLogger(std::string filename, std::string separator, bool append) {
  return make_callback<CSVLoggerImpl>(std::move(filename), std::move(separator),
                                      append);
}
Callback LambdaCallback(LambdaCallbackOptions o) {
  return make_callback<LambdaCallbackImpl>(std::move(o));
}
} // namespace callbacks

} // namespace tfc::keras
