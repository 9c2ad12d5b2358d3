//===- ProgramGenerator.h - Random well-typed tfc programs ------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The generator half of differential testing (DESIGN.md, "Tests"): from a
// seed, a random well-typed `func.func @main` in the tfc dialect, its argument
// tensors, and for each result how closely the reference interpreter and the
// JIT must agree.
//
// Two kinds of program come out:
// - ordinary programs: 5-30 ops drawn from every op family (elementwise,
//   cmp/select/cast, broadcast, shape ops, reductions, matmul, argmax,
//   softmax family, one_hot, conv2d and its two gradient ops, tfc.if,
//   tfc.while with a bounded trip count, print, assert) on finite, tame
//   values, some with dims declared `?`;
// - special-value programs: a few float ops applied straight to tensors full
//   of NaN, +-inf, -0 and huge values, compared to a few ulps (NaN == NaN).
//
// A program is a pure function of its seed and the options (for one C++
// standard library: the std:: distributions are implementation-defined).
//
// Numerical tameness is designed in, not hoped for. The generator keeps, for
// every value, a bound on its magnitude and an estimate of how far the two
// executors may drift apart (its "error"):
// - magnitudes stay below a per-dtype limit: integers never wrap, floats
//   never overflow, because operands are clamped (tfc.maximum/minimum with
//   constants) whenever an op could leave the limit;
// - an error of 0 means both executors compute the value bit for bit (inputs,
//   integers, and IEEE-correctly-rounded float ops on exact operands).
//   Discontinuous ops (cmp, float->int casts, floor_div, mod, argmax, the
//   predicates of tfc.if and tfc.while) only ever see exact operands, so a
//   one-ulp difference upstream can never flip a branch;
// - transcendental functions, float sums, matmuls and convolutions (whose
//   rounding or summation order differs between Eigen, OpenBLAS, libm and
//   MLIR's polynomial approximations) add error, propagated to first
//   order. A result's tolerance is derived from its error estimate.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_TOOLS_TFCFUZZ_PROGRAMGENERATOR_H
#define TFC_TOOLS_TFCFUZZ_PROGRAMGENERATOR_H

#include "tfc/runtime/DType.h"
#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfc::fuzz {

/// Knobs of the generator. The defaults are what CI runs.
struct GeneratorOptions {
  int minOps = 5;  ///< Primary ops per program (helpers such as clamps and
  int maxOps = 30; ///< constants come on top), counting nested ones.
  int maxArgs = 4;
  int maxRank = 3; ///< Of the arguments; shape ops may reach rank 4.
  /// Fraction of ordinary programs with one argument replaced by a small
  /// rank-4 float NHWC image (for tfc.conv2d and its gradients).
  double imageArgRate = 0.25;
  int maxDim = 5;
  int maxNesting = 2;   ///< tfc.if / tfc.while inside each other.
  int maxTripCount = 5; ///< Iterations of a tfc.while, at most.
  int maxResults = 6;
  /// Fraction of ordinary programs whose arguments declare dynamic dims
  /// (`?`); ops on them keep the dims the verifier infers, and some ops
  /// (broadcast_to, reshape, cast, select, concat, matmul) introduce `?`
  /// dims in any program.
  double dynamicRate = 0.3;
  /// Fraction of programs that are special-value programs.
  double specialValueRate = 0.1;
  /// Leave out the constructs of the open bugs listed in docs/testing.md
  /// (ordered tfc.cmp on i1 in the interpreter; sin/cos of huge arguments
  /// in the JIT; broadcast_to of a broadcast_to into `?` dims, which the
  /// folder breaks; returning a slice view, which the JIT fails to adopt;
  /// reshapes of values with several `?` dims, which crash MLIR 22's
  /// expand-strided-metadata after fusion; f64 log1p of special values,
  /// which the JIT computes as log(1 + x); f32 sqrt in the interpreter is
  /// treated as a few ulps off), so that CI checks everything else.
  /// tfc-difftest's
  /// --include-known-bugs turns this off to reproduce them.
  bool avoidKnownBugs = true;
};

/// How one result of the program is compared. Integers and bools always
/// compare exactly; floats agree when both are NaN, both are the same
/// infinity, or `|a - b| <= atol + rtol * max(|a|, |b|)`.
struct ResultCheck {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  double atol = 0;
  double rtol = 0;
};

/// One generated test case; everything in it is a pure function of `seed`
/// and the options.
struct GeneratedProgram {
  uint64_t seed = 0;
  /// MLIR text of a module holding one `func.func @main`.
  std::string text;
  /// The arguments of @main, in order.
  std::vector<Tensor> args;
  /// One per result of @main.
  std::vector<ResultCheck> checks;
  /// Whether this is a special-value program.
  bool special = false;
  /// Primary ops generated (helpers excluded).
  int primaryOps = 0;
};

/// Op families rare next to the others: the testers say how many programs
/// held one (and how many of those agreed).
struct OpFamily {
  const char *name;              ///< "conv", "pooling", ...
  std::vector<const char *> ops; ///< Their mnemonics, "tfc.conv2d", ...
  bool in(const std::string &programText) const {
    for (const char *op : ops)
      if (programText.find(op) != std::string::npos)
        return true;
    return false;
  }
};
inline const std::vector<OpFamily> &countedFamilies() {
  static const std::vector<OpFamily> families = {
      {"conv", {"tfc.conv2d"}},
      {"pooling", {"tfc.max_pool2d", "tfc.avg_pool2d"}},
      {"gather", {"tfc.gather", "tfc.unsorted_segment_sum"}},
      {"scan", {"tfc.cumsum", "tfc.top_k_indices"}},
      {"sparse cross entropy", {"tfc.sparse_softmax_cross_entropy"}},
      {"erf", {"tfc.erf"}},
      {"random", {"tfc.philox_random"}}};
  return families;
}

/// Generates the program of `seed`. Never throws for valid options.
GeneratedProgram generateProgram(uint64_t seed,
                                 const GeneratorOptions &options = {});

/// `t` as a tfc-run argument literal (`[[1,2],[3,4]]:f32`), floats printed
/// with enough digits to round-trip; NaN and infinities as `nan`, `inf`.
std::string toTensorLiteral(const Tensor &t);

/// The MLIR element type of `dtype` (`f32`, `i1`, ...).
std::string elementTypeName(DType dtype);

} // namespace tfc::fuzz

#endif // TFC_TOOLS_TFCFUZZ_PROGRAMGENERATOR_H
