//===- DifferentialRunner.h - Interpreter vs JIT on one program -*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Runs a generated program through the reference interpreter
// (`tfc::jit::interpret`) and through the JIT (`CompiledModule`), captures
// what each prints, and compares results and printed text. Shared by
// `tfc-difftest` and the TfcDifferentialTests GoogleTest.
//
// Thread-safety: `runDifferential` redirects the runtime's print sink while it
// runs; call it from one thread at a time.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TOOLS_TFCFUZZ_DIFFERENTIALRUNNER_H
#define TFC_TOOLS_TFCFUZZ_DIFFERENTIALRUNNER_H

#include "ProgramGenerator.h"

#include "tfc/JIT/CompiledModule.h"

#include <optional>
#include <string>
#include <vector>

namespace tfc::fuzz {

/// How a differential run ended.
enum class Outcome {
  Agreed,           ///< Same results (within tolerance) and same prints.
  Disagreed,        ///< Both ran; results or printed text differ.
  InterpreterError, ///< The interpreter threw on a well-typed program.
  JitError,         ///< Compiling or running with the JIT threw.
};

/// "agreed", "disagreed", "interpreter error", "jit error".
const char *outcomeName(Outcome outcome);

/// The result of one differential run.
struct DiffResult {
  Outcome outcome = Outcome::Agreed;
  /// Why it is not Agreed: the first differing element, or the error text.
  std::string detail;
  std::vector<Tensor> interpreted; ///< Empty when the interpreter threw.
  std::vector<Tensor> compiled;    ///< Empty when the JIT threw.
  std::vector<std::string> interpretedPrints, compiledPrints;
};

/// Whether two float elements agree under `check` (NaN == NaN, infinities
/// must match, -0 == 0).
bool floatsAgree(double interpreted, double compiled, const ResultCheck &check);

/// Compares the results of the two executors. Returns a description of the
/// first difference (count, dtype, shape or element), or nullopt when they
/// agree. `checks` gives one tolerance per result; missing entries compare
/// exactly.
std::optional<std::string>
compareResults(const std::vector<Tensor> &interpreted,
               const std::vector<Tensor> &compiled,
               const std::vector<ResultCheck> &checks);

/// Runs `program` both ways and compares. Never throws for errors raised by
/// the executors: they become InterpreterError / JitError.
DiffResult runDifferential(const GeneratedProgram &program,
                           const jit::CompileOptions &options = {});

/// A self-contained report of a failing program: the outcome, the detail,
/// both results, and the program with the tfc-run command lines (arguments
/// as literals) that reproduce it, as an .mlir file that tfc-run accepts.
std::string formatReport(const GeneratedProgram &program,
                         const DiffResult &result);

} // namespace tfc::fuzz

#endif // TFC_TOOLS_TFCFUZZ_DIFFERENTIALRUNNER_H
