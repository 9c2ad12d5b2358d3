//===- SharedContext.h - The one MLIRContext of a process -------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Defined in the registration library (lib/InitAllDialects.cpp), below the
// tracer, the interpreter and the JIT, which all build, parse and compile in
// this context.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_SHAREDCONTEXT_H
#define TFC_SHAREDCONTEXT_H

#include <mutex>

namespace mlir {
class MLIRContext;
}

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc {
/// The MLIRContext shared by the tracer, the interpreter and the JIT: every
/// dialect, extension and LLVM translation registered, multithreading off
/// (compiles are small).
mlir::MLIRContext &sharedContext();
/// Held (recursively) by everything that builds or parses IR in the shared
/// context: it is created with threading off, so uniquing is unlocked.
std::recursive_mutex &contextMutex();
} // namespace tfc
#pragma GCC visibility pop

#endif // TFC_SHAREDCONTEXT_H
