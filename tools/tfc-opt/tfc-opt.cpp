//===- tfc-opt.cpp - The tfc pass driver ------------------------*- C++ -*-===//
#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"
#include "tfc/InitAllDialects.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::tfc::registerAllDialects(registry);
  mlir::tfc::registerAllPasses();
  mlir::tfc::registerTfcAutodiffPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tfc optimizer driver\n", registry));
}
