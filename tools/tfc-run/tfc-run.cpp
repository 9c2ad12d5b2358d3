//===- tfc-run.cpp - Run a function of a tfc module -------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
//   tfc-run DIR [--arg=LITERAL] [--output=PATH]   (a saved model)
//   tfc-run FILE.mlir [--mode=interpret|jit] [--target=cpu|cuda]
//           [--entry=NAME] [--arg=LITERAL]... [--var=LITERAL]...
//           [--output=PATH] [--print-full] [--repeat=N]
//
// Runs one function either with the reference interpreter or JIT-compiled,
// prints each result on its own line (`tfc.Tensor(..., shape=..., dtype=...)`)
// and then, for each `!tfc.var` parameter N, `var N: <final value>`;
// --output also writes them as .npy files, --repeat times further calls on
// stderr. Any error is printed on stderr and the exit code is 1.
//
//===----------------------------------------------------------------------===//

#include "TensorLiteral.h"

#include "tfc/Dialect/Tfc/IR/TfcDialect.h"
#include "tfc/Interpreter/Interpreter.h"
#include "tfc/JIT/CompiledModule.h"
#include "tfc/JIT/JIT.h"
#include "tfc/SourceLimits.h"
#include "tfc/Version.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Npy.h"
#include "tfc/runtime/Print.h"
#include "tfc/runtime/PrintSink.h"
#include "tfc/saved_model/SavedModel.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <iterator>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace cl = llvm::cl;
using namespace tfc;

namespace {

enum class Mode { Interpret, Jit };

/// tfc-run's own options; --help hides the ones libLLVM registers.
cl::OptionCategory toolCategory("tfc-run options");

cl::opt<std::string>
    inputPath(cl::Positional,
              cl::desc("<input .mlir file or saved model directory>"),
              cl::Required, cl::cat(toolCategory));
cl::opt<Mode>
    mode("mode", cl::desc("How to run the function (default: interpret)"),
         cl::init(Mode::Interpret),
         cl::values(clEnumValN(Mode::Interpret, "interpret",
                               "op by op on the runtime kernels (reference)"),
                    clEnumValN(Mode::Jit, "jit", "JIT-compiled through LLVM")),
         cl::cat(toolCategory));
cl::opt<Target>
    target("target",
           cl::desc("Where --mode=jit runs the function (default: cpu)"),
           cl::init(Target::CPU),
           cl::values(clEnumValN(Target::CPU, "cpu", "the host CPU"),
                      clEnumValN(Target::CUDA, "cuda",
                                 "an NVIDIA GPU through the CUDA driver "
                                 "(docs/gpu.md)")),
           cl::cat(toolCategory));
cl::opt<std::string>
    entryName("entry",
              cl::desc("The function to run (default: the first public one)"),
              cl::value_desc("name"), cl::cat(toolCategory));
cl::list<std::string> argValues(
    "arg",
    cl::desc("An argument, in parameter order: VALUE:DTYPE such as "
             "[[1,2],[3,4]]:f32, 3:i32, [true,false]:i1, []:f32, or a .npy "
             "file. Without --var, !tfc.var parameters take their initial "
             "values from --arg too"),
    cl::value_desc("literal"), cl::cat(toolCategory));
cl::list<std::string> varValues(
    "var",
    cl::desc("Initial value of a !tfc.var parameter, in parameter order; "
             "when given, --arg fills the tensor parameters only (default: "
             "none, the variables come from --arg)"),
    cl::value_desc("literal"), cl::cat(toolCategory));
cl::opt<std::string> outputPath(
    "output",
    cl::desc("Also write the results and variables as .npy files: PATH "
             "itself when the function has one result and no !tfc.var "
             "parameter, else result I to STEM.I.npy and the final value of "
             "!tfc.var parameter N to STEM.varN.npy, STEM being PATH less a "
             "trailing .npy (default: none; -o PATH for short)"),
    cl::value_desc("path"), cl::cat(toolCategory));
cl::alias outputShort("o", cl::desc("Alias for --output"),
                      cl::aliasopt(outputPath), cl::cat(toolCategory));
cl::opt<bool> kernelCalls(
    "kernel-calls",
    cl::desc("--mode=jit on the CPU: call the runtime's kernels for the ops "
             "that have one (gather, segment sums, scans, pooling, random "
             "draws); =false runs the loops they lower to, what the GPU "
             "pipeline runs (default: true)"),
    cl::init(true), cl::cat(toolCategory));
cl::opt<bool> printFull(
    "print-full",
    cl::desc("Print every element (default: off, tensors of more than 1000 "
             "elements are summarised with ..., as NumPy does)"),
    cl::init(false), cl::cat(toolCategory));
cl::opt<unsigned> repeatCount(
    "repeat",
    cl::desc("After the first (warm-up) call, time N more calls and print "
             "min/median/mean per call on stderr; the printed results are "
             "the first call's (default: 0, no timing)"),
    cl::value_desc("N"), cl::init(0), cl::cat(toolCategory));

Tensor parseArgument(const std::string &flag, size_t index,
                     const std::string &text) {
  try {
    return run::parseTensorArgument(text);
  } catch (const InvalidArgumentError &e) {
    throw InvalidArgumentError("--" + flag + " #" + std::to_string(index) +
                               ": " + e.what());
  }
}

/// tfc-run DIR: runs a saved model (saved_model::save) with no model code.
int runSavedModel() {
  if (mode.getNumOccurrences() && mode != Mode::Jit)
    throw InvalidArgumentError("'" + inputPath +
                               "' is a saved model directory: saved models "
                               "run JIT-compiled (--mode=jit)");
  if (!varValues.empty())
    throw InvalidArgumentError("a saved model keeps its own weights: no "
                               "--var values");
  std::vector<Tensor> args;
  for (size_t i = 0; i < argValues.size(); ++i)
    args.push_back(parseArgument("arg", i, argValues[i]));
  saved_model::Loaded loaded = saved_model::load(inputPath);
  std::vector<Tensor> results = loaded.call(
      entryName.empty() ? std::string("serving_default") : entryName, args);
  PrintOptions printOptions;
  if (printFull)
    printOptions.threshold = std::numeric_limits<int64_t>::max();
  for (const Tensor &t : results)
    std::cout << format_tensor(t, printOptions) << '\n';
  std::cout.flush();
  if (!outputPath.empty()) // one result: the serving signature's
    save_npy(outputPath, results[0]);
  return 0;
}

int runMain() {
  if (std::filesystem::is_directory(std::string(inputPath)))
    return runSavedModel();
  std::string text = jit::readSourceFile(inputPath, "");
  mlir::OwningOpRef<mlir::ModuleOp> module =
      interpreter::parseModule(text, inputPath);

  // The entry function: named, or the first public one with a body.
  mlir::func::FuncOp entry;
  if (!entryName.empty()) {
    entry = module->lookupSymbol<mlir::func::FuncOp>(entryName);
    if (!entry || entry.isDeclaration())
      throw InvalidArgumentError("no function @" + entryName +
                                 " with a body in '" + inputPath + "'");
  } else {
    for (auto fn : module->getOps<mlir::func::FuncOp>())
      if (fn.isPublic() && !fn.isDeclaration()) {
        entry = fn;
        break;
      }
    if (!entry)
      throw InvalidArgumentError("'" + inputPath +
                                 "' has no public function to run");
  }
  std::string name = entry.getName().str();

  // Positional arguments; !tfc.var parameters from --var when it is given.
  auto paramTypes = entry.getArgumentTypes();
  std::vector<unsigned> varParams;
  for (unsigned i = 0; i < paramTypes.size(); ++i)
    if (llvm::isa<mlir::tfc::VarType>(paramTypes[i]))
      varParams.push_back(i);
  // Literal errors come first: they are about the command line itself.
  std::vector<Tensor> argTensors, varTensors;
  for (size_t i = 0; i < argValues.size(); ++i)
    argTensors.push_back(parseArgument("arg", i, argValues[i]));
  for (size_t i = 0; i < varValues.size(); ++i)
    varTensors.push_back(parseArgument("var", i, varValues[i]));

  std::vector<Tensor> args;
  if (varValues.empty()) {
    if (argTensors.size() != paramTypes.size())
      throw InvalidArgumentError(
          "@" + name + " takes " + std::to_string(paramTypes.size()) +
          " arguments, but " + std::to_string(argTensors.size()) +
          " --arg values were given");
    args = std::move(argTensors);
  } else {
    size_t tensorParams = paramTypes.size() - varParams.size();
    if (varTensors.size() != varParams.size() ||
        argTensors.size() != tensorParams)
      throw InvalidArgumentError(
          "@" + name + " takes " + std::to_string(tensorParams) +
          " tensor and " + std::to_string(varParams.size()) +
          " !tfc.var arguments, but " + std::to_string(argTensors.size()) +
          " --arg and " + std::to_string(varTensors.size()) +
          " --var values were given");
    size_t nextArg = 0, nextVar = 0;
    for (mlir::Type type : paramTypes)
      args.push_back(llvm::isa<mlir::tfc::VarType>(type)
                         ? varTensors[nextVar++]
                         : argTensors[nextArg++]);
  }

  // One call: the results, then each !tfc.var parameter's final value.
  using Outcome =
      std::pair<std::vector<Tensor>, std::vector<std::pair<unsigned, Tensor>>>;
  std::function<Outcome()> callOnce;
  std::unique_ptr<interpreter::Interpreter> interp;
  std::unique_ptr<jit::CompiledModule> compiled;
  auto compileStart = std::chrono::steady_clock::now();
  if (mode == Mode::Interpret) {
    interp = std::make_unique<interpreter::Interpreter>(*module);
    callOnce = [&] {
      interpreter::RunResult run = interp->runWithInitialValues(name, args);
      return Outcome(std::move(run.results), std::move(run.variables));
    };
  } else {
    // The JIT promotes !tfc.var parameters to values: written variables'
    // final values follow the results, in tfc.written_vars order.
    jit::CompileOptions options;
    options.target = target;
    options.kernel_calls = kernelCalls;
    compiled = std::make_unique<jit::CompiledModule>(
        jit::CompiledModule::from_file(inputPath, options));
    callOnce = [&] {
      std::vector<Tensor> results = compiled->call(name, args);
      const jit::FunctionSignature *sig = compiled->impl()->lookup(name);
      size_t numUser = results.size() - (sig ? sig->writtenVars.size() : 0);
      std::vector<std::pair<unsigned, Tensor>> variables;
      for (unsigned param : varParams) {
        Tensor final = args[param];
        for (size_t w = 0; sig && w < sig->writtenVars.size(); ++w)
          if (sig->writtenVars[w] == static_cast<int64_t>(param))
            final = results[numUser + w];
        variables.emplace_back(param, final);
      }
      results.resize(numUser);
      return Outcome(std::move(results), std::move(variables));
    };
  }
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  auto [results, variables] = callOnce();

  // std::cout shares stdout (and its order) with tfc.print's default sink.
  PrintOptions printOptions;
  if (printFull)
    printOptions.threshold = std::numeric_limits<int64_t>::max();
  for (const Tensor &t : results)
    std::cout << format_tensor(t, printOptions) << '\n';
  for (const auto &[index, value] : variables)
    std::cout << "var " << index << ": " << format_tensor(value, printOptions)
              << '\n';
  std::cout.flush();

  if (!outputPath.empty()) {
    // Named from the signature, not from what one call returned, so a
    // script sees the same files for every call of a function.
    size_t numResults = entry.getFunctionType().getNumResults();
    std::string stem = outputPath;
    if (stem.size() > 4 && stem.ends_with(".npy"))
      stem.resize(stem.size() - 4);
    if (numResults == 1 && varParams.empty()) {
      save_npy(outputPath, results[0]);
    } else {
      for (size_t i = 0; i < results.size(); ++i)
        save_npy(stem + "." + std::to_string(i) + ".npy", results[i]);
      for (const auto &[index, value] : variables)
        save_npy(stem + ".var" + std::to_string(index) + ".npy", value);
    }
  }

  if (repeatCount > 0) {
    // The first call above was the warm-up; tfc.print output of the timed
    // calls is dropped so stdout holds one run's output only.
    struct DropPrints {
      DropPrints() {
        set_runtime_print_sink([](std::string_view) {});
      }
      ~DropPrints() { set_runtime_print_sink(nullptr); }
    };
    std::vector<double> sorted;
    sorted.reserve(repeatCount);
    {
      DropPrints drop;
      for (unsigned i = 0; i < repeatCount; ++i) {
        auto start = std::chrono::steady_clock::now();
        Outcome outcome = callOnce();
        sorted.push_back(std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count());
      }
    }
    std::sort(sorted.begin(), sorted.end());
    size_t n = sorted.size();
    double median =
        n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    double mean = std::accumulate(sorted.begin(), sorted.end(), 0.0) / n;
    std::string how =
        mode == Mode::Interpret
            ? std::string("interpret")
            : std::string("jit, ") + (target == Target::CUDA ? "cuda" : "cpu");
    llvm::errs() << "tfc-run: @" << name << " (" << how
                 << "): " << (mode == Mode::Interpret ? "setup " : "compile ")
                 << llvm::format("%.3f", compileSeconds * 1e3) << " ms; "
                 << static_cast<unsigned>(repeatCount)
                 << " timed calls after 1 warm-up: min "
                 << llvm::format("%.3f", sorted.front() * 1e6) << " us, median "
                 << llvm::format("%.3f", median * 1e6) << " us, mean "
                 << llvm::format("%.3f", mean * 1e6) << " us per call\n";
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tfc version " << TFC_VERSION_STRING << "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tfc-run: run a function of a tfc module with the interpreter or the "
      "JIT\n\n"
      "Prints each result on its own line (tfc.Tensor(..., shape=..., "
      "dtype=...)),\nthen `var N: <final value>` for each !tfc.var parameter "
      "N. Timings (--repeat)\nand errors go to stderr; on an error the exit "
      "code is 1.\n");
  try {
    return runMain();
  } catch (const Error &e) {
    std::cout.flush();
    llvm::errs() << "tfc-run: error: " << e.what() << "\n";
  } catch (const std::exception &e) {
    std::cout.flush();
    llvm::errs() << "tfc-run: internal error: " << e.what() << "\n";
  }
  return 1;
}
