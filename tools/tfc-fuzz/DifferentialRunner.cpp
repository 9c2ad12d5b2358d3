//===- DifferentialRunner.cpp - Interpreter vs JIT on one program ---------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//

#include "DifferentialRunner.h"

#include "tfc/runtime/Error.h"
#include "tfc/runtime/PrintSink.h"

#include <cmath>
#include <exception>
#include <sstream>

using namespace tfc;
using namespace tfc::fuzz;

namespace {

std::string shapeText(const std::vector<int64_t> &shape) {
  return shape_to_string(shape);
}

/// Element `i` of `t` as a double (bools as 0/1).
double element(const Tensor &t, int64_t i) {
  return dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    return static_cast<double>(t.data<T>()[i]);
  });
}

/// Element `i` as text, exact for every dtype.
std::string elementText(const Tensor &t, int64_t i) {
  std::ostringstream os;
  os.precision(17);
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T v = t.data<T>()[i];
    if constexpr (std::is_same_v<T, bool>)
      os << (v ? "true" : "false");
    else
      os << v;
  });
  return os.str();
}

/// Row-major index -> "[i, j, k]".
std::string indexText(const std::vector<int64_t> &shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = flat % shape[d];
    flat /= shape[d];
  }
  std::string s = "[";
  for (size_t d = 0; d < idx.size(); ++d)
    s += (d ? ", " : "") + std::to_string(idx[d]);
  return s + "]";
}

/// Captures every printed line while alive; restores stdout printing after.
class PrintCapture {
public:
  explicit PrintCapture(std::vector<std::string> &lines) {
    set_runtime_print_sink(
        [&lines](std::string_view line) { lines.emplace_back(line); });
  }
  ~PrintCapture() { set_runtime_print_sink(nullptr); }
  PrintCapture(const PrintCapture &) = delete;
  PrintCapture &operator=(const PrintCapture &) = delete;
};

/// Prefixes every line of `text` with `prefix`.
std::string commented(const std::string &text,
                      const std::string &prefix = "// ") {
  std::string out = prefix;
  for (char c : text) {
    out += c;
    if (c == '\n')
      out += prefix;
  }
  return out + "\n";
}

std::string describeResults(const std::vector<Tensor> &results) {
  std::string s;
  for (size_t i = 0; i < results.size(); ++i)
    s += commented("#" + std::to_string(i) + ": " + results[i].str(), "//   ");
  return s.empty() ? "//   (none)\n" : s;
}

} // namespace

const char *tfc::fuzz::outcomeName(Outcome outcome) {
  switch (outcome) {
  case Outcome::Agreed:
    return "agreed";
  case Outcome::Disagreed:
    return "disagreed";
  case Outcome::InterpreterError:
    return "interpreter error";
  case Outcome::JitError:
    return "jit error";
  }
  return "unknown";
}

bool tfc::fuzz::floatsAgree(double a, double b, const ResultCheck &check) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  double diff = std::fabs(a - b);
  return diff <= check.atol + check.rtol * std::max(std::fabs(a), std::fabs(b));
}

std::optional<std::string>
tfc::fuzz::compareResults(const std::vector<Tensor> &interpreted,
                          const std::vector<Tensor> &compiled,
                          const std::vector<ResultCheck> &checks) {
  if (interpreted.size() != compiled.size())
    return "the interpreter returned " + std::to_string(interpreted.size()) +
           " results, the JIT " + std::to_string(compiled.size());
  for (size_t r = 0; r < interpreted.size(); ++r) {
    const Tensor &a = interpreted[r], &b = compiled[r];
    std::string which = "result #" + std::to_string(r);
    if (!a.defined() || !b.defined())
      return which + " is undefined";
    if (a.dtype() != b.dtype())
      return which + ": dtype " + std::string(to_string(a.dtype())) +
             " (interpreter) vs " + std::string(to_string(b.dtype())) +
             " (JIT)";
    if (a.shape() != b.shape())
      return which + ": shape " + shapeText(a.shape()) + " (interpreter) vs " +
             shapeText(b.shape()) + " (JIT)";
    ResultCheck check = r < checks.size() ? checks[r] : ResultCheck{};
    bool floating = is_floating(a.dtype());
    for (int64_t i = 0, n = a.numel(); i < n; ++i) {
      double x = element(a, i), y = element(b, i);
      bool ok = floating ? floatsAgree(x, y, check) : x == y;
      if (ok)
        continue;
      std::string s = which + " (" + std::string(to_string(a.dtype())) + " " +
                      shapeText(a.shape()) + ") differs at " +
                      indexText(a.shape(), i) + ": interpreter " +
                      elementText(a, i) + ", JIT " + elementText(b, i);
      if (floating) {
        std::ostringstream os;
        os.precision(3);
        os << " (|diff| " << std::fabs(x - y) << ", tolerance atol "
           << check.atol << " + rtol " << check.rtol << ")";
        s += os.str();
      }
      return s;
    }
  }
  return std::nullopt;
}

DiffResult tfc::fuzz::runDifferential(const GeneratedProgram &program,
                                      const jit::CompileOptions &options) {
  DiffResult result;
  bool interpreterOk = true, jitOk = true;
  std::string interpreterError, jitError;
  try {
    PrintCapture capture(result.interpretedPrints);
    result.interpreted = jit::interpret(program.text, "main", program.args);
  } catch (const std::exception &e) {
    interpreterOk = false;
    interpreterError = e.what();
  }
  try {
    PrintCapture capture(result.compiledPrints);
    auto module = jit::CompiledModule::from_source(program.text, options);
    result.compiled = module.call("main", program.args);
  } catch (const std::exception &e) {
    jitOk = false;
    jitError = e.what();
  }
  if (!interpreterOk) {
    result.outcome = Outcome::InterpreterError;
    result.detail = "interpreter: " + interpreterError;
    if (!jitOk)
      result.detail += "\njit: " + jitError;
    return result;
  }
  if (!jitOk) {
    result.outcome = Outcome::JitError;
    result.detail = "jit: " + jitError;
    return result;
  }
  if (auto diff =
          compareResults(result.interpreted, result.compiled, program.checks)) {
    result.outcome = Outcome::Disagreed;
    result.detail = *diff;
    return result;
  }
  if (result.interpretedPrints != result.compiledPrints) {
    result.outcome = Outcome::Disagreed;
    size_t n =
        std::min(result.interpretedPrints.size(), result.compiledPrints.size());
    size_t i = 0;
    while (i < n && result.interpretedPrints[i] == result.compiledPrints[i])
      ++i;
    result.detail = "printed line " + std::to_string(i) + " differs: " +
                    (i < result.interpretedPrints.size()
                         ? "interpreter '" + result.interpretedPrints[i] + "'"
                         : std::string("interpreter printed nothing")) +
                    ", " +
                    (i < result.compiledPrints.size()
                         ? "JIT '" + result.compiledPrints[i] + "'"
                         : std::string("JIT printed nothing"));
    return result;
  }
  result.outcome = Outcome::Agreed;
  return result;
}

std::string tfc::fuzz::formatReport(const GeneratedProgram &program,
                                    const DiffResult &result) {
  std::string args;
  for (const Tensor &t : program.args)
    args += " '--arg=" + toTensorLiteral(t) + "'";
  std::string tolerances;
  for (size_t i = 0; i < program.checks.size(); ++i) {
    std::ostringstream os;
    os.precision(3);
    os << "//   #" << i << ": atol " << program.checks[i].atol << ", rtol "
       << program.checks[i].rtol << "\n";
    tolerances += os.str();
  }
  std::string report;
  report += "// seed " + std::to_string(program.seed) + ": " +
            outcomeName(result.outcome) + "\n";
  report += commented(result.detail);
  report += "// Reproduce:\n";
  report += "//   tfc-difftest --seed=" + std::to_string(program.seed) +
            " --count=1 --verbose\n";
  report += "//   tfc-run THIS_FILE --mode=interpret" + args + "\n";
  report += "//   tfc-run THIS_FILE --mode=jit" + args + "\n";
  report += "// Tolerances:\n" + tolerances;
  report += "// Interpreter results:\n" + describeResults(result.interpreted);
  report += "// JIT results:\n" + describeResults(result.compiled);
  if (!result.interpretedPrints.empty() || !result.compiledPrints.empty()) {
    report += "// Interpreter prints:\n";
    for (const std::string &l : result.interpretedPrints)
      report += commented(l, "//   ");
    report += "// JIT prints:\n";
    for (const std::string &l : result.compiledPrints)
      report += commented(l, "//   ");
  }
  return report + program.text;
}
