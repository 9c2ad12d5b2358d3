//===- JIT.h - Compile a tfc module and call it (MLIR side) -----*- C++ -*-===//
//
// The MLIR-facing half of the JIT: lowering a ModuleOp through the CPU
// pipeline, ORC compilation (LLJIT, with the persistent object cache of
// CompileCache.h), and calling the
// result with runtime tensors passed as memref descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_JIT_JIT_H
#define TFC_JIT_JIT_H

#include "tfc/JIT/CompiledModule.h"
#include "tfc/runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace llvm::orc {
class LLJIT;
}

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::jit {

/// dtype + shape (-1 for a dynamic dim) of one argument or result.
struct TensorSignature {
  DType dtype;
  std::vector<int64_t> shape;
};
struct FunctionSignature {
  std::string name;
  std::vector<TensorSignature> args, results;
  /// For functions that took `!tfc.var` handles: the argument index of each
  /// variable written, in the order its final value follows the results.
  std::vector<int64_t> writtenVars;
  void (*packed)(void **) = nullptr;
  /// Expanded memref descriptor words (3 + 2 * rank per tensor) of all
  /// arguments and of all results: the call's scratch sizes, fixed per
  /// signature.
  size_t argWords = 0, resultWords = 0;
};

/// What a tfc::function tells the compiler about the trace behind a module,
/// for the TFC_TIMING / TFC_LOG=timing line.
struct TraceInfo {
  int trace = 0;         ///< 1 for the first trace; 0: not from a trace.
  double traceMs = -1.0; ///< Wall time of the trace; < 0: unknown.
};

namespace detail {
/// Collects every diagnostic emitted while alive as "file:line:col: error:
/// msg" lines (notes included).
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &ctx);
  std::string text;

private:
  mlir::ScopedDiagnosticHandler handler;
};

/// With TFC_TIMING=1 or TFC_LOG=timing, one stderr line per compile names
/// the function and gives the wall time of its trace (when a tfc::function
/// traced it) and of each compile stage (like `-mlir-timing`, but across
/// MLIR, LLVM and linking).
class StageTimer {
public:
  StageTimer(mlir::ModuleOp module, const TraceInfo &trace);
  void mark(const char *stage);
  ~StageTimer();

private:
  bool enabled;
  TraceInfo trace;
  std::string label;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  std::vector<
      std::pair<const char *, std::chrono::duration<double, std::milli>>>
      stages;
};

/// Records the signature of each public function of `module` (after
/// tfc-prepare-pipeline) in `impl.functions` / `impl.functionNames`, for
/// every target. Throws CompileError for a non-tensor argument or result.
void readSignatures(mlir::ModuleOp module, CompiledModule::Impl &impl);
} // namespace detail

class __attribute__((visibility("hidden"))) CompiledModule::Impl {
public:
  /// Lowers and compiles `module` (consumed). Throws CompileError.
  /// Lowers and compiles `module` (consumed) for options.target
  /// (lib/JIT/Compile.cpp). Throws CompileError.
  static std::shared_ptr<Impl> compile(mlir::ModuleOp module,
                                       const CompileOptions &options,
                                       const TraceInfo &trace = {});
  /// Target::CPU (lib/JIT/JIT.cpp); `timer` gets one mark per stage.
  static std::shared_ptr<Impl> compileCpu(mlir::ModuleOp module,
                                          const CompileOptions &options,
                                          detail::StageTimer &timer);
  ~Impl();

  std::vector<Tensor> call(std::string_view name,
                           const std::vector<Tensor> &args) const;
  const FunctionSignature *lookup(std::string_view name) const;
  /// Calls a looked-up function on `n` tensors and writes its results into
  /// `results[0 .. fn.results.size())`. `args` were already validated by
  /// the caller when `validated` (the traced-function fast path, whose
  /// signature key checked them). Allocates nothing on the heap besides the
  /// results' shapes.
  void callInto(const FunctionSignature &fn, const Tensor *const *args,
                size_t n, Tensor *results, bool validated) const;

  std::vector<std::string> functionNames;
  std::map<std::string, FunctionSignature, std::less<>> functions;
  std::map<std::string, std::string, std::less<>> stages;
  /// Owns the linked object code; `packed` pointers live as long as it.
  std::unique_ptr<llvm::orc::LLJIT> jit;
  /// The object code came from the persistent compile cache.
  bool fromCache = false;
  /// Target::CUDA: callInto passes arguments in device memory and adopts
  /// results as CUDA tensors (docs/gpu.md, "Memory model").
  Target target = Target::CPU;
  /// CompileOptions::flush_denormals (CPU modules).
  bool flushDenormals = false;
};

namespace detail {
/// The files CompileOptions::dump_dir / TFC_DUMP_DIR receive for one
/// compile: <dir>/<NNNN>-<name>.<index>-<stage>.mlir (or .ll), NNNN a
/// process-wide counter of dumped compiles and <name> the module's first
/// public function (docs/environment.md). Does nothing when no directory
/// is set.
class StageDumper {
public:
  StageDumper(const CompileOptions &options, mlir::ModuleOp module);
  bool enabled() const { return !prefix.empty(); }
  /// MLIR, printed with locations (loc(...)) so source lines show.
  void dump(int index, llvm::StringRef stage, mlir::Operation *op) const;
  /// Text as is (LLVM IR).
  void dump(int index, llvm::StringRef stage, llvm::StringRef text) const;

private:
  std::string prefix; ///< "<dir>/<NNNN>-<name>."; empty when off.
};

/// The name that dumps and timing lines give `module`: its first public
/// function, made safe for a file name ("module" when it has none).
std::string moduleLabel(mlir::ModuleOp module);
} // namespace detail

} // namespace tfc::jit
#pragma GCC visibility pop

#endif // TFC_JIT_JIT_H
