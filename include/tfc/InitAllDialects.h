//===- InitAllDialects.h - Registration shared by all tfc tools -*- C++ -*-===//
//
// The one registration header: tfc-opt, tfc-run, the JIT and the tests all
// register the same dialects, passes and pipelines through it.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_INITALLDIALECTS_H
#define TFC_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::tfc {
/// The tfc dialect plus every upstream dialect tfc lowers through.
void registerAllDialects(DialectRegistry &registry);
/// Every tfc pass and pipeline (for tfc-opt's command line).
void registerAllPasses();
} // namespace mlir::tfc

#endif // TFC_INITALLDIALECTS_H
