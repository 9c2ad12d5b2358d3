//===- Compile.cpp - Compile a tfc module for its target ------------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The one place that picks a target: the JIT core with its CPU target
// (JIT.cpp) and the CUDA target (lib/GPU/CudaJIT.cpp) sit side by side
// below this file, so neither calls the other.
//
//===----------------------------------------------------------------------===//

#include "tfc/GPU/CudaJIT.h"
#include "tfc/JIT/JIT.h"
#include "tfc/SharedContext.h"
#include "tfc/SourceLimits.h"
#include "tfc/runtime/Error.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace tfc::jit {

using mlir::MLIRContext;
using mlir::ModuleOp;
using mlir::OwningOpRef;

std::shared_ptr<CompiledModule::Impl>
CompiledModule::Impl::compile(ModuleOp module, const CompileOptions &options,
                              const TraceInfo &trace) {
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  detail::StageTimer timer(module, trace);
  if (options.target == Target::CUDA) { // docs/gpu.md
    auto impl = ::tfc::gpu::compileCuda(module, options);
    timer.mark("cuda-compile");
    return impl;
  }
  return compileCpu(module, options, timer);
}

namespace {
/// MLIR bytecode starts with the magic "ML\xefR".
bool isBytecode(std::string_view text) {
  return text.size() >= 4 &&
         text.substr(0, 4) == std::string_view("ML\xefR", 4);
}

/// Parses a module (text or bytecode) in the shared context; the caller
/// holds the context's lock. `name` is the source buffer's name: locations
/// in diagnostics and in TFC_DUMP_DIR dumps say it. `what` starts the
/// CompileError's message.
OwningOpRef<ModuleOp> parseText(std::string_view text, llvm::StringRef name,
                                const std::string &what) {
  // Bytecode has no brackets to count; its reader bounds its own nesting.
  if (!isBytecode(text))
    if (std::string deep = checkSourceNesting(text, name.str()); !deep.empty())
      throw CompileError(what + ":\n" + deep);
  MLIRContext &ctx = ::tfc::sharedContext();
  OwningOpRef<ModuleOp> module;
  std::string diagnostics;
  {
    detail::DiagnosticCollector diags(ctx);
    llvm::SourceMgr sm;
    sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                              llvm::StringRef(text.data(), text.size()), name),
                          llvm::SMLoc());
    module = parseSourceGuarded(sm, &ctx);
    diagnostics = diags.text;
  }
  if (!module)
    throw CompileError(what + ":\n" + diagnostics);
  return module;
}

std::shared_ptr<CompiledModule::Impl> compileText(std::string_view text,
                                                  const CompileOptions &options,
                                                  llvm::StringRef name) {
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  OwningOpRef<ModuleOp> module =
      parseText(text, name, "failed to parse the tfc module");
  return CompiledModule::Impl::compile(*module, options);
}
} // namespace

CompiledModule CompiledModule::from_source(std::string_view text,
                                           CompileOptions options) {
  return CompiledModule(compileText(text, options, "<source>"));
}

std::string to_bytecode(std::string_view mlir_text) {
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  OwningOpRef<ModuleOp> module = parseText(
      mlir_text, "<source>", "to_bytecode: failed to parse the tfc module");
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (mlir::failed(mlir::writeBytecodeToFile(*module, os)))
    throw CompileError("to_bytecode: MLIR could not write the module");
  os.flush();
  return bytes;
}

CompiledModule CompiledModule::from_file(const std::string &path,
                                         CompileOptions options) {
  return CompiledModule(compileText(
      readSourceFile(path, "CompiledModule::from_file"), options, path));
}

} // namespace tfc::jit
