//===- JIT.h - Compile a tfc module and call it (MLIR side) -----*- C++ -*-===//
//
// The MLIR-facing half of the JIT: lowering a ModuleOp through the CPU
// pipeline, ORC compilation through mlir::ExecutionEngine, and calling the
// result with runtime tensors passed as memref descriptors.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_JIT_JIT_H
#define TFC_JIT_JIT_H

#include "tfc/JIT/CompiledModule.h"
#include "tfc/runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace mlir {
class ExecutionEngine;
}

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
};

/// Maps an MLIR element type to a DType; false if unsupported.
bool toDType(mlir::Type elementType, DType &out);

class CompiledModule::Impl {
public:
  /// Lowers and compiles `module` (consumed). Throws CompileError.
  static std::shared_ptr<Impl> compile(mlir::ModuleOp module,
                                       const CompileOptions &options);
  ~Impl();

  std::vector<Tensor> call(std::string_view name,
                           const std::vector<Tensor> &args) const;
  const FunctionSignature *lookup(std::string_view name) const;
  /// Calls a looked-up function; `args` already validated by the caller when
  /// `validated` (the traced-function fast path).
  void callInto(const FunctionSignature &fn, const Tensor *args, size_t n,
                std::vector<Tensor> &results, bool validated) const;

  std::vector<std::string> functionNames;
  std::map<std::string, FunctionSignature, std::less<>> functions;
  std::map<std::string, std::string, std::less<>> stages;
  std::unique_ptr<mlir::ExecutionEngine> engine;
};

/// The MLIRContext used by the JIT and the tracer: every dialect and
/// interface registered, multithreading off (compiles are small).
mlir::MLIRContext &sharedContext();
/// Held (recursively) by everything that builds or parses IR in the shared
/// context: it is created with threading off, so uniquing is unlocked.
std::recursive_mutex &contextMutex();

} // namespace tfc::jit

#endif // TFC_JIT_JIT_H
