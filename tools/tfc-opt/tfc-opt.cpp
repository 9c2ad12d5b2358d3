//===- tfc-opt.cpp - The tfc pass driver ------------------------*- C++ -*-===//
//
// MlirOptMain, with the input checked first: nesting deeper than
// tfc::jit::kMaxSourceNesting is rejected with a located error (exit 1)
// instead of overflowing the parser's stack.
//
//===----------------------------------------------------------------------===//
#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"
#include "tfc/InitAllDialects.h"
#include "tfc/SourceLimits.h"
#include "tfc/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tfc::registerAllDialects(registry);
  mlir::tfc::registerAllPasses();
  // --version: LLVM's version, then tfc's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tfc version " << TFC_VERSION_STRING << "\n";
  });
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tfc optimizer driver\n", registry);
  // --show-dialects, --list-passes and the like read no input.
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  bool readsInput = !config.shouldShowDialects() && !config.shouldListPasses();

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file;
  if (readsInput) {
    file = mlir::openInputFile(inputFilename, &error);
    if (!file) {
      llvm::errs() << error << "\n";
      return 1;
    }
    std::string deep = tfc::jit::checkSourceNesting(
        file->getBuffer(), file->getBufferIdentifier());
    if (!deep.empty()) {
      llvm::errs() << deep << "\n";
      return 1;
    }
  }
  // A file is read again by MlirOptMain, which does everything mlir-opt does.
  if (!readsInput || inputFilename != "-")
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // stdin can be read only once: run on the buffer.
  llvm::InitLLVM init(argc, argv);
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
