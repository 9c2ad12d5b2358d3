//===- Interpreter.cpp - Run tfc IR op by op on the runtime kernels -------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Each tfc op that has a runtime kernel is decoded once into (OpKind,
// OpAttrs) and run through `tfc::execute`; constants are materialised once.
// Structured control flow, calls, variables, print and assert are
// interpreted here. Blocks are iterated with plain loops so that tfc::Error
// exceptions never unwind through MLIR frames (MLIR is built without
// exceptions).
//
//===----------------------------------------------------------------------===//

#include "tfc/Interpreter/Interpreter.h"

#include "tfc/Bridge/OpDecoding.h"
#include "tfc/Bridge/Types.h"
#include "tfc/Dialect/Tfc/IR/TfcDialect.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/JIT/CompiledModule.h"
#include "tfc/JIT/JIT.h"
#include "tfc/SharedContext.h"
#include "tfc/SourceLimits.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Ops.h"
#include "tfc/runtime/Print.h"
#include "tfc/runtime/PrintSink.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::StringRef;
using mlir::Block;
using mlir::Location;
using mlir::Operation;
using mlir::RankedTensorType;
using mlir::Region;
using mlir::Type;
using mlir::Value;

namespace tfc::interpreter {

//===----------------------------------------------------------------------===//
// Locations and messages
//===----------------------------------------------------------------------===//

std::optional<std::string> fileLine(Location loc) {
  // Plain recursion over the location kinds: no walk callbacks.
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(loc))
    return file.getFilename().str() + ":" + std::to_string(file.getLine());
  if (auto name = llvm::dyn_cast<mlir::NameLoc>(loc))
    return fileLine(name.getChildLoc());
  if (auto site = llvm::dyn_cast<mlir::CallSiteLoc>(loc))
    return fileLine(site.getCallee());
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(loc)) {
    for (Location inner : fused.getLocations())
      if (auto found = fileLine(inner))
        return found;
    return std::nullopt;
  }
  if (auto opaque = llvm::dyn_cast<mlir::OpaqueLoc>(loc))
    return fileLine(opaque.getFallbackLocation());
  return std::nullopt;
}

namespace {

/// Upper bound on nested `func.call`s: deeper recursion would exhaust the
/// native stack, so it becomes an error instead of a crash.
constexpr unsigned kMaxCallDepth = 512;

/// " (at file:line)", the suffix the eager API and the JIT put on errors;
/// without a file location, the location as MLIR prints it.
std::string locationSuffix(Location loc) {
  if (auto fl = fileLine(loc))
    return " (at " + *fl + ")";
  if (llvm::isa<mlir::UnknownLoc>(loc))
    return {};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return " (at " + text + ")";
}

std::string opName(Operation *op) { return op->getName().getStringRef().str(); }

std::string typeToString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// "(2, ?)": a shape with -1 for dynamic dims, spelled like Python tuples.
std::string shapeToString(ArrayRef<int64_t> shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += mlir::ShapedType::isDynamic(shape[i]) || shape[i] < 0
             ? "?"
             : std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  return s + ")";
}

std::string describe(const Tensor &t) {
  return std::string(to_string(t.dtype())) + " " + shape_to_string(t.shape());
}

DType dtypeOf(Type elementType, Operation *op) {
  DType dtype;
  if (!bridge::toDType(elementType, dtype))
    throw CompileError(opName(op) + ": unsupported element type " +
                       typeToString(elementType) +
                       locationSuffix(op->getLoc()));
  return dtype;
}

std::string describe(RankedTensorType type, Operation *op) {
  return std::string(to_string(dtypeOf(type.getElementType(), op))) + " " +
         shapeToString(type.getShape());
}

/// Whether `t` has the element type, rank and static dims of `type`.
bool matches(const Tensor &t, RankedTensorType type) {
  DType dtype;
  if (!bridge::toDType(type.getElementType(), dtype) || t.dtype() != dtype ||
      t.rank() != type.getRank())
    return false;
  for (auto [dim, actual] : llvm::zip_equal(type.getShape(), t.shape()))
    if (!mlir::ShapedType::isDynamic(dim) && dim != actual)
      return false;
  return true;
}

/// Inside a catch block: rethrows the current tfc::Error as the same class
/// with `suffix` appended to its message.
[[noreturn]] void rethrowWithSuffix(const std::string &suffix) {
  try {
    throw;
  } catch (const InvalidArgumentError &e) {
    throw InvalidArgumentError(e.what() + suffix);
  } catch (const CompileError &e) {
    throw CompileError(e.what() + suffix);
  } catch (const RuntimeError &e) {
    throw RuntimeError(e.what() + suffix);
  } catch (const Error &e) {
    throw Error(e.what() + suffix);
  }
}

/// Collects every diagnostic emitted while alive as "loc: error: msg" lines.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &ctx)
      : handler(&ctx, [this](mlir::Diagnostic &diag) {
          append(diag);
          return mlir::success();
        }) {}
  std::string text;

private:
  void append(mlir::Diagnostic &diag) {
    llvm::raw_string_ostream os(text);
    os << diag.getLocation() << ": ";
    switch (diag.getSeverity()) {
    case mlir::DiagnosticSeverity::Error:
      os << "error: ";
      break;
    case mlir::DiagnosticSeverity::Warning:
      os << "warning: ";
      break;
    case mlir::DiagnosticSeverity::Note:
      os << "note: ";
      break;
    case mlir::DiagnosticSeverity::Remark:
      os << "remark: ";
      break;
    }
    os << diag << "\n";
    for (auto &note : diag.getNotes())
      os << note.getLocation() << ": note: " << note << "\n";
  }
  mlir::ScopedDiagnosticHandler handler;
};

/// How to run one kernel op, decoded once from its attributes and types.
struct KernelPlan {
  OpKind kind = OpKind::Add;
  OpAttrs attrs;
  /// The op is the identity on its operand (reductions and squeeze with no
  /// axes: the dialect's meaning, where the runtime's would be "all axes").
  bool identity = false;
  /// broadcast_to with dynamic dims in its target: per dim of the target,
  /// the operand (0) or `like` (1) and its dim that size it at run time
  /// (BroadcastToOp::dynamicDimSource); empty when the target is static.
  SmallVector<std::pair<unsigned, int64_t>> broadcastSources;
  /// Elementwise with several operands: shapes must agree at run time (the
  /// dialect never broadcasts implicitly; the kernels would).
  bool sameShapeOperands = false;
};

using Env = llvm::DenseMap<Value, RuntimeValue>;

} // namespace

//===----------------------------------------------------------------------===//
// Interpreter::Impl
//===----------------------------------------------------------------------===//

class Interpreter::Impl {
public:
  explicit Impl(mlir::ModuleOp module) : module(module), symbols(module) {}

  std::vector<RuntimeValue> callFunction(mlir::func::FuncOp fn,
                                         ArrayRef<RuntimeValue> args);
  void checkArguments(mlir::func::FuncOp fn, ArrayRef<RuntimeValue> args);

  mlir::ModuleOp module;
  mlir::SymbolTable symbols;

private:
  Operation *runBlock(Block &block, Env &env);
  void runOp(Operation *op, Env &env);
  void runKernel(Operation *op, OpKind kind, Env &env);
  void runIf(mlir::tfc::IfOp op, Env &env);
  /// A fusion computes what its body computes, op by op.
  void runFusion(mlir::tfc::FusionOp op, Env &env);
  void runWhile(mlir::tfc::WhileOp op, Env &env);
  void runCall(mlir::func::CallOp op, Env &env);
  void runVariableOp(Operation *op, Env &env);
  void runPrint(mlir::tfc::PrintOp op, Env &env);
  void runAssert(mlir::tfc::AssertOp op, Env &env);
  const Tensor &constant(mlir::tfc::ConstantOp op);
  KernelPlan &plan(Operation *op, OpKind kind);
  // --- tfc-autodiff: stacks and custom gradients ---------------------------
  /// A `!tfc.stack` value is an int64 scalar indexing `stacks`.
  void runStackOp(Operation *op, Env &env);
  void runCustomGradient(mlir::tfc::CustomGradientOp op, Env &env);
  std::vector<Tensor> &stackOf(const Env &env, Value handle, Operation *user);
  std::vector<std::optional<std::vector<Tensor>>> stacks;
  // --- end tfc-autodiff ----------------------------------------------------

  const RuntimeValue &lookup(const Env &env, Value value, Operation *user);
  const Tensor &tensorOf(const Env &env, Value value, Operation *user);
  const VariableRef &variableOf(const Env &env, Value value, Operation *user);
  SmallVector<RuntimeValue, 4> collect(mlir::ValueRange values, const Env &env,
                                       Operation *user);
  bool predicate(const Env &env, Value value, Operation *user);

  llvm::DenseMap<Operation *, KernelPlan> plans;
  llvm::DenseMap<Operation *, Tensor> constants;
  unsigned callDepth = 0;
};

const RuntimeValue &Interpreter::Impl::lookup(const Env &env, Value value,
                                              Operation *user) {
  auto it = env.find(value);
  // Verified IR defines every value before its use; this guards the rest.
  if (it == env.end())
    throw CompileError(opName(user) +
                       ": operand has no value (is it defined "
                       "in a region that did not run?)" +
                       locationSuffix(user->getLoc()));
  return it->second;
}

const Tensor &Interpreter::Impl::tensorOf(const Env &env, Value value,
                                          Operation *user) {
  const RuntimeValue &v = lookup(env, value, user);
  if (const Tensor *t = std::get_if<Tensor>(&v))
    return *t;
  throw CompileError(opName(user) +
                     ": expected a tensor operand, got a "
                     "variable" +
                     locationSuffix(user->getLoc()));
}

const VariableRef &Interpreter::Impl::variableOf(const Env &env, Value value,
                                                 Operation *user) {
  const RuntimeValue &v = lookup(env, value, user);
  if (const VariableRef *ref = std::get_if<VariableRef>(&v))
    return *ref;
  throw CompileError(opName(user) +
                     ": expected a variable operand, got a "
                     "tensor" +
                     locationSuffix(user->getLoc()));
}

SmallVector<RuntimeValue, 4> Interpreter::Impl::collect(mlir::ValueRange values,
                                                        const Env &env,
                                                        Operation *user) {
  SmallVector<RuntimeValue, 4> out;
  out.reserve(values.size());
  for (Value v : values)
    out.push_back(lookup(env, v, user));
  return out;
}

bool Interpreter::Impl::predicate(const Env &env, Value value,
                                  Operation *user) {
  const Tensor &t = tensorOf(env, value, user);
  if (t.dtype() != DType::Bool || t.numel() != 1)
    throw InvalidArgumentError(opName(user) +
                               ": the predicate must be one "
                               "bool, got " +
                               describe(t) + locationSuffix(user->getLoc()));
  return t.data<bool>()[0];
}

/// Binds `values` to `targets` (not named `bind`: ADL would pick std::bind).
static void bindValues(Env &env, mlir::ValueRange targets,
                       ArrayRef<RuntimeValue> values) {
  for (auto [target, value] : llvm::zip_equal(targets, values))
    env[target] = value;
}

Operation *Interpreter::Impl::runBlock(Block &block, Env &env) {
  for (Operation &op : block) {
    if (op.hasTrait<mlir::OpTrait::IsTerminator>())
      return &op;
    runOp(&op, env);
  }
  Operation *parent = block.getParentOp();
  throw CompileError(opName(parent) + ": a region has no terminator" +
                     locationSuffix(parent->getLoc()));
}

std::vector<RuntimeValue>
Interpreter::Impl::callFunction(mlir::func::FuncOp fn,
                                ArrayRef<RuntimeValue> args) {
  if (fn.isDeclaration())
    throw CompileError("function @" + fn.getName().str() +
                       " has no body to interpret" +
                       locationSuffix(fn.getLoc()));
  Region &body = fn.getBody();
  if (!llvm::hasSingleElement(body))
    throw CompileError("function @" + fn.getName().str() +
                       " has several blocks; the interpreter runs "
                       "single-block tfc functions" +
                       locationSuffix(fn.getLoc()));
  Block &entry = body.front();
  Env env;
  bindValues(env, entry.getArguments(), args);
  Operation *terminator = runBlock(entry, env);
  if (!llvm::isa<mlir::func::ReturnOp>(terminator))
    throw CompileError("function @" + fn.getName().str() + " ends in " +
                       opName(terminator) + ", expected func.return" +
                       locationSuffix(terminator->getLoc()));
  auto results = collect(terminator->getOperands(), env, terminator);
  return std::vector<RuntimeValue>(results.begin(), results.end());
}

void Interpreter::Impl::checkArguments(mlir::func::FuncOp fn,
                                       ArrayRef<RuntimeValue> args) {
  std::string where = "interpret @" + fn.getName().str();
  mlir::FunctionType type = fn.getFunctionType();
  if (args.size() != type.getNumInputs())
    throw InvalidArgumentError(
        where + ": expected " + std::to_string(type.getNumInputs()) +
        " arguments, got " + std::to_string(args.size()));
  Operation *op = fn.getOperation();
  for (auto [i, input] : llvm::enumerate(type.getInputs())) {
    std::string arg = where + ": argument " + std::to_string(i);
    if (auto tensorType = llvm::dyn_cast<RankedTensorType>(input)) {
      const Tensor *t = std::get_if<Tensor>(&args[i]);
      if (!t)
        throw InvalidArgumentError(arg + " must be a tensor, got a variable");
      if (!t->defined() || t->is_symbolic())
        throw InvalidArgumentError(arg + " is not a concrete tensor");
      if (!matches(*t, tensorType))
        throw InvalidArgumentError(arg + " expected " +
                                   describe(tensorType, op) + ", got " +
                                   describe(*t));
      continue;
    }
    if (auto varType = llvm::dyn_cast<mlir::tfc::VarType>(input)) {
      const VariableRef *ref = std::get_if<VariableRef>(&args[i]);
      if (!ref || !*ref)
        throw InvalidArgumentError(arg + " is a " + typeToString(input) +
                                   " parameter and needs a variable");
      const Tensor &value = (*ref)->value;
      if (!value.defined() || value.is_symbolic())
        throw InvalidArgumentError(arg +
                                   ": the variable has no concrete value");
      if (!matches(value, varType.getValueType()))
        throw InvalidArgumentError(
            arg + " is a " + typeToString(input) + " whose value must be " +
            describe(varType.getValueType(), op) + ", got " + describe(value));
      continue;
    }
    throw InvalidArgumentError(arg + " has type " + typeToString(input) +
                               ", which the interpreter cannot pass");
  }
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

void Interpreter::Impl::runOp(Operation *op, Env &env) {
  if (auto c = llvm::dyn_cast<mlir::tfc::ConstantOp>(op)) {
    env[c.getResult()] = constant(c);
    return;
  }
  if (auto ifOp = llvm::dyn_cast<mlir::tfc::IfOp>(op))
    return runIf(ifOp, env);
  if (auto fusion = llvm::dyn_cast<mlir::tfc::FusionOp>(op))
    return runFusion(fusion, env);
  if (auto whileOp = llvm::dyn_cast<mlir::tfc::WhileOp>(op))
    return runWhile(whileOp, env);
  if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op))
    return runCall(call, env);
  if (llvm::isa<mlir::tfc::VarReadOp, mlir::tfc::VarAssignOp,
                mlir::tfc::VarAssignAddOp, mlir::tfc::VarAssignSubOp>(op))
    return runVariableOp(op, env);
  if (auto print = llvm::dyn_cast<mlir::tfc::PrintOp>(op))
    return runPrint(print, env);
  if (auto check = llvm::dyn_cast<mlir::tfc::AssertOp>(op))
    return runAssert(check, env);
  if (llvm::isa<mlir::tfc::StackNewOp, mlir::tfc::StackPushOp,
                mlir::tfc::StackPopOp, mlir::tfc::StackSizeOp,
                mlir::tfc::StackFreeOp>(op))
    return runStackOp(op, env); // tfc-autodiff
  if (auto custom = llvm::dyn_cast<mlir::tfc::CustomGradientOp>(op))
    return runCustomGradient(custom, env); // tfc-autodiff
  if (std::optional<OpKind> kind = bridge::kernelOpKind(op))
    return runKernel(op, *kind, env);
  throw CompileError("the interpreter cannot run '" + opName(op) + "'" +
                     locationSuffix(op->getLoc()));
}

const Tensor &Interpreter::Impl::constant(mlir::tfc::ConstantOp op) {
  auto it = constants.find(op.getOperation());
  if (it != constants.end())
    return it->second;
  auto attr = llvm::dyn_cast<mlir::DenseElementsAttr>(op.getValue());
  if (!attr)
    throw CompileError("tfc.constant: only dense<...> values can be "
                       "interpreted, got " +
                       typeToString(op.getValue().getType()) +
                       locationSuffix(op.getLoc()));
  auto type = llvm::cast<RankedTensorType>(attr.getType());
  if (!type.hasStaticShape())
    throw CompileError("tfc.constant: the value must have a static shape" +
                       locationSuffix(op.getLoc()));
  DType dtype = dtypeOf(type.getElementType(), op);
  Tensor t = Tensor::empty(dtype, std::vector<int64_t>(type.getShape().begin(),
                                                       type.getShape().end()));
  if (t.numel() > 0)
    dispatch_dtype(dtype, [&](auto tag) {
      using T = decltype(tag);
      T *out = t.data<T>();
      int64_t i = 0;
      // getValues expands splats.
      for (T v : attr.getValues<T>())
        out[i++] = v;
    });
  return constants.try_emplace(op.getOperation(), std::move(t)).first->second;
}

KernelPlan &Interpreter::Impl::plan(Operation *op, OpKind kind) {
  auto it = plans.find(op);
  if (it != plans.end())
    return it->second;

  KernelPlan p;
  std::string why;
  std::optional<bridge::DecodedOp> decoded = bridge::decodeKernelOp(op, why);
  if (!decoded)
    throw CompileError(opName(op) + ": " + why + locationSuffix(op->getLoc()));
  p.kind = kind;
  p.attrs = std::move(decoded->attrs);
  p.identity = decoded->identity;
  if (kind == OpKind::Reshape) {
    // The runtime infers one -1 dim; more are ambiguous without a shape
    // operand, which the dialect does not have.
    if (llvm::count(p.attrs.shape, -1) > 1)
      throw CompileError(opName(op) + ": cannot interpret a reshape to " +
                         typeToString(op->getResult(0).getType()) +
                         ": more than one dynamic dim" +
                         locationSuffix(op->getLoc()));
  }
  if (auto bcast = dyn_cast<mlir::tfc::BroadcastToOp>(op);
      bcast && llvm::is_contained(p.attrs.shape, -1)) {
    for (size_t i = 0; i < p.attrs.shape.size(); ++i) {
      auto source =
          p.attrs.shape[i] < 0 ? bcast.dynamicDimSource(i) : std::nullopt;
      if (p.attrs.shape[i] < 0 && !source)
        throw CompileError(opName(op) + ": dynamic dim " + std::to_string(i) +
                           " of the target has no operand dim to take its "
                           "size from" +
                           locationSuffix(op->getLoc()));
      p.broadcastSources.emplace_back(
          source ? unsigned(source->first == bcast.getLike()) : 0u,
          source ? source->second : -1);
    }
  }
  p.sameShapeOperands =
      op->hasTrait<mlir::OpTrait::Elementwise>() && op->getNumOperands() > 1;
  return plans.try_emplace(op, std::move(p)).first->second;
}

void Interpreter::Impl::runKernel(Operation *op, OpKind kind, Env &env) {
  const KernelPlan &p = plan(op, kind);
  SmallVector<Tensor, 4> inputs;
  inputs.reserve(op->getNumOperands());
  for (Value v : op->getOperands())
    inputs.push_back(tensorOf(env, v, op));

  Tensor result;
  try {
    if (p.sameShapeOperands)
      for (const Tensor &t : inputs)
        if (t.shape() != inputs.front().shape())
          throw InvalidArgumentError(
              opName(op) + ": operand shapes " +
              shape_to_string(inputs.front().shape()) + " and " +
              shape_to_string(t.shape()) +
              " differ at run time; elementwise ops do not broadcast");
    if (p.identity) {
      result = inputs.front();
    } else if (!p.broadcastSources.empty()) {
      OpAttrs attrs = p.attrs;
      for (size_t i = 0; i < attrs.shape.size(); ++i)
        if (attrs.shape[i] < 0) {
          auto [from, dim] = p.broadcastSources[i];
          attrs.shape[i] = inputs[from].shape()[size_t(dim)];
        }
      // `like` must fit the result (its dims equal or 1), as the JIT checks.
      if (inputs.size() > 1) {
        const auto &like = inputs[1].shape();
        size_t off = attrs.shape.size() - like.size();
        for (size_t k = 0; k < like.size(); ++k)
          if (like[k] != 1 && like[k] != attrs.shape[k + off])
            throw InvalidArgumentError(
                opName(op) + ": cannot broadcast a tensor of shape " +
                shape_to_string(inputs[0].shape()) +
                " like a tensor of shape " + shape_to_string(like) + " to " +
                typeToString(op->getResult(0).getType()));
      }
      result = execute(p.kind, inputs.data(), 1, attrs);
    } else if (p.kind == OpKind::BroadcastTo) {
      result = execute(p.kind, inputs.data(), 1, p.attrs); // `like`: unread
    } else {
      result = execute(p.kind, inputs.data(), inputs.size(), p.attrs);
    }
    auto type = llvm::cast<RankedTensorType>(op->getResult(0).getType());
    if (!matches(result, type))
      throw RuntimeError(opName(op) + " computed " + describe(result) +
                         " but its result type is " + typeToString(type));
  } catch (const Error &) {
    rethrowWithSuffix(locationSuffix(op->getLoc()));
  }
  env[op->getResult(0)] = std::move(result);
}

void Interpreter::Impl::runIf(mlir::tfc::IfOp op, Env &env) {
  bool taken = predicate(env, op.getCondition(), op);
  Region &region = taken ? op.getThenRegion() : op.getElseRegion();
  if (region.empty()) // No else region: no results either.
    return;
  Operation *terminator = runBlock(region.front(), env);
  auto results = collect(terminator->getOperands(), env, terminator);
  if (results.size() != op->getNumResults())
    throw CompileError("tfc.if: a branch yields " +
                       std::to_string(results.size()) + " values for " +
                       std::to_string(op->getNumResults()) + " results" +
                       locationSuffix(op.getLoc()));
  bindValues(env, op->getResults(), results);
}

void Interpreter::Impl::runFusion(mlir::tfc::FusionOp op, Env &env) {
  Block &body = op.getBody().front();
  bindValues(env, body.getArguments(), collect(op.getInputs(), env, op));
  Operation *yield = runBlock(body, env);
  bindValues(env, op->getResults(), collect(yield->getOperands(), env, yield));
}

void Interpreter::Impl::runWhile(mlir::tfc::WhileOp op, Env &env) {
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  SmallVector<RuntimeValue, 4> carried = collect(op.getInits(), env, op);
  // No iteration limit: a loop runs as long as its program says.
  while (true) {
    bindValues(env, before.getArguments(), carried);
    Operation *terminator = runBlock(before, env);
    auto condition = llvm::dyn_cast<mlir::tfc::ConditionOp>(terminator);
    if (!condition)
      throw CompileError("tfc.while: the before region must end in "
                         "tfc.condition" +
                         locationSuffix(op.getLoc()));
    bool again = predicate(env, condition.getCondition(), condition);
    auto values = collect(condition.getArgs(), env, condition);
    if (!again) {
      bindValues(env, op->getResults(), values);
      return;
    }
    bindValues(env, after.getArguments(), values);
    Operation *yield = runBlock(after, env);
    carried = collect(yield->getOperands(), env, yield);
  }
}

void Interpreter::Impl::runCall(mlir::func::CallOp op, Env &env) {
  auto callee = symbols.lookup<mlir::func::FuncOp>(op.getCallee());
  if (!callee)
    throw CompileError("func.call: no function @" + op.getCallee().str() +
                       " in the module" + locationSuffix(op.getLoc()));
  auto args = collect(op.getOperands(), env, op);
  if (callDepth >= kMaxCallDepth)
    throw RuntimeError("func.call @" + op.getCallee().str() +
                       ": calls nested deeper than " +
                       std::to_string(kMaxCallDepth) +
                       " (unbounded recursion?)" + locationSuffix(op.getLoc()));
  ++callDepth;
  std::vector<RuntimeValue> results;
  try {
    results = callFunction(callee, args);
  } catch (...) {
    --callDepth;
    throw;
  }
  --callDepth;
  bindValues(env, op->getResults(), results);
}

void Interpreter::Impl::runVariableOp(Operation *op, Env &env) {
  const VariableRef &var = variableOf(env, op->getOperand(0), op);
  auto varType = llvm::cast<mlir::tfc::VarType>(op->getOperand(0).getType());
  if (auto read = llvm::dyn_cast<mlir::tfc::VarReadOp>(op)) {
    env[read.getResult()] = var->value;
    return;
  }
  const Tensor &x = tensorOf(env, op->getOperand(1), op);
  try {
    Tensor next;
    if (llvm::isa<mlir::tfc::VarAssignOp>(op)) {
      next = x;
    } else {
      // Same shapes, as for every elementwise op: no implicit broadcast.
      if (x.shape() != var->value.shape())
        throw InvalidArgumentError(
            opName(op) + ": the value has shape " + shape_to_string(x.shape()) +
            " but the variable holds " + shape_to_string(var->value.shape()));
      OpKind kind =
          llvm::isa<mlir::tfc::VarAssignAddOp>(op) ? OpKind::Add : OpKind::Sub;
      next = execute(kind, {var->value, x});
    }
    if (!matches(next, varType.getValueType()))
      throw InvalidArgumentError(opName(op) + ": a " + describe(next) +
                                 " value does not fit " +
                                 typeToString(varType));
    var->value = std::move(next);
  } catch (const Error &) {
    rethrowWithSuffix(locationSuffix(op->getLoc()));
  }
}

void Interpreter::Impl::runPrint(mlir::tfc::PrintOp op, Env &env) {
  // The eager `tfc::print` line: the label, then each tensor's data.
  std::string line = op.getLabel().str();
  for (Value v : op.getInputs()) {
    if (!line.empty())
      line += ' ';
    line += format_data(tensorOf(env, v, op));
  }
  print_line(line);
}

void Interpreter::Impl::runAssert(mlir::tfc::AssertOp op, Env &env) {
  if (predicate(env, op.getCondition(), op))
    return;
  // The JIT reports the same text (message, then the op's file:line).
  std::string message = op.getMessage().str();
  if (auto fl = fileLine(op.getLoc()))
    message += " (at " + *fl + ")";
  throw RuntimeError(message);
}

//===----------------------------------------------------------------------===//
// tfc-autodiff: stacks and custom gradients
//===----------------------------------------------------------------------===//

std::vector<Tensor> &Interpreter::Impl::stackOf(const Env &env, Value handle,
                                                Operation *user) {
  const Tensor &t = tensorOf(env, handle, user);
  int64_t id = t.data<int64_t>()[0];
  if (id < 0 || id >= static_cast<int64_t>(stacks.size()) || !stacks[id])
    throw RuntimeError(opName(user) + ": the stack was freed" +
                       locationSuffix(user->getLoc()));
  return *stacks[id];
}

void Interpreter::Impl::runStackOp(Operation *op, Env &env) {
  if (auto create = llvm::dyn_cast<mlir::tfc::StackNewOp>(op)) {
    Tensor handle = Tensor::empty(DType::Int64, {});
    handle.data<int64_t>()[0] = static_cast<int64_t>(stacks.size());
    stacks.emplace_back(std::vector<Tensor>());
    env[create.getStack()] = handle;
    return;
  }
  std::vector<Tensor> &stack = stackOf(env, op->getOperand(0), op);
  if (auto push = llvm::dyn_cast<mlir::tfc::StackPushOp>(op)) {
    stack.push_back(tensorOf(env, push.getValue(), op));
  } else if (auto pop = llvm::dyn_cast<mlir::tfc::StackPopOp>(op)) {
    if (stack.empty())
      throw RuntimeError("tfc.stack_pop: the stack is empty" +
                         locationSuffix(op->getLoc()));
    env[pop.getValue()] = std::move(stack.back());
    stack.pop_back();
  } else if (auto size = llvm::dyn_cast<mlir::tfc::StackSizeOp>(op)) {
    Tensor n = Tensor::empty(DType::Int64, {});
    n.data<int64_t>()[0] = static_cast<int64_t>(stack.size());
    env[size.getSize()] = n;
  } else {
    int64_t id = tensorOf(env, op->getOperand(0), op).data<int64_t>()[0];
    stacks[id].reset();
  }
}

void Interpreter::Impl::runCustomGradient(mlir::tfc::CustomGradientOp op,
                                          Env &env) {
  // Running the op runs its forward region; backward is for tfc-autodiff.
  Block &forward = op.getForward().front();
  bindValues(env, forward.getArguments(), collect(op.getInputs(), env, op));
  Operation *terminator = runBlock(forward, env);
  bindValues(env, op->getResults(),
             collect(terminator->getOperands(), env, terminator));
}

//===----------------------------------------------------------------------===//
// Interpreter
//===----------------------------------------------------------------------===//

Interpreter::Interpreter(mlir::ModuleOp module)
    : impl(std::make_unique<Impl>(module)) {}

Interpreter::~Interpreter() = default;

std::vector<std::string> Interpreter::publicFunctions() const {
  std::vector<std::string> names;
  for (auto fn : impl->module.getOps<mlir::func::FuncOp>())
    if (fn.isPublic() && !fn.isDeclaration())
      names.push_back(fn.getName().str());
  return names;
}

std::vector<RuntimeValue> Interpreter::run(StringRef function,
                                           ArrayRef<RuntimeValue> args) {
  auto fn = impl->symbols.lookup<mlir::func::FuncOp>(function);
  if (!fn || fn.isDeclaration()) {
    std::string known;
    for (const std::string &name : publicFunctions())
      known += (known.empty() ? "" : ", ") + ("@" + name);
    throw InvalidArgumentError("interpret: no function @" + function.str() +
                               " with a body in the module (public "
                               "functions: " +
                               (known.empty() ? "none" : known) + ")");
  }
  impl->checkArguments(fn, args);
  // A failed call leaves every variable as it was (docs/api.md, Errors).
  std::vector<std::pair<VariableRef, Tensor>> saved;
  for (const RuntimeValue &arg : args)
    if (const VariableRef *ref = std::get_if<VariableRef>(&arg))
      saved.emplace_back(*ref, (*ref)->value);
  try {
    return impl->callFunction(fn, args);
  } catch (...) {
    for (auto &[ref, value] : llvm::reverse(saved))
      ref->value = value;
    throw;
  }
}

RunResult Interpreter::runWithInitialValues(StringRef function,
                                            ArrayRef<Tensor> args) {
  auto fn = impl->symbols.lookup<mlir::func::FuncOp>(function);
  std::vector<RuntimeValue> values;
  std::vector<std::pair<unsigned, VariableRef>> slots;
  for (auto [i, t] : llvm::enumerate(args)) {
    bool isVar = fn && i < fn.getNumArguments() &&
                 llvm::isa<mlir::tfc::VarType>(fn.getArgumentTypes()[i]);
    if (isVar) {
      auto slot = std::make_shared<VariableSlot>(VariableSlot{t});
      slots.emplace_back(static_cast<unsigned>(i), slot);
      values.emplace_back(std::move(slot));
    } else {
      values.emplace_back(t);
    }
  }
  std::vector<RuntimeValue> out = run(function, values);
  RunResult result;
  for (RuntimeValue &v : out) {
    if (auto *ref = std::get_if<VariableRef>(&v))
      result.results.push_back((*ref)->value);
    else
      result.results.push_back(std::get<Tensor>(std::move(v)));
  }
  for (auto &[index, slot] : slots)
    result.variables.emplace_back(index, slot->value);
  return result;
}

mlir::OwningOpRef<mlir::ModuleOp> parseModule(StringRef text,
                                              StringRef bufferName) {
  if (std::string deep = jit::checkSourceNesting(
          std::string_view(text.data(), text.size()),
          std::string_view(bufferName.data(), bufferName.size()));
      !deep.empty())
    throw CompileError("failed to parse the tfc module:\n" + deep);
  // The shared context is unlocked (threading off): serialise with the JIT
  // and the tracer.
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  mlir::MLIRContext &ctx = ::tfc::sharedContext();
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string diagnostics;
  bool verified = false;
  {
    DiagnosticCollector diags(ctx);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
    module = jit::parseSourceGuarded(sourceMgr, &ctx);
    verified = module && succeeded(mlir::verify(*module));
    diagnostics = diags.text;
  }
  if (!module)
    throw CompileError("failed to parse the tfc module:\n" + diagnostics);
  if (!verified)
    throw CompileError("the tfc module failed to verify:\n" + diagnostics);
  return module;
}

} // namespace tfc::interpreter

//===----------------------------------------------------------------------===//
// tfc::jit::interpret (declared in CompiledModule.h)
//===----------------------------------------------------------------------===//

std::vector<tfc::Tensor> tfc::jit::interpret(std::string_view mlir_text,
                                             std::string_view function,
                                             const std::vector<Tensor> &args) {
  /// Erases the module under the context lock, also when the run throws.
  struct LockedModule {
    mlir::OwningOpRef<mlir::ModuleOp> module;
    ~LockedModule() {
      std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
      module = mlir::OwningOpRef<mlir::ModuleOp>();
    }
  };
  LockedModule owned{interpreter::parseModule(
      StringRef(mlir_text.data(), mlir_text.size()), "<source>")};
  interpreter::Interpreter interp(*owned.module);
  return interp
      .runWithInitialValues(StringRef(function.data(), function.size()), args)
      .results;
}
