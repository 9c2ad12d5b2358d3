//===- Interpreter.h - Run tfc IR op by op on the runtime kernels -*- C++
//-*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The reference executor of the tfc dialect (DESIGN.md, "Kernels and the
// interpreter"): walks a `func.func` op by op and runs each tfc op through
// the runtime's one dispatch table (`tfc::execute`). Control flow (`tfc.if`,
// `tfc.while`, `func.call`), variables, `tfc.print` and `tfc.assert` are
// handled here. The JIT is tested against these semantics.
//
// Errors are tfc::Error exceptions; they are never thrown through MLIR frames
// (the interpreter iterates blocks with plain loops, no walk callbacks).
//
// Thread-safety: an Interpreter reads its module and keeps a per-op cache;
// use one Interpreter per thread. The module must outlive the Interpreter
// and must not change while it exists.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_INTERPRETER_INTERPRETER_H
#define TFC_INTERPRETER_INTERPRETER_H

#include "tfc/runtime/Tensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::interpreter {

/// The mutable storage a `!tfc.var<tensor<...>>` argument is bound to. Its
/// value always matches the variable's value type.
struct VariableSlot {
  Tensor value;
};
using VariableRef = std::shared_ptr<VariableSlot>;

/// A run-time value: a tensor, or a reference to a variable (the value of a
/// `!tfc.var` SSA value).
using RuntimeValue = std::variant<Tensor, VariableRef>;

/// What `Interpreter::runWithInitialValues` returns.
struct RunResult {
  /// The function's results, in order.
  std::vector<Tensor> results;
  /// For each `!tfc.var` parameter, in parameter order: its position among
  /// the parameters and its value when the function returned.
  std::vector<std::pair<unsigned, Tensor>> variables;
};

/// Runs functions of one verified tfc module.
class Interpreter {
public:
  /// `module` must have been verified: the interpreter relies on the
  /// verifiers' guarantees (terminators, operand and attribute types).
  explicit Interpreter(mlir::ModuleOp module);
  ~Interpreter();
  Interpreter(const Interpreter &) = delete;
  Interpreter &operator=(const Interpreter &) = delete;

  /// Runs `function` on `args`: a Tensor for each tensor parameter, a
  /// VariableRef for each `!tfc.var` parameter. Assignments go to the slots;
  /// if the call throws, every slot is restored to its value at entry.
  /// Throws InvalidArgumentError for a missing function, arguments that do
  /// not match its signature or a kernel's complaint, RuntimeError for a
  /// failed `tfc.assert`, CompileError for an op it cannot run. Errors
  /// raised by an op carry its source location ` (at file:line)`.
  std::vector<RuntimeValue> run(llvm::StringRef function,
                                llvm::ArrayRef<RuntimeValue> args);

  /// For callers holding tensors only: each `!tfc.var` parameter gets a
  /// fresh slot initialised from its positional tensor, and the final values
  /// come back in RunResult::variables. A `!tfc.var` result is returned as
  /// its variable's current value.
  RunResult runWithInitialValues(llvm::StringRef function,
                                 llvm::ArrayRef<Tensor> args);

  /// The module's public functions that have a body, in order.
  std::vector<std::string> publicFunctions() const;

  class Impl;

private:
  std::unique_ptr<Impl> impl;
};

/// Parses `text` into tfc::sharedContext() and verifies it, holding
/// tfc::contextMutex() meanwhile. `bufferName` names the source in
/// locations. Throws CompileError carrying the MLIR diagnostics (with their
/// locations) when parsing or verification fails. Where other threads use the
/// shared context, destroy the module under tfc::contextMutex() too.
mlir::OwningOpRef<mlir::ModuleOp> parseModule(llvm::StringRef text,
                                              llvm::StringRef bufferName);

/// `file:line` of the first FileLineColLoc inside `loc` (looking through
/// names, call sites and fused locations), or nullopt if there is none.
std::optional<std::string> fileLine(mlir::Location loc);

} // namespace tfc::interpreter
#pragma GCC visibility pop

#endif // TFC_INTERPRETER_INTERPRETER_H
