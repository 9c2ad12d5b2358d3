//===- GradientRunner.h - Eager vs compiled vs finite differences -*- C++
//-*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The gradient half of differential testing (issue 5, item 4). A generated
// program is decoded once from its MLIR into a plain op list and replayed
// through the public API (`detail::dispatch`, the funnel every tfc op goes
// through, with `tfc::cond` / `tfc::while_loop` for the regions), so the same
// program can be run:
// - eagerly under a GradientTape,
// - inside `tfc::function` (the tape in the trace, so the backward pass is
//   compiled),
// - in float64 (every f32 promoted) for central finite differences.
// The gradient of L = sum over float results of reduce_sum(result) with
// respect to every float argument must agree three ways. The forward replay
// is also checked against the JIT on the original module.
//
// Lives in its own library linked against libtfc (the public API), not with
// the static interpreter of TfcProgramGenerator: one process must hold one
// copy of the runtime.
//
// Thread-safety: call from one thread at a time (it parses into the JIT's
// shared MLIRContext under its lock, and tapes are per thread).
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TOOLS_TFCFUZZ_GRADIENTRUNNER_H
#define TFC_TOOLS_TFCFUZZ_GRADIENTRUNNER_H

#include "ProgramGenerator.h"

#include <string>

namespace tfc::fuzz {

struct GradientOptions {
  int optLevel = 2; ///< Of the compiled gradient and the forward JIT run.
  bool fuse = true; ///< FunctionOptions::fuse of the compiled gradient.
  bool finiteDifferences = true;
  /// Leave out the comparisons open gradient bugs of docs/testing.md break
  /// (none is open: G1-G3 are fixed and always compared). Recorded in
  /// GradResult::notes.
  bool avoidKnownBugs = true;
};

enum class GradOutcome {
  Agreed,    ///< Eager, compiled and finite differences agree.
  Disagreed, ///< Some pair differs beyond tolerance (see detail).
  Skipped,   ///< Nothing to differentiate, or not expressible (see detail).
  Error,     ///< Eager replay, tape, trace or compile threw.
};

/// "agreed", "disagreed", "skipped", "error".
const char *gradOutcomeName(GradOutcome outcome);

struct GradResult {
  GradOutcome outcome = GradOutcome::Agreed;
  /// Why it is not Agreed; for Skipped, a short reason usable as a key.
  std::string detail;
  /// Gradient elements compared with finite differences, and those left out
  /// because L is not differentiable there: a perturbation changes an
  /// integer or bool value (a comparison, cast, argmax or loop exit flips),
  /// or the one-sided differences disagree (relu/abs/max at a tie).
  int fdChecked = 0, fdNonSmooth = 0;
  /// Finite differences not run: the float64 program's results differ from
  /// the float32 ones beyond float32 rounding (it takes another path).
  bool fdSkipped = false;
  /// Comparisons left out because of known bugs, "; "-separated.
  std::string notes;
};

/// Runs the three-way gradient check on `program`. Never throws for errors
/// raised by tfc (they become GradOutcome::Error).
GradResult runGradientDifferential(const GeneratedProgram &program,
                                   const GradientOptions &options = {});

} // namespace tfc::fuzz

#endif // TFC_TOOLS_TFCFUZZ_GRADIENTRUNNER_H
