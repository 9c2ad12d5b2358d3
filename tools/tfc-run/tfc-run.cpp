//===- tfc-run.cpp - Run a function of a tfc module -------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
//   tfc-run FILE.mlir --mode=interpret|jit [--target=cpu|cuda] [--entry=NAME]
//           [--arg=LITERAL]... [--var=LITERAL]...
//
// Runs one function either with the reference interpreter or JIT-compiled,
// prints each result on its own line (`tfc.Tensor(..., shape=..., dtype=...)`)
// and then, for each `!tfc.var` parameter N, `var N: <final value>`. Any
// error is printed on stderr and the exit code is 1.
//
//===----------------------------------------------------------------------===//

#include "NpyReader.h"
#include "TensorLiteral.h"

#include "tfc/Dialect/Tfc/IR/TfcDialect.h"
#include "tfc/Interpreter/Interpreter.h"
#include "tfc/JIT/CompiledModule.h"
#include "tfc/JIT/JIT.h"
#include "tfc/JIT/SourceLimits.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Print.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace cl = llvm::cl;
using namespace tfc;

namespace {

enum class Mode { Interpret, Jit };

/// tfc-run's own options; --help hides the ones libLLVM registers.
cl::OptionCategory toolCategory("tfc-run options");

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<input .mlir file>"),
                               cl::Required, cl::cat(toolCategory));
cl::opt<Mode>
    mode("mode", cl::desc("How to run the function"), cl::init(Mode::Interpret),
         cl::values(clEnumValN(Mode::Interpret, "interpret",
                               "op by op on the runtime kernels (reference)"),
                    clEnumValN(Mode::Jit, "jit", "JIT-compiled through LLVM")),
         cl::cat(toolCategory));
cl::opt<Target> target(
    "target", cl::desc("Where --mode=jit runs the function"),
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
             "when given, --arg fills the tensor parameters only"),
    cl::value_desc("literal"), cl::cat(toolCategory));

std::string typeToString(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

Tensor parseArgument(const std::string &flag, size_t index,
                     const std::string &text) {
  try {
    return run::parseTensorArgument(text);
  } catch (const InvalidArgumentError &e) {
    throw InvalidArgumentError("--" + flag + " #" + std::to_string(index) +
                               ": " + e.what());
  }
}

int runMain() {
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

  std::vector<Tensor> results;
  std::vector<std::pair<unsigned, Tensor>> variables;
  if (mode == Mode::Interpret) {
    interpreter::Interpreter interp(*module);
    interpreter::RunResult run = interp.runWithInitialValues(name, args);
    results = std::move(run.results);
    variables = std::move(run.variables);
  } else {
    // The JIT promotes !tfc.var parameters to values: written variables'
    // final values follow the results, in tfc.written_vars order.
    jit::CompileOptions options;
    options.target = target;
    jit::CompiledModule compiled =
        jit::CompiledModule::from_file(inputPath, options);
    results = compiled.call(name, args);
    const jit::FunctionSignature *sig = compiled.impl()->lookup(name);
    size_t numUser = results.size() - (sig ? sig->writtenVars.size() : 0);
    for (unsigned param : varParams) {
      Tensor final = args[param];
      for (size_t w = 0; sig && w < sig->writtenVars.size(); ++w)
        if (sig->writtenVars[w] == static_cast<int64_t>(param))
          final = results[numUser + w];
      variables.emplace_back(param, final);
    }
    results.resize(numUser);
  }

  // std::cout shares stdout (and its order) with tfc.print's default sink.
  for (const Tensor &t : results)
    std::cout << format_tensor(t) << '\n';
  for (const auto &[index, value] : variables)
    std::cout << "var " << index << ": " << format_tensor(value) << '\n';
  std::cout.flush();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(toolCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "tfc-run: run a function of a tfc module with the interpreter or the "
      "JIT\n\n"
      "Prints each result on its own line (tfc.Tensor(..., shape=..., "
      "dtype=...)),\nthen `var N: <final value>` for each !tfc.var parameter "
      "N. "
      "Errors go to\nstderr and the exit code is 1.\n");
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
