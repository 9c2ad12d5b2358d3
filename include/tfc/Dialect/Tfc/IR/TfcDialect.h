//===- TfcDialect.h - The tfc dialect ---------------------------*- C++ -*-===//
#ifndef TFC_DIALECT_TFC_IR_TFCDIALECT_H
#define TFC_DIALECT_TFC_IR_TFCDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "tfc/Dialect/Tfc/IR/TfcOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOpsTypes.h.inc"

#endif // TFC_DIALECT_TFC_IR_TFCDIALECT_H
