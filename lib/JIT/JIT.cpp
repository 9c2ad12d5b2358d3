//===- JIT.cpp - Compile a tfc module and call it ---------------*- C++ -*-===//
//
// Lowering through the CPU pipeline, ORC compilation, and the calling
// convention: each tensor argument is passed as the expanded fields of an
// identity-layout memref descriptor (allocated, aligned, offset, sizes,
// strides) through the packed `_mlir_<name>` wrapper; results come back as
// descriptors of buffers that compiled code allocated through the runtime's
// allocator and are adopted by tensors without a copy.
//
//===----------------------------------------------------------------------===//

#include "tfc/JIT/JIT.h"
#include "RuntimeSymbols.h"
#include "tfc/Bridge/Types.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"
#include "tfc/JIT/CompileCache.h"
#include "tfc/Pipelines/Pipelines.h"
#include "tfc/SharedContext.h"
#include "tfc/SourceLimits.h"
#include "tfc/Version.h"
#include "tfc/runtime/Allocator.h"
#include "tfc/runtime/Collectives.h"
#include "tfc/runtime/CompiledCalls.h"
#include "tfc/runtime/Cuda.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Log.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/ExecutionEngine/JITEventListener.h"
#include "llvm/ExecutionEngine/Orc/CompileUtils.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/RTDyldObjectLinkingLayer.h"
#include "llvm/ExecutionEngine/SectionMemoryManager.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>

#if defined(__x86_64__)
#include <xmmintrin.h> // MXCSR: FlushDenormals
#endif

using namespace mlir;
using namespace ::tfc;
using namespace ::tfc::jit;

//===----------------------------------------------------------------------===//
// Runtime entry points called by compiled code
//===----------------------------------------------------------------------===//

namespace {
/// First failed tfc.assert of the current call on this thread.
// Initial-exec: read twice per call; the default model in libtfc.so would
// call __tls_get_addr each time.
[[gnu::tls_model("initial-exec")]] thread_local std::string *pendingAssert =
    nullptr;
} // namespace

namespace {
/// The compiled call running on this thread: a failed tfc.check, or an
/// allocation failure, jumps back to callInto (nothing after it in the
/// compiled code may run: it would read out of bounds or through a null
/// pointer). The buffers the code allocated and has not freed are listed
/// here so that a jump out frees them.
struct CallScope {
  // __builtin_setjmp's buffer (frame, resume address, stack): saving it
  // costs a few stores, where sigsetjmp's 200-byte buffer cost ~15 ns a
  // call (issue 13's call-overhead budget).
  void *jump[5];
  llvm::SmallVector<void *, 16> live;
  std::string message;
  bool invalidArgument = false;
};
[[gnu::tls_model("initial-exec")]] thread_local CallScope *callScope = nullptr;

[[noreturn]] void stopCall(CallScope *scope, bool invalidArgument,
                           std::string message) {
  scope->message = std::move(message);
  scope->invalidArgument = invalidArgument;
  __builtin_longjmp(scope->jump, 1);
}

/// Runs the compiled function; false when a check stopped it. A function of
/// its own: __builtin_longjmp may not target the function that called it,
/// and this one's frame holds nothing the jump could leave stale.
[[gnu::noinline]] bool runScoped(void (*packed)(void **), void **args,
                                 CallScope &scope) {
  if (__builtin_setjmp(scope.jump))
    return false;
  packed(args);
  return true;
}

/// FTZ and DAZ (MXCSR bits 15 and 6) for one call when `on`, the caller's
/// mode restored after it. libomp hands the forking thread's MXCSR to its
/// workers at each parallel region (KMP_INHERIT_FP_CONTROL, on by
/// default), so parallel loops and oneDNN's GEMMs flush too.
class FlushDenormals {
public:
  explicit FlushDenormals(bool on) {
#if defined(__x86_64__)
    if (on) {
      saved = _mm_getcsr();
      if ((saved & kBits) != kBits) {
        _mm_setcsr(saved | kBits);
        active = true;
      }
    }
#endif
  }
  ~FlushDenormals() {
#if defined(__x86_64__)
    if (active)
      _mm_setcsr(saved);
#endif
  }
  FlushDenormals(const FlushDenormals &) = delete;
  FlushDenormals &operator=(const FlushDenormals &) = delete;

private:
  static constexpr unsigned kBits = 0x8040;
  unsigned saved = 0;
  bool active = false;
};
} // namespace

extern "C" {
/// A failed tfc.check: `message` with each "{}" replaced by the next value.
static void tfcCheckFailed(int32_t kind, const char *message, int64_t count,
                           int64_t v0, int64_t v1, int64_t v2, int64_t v3,
                           int64_t v4, int64_t v5, int64_t v6, int64_t v7) {
  const int64_t values[] = {v0, v1, v2, v3, v4, v5, v6, v7};
  std::string text;
  int64_t next = 0;
  for (const char *c = message ? message : "check failed"; *c; ++c) {
    if (c[0] == '{' && c[1] == '}') {
      text += next < count && next < 8 ? std::to_string(values[next]) : "?";
      ++next;
      ++c;
      continue;
    }
    text += *c;
  }
  if (CallScope *scope = callScope)
    stopCall(scope, kind == 0, std::move(text));
  // Not inside callInto (no caller to report to): the first failure is
  // kept like a failed assert's.
  if (!pendingAssert)
    pendingAssert = new std::string(std::move(text));
}
/// tfc.all_reduce (PrintAndChecksToRuntime.cpp): `in` reduced over the
/// replicas into the fresh contiguous `out` (a strided `in` is gathered
/// into `out` first, then reduced in place). Unranked memrefs arrive as (rank,
/// descriptor): {allocated, aligned, offset, sizes[rank], strides[rank]}. A
/// communicator error stops the call like a failed check (exceptions cannot
/// cross JIT'd frames).
static void tfcAllReduce(int32_t dtype, int32_t op, int64_t inRank,
                         void *inDesc, int64_t outRank, void *outDesc) {
  (void)outRank;
  auto dt = static_cast<::tfc::DType>(dtype);
  const size_t elt = ::tfc::dtype_size(dt);
  auto *in = static_cast<int64_t *>(inDesc);
  auto *out = static_cast<int64_t *>(outDesc);
  const char *src = reinterpret_cast<const char *>(in[1]) + in[2] * elt;
  char *dst = reinterpret_cast<char *>(out[1]) + out[2] * elt;
  const int64_t *sizes = in + 3, *strides = in + 3 + inRank;
  int64_t n = 1;
  for (int64_t d = 0; d < inRank; ++d)
    n *= sizes[d];
  // Row-major contiguous (the usual case): the library reads it in place.
  bool contiguous = true;
  for (int64_t d = inRank - 1, expect = 1; d >= 0; --d) {
    if (sizes[d] != 1 && strides[d] != expect)
      contiguous = false;
    expect *= sizes[d];
  }
  std::vector<int64_t> idx(size_t(contiguous ? 0 : inRank), 0);
  for (int64_t i = 0; !contiguous && i < n; ++i) {
    int64_t off = 0;
    for (int64_t d = 0; d < inRank; ++d)
      off += idx[size_t(d)] * strides[d];
    std::memcpy(dst + i * int64_t(elt), src + off * int64_t(elt), elt);
    for (int64_t d = inRank - 1; d >= 0; --d) {
      if (++idx[size_t(d)] < sizes[d])
        break;
      idx[size_t(d)] = 0;
    }
  }
  try {
    ::tfc::distribute::all_reduce(contiguous ? src : dst, dst, n, dt,
                                  op == 1 ? ::tfc::distribute::ReduceOp::Mean
                                          : ::tfc::distribute::ReduceOp::Sum);
  } catch (const std::exception &e) {
    if (CallScope *scope = callScope)
      stopCall(scope, /*invalidArgument=*/false,
               std::string("all_reduce: ") + e.what());
    if (!pendingAssert)
      pendingAssert = new std::string(std::string("all_reduce: ") + e.what());
  }
}
static void tfcAssert(uint32_t ok, const char *message) {
  // i1 arrives in a register whose upper bits LLVM leaves unspecified.
  ok &= 1;
  if (ok || pendingAssert)
    return;
  pendingAssert = new std::string(message ? message : "assertion failed");
}
static void *mlirAlloc(uint64_t bytes) {
  void *p = tfc_rt_alloc(bytes);
  CallScope *scope = callScope;
  if (!p && bytes) [[unlikely]] {
    // As the eager allocator reports it; the code must not write through
    // the null pointer. (A worker thread of a parallel loop has no scope:
    // it gets the null pointer, as before.)
    if (scope)
      stopCall(scope, /*invalidArgument=*/false,
               "allocator: out of memory allocating " + std::to_string(bytes) +
                   " bytes");
    return p;
  }
  if (scope)
    scope->live.push_back(p);
  return p;
}
static void *mlirAlignedAlloc(uint64_t alignment, uint64_t bytes) {
  // The runtime's buffers are 64-byte aligned, enough for any vector type.
  (void)alignment;
  return mlirAlloc(bytes);
}
static void mlirFree(void *ptr) {
  if (CallScope *scope = callScope) {
    // Usually the most recent allocation: search from the back.
    auto &live = scope->live;
    for (size_t i = live.size(); i-- > 0;)
      if (live[i] == ptr) {
        live[i] = live.back();
        live.pop_back();
        break;
      }
  }
  tfc_rt_free(ptr);
}

/// memref.copy between non-contiguous memrefs lowers to a call of
/// `memrefCopy` (normally from libmlir_c_runner_utils, which the JIT does not
/// load): a strided copy over unranked descriptors {rank, descriptor*}.
struct UnrankedDescriptor {
  int64_t rank;
  void *descriptor;
};
static void memrefCopy(int64_t elemSize, UnrankedDescriptor *src,
                       UnrankedDescriptor *dst) {
  int64_t rank = src->rank;
  auto *s = static_cast<int64_t *>(src->descriptor);
  auto *d = static_cast<int64_t *>(dst->descriptor);
  auto *sBase = reinterpret_cast<char *>(s[1]) + s[2] * elemSize;
  auto *dBase = reinterpret_cast<char *>(d[1]) + d[2] * elemSize;
  const int64_t *sizes = s + 3, *sStrides = s + 3 + rank,
                *dStrides = d + 3 + rank;
  int64_t total = 1;
  for (int64_t i = 0; i < rank; ++i)
    total *= sizes[i];
  if (total == 0)
    return;
  llvm::SmallVector<int64_t, 8> index(rank, 0);
  for (int64_t n = 0; n < total; ++n) {
    int64_t so = 0, dO = 0;
    for (int64_t i = 0; i < rank; ++i) {
      so += index[i] * sStrides[i];
      dO += index[i] * dStrides[i];
    }
    std::memcpy(dBase + dO * elemSize, sBase + so * elemSize, elemSize);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < sizes[i])
        break;
      index[i] = 0;
    }
  }
}
}

//===----------------------------------------------------------------------===//
// Context and helpers
//===----------------------------------------------------------------------===//

namespace {
/// "file:line:col" for file locations (looking through names and call
/// sites), MLIR's own spelling otherwise.
std::string formatLocation(Location loc) {
  if (auto f = dyn_cast<FileLineColLoc>(loc))
    return (f.getFilename().str() + ":" + std::to_string(f.getLine()) + ":" +
            std::to_string(f.getColumn()));
  if (auto n = dyn_cast<NameLoc>(loc))
    return formatLocation(n.getChildLoc());
  if (auto c = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(c.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (!isa<UnknownLoc>(inner))
        return formatLocation(inner);
  std::string s;
  llvm::raw_string_ostream os(s);
  os << loc;
  return s;
}

} // namespace

::tfc::jit::detail::DiagnosticCollector::DiagnosticCollector(MLIRContext &ctx)
    : handler(&ctx, [this](Diagnostic &diag) {
        llvm::raw_string_ostream os(text);
        os << formatLocation(diag.getLocation()) << ": ";
        switch (diag.getSeverity()) {
        case DiagnosticSeverity::Error:
          os << "error: ";
          break;
        case DiagnosticSeverity::Warning:
          os << "warning: ";
          break;
        case DiagnosticSeverity::Note:
          os << "note: ";
          break;
        case DiagnosticSeverity::Remark:
          os << "remark: ";
          break;
        }
        os << diag << "\n";
        for (auto &note : diag.getNotes())
          os << formatLocation(note.getLocation()) << ": note: " << note
             << "\n";
        return success();
      }) {}

namespace {
std::string printOp(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

/// Runs the pipeline `build` adds. A fresh PassManager each time: reusing
/// one across modules would save building pattern sets (a few ms), but
/// upstream passes keep per-run state (convert-math-to-funcs remembers the
/// helper functions it created in the previous module: use after free).
LogicalResult runPipeline(ModuleOp module,
                          llvm::function_ref<void(OpPassManager &)> build) {
  PassManager pm(module.getContext());
  build(pm);
  return pm.run(module);
}

std::once_flag nativeTargetOnce;
} // namespace

//===----------------------------------------------------------------------===//
// ORC: packed wrappers, linking an object
//===----------------------------------------------------------------------===//

namespace {
/// For each public function `f`, defines `_mlir_f(void **args)` that loads
/// each argument through `args[i]` and stores the result through
/// `args[n]`: the calling convention of callInto (and of
/// mlir::ExecutionEngine's packed functions).
void addPackedWrappers(
    llvm::Module &module,
    const std::map<std::string, FunctionSignature, std::less<>> &functions) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> builder(ctx);
  for (const auto &entry : functions) {
    llvm::Function *fn = module.getFunction(entry.first);
    if (!fn || fn->isDeclaration())
      continue;
    auto *type =
        llvm::FunctionType::get(builder.getVoidTy(), builder.getPtrTy(), false);
    auto *wrapper =
        llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                               "_mlir_" + entry.first, module);
    builder.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", wrapper));
    llvm::Value *list = wrapper->arg_begin();
    llvm::SmallVector<llvm::Value *, 16> args;
    for (auto [i, arg] : llvm::enumerate(fn->args())) {
      llvm::Value *slot =
          builder.CreateConstGEP1_64(builder.getPtrTy(), list, i);
      llvm::Value *ptr = builder.CreateLoad(builder.getPtrTy(), slot);
      args.push_back(builder.CreateLoad(arg.getType(), ptr));
    }
    llvm::Value *result = builder.CreateCall(fn, args);
    if (!result->getType()->isVoidTy()) {
      llvm::Value *slot =
          builder.CreateConstGEP1_64(builder.getPtrTy(), list, fn->arg_size());
      builder.CreateStore(result, builder.CreateLoad(builder.getPtrTy(), slot));
    }
    builder.CreateRetVoid();
  }
}

/// Runtime functions compiled code calls, by symbol name.
llvm::orc::SymbolMap runtimeSymbols(llvm::orc::MangleAndInterner &interner) {
  llvm::orc::SymbolMap map;
  auto add = [&](const char *name, void *fn) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                           llvm::JITSymbolFlags::Exported};
  };
  add("_mlir_memref_to_llvm_alloc", reinterpret_cast<void *>(&mlirAlloc));
  add("_mlir_memref_to_llvm_aligned_alloc",
      reinterpret_cast<void *>(&mlirAlignedAlloc));
  add("_mlir_memref_to_llvm_free", reinterpret_cast<void *>(&mlirFree));
  add("tfc_rt_assert", reinterpret_cast<void *>(&tfcAssert));
  add("tfc_rt_check_failed", reinterpret_cast<void *>(&tfcCheckFailed));
  // One entry for every element type: the dtype code says which.
  for (const char *name : {"tfc_rt_all_reduce_i32", "tfc_rt_all_reduce_i64",
                           "tfc_rt_all_reduce_f32", "tfc_rt_all_reduce_f64"})
    add(name, reinterpret_cast<void *>(&tfcAllReduce));
  add("memrefCopy", reinterpret_cast<void *>(&memrefCopy));
  // Library calls (tfc-linalg-to-blas).
  add("_mlir_ciface_tfc_rt_gemm_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_gemm_f32));
  add("_mlir_ciface_tfc_rt_gemm_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_gemm_f64));
  add("_mlir_ciface_tfc_rt_conv2d_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_conv2d_f32));
  add("_mlir_ciface_tfc_rt_conv2d_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_conv2d_f64));
  add("_mlir_ciface_tfc_rt_conv2d_backprop_filter_f32",
      reinterpret_cast<void *>(
          &_mlir_ciface_tfc_rt_conv2d_backprop_filter_f32));
  add("_mlir_ciface_tfc_rt_conv2d_backprop_filter_f64",
      reinterpret_cast<void *>(
          &_mlir_ciface_tfc_rt_conv2d_backprop_filter_f64));
#define TFC_ADD_SEGMENT_SUM(T, I, SUFFIX)                                      \
  add("_mlir_ciface_tfc_rt_unsorted_segment_sum_" #SUFFIX,                     \
      reinterpret_cast<void *>(                                                \
          &_mlir_ciface_tfc_rt_unsorted_segment_sum_##SUFFIX));
  TFC_SEGMENT_SUM_ENTRIES(TFC_ADD_SEGMENT_SUM)
#undef TFC_ADD_SEGMENT_SUM
#define TFC_ADD_GATHER(T, I, SUFFIX)                                           \
  add("_mlir_ciface_tfc_rt_gather_" #SUFFIX,                                   \
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_gather_##SUFFIX));
  TFC_GATHER_ENTRIES(TFC_ADD_GATHER)
#undef TFC_ADD_GATHER
#define TFC_ADD_SCAN(T, SUFFIX)                                                \
  add("_mlir_ciface_tfc_rt_cumsum_" #SUFFIX,                                   \
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_cumsum_##SUFFIX));         \
  add("_mlir_ciface_tfc_rt_top_k_indices_" #SUFFIX,                            \
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_top_k_indices_##SUFFIX));
  TFC_SCAN_ENTRIES(TFC_ADD_SCAN)
#undef TFC_ADD_SCAN
  add("_mlir_ciface_tfc_rt_philox_random_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_philox_random_f32));
  add("_mlir_ciface_tfc_rt_philox_random_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_philox_random_f64));
  add("_mlir_ciface_tfc_rt_max_pool2d_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_max_pool2d_f32));
  add("_mlir_ciface_tfc_rt_max_pool2d_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_max_pool2d_f64));
  add("_mlir_ciface_tfc_rt_avg_pool2d_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_avg_pool2d_f32));
  add("_mlir_ciface_tfc_rt_avg_pool2d_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_avg_pool2d_f64));
  add("_mlir_ciface_tfc_rt_max_pool2d_grad_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_max_pool2d_grad_f32));
  add("_mlir_ciface_tfc_rt_max_pool2d_grad_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_max_pool2d_grad_f64));
  add("_mlir_ciface_tfc_rt_max_pool2d_grad_grad_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_max_pool2d_grad_grad_f32));
  add("_mlir_ciface_tfc_rt_max_pool2d_grad_grad_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_max_pool2d_grad_grad_f64));
  add("_mlir_ciface_tfc_rt_avg_pool2d_grad_f32",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_avg_pool2d_grad_f32));
  add("_mlir_ciface_tfc_rt_avg_pool2d_grad_f64",
      reinterpret_cast<void *>(&_mlir_ciface_tfc_rt_avg_pool2d_grad_f64));
  add("tfc_rt_num_threads", reinterpret_cast<void *>(&tfc_rt_num_threads));
  ::tfc::jit::detail::registerPrintSymbols(map, interner);
  ::tfc::jit::detail::registerStackSymbols(map, interner); // tfc-autodiff
  return map;
}

/// A fresh LLJIT holding `object`, linked against the runtime symbols and
/// the process, with every function's `packed` pointer resolved. Null (with
/// `error` set) when anything fails; `functions` are then left unresolved.
std::unique_ptr<llvm::orc::LLJIT>
linkObject(const llvm::orc::JITTargetMachineBuilder &jtmb,
           const llvm::DataLayout &layout,
           std::unique_ptr<llvm::MemoryBuffer> object,
           std::map<std::string, FunctionSignature, std::less<>> &functions,
           std::string &error) {
  auto fail = [&](llvm::Error err) -> std::unique_ptr<llvm::orc::LLJIT> {
    error = llvm::toString(std::move(err));
    return nullptr;
  };
  auto jit =
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(jtmb)
          .setDataLayout(layout)
          .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession &es) {
            auto layer = std::make_unique<llvm::orc::RTDyldObjectLinkingLayer>(
                es, [](const llvm::MemoryBuffer &) {
                  return std::make_unique<llvm::SectionMemoryManager>();
                });
            // TFC_PERF_JITDUMP=1: name compiled functions for `perf inject
            // --jit` (docs/performance.md, "Reproducing the profiles").
            if (const char *env = std::getenv("TFC_PERF_JITDUMP");
                env && *env && *env != '0')
              if (llvm::JITEventListener *perf =
                      llvm::JITEventListener::createPerfJITEventListener())
                layer->registerJITEventListener(*perf);
            return layer;
          })
          .create();
  if (!jit)
    return fail(jit.takeError());
  llvm::orc::JITDylib &mainDylib = (*jit)->getMainJITDylib();
  // Parallel loops call libomp's __kmpc_* entry points. The process links
  // libomp only when it uses the eager kernels (the linker drops it
  // otherwise), so load it here: the same library, hence one thread pool.
  static std::once_flag ompOnce;
  std::call_once(ompOnce, [] {
    // tfc's worker wait time, should the JIT be the first to load libomp.
    tfc_rt_default_omp_blocktime();
    std::string ignored; // without it only parallel code fails, by name
    llvm::sys::DynamicLibrary::LoadLibraryPermanently(TFC_LIBOMP_PATH,
                                                      &ignored);
  });
  auto process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      layout.getGlobalPrefix());
  if (!process)
    return fail(process.takeError());
  mainDylib.addGenerator(std::move(*process));
  llvm::orc::MangleAndInterner interner((*jit)->getExecutionSession(), layout);
  if (auto err = mainDylib.define(
          llvm::orc::absoluteSymbols(runtimeSymbols(interner))))
    return fail(std::move(err));
  if (auto err = (*jit)->addObjectFile(std::move(object)))
    return fail(std::move(err));
  if (auto err = (*jit)->initialize(mainDylib))
    return fail(std::move(err));
  for (auto &[name, sig] : functions) {
    auto addr = (*jit)->lookup("_mlir_" + name);
    if (!addr)
      return fail(addr.takeError());
    sig.packed = addr->toPtr<void (*)(void **)>();
  }
  return std::move(*jit);
}
} // namespace

// --- Shared with Target::CUDA (lib/GPU/CudaJIT.cpp): one set of runtime
// symbols and one packed calling convention for both targets. ---
namespace tfc::jit::detail {
llvm::orc::SymbolMap
hostRuntimeSymbols(llvm::orc::MangleAndInterner &interner) {
  return runtimeSymbols(interner);
}
void addPackedEntryPoints(
    llvm::Module &module,
    const std::map<std::string, FunctionSignature, std::less<>> &functions) {
  addPackedWrappers(module, functions);
}
} // namespace tfc::jit::detail
// --- end of the CUDA target's part ---

//===----------------------------------------------------------------------===//
// Dumps (TFC_DUMP_DIR)
//===----------------------------------------------------------------------===//

namespace tfc::jit::detail {

std::string moduleLabel(ModuleOp module) {
  std::string name;
  for (auto fn : module.getOps<func::FuncOp>())
    if (!fn.isPrivate() && !fn.isDeclaration()) {
      name = fn.getName().str();
      break;
    }
  // Quoted symbol names may hold anything: keep file names portable.
  for (char &c : name)
    if (!llvm::isAlnum(c) && c != '_' && c != '.' && c != '-')
      c = '_';
  if (name.size() > 100)
    name.resize(100);
  return name.empty() ? "module" : name;
}

StageDumper::StageDumper(const CompileOptions &options, ModuleOp module) {
  std::string dir = options.dump_dir;
  if (dir.empty())
    if (const char *env = std::getenv("TFC_DUMP_DIR"))
      dir = env;
  if (dir.empty())
    return;
  // One number per dumped compile, so retraces and compiles on several
  // threads never share a file. The count is per process: processes
  // dumping at once want a directory each.
  static std::atomic<unsigned> counter{0};
  unsigned n = counter.fetch_add(1, std::memory_order_relaxed);
  llvm::sys::fs::create_directories(dir);
  char number[16];
  std::snprintf(number, sizeof(number), "%04u", n);
  prefix = dir + "/" + number + "-" + moduleLabel(module) + ".";
}

void StageDumper::dump(int index, StringRef stage, Operation *op) const {
  if (!enabled())
    return;
  std::string text;
  llvm::raw_string_ostream os(text);
  // Locations inline (local scope prints them without #loc aliases), so
  // each op shows the user's source line; the text still parses.
  op->print(os, OpPrintingFlags().enableDebugInfo().useLocalScope());
  dump(index, stage, StringRef(text));
}

void StageDumper::dump(int index, StringRef stage, StringRef text) const {
  if (!enabled())
    return;
  std::string path = prefix + std::to_string(index) + "-" + stage.str() +
                     (stage == "llvm" ? ".ll" : ".mlir");
  std::ofstream f(path);
  f << text.str();
}

} // namespace tfc::jit::detail

//===----------------------------------------------------------------------===//
// Compile
//===----------------------------------------------------------------------===//

void ::tfc::jit::detail::readSignatures(ModuleOp module,
                                        CompiledModule::Impl &impl) {
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn.isDeclaration() || fn.isPrivate())
      continue;
    FunctionSignature sig;
    sig.name = fn.getName().str();
    auto convert = [&](Type t, const char *what,
                       unsigned i) -> TensorSignature {
      auto rt = dyn_cast<RankedTensorType>(t);
      TensorSignature ts{DType::Float32, {}};
      if (!rt || !::tfc::bridge::toDType(rt.getElementType(), ts.dtype))
        throw CompileError("function @" + sig.name + ": " + what + " " +
                           std::to_string(i) +
                           " must be a ranked tensor of i1/i32/i64/f32/f64");
      for (int64_t d : rt.getShape())
        ts.shape.push_back(ShapedType::isDynamic(d) ? -1 : d);
      return ts;
    };
    FunctionType type = fn.getFunctionType();
    for (auto [i, t] : llvm::enumerate(type.getInputs()))
      sig.args.push_back(convert(t, "argument", i));
    for (auto [i, t] : llvm::enumerate(type.getResults()))
      sig.results.push_back(convert(t, "result", i));
    if (auto written = fn->getAttrOfType<DenseI64ArrayAttr>("tfc.written_vars"))
      sig.writtenVars.assign(written.asArrayRef().begin(),
                             written.asArrayRef().end());
    for (const auto &a : sig.args)
      sig.argWords += 3 + 2 * a.shape.size();
    for (const auto &r : sig.results)
      sig.resultWords += 3 + 2 * r.shape.size();
    impl.functionNames.push_back(sig.name);
    impl.functions.emplace(sig.name, std::move(sig));
  }
}

::tfc::jit::detail::StageTimer::StageTimer(ModuleOp module,
                                           const TraceInfo &trace)
    : enabled(::tfc::logging::enabled(::tfc::logging::Category::Timing)),
      trace(trace) {
  if (enabled)
    label = ::tfc::jit::detail::moduleLabel(module);
}

void ::tfc::jit::detail::StageTimer::mark(const char *stage) {
  if (!enabled)
    return;
  auto now = std::chrono::steady_clock::now();
  stages.emplace_back(stage,
                      std::chrono::duration<double, std::milli>(now - last));
  last = now;
}

::tfc::jit::detail::StageTimer::~StageTimer() {
  if (!enabled)
    return;
  std::string line;
  llvm::raw_string_ostream os(line);
  os << "tfc timing '" << label << "'";
  if (trace.trace > 0)
    os << " trace " << trace.trace;
  os << " (ms, wall):";
  double total = 0;
  if (trace.traceMs >= 0) {
    os << " trace " << llvm::format("%.2f", trace.traceMs);
    total += trace.traceMs;
  }
  for (auto &[name, ms] : stages) {
    os << " " << name << " " << llvm::format("%.2f", ms.count());
    total += ms.count();
  }
  os << " | total " << llvm::format("%.2f", total);
  ::tfc::logging::emit(line);
}

CompiledModule::Impl::~Impl() {
  // Run the module's global destructors (if any), as ExecutionEngine does.
  if (jit)
    llvm::consumeError(jit->deinitialize(jit->getMainJITDylib()));
}

std::shared_ptr<CompiledModule::Impl>
CompiledModule::Impl::compileCpu(ModuleOp module, const CompileOptions &options,
                                 ::tfc::jit::detail::StageTimer &timer) {
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  std::call_once(nativeTargetOnce, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  MLIRContext *ctx = module.getContext();
  ::tfc::jit::detail::DiagnosticCollector diags(*ctx);
  auto fail = [&](const std::string &what) -> CompileError {
    std::string msg = what;
    if (!diags.text.empty())
      msg += ":\n" + diags.text;
    return CompileError(msg);
  };
  if (failed(verify(module)))
    throw fail("tfc module failed to verify");

  ::tfc::jit::detail::StageDumper dumper(options, module);
  auto impl = std::make_shared<Impl>();
  impl->flushDenormals = options.flush_denormals;
  impl->stages["tfc"] = printOp(module);
  dumper.dump(0, "tfc", module);
  timer.mark("verify+print");
  // tfc-prepare-pipeline: inline, symbol-dce, promote variables, read-only
  // arguments; then the public functions have their final signatures.
  if (failed(runPipeline(module, [](OpPassManager &pm) {
        mlir::tfc::buildTfcPreparePipeline(pm);
      })))
    throw fail("preparing the module (inline, promote variables) failed");
  timer.mark("inline+promote");
  ::tfc::jit::detail::readSignatures(module, *impl);

  mlir::tfc::CpuPipelineOptions pipelineOptions;
  pipelineOptions.fuseElementwise = options.fuse;
  pipelineOptions.kernelCalls = options.kernel_calls;
  if (failed(runPipeline(module, [&](OpPassManager &pm) {
        mlir::tfc::buildTfcToLinalgPipeline(pm, pipelineOptions);
      })))
    throw fail("lowering tfc to linalg failed");
  timer.mark("to-linalg");
  impl->stages["optimized"] = printOp(module);
  dumper.dump(1, "optimized", module);
  timer.mark("print");
  if (failed(runPipeline(module, [&](OpPassManager &pm) {
        mlir::tfc::buildLinalgToLLVMPipeline(pm, pipelineOptions);
      })))
    throw fail("lowering to the LLVM dialect failed");
  timer.mark("to-llvm-dialect");
  impl->stages["llvm-dialect"] = printOp(module);
  dumper.dump(2, "llvm-dialect", module);
  timer.mark("print");

  int opt = std::clamp(options.opt_level, 0, 3);
  // Compile for this CPU (AVX2/FMA where present): without the host's
  // features LLVM's vectorizers assume SSE2 only.
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb)
    throw fail("cannot detect the host target: " +
               llvm::toString(jtmb.takeError()));
  jtmb->setCodeGenOptLevel(static_cast<llvm::CodeGenOptLevel>(opt));
  auto tm = jtmb->createTargetMachine();
  if (!tm)
    throw fail("cannot create a target machine: " +
               llvm::toString(tm.takeError()));

  auto llvmContext = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, *llvmContext);
  if (!llvmModule)
    throw fail("translating the LLVM dialect to LLVM IR failed");
  llvmModule->setDataLayout((*tm)->createDataLayout());
  llvmModule->setTargetTriple((*tm)->getTargetTriple());
  addPackedWrappers(*llvmModule, impl->functions);
  timer.mark("translate");

  // The cache key: everything the object code depends on.
  std::string cacheDir = cache::resolveDir(options);
  cache::Key key{};
  std::string unoptimized;
  if (!cacheDir.empty()) {
    llvm::raw_string_ostream os(unoptimized);
    llvmModule->print(os, nullptr);
    llvm::BLAKE3 hasher;
    auto field = [&](llvm::StringRef s) {
      uint64_t n = s.size();
      hasher.update(llvm::ArrayRef<uint8_t>(
          reinterpret_cast<const uint8_t *>(&n), sizeof(n)));
      hasher.update(s);
    };
    field("tfc-object-cache-v1");
    field(TFC_VERSION_STRING);
    field(LLVM_VERSION_STRING);
    field((*tm)->getTargetTriple().str());
    field((*tm)->getTargetCPU());
    field((*tm)->getTargetFeatureString());
    field(std::to_string(opt));
    field(unoptimized);
    key = hasher.final<32>();
  }
  timer.mark("cache-key");

  std::string &llvmText = impl->stages["llvm"];
  std::unique_ptr<llvm::MemoryBuffer> cached;
  if (!cacheDir.empty())
    cached = cache::load(cacheDir, key);
  if (cached) {
    // Link the cached object; an object that does not link (truncated in a
    // way the digest missed, or built against other runtime symbols) is
    // rejected and compiled afresh below.
    std::string err;
    impl->jit = linkObject(*jtmb, (*tm)->createDataLayout(), std::move(cached),
                           impl->functions, err);
    if (impl->jit) {
      cache::noteHit();
      impl->fromCache = true;
      timer.mark("cache-load+link");
      llvmText = "; tfc: object code loaded from the compile cache (" +
                 cache::entryPath(cacheDir, key) +
                 "); LLVM optimisation and code generation were skipped.\n"
                 "; The LLVM IR below is before optimisation.\n" +
                 unoptimized;
    } else {
      cache::noteRejected();
    }
  }
  if (!impl->jit) {
    if (!cacheDir.empty())
      cache::noteMiss();
    auto optimize = makeOptimizingTransformer(opt, 0, tm->get());
    if (auto err = optimize(llvmModule.get()))
      throw fail("LLVM optimisation failed: " + llvm::toString(std::move(err)));
    timer.mark("llvm-opt");
    {
      llvm::raw_string_ostream os(llvmText);
      llvmModule->print(os, nullptr);
    }
    timer.mark("print");
    llvm::orc::SimpleCompiler compiler(**tm);
    auto object = compiler(*llvmModule);
    if (!object)
      throw fail("LLVM code generation failed: " +
                 llvm::toString(object.takeError()));
    timer.mark("codegen");
    if (!cacheDir.empty())
      cache::store(cacheDir, key, (*object)->getBuffer());
    std::string err;
    impl->jit = linkObject(*jtmb, (*tm)->createDataLayout(), std::move(*object),
                           impl->functions, err);
    if (!impl->jit)
      throw fail("LLVM JIT linking failed: " + err);
    timer.mark("link");
  }
  dumper.dump(3, "llvm", StringRef(llvmText));
  return impl;
}

//===----------------------------------------------------------------------===//
// Call
//===----------------------------------------------------------------------===//

namespace {
std::string sigShape(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += shape[i] < 0 ? "?" : std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}
} // namespace

const FunctionSignature *
CompiledModule::Impl::lookup(std::string_view name) const {
  auto it = functions.find(name);
  return it == functions.end() ? nullptr : &it->second;
}

void CompiledModule::Impl::callInto(const FunctionSignature &fn,
                                    const Tensor *const *args, size_t n,
                                    Tensor *results, bool validated) const {
  if (!validated) {
    if (n != fn.args.size())
      throw InvalidArgumentError("call @" + fn.name + ": expected " +
                                 std::to_string(fn.args.size()) +
                                 " arguments, got " + std::to_string(n));
    for (size_t i = 0; i < n; ++i) {
      const Tensor &t = *args[i];
      const TensorSignature &s = fn.args[i];
      if (!t.defined() || t.is_symbolic())
        throw InvalidArgumentError("call @" + fn.name + ": argument " +
                                   std::to_string(i) +
                                   " is not a concrete tensor");
      bool ok = t.dtype() == s.dtype && t.rank() == (int64_t)s.shape.size();
      for (size_t d = 0; ok && d < s.shape.size(); ++d)
        ok = s.shape[d] < 0 || s.shape[d] == t.shape()[d];
      if (!ok)
        throw InvalidArgumentError(
            "call @" + fn.name + ": argument " + std::to_string(i) +
            " expected " + std::string(to_string(s.dtype)) + " " +
            sigShape(s.shape) + ", got " + std::string(to_string(t.dtype())) +
            " " + shape_to_string(t.shape()));
    }
  }
  // Target::CUDA reads its arguments in device memory: CUDA tensors go as
  // they are, others are copied to the device for this call. (CPU code
  // reads CUDA tensors in place: managed memory is host-readable.)
  const bool onGpu = target == Target::CUDA;
  llvm::SmallVector<Tensor, 4> staged;
  llvm::SmallVector<const Tensor *, 16> onDevice;
  if (onGpu) {
    staged.reserve(n); // `onDevice` points into it
    onDevice.assign(args, args + n);
    for (size_t i = 0; i < n; ++i)
      if (!args[i]->device().is_cuda()) {
        staged.push_back(args[i]->to(Device::cuda()));
        onDevice[i] = &staged.back();
      }
    args = onDevice.data();
  }
  // Expanded descriptor fields, one 8-byte word each, on the stack for all
  // but very wide signatures; `packed` points at each argument word and then
  // at the result descriptors.
  llvm::SmallVector<int64_t, 160> words;
  words.resize_for_overwrite(fn.argWords + fn.resultWords);
  llvm::SmallVector<void *, 128> packed;
  packed.resize_for_overwrite(fn.argWords + 1);
  int64_t *w = words.data();
  void **p = packed.data();
  for (size_t i = 0; i < n; ++i) {
    // The handle's fields directly: this runs for every argument of every
    // call, and the signature already matched.
    const ::tfc::detail::TensorImpl *t = args[i]->unsafe_impl();
    void *data = t->data;
    if (!data) {
      // Empty tensors may have no storage; any non-null pointer will do
      // since nothing is read. A symbolic tensor (one kept from a trace) has
      // no data either and must not reach compiled code.
      if (t->numel != 0 || t->symbolic)
        throw InvalidArgumentError("call @" + fn.name + ": argument " +
                                   std::to_string(i) +
                                   " is not a concrete tensor");
      data = reinterpret_cast<void *>(64);
    }
    const auto &shape = t->shape;
    int64_t r = static_cast<int64_t>(shape.size());
    w[0] = reinterpret_cast<int64_t>(data);
    w[1] = reinterpret_cast<int64_t>(data);
    w[2] = 0;
    int64_t stride = 1;
    for (int64_t d = r - 1; d >= 0; --d) {
      w[3 + d] = shape[d];
      w[3 + r + d] = stride;
      stride *= shape[d];
    }
    for (int64_t k = 0; k < 3 + 2 * r; ++k)
      *p++ = w + k;
    w += 3 + 2 * r;
  }
  int64_t *resultWords = words.data() + fn.argWords;
  *p = resultWords;

  std::string *previous = pendingAssert;
  pendingAssert = nullptr;
  CallScope scope;
  CallScope *outerScope = callScope;
  callScope = &scope;
  bool completed;
  {
    FlushDenormals flush(flushDenormals && !onGpu);
    completed = runScoped(fn.packed, packed.data(), scope);
  }
  callScope = outerScope;
  std::unique_ptr<std::string> failure(pendingAssert);
  pendingAssert = previous;
  if (!completed) {
    // Stopped by a check: the result descriptors were never written, and
    // the buffers still live are the code's own.
    for (void *ptr : scope.live)
      tfc_rt_free(ptr);
    for (size_t i = 0; i < fn.results.size(); ++i)
      results[i] = Tensor();
    if (scope.invalidArgument)
      throw InvalidArgumentError(scope.message);
    throw RuntimeError(scope.message);
  }

  // Adopt results (freeing them again if the call failed). Results that
  // share one allocation share one Storage.
  size_t numResults = fn.results.size();
  int64_t *r = resultWords;
  for (size_t i = 0; i < numResults; ++i) {
    const TensorSignature &s = fn.results[i];
    void *allocated = reinterpret_cast<void *>(r[0]);
    char *aligned = reinterpret_cast<char *>(r[1]);
    int64_t offset = r[2];
    size_t rank = s.shape.size();
    std::vector<int64_t> shape(r + 3, r + 3 + rank);
    r += 3 + 2 * rank;
    size_t elem = dtype_size(s.dtype);
    char *data = aligned + offset * static_cast<int64_t>(elem);
    Storage *storage = nullptr;
    for (size_t j = 0; j < i && !storage; ++j)
      if (results[j].storage() && results[j].storage()->data() == allocated)
        storage = results[j].storage();
    // An argument's buffer (its data pointer was passed as `allocated`):
    // never adopted; on CUDA shared (tensors are immutable), on the CPU
    // copied below (without probing it for an allocator header: it may be
    // a CUDA tensor's managed memory).
    const Tensor *argument = nullptr;
    for (size_t j = 0; j < n && allocated && !storage && !argument; ++j)
      if (args[j]->unsafe_impl()->data == allocated)
        argument = args[j];
    if (argument && onGpu)
      storage = argument->storage();
    if (storage) {
      results[i] =
          Tensor::from_storage(s.dtype, std::move(shape), storage, data);
      continue;
    }
    // Below one page: the stand-in pointer of an empty argument, nothing
    // to own or probe.
    bool probe = !argument && reinterpret_cast<uintptr_t>(allocated) >= 4096;
    if (probe && onGpu && cuda::adoptAllocation(allocated)) {
      // A managed buffer the compiled code allocated (the usual case on
      // CUDA): it stays on the device, freed through the driver.
      size_t bytes =
          static_cast<size_t>(data - static_cast<char *>(allocated)) +
          static_cast<size_t>(shape_numel(shape)) * elem;
      storage = Storage::adopt(
          allocated, bytes,
          [](void *, void *ptr, size_t) { cuda::releaseManaged(ptr); }, nullptr,
          Device::cuda());
      results[i] =
          Tensor::from_storage(s.dtype, std::move(shape), storage, data);
      storage->release(); // from_storage retained it
      continue;
    }
    if (probe) {
      if (size_t capacity = allocator::block_capacity(allocated)) {
        // A fresh block of the runtime's allocator (the usual case on the
        // CPU): the Storage lives in the block's header, so adopting
        // allocates nothing.
        try {
          storage = Storage::adopt_allocated(allocated, capacity);
        } catch (const Error &) {
          storage = nullptr; // Already owned by a tensor (an argument): copy.
        }
      }
    }
    if (storage) {
      results[i] =
          Tensor::from_storage(s.dtype, std::move(shape), storage, data);
      storage->release(); // from_storage retained it
      if (onGpu && !failure)
        results[i] = results[i].to(Device::cuda());
      continue;
    }
    // Not ours to own (a constant global, or an argument's buffer): copy.
    Tensor copy = Tensor::empty(s.dtype, std::move(shape));
    if (size_t bytes = copy.nbytes())
      std::memcpy(copy.raw_data(), data, bytes);
    results[i] = onGpu && !failure ? copy.to(Device::cuda()) : std::move(copy);
  }
  if (failure) {
    for (size_t i = 0; i < numResults; ++i)
      results[i] = Tensor();
    throw RuntimeError(*failure);
  }
}

std::vector<Tensor>
CompiledModule::Impl::call(std::string_view name,
                           const std::vector<Tensor> &args) const {
  const FunctionSignature *fn = lookup(name);
  if (!fn)
    throw InvalidArgumentError("call: no public function @" +
                               std::string(name) + " in the compiled module");
  llvm::SmallVector<const Tensor *, 16> pointers;
  for (const Tensor &t : args)
    pointers.push_back(&t);
  std::vector<Tensor> results(fn->results.size());
  callInto(*fn, pointers.data(), pointers.size(), results.data(),
           /*validated=*/false);
  return results;
}

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

CompiledModule::CompiledModule(std::shared_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

bool CompiledModule::from_cache() const { return impl_->fromCache; }

std::vector<std::string> CompiledModule::functions() const {
  return impl_->functionNames;
}

std::vector<Tensor>
CompiledModule::call(std::string_view function,
                     const std::vector<Tensor> &args) const {
  return impl_->call(function, args);
}

std::string CompiledModule::ir(std::string_view stage) const {
  auto it = impl_->stages.find(stage);
  if (it == impl_->stages.end())
    throw InvalidArgumentError(
        "CompiledModule::ir: unknown stage '" + std::string(stage) +
        "' (expected tfc, optimized, llvm-dialect or llvm)");
  return it->second;
}
