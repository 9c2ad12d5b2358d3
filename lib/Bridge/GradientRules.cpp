//===- GradientRules.cpp - The gradient rules at an OpBuilder -------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Decodes the op into (OpKind, OpAttrs), binds its forward values to
// symbolic tensors of an IRTrace at the builder and calls the rule, the same
// function the eager tape calls. Errors (thrown by the rules) become
// diagnostics here: no exception leaves this file.
//
//===----------------------------------------------------------------------===//
#include "tfc/Bridge/GradientRules.h"

#include "tfc/Bridge/IRTrace.h"
#include "tfc/Bridge/OpDecoding.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/runtime/Error.h"

#include <exception>

namespace tfc::bridge {

namespace {
/// An IRTrace for one rule: every op at the differentiated op's location.
/// Gradient rules read no variables; one that tried would be a bug here.
class RuleTrace : public IRTrace {
public:
  RuleTrace(mlir::OpBuilder &at, mlir::Location loc) : IRTrace(at) {
    setFixedLocation(loc);
    install();
  }
  Tensor var_read(const std::shared_ptr<detail::VariableState> &) override {
    throw InvalidArgumentError("a gradient rule read a variable");
  }
  void var_assign(const std::shared_ptr<detail::VariableState> &,
                  detail::AssignKind, const Tensor &) override {
    throw InvalidArgumentError("a gradient rule wrote a variable");
  }
};
} // namespace

bool hasGradientRule(mlir::Operation *op) {
  std::optional<OpKind> kind = kernelOpKind(op);
  return kind && detail::gradient_rule(*kind) != nullptr;
}

mlir::FailureOr<llvm::SmallVector<mlir::Value>>
emitGradientRule(mlir::OpBuilder &builder, mlir::Operation *op,
                 mlir::ValueRange operands, mlir::Value result,
                 mlir::Value dy) {
  std::string why;
  std::optional<DecodedOp> decoded = decodeKernelOp(op, why);
  if (!decoded)
    return op->emitOpError("has no gradient rule: ") << why;
  if (decoded->identity)
    return llvm::SmallVector<mlir::Value>{dy};
  try {
    RuleTrace trace(builder, op->getLoc());
    std::vector<Tensor> inputs;
    for (mlir::Value v : operands)
      inputs.push_back(trace.bind(v));
    Tensor output = trace.bind(result);
    Tensor dyTensor = trace.bind(dy);
    std::vector<Tensor> grads = detail::apply_gradient_rule(
        decoded->kind, decoded->attrs, inputs.data(), inputs.size(), output,
        dyTensor);
    llvm::SmallVector<mlir::Value> values;
    for (size_t i = 0; i < grads.size(); ++i) {
      bool floating = mlir::isa<mlir::FloatType>(
          mlir::cast<mlir::RankedTensorType>(operands[i].getType())
              .getElementType());
      values.push_back(grads[i].defined() && floating
                           ? trace.value(grads[i], "gradient")
                           : mlir::Value());
    }
    return values;
  } catch (const std::exception &e) {
    return op->emitOpError("gradient rule failed: ") << e.what();
  }
}

} // namespace tfc::bridge
