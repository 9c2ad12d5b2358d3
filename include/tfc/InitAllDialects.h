//===- InitAllDialects.h - Registration shared by all tfc tools -*- C++ -*-===//
//
// The one registration header: tfc-opt, tfc-run, the JIT and the tests all
// register the same dialects, passes and pipelines through it.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_INITALLDIALECTS_H
#define TFC_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"

#include <mutex>

namespace mlir {
class MLIRContext;
}

namespace tfc {
/// The MLIRContext shared by the tracer, the interpreter and the JIT: every
/// dialect, extension and LLVM translation registered, multithreading off
/// (compiles are small).
mlir::MLIRContext &sharedContext();
/// Held (recursively) by everything that builds or parses IR in the shared
/// context: it is created with threading off, so uniquing is unlocked.
std::recursive_mutex &contextMutex();
} // namespace tfc

namespace mlir::tfc {
/// The tfc dialect plus every upstream dialect tfc lowers through.
void registerAllDialects(DialectRegistry &registry);
/// Every tfc pass and pipeline (for tfc-opt's command line).
void registerAllPasses();
} // namespace mlir::tfc

#endif // TFC_INITALLDIALECTS_H
