//===- OpDecoding.h - A tfc op as (OpKind, OpAttrs) -------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The inverse of IRTrace's op building: a tfc kernel op read back as the
// runtime op and attributes the frontend would pass to dispatch. One
// decoder, used by the interpreter (to run the op's kernel), by the gradient
// rules (to run the op's rule at an OpBuilder) and by the fuzzers.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BRIDGE_OPDECODING_H
#define TFC_BRIDGE_OPDECODING_H

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/runtime/Ops.h"

#include <optional>
#include <string>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::bridge {

/// The runtime op of `op`: set for the tfc ops that have a kernel (the op
/// table's set), nullopt for every other op (control flow, variables,
/// stacks, fusions, ops of other dialects).
std::optional<OpKind> kernelOpKind(mlir::Operation *op);

/// A kernel op decoded.
struct DecodedOp {
  OpKind kind = OpKind::Add;
  OpAttrs attrs;
  /// The op is the identity on its operand: reductions and squeeze with no
  /// axes (the dialect's meaning; the runtime's would be "all axes").
  bool identity = false;
};

/// Decodes `op` (a kernel op with one ranked tensor result). Dynamic result
/// dims of reshape/broadcast_to come back as -1 in `attrs.shape`. On
/// malformed IR (a missing attribute, an unsupported element type) returns
/// nullopt and sets `why`.
std::optional<DecodedOp> decodeKernelOp(mlir::Operation *op, std::string &why);

/// The comparison predicates of the dialect and the runtime, one to one.
kernels::CmpPredicate toKernelPredicate(mlir::tfc::CmpPredicate predicate);
mlir::tfc::CmpPredicate toDialectPredicate(kernels::CmpPredicate predicate);

} // namespace tfc::bridge
#pragma GCC visibility pop

#endif // TFC_BRIDGE_OPDECODING_H
