//===- TfcDialect.cpp - The tfc dialect -------------------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Dialect registration, the `!tfc.var` type, constant materialization and
// the inliner interface.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcDialect.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tfc;

#include "tfc/Dialect/Tfc/IR/TfcOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOpsTypes.cpp.inc"

namespace {
/// Lets `func.call`s of functions made of tfc ops be inlined, including into
/// the regions of `tfc.if` and `tfc.while`. tfc ops have no ties to their
/// enclosing function, so every one may move; a callee body may only go into
/// a tfc region if it is a single block, since those regions have one block.
struct TfcInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *call, Operation *callable,
                       bool wouldBeCloned) const final {
    return true;
  }
  bool isLegalToInline(Region *dest, Region *src, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return src->hasOneBlock();
  }
  bool isLegalToInline(Operation *op, Region *dest, bool wouldBeCloned,
                       IRMapping &valueMapping) const final {
    return true;
  }
};
} // namespace

void TfcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfc/Dialect/Tfc/IR/TfcOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfc/Dialect/Tfc/IR/TfcOpsTypes.cpp.inc"
      >();
  addInterfaces<TfcInlinerInterface>();
}

Operation *TfcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

LogicalResult VarType::verify(function_ref<InFlightDiagnostic()> emitError,
                              RankedTensorType valueType) {
  if (!valueType)
    return emitError() << "expected a ranked tensor value type";
  Type element = valueType.getElementType();
  if (!element.isInteger(1) && !element.isInteger(32) &&
      !element.isInteger(64) && !element.isF32() && !element.isF64())
    return emitError() << "expected a tensor of i1, i32, i64, f32 or f64 but "
                          "got "
                       << valueType;
  return success();
}
