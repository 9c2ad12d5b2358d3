//===- TfcOps.h - tfc operations --------------------------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The C++ classes of every tfc op (generated from TfcOps.td), the side-effect
// resources they use, and small helpers for building ops with normalized axes.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_DIALECT_TFC_IR_TFCOPS_H
#define TFC_DIALECT_TFC_IR_TFCOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tfc/Dialect/Tfc/IR/TfcDialect.h"

namespace mlir::tfc {

/// The storage behind `!tfc.var` handles: `tfc.var_read` reads it,
/// `tfc.var_assign*` write it. Keeping it apart from the default resource
/// lets passes move variable accesses across prints and vice versa.
struct VariableResource : public SideEffects::Resource::Base<VariableResource> {
  StringRef getName() final { return "tfc::VariableResource"; }
};

/// The program's observable output stream, written by `tfc.print` and
/// `tfc.assert`, so they are never erased or reordered among themselves.
struct OutputResource : public SideEffects::Resource::Base<OutputResource> {
  StringRef getName() final { return "tfc::OutputResource"; }
};

/// The replicas' collective channel, used by `tfc.all_reduce`: every
/// replica must issue collectives in the same order, so they are never
/// erased, duplicated or reordered among themselves.
struct CollectiveResource
    : public SideEffects::Resource::Base<CollectiveResource> {
  StringRef getName() final { return "tfc::CollectiveResource"; }
};

/// Normalizes a list of possibly negative (Python-style) axes for a tensor of
/// rank `rank`: each axis `a` in `[-rank, rank)` becomes `a mod rank`, and the
/// list is sorted and de-duplicated, as reduction and squeeze attributes
/// require. Fails if an axis is out of range.
FailureOr<SmallVector<int64_t>> normalizeAxes(ArrayRef<int64_t> axes,
                                              int64_t rank);

/// Normalizes one possibly negative axis into `[0, bound)`, where `bound` is
/// the rank (or rank + 1 for `tfc.expand_dims`). Fails if out of range.
FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t bound);

/// Reductions a `tfc.fusion` of kind `input` may end in.
bool isFusibleReduction(Operation *op);

namespace detail {
/// Verifier of `ElementwiseOpInterface`: every ranked tensor operand and
/// result has a shape compatible with operand #0's.
LogicalResult verifyElementwiseOp(Operation *op);
} // namespace detail

} // namespace mlir::tfc

#include "tfc/Dialect/Tfc/IR/TfcInterfaces.h.inc"
#include "tfc/Dialect/Tfc/IR/TfcOpsEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOpsAttrs.h.inc"

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOps.h.inc"

namespace mlir::tfc {

/// Creates an `OpTy` with the given result types and verifies it. On failure
/// the diagnostics go to the context's handlers (with `loc`), the op is
/// erased and failure is returned. Use this, not the ODS builders alone, when
/// the operands come from user input: it never aborts.
template <typename OpTy>
FailureOr<OpTy> createChecked(OpBuilder &builder, Location loc,
                              TypeRange resultTypes, ValueRange operands,
                              ArrayRef<NamedAttribute> attributes = {}) {
  auto op = OpTy::create(builder, loc, resultTypes, operands, attributes);
  if (succeeded(mlir::verify(op)))
    return op;
  op->erase();
  return failure();
}

/// Like the overload above for ops that infer their result types. The ODS
/// builders of such ops call `report_fatal_error` when inference fails (say,
/// a matmul of mismatched shapes); this emits the inference error at `loc`
/// and returns failure instead.
template <typename OpTy>
FailureOr<OpTy> createChecked(OpBuilder &builder, Location loc,
                              ValueRange operands,
                              ArrayRef<NamedAttribute> attributes = {}) {
  MLIRContext *context = builder.getContext();
  DictionaryAttr dict = DictionaryAttr::get(context, attributes);
  typename OpTy::Properties properties;
  if (failed(OpTy::setPropertiesFromAttr(properties, dict,
                                         [&] { return mlir::emitError(loc); })))
    return failure();
  SmallVector<Type> resultTypes;
  if (failed(OpTy::inferReturnTypes(context, loc, operands, dict,
                                    OpaqueProperties(&properties),
                                    RegionRange(), resultTypes)))
    return failure();
  return createChecked<OpTy>(builder, loc, resultTypes, operands, attributes);
}

} // namespace mlir::tfc

#endif // TFC_DIALECT_TFC_IR_TFCOPS_H
