//===- TfcDialect.cpp - The tfc dialect -------------------------*- C++ -*-===//
#include "tfc/Dialect/Tfc/IR/TfcDialect.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tfc;

#include "tfc/Dialect/Tfc/IR/TfcOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOpsTypes.cpp.inc"

void TfcDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfc/Dialect/Tfc/IR/TfcOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfc/Dialect/Tfc/IR/TfcOpsTypes.cpp.inc"
      >();
}

Operation *TfcDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
