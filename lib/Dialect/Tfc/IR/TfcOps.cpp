//===- TfcOps.cpp - tfc operations ------------------------------*- C++ -*-===//
#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tfc;

#include "tfc/Dialect/Tfc/IR/TfcInterfaces.cpp.inc"
#include "tfc/Dialect/Tfc/IR/TfcOpsEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstantOp::verify() {
  auto type = cast<ShapedType>(getValue().getType());
  if (!type.hasStaticShape())
    return emitOpError("value must have a static shape, got ") << type;
  return success();
}

//===----------------------------------------------------------------------===//
// AddOp
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + 0 -> x
  if (matchPattern(getRhs(), m_Zero()) || matchPattern(getRhs(), m_AnyZeroFloat()))
    return getLhs();
  return {};
}

#define GET_ATTRDEF_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOpsAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOps.cpp.inc"
