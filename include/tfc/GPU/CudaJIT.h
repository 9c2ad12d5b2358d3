//===- CudaJIT.h - Compile and call tfc modules on an NVIDIA GPU -*- C++
//-*-===//
//
// Target::CUDA for the JIT (docs/gpu.md): tfc-cuda-pipeline, LLVM IR with
// the PTX embedded, linked with the mgpu* runtime (runtime/cuda). Calls go
// through CompiledModule::Impl::callInto like the CPU's, which passes
// arguments in device (managed) memory and adopts the managed buffers the
// host code returns as CUDA tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_GPU_CUDAJIT_H
#define TFC_GPU_CUDAJIT_H

#include "tfc/JIT/CompiledModule.h"
#include "tfc/JIT/JIT.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::gpu {

/// The GPU code of a module, lowered without needing a driver.
struct PtxModule {
  /// IR after each stage: "tfc", "optimized", "gpu" (outlined kernels),
  /// "nvvm", "llvm-dialect" (host code; kernels as gpu.binary).
  std::map<std::string, std::string, std::less<>> stages;
  /// One entry per outlined kernel module: its name and PTX text.
  std::vector<std::pair<std::string, std::string>> kernels;
};

/// Parses `mlir_text` and lowers it for Target::CUDA down to PTX. Needs no
/// GPU or driver. Throws CompileError.
PtxModule compile_to_ptx(std::string_view mlir_text,
                         const jit::CompileOptions &options = {});

/// Lowers and JIT-compiles `module` (consumed) for Target::CUDA; called by
/// CompiledModule::Impl::compile. Throws CompileError, whose message says
/// that the CUDA driver (libcuda.so.1) was not found where it is missing.
std::shared_ptr<jit::CompiledModule::Impl>
compileCuda(mlir::ModuleOp module, const jit::CompileOptions &options);

} // namespace tfc::gpu
#pragma GCC visibility pop

namespace llvm {
class Module;
} // namespace llvm

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::jit::detail {
/// Defined in lib/JIT/JIT.cpp, shared by both targets: the runtime functions
/// compiled code calls (allocator, tfc_rt_assert, prints, ...) and the
/// `_mlir_<name>` packed entry points that CompiledModule::Impl::callInto
/// calls.
llvm::orc::SymbolMap hostRuntimeSymbols(llvm::orc::MangleAndInterner &interner);
void addPackedEntryPoints(
    llvm::Module &module,
    const std::map<std::string, FunctionSignature, std::less<>> &functions);
} // namespace tfc::jit::detail
#pragma GCC visibility pop

#endif // TFC_GPU_CUDAJIT_H
