//===- tfc-opt.cpp - The tfc pass driver ------------------------*- C++ -*-===//
#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"
#include "tfc/InitAllDialects.h"
#include "tfc/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tfc::registerAllDialects(registry);
  mlir::tfc::registerAllPasses();
  mlir::tfc::registerTfcAutodiffPasses();
  // --version: LLVM's version, then tfc's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "tfc version " << TFC_VERSION_STRING << "\n";
  });
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tfc optimizer driver\n", registry));
}
