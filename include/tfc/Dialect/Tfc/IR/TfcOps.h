//===- TfcOps.h - tfc operations --------------------------------*- C++ -*-===//
#ifndef TFC_DIALECT_TFC_IR_TFCOPS_H
#define TFC_DIALECT_TFC_IR_TFCOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tfc/Dialect/Tfc/IR/TfcDialect.h"

#include "tfc/Dialect/Tfc/IR/TfcOpsEnums.h.inc"
#include "tfc/Dialect/Tfc/IR/TfcInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOpsAttrs.h.inc"

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOps.h.inc"

#endif // TFC_DIALECT_TFC_IR_TFCOPS_H
