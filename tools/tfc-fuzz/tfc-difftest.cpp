//===- tfc-difftest.cpp - Differential testing: interpreter vs JIT --------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
//   tfc-difftest [--count=N] [--seed=S] [--verbose] [--dump-failures=DIR]
//                [--opt-level=L] [--no-fuse] [--special-rate=P]
//                [--min-ops=A] [--max-ops=B] [--include-known-bugs]
//
// Generates N random well-typed tfc programs (seeds S, S+1, ...), runs each
// with the reference interpreter and JIT-compiled, and compares. Prints
//   N programs, N agreed, N disagreed, N errors; N with conv ops, N with
//   pooling ops
// (the programs holding tfc.conv2d or one of its gradient ops, and those
// holding a pooling op or its gradient) and exits 1 when any program
// disagreed or made either executor fail (a well-typed
// program must run on both). With --dump-failures each failing program is
// written to DIR/seed-<S>.mlir with its arguments, both results and the
// tfc-run command lines that reproduce it.
//
// A crash inside an executor cannot be caught; a signal handler then names
// the seed (and writes the program to DIR/crash-seed-<S>.mlir) before dying.
//
//===----------------------------------------------------------------------===//

#include "DifferentialRunner.h"
#include "ProgramGenerator.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace cl = llvm::cl;
using namespace tfc;
using namespace tfc::fuzz;

namespace {

cl::opt<unsigned> count("count", cl::desc("Programs to run"), cl::init(100));
cl::opt<uint64_t> seed("seed", cl::desc("Seed of the first program"),
                       cl::init(1));
cl::opt<bool> verbose("verbose",
                      cl::desc("Print one line per program, and the report "
                               "of each failure"));
cl::opt<std::string>
    dumpDir("dump-failures",
            cl::desc("Write each failing program (with its arguments) here"),
            cl::value_desc("dir"));
cl::opt<unsigned> optLevel("opt-level", cl::desc("LLVM -O level of the JIT"),
                           cl::init(2));
cl::opt<bool> noFuse("no-fuse", cl::desc("Compile without elementwise fusion"));
cl::opt<double> specialRate(
    "special-rate",
    cl::desc("Fraction of special-value programs (NaN, inf, -0 arguments)"),
    cl::init(GeneratorOptions().specialValueRate));
cl::opt<bool> includeKnownBugs(
    "include-known-bugs",
    cl::desc("Also generate the constructs of the open bugs listed in "
             "docs/testing.md (left out by default)"));
cl::opt<int> minOps("min-ops", cl::desc("Fewest primary ops per program"),
                    cl::init(GeneratorOptions().minOps));
cl::opt<int> maxOps("max-ops", cl::desc("Most primary ops per program"),
                    cl::init(GeneratorOptions().maxOps));

// What the crash handler needs, prepared before each program runs (the
// handler may only call async-signal-safe functions).
std::string crashProgram, crashPath, crashBanner;

extern "C" void onCrash(int sig) {
  (void)!write(STDERR_FILENO, crashBanner.data(), crashBanner.size());
  if (!crashPath.empty()) {
    int fd = open(crashPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      (void)!write(fd, crashProgram.data(), crashProgram.size());
      close(fd);
    }
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

bool writeFile(const std::string &path, const std::string &text) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return false;
  os << text;
  return !os.has_error();
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tfc differential tester: random tfc programs, interpreter vs JIT\n");

  if (minOps < 1 || maxOps < minOps) {
    llvm::errs() << "tfc-difftest: need 1 <= --min-ops <= --max-ops\n";
    return 2;
  }
  if (specialRate < 0 || specialRate > 1) {
    llvm::errs() << "tfc-difftest: --special-rate must be in [0, 1]\n";
    return 2;
  }
  if (optLevel > 3) {
    llvm::errs() << "tfc-difftest: --opt-level must be 0..3\n";
    return 2;
  }
  if (!dumpDir.empty()) {
    if (std::error_code ec = llvm::sys::fs::create_directories(dumpDir)) {
      llvm::errs() << "tfc-difftest: cannot create '" << dumpDir
                   << "': " << ec.message() << "\n";
      return 2;
    }
  }

  GeneratorOptions gen;
  gen.specialValueRate = specialRate;
  gen.minOps = minOps;
  gen.maxOps = maxOps;
  gen.avoidKnownBugs = !includeKnownBugs;
  jit::CompileOptions compile;
  compile.opt_level = static_cast<int>(optLevel);
  compile.fuse = !noFuse;

  std::signal(SIGSEGV, onCrash);
  std::signal(SIGABRT, onCrash);
  std::signal(SIGFPE, onCrash);
  std::signal(SIGBUS, onCrash);
  std::signal(SIGILL, onCrash);

  unsigned agreed = 0, disagreed = 0, errors = 0;
  std::vector<unsigned> withFamily(countedFamilies().size());
  auto start = std::chrono::steady_clock::now();
  for (unsigned i = 0; i < count; ++i) {
    uint64_t s = seed + i;
    crashBanner = "tfc-difftest: crashed generating the program of seed " +
                  std::to_string(s) + "\n";
    crashProgram.clear();
    crashPath.clear();
    GeneratedProgram program = generateProgram(s, gen);

    crashBanner = "tfc-difftest: crashed on the program of seed " +
                  std::to_string(s) + "\n";
    crashProgram = program.text;
    if (!dumpDir.empty()) {
      llvm::SmallString<256> path(dumpDir.getValue());
      llvm::sys::path::append(path,
                              "crash-seed-" + std::to_string(s) + ".mlir");
      crashPath = std::string(path);
    }

    for (size_t f = 0; f < withFamily.size(); ++f)
      withFamily[f] += countedFamilies()[f].in(program.text);
    DiffResult result = runDifferential(program, compile);
    switch (result.outcome) {
    case Outcome::Agreed:
      ++agreed;
      break;
    case Outcome::Disagreed:
      ++disagreed;
      break;
    default:
      ++errors;
      break;
    }
    if (verbose)
      llvm::outs() << "seed " << s << ": " << outcomeName(result.outcome)
                   << " (" << program.primaryOps << " ops"
                   << (program.special ? ", special values" : "") << ")\n";
    if (result.outcome == Outcome::Agreed)
      continue;
    std::string report = formatReport(program, result);
    if (verbose)
      llvm::outs() << report << "\n";
    else
      llvm::outs() << "seed " << s << ": " << outcomeName(result.outcome)
                   << ": " << result.detail.substr(0, result.detail.find('\n'))
                   << "\n";
    if (!dumpDir.empty()) {
      llvm::SmallString<256> path(dumpDir.getValue());
      llvm::sys::path::append(path, "seed-" + std::to_string(s) + ".mlir");
      if (!writeFile(std::string(path), report))
        llvm::errs() << "tfc-difftest: cannot write '" << path << "'\n";
    }
    llvm::outs().flush();
  }
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  llvm::outs() << count << " programs, " << agreed << " agreed, " << disagreed
               << " disagreed, " << errors << " errors";
  for (size_t f = 0; f < withFamily.size(); ++f)
    llvm::outs() << (f ? ", " : "; ") << withFamily[f] << " with "
                 << countedFamilies()[f].name << " ops";
  if (verbose)
    llvm::outs() << " (" << llvm::format("%.1f", seconds) << " s)";
  llvm::outs() << "\n";
  return disagreed || errors ? 1 : 0;
}
