//===- AutodiffRules.cpp - The gradient rules, for tfc-autodiff ----------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Defines mlir::tfc::emitGradientRule (Transforms/Autodiff.h): the pass asks
// for the adjoints of one kernel op; this decodes the op into (OpKind,
// OpAttrs), binds its forward values to symbolic tensors of an ExternalTrace
// and calls the rule from GradientRules.cpp, the same function the eager
// tape calls. The rule's ops build IR at the pass's insertion point. Errors
// (thrown by the rules) become diagnostics here: no exception leaves this
// file.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/JIT/JIT.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/runtime/Ops.h"

#include "Internal.h"

#include <exception>

using namespace tfc;
using namespace tfc::detail;
namespace tfcir = mlir::tfc;

namespace {

kernels::CmpPredicate kernelPredicate(tfcir::CmpPredicate predicate) {
  switch (predicate) {
  case tfcir::CmpPredicate::eq:
    return kernels::CmpPredicate::EQ;
  case tfcir::CmpPredicate::ne:
    return kernels::CmpPredicate::NE;
  case tfcir::CmpPredicate::lt:
    return kernels::CmpPredicate::LT;
  case tfcir::CmpPredicate::le:
    return kernels::CmpPredicate::LE;
  case tfcir::CmpPredicate::gt:
    return kernels::CmpPredicate::GT;
  case tfcir::CmpPredicate::ge:
    return kernels::CmpPredicate::GE;
  }
  return kernels::CmpPredicate::EQ;
}

std::vector<int64_t> i64Array(mlir::Operation *op, llvm::StringRef name) {
  auto attr = op->getAttrOfType<mlir::DenseI64ArrayAttr>(name);
  if (!attr)
    throw InvalidArgumentError("missing array attribute '" + name.str() + "'");
  return {attr.asArrayRef().begin(), attr.asArrayRef().end()};
}

int64_t i64(mlir::Operation *op, llvm::StringRef name) {
  auto attr = op->getAttrOfType<mlir::IntegerAttr>(name);
  if (!attr)
    throw InvalidArgumentError("missing integer attribute '" + name.str() +
                               "'");
  return attr.getInt();
}

DType dtypeOf(mlir::Value v) {
  DType dtype = DType::Float32;
  auto type = mlir::cast<mlir::RankedTensorType>(v.getType());
  if (!jit::toDType(type.getElementType(), dtype))
    throw InvalidArgumentError("unsupported element type");
  return dtype;
}

/// The attributes the frontend would have passed to dispatch for `op` (the
/// inverse of the tracer's encoding in Tracing.cpp).
OpAttrs decodeAttrs(mlir::Operation *op, OpKind kind) {
  OpAttrs attrs;
  mlir::Value result = op->getResult(0);
  auto resultType = mlir::cast<mlir::RankedTensorType>(result.getType());
  switch (kind) {
  case OpKind::Cmp:
    attrs.predicate =
        kernelPredicate(mlir::cast<tfcir::CmpOp>(op).getPredicate());
    break;
  case OpKind::Cast:
    attrs.dtype = dtypeOf(result);
    break;
  case OpKind::OneHot:
    attrs.dtype = dtypeOf(result);
    attrs.axis = i64(op, "depth");
    break;
  case OpKind::Reshape:
  case OpKind::BroadcastTo:
    attrs.shape.assign(resultType.getShape().begin(),
                       resultType.getShape().end());
    break;
  case OpKind::Transpose:
    attrs.axes = i64Array(op, "perm");
    break;
  case OpKind::ExpandDims:
  case OpKind::Concat:
  case OpKind::Argmax:
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
    attrs.axis = i64(op, "axis");
    break;
  case OpKind::Squeeze:
    attrs.axes = i64Array(op, "axes");
    break;
  case OpKind::Slice:
    attrs.axes = i64Array(op, "begin");
    attrs.shape = i64Array(op, "size");
    break;
  case OpKind::ReduceSum:
  case OpKind::ReduceMean:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd: {
    attrs.axes = i64Array(op, "axes");
    auto keep = op->getAttrOfType<mlir::BoolAttr>("keepdims");
    attrs.keepdims = keep && keep.getValue();
    break;
  }
  default:
    break;
  }
  return attrs;
}

} // namespace

bool mlir::tfc::hasGradientRule(Operation *op) {
  llvm::StringRef name = op->getName().stripDialect();
  std::optional<OpKind> kind =
      op->getName().getDialectNamespace() == "tfc"
          ? op_kind_from_name(std::string_view(name.data(), name.size()))
          : std::nullopt;
  return kind && gradient_rule(*kind) != nullptr;
}

mlir::FailureOr<llvm::SmallVector<mlir::Value>>
mlir::tfc::emitGradientRule(OpBuilder &builder, Operation *op,
                            ValueRange operands, Value result, Value dy) {
  llvm::StringRef name = op->getName().stripDialect();
  std::optional<OpKind> kind =
      op->getName().getDialectNamespace() == "tfc"
          ? op_kind_from_name(std::string_view(name.data(), name.size()))
          : std::nullopt;
  if (!kind || op->getNumResults() != 1)
    return op->emitOpError("has no gradient rule");
  try {
    OpAttrs attrs = decodeAttrs(op, *kind);
    // Reductions with no axes are the identity in the dialect (the runtime
    // would read "no axes" as "all axes"): the gradient passes through.
    bool identity =
        (*kind == OpKind::Squeeze || *kind == OpKind::ReduceSum ||
         *kind == OpKind::ReduceMean || *kind == OpKind::ReduceMax ||
         *kind == OpKind::ReduceMin || *kind == OpKind::ReduceProd) &&
        attrs.axes.empty();
    if (identity)
      return llvm::SmallVector<Value>{dy};
    ExternalTrace trace(builder, op->getLoc());
    std::vector<Tensor> inputs;
    for (Value v : operands)
      inputs.push_back(trace.bind(v));
    Tensor output = trace.bind(result);
    Tensor dyTensor = trace.bind(dy);
    std::vector<Tensor> grads = apply_gradient_rule(
        *kind, attrs, inputs.data(), inputs.size(), output, dyTensor);
    llvm::SmallVector<Value> values;
    for (size_t i = 0; i < grads.size(); ++i) {
      bool floating = mlir::isa<FloatType>(
          mlir::cast<RankedTensorType>(operands[i].getType()).getElementType());
      values.push_back(grads[i].defined() && floating ? trace.value(grads[i])
                                                      : Value());
    }
    return values;
  } catch (const std::exception &e) {
    return op->emitOpError("gradient rule failed: ") << e.what();
  }
}
