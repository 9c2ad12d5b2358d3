//===- Tracing.cpp - tfc::function: tracing into the tfc dialect -*- C++
//-*-===//
//
// A TraceSession is the TraceHook installed while a tfc::function runs its
// C++ callable on symbolic tensors. Every op appends a tfc op through an
// OpBuilder, located at the user's source line; cond/while_loop trace their
// bodies into the regions of tfc.if/tfc.while; variables become `!tfc.var`
// arguments read and written with tfc.var_* ops. The finished module is
// compiled by the JIT and cached under the call's signature.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/JIT/JIT.h"
#include "tfc/frontend/Function.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/Log.h"
#include "tfc/runtime/Ops.h"

#include "Internal.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace tfc;
using namespace tfc::detail;
namespace tfcir = mlir::tfc;

namespace {

using jit::contextMutex;

mlir::Type elementType(mlir::MLIRContext *ctx, DType t) {
  switch (t) {
  case DType::Bool:
    return mlir::IntegerType::get(ctx, 1);
  case DType::Int32:
    return mlir::IntegerType::get(ctx, 32);
  case DType::Int64:
    return mlir::IntegerType::get(ctx, 64);
  case DType::Float32:
    return mlir::Float32Type::get(ctx);
  case DType::Float64:
    return mlir::Float64Type::get(ctx);
  }
  return {};
}

mlir::RankedTensorType tensorType(mlir::MLIRContext *ctx, DType t,
                                  const std::vector<int64_t> &shape) {
  llvm::SmallVector<int64_t> dims;
  for (int64_t d : shape)
    dims.push_back(d < 0 ? mlir::ShapedType::kDynamic : d);
  return mlir::RankedTensorType::get(dims, elementType(ctx, t));
}

std::string typeString(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

/// The mlir::Value behind a symbolic tensor.
struct TracedValue : SymbolicValue {
  TracedValue(mlir::Value v, const TraceSession *s) : value(v), session(s) {}
  std::string describe() const override {
    if (mlir::Operation *op = value.getDefiningOp())
      return "traced " + op->getName().getStringRef().str();
    return "traced argument";
  }
  mlir::Value value;
  const TraceSession *session;
};

} // namespace

namespace tfc::detail {

/// Everything about one compiled signature.
struct ConcreteFunction {
  std::shared_ptr<jit::CompiledModule::Impl> module;
  const jit::FunctionSignature *signature = nullptr;
  size_t numTensorArgs = 0;
  size_t numUserResults = 0;
  /// Variables in the order of their `!tfc.var` arguments.
  std::vector<std::shared_ptr<VariableState>> variables;
};

class TraceSession : public TraceHook {
public:
  /// Traces for `args`; with `relaxedShapes` (reduce_retracing) the tensor
  /// arguments get those shapes instead, -1 marking a dynamic dim.
  TraceSession(const CallArgs &args, bool firstTrace, std::string name,
               std::vector<std::vector<int64_t>> relaxedShapes = {})
      : ctx(&jit::sharedContext()), builder(ctx), firstTrace(firstTrace),
        relaxedShapes(std::move(relaxedShapes)) {
    module = mlir::ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    llvm::SmallVector<mlir::Type> inputs;
    for (size_t i = 0; i < args.tensors.size(); ++i)
      inputs.push_back(tensorType(ctx, args.tensors[i]->dtype(),
                                  this->relaxedShapes.empty()
                                      ? args.tensors[i]->shape()
                                      : this->relaxedShapes[i]));
    func = mlir::func::FuncOp::create(builder, builder.getUnknownLoc(), name,
                                      builder.getFunctionType(inputs, {}));
    mlir::Block *entry = func.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    for (size_t i = 0; i < args.tensors.size(); ++i)
      arguments.push_back(symbolic(entry->getArgument(i)));
    previousHook = set_active_trace_hook(this);
  }
  ~TraceSession() override { restoreHook(); }

  void restoreHook() {
    if (installed) {
      set_active_trace_hook(previousHook);
      installed = false;
    }
  }

  // --- TraceHook ---------------------------------------------------------

  Tensor op(OpKind kind, const Tensor *inputs, size_t n, const OpAttrs &attrs,
            const std::source_location &loc) override {
    bool anySymbolic = false;
    for (size_t i = 0; i < n; ++i)
      anySymbolic |= inputs[i].is_symbolic();
    // Pure ops on captured values fold at trace time (like constant
    // folding); only work that depends on arguments or variables is traced.
    if (!anySymbolic) {
      try {
        return execute(kind, inputs, n, attrs);
      } catch (...) {
        rethrow_with_location(loc);
      }
    }
    return buildOp(kind, inputs, n, attrs, loc);
  }

  Tensor constant(const Tensor &value) override {
    return symbolic(constantValue(value, builder.getUnknownLoc()));
  }

  Tensor var_read(const std::shared_ptr<VariableState> &var) override {
    mlir::Value handle = variableHandle(var);
    auto op = tfcir::VarReadOp::create(builder, handle.getLoc(), handle);
    return symbolic(op.getResult());
  }

  void var_assign(const std::shared_ptr<VariableState> &var, AssignKind how,
                  const Tensor &value) override {
    mlir::Value handle = variableHandle(var);
    mlir::Value v = toValue(value, "assign");
    mlir::Location loc = handle.getLoc();
    switch (how) {
    case AssignKind::Assign:
      tfcir::VarAssignOp::create(builder, loc, handle, v);
      break;
    case AssignKind::Add:
      tfcir::VarAssignAddOp::create(builder, loc, handle, v);
      break;
    case AssignKind::Sub:
      tfcir::VarAssignSubOp::create(builder, loc, handle, v);
      break;
    }
  }

  void variable_created(const std::shared_ptr<VariableState> &var) override {
    if (!firstTrace)
      throw InvalidArgumentError(
          "tfc::function '" + func.getName().str() +
          "' tried to create variables on non-first call (a new signature "
          "retraced it and the callable created a tfc::Variable again). "
          "Create variables once, outside the function or on its first "
          "call only (e.g. a member initialised when empty).");
    if (var->value.is_symbolic())
      throw InvalidArgumentError(
          "Variable created inside a tfc::function must be initialised from "
          "values that do not depend on the function's arguments or "
          "variables; its initial value is computed eagerly when it is "
          "created");
  }

  void print(std::string_view label,
             const std::vector<Tensor> &tensors) override {
    llvm::SmallVector<mlir::Value> values;
    for (const Tensor &t : tensors)
      values.push_back(toValue(t, "print"));
    mlir::OperationState state(builder.getUnknownLoc(), "tfc.print");
    state.addAttribute("label", builder.getStringAttr(llvm::StringRef(
                                    label.data(), label.size())));
    state.addOperands(values);
    builder.create(state);
  }

  void assert_true(const Tensor &pred, std::string_view message,
                   const std::source_location &loc) override {
    mlir::Value p = toValue(pred, "assert_true");
    p = reduceAll(p, location(loc));
    mlir::OperationState state(location(loc), "tfc.assert");
    state.addOperands(p);
    state.addAttribute("message", builder.getStringAttr(llvm::StringRef(
                                      message.data(), message.size())));
    builder.create(state);
  }

  std::vector<Tensor> cond(const Tensor &pred,
                           const std::function<std::vector<Tensor>()> &thenFn,
                           const std::function<std::vector<Tensor>()> &elseFn,
                           const std::source_location &srcLoc) override {
    if (!pred.is_symbolic())
      return pred.item<bool>() ? thenFn() : elseFn();
    mlir::Location loc = location(srcLoc);
    mlir::Value p = toValue(pred, "cond");
    // Trace both branches into the regions of a result-less placeholder, so
    // values from the enclosing scope stay visible, then rebuild with the
    // result types the branches produced.
    mlir::OperationState placeholderState(loc, "tfc.if");
    placeholderState.addOperands(p);
    placeholderState.addRegion();
    placeholderState.addRegion();
    mlir::Operation *placeholder = builder.create(placeholderState);
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
        throw InvalidArgumentError("cond: output " + std::to_string(i) +
                                   " is " + describeTensor(branchOuts[0][i]) +
                                   " in true_fn but " +
                                   describeTensor(branchOuts[1][i]) +
                                   " in false_fn" + location_suffix(srcLoc));
      types.push_back(a);
    }
    for (int b = 0; b < 2; ++b) {
      mlir::OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToEnd(&placeholder->getRegion(b).front());
      tfcir::YieldOp::create(builder, loc, branchValues[b]);
    }
    mlir::OperationState state(loc, "tfc.if");
    state.addOperands(p);
    state.addTypes(types);
    state.addRegion();
    state.addRegion();
    builder.setInsertionPoint(placeholder);
    mlir::Operation *ifOp = builder.create(state);
    ifOp->getRegion(0).takeBody(placeholder->getRegion(0));
    ifOp->getRegion(1).takeBody(placeholder->getRegion(1));
    placeholder->erase();
    builder.setInsertionPointAfter(ifOp);
    std::vector<Tensor> results;
    for (mlir::Value r : ifOp->getResults())
      results.push_back(symbolic(r));
    return results;
  }

  std::vector<Tensor> while_loop(
      const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
      const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
          &bodyFn,
      const std::vector<Tensor> &loopVars, int64_t maximumIterations,
      const std::source_location &srcLoc) override {
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
    mlir::OperationState state(loc, "tfc.while");
    state.addOperands(inits);
    state.addTypes(types);
    state.addRegion();
    state.addRegion();
    mlir::Operation *whileOp = builder.create(state);
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
        mlir::Value below = buildNamed(
            "tfc.cmp", {before->getArguments().back(), limit},
            mlir::RankedTensorType::get({}, builder.getI1Type()), loc,
            {builder.getNamedAttr(
                "predicate", builder.getI64IntegerAttr(static_cast<int64_t>(
                                 kernels::CmpPredicate::LT)))});
        cv = buildNamed("tfc.logical_and", {cv, below}, cv.getType(), loc);
      }
      tfcir::ConditionOp::create(builder, loc, cv, before->getArguments());
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
        yields.push_back(buildNamed(
            "tfc.add", {after->getArguments().back(), one}, counterType, loc));
      }
      tfcir::YieldOp::create(builder, loc, yields);
    }
    std::vector<Tensor> results;
    for (size_t i = 0; i < nUser; ++i)
      results.push_back(symbolic(whileOp->getResult(i)));
    return results;
  }

  // --- Finishing -----------------------------------------------------------

  /// Adds the return and fixes the function type. Returns the module.
  mlir::OwningOpRef<mlir::ModuleOp> finish(const std::vector<Tensor> &outputs) {
    restoreHook();
    llvm::SmallVector<mlir::Value> values;
    for (const Tensor &t : outputs)
      values.push_back(toValue(t, "return"));
    mlir::func::ReturnOp::create(builder, builder.getUnknownLoc(), values);
    llvm::SmallVector<mlir::Type> results;
    for (mlir::Value v : values)
      results.push_back(v.getType());
    func.setFunctionType(builder.getFunctionType(
        func.getBody().front().getArgumentTypes(), results));
    return std::move(module);
  }

  std::vector<Tensor> arguments;
  std::vector<std::shared_ptr<VariableState>> variables;

  // --- tfc-autodiff: building at an external insertion point -------------
  /// A session with no module or function of its own: ops build at `at`'s
  /// insertion point, all located at `loc` (see ExternalTrace, Internal.h).
  TraceSession(mlir::OpBuilder &at, mlir::Location loc)
      : ctx(at.getContext()), builder(at.getContext()), firstTrace(false) {
    fixedLocation = loc;
    builder.setInsertionPoint(at.getInsertionBlock(), at.getInsertionPoint());
    previousHook = set_active_trace_hook(this);
  }
  Tensor bindValue(mlir::Value v) { return symbolic(v); }
  mlir::Value valueOf(const Tensor &t) { return toValue(t, "gradient"); }
  std::optional<mlir::Location> fixedLocation;
  // --- end tfc-autodiff --------------------------------------------------

  // --- Stacks (TracedStack, Internal.h) ----------------------------------
  mlir::Value stackNew(DType dtype, const std::vector<int64_t> &shape) {
    auto type = tfcir::StackType::get(ctx, tensorType(ctx, dtype, shape));
    return tfcir::StackNewOp::create(builder, builder.getUnknownLoc(), type);
  }
  void stackPush(mlir::Value stack, const Tensor &value) {
    mlir::Value v = toValue(value, "stack_push");
    auto element = mlir::cast<tfcir::StackType>(stack.getType());
    if (v.getType() != element.getElementType())
      throw InvalidArgumentError("internal error: stack_push of a " +
                                 typeString(v.getType()) + " onto a stack of " +
                                 typeString(element.getElementType()));
    tfcir::StackPushOp::create(builder, builder.getUnknownLoc(), stack, v);
  }
  Tensor stackPop(mlir::Value stack) {
    auto element = mlir::cast<tfcir::StackType>(stack.getType());
    return symbolic(tfcir::StackPopOp::create(builder, builder.getUnknownLoc(),
                                              element.getElementType(), stack)
                        .getResult());
  }
  void stackFree(mlir::Value stack) {
    tfcir::StackFreeOp::create(builder, builder.getUnknownLoc(), stack);
  }
  // --- end stacks --------------------------------------------------------

private:
  Tensor symbolic(mlir::Value v) {
    auto type = mlir::cast<mlir::RankedTensorType>(v.getType());
    DType dt;
    jit::toDType(type.getElementType(), dt);
    std::vector<int64_t> shape;
    for (int64_t d : type.getShape())
      shape.push_back(mlir::ShapedType::isDynamic(d) ? -1 : d);
    return Tensor::symbolic(dt, std::move(shape),
                            std::make_shared<TracedValue>(v, this));
  }

  mlir::Location location(const std::source_location &loc) {
    if (fixedLocation) // tfc-autodiff: the differentiated op's location
      return *fixedLocation;
    if (!loc.file_name() || !*loc.file_name() || loc.line() == 0)
      return builder.getUnknownLoc();
    return mlir::FileLineColLoc::get(ctx, loc.file_name(), loc.line(),
                                     loc.column());
  }

  static std::string describeTensor(const Tensor &t) {
    return std::string(to_string(t.dtype())) + " " + shape_to_string(t.shape());
  }

  mlir::Value scalarConstant(mlir::RankedTensorType type, int64_t v,
                             mlir::Location loc) {
    auto attr = mlir::DenseElementsAttr::get(
        type, builder.getIntegerAttr(type.getElementType(), v));
    return tfcir::ConstantOp::create(builder, loc, type, attr);
  }

  mlir::Value constantValue(const Tensor &t, mlir::Location loc) {
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
    return tfcir::ConstantOp::create(builder, loc, type, attr);
  }

  /// The IR value of `t` at the insertion point: a traced value of this
  /// session that is in scope, or a constant for a concrete tensor.
  mlir::Value toValue(const Tensor &t, std::string_view what) {
    if (!t.defined())
      throw InvalidArgumentError(std::string(what) +
                                 ": got an undefined tensor while tracing");
    if (!t.is_symbolic())
      return constantValue(t, builder.getUnknownLoc());
    auto *traced = dynamic_cast<TracedValue *>(t.symbolic_value());
    if (!traced || traced->session != this)
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
  mlir::Value reduceAll(mlir::Value p, mlir::Location loc) {
    auto type = mlir::cast<mlir::RankedTensorType>(p.getType());
    if (type.getRank() == 0)
      return p;
    // all(p) == (min over p cast to i32) != 0
    auto i32 = builder.getIntegerType(32);
    mlir::Value asInt = buildNamed("tfc.cast", {p}, type.clone(i32), loc);
    llvm::SmallVector<int64_t> axes;
    for (int64_t i = 0; i < type.getRank(); ++i)
      axes.push_back(i);
    auto scalarI32 = mlir::RankedTensorType::get({}, i32);
    mlir::Value m = buildNamed(
        "tfc.reduce_min", {asInt}, scalarI32, loc,
        {builder.getNamedAttr("axes", builder.getDenseI64ArrayAttr(axes)),
         builder.getNamedAttr("keepdims", builder.getBoolAttr(false))});
    return buildNamed("tfc.cast", {m},
                      mlir::RankedTensorType::get({}, builder.getI1Type()),
                      loc);
  }

  mlir::Value variableHandle(const std::shared_ptr<VariableState> &var) {
    for (size_t i = 0; i < variables.size(); ++i)
      if (variables[i] == var)
        return varArgs[i];
    mlir::Block &entry = func.getBody().front();
    auto valueType = tensorType(ctx, var->value.dtype(), var->value.shape());
    mlir::Location loc = var->name.empty()
                             ? builder.getUnknownLoc()
                             : mlir::Location(mlir::NameLoc::get(
                                   builder.getStringAttr(var->name)));
    mlir::Value handle =
        entry.addArgument(tfcir::VarType::get(ctx, valueType), loc);
    variables.push_back(var);
    varArgs.push_back(handle);
    return handle;
  }

  /// Creates `name` generically and verifies it; verifier messages become
  /// InvalidArgumentError.
  mlir::Value buildNamed(llvm::StringRef name,
                         llvm::ArrayRef<mlir::Value> operands,
                         mlir::Type resultType, mlir::Location loc,
                         llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                         std::string_view apiName = {},
                         const std::source_location *srcLoc = nullptr) {
    mlir::OperationState state(loc, name);
    state.addOperands(operands);
    state.addTypes(resultType);
    state.addAttributes(attrs);
    mlir::Operation *op = builder.create(state);
    std::string diags;
    {
      mlir::ScopedDiagnosticHandler handler(ctx, [&](mlir::Diagnostic &d) {
        if (!diags.empty())
          diags += "; ";
        diags += d.str();
        return mlir::success();
      });
      if (mlir::succeeded(mlir::verify(op, /*verifyRecursively=*/false)))
        return op->getResult(0);
    }
    op->erase();
    std::string api =
        apiName.empty() ? name.drop_front(4).str() : std::string(apiName);
    throw InvalidArgumentError(api + ": " + diags +
                               (srcLoc ? location_suffix(*srcLoc) : ""));
  }

  mlir::Value broadcastTo(mlir::Value v, const std::vector<int64_t> &shape,
                          mlir::Location loc) {
    auto type = mlir::cast<mlir::RankedTensorType>(v.getType());
    auto target = type.clone(tensorType(ctx, DType::Float32, shape).getShape());
    if (target == type)
      return v;
    return buildNamed("tfc.broadcast_to", {v}, target, loc);
  }

  Tensor buildOp(OpKind kind, const Tensor *inputs, size_t n,
                 const OpAttrs &attrs, const std::source_location &srcLoc) {
    mlir::Location loc = location(srcLoc);
    std::string api(api_op_name(kind, attrs));
    std::string name = "tfc." + std::string(op_name(kind));
    auto fail = [&](const std::string &msg) -> InvalidArgumentError {
      return InvalidArgumentError(api + ": " + msg + location_suffix(srcLoc));
    };
    llvm::SmallVector<mlir::Value> vals;
    for (size_t i = 0; i < n; ++i)
      vals.push_back(toValue(inputs[i], api));
    auto typeOf = [&](size_t i) {
      return mlir::cast<mlir::RankedTensorType>(vals[i].getType());
    };
    auto shapeOf = [&](size_t i) { return inputs[i].shape(); };
    auto named = [&](const char *attr, mlir::Attribute a) {
      return builder.getNamedAttr(attr, a);
    };
    llvm::SmallVector<mlir::NamedAttribute> nattrs;
    mlir::RankedTensorType result;

    switch (kind) {
    // Unary elementwise: same type out.
    case OpKind::Neg:
    case OpKind::Abs:
    case OpKind::Exp:
    case OpKind::Log:
    case OpKind::Log1p:
    case OpKind::Sqrt:
    case OpKind::Square:
    case OpKind::Sin:
    case OpKind::Cos:
    case OpKind::Tanh:
    case OpKind::Sigmoid:
    case OpKind::Relu:
    case OpKind::LogicalNot:
    case OpKind::StopGradient:
      if (n != 1)
        throw fail("expected 1 operand");
      result = typeOf(0);
      break;
    // Binary elementwise (and cmp): explicit broadcasts to one shape.
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul:
    case OpKind::Div:
    case OpKind::Pow:
    case OpKind::Maximum:
    case OpKind::Minimum:
    case OpKind::FloorDiv:
    case OpKind::Mod:
    case OpKind::LogicalAnd:
    case OpKind::LogicalOr:
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
      vals[0] = broadcastTo(vals[0], shape, loc);
      vals[1] = broadcastTo(vals[1], shape, loc);
      result = typeOf(0);
      if (kind == OpKind::Cmp) {
        // The dialect orders i1 (false < true); the API, like eager, does not.
        if (inputs[0].dtype() == DType::Bool &&
            attrs.predicate != kernels::CmpPredicate::EQ &&
            attrs.predicate != kernels::CmpPredicate::NE)
          throw fail("ordering comparison of bool tensors is not supported "
                     "(only eq and ne); cast them first");
        result = result.clone(builder.getI1Type());
        nattrs.push_back(named(
            "predicate",
            builder.getI64IntegerAttr(static_cast<int64_t>(attrs.predicate))));
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
      for (auto &v : vals)
        v = broadcastTo(v, shape, loc);
      result = typeOf(1);
      break;
    }
    case OpKind::Cast:
      result = typeOf(0).clone(elementType(ctx, attrs.dtype));
      break;
    case OpKind::BroadcastTo:
      result = tensorType(ctx, inputs[0].dtype(), attrs.shape);
      break;
    case OpKind::Reshape: {
      std::vector<int64_t> shape = attrs.shape;
      int64_t known = 1, unknown = -1;
      for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == -1)
          unknown = static_cast<int64_t>(i);
        else
          known *= shape[i];
      }
      if (unknown >= 0) {
        int64_t total = shape_numel(shapeOf(0));
        if (known == 0 || total % known != 0)
          throw fail("cannot reshape tensor of shape " +
                     shape_to_string(shapeOf(0)) + " into shape " +
                     shape_to_string(attrs.shape));
        shape[unknown] = total / known;
      }
      result = tensorType(ctx, inputs[0].dtype(), shape);
      break;
    }
    case OpKind::Transpose: {
      std::vector<int64_t> shape;
      for (int64_t p : attrs.axes) {
        if (p < 0 || p >= inputs[0].rank())
          throw fail("bad permutation for shape " +
                     shape_to_string(shapeOf(0)));
        shape.push_back(shapeOf(0)[p]);
      }
      result = tensorType(ctx, inputs[0].dtype(), shape);
      nattrs.push_back(named("perm", builder.getDenseI64ArrayAttr(attrs.axes)));
      break;
    }
    case OpKind::ExpandDims: {
      std::vector<int64_t> shape = shapeOf(0);
      if (attrs.axis < 0 || attrs.axis > (int64_t)shape.size())
        throw fail("axis out of range");
      shape.insert(shape.begin() + attrs.axis, 1);
      result = tensorType(ctx, inputs[0].dtype(), shape);
      nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
      break;
    }
    case OpKind::Squeeze: {
      std::vector<int64_t> shape;
      for (int64_t i = 0; i < inputs[0].rank(); ++i)
        if (!llvm::is_contained(attrs.axes, i))
          shape.push_back(shapeOf(0)[i]);
      result = tensorType(ctx, inputs[0].dtype(), shape);
      nattrs.push_back(named("axes", builder.getDenseI64ArrayAttr(attrs.axes)));
      break;
    }
    case OpKind::Concat: {
      if (n == 0)
        throw fail("needs at least one tensor");
      std::vector<int64_t> shape = shapeOf(0);
      if (attrs.axis < 0 || attrs.axis >= (int64_t)shape.size())
        throw fail("axis out of range");
      for (size_t i = 1; i < n; ++i) {
        if (inputs[i].rank() != (int64_t)shape.size())
          throw fail("rank mismatch");
        shape[attrs.axis] += shapeOf(i)[attrs.axis];
      }
      result = tensorType(ctx, inputs[0].dtype(), shape);
      nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
      break;
    }
    case OpKind::Slice:
      result = tensorType(ctx, inputs[0].dtype(), attrs.shape);
      nattrs.push_back(
          named("begin", builder.getDenseI64ArrayAttr(attrs.axes)));
      nattrs.push_back(
          named("size", builder.getDenseI64ArrayAttr(attrs.shape)));
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
      vals[0] = broadcastTo(vals[0], fullA, loc);
      vals[1] = broadcastTo(vals[1], fullB, loc);
      std::vector<int64_t> shape = fullA;
      shape.back() = b.back();
      result = tensorType(ctx, inputs[0].dtype(), shape);
      break;
    }
    case OpKind::ReduceSum:
    case OpKind::ReduceMean:
    case OpKind::ReduceMax:
    case OpKind::ReduceMin:
    case OpKind::ReduceProd: {
      std::vector<int64_t> shape;
      for (int64_t i = 0; i < inputs[0].rank(); ++i) {
        if (!llvm::is_contained(attrs.axes, i))
          shape.push_back(shapeOf(0)[i]);
        else if (attrs.keepdims)
          shape.push_back(1);
      }
      result = tensorType(ctx, inputs[0].dtype(), shape);
      nattrs.push_back(named("axes", builder.getDenseI64ArrayAttr(attrs.axes)));
      nattrs.push_back(named("keepdims", builder.getBoolAttr(attrs.keepdims)));
      break;
    }
    case OpKind::Argmax: {
      std::vector<int64_t> shape;
      for (int64_t i = 0; i < inputs[0].rank(); ++i)
        if (i != attrs.axis)
          shape.push_back(shapeOf(0)[i]);
      result = tensorType(ctx, DType::Int64, shape);
      nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
      break;
    }
    case OpKind::Softmax:
    case OpKind::LogSoftmax:
      result = typeOf(0);
      nattrs.push_back(named("axis", builder.getI64IntegerAttr(attrs.axis)));
      break;
    case OpKind::OneHot: {
      std::vector<int64_t> shape = shapeOf(0);
      shape.push_back(attrs.axis);
      result = tensorType(ctx, attrs.dtype, shape);
      nattrs.push_back(named("depth", builder.getI64IntegerAttr(attrs.axis)));
      break;
    }
    case OpKind::SoftmaxCrossEntropy: {
      if (n != 2)
        throw fail("expected labels and logits");
      if (shapeOf(0) != shapeOf(1) || inputs[0].dtype() != inputs[1].dtype())
        throw fail("labels " + describeTensor(inputs[0]) + " and logits " +
                   describeTensor(inputs[1]) +
                   " must have the same shape and dtype");
      std::vector<int64_t> shape = shapeOf(1);
      if (shape.empty())
        throw fail("logits must have rank >= 1");
      shape.pop_back();
      result = tensorType(ctx, inputs[1].dtype(), shape);
      break;
    }
    }
    mlir::Value v = buildNamed(name, vals, result, loc, nattrs, api, &srcLoc);
    return symbolic(v);
  }

  mlir::MLIRContext *ctx;
  mlir::OpBuilder builder;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  std::vector<mlir::Value> varArgs;
  TraceHook *previousHook = nullptr;
  bool installed = true;
  bool firstTrace;

public:
  /// When the trace began (TFC_TIMING's "trace" figure).
  std::chrono::steady_clock::time_point started =
      std::chrono::steady_clock::now();
  /// Non-empty for a reduce_retracing trace with generalised shapes.
  std::vector<std::vector<int64_t>> relaxedShapes;
};

//===----------------------------------------------------------------------===//
// CallArgs
//===----------------------------------------------------------------------===//

void CallArgs::undefined_argument() const {
  throw InvalidArgumentError("tfc::function: argument " +
                             std::to_string(tensors.size()) +
                             " is an undefined tensor");
}

//===----------------------------------------------------------------------===//
// FunctionCore
//===----------------------------------------------------------------------===//

namespace {
/// One signature in a function's cache. Immutable once inserted (and never
/// erased), so a pointer to it may be read without the lock.
struct CacheEntry {
  std::vector<uint64_t> key;
  ConcreteFunction *fn;

  static uint64_t hash(const uint64_t *words, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) {
      h = (h ^ words[i]) * 0x100000001b3ull;
      h ^= h >> 32;
    }
    return h;
  }

  bool matches(const CallArgs &args) const {
    return key.size() == args.key.size() &&
           std::memcmp(key.data(), args.key.data(),
                       key.size() * sizeof(uint64_t)) == 0;
  }
};
} // namespace

struct FunctionCore::Impl {
  FunctionOptions options;
  std::mutex mutex;
  /// Keyed by CacheEntry::hash of the key; node-based, so entries never
  /// move.
  std::unordered_multimap<uint64_t, CacheEntry> cache;
  std::vector<std::unique_ptr<ConcreteFunction>> functions;
  /// The entry of the latest hit: a call repeating the previous signature
  /// (the common case) is found without the lock or a hash lookup.
  std::atomic<const CacheEntry *> last{nullptr};
  std::atomic<int> tracingCount{0};
  std::shared_ptr<jit::CompiledModule::Impl> latest;
  /// The signature key of each successful trace, in order: what the
  /// retrace log compares a new signature with (trace path only).
  std::vector<std::vector<uint64_t>> tracedKeys;
  /// The trace number the too-many-traces warning last fired at.
  int warnedAt = 0;

  /// reduce_retracing: signatures that differ only in tensor dims form a
  /// family (keyed by the signature key with every dim zeroed).
  struct Family {
    /// The most general shapes traced so far; -1 is a dynamic dim.
    std::vector<std::vector<int64_t>> shapes;
    /// Compiled for `shapes` once they have a dynamic dim.
    ConcreteFunction *relaxed = nullptr;
    /// A generalised trace failed (to trace or to compile): this family
    /// traces per shape from now on.
    bool relaxFailed = false;
  };
  std::map<std::vector<uint64_t>, Family> families;
};

namespace {
/// The signature key with every tensor dim zeroed: one key per family of
/// signatures that differ only in their dims.
std::vector<uint64_t> familyKey(const CallArgs &args) {
  std::vector<uint64_t> key(args.key.begin(), args.key.end());
  for (size_t i = 0; i < key.size();) {
    uint64_t tag = key[i] >> 56;
    size_t extra = tag == 't' ? (key[i] & 0xffffffffu) : 1;
    if (tag == 't')
      std::fill(key.begin() + i + 1, key.begin() + i + 1 + extra, 0);
    i += 1 + extra;
  }
  return key;
}

/// True when every tensor of `args` fits `shapes` (-1 matches any size).
bool fits(const std::vector<std::vector<int64_t>> &shapes,
          const CallArgs &args) {
  for (size_t i = 0; i < shapes.size(); ++i) {
    const std::vector<int64_t> &actual = args.tensors[i]->shape();
    for (size_t d = 0; d < shapes[i].size(); ++d) {
      if (shapes[i][d] >= 0 && shapes[i][d] != actual[d])
        return false;
      // A dim of 1 broadcasts, which a trace with the dim dynamic did not
      // do (it assumed the dynamic dims of elementwise operands equal).
      if (shapes[i][d] < 0 && actual[d] == 1)
        return false;
    }
  }
  return true;
}

/// tfc.broadcast_to has no operand for the runtime size of a dynamic result
/// dim: the lowering (lib/Conversion/TfcToLinalg.cpp, BroadcastToLowering)
/// takes it from the aligned input dim. With no aligned dim (a lower-rank
/// operand such as a bias or a scalar) it fails to legalize; with a static
/// aligned dim of 1 it produces a tensor of size 1 where the trace meant the
/// other operand's size. A dynamic-shape trace containing either is
/// rejected here, so the function keeps tracing per shape (correct, slower).
void checkDynamicBroadcasts(mlir::ModuleOp module) {
  std::string problem;
  module.walk([&](mlir::Operation *op) {
    if (!problem.empty() || op->getName().getStringRef() != "tfc.broadcast_to")
      return;
    auto in =
        mlir::dyn_cast<mlir::RankedTensorType>(op->getOperand(0).getType());
    auto out =
        mlir::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
    if (!in || !out)
      return;
    int64_t offset = out.getRank() - in.getRank();
    for (int64_t i = 0; i < out.getRank(); ++i)
      if (out.isDynamicDim(i) && (i < offset || !in.isDynamicDim(i - offset)))
        problem = "tfc.broadcast_to from " + typeString(in) + " to " +
                  typeString(out) + " cannot take dim " + std::to_string(i) +
                  "'s runtime size from its operand";
  });
  if (!problem.empty())
    throw CompileError("reduce_retracing: " + problem);
}

std::vector<std::vector<int64_t>> shapesOf(const CallArgs &args) {
  std::vector<std::vector<int64_t>> out;
  for (const Tensor *t : args.tensors)
    out.push_back(t->shape());
  return out;
}
} // namespace

//===----------------------------------------------------------------------===//
// Function names (FunctionOptions::name left empty)
//===----------------------------------------------------------------------===//

namespace {
std::string demangle(const char *mangled) {
  int status = 0;
  char *out = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  if (status != 0 || !out)
    return mangled;
  std::string result(out);
  std::free(out);
  return result;
}

bool isOpen(char c) { return c == '(' || c == '<' || c == '[' || c == '{'; }
bool isClose(char c) { return c == ')' || c == '>' || c == ']' || c == '}'; }

/// Index just past the group opening at `i` (brackets balanced).
size_t groupEnd(const std::string &s, size_t i) {
  int depth = 0;
  for (; i < s.size(); ++i) {
    if (isOpen(s[i]))
      ++depth;
    else if (isClose(s[i]) && --depth == 0)
      return i + 1;
  }
  return s.size();
}

/// A demangled C++ name made an MLIR bare identifier: lambdas
/// ("{lambda(...)#2}") become "lambda2", parameter and template argument
/// lists and "(anonymous namespace)" go, qualifiers join with '_', a return
/// type (function templates) is dropped, anything else not [A-Za-z0-9_]
/// becomes '_'. Empty when nothing readable is left or the name is a
/// standard-library type (std::function without a target, std::bind...).
std::string readableName(const std::string &demangled) {
  std::string flat;
  for (size_t i = 0; i < demangled.size();) {
    char c = demangled[i];
    if (!isOpen(c)) {
      flat += c;
      ++i;
      continue;
    }
    size_t end = groupEnd(demangled, i);
    if (c == '{') {
      // GCC: {lambda(args)#N}, {unnamed type#N}.
      std::string group = demangled.substr(i, end - i);
      size_t hash = group.rfind('#');
      std::string number =
          hash == std::string::npos ? "" : group.substr(hash + 1);
      while (!number.empty() && !std::isdigit((unsigned char)number.back()))
        number.pop_back();
      if (group.rfind("{lambda", 0) == 0)
        flat += "lambda" + number;
      else if (group.rfind("{unnamed", 0) == 0)
        flat += "unnamed" + number;
    }
    i = end;
  }
  // Split at "::"; a space inside a component means what came before was a
  // return type.
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= flat.size()) {
    size_t sep = flat.find("::", start);
    std::string part = flat.substr(
        start, sep == std::string::npos ? std::string::npos : sep - start);
    start = sep == std::string::npos ? flat.size() + 1 : sep + 2;
    // Trailing qualifiers of a member function ("bar() const").
    for (bool again = true; again;) {
      again = false;
      while (!part.empty() && (part.back() == ' ' || part.back() == '&'))
        part.pop_back();
      for (const char *q : {" const", " volatile", " noexcept"}) {
        size_t n = std::strlen(q);
        if (part.size() >= n && part.compare(part.size() - n, n, q) == 0) {
          part.resize(part.size() - n);
          again = true;
        }
      }
    }
    while (!part.empty() && part.front() == ' ')
      part.erase(part.begin());
    if (size_t space = part.rfind(' '); space != std::string::npos) {
      parts.clear();
      part = part.substr(space + 1);
    }
    if (!part.empty())
      parts.push_back(part);
  }
  if (parts.empty() || parts.front() == "std" || parts.front() == "__gnu_cxx")
    return "";
  // Long names keep their innermost components.
  constexpr size_t kMaxLength = 64;
  size_t first = parts.size() - 1, length = parts.back().size();
  while (first > 0 && length + 1 + parts[first - 1].size() <= kMaxLength)
    length += 1 + parts[--first].size();
  std::string name;
  for (size_t i = first; i < parts.size(); ++i) {
    for (char c : parts[i]) {
      char ok = std::isalnum((unsigned char)c) ? c : '_';
      if (ok == '_' && (name.empty() || name.back() == '_'))
        continue;
      name += ok;
    }
    if (!name.empty() && name.back() != '_')
      name += '_';
  }
  while (!name.empty() && name.back() == '_')
    name.pop_back();
  if (name.size() > kMaxLength)
    name.erase(0, name.size() - kMaxLength);
  if (!name.empty() && std::isdigit((unsigned char)name.front()))
    name.insert(name.begin(), '_');
  return name;
}
} // namespace

std::string callable_name(const char *type_name, const void *function,
                          const void *type_key) {
  std::string name;
  if (function) {
    // Only an exact symbol: dladdr otherwise returns the nearest exported
    // symbol below the address, another function's name.
    Dl_info info{};
    if (dladdr(function, &info) && info.dli_sname && info.dli_saddr == function)
      name = readableName(demangle(info.dli_sname));
  } else if (type_name) {
    name = readableName(demangle(type_name));
  }
  // A C symbol of that name ("log", "exp") would be shadowed inside the
  // compiled module by the traced function: code lowered to a libm call
  // would call it instead. C++ functions have mangled symbols, so only a
  // clash finds one.
  if (!name.empty())
    if (void *symbol = dlsym(RTLD_DEFAULT, name.c_str());
        symbol && symbol != function)
      name += "_fn";
  if (name.empty()) {
    // One number per callable (type and address), so a function object
    // made again for the same callable gets the same name and its compiles
    // hit the compile cache.
    static std::mutex mutex;
    static std::map<std::pair<const void *, const void *>, unsigned> numbers;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = numbers.try_emplace({type_key, function}, numbers.size()).first;
    name = "fn_" + std::to_string(it->second);
  }
  return name;
}

//===----------------------------------------------------------------------===//
// Retrace log and warning (TFC_LOG=retrace, warnings)
//===----------------------------------------------------------------------===//

namespace {
/// One argument's words in a signature key (CallArgs::add): the tag word
/// and the words after it.
struct KeyArg {
  uint64_t tag;
  const uint64_t *words;
  size_t count;
  char kind() const { return static_cast<char>(tag >> 56); }
  bool operator==(const KeyArg &o) const {
    return tag == o.tag && count == o.count &&
           std::equal(words, words + count, o.words);
  }
};

std::vector<KeyArg> splitKey(const uint64_t *key, size_t n) {
  std::vector<KeyArg> args;
  for (size_t i = 0; i < n;) {
    uint64_t tag = key[i];
    size_t extra = (tag >> 56) == 't' ? (tag & 0xffffffffu) : 1;
    extra = std::min(extra, n - i - 1);
    args.push_back({tag, key + i + 1, extra});
    i += 1 + extra;
  }
  return args;
}

std::string tensorShape(const KeyArg &a) {
  std::vector<int64_t> shape;
  for (size_t i = 0; i < a.count; ++i)
    shape.push_back(static_cast<int64_t>(a.words[i]));
  return shape_to_string(shape);
}

std::string tensorDType(const KeyArg &a) {
  return std::string(to_string(static_cast<DType>((a.tag >> 32) & 0xff)));
}

std::string scalarType(const KeyArg &a) {
  uint64_t flags = a.tag & 0xff, bytes = (a.tag >> 8) & 0xff;
  if (flags & CallArgs::kBool)
    return "bool";
  std::string base = flags & CallArgs::kFloat    ? "float"
                     : flags & CallArgs::kSigned ? "int"
                                                 : "uint";
  return base + std::to_string(bytes * 8);
}

std::string scalarValue(const KeyArg &a) {
  uint64_t flags = a.tag & 0xff, bytes = (a.tag >> 8) & 0xff;
  uint64_t bits = a.count ? a.words[0] : 0;
  char buf[64];
  char *end = buf;
  if (flags & CallArgs::kBool)
    return bits & 0xff ? "true" : "false";
  if (flags & CallArgs::kFloat) {
    if (bytes == sizeof(float)) {
      float f;
      std::memcpy(&f, &bits, sizeof f);
      end = std::to_chars(buf, buf + sizeof buf, f).ptr;
    } else {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      end = std::to_chars(buf, buf + sizeof buf, d).ptr;
    }
    return std::string(buf, end);
  }
  if (bytes < 8)
    bits &= (uint64_t(1) << (bytes * 8)) - 1;
  if (flags & CallArgs::kSigned) {
    int64_t v = static_cast<int64_t>(bits);
    if (bytes < 8 && (bits >> (bytes * 8 - 1)) & 1)
      v = static_cast<int64_t>(bits | ~((uint64_t(1) << (bytes * 8)) - 1));
    return std::to_string(v);
  }
  return std::to_string(bits);
}

std::string describeArg(const KeyArg &a) {
  switch (a.kind()) {
  case 't':
    return "tensor " + tensorDType(a) + " " + tensorShape(a);
  case 'v':
    return "variable #" + std::to_string(a.count ? a.words[0] : 0);
  case 's':
    return "scalar " + scalarType(a) + " " + scalarValue(a);
  }
  return "argument";
}

/// "argument 0 shape (32, 784) -> (16, 784)" and the like.
std::string describeChange(size_t i, const KeyArg &before,
                           const KeyArg &after) {
  std::string head = "argument " + std::to_string(i);
  if (before.kind() != after.kind())
    return head + " " + describeArg(before) + " -> " + describeArg(after);
  switch (after.kind()) {
  case 't': {
    std::string out;
    std::string b = tensorDType(before), a = tensorDType(after);
    if (b != a)
      out = head + " dtype " + b + " -> " + a;
    std::string bs = tensorShape(before), as = tensorShape(after);
    if (bs != as)
      out += (out.empty() ? head : std::string(",")) + " shape " + bs + " -> " +
             as;
    return out;
  }
  case 'v':
    return head + " " + describeArg(before) + " -> " + describeArg(after) +
           " (another tfc::Variable)";
  case 's':
    if (scalarType(before) == scalarType(after))
      return head + " value " + scalarValue(before) + " -> " +
             scalarValue(after);
    return head + " scalar " + scalarType(before) + " " + scalarValue(before) +
           " -> " + scalarType(after) + " " + scalarValue(after);
  }
  return head + " changed";
}

/// What differs between the new signature and the closest earlier trace
/// (fewest differing arguments; the latest among equals). `closest` gets
/// that trace's number (1-based).
std::string describeRetrace(const std::vector<std::vector<uint64_t>> &traced,
                            const CallArgs &args, size_t &closest) {
  std::vector<KeyArg> now = splitKey(args.key.data(), args.key.size());
  size_t best = 0, bestScore = SIZE_MAX;
  for (size_t t = 0; t < traced.size(); ++t) {
    std::vector<KeyArg> old = splitKey(traced[t].data(), traced[t].size());
    size_t score =
        std::max(old.size(), now.size()) - std::min(old.size(), now.size());
    for (size_t i = 0; i < std::min(old.size(), now.size()); ++i)
      score += !(old[i] == now[i]);
    if (score <= bestScore) {
      bestScore = score;
      best = t;
    }
  }
  closest = best + 1;
  if (traced.empty())
    return "";
  std::vector<KeyArg> old = splitKey(traced[best].data(), traced[best].size());
  std::vector<std::string> changes;
  if (old.size() != now.size())
    changes.push_back(std::to_string(old.size()) + " arguments -> " +
                      std::to_string(now.size()));
  for (size_t i = 0; i < std::min(old.size(), now.size()); ++i)
    if (!(old[i] == now[i]))
      changes.push_back(describeChange(i, old[i], now[i]));
  constexpr size_t kShown = 4;
  std::string out;
  for (size_t i = 0; i < changes.size() && i < kShown; ++i)
    out += (i ? "; " : "") + changes[i];
  if (changes.size() > kShown)
    out += "; and " + std::to_string(changes.size() - kShown) + " more";
  return out.empty() ? "same signature as trace " + std::to_string(closest)
                     : out;
}

std::string ordinal(int n) {
  const char *suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1)
      suffix = "st";
    else if (n % 10 == 2)
      suffix = "nd";
    else if (n % 10 == 3)
      suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

/// The warning fires on a function's 6th trace, then on its 12th, 24th,
/// 48th, ... (TensorFlow warns after 5 retraces in a short window).
constexpr int kWarnTraces = 6;
bool warnsAt(int trace) {
  if (trace < kWarnTraces || trace % kWarnTraces)
    return false;
  int m = trace / kWarnTraces;
  return (m & (m - 1)) == 0;
}
} // namespace

FunctionCore::FunctionCore(FunctionOptions options) : impl(new Impl) {
  impl->options = std::move(options);
  if (impl->options.name.empty())
    impl->options.name = callable_name(nullptr, nullptr, nullptr);
}
FunctionCore::~FunctionCore() = default;

ConcreteFunction *FunctionCore::lookup(const CallArgs &args) {
  const CacheEntry *last = impl->last.load(std::memory_order_acquire);
  if (last && last->matches(args))
    return last->fn;
  std::lock_guard<std::mutex> lock(impl->mutex);
  auto [begin, end] = impl->cache.equal_range(
      CacheEntry::hash(args.key.data(), args.key.size()));
  for (auto it = begin; it != end; ++it)
    if (it->second.matches(args)) {
      impl->last.store(&it->second, std::memory_order_release);
      return it->second.fn;
    }
  if (!impl->options.reduce_retracing)
    return nullptr;
  // A new shape that the family's dynamic-shape function serves: remember
  // this signature for it, so the next call takes the fast path.
  auto family = impl->families.find(familyKey(args));
  if (family == impl->families.end() || !family->second.relaxed ||
      !fits(family->second.shapes, args))
    return nullptr;
  ConcreteFunction *fn = family->second.relaxed;
  auto it = impl->cache.emplace(
      CacheEntry::hash(args.key.data(), args.key.size()),
      CacheEntry{std::vector<uint64_t>(args.key.begin(), args.key.end()), fn});
  impl->last.store(&it->second, std::memory_order_release);
  return fn;
}

TraceSessionPtr FunctionCore::begin_trace(const CallArgs &args) {
  // Held until the trace is compiled and cached (or aborted): concurrent
  // first calls of one signature wait here, then find it in the cache.
  contextMutex().lock();
  try {
    if (lookup(args)) {
      contextMutex().unlock();
      return nullptr;
    }
    // reduce_retracing (TensorFlow's relaxation): a second shape in a
    // family traces once with the dims that differ made dynamic.
    std::vector<std::vector<int64_t>> relaxed;
    bool relaxFailed = false;
    if (impl->options.reduce_retracing) {
      std::lock_guard<std::mutex> lock(impl->mutex);
      auto family = impl->families.find(familyKey(args));
      relaxFailed =
          family != impl->families.end() && family->second.relaxFailed;
      if (family != impl->families.end() && !family->second.relaxFailed) {
        relaxed = family->second.shapes;
        bool dynamic = false, broadcasts = false;
        for (size_t i = 0; i < relaxed.size(); ++i)
          for (size_t d = 0; d < relaxed[i].size(); ++d) {
            int64_t actual = args.tensors[i]->shape()[d];
            if (relaxed[i][d] != actual)
              relaxed[i][d] = -1;
            dynamic |= relaxed[i][d] < 0;
            // This call's dim of 1 may broadcast: trace it with its own
            // shapes (see fits).
            broadcasts |= relaxed[i][d] < 0 && actual == 1;
          }
        if (!dynamic || broadcasts)
          relaxed.clear();
      }
    }
    reportRetrace(args, relaxed, relaxFailed);
    return TraceSessionPtr(new TraceSession(
        args, impl->tracingCount == 0, impl->options.name, std::move(relaxed)));
  } catch (...) {
    contextMutex().unlock();
    throw;
  }
}

void FunctionCore::reportRetrace(
    const CallArgs &args, const std::vector<std::vector<int64_t>> &relaxed,
    bool relaxFailed) {
  int trace = impl->tracingCount + 1;
  if (trace == 1)
    return;
  bool logIt = logging::enabled(logging::Category::Retrace);
  bool warn = false;
  std::string change;
  size_t closest = 0;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    warn = warnsAt(trace) && impl->warnedAt != trace &&
           logging::enabled(logging::Category::Warnings);
    if (warn)
      impl->warnedAt = trace;
    if (!logIt && !warn)
      return;
    change = describeRetrace(impl->tracedKeys, args, closest);
  }
  const std::string &name = impl->options.name;
  if (logIt) {
    std::string line =
        "tfc: retracing '" + name + "' (trace " + std::to_string(trace);
    if (closest != static_cast<size_t>(trace - 1))
      line += ", closest to trace " + std::to_string(closest);
    line += "): " + change;
    if (!relaxed.empty()) {
      line += "; reduce_retracing: tracing once with dynamic dims:";
      std::vector<size_t> position; // argument index of each tensor
      std::vector<KeyArg> all = splitKey(args.key.data(), args.key.size());
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i].kind() == 't')
          position.push_back(i);
      for (size_t i = 0; i < relaxed.size() && i < position.size(); ++i) {
        line += i ? ", argument " : " argument ";
        line += std::to_string(position[i]);
        line += " (";
        for (size_t d = 0; d < relaxed[i].size(); ++d) {
          if (d)
            line += ", ";
          line += relaxed[i][d] < 0 ? "?" : std::to_string(relaxed[i][d]);
        }
        line += relaxed[i].size() == 1 ? ",)" : ")";
      }
    } else if (relaxFailed) {
      line += "; reduce_retracing: the dynamic-shape trace failed, so this "
              "shape is traced as it is";
    }
    logging::emit(line);
  }
  if (warn)
    logging::emit(
        "tfc: warning: tfc::function '" + name + "' is being traced for the " +
        ordinal(trace) + " time (" + change +
        "). Each trace compiles anew, which is expensive. Tensor shapes that "
        "vary: set FunctionOptions::reduce_retracing = true; scalars that "
        "vary: pass them as tensors; new tfc::Variables: create them once, "
        "outside the function. TFC_LOG=retrace logs every retrace; "
        "TFC_LOG=-warnings silences this warning.");
}

Tensor FunctionCore::traced_argument(TraceSession &session, size_t index) {
  return session.arguments.at(index);
}

void TraceSessionDeleter::operator()(TraceSession *session) const {
  delete session;
}

void abort_trace(TraceSessionPtr session) {
  session.reset();
  contextMutex().unlock();
}

bool FunctionCore::abort_trace(TraceSessionPtr session, const CallArgs &args) {
  bool relaxed = session && !session->relaxedShapes.empty();
  ::tfc::detail::abort_trace(std::move(session));
  if (relaxed) {
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->families[familyKey(args)].relaxFailed = true;
  }
  return relaxed;
}

ConcreteFunction *
FunctionCore::finish_trace(TraceSessionPtr session, const CallArgs &args,
                           const std::vector<Tensor> &outputs) {
  auto concrete = std::make_unique<ConcreteFunction>();
  std::vector<std::vector<int64_t>> relaxedShapes = session->relaxedShapes;
  try {
    auto module = session->finish(outputs);
    if (!relaxedShapes.empty())
      checkDynamicBroadcasts(*module);
    concrete->variables = session->variables;
    concrete->numTensorArgs = args.tensors.size();
    concrete->numUserResults = outputs.size();
    const std::string &fnName = impl->options.name;
    jit::TraceInfo traceInfo;
    traceInfo.trace = impl->tracingCount + 1;
    traceInfo.traceMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - session->started)
                            .count();
    session.reset();
    jit::CompileOptions compileOptions;
    compileOptions.target = impl->options.target;
    compileOptions.opt_level = impl->options.opt_level;
    compileOptions.fuse = impl->options.fuse;
    concrete->module =
        jit::CompiledModule::Impl::compile(*module, compileOptions, traceInfo);
    concrete->signature = concrete->module->lookup(fnName);
  } catch (const Error &) {
    session.reset();
    contextMutex().unlock();
    if (relaxedShapes.empty())
      throw;
    // The dynamic-shape version did not compile: trace per shape instead
    // (the caller retraces with this call's own shapes).
    std::lock_guard<std::mutex> lock(impl->mutex);
    impl->families[familyKey(args)].relaxFailed = true;
    return nullptr;
  } catch (...) {
    session.reset();
    contextMutex().unlock();
    throw;
  }
  // Cached before the context lock is released (see begin_trace).
  std::unique_lock<std::mutex> lock(impl->mutex);
  ++impl->tracingCount;
  impl->tracedKeys.emplace_back(args.key.begin(), args.key.end());
  if (impl->options.reduce_retracing) {
    Impl::Family &family = impl->families[familyKey(args)];
    if (!relaxedShapes.empty()) {
      family.shapes = std::move(relaxedShapes);
      family.relaxed = concrete.get();
    } else if (family.shapes.empty()) {
      family.shapes = shapesOf(args);
    }
  }
  impl->latest = concrete->module;
  ConcreteFunction *raw = concrete.get();
  impl->functions.push_back(std::move(concrete));
  auto it = impl->cache.emplace(
      CacheEntry::hash(args.key.data(), args.key.size()),
      CacheEntry{std::vector<uint64_t>(args.key.begin(), args.key.end()), raw});
  impl->last.store(&it->second, std::memory_order_release);
  lock.unlock();
  contextMutex().unlock();
  return raw;
}

namespace {
/// Runs compiled code into `results`; commits variable writes on success.
void runCompiled(ConcreteFunction &fn, const CallArgs &args,
                 CallResults &results) {
  const jit::FunctionSignature &sig = *fn.signature;
  llvm::SmallVector<const Tensor *, 32> inputs(args.tensors.begin(),
                                               args.tensors.end());
  for (const auto &var : fn.variables)
    inputs.push_back(&var->value);
  results.resize(sig.results.size());
  fn.module->callInto(sig, inputs.data(), inputs.size(), results.data(),
                      /*validated=*/true); // the cache key checked them
  // Commit variable writes only now that the call has succeeded.
  Tensor *out = results.data();
  for (size_t i = 0; i < sig.writtenVars.size(); ++i) {
    size_t varIndex =
        static_cast<size_t>(sig.writtenVars[i]) - fn.numTensorArgs;
    fn.variables[varIndex]->value = std::move(out[fn.numUserResults + i]);
  }
  results.resize(fn.numUserResults);
}

/// runCompiled under a recording tape: the tape records the call once it
/// succeeded, with the variables' values from before its writes.
[[gnu::noinline, gnu::cold]] void runUnderTape(const std::string &name,
                                               ConcreteFunction &fn,
                                               const CallArgs &args,
                                               CallResults &results) {
  std::vector<Tensor> readValues;
  for (const auto &var : fn.variables)
    readValues.push_back(var->value);
  runCompiled(fn, args, results);
  record_compiled_call(name, args.tensors.data(), args.tensors.size(),
                       fn.variables, readValues, results.data(),
                       fn.numUserResults);
}
} // namespace

void FunctionCore::run(ConcreteFunction &fn, const CallArgs &args,
                       CallResults &results) {
  if (has_op_observers()) [[unlikely]]
    return runUnderTape(impl->options.name, fn, args, results);
  runCompiled(fn, args, results);
}

int FunctionCore::tracing_count() const { return impl->tracingCount; }

std::string FunctionCore::ir(std::string_view stage) const {
  std::shared_ptr<jit::CompiledModule::Impl> latest;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    latest = impl->latest;
  }
  if (!latest)
    throw InvalidArgumentError(
        "tfc::function::ir: the function has not been traced yet");
  auto it = latest->stages.find(stage);
  if (it == latest->stages.end())
    throw InvalidArgumentError("tfc::function::ir: unknown stage '" +
                               std::string(stage) +
                               "' (expected tfc, optimized, llvm-dialect or "
                               "llvm)");
  return it->second;
}

//===----------------------------------------------------------------------===//
// ExternalTrace (tfc-autodiff)
//===----------------------------------------------------------------------===//

ExternalTrace::ExternalTrace(mlir::OpBuilder &at, mlir::Location loc)
    : session(new TraceSession(at, loc)) {}
ExternalTrace::~ExternalTrace() { delete session; }
Tensor ExternalTrace::bind(mlir::Value value) {
  return session->bindValue(value);
}
mlir::Value ExternalTrace::value(const Tensor &t) {
  return session->valueOf(t);
}

//===----------------------------------------------------------------------===//
// Stacks in a trace (GradientTape.cpp)
//===----------------------------------------------------------------------===//

std::optional<TracedStack> trace_stack_new(TraceHook *hook, DType dtype,
                                           const std::vector<int64_t> &shape) {
  auto *session = dynamic_cast<TraceSession *>(hook);
  if (!session)
    return std::nullopt;
  for (int64_t d : shape)
    if (d < 0)
      return std::nullopt;
  return TracedStack{session, session->stackNew(dtype, shape)};
}

void trace_stack_push(const TracedStack &stack, const Tensor &value) {
  stack.session->stackPush(stack.handle, value);
}

Tensor trace_stack_pop(const TracedStack &stack) {
  return stack.session->stackPop(stack.handle);
}

void trace_stack_free(const TracedStack &stack) {
  stack.session->stackFree(stack.handle);
}

} // namespace tfc::detail
