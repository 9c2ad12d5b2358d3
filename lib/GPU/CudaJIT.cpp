//===- CudaJIT.cpp - Compile and call tfc modules on an NVIDIA GPU -*- C++ -*-//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The front half (inline, promote variables, record signatures) mirrors the
// CPU path in lib/JIT/JIT.cpp; the runtime symbols and packed entry points
// are JIT.cpp's own, so both targets share one calling convention and one
// assert channel. The driver is checked after the module is lowered and
// translated, so a machine without a GPU still validates everything but the
// launch.
//
//===----------------------------------------------------------------------===//

#include "tfc/GPU/CudaJIT.h"
#include "tfc/Bridge/Types.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"
#include "tfc/JIT/JIT.h"
#include "tfc/Pipelines/Pipelines.h"
#include "tfc/SharedContext.h"
#include "tfc/SourceLimits.h"
#include "tfc/runtime/Cuda.h"
#include "tfc/runtime/Error.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <fstream>
#include <mutex>

using namespace mlir;
using ::tfc::CompileError;
using ::tfc::jit::CompiledModule;
using ::tfc::jit::FunctionSignature;
using ::tfc::jit::TensorSignature;

namespace {

/// Every diagnostic emitted while alive, one "loc: message" per line.
class Diagnostics {
public:
  explicit Diagnostics(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &diag) {
          llvm::raw_string_ostream os(text);
          os << diag.getLocation() << ": " << diag << "\n";
          for (auto &note : diag.getNotes())
            os << note.getLocation() << ": note: " << note << "\n";
          return success();
        }) {}
  std::string text;

private:
  ScopedDiagnosticHandler handler;
};

std::string print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

struct Lowering {
  Diagnostics &diags;
  const ::tfc::jit::detail::StageDumper &dumper;

  CompileError fail(const std::string &what) const {
    return CompileError(diags.text.empty() ? what : what + ":\n" + diags.text);
  }

  /// Verifies, inlines and promotes variables; records the signatures of
  /// the public functions (as JIT.cpp does for the CPU).
  void prepare(ModuleOp module, CompiledModule::Impl &impl) const {
    MLIRContext *ctx = module.getContext();
    if (failed(verify(module)))
      throw fail("tfc module failed to verify");
    // The communicator reads host memory: collectives stay on the CPU.
    bool collective = false;
    module.walk([&](mlir::tfc::AllReduceOp) { collective = true; });
    if (collective)
      throw fail("tfc.all_reduce runs on Target::CPU only (the communicator "
                 "reads host memory; docs/distributed.md)");
    impl.stages["tfc"] = print(module);
    dumper.dump(0, "tfc", module);
    PassManager pm(ctx);
    mlir::tfc::buildTfcPreparePipeline(pm);
    if (failed(pm.run(module)))
      throw fail("preparing the module (inline, promote variables) failed");
    ::tfc::jit::detail::readSignatures(module, impl);
  }

  /// tfc-cuda-pipeline, one stage at a time so each stage's IR is kept.
  void lower(ModuleOp module, const ::tfc::jit::CompileOptions &options,
             std::map<std::string, std::string, std::less<>> &stages) const {
    MLIRContext *ctx = module.getContext();
    mlir::tfc::CudaPipelineOptions cuda;
    cuda.fuseElementwise = options.fuse;
    cuda.optLevel = std::clamp(options.opt_level, 0, 3);
    mlir::tfc::CpuPipelineOptions linalg;
    linalg.fuseElementwise = options.fuse;
    linalg.dedupFusions = false; // as in the registered CUDA pipeline
    struct Stage {
      const char *name, *what;
      std::function<void(OpPassManager &)> build;
    } steps[] = {
        {"optimized", "lowering tfc to linalg failed",
         [&](OpPassManager &pm) {
           mlir::tfc::buildTfcToLinalgPipeline(pm, linalg);
         }},
        {"gpu", "outlining GPU kernels failed",
         [&](OpPassManager &pm) {
           mlir::tfc::buildLinalgToGpuPipeline(pm, cuda);
         }},
        {"nvvm", "lowering kernels to NVVM failed",
         [&](OpPassManager &pm) {
           mlir::tfc::buildGpuToNVVMPipeline(pm, cuda);
         }},
        {"llvm-dialect", "generating PTX or lowering the host code failed",
         [&](OpPassManager &pm) {
           mlir::tfc::buildGpuToLLVMPipeline(pm, cuda);
         }},
    };
    int index = 1;
    for (Stage &step : steps) {
      PassManager pm(ctx);
      step.build(pm);
      if (failed(pm.run(module)))
        throw fail(step.what);
      stages[step.name] = print(module);
      dumper.dump(index++, step.name, module);
    }
  }
};

std::vector<std::pair<std::string, std::string>> kernelsOf(ModuleOp module) {
  std::vector<std::pair<std::string, std::string>> kernels;
  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute attr : binary.getObjects())
      if (auto object = dyn_cast<gpu::ObjectAttr>(attr))
        kernels.emplace_back(binary.getName().str(),
                             object.getObject().getValue().str());
  return kernels;
}

std::once_flag nativeTargetOnce;

} // namespace

namespace tfc::gpu {

PtxModule compile_to_ptx(std::string_view text,
                         const jit::CompileOptions &options) {
  if (std::string deep = jit::checkSourceNesting(text, "<source>");
      !deep.empty())
    throw CompileError("failed to parse the tfc module:\n" + deep);
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  MLIRContext &ctx = ::tfc::sharedContext();
  Diagnostics diags(ctx);
  llvm::SourceMgr sm;
  sm.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(
                            StringRef(text.data(), text.size()), "<source>"),
                        llvm::SMLoc());
  OwningOpRef<ModuleOp> module = jit::parseSourceGuarded(sm, &ctx);
  if (!module)
    throw CompileError(diags.text.empty()
                           ? "failed to parse the tfc module"
                           : "failed to parse the tfc module:\n" + diags.text);
  jit::detail::StageDumper dumper(options, *module);
  Lowering lowering{diags, dumper};
  CompiledModule::Impl impl;
  lowering.prepare(*module, impl);
  PtxModule result;
  result.stages = impl.stages;
  lowering.lower(*module, options, result.stages);
  result.kernels = kernelsOf(*module);
  return result;
}

std::shared_ptr<CompiledModule::Impl>
compileCuda(ModuleOp module, const jit::CompileOptions &options) {
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  std::call_once(nativeTargetOnce, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  Diagnostics diags(*module.getContext());
  jit::detail::StageDumper dumper(options, module);
  Lowering lowering{diags, dumper};
  auto impl = std::make_shared<CompiledModule::Impl>();
  impl->target = ::tfc::Target::CUDA;
  lowering.prepare(module, *impl);
  lowering.lower(module, options, impl->stages);
  std::string ptx;
  for (auto &[name, text] : kernelsOf(module))
    ptx += "// gpu.binary @" + name + "\n" + text;
  impl->stages["ptx"] = ptx;

  int opt = std::clamp(options.opt_level, 0, 3);
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    throw lowering.fail("cannot detect the host target: " +
                        llvm::toString(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(static_cast<llvm::CodeGenOptLevel>(opt));
  auto tm = jtmb->createTargetMachine();
  if (!tm)
    throw lowering.fail("cannot create a target machine: " +
                        llvm::toString(tm.takeError()));
  // gpu.binary becomes a global holding the PTX plus constructors that load
  // it (mgpuModuleLoadJIT) and destructors that unload it.
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    throw lowering.fail("translating the host code to LLVM IR failed");
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  jit::detail::addPackedEntryPoints(*llvmModule, impl->functions);
  if (auto err = makeOptimizingTransformer(opt, 0, tm->get())(llvmModule.get()))
    throw lowering.fail("LLVM optimisation failed: " +
                        llvm::toString(std::move(err)));
  {
    llvm::raw_string_ostream os(impl->stages["llvm"]);
    llvmModule->print(os, nullptr);
  }
  dumper.dump(5, "llvm", StringRef(impl->stages["llvm"]));

  // Everything up to here runs without a GPU; running needs the driver.
  if (!cuda::driverAvailable())
    throw CompileError("cannot compile for Target::CUDA: " +
                       cuda::driverError());

  llvm::orc::SimpleCompiler compiler(**tm);
  auto object = compiler(*llvmModule);
  if (!object)
    throw lowering.fail("LLVM code generation failed: " +
                        llvm::toString(object.takeError()));
  auto linkFailed = [&](llvm::Error err) {
    return lowering.fail("LLVM JIT linking failed: " +
                         llvm::toString(std::move(err)));
  };
  llvm::DataLayout layout = (*tm)->createDataLayout();
  auto lljit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(*jtmb)
          .setDataLayout(layout)
          .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession &es) {
            return std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                es, [](const llvm::MemoryBuffer &) {
                  return std::make_unique<llvm::SectionMemoryManager>();
                });
          })
          .create();
  if (!lljit)
    throw linkFailed(lljit.takeError());
  llvm::orc::JITDylib &dylib = (*lljit)->getMainJITDylib();
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      layout.getGlobalPrefix());
  if (!process)
    throw linkFailed(process.takeError());
  dylib.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*lljit)->getExecutionSession(),
                                        layout);
  llvm::orc::SymbolMap symbols = jit::detail::hostRuntimeSymbols(interner);
  for (const cuda::HostSymbol &s : cuda::hostSymbols())
    symbols[interner(s.name)] = {llvm::orc::ExecutorAddr::fromPtr(s.address),
                                 llvm::JITSymbolFlags::Exported};
  if (auto err = dylib.define(llvm::orc::absoluteSymbols(std::move(symbols))))
    throw linkFailed(std::move(err));
  if (auto err = (*lljit)->addObjectFile(std::move(*object)))
    throw linkFailed(std::move(err));
  // Runs the constructors: the driver compiles and loads each kernel's PTX.
  (void)cuda::takeError();
  if (auto err = (*lljit)->initialize(dylib))
    throw linkFailed(std::move(err));
  impl->jit = std::move(*lljit);
  if (std::string err = cuda::takeError(); !err.empty())
    throw CompileError("loading the GPU kernels failed: " + err);
  for (auto &[name, sig] : impl->functions) {
    auto addr = impl->jit->lookup("_mlir_" + name);
    if (!addr)
      throw CompileError("function @" + name + " not found after JIT: " +
                         llvm::toString(addr.takeError()));
    sig.packed = addr->toPtr<void (*)(void **)>();
  }
  return impl;
}

} // namespace tfc::gpu
