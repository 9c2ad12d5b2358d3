//===- TfcStackToRuntime.h - tfc-autodiff ops for the JIT -------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_CONVERSION_TFCSTACKTORUNTIME_H
#define TFC_CONVERSION_TFCSTACKTORUNTIME_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tfc {
/// Lowers the stack ops to calls of the runtime's tfc_rt_stack_* functions
/// (lib/JIT/StackRuntime.cpp) and `tfc.custom_gradient` to its forward
/// region. Part of convert-tfc-to-linalg.
void populateTfcStackToRuntimePatterns(RewritePatternSet &patterns);
} // namespace mlir::tfc

#endif // TFC_CONVERSION_TFCSTACKTORUNTIME_H
