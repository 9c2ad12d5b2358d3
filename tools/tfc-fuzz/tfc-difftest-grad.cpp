//===- tfc-difftest-grad.cpp - Differential testing of gradients ----------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
//   tfc-difftest-grad [--count=N] [--seed=S] [--verbose] [--opt-level=L]
//                     [--no-fuse] [--no-fd] [--min-ops=A] [--max-ops=B]
//                     [--include-known-bugs]
//
// The programs of tfc-difftest (same generator, same seeds), differentiated:
// the gradient of the sum of the float results with respect to each float
// argument, eagerly (GradientTape), compiled (the tape inside tfc::function)
// and by central finite differences in float64, must agree
// (GradientRunner.h). Prints
//   N programs, N agreed, N disagreed, N errors, N skipped (reasons)
//   ...; N with conv ops, N of them agreed; N with pooling ops, N of them
//   agreed
// and exits 1 when any program disagreed or errored. A separate binary from
// tfc-difftest because it runs the public API (libtfc), while tfc-difftest
// links the interpreter statically: one process, one runtime.
//
//===----------------------------------------------------------------------===//

#include "GradientRunner.h"
#include "ProgramGenerator.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <map>
#include <string>
#include <unistd.h>

namespace cl = llvm::cl;
using namespace tfc::fuzz;

namespace {

cl::opt<unsigned> count("count", cl::desc("Programs to run"), cl::init(100));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the first program"),
                       cl::init(1));
cl::opt<bool> verbose("verbose", cl::desc("One line per program"));
cl::opt<unsigned> optLevel("opt-level",
                           cl::desc("LLVM -O level of compiled code"),
                           cl::init(2));
cl::opt<bool> noFuse("no-fuse", cl::desc("Compile without elementwise fusion"));
cl::opt<bool> noFd("no-fd", cl::desc("Skip the finite differences (eager vs "
                                     "compiled only)"));
cl::opt<bool> includeKnownBugs(
    "include-known-bugs",
    cl::desc("Also generate the constructs of the open bugs listed in "
             "docs/testing.md"));
cl::opt<int> minOps("min-ops", cl::desc("Fewest primary ops per program"),
                    cl::init(GeneratorOptions().minOps));
cl::opt<int> maxOps("max-ops", cl::desc("Most primary ops per program"),
                    cl::init(GeneratorOptions().maxOps));

std::string crashBanner;
extern "C" void onCrash(int sig) {
  (void)!write(STDERR_FILENO, crashBanner.data(), crashBanner.size());
  signal(sig, SIG_DFL);
  raise(sig);
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tfc gradient differential tester: eager vs compiled vs finite "
      "differences\n");
  if (minOps < 1 || maxOps < minOps || optLevel > 3) {
    llvm::errs() << "tfc-difftest-grad: need 1 <= --min-ops <= --max-ops and "
                    "--opt-level 0..3\n";
    return 2;
  }
  GeneratorOptions gen;
  gen.minOps = minOps;
  gen.maxOps = maxOps;
  gen.avoidKnownBugs = !includeKnownBugs;
  GradientOptions options;
  options.optLevel = static_cast<int>(optLevel);
  options.fuse = !noFuse;
  options.finiteDifferences = !noFd;
  options.avoidKnownBugs = !includeKnownBugs;
  for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL})
    std::signal(sig, onCrash);

  unsigned agreed = 0, disagreed = 0, errors = 0, skipped = 0, fdSkipped = 0,
           noted = 0;
  std::vector<unsigned> withFamily(countedFamilies().size()),
      familyAgreed(countedFamilies().size());
  long fdChecked = 0, fdNonSmooth = 0;
  std::map<std::string, unsigned> skipReasons;
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < count; ++i) {
    uint64_t s = seed + i;
    crashBanner = "tfc-difftest-grad: crashed on the program of seed " +
                  std::to_string(s) + "\n";
    GeneratedProgram program = generateProgram(s, gen);
    GradResult r = runGradientDifferential(program, options);
    for (size_t f = 0; f < withFamily.size(); ++f) {
      bool in = countedFamilies()[f].in(program.text);
      withFamily[f] += in;
      familyAgreed[f] += in && r.outcome == GradOutcome::Agreed;
    }
    fdChecked += r.fdChecked;
    fdNonSmooth += r.fdNonSmooth;
    fdSkipped += r.fdSkipped;
    noted += !r.notes.empty();
    switch (r.outcome) {
    case GradOutcome::Agreed:
      ++agreed;
      break;
    case GradOutcome::Disagreed:
      ++disagreed;
      break;
    case GradOutcome::Error:
      ++errors;
      break;
    case GradOutcome::Skipped:
      ++skipped;
      ++skipReasons[r.detail.substr(0, r.detail.find(' ', 12))];
      break;
    }
    bool failed =
        r.outcome == GradOutcome::Disagreed || r.outcome == GradOutcome::Error;
    if (verbose || failed) {
      llvm::outs() << "seed " << s << ": " << gradOutcomeName(r.outcome);
      if (!r.detail.empty())
        llvm::outs() << ": " << r.detail;
      llvm::outs() << " (" << r.fdChecked << " elements vs finite differences"
                   << (r.fdSkipped ? ", float64 path differs" : "") << ")\n";
      if (failed && verbose) {
        for (const tfc::Tensor &a : program.args)
          llvm::outs() << "// --arg=" << toTensorLiteral(a) << "\n";
        llvm::outs() << program.text << "\n";
      }
      llvm::outs().flush();
    }
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  llvm::outs() << count << " programs, " << agreed << " agreed, " << disagreed
               << " disagreed, " << errors << " errors, " << skipped
               << " skipped";
  if (!skipReasons.empty()) {
    llvm::outs() << " (";
    bool first = true;
    for (auto &[why, n] : skipReasons) {
      llvm::outs() << (first ? "" : ", ") << why << ": " << n;
      first = false;
    }
    llvm::outs() << ")";
  }
  llvm::outs() << "\n"
               << fdChecked << " gradient elements checked against finite "
               << "differences, " << fdNonSmooth << " left out as non-smooth, "
               << fdSkipped << " programs without finite differences (float64 "
               << "path differs); programs with comparisons left out for "
               << "known gradient bugs: " << noted;
  for (size_t f = 0; f < withFamily.size(); ++f)
    llvm::outs() << "; " << withFamily[f] << " with "
                 << countedFamilies()[f].name << " ops, " << familyAgreed[f]
                 << " of them agreed";
  if (verbose)
    llvm::outs() << " (" << llvm::format("%.1f", seconds) << " s)";
  llvm::outs() << "\n";
  return disagreed || errors ? 1 : 0;
}
