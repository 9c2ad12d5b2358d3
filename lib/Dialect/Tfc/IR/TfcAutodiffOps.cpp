//===- TfcAutodiffOps.cpp - verifiers of the tfc-autodiff ops ------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Hand-written parts of the ops in TfcAutodiffOps.td: `!tfc.stack`,
// `tfc.grad` and `tfc.custom_gradient`. The generated classes are compiled
// in TfcOps.cpp with the rest of the dialect.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::tfc;

static bool isTfcElement(Type t) {
  return t.isInteger(1) || t.isInteger(32) || t.isInteger(64) || t.isF32() ||
         t.isF64();
}

static bool isFloatTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

//===----------------------------------------------------------------------===//
// StackType
//===----------------------------------------------------------------------===//

LogicalResult StackType::verify(function_ref<InFlightDiagnostic()> emitError,
                                RankedTensorType elementType) {
  if (!elementType)
    return emitError() << "expected a ranked tensor element type";
  if (!isTfcElement(elementType.getElementType()))
    return emitError() << "expected a tensor of i1, i32, i64, f32 or f64 but "
                          "got "
                       << elementType;
  // Entries are copied by size; the JIT's runtime stack needs it fixed.
  if (!elementType.hasStaticShape())
    return emitError() << "expected a statically shaped element type but got "
                       << elementType;
  return success();
}

//===----------------------------------------------------------------------===//
// GradOp
//===----------------------------------------------------------------------===//

LogicalResult GradOp::verify() {
  ArrayRef<int64_t> wrt = getWrt();
  if (wrt.size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " results but "
                         << wrt.size() << " entries in wrt";
  for (auto [i, index] : llvm::enumerate(wrt)) {
    if (index < 0 || index >= static_cast<int64_t>(getNumOperands()))
      return emitOpError() << "wrt entry " << i << " is " << index
                           << ", out of range for " << getNumOperands()
                           << " operands";
    if (llvm::count(wrt, index) != 1)
      return emitOpError() << "lists argument " << index << " twice in wrt";
    Type type = getOperand(index).getType();
    if (!isFloatTensor(type))
      return emitOpError() << "cannot differentiate with respect to argument "
                           << index << " of type " << type
                           << ": gradients are defined only for f32 and f64 "
                              "tensors";
    if (getResult(i).getType() != type)
      return emitOpError() << "result " << i << " has type "
                           << getResult(i).getType()
                           << " but the gradient with respect to argument "
                           << index << " has its type " << type;
  }
  return success();
}

LogicalResult GradOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "'" << getCallee()
                         << "' does not reference a func.func";
  FunctionType type = fn.getFunctionType();
  if (type.getInputs() != getOperandTypes()) {
    auto diag = emitOpError() << "operand types do not match the inputs of @"
                              << getCallee() << ": got (";
    llvm::interleaveComma(getOperandTypes(), diag);
    diag << "), expected " << type;
    return diag;
  }
  if (type.getNumResults() != 1 || !isFloatTensor(type.getResult(0)))
    return emitOpError() << "needs @" << getCallee()
                         << " to return exactly one f32 or f64 tensor, but "
                            "it has type "
                         << type;
  return success();
}

//===----------------------------------------------------------------------===//
// CustomGradientOp
//===----------------------------------------------------------------------===//

/// Checks that `types` (what a region yields or receives) equal `expected`.
static LogicalResult checkTypes(Operation *op, TypeRange types,
                                TypeRange expected, StringRef what) {
  if (types == expected)
    return success();
  auto diag = op->emitOpError() << what << " (";
  llvm::interleaveComma(types, diag);
  diag << ") must be (";
  llvm::interleaveComma(expected, diag);
  return diag << ")";
}

LogicalResult CustomGradientOp::verify() {
  Block &fwd = getForward().front();
  Block &bwd = getBackward().front();
  if (failed(checkTypes(*this, fwd.getArgumentTypes(), getInputs().getTypes(),
                        "forward block argument types")))
    return failure();
  SmallVector<Type> bwdArgs(getInputs().getTypes());
  llvm::append_range(bwdArgs, getResultTypes());
  llvm::append_range(bwdArgs, getResultTypes());
  if (failed(checkTypes(*this, bwd.getArgumentTypes(), bwdArgs,
                        "backward block argument types (inputs, results, "
                        "result adjoints)")))
    return failure();
  auto fwdYield = dyn_cast<CustomYieldOp>(fwd.getTerminator());
  auto bwdYield = dyn_cast<CustomYieldOp>(bwd.getTerminator());
  if (!fwdYield || !bwdYield)
    return emitOpError() << "regions must end in tfc.custom_yield";
  if (failed(checkTypes(*this, fwdYield.getOperandTypes(), getResultTypes(),
                        "forward yield types")))
    return failure();
  return checkTypes(*this, bwdYield.getOperandTypes(), getInputs().getTypes(),
                    "backward yield types (one adjoint per input)");
}
