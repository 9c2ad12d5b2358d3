//===- IRTrace.cpp - Build tfc IR from dispatched ops ---------------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The op-building half of tracing, moved out of the frontend so the
// autodiff pass can run the gradient rules without the user API. Result
// types are computed from the operands as the runtime computes them; every
// op is verified as it is built and a verifier message becomes an
// InvalidArgumentError naming the op, the types and the user's line.
//
//===----------------------------------------------------------------------===//
#include "tfc/Bridge/IRTrace.h"

#include "tfc/Bridge/OpDecoding.h"
#include "tfc/Bridge/Types.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Kernels.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace tfc;
using namespace tfc::detail;

namespace tfc::bridge {

namespace {
/// The mlir::Value behind a symbolic tensor.
struct TracedValue : SymbolicValue {
  TracedValue(mlir::Value v, const IRTrace *t) : value(v), trace(t) {}
  std::string describe() const override {
    if (mlir::Operation *op = value.getDefiningOp())
      return "traced " + op->getName().getStringRef().str();
    return "traced argument";
  }
  mlir::Value value;
  const IRTrace *trace;
};
} // namespace

std::pair<const IRTrace *, mlir::Value> IRTrace::traced(const Tensor &t) {
  if (!t.defined() || !t.is_symbolic())
    return {nullptr, {}};
  auto *v = dynamic_cast<TracedValue *>(t.symbolic_value());
  if (!v)
    return {nullptr, {}};
  return {v->trace, v->value};
}

IRTrace::IRTrace(mlir::OpBuilder &at)
    : ctx(at.getContext()), builder(at.getContext()) {
  builder.setInsertionPoint(at.getInsertionBlock(), at.getInsertionPoint());
}

IRTrace::IRTrace(mlir::MLIRContext *context) : ctx(context), builder(context) {}

IRTrace::~IRTrace() { restoreHook(); }

void IRTrace::install() {
  if (!installed) {
    previousHook = set_active_trace_hook(this);
    installed = true;
  }
}

void IRTrace::restoreHook() {
  if (installed) {
    set_active_trace_hook(previousHook);
    installed = false;
  }
}

Tensor IRTrace::op(OpKind kind, const Tensor *inputs, size_t n,
                   const OpAttrs &attrs, const std::source_location &loc) {
  return buildOp(kind, inputs, n, attrs, loc);
}

Tensor IRTrace::constant(const Tensor &value) {
  return symbolic(constantValue(value, builder.getUnknownLoc()));
}

void IRTrace::print(std::string_view label,
                    const std::vector<Tensor> &tensors) {
  llvm::SmallVector<mlir::Value> values;
  for (const Tensor &t : tensors)
    values.push_back(toValue(t, "print"));
  mlir::tfc::PrintOp::create(builder, builder.getUnknownLoc(),
                             llvm::StringRef(label.data(), label.size()),
                             values);
}

void IRTrace::assert_true(const Tensor &pred, std::string_view message,
                          const std::source_location &loc) {
  mlir::Value p = toValue(pred, "assert_true");
  p = reduceAll(p, location(loc));
  mlir::tfc::AssertOp::create(
      builder, location(loc), p,
      builder.getStringAttr(llvm::StringRef(message.data(), message.size())));
}

std::vector<Tensor>
IRTrace::cond(const Tensor &pred,
              const std::function<std::vector<Tensor>()> &thenFn,
              const std::function<std::vector<Tensor>()> &elseFn,
              const std::source_location &srcLoc) {
  if (!pred.is_symbolic())
    return pred.item<bool>() ? thenFn() : elseFn();
  mlir::Location loc = location(srcLoc);
  mlir::Value p = toValue(pred, "cond");
  // Trace both branches into the regions of a result-less placeholder, so
  // values from the enclosing scope stay visible, then rebuild with the
  // result types the branches produced.
  auto placeholder =
      mlir::tfc::IfOp::create(builder, loc, mlir::TypeRange(), p);
  llvm::SmallVector<mlir::Value> branchValues[2];
  std::vector<Tensor> branchOuts[2];
  const std::function<std::vector<Tensor>()> *fns[2] = {&thenFn, &elseFn};
  for (int b = 0; b < 2; ++b) {
    mlir::Block *block = new mlir::Block();
    placeholder->getRegion(b).push_back(block);
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(block);
    branchOuts[b] = (*fns[b])();
    for (const Tensor &t : branchOuts[b])
      branchValues[b].push_back(toValue(t, "cond"));
  }
  if (branchValues[0].size() != branchValues[1].size())
    throw InvalidArgumentError(
        "cond: true_fn returns " + std::to_string(branchValues[0].size()) +
        " tensors but false_fn returns " +
        std::to_string(branchValues[1].size()) + location_suffix(srcLoc));
  llvm::SmallVector<mlir::Type> types;
  for (size_t i = 0; i < branchValues[0].size(); ++i) {
    mlir::Type a = branchValues[0][i].getType();
    mlir::Type b = branchValues[1][i].getType();
    if (a != b)
      throw InvalidArgumentError("cond: output " + std::to_string(i) + " is " +
                                 describeTensor(branchOuts[0][i]) +
                                 " in true_fn but " +
                                 describeTensor(branchOuts[1][i]) +
                                 " in false_fn" + location_suffix(srcLoc));
    types.push_back(a);
  }
  for (int b = 0; b < 2; ++b) {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(&placeholder->getRegion(b).front());
    mlir::tfc::YieldOp::create(builder, loc, branchValues[b]);
  }
  builder.setInsertionPoint(placeholder);
  auto ifOp = mlir::tfc::IfOp::create(builder, loc, types, p);
  ifOp->getRegion(0).takeBody(placeholder->getRegion(0));
  ifOp->getRegion(1).takeBody(placeholder->getRegion(1));
  placeholder.erase();
  builder.setInsertionPointAfter(ifOp);
  std::vector<Tensor> results;
  for (mlir::Value r : ifOp->getResults())
    results.push_back(symbolic(r));
  return results;
}

Tensor IRTrace::custom_gradient(
    const std::vector<Tensor> &inputs, const Tensor &value,
    const std::function<std::vector<Tensor>(const Tensor &)> &backward) {
  mlir::Value v = toValue(value, "custom_gradient");
  auto resultType = mlir::cast<mlir::RankedTensorType>(v.getType());
  if (!mlir::isa<mlir::FloatType>(resultType.getElementType()))
    return value; // no gradient flows through it anyway
  mlir::Location loc = v.getLoc();
  llvm::SmallVector<mlir::Value> operands;
  for (const Tensor &t : inputs)
    operands.push_back(toValue(t, "custom_gradient"));
  operands.push_back(v);
  auto op = mlir::tfc::CustomGradientOp::create(
      builder, loc, mlir::TypeRange{resultType}, operands);
  mlir::Region &bwdRegion = op.getBackward();
  mlir::Block *bwd = new mlir::Block();
  bwdRegion.push_back(bwd);
  for (mlir::Value o : operands)
    bwd->addArgument(o.getType(), loc);
  bwd->addArgument(resultType, loc); // the result
  bwd->addArgument(resultType, loc); // its adjoint
  llvm::SmallVector<mlir::Value> grads;
  auto fail = [&](const std::string &why) {
    op.erase();
    return InvalidArgumentError("custom_gradient: " + why);
  };
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(bwd);
    std::vector<Tensor> out = backward(symbolic(bwd->getArguments().back()));
    if (out.size() != inputs.size())
      throw fail("the backward function returned " +
                 std::to_string(out.size()) + " gradients for " +
                 std::to_string(inputs.size()) + " inputs");
    for (size_t i = 0; i < out.size(); ++i) {
      if (!out[i].defined()) {
        grads.push_back({});
        continue;
      }
      mlir::Value g = toValue(out[i], "custom_gradient");
      if (g.getType() != operands[i].getType())
        throw fail("the backward function returned a gradient of type " +
                   describeTensor(out[i]) + " for input " + std::to_string(i) +
                   ", which is " + describeTensor(inputs[i]));
      grads.push_back(g);
    }
  }
  auto outside = [&](mlir::Value x) {
    return !bwdRegion.isAncestor(x.getParentRegion());
  };
  // A Variable the backward reads is read just before the op instead (its
  // handle cannot be an operand; nothing writes it in between).
  llvm::SmallVector<mlir::tfc::VarReadOp> reads;
  bwd->walk([&](mlir::tfc::VarReadOp read) {
    if (outside(read->getOperand(0)))
      reads.push_back(read);
  });
  for (mlir::tfc::VarReadOp read : reads)
    read->moveBefore(op);
  // Outer values the backward reads (tensors its closure captured) become
  // operands: the op is isolated from above.
  llvm::SetVector<mlir::Value> captures;
  bwd->walk([&](mlir::Operation *inner) {
    for (mlir::Value x : inner->getOperands())
      if (outside(x))
        captures.insert(x);
  });
  for (mlir::Value g : grads)
    if (g && outside(g))
      captures.insert(g);
  size_t firstCapture = operands.size();
  for (auto [k, captured] : llvm::enumerate(captures)) {
    mlir::Value c = captured;
    op->insertOperands(op->getNumOperands(), c);
    mlir::BlockArgument arg =
        bwd->insertArgument(firstCapture + k, c.getType(), loc);
    c.replaceUsesWithIf(arg, [&](mlir::OpOperand &use) {
      return bwdRegion.isAncestor(use.getOwner()->getParentRegion());
    });
    for (mlir::Value &g : grads)
      if (g == c)
        g = arg;
    operands.push_back(c);
  }
  {
    // One adjoint per operand: the backward's for the inputs, zeros for
    // `value` (its forward ops get no gradient through here) and captures.
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(bwd);
    llvm::SmallVector<mlir::Value> yields;
    for (size_t i = 0; i < operands.size(); ++i) {
      if (i < grads.size() && grads[i]) {
        yields.push_back(grads[i]);
        continue;
      }
      auto type = mlir::cast<mlir::RankedTensorType>(operands[i].getType());
      if (!type.hasStaticShape())
        throw fail("a traced custom_gradient needs static shapes (operand " +
                   std::to_string(i) + " is " + shape_to_string(shapeOf(type)) +
                   ")");
      yields.push_back(mlir::tfc::ConstantOp::create(
          builder, loc, type,
          mlir::DenseElementsAttr::get(
              type, builder.getZeroAttr(type.getElementType()))));
    }
    mlir::tfc::CustomYieldOp::create(builder, loc, yields);
  }
  mlir::Block *fwd = new mlir::Block();
  op.getForward().push_back(fwd);
  for (mlir::Value o : operands)
    fwd->addArgument(o.getType(), loc);
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(fwd);
    mlir::tfc::CustomYieldOp::create(
        builder, loc, mlir::ValueRange{fwd->getArgument(inputs.size())});
  }
  return symbolic(op->getResult(0));
}

std::vector<Tensor> IRTrace::while_loop(
    const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
    const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
        &bodyFn,
    const std::vector<Tensor> &loopVars, int64_t maximumIterations,
    const std::source_location &srcLoc) {
  mlir::Location loc = location(srcLoc);
  llvm::SmallVector<mlir::Value> inits;
  for (const Tensor &t : loopVars)
    inits.push_back(toValue(t, "while_loop"));
  bool counted = maximumIterations >= 0;
  auto counterType =
      mlir::RankedTensorType::get({}, builder.getIntegerType(64));
  if (counted)
    inits.push_back(scalarConstant(counterType, 0, loc));
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<mlir::Location> locs;
  for (mlir::Value v : inits) {
    types.push_back(v.getType());
    locs.push_back(loc);
  }
  auto whileOp = mlir::tfc::WhileOp::create(builder, loc, types, inits);
  mlir::Block *before = new mlir::Block();
  whileOp->getRegion(0).push_back(before);
  before->addArguments(types, locs);
  mlir::Block *after = new mlir::Block();
  whileOp->getRegion(1).push_back(after);
  after->addArguments(types, locs);
  size_t nUser = loopVars.size();
  auto userArgs = [&](mlir::Block *block) {
    std::vector<Tensor> args;
    for (size_t i = 0; i < nUser; ++i)
      args.push_back(symbolic(block->getArgument(i)));
    return args;
  };
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(before);
    Tensor c = condFn(userArgs(before));
    check_bool_scalar("while_loop", c, srcLoc);
    mlir::Value cv = toValue(c, "while_loop");
    if (counted) {
      mlir::Value limit = scalarConstant(counterType, maximumIterations, loc);
      mlir::Value below = mlir::tfc::CmpOp::create(
          builder, loc, mlir::RankedTensorType::get({}, builder.getI1Type()),
          mlir::tfc::CmpPredicate::lt, before->getArguments().back(), limit);
      cv = mlir::tfc::LogicalAndOp::create(builder, loc, cv, below);
    }
    mlir::tfc::ConditionOp::create(builder, loc, cv, before->getArguments());
  }
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToEnd(after);
    std::vector<Tensor> argsIn = userArgs(after);
    std::vector<Tensor> outs = bodyFn(argsIn);
    check_loop_vars(loopVars, outs, srcLoc);
    llvm::SmallVector<mlir::Value> yields;
    for (const Tensor &t : outs)
      yields.push_back(toValue(t, "while_loop"));
    if (counted) {
      mlir::Value one = scalarConstant(counterType, 1, loc);
      yields.push_back(mlir::tfc::AddOp::create(
          builder, loc, after->getArguments().back(), one));
    }
    mlir::tfc::YieldOp::create(builder, loc, yields);
  }
  std::vector<Tensor> results;
  for (size_t i = 0; i < nUser; ++i)
    results.push_back(symbolic(whileOp->getResult(i)));
  return results;
}

Tensor IRTrace::symbolic(mlir::Value v) {
  auto type = mlir::cast<mlir::RankedTensorType>(v.getType());
  DType dt = toDType(type.getElementType()).value_or(DType::Float32);
  return Tensor::symbolic(dt, shapeOf(type),
                          std::make_shared<TracedValue>(v, this));
}

mlir::Location IRTrace::location(const std::source_location &loc) {
  if (fixedLocation) // tfc-autodiff: the differentiated op's location
    return *fixedLocation;
  if (!loc.file_name() || !*loc.file_name() || loc.line() == 0)
    return builder.getUnknownLoc();
  return mlir::FileLineColLoc::get(ctx, loc.file_name(), loc.line(),
                                   loc.column());
}

std::string IRTrace::describeTensor(const Tensor &t) {
  return std::string(to_string(t.dtype())) + " " + shape_to_string(t.shape());
}

mlir::Value IRTrace::scalarConstant(mlir::RankedTensorType type, int64_t v,
                                    mlir::Location loc) {
  auto attr = mlir::DenseElementsAttr::get(
      type, builder.getIntegerAttr(type.getElementType(), v));
  return mlir::tfc::ConstantOp::create(builder, loc, type, attr);
}

mlir::Value IRTrace::constantValue(const Tensor &t, mlir::Location loc) {
  auto type = tensorType(ctx, t.dtype(), t.shape());
  mlir::DenseElementsAttr attr;
  switch (t.dtype()) {
  case DType::Bool: {
    std::vector<bool> v = t.to_vector<bool>();
    llvm::SmallVector<bool> bits(v.begin(), v.end());
    attr = mlir::DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
    break;
  }
  case DType::Int32:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<int32_t>(t.data<int32_t>(), t.numel()));
    break;
  case DType::Int64:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<int64_t>(t.data<int64_t>(), t.numel()));
    break;
  case DType::Float32:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<float>(t.data<float>(), t.numel()));
    break;
  case DType::Float64:
    attr = mlir::DenseElementsAttr::get(
        type, llvm::ArrayRef<double>(t.data<double>(), t.numel()));
    break;
  }
  return mlir::tfc::ConstantOp::create(builder, loc, type, attr);
}

/// The IR value of `t` at the insertion point: a traced value of this
/// session that is in scope, or a constant for a concrete tensor.
mlir::Value IRTrace::toValue(const Tensor &t, std::string_view what) {
  if (!t.defined())
    throw InvalidArgumentError(std::string(what) +
                               ": got an undefined tensor while tracing");
  if (!t.is_symbolic())
    return constantValue(t, builder.getUnknownLoc());
  auto *traced = dynamic_cast<TracedValue *>(t.symbolic_value());
  if (!traced || traced->trace != this)
    throw InvalidArgumentError(
        std::string(what) +
        ": a symbolic tensor from another trace was used in this one (a "
        "traced tensor escaped its tfc::function)");
  mlir::Region *here = builder.getInsertionBlock()->getParent();
  mlir::Region *defined = traced->value.getParentRegion();
  if (!defined->isAncestor(here))
    throw InvalidArgumentError(
        std::string(what) +
        ": a tensor computed inside a cond/while_loop branch was used "
        "outside that branch; return it from the branch instead");
  return traced->value;
}

/// A rank-0 "all true" of a bool tensor (assert_true takes any shape).
mlir::Value IRTrace::reduceAll(mlir::Value p, mlir::Location loc) {
  auto type = mlir::cast<mlir::RankedTensorType>(p.getType());
  if (type.getRank() == 0)
    return p;
  // all(p) == (min over p cast to i32) != 0
  auto i32 = builder.getIntegerType(32);
  mlir::Value asInt =
      mlir::tfc::CastOp::create(builder, loc, type.clone(i32), p);
  llvm::SmallVector<int64_t> axes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    axes.push_back(i);
  auto scalarI32 = mlir::RankedTensorType::get({}, i32);
  mlir::Value m = mlir::tfc::ReduceMinOp::create(builder, loc, scalarI32, asInt,
                                                 axes, false);
  return mlir::tfc::CastOp::create(
      builder, loc, mlir::RankedTensorType::get({}, builder.getI1Type()), m);
}

namespace {
/// The result types of `state` from its op's InferTypeOpInterface, as
/// MLIR's C API infers them (mlirOperationStateEnableResultTypeInference):
/// attributes are converted to the op's properties first.
mlir::LogicalResult inferResultTypes(mlir::OperationState &state) {
  std::optional<mlir::RegisteredOperationName> info =
      state.name.getRegisteredInfo();
  auto *infer =
      info ? info->getInterface<mlir::InferTypeOpInterface>() : nullptr;
  if (!infer)
    return mlir::emitError(state.location)
           << state.name << " does not infer its result type";
  mlir::MLIRContext *ctx = state.getContext();
  mlir::DictionaryAttr attributes = state.attributes.getDictionary(ctx);
  mlir::OpaqueProperties properties = state.getRawProperties();
  std::unique_ptr<char[]> storage;
  if (!properties && info->getOpPropertyByteSize() > 0) {
    storage = std::make_unique<char[]>(info->getOpPropertyByteSize());
    properties = mlir::OpaqueProperties(storage.get());
    info->initOpProperties(properties, mlir::OpaqueProperties(nullptr));
    auto emitError = [&] { return mlir::emitError(state.location); };
    if (mlir::failed(info->setOpPropertiesFromAttribute(
            state.name, properties, attributes, emitError))) {
      info->destroyOpProperties(properties);
      return mlir::failure();
    }
  }
  mlir::LogicalResult result =
      infer->inferReturnTypes(ctx, state.location, state.operands, attributes,
                              properties, state.regions, state.types);
  if (storage)
    info->destroyOpProperties(properties);
  return result;
}
} // namespace

mlir::Value IRTrace::buildKernelOp(
    OpKind kind, llvm::ArrayRef<mlir::Value> operands, mlir::Location loc,
    llvm::ArrayRef<mlir::NamedAttribute> attrs, mlir::Type resultType,
    std::string_view apiName, const std::source_location *srcLoc) {
  mlir::OperationState state(loc, "tfc." + std::string(op_name(kind)));
  state.addOperands(operands);
  state.addAttributes(attrs);
  std::string diags;
  mlir::ScopedDiagnosticHandler handler(ctx, [&](mlir::Diagnostic &d) {
    if (!diags.empty())
      diags += "; ";
    diags += d.str();
    return mlir::success();
  });
  auto fail = [&]() -> InvalidArgumentError {
    std::string api =
        apiName.empty() ? std::string(op_name(kind)) : std::string(apiName);
    return InvalidArgumentError(api + ": " + diags +
                                (srcLoc ? location_suffix(*srcLoc) : ""));
  };
  if (resultType)
    state.addTypes(resultType);
  else if (mlir::failed(inferResultTypes(state)))
    throw fail();
  mlir::Operation *op = builder.create(state);
  if (mlir::succeeded(mlir::verify(op, /*verifyRecursively=*/false)))
    return op->getResult(0);
  op->erase();
  throw fail();
}

mlir::Value IRTrace::broadcastTo(mlir::Value v,
                                 const std::vector<int64_t> &shape,
                                 mlir::Location loc,
                                 llvm::ArrayRef<mlir::Value> others) {
  auto type = mlir::cast<mlir::RankedTensorType>(v.getType());
  auto target = type.clone(tensorType(ctx, DType::Float32, shape).getShape());
  if (target == type)
    return v;
  // Dynamic target dims `v` has no run-time size for (BroadcastToOp::
  // dynamicDimSource): absent, or a static 1.
  llvm::SmallVector<int64_t> unsized;
  int64_t offset = target.getRank() - type.getRank();
  for (int64_t i = 0; i < target.getRank(); ++i)
    if (target.isDynamicDim(i) &&
        (i < offset || type.getDimSize(i - offset) == 1))
      unsized.push_back(i);
  if (!unsized.empty())
    for (mlir::Value o : others) {
      auto ot = mlir::cast<mlir::RankedTensorType>(o.getType());
      int64_t off = target.getRank() - ot.getRank();
      if (llvm::all_of(unsized, [&](int64_t i) {
            return i >= off && ot.isDynamicDim(i - off);
          }))
        return buildKernelOp(OpKind::BroadcastTo, {v, o}, loc, {}, target);
    }
  // Nothing sizes those dims (a static 1 alone would size one as 1, not as
  // the operand that is dynamic there; one broadcast cannot take dims from
  // two operands): a reduce_retracing trace falls back to static shapes.
  if (!unsized.empty())
    throw InvalidArgumentError(
        "broadcast_to: cannot broadcast shape " +
        shape_to_string(std::vector<int64_t>(type.getShape())) + " to " +
        shape_to_string(shape) +
        ": no other operand has every dynamic dim it lacks");
  return buildKernelOp(OpKind::BroadcastTo, {v}, loc, {}, target);
}

Tensor IRTrace::buildOp(OpKind kind, const Tensor *inputs, size_t n,
                        const OpAttrs &attrs,
                        const std::source_location &srcLoc) {
  mlir::Location loc = location(srcLoc);
  std::string api(api_op_name(kind, attrs));
  auto fail = [&](const std::string &msg) -> InvalidArgumentError {
    return InvalidArgumentError(api + ": " + msg + location_suffix(srcLoc));
  };
  llvm::SmallVector<mlir::Value> vals;
  for (size_t i = 0; i < n; ++i)
    vals.push_back(toValue(inputs[i], api));
  auto shapeOf = [&](size_t i) { return inputs[i].shape(); };
  auto named = [&](const char *attr, mlir::Attribute a) {
    return builder.getNamedAttr(attr, a);
  };
  llvm::SmallVector<mlir::NamedAttribute> nattrs;
  mlir::Type result; // Only where the type is the op's parameter.

  switch (kind) {
#define TFC_CASE(e, name) case OpKind::e:
    TFC_FOR_EACH_UNARY_ELEMENTWISE_OP(TFC_CASE)
  case OpKind::StopGradient:
    if (n != 1)
      throw fail("expected 1 operand");
    break;
    // Binary elementwise (and cmp): explicit broadcasts to one shape.
    TFC_FOR_EACH_BINARY_ELEMENTWISE_OP(TFC_CASE)
#undef TFC_CASE
  case OpKind::Cmp: {
    if (n != 2)
      throw fail("expected 2 operands");
    if (inputs[0].dtype() != inputs[1].dtype())
      throw fail("mixed dtypes " + std::string(to_string(inputs[0].dtype())) +
                 " and " + std::string(to_string(inputs[1].dtype())) +
                 " (shapes " + shape_to_string(shapeOf(0)) + " and " +
                 shape_to_string(shapeOf(1)) + "); use cast");
    std::vector<int64_t> shape;
    try {
      shape = kernels::broadcast_shapes(api, shapeOf(0), shapeOf(1));
    } catch (...) {
      rethrow_with_location(srcLoc);
    }
    mlir::Value a = vals[0], b = vals[1];
    vals[0] = broadcastTo(a, shape, loc, {b});
    vals[1] = broadcastTo(b, shape, loc, {a});
    if (kind == OpKind::Cmp) {
      // The dialect orders i1 (false < true); the API, like eager, does not.
      if (inputs[0].dtype() == DType::Bool &&
          attrs.predicate != kernels::CmpPredicate::EQ &&
          attrs.predicate != kernels::CmpPredicate::NE)
        throw fail("ordering comparison of bool tensors is not supported "
                   "(only eq and ne); cast them first");
      nattrs.push_back(
          named("predicate", mlir::tfc::CmpPredicateAttr::get(
                                 ctx, toDialectPredicate(attrs.predicate))));
    }
    break;
  }
  case OpKind::Select: {
    if (n != 3)
      throw fail("expected 3 operands");
    std::vector<int64_t> shape;
    try {
      shape = kernels::broadcast_shapes(
          api, kernels::broadcast_shapes(api, shapeOf(0), shapeOf(1)),
          shapeOf(2));
    } catch (...) {
      rethrow_with_location(srcLoc);
    }
    llvm::SmallVector<mlir::Value> orig = vals;
    for (size_t i = 0; i < 3; ++i)
      vals[i] = broadcastTo(orig[i], shape, loc,
                            {orig[(i + 1) % 3], orig[(i + 2) % 3]});
    break;
  }
  case OpKind::Cast:
    result = mlir::cast<mlir::RankedTensorType>(vals[0].getType())
                 .clone(elementType(ctx, attrs.dtype));
    break;
  case OpKind::BroadcastTo:
    result = tensorType(ctx, inputs[0].dtype(), attrs.shape);
    break;
  case OpKind::Reshape: {
    std::vector<int64_t> shape = attrs.shape;
    int64_t known = 1, unknown = -1;
    for (size_t i = 0; i < shape.size(); ++i) {
      if (shape[i] < -1 || (shape[i] == -1 && unknown >= 0))
        throw fail("bad shape " + shape_to_string(attrs.shape) +
                   " (one -1 at most, other dims >= 0; a dim computed from a "
                   "dynamic one is not known while tracing)");
      if (shape[i] == -1)
        unknown = static_cast<int64_t>(i);
      else
        known *= shape[i];
    }
    // A dynamic input dim (reduce_retracing) leaves the -1 dim dynamic;
    // the element counts are checked at run time (InsertRuntimeChecks).
    const std::vector<int64_t> &in = shapeOf(0);
    bool dynamicIn = llvm::is_contained(in, -1);
    int64_t total = 1;
    for (int64_t d : in)
      total *= d < 0 ? 1 : d;
    if (unknown >= 0 && !dynamicIn) {
      if (known == 0 || total % known != 0)
        throw fail("cannot reshape tensor of shape " + shape_to_string(in) +
                   " into shape " + shape_to_string(attrs.shape));
      shape[unknown] = total / known;
    }
    result = tensorType(ctx, inputs[0].dtype(), shape);
    break;
  }
  case OpKind::Transpose: {
    for (int64_t p : attrs.axes)
      if (p < 0 || p >= inputs[0].rank())
        throw fail("bad permutation for shape " + shape_to_string(shapeOf(0)));
    nattrs.push_back(named("perm", builder.getDenseI64ArrayAttr(attrs.axes)));
    break;
  }
  case OpKind::ExpandDims: {
    if (attrs.axis < 0 || attrs.axis > inputs[0].rank())
      throw fail("axis out of range");
    nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
    break;
  }
  case OpKind::Squeeze:
    nattrs.push_back(named("axes", builder.getDenseI64ArrayAttr(attrs.axes)));
    break;
  case OpKind::Concat: {
    if (n == 0)
      throw fail("needs at least one tensor");
    if (attrs.axis < 0 || attrs.axis >= inputs[0].rank())
      throw fail("axis out of range");
    for (size_t i = 1; i < n; ++i)
      if (inputs[i].rank() != inputs[0].rank())
        throw fail("rank mismatch");
    nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
    break;
  }
  case OpKind::Slice:
    nattrs.push_back(named("begin", builder.getDenseI64ArrayAttr(attrs.begin)));
    nattrs.push_back(named("size", builder.getDenseI64ArrayAttr(attrs.shape)));
    break;
  case OpKind::Matmul: {
    if (n != 2)
      throw fail("expected 2 operands");
    const auto &a = shapeOf(0), &b = shapeOf(1);
    if (inputs[0].dtype() != inputs[1].dtype())
      throw fail("mixed dtypes " + std::string(to_string(inputs[0].dtype())) +
                 " and " + std::string(to_string(inputs[1].dtype())));
    if (a.size() < 2 || b.size() < 2 || a[a.size() - 1] != b[b.size() - 2])
      throw fail("incompatible shapes " + shape_to_string(a) + " and " +
                 shape_to_string(b) + " (" +
                 std::string(to_string(inputs[0].dtype())) + ")");
    // Batch dims broadcast, as eagerly (tf.linalg.matmul); the dialect's
    // matmul takes equal batch dims, so broadcast the operands first.
    std::vector<int64_t> batch;
    try {
      batch = kernels::broadcast_shapes(
          api, std::vector<int64_t>(a.begin(), a.end() - 2),
          std::vector<int64_t>(b.begin(), b.end() - 2));
    } catch (...) {
      rethrow_with_location(srcLoc);
    }
    std::vector<int64_t> fullA = batch, fullB = batch;
    fullA.insert(fullA.end(), a.end() - 2, a.end());
    fullB.insert(fullB.end(), b.end() - 2, b.end());
    mlir::Value va = vals[0], vb = vals[1];
    vals[0] = broadcastTo(va, fullA, loc, {vb});
    vals[1] = broadcastTo(vb, fullB, loc, {va});
    break;
  }
  case OpKind::ReduceSum:
  case OpKind::ReduceMean:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd:
    nattrs.push_back(named("axes", builder.getDenseI64ArrayAttr(attrs.axes)));
    nattrs.push_back(named("keepdims", builder.getBoolAttr(attrs.keepdims)));
    break;
  case OpKind::Argmax:
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
    nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
    break;
  case OpKind::OneHot: {
    std::vector<int64_t> shape = shapeOf(0);
    shape.push_back(attrs.depth);
    result = tensorType(ctx, attrs.dtype, shape);
    nattrs.push_back(named("depth", builder.getI64IntegerAttr(attrs.depth)));
    break;
  }
  case OpKind::Cumsum:
    nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
    nattrs.push_back(named("exclusive", builder.getBoolAttr(attrs.exclusive)));
    nattrs.push_back(named("reverse", builder.getBoolAttr(attrs.reverse)));
    break;
  case OpKind::TopKIndices:
    nattrs.push_back(named("k", builder.getI64IntegerAttr(attrs.k)));
    break;
  case OpKind::PhiloxRandom:
    result = tensorType(ctx, attrs.dtype, attrs.shape);
    nattrs.push_back(
        named("distribution",
              builder.getStringAttr(
                  attrs.distribution == kernels::RandomDistribution::Uniform
                      ? "uniform"
                  : attrs.distribution == kernels::RandomDistribution::Normal
                      ? "normal"
                      : "truncated_normal")));
    break;
  case OpKind::Gather:
    nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
    break;
  case OpKind::UnsortedSegmentSum:
    nattrs.push_back(
        named("num_segments", builder.getI64IntegerAttr(attrs.num_segments)));
    break;
  case OpKind::Conv2D:
  case OpKind::Conv2DBackpropInput:
  case OpKind::Conv2DBackpropFilter:
    if (n != 2)
      throw fail("expected 2 operands");
    if (kind == OpKind::Conv2DBackpropInput)
      nattrs.push_back(
          named("input_shape", builder.getDenseI64ArrayAttr(attrs.shape)));
    if (kind == OpKind::Conv2DBackpropFilter)
      nattrs.push_back(
          named("filter_shape", builder.getDenseI64ArrayAttr(attrs.shape)));
    nattrs.push_back(
        named("strides", builder.getDenseI64ArrayAttr(attrs.strides)));
    nattrs.push_back(
        named("dilations", builder.getDenseI64ArrayAttr(attrs.dilations)));
    nattrs.push_back(named(
        "padding", builder.getStringAttr(
                       attrs.padding == Padding::Same ? "SAME" : "VALID")));
    break;
  case OpKind::MaxPool2D:
  case OpKind::AvgPool2D:
  case OpKind::MaxPool2DGrad:
  case OpKind::MaxPool2DGradGrad:
  case OpKind::AvgPool2DGrad:
    if (kind == OpKind::AvgPool2DGrad)
      nattrs.push_back(
          named("input_shape", builder.getDenseI64ArrayAttr(attrs.shape)));
    nattrs.push_back(named("ksize", builder.getDenseI64ArrayAttr(attrs.ksize)));
    nattrs.push_back(
        named("strides", builder.getDenseI64ArrayAttr(attrs.strides)));
    nattrs.push_back(named(
        "padding", builder.getStringAttr(
                       attrs.padding == Padding::Same ? "SAME" : "VALID")));
    break;
  case OpKind::SparseSoftmaxCrossEntropy:
    if (n != 2)
      throw fail("expected labels and logits");
    break;
  case OpKind::AllReduce:
    if (n != 1)
      throw fail("expected 1 operand");
    if (inputs[0].dtype() == DType::Bool)
      throw fail("expected a numeric tensor, got " + describeTensor(inputs[0]));
    nattrs.push_back(named(
        "reduce_op",
        builder.getStringAttr(
            attrs.reduce_op == distribute::ReduceOp::Mean ? "mean" : "sum")));
    break;
  case OpKind::SoftmaxCrossEntropy: {
    if (n != 2)
      throw fail("expected labels and logits");
    if (shapeOf(0) != shapeOf(1) || inputs[0].dtype() != inputs[1].dtype())
      throw fail("labels " + describeTensor(inputs[0]) + " and logits " +
                 describeTensor(inputs[1]) +
                 " must have the same shape and dtype");
    if (inputs[1].rank() == 0)
      throw fail("logits must have rank >= 1");
    break;
  }
  }
  mlir::Value v = buildKernelOp(kind, vals, loc, nattrs, result, api, &srcLoc);
  return symbolic(v);
}
} // namespace tfc::bridge
