//===- RuntimeSymbols.h - Host functions JIT'd code calls --*- C++ -*-===//
//
// Part of the tfc project.
//
// The host functions compiled code calls by name (tfc_rt_print_*,
// tfc_rt_stack_*) are registered with the JIT's symbol map by the file that
// defines them.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_LIB_JIT_RUNTIMESYMBOLS_H
#define TFC_LIB_JIT_RUNTIMESYMBOLS_H

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::jit::detail {
/// Defined in PrintRuntime.cpp.
void registerPrintSymbols(llvm::orc::SymbolMap &map,
                          llvm::orc::MangleAndInterner &interner);
/// Defined in StackRuntime.cpp (tfc-autodiff's stacks).
void registerStackSymbols(llvm::orc::SymbolMap &map,
                          llvm::orc::MangleAndInterner &interner);
} // namespace tfc::jit::detail
#pragma GCC visibility pop

#endif // TFC_LIB_JIT_RUNTIMESYMBOLS_H
