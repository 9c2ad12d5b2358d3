//===- SourceLimits.h - Guards around parsing MLIR text ---------*- C++ -*-===//
//
// MLIR's parser (and tfc's own parsers) recurse once per nesting level of
// brackets and regions, so a deeply nested input would overflow the stack
// and crash the process. Every entry point tfc owns that parses MLIR text
// (tfc-opt, tfc-run, CompiledModule::from_source/from_file, jit::interpret,
// gpu::compile_to_ptx) first checks the nesting with checkSourceNesting and
// then parses on a thread with a large stack (parseSourceGuarded).
//
//===----------------------------------------------------------------------===//
#ifndef TFC_SOURCELIMITS_H
#define TFC_SOURCELIMITS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <string_view>

namespace llvm {
class SourceMgr;
}

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::jit {

/// The deepest nesting of ( [ { < brackets (regions included) accepted in
/// MLIR source text. A function's body is at depth 3 (module, func, body);
/// each nested tfc.if / tfc.while adds one and the types inside an op add a
/// few more, so real programs stay far below it; the parser and the passes
/// after it need well under 8 MiB of stack at this depth.
inline constexpr unsigned kMaxSourceNesting = 512;

/// Scans `text` (skipping comments and string literals) for bracket nesting
/// deeper than `limit`. Returns "" when within it, else the diagnostic
/// "BUFFER:LINE:COL: error: nesting deeper than LIMIT ..." located at the
/// bracket that exceeds it.
std::string checkSourceNesting(std::string_view text,
                               std::string_view bufferName,
                               unsigned limit = kMaxSourceNesting);

/// parseSourceFile<ModuleOp> of `sm`'s main buffer, run on a thread with a
/// 64 MiB stack so that nesting under the limit parses even when the caller
/// runs on a small stack. The caller holds the context lock.
mlir::OwningOpRef<mlir::ModuleOp> parseSourceGuarded(llvm::SourceMgr &sm,
                                                     mlir::MLIRContext *ctx);

/// Reads a whole file for a parser. Throws InvalidArgumentError
/// "WHAT: cannot open 'PATH': REASON" (no "WHAT: " when `what` is empty;
/// REASON: missing, a directory, unreadable), never std::ios_base::failure.
std::string readSourceFile(const std::string &path, std::string_view what);

} // namespace tfc::jit
#pragma GCC visibility pop

#endif // TFC_SOURCELIMITS_H
