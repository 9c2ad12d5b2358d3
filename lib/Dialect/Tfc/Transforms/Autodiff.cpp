//===- Autodiff.cpp - tfc-autodiff: reverse mode over tfc IR -------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// For each function a `tfc.grad` differentiates, generates its vector-Jacobian
// product `@f_vjp(args..., dys...) -> (dargs...)` in the tfc dialect and
// replaces the `tfc.grad` by a call. A block is differentiated in two sweeps:
// its ops are cloned forward, then walked backwards keeping a map from each
// original value to its adjoint. Kernel ops use the ops layer's gradient rules
// (tfc::bridge::emitGradientRule, shared with the eager tape). Regions
// are differentiated by recomputing their forward ops inside the adjoint
// region (an `if` branch once; a `while` body once per iteration, from the
// loop values the forward loop pushed on stacks), so the work stays O(N) in
// the number of iterations. See docs/autodiff.md.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"

#include "tfc/Bridge/GradientRules.h"

#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCAUTODIFFPASS
#define GEN_PASS_DEF_TFCVJPPASS
#include "tfc/Dialect/Tfc/Transforms/AutodiffPasses.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using namespace mlir::tfc;

namespace {

bool isFloatTensor(Type t) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Original value -> its adjoint, built in the gradient function.
using AdjointMap = llvm::DenseMap<Value, Value>;

/// What the forward clone of a `tfc.while` recorded for its adjoint: one
/// stack per loop-carried value (the values entering each iteration) and the
/// number of iterations run.
struct WhileTape {
  SmallVector<Value> stacks;
  Value count;
};
using Tapes = llvm::DenseMap<Operation *, WhileTape>;

/// b.clone(op, map) with fresh block arguments in `op`'s regions. MLIR's
/// region cloning reuses a block argument's mapped value instead of cloning
/// the argument, and `map` may still map the arguments of these very
/// blocks from an earlier clone of the same op (a loop body cloned once per
/// recomputation): forget those mappings first.
Operation *cloneFresh(OpBuilder &b, Operation &op, IRMapping &map) {
  for (Region &region : op.getRegions())
    region.walk([&](Block *block) {
      for (BlockArgument arg : block->getArguments())
        map.erase(arg);
    });
  return b.clone(op, map);
}

/// Gives `region`, of an op already in the IR, one block with arguments of
/// `types` and fills it with `body(b, loc, arguments)`. The adjoint control
/// flow is built this way, not with the ODS body builders, because the
/// gradient rules that run inside check through the bridge that the values
/// they use are in scope, which needs the region attached to its op (a body
/// builder fills the regions before the op exists).
template <typename Body>
void fillRegion(OpBuilder &b, Region &region, TypeRange types, Location loc,
                Body &&body) {
  OpBuilder::InsertionGuard guard(b);
  SmallVector<Location> locs(types.size(), loc);
  Block *block = b.createBlock(&region, {}, types, locs);
  body(b, loc, ValueRange(block->getArguments()));
}

/// Removes from the adjoint loop body `body` the forward ops it recomputes
/// for nothing, then the stacks of `stacks` whose popped value it no longer
/// uses (a counter the condition alone reads): their stack_new, push and pop
/// go, and the entry becomes null.
void pruneStacks(Block &body, SmallVectorImpl<Value> &stacks) {
  for (bool changed = true; changed;) {
    changed = false;
    for (Operation *op = body.getTerminator()->getPrevNode(); op;) {
      Operation *prev = op->getPrevNode();
      if (isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
      op = prev;
    }
  }
  for (Value &stack : stacks) {
    if (!stack)
      continue;
    bool popUsed = false;
    for (Operation *user : stack.getUsers())
      if (auto pop = dyn_cast<StackPopOp>(user))
        popUsed |= !pop.getResult().use_empty();
    if (popUsed)
      continue;
    for (Operation *user : llvm::make_early_inc_range(stack.getUsers()))
      user->erase();
    stack.getDefiningOp()->erase();
    stack = nullptr;
  }
}

Value splat(OpBuilder &b, Location loc, Type type, double value) {
  auto tensor = cast<RankedTensorType>(type);
  Type elt = tensor.getElementType();
  Attribute scalar = isa<FloatType>(elt)
                         ? Attribute(b.getFloatAttr(elt, value))
                         : Attribute(b.getIntegerAttr(elt, (int64_t)value));
  return ConstantOp::create(b, loc, tensor,
                            DenseElementsAttr::get(tensor, scalar));
}

Value i64Scalar(OpBuilder &b, Location loc, int64_t value) {
  return splat(b, loc, RankedTensorType::get({}, b.getI64Type()),
               static_cast<double>(value));
}

/// adj[key] += g (only float values carry adjoints).
void accumulate(OpBuilder &b, Location loc, AdjointMap &adj, Value key,
                Value g) {
  if (!g || !isFloatTensor(key.getType()))
    return;
  auto it = adj.find(key);
  if (it == adj.end()) {
    adj[key] = g;
    return;
  }
  it->second = AddOp::create(b, loc, it->second, g);
}

Value adjointOrZero(OpBuilder &b, Location loc, const AdjointMap &adj,
                    Value key) {
  Value g = adj.lookup(key);
  return g ? g : splat(b, loc, key.getType(), 0.0);
}

/// Float values used in `regions` but defined outside them.
SmallVector<Value> capturedFloats(MutableArrayRef<Region> regions) {
  llvm::SetVector<Value> used;
  for (Region &r : regions)
    getUsedValuesDefinedAbove(r, used);
  SmallVector<Value> floats;
  for (Value v : used)
    if (isFloatTensor(v.getType()))
      floats.push_back(v);
  return floats;
}

/// Which values the reverse sweep gives an adjoint, given the values that
/// have one: a conservative mirror of reverse(). A value none of whose uses
/// reaches an adjoint gets no adjoint at all, rather than an explicit zero
/// that would flow through the rules of what computed it (sqrt's at 0 gives
/// 0 * inf = NaN where the true gradient has no term).
class Activity {
public:
  explicit Activity(SymbolTable &symbols) : symbols(symbols) {}

  bool has(Value v) const { return values.contains(v); }
  /// Constants depend on nothing: their adjoints would be dropped.
  void add(Value v) {
    if (v && isFloatTensor(v.getType()) && !v.getDefiningOp<ConstantOp>())
      values.insert(v);
  }

  /// Marks what the ops of `block` pass adjoints to (values defined above it
  /// included), given its active values.
  void block(Block &block) {
    for (Operation &op : llvm::reverse(block.without_terminator()))
      this->op(op);
  }

  void op(Operation &op) {
    if (auto ifOp = dyn_cast<IfOp>(op)) {
      bool any = false;
      for (auto [i, r] : llvm::enumerate(ifOp.getResults()))
        if (has(r)) {
          any = true;
          for (Region &region : ifOp->getRegions())
            add(region.front().getTerminator()->getOperand(i));
        }
      if (any)
        for (Region &region : ifOp->getRegions())
          block(region.front());
      return;
    }
    if (auto loop = dyn_cast<WhileOp>(op)) {
      for (unsigned i : loopValues(loop))
        add(loop.getInits()[i]);
      return;
    }
    bool any = false;
    for (Value r : op.getResults())
      any |= has(r);
    if (!any || isa<ConstantOp, PrintOp, AssertOp, StopGradientOp>(op))
      return;
    if (auto call = dyn_cast<func::CallOp>(op)) {
      for (unsigned i : callOperands(call))
        add(call.getOperand(i));
      return;
    }
    if (isa<CustomGradientOp, GradOp>(op) ||
        ::tfc::bridge::hasGradientRule(&op))
      for (Value v : op.getOperands())
        add(v);
  }

  /// The float loop values of `loop` whose adjoints reverseWhile carries:
  /// those whose results are active, and those whose value entering the
  /// body reaches a carried one (to a fixpoint).
  SmallVector<unsigned> loopValues(WhileOp loop) {
    Block &after = loop.getAfter().front();
    Operation *yield = loop.getYieldOp();
    SmallVector<bool> in(loop->getNumResults(), false);
    for (bool changed = true; changed;) {
      changed = false;
      for (auto [i, r] : llvm::enumerate(loop.getResults()))
        if (!in[i] && isFloatTensor(r.getType()) &&
            (has(r) || has(after.getArgument(i)))) {
          in[i] = changed = true;
          add(yield->getOperand(i));
        }
      if (changed)
        block(after);
    }
    SmallVector<unsigned> active;
    for (auto [i, a] : llvm::enumerate(in))
      if (a)
        active.push_back(i);
    return active;
  }

  /// The operands of `call` that get an adjoint from the callee's VJP given
  /// its active results: those of the callee's arguments that reach them.
  SmallVector<unsigned> callOperands(func::CallOp call) {
    SmallVector<unsigned> operands;
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    bool analyse = callee && !callee.isDeclaration() &&
                   callee.getBody().hasOneBlock() &&
                   !inProgress.contains(callee.getOperation());
    if (!analyse) { // Recursive or unknown: every float operand.
      for (auto [i, v] : llvm::enumerate(call.getOperands()))
        if (isFloatTensor(v.getType()))
          operands.push_back(i);
      return operands;
    }
    inProgress.insert(callee.getOperation());
    Block &body = callee.getBody().front();
    for (auto [i, r] : llvm::enumerate(call.getResults()))
      if (has(r))
        add(body.getTerminator()->getOperand(i));
    block(body);
    inProgress.erase(callee.getOperation());
    for (auto [i, arg] : llvm::enumerate(body.getArguments()))
      if (has(arg))
        operands.push_back(i);
    return operands;
  }

private:
  SymbolTable &symbols;
  llvm::DenseSet<Value> values;
  llvm::DenseSet<Operation *> inProgress;
};

class VJPGenerator {
public:
  explicit VJPGenerator(ModuleOp module, bool recomputeLoops = false)
      : module(module), symbols(module), recomputeLoops(recomputeLoops) {}

  /// Replaces every `tfc.grad` in `fn` by a call of a generated VJP.
  LogicalResult lowerGradOps(func::FuncOp fn);
  /// `@fn_vjp`, generated once; diagnostics go to `user`.
  FailureOr<func::FuncOp> getOrCreateVJP(func::FuncOp fn, Operation *user);
  /// Splits `vjp` (generated here) into `@fn_fwd` and `@fn_bwd`; a null
  /// result (and no error) when a residual is not a tensor.
  FailureOr<std::pair<func::FuncOp, func::FuncOp>> split(func::FuncOp fn,
                                                         func::FuncOp vjp);

private:
  LogicalResult cloneForward(Block &block, OpBuilder &b, IRMapping &map,
                             Tapes &tapes);
  LogicalResult cloneAugmentedWhile(WhileOp op, OpBuilder &b, IRMapping &map,
                                    Tapes &tapes);
  LogicalResult reverse(Block &block, OpBuilder &b, IRMapping &map,
                        AdjointMap &adj, Tapes &tapes);
  LogicalResult reverseIf(IfOp op, OpBuilder &b, IRMapping &map,
                          AdjointMap &adj);
  LogicalResult reverseWhile(WhileOp op, OpBuilder &b, IRMapping &map,
                             AdjointMap &adj, Tapes &tapes);
  SmallVector<Value> recomputeIterations(WhileOp op, OpBuilder &b,
                                         IRMapping &map, Value count);
  LogicalResult reverseCall(func::CallOp op, OpBuilder &b, IRMapping &map,
                            AdjointMap &adj);
  LogicalResult reverseCustom(CustomGradientOp op, OpBuilder &b, IRMapping &map,
                              AdjointMap &adj);
  LogicalResult reverseKernel(Operation *op, OpBuilder &b, IRMapping &map,
                              AdjointMap &adj);

  ModuleOp module;
  SymbolTable symbols;
  /// Loops keep no stacks: the adjoint of iteration k recomputes the values
  /// entering it from the loop's inits (O(N^2)), so the generated gradient
  /// has no stack ops and can be differentiated again.
  bool recomputeLoops;
  /// Per (function, recomputeLoops): its VJP.
  llvm::DenseMap<std::pair<Operation *, unsigned>, func::FuncOp> vjps;
  llvm::DenseSet<Operation *> inProgress;
  llvm::DenseSet<Operation *> lowered;
  /// Per generated VJP: its last forward-sweep op (null: none) and the
  /// values that are the differentiated function's results.
  llvm::DenseMap<Operation *, Operation *> forwardEnd;
  llvm::DenseMap<Operation *, SmallVector<Value>> forwardResults;
};

//===----------------------------------------------------------------------===//
// Forward sweep
//===----------------------------------------------------------------------===//

LogicalResult VJPGenerator::cloneForward(Block &block, OpBuilder &b,
                                         IRMapping &map, Tapes &tapes) {
  for (Operation &op : block.without_terminator()) {
    // Only whiles of this block are reversed right after this clone; nested
    // ones are recomputed (and then augmented) inside the adjoint regions.
    if (auto loop = dyn_cast<WhileOp>(op)) {
      if (failed(cloneAugmentedWhile(loop, b, map, tapes)))
        return failure();
      continue;
    }
    cloneFresh(b, op, map);
  }
  return success();
}

/// The loop with an iteration counter, pushing the values entering each
/// iteration of its body.
LogicalResult VJPGenerator::cloneAugmentedWhile(WhileOp op, OpBuilder &b,
                                                IRMapping &map, Tapes &tapes) {
  Location loc = op.getLoc();
  Block &before = op.getBefore().front();
  Block &after = op.getAfter().front();
  ConditionOp condition = op.getConditionOp();
  if (!condition || condition.getArgs().size() != before.getNumArguments() ||
      !llvm::equal(condition.getArgs(), before.getArguments()))
    return op.emitOpError(
        "cannot be differentiated: tfc-autodiff needs the before region to "
        "pass its arguments unchanged to tfc.condition (as tfc::while_loop "
        "traces it)");
  for (Type t : after.getArgumentTypes())
    if (!cast<RankedTensorType>(t).hasStaticShape())
      return op.emitOpError("cannot be differentiated: loop value of type ")
             << t << " has a dynamic shape";

  WhileTape tape;
  if (!recomputeLoops)
    for (Type t : after.getArgumentTypes())
      tape.stacks.push_back(StackNewOp::create(
          b, loc, StackType::get(b.getContext(), cast<RankedTensorType>(t))));
  SmallVector<Value> inits;
  for (Value v : op.getInits())
    inits.push_back(map.lookupOrDefault(v));
  inits.push_back(i64Scalar(b, loc, 0));
  SmallVector<Type> types(ValueRange(inits).getTypes());

  auto cloneBefore = [&](OpBuilder &b, Location, ValueRange args) {
    for (auto [o, n] : llvm::zip(before.getArguments(), args))
      map.map(o, n);
    for (Operation &inner : before.without_terminator())
      cloneFresh(b, inner, map);
    ConditionOp::create(b, condition.getLoc(),
                        map.lookupOrDefault(condition.getCondition()), args);
  };
  auto cloneAfterAndPush = [&](OpBuilder &b, Location, ValueRange args) {
    for (auto [i, o] : llvm::enumerate(after.getArguments())) {
      map.map(o, args[i]);
      if (!recomputeLoops)
        StackPushOp::create(b, loc, tape.stacks[i], args[i]);
    }
    for (Operation &inner : after.without_terminator())
      cloneFresh(b, inner, map);
    SmallVector<Value> yields;
    for (Value v : op.getYieldOp().getOperands())
      yields.push_back(map.lookupOrDefault(v));
    yields.push_back(AddOp::create(b, loc, args.back(), i64Scalar(b, loc, 1)));
    YieldOp::create(b, loc, yields);
  };
  auto loop =
      WhileOp::create(b, loc, types, inits, cloneBefore, cloneAfterAndPush);
  for (auto [o, n] : llvm::zip(op.getResults(), loop->getResults()))
    map.map(o, n);
  tape.count = loop->getResults().back();
  tapes[op] = tape;
  return success();
}

//===----------------------------------------------------------------------===//
// Reverse sweep
//===----------------------------------------------------------------------===//

LogicalResult VJPGenerator::reverse(Block &block, OpBuilder &b, IRMapping &map,
                                    AdjointMap &adj, Tapes &tapes) {
  for (Operation &op : llvm::reverse(block.without_terminator())) {
    LogicalResult result = success();
    if (isa<ConstantOp, PrintOp, AssertOp, StopGradientOp>(op))
      continue;
    if (auto ifOp = dyn_cast<IfOp>(op))
      result = reverseIf(ifOp, b, map, adj);
    else if (auto loop = dyn_cast<WhileOp>(op))
      result = reverseWhile(loop, b, map, adj, tapes);
    else if (auto call = dyn_cast<func::CallOp>(op))
      result = reverseCall(call, b, map, adj);
    else if (auto custom = dyn_cast<CustomGradientOp>(op))
      result = reverseCustom(custom, b, map, adj);
    else if (isa<StackNewOp, StackPushOp, StackPopOp, StackSizeOp, StackFreeOp>(
                 op))
      result = op.emitOpError(
          "cannot be differentiated: differentiating a generated gradient "
          "through a tfc.while (stack ops) is not supported");
    else if (isa<VarReadOp, VarAssignOp, VarAssignAddOp, VarAssignSubOp>(op))
      result = op.emitOpError("cannot be differentiated: run "
                              "tfc-promote-variables before tfc-autodiff");
    else
      result = reverseKernel(&op, b, map, adj);
    if (failed(result))
      return failure();
  }
  return success();
}

LogicalResult VJPGenerator::reverseKernel(Operation *op, OpBuilder &b,
                                          IRMapping &map, AdjointMap &adj) {
  if (op->getNumResults() != 1)
    return op->emitOpError("cannot be differentiated by tfc-autodiff");
  Value dy = adj.lookup(op->getResult(0));
  if (!dy)
    return success(); // Nothing flows back through it.
  // Dynamic dims: the rules that need static shapes refuse them
  // (apply_gradient_rule in ops/lib/GradientRules.cpp).
  SmallVector<Value> operands;
  for (Value v : op->getOperands())
    operands.push_back(map.lookupOrDefault(v));
  FailureOr<SmallVector<Value>> grads = ::tfc::bridge::emitGradientRule(
      b, op, operands, map.lookupOrDefault(op->getResult(0)), dy);
  if (failed(grads))
    return failure();
  for (auto [operand, g] : llvm::zip(op->getOperands(), *grads))
    accumulate(b, op->getLoc(), adj, operand, g);
  return success();
}

LogicalResult VJPGenerator::reverseIf(IfOp op, OpBuilder &b, IRMapping &map,
                                      AdjointMap &adj) {
  Location loc = op.getLoc();
  bool any = false;
  for (Value r : op.getResults())
    any |= static_cast<bool>(adj.lookup(r));
  if (!any)
    return success();
  // Only the captured values an adjoint reaches in either branch get one
  // (zeros from a branch that does not use them).
  Activity activity(symbols);
  for (Value r : op.getResults())
    if (adj.lookup(r))
      activity.add(r);
  activity.op(*op);
  SmallVector<Value> captured;
  for (Value c : capturedFloats(op->getRegions()))
    if (activity.has(c))
      captured.push_back(c);
  if (captured.empty())
    return success();
  SmallVector<Type> types(ValueRange(captured).getTypes());
  LogicalResult status = success();
  // The adjoint of one branch: the branch recomputed (its values are not
  // visible outside), then reversed; it yields the captured values'
  // adjoints.
  auto adjointOf = [&](Region &region) {
    return [&](OpBuilder &b, Location, ValueRange) {
      Block &branch = region.front();
      IRMapping local = map;
      Tapes tapes;
      AdjointMap localAdj;
      if (failed(cloneForward(branch, b, local, tapes))) {
        status = failure();
        return;
      }
      for (auto [i, y] : llvm::enumerate(branch.getTerminator()->getOperands()))
        accumulate(b, loc, localAdj, y, adj.lookup(op.getResult(i)));
      if (failed(reverse(branch, b, local, localAdj, tapes))) {
        status = failure();
        return;
      }
      SmallVector<Value> yields;
      for (Value c : captured)
        yields.push_back(adjointOrZero(b, loc, localAdj, c));
      YieldOp::create(b, loc, yields);
    };
  };
  auto adjIf =
      IfOp::create(b, loc, types, map.lookupOrDefault(op.getCondition()));
  fillRegion(b, adjIf.getThenRegion(), {}, loc, adjointOf(op.getThenRegion()));
  fillRegion(b, adjIf.getElseRegion(), {}, loc, adjointOf(op.getElseRegion()));
  if (failed(status)) {
    adjIf->erase();
    return failure();
  }
  for (auto [c, g] : llvm::zip(captured, adjIf->getResults()))
    accumulate(b, loc, adj, c, g);
  return success();
}

/// `op`'s body applied `count` times to its (mapped) inits, by a loop of
/// plain clones: the values entering iteration `count`.
SmallVector<Value> VJPGenerator::recomputeIterations(WhileOp op, OpBuilder &b,
                                                     IRMapping &map,
                                                     Value count) {
  Location loc = op.getLoc();
  Block &after = op.getAfter().front();
  SmallVector<Value> inits{i64Scalar(b, loc, 0)};
  for (Value v : op.getInits())
    inits.push_back(map.lookupOrDefault(v));
  SmallVector<Type> types(ValueRange(inits).getTypes());
  auto loop = WhileOp::create(b, loc, types, inits);
  fillRegion(b, loop.getBefore(), types, loc,
             [&](OpBuilder &b, Location, ValueRange args) {
               Value more = CmpOp::create(
                   b, loc, RankedTensorType::get({}, b.getI1Type()),
                   CmpPredicate::lt, args[0], count);
               ConditionOp::create(b, loc, more, args);
             });
  fillRegion(b, loop.getAfter(), types, loc,
             [&](OpBuilder &b, Location, ValueRange args) {
               IRMapping m = map;
               for (auto [o, n] :
                    llvm::zip(after.getArguments(), args.drop_front()))
                 m.map(o, n);
               for (Operation &inner : after.without_terminator())
                 cloneFresh(b, inner, m);
               SmallVector<Value> yields{
                   AddOp::create(b, loc, args[0], i64Scalar(b, loc, 1))};
               for (Value v : op.getYieldOp().getOperands())
                 yields.push_back(m.lookupOrDefault(v));
               YieldOp::create(b, loc, yields);
             });
  return SmallVector<Value>(loop.getResults().drop_front());
}

LogicalResult VJPGenerator::reverseWhile(WhileOp op, OpBuilder &b,
                                         IRMapping &map, AdjointMap &adj,
                                         Tapes &tapes) {
  Location loc = op.getLoc();
  auto tapeIt = tapes.find(op);
  if (tapeIt == tapes.end())
    return op.emitOpError("internal error: no forward tape for this loop");
  WhileTape tape = tapeIt->second;
  Block &after = op.getAfter().front();
  Operation *yield = op.getYieldOp();
  auto freeStacks = [&] {
    for (Value s : tape.stacks)
      if (s)
        StackFreeOp::create(b, loc, s);
  };
  bool any = false;
  for (Value r : op.getResults())
    any |= static_cast<bool>(adj.lookup(r));
  if (!any) {
    freeStacks();
    return success();
  }
  // Only the loop values whose adjoints reach the results with one are
  // carried, and only the captured values the body passes them to.
  Activity activity(symbols);
  for (Value r : op.getResults())
    if (adj.lookup(r))
      activity.add(r);
  SmallVector<unsigned> floats = activity.loopValues(op);
  SmallVector<Value> captured;
  for (Value c : capturedFloats(op.getAfter()))
    if (activity.has(c))
      captured.push_back(c);

  // Carried: iterations left, adjoints of the float loop values, adjoints
  // of the float values the body captures.
  SmallVector<Value> inits{tape.count};
  for (unsigned i : floats)
    inits.push_back(adjointOrZero(b, loc, adj, op.getResult(i)));
  for (Value c : captured)
    inits.push_back(splat(b, loc, c.getType(), 0.0));
  SmallVector<Type> types(ValueRange(inits).getTypes());
  LogicalResult status = success();
  // Before: while iterations are left.
  auto iterationsLeft = [&](OpBuilder &b, Location, ValueRange args) {
    Value more = CmpOp::create(b, loc, RankedTensorType::get({}, b.getI1Type()),
                               CmpPredicate::gt, args[0], i64Scalar(b, loc, 0));
    ConditionOp::create(b, loc, more, args);
  };
  // After: one forward iteration recomputed from the popped loop values,
  // then reversed.
  auto adjointIteration = [&](OpBuilder &b, Location, ValueRange args) {
    Value left = SubOp::create(b, loc, args[0], i64Scalar(b, loc, 1));
    IRMapping local = map;
    if (recomputeLoops) {
      // The values entering iteration `left`: the body applied `left`
      // times to the loop's inits.
      SmallVector<Value> entering = recomputeIterations(op, b, map, left);
      for (auto [arg, v] : llvm::zip(after.getArguments(), entering))
        local.map(arg, v);
    } else {
      for (auto [i, arg] : llvm::enumerate(after.getArguments()))
        local.map(arg, StackPopOp::create(b, loc, arg.getType(), tape.stacks[i])
                           .getResult());
    }
    Tapes bodyTapes;
    AdjointMap localAdj;
    if (failed(cloneForward(after, b, local, bodyTapes))) {
      status = failure();
      return;
    }
    for (auto [k, i] : llvm::enumerate(floats))
      accumulate(b, loc, localAdj, yield->getOperand(i), args[1 + k]);
    if (failed(reverse(after, b, local, localAdj, bodyTapes))) {
      status = failure();
      return;
    }
    SmallVector<Value> yields{left};
    for (unsigned i : floats)
      yields.push_back(adjointOrZero(b, loc, localAdj, after.getArgument(i)));
    for (auto [j, c] : llvm::enumerate(captured)) {
      Value sum = args[1 + floats.size() + j];
      if (Value g = localAdj.lookup(c))
        sum = AddOp::create(b, loc, sum, g);
      yields.push_back(sum);
    }
    YieldOp::create(b, loc, yields);
  };
  auto loop = WhileOp::create(b, loc, types, inits);
  fillRegion(b, loop.getBefore(), types, loc, iterationsLeft);
  fillRegion(b, loop.getAfter(), types, loc, adjointIteration);
  if (failed(status)) {
    loop->erase();
    return failure();
  }
  for (auto [k, i] : llvm::enumerate(floats))
    accumulate(b, loc, adj, op.getInits()[i], loop->getResult(1 + k));
  for (auto [j, c] : llvm::enumerate(captured))
    accumulate(b, loc, adj, c, loop->getResult(1 + floats.size() + j));
  pruneStacks(loop.getAfter().front(), tape.stacks);
  freeStacks();
  return success();
}

LogicalResult VJPGenerator::reverseCall(func::CallOp op, OpBuilder &b,
                                        IRMapping &map, AdjointMap &adj) {
  bool any = false;
  for (Value r : op.getResults())
    any |= isFloatTensor(r.getType()) && adj.lookup(r);
  if (!any)
    return success();
  auto callee = symbols.lookup<func::FuncOp>(op.getCallee());
  if (!callee)
    return op.emitOpError("calls @") << op.getCallee() << ", not found";
  FailureOr<func::FuncOp> vjp = getOrCreateVJP(callee, op);
  if (failed(vjp))
    return failure();
  SmallVector<Value> args;
  for (Value v : op.getOperands())
    args.push_back(map.lookupOrDefault(v));
  for (Value r : op.getResults())
    if (isFloatTensor(r.getType()))
      args.push_back(adjointOrZero(b, op.getLoc(), adj, r));
  auto call = func::CallOp::create(b, op.getLoc(), *vjp, args);
  // The VJP returns an adjoint (maybe zeros) for every float argument; only
  // those of arguments that reach an active result are passed on.
  Activity activity(symbols);
  for (Value r : op.getResults())
    if (adj.lookup(r))
      activity.add(r);
  SmallVector<unsigned> active = activity.callOperands(op);
  unsigned k = 0;
  for (auto [i, v] : llvm::enumerate(op.getOperands())) {
    if (!isFloatTensor(v.getType()))
      continue;
    Value g = call.getResult(k++);
    if (llvm::is_contained(active, i))
      accumulate(b, op.getLoc(), adj, v, g);
  }
  return success();
}

LogicalResult VJPGenerator::reverseCustom(CustomGradientOp op, OpBuilder &b,
                                          IRMapping &map, AdjointMap &adj) {
  bool any = false;
  for (Value r : op.getResults())
    any |= static_cast<bool>(adj.lookup(r));
  if (!any)
    return success();
  // The user's backward region is the rule: inline it.
  Block &backward = op.getBackward().front();
  IRMapping local;
  unsigned n = op.getInputs().size(), m = op.getNumResults();
  for (unsigned i = 0; i < n; ++i)
    local.map(backward.getArgument(i), map.lookupOrDefault(op.getInputs()[i]));
  for (unsigned i = 0; i < m; ++i) {
    local.map(backward.getArgument(n + i),
              map.lookupOrDefault(op.getResult(i)));
    local.map(backward.getArgument(n + m + i),
              adjointOrZero(b, op.getLoc(), adj, op.getResult(i)));
  }
  for (Operation &inner : backward.without_terminator())
    cloneFresh(b, inner, local);
  for (auto [input, g] :
       llvm::zip(op.getInputs(), backward.getTerminator()->getOperands())) {
    // A zero constant is the region's "no gradient": nothing flows on (as a
    // None gradient in TensorFlow), so an op on the way cannot turn it
    // into NaN (0 * exp(100) in float32 is 0 * inf).
    if (matchPattern(g, m_AnyZeroFloat()))
      continue;
    accumulate(b, op.getLoc(), adj, input, local.lookupOrDefault(g));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Gradient functions
//===----------------------------------------------------------------------===//

FailureOr<func::FuncOp> VJPGenerator::getOrCreateVJP(func::FuncOp fn,
                                                     Operation *user) {
  if (auto it = vjps.find({fn, unsigned(recomputeLoops)}); it != vjps.end())
    return it->second;
  if (inProgress.contains(fn))
    return user->emitOpError("differentiates @")
           << fn.getName()
           << ", which calls itself: recursive functions are not supported";
  if (fn.isDeclaration() || !fn.getBody().hasOneBlock())
    return user->emitOpError("cannot differentiate @")
           << fn.getName() << ": it needs a body of one block";
  for (auto [i, t] : llvm::enumerate(fn.getFunctionType().getInputs()))
    if (!isa<RankedTensorType>(t))
      return user->emitOpError("cannot differentiate @")
             << fn.getName() << ": argument " << i << " has type " << t
             << "; gradients need ranked tensors";
  inProgress.insert(fn);
  auto done = llvm::make_scope_exit([&] { inProgress.erase(fn); });
  {
    // The VJPs that `fn`'s own tfc.grads call are differentiated with it:
    // they keep no stacks.
    const bool saved = recomputeLoops;
    recomputeLoops = true;
    auto restore = llvm::make_scope_exit([&] { recomputeLoops = saved; });
    if (failed(lowerGradOps(fn)))
      return failure();
  }

  FunctionType type = fn.getFunctionType();
  SmallVector<Type> inputs(type.getInputs());
  SmallVector<Type> outputs;
  for (Type t : type.getResults())
    if (isFloatTensor(t))
      inputs.push_back(t);
  for (Type t : type.getInputs())
    if (isFloatTensor(t))
      outputs.push_back(t);

  OpBuilder b(fn);
  b.setInsertionPointAfter(fn);
  auto vjp = func::FuncOp::create(b, fn.getLoc(), (fn.getName() + "_vjp").str(),
                                  b.getFunctionType(inputs, outputs));
  symbols.insert(vjp); // Renames on a clash.
  vjp->setAttr("tfc.vjp_of", FlatSymbolRefAttr::get(fn));
  if (fn.isPrivate())
    vjp.setPrivate();
  Block *entry = vjp.addEntryBlock();
  b.setInsertionPointToEnd(entry);

  Block &body = fn.getBody().front();
  IRMapping map;
  for (auto [o, n] : llvm::zip(body.getArguments(), entry->getArguments()))
    map.map(o, n);
  Tapes tapes;
  if (failed(cloneForward(body, b, map, tapes))) {
    vjp.erase();
    return failure();
  }
  forwardEnd[vjp] = entry->empty() ? nullptr : &entry->back();
  for (Value r : body.getTerminator()->getOperands())
    forwardResults[vjp].push_back(map.lookupOrDefault(r));
  AdjointMap adj;
  unsigned k = fn.getNumArguments();
  for (Value r : body.getTerminator()->getOperands())
    if (isFloatTensor(r.getType()))
      accumulate(b, fn.getLoc(), adj, r, entry->getArgument(k++));
  if (failed(reverse(body, b, map, adj, tapes))) {
    vjp.erase();
    return failure();
  }
  SmallVector<Value> grads;
  for (Value arg : body.getArguments())
    if (isFloatTensor(arg.getType()))
      grads.push_back(adjointOrZero(b, fn.getLoc(), adj, arg));
  func::ReturnOp::create(b, fn.getLoc(), grads);
  vjps[{fn, unsigned(recomputeLoops)}] = vjp;
  return vjp;
}

FailureOr<std::pair<func::FuncOp, func::FuncOp>>
VJPGenerator::split(func::FuncOp fn, func::FuncOp vjp) {
  Block &entry = vjp.getBody().front();
  unsigned numArgs = fn.getNumArguments();
  // The forward part: the arguments that are not dys, and the ops up to the
  // end of the forward sweep.
  llvm::DenseSet<Operation *> forwardOps;
  if (Operation *end = forwardEnd.lookup(vjp))
    for (Operation &op : entry) {
      forwardOps.insert(&op);
      if (&op == end)
        break;
    }
  auto isForward = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == &entry && arg.getArgNumber() < numArgs;
    return forwardOps.contains(v.getDefiningOp());
  };
  // Residuals: values the forward sweep computes and the reverse sweep
  // uses (in nested regions too), in order of first use. The arguments
  // the reverse sweep reads are passed to @f_bwd again, not returned.
  SmallVector<Value> residuals;
  llvm::DenseSet<Value> seen;
  for (Operation &op : entry) {
    if (forwardOps.contains(&op))
      continue;
    op.walk([&](Operation *inner) {
      for (Value v : inner->getOperands())
        if (isForward(v) && !isa<BlockArgument>(v) && seen.insert(v).second)
          residuals.push_back(v);
    });
  }
  for (Value v : residuals)
    if (!isa<RankedTensorType>(v.getType()))
      return std::pair<func::FuncOp, func::FuncOp>(); // e.g. a loop's stacks

  const SmallVector<Value> &results = forwardResults[vjp];
  OpBuilder b(vjp);
  b.setInsertionPointAfter(vjp);
  // @fn_fwd(args) -> (results..., residuals...)
  SmallVector<Type> fwdResults(ValueRange(results).getTypes());
  llvm::append_range(fwdResults, ValueRange(residuals).getTypes());
  auto fwd = func::FuncOp::create(
      b, fn.getLoc(), (fn.getName() + "_fwd").str(),
      b.getFunctionType(fn.getFunctionType().getInputs(), fwdResults));
  symbols.insert(fwd);
  fwd->setAttr("tfc.fwd_of", FlatSymbolRefAttr::get(fn));
  {
    OpBuilder::InsertionGuard guard(b);
    Block *block = fwd.addEntryBlock();
    b.setInsertionPointToEnd(block);
    IRMapping map;
    for (unsigned i = 0; i < numArgs; ++i)
      map.map(entry.getArgument(i), block->getArgument(i));
    for (Operation &op : entry)
      if (forwardOps.contains(&op))
        b.clone(op, map);
    SmallVector<Value> returned;
    for (Value v : results)
      returned.push_back(map.lookupOrDefault(v));
    for (Value v : residuals)
      returned.push_back(map.lookupOrDefault(v));
    func::ReturnOp::create(b, fn.getLoc(), returned);
  }
  // @fn_bwd(args..., residuals..., dys...) -> (dargs...)
  SmallVector<Type> bwdInputs(fn.getFunctionType().getInputs());
  llvm::append_range(bwdInputs, ValueRange(residuals).getTypes());
  for (BlockArgument dy : entry.getArguments().drop_front(numArgs))
    bwdInputs.push_back(dy.getType());
  auto bwd = func::FuncOp::create(
      b, fn.getLoc(), (fn.getName() + "_bwd").str(),
      b.getFunctionType(bwdInputs, vjp.getFunctionType().getResults()));
  symbols.insert(bwd);
  bwd->setAttr("tfc.bwd_of", FlatSymbolRefAttr::get(fn));
  {
    OpBuilder::InsertionGuard guard(b);
    Block *block = bwd.addEntryBlock();
    b.setInsertionPointToEnd(block);
    IRMapping map;
    for (unsigned i = 0; i < numArgs; ++i)
      map.map(entry.getArgument(i), block->getArgument(i));
    for (auto [i, v] : llvm::enumerate(residuals))
      map.map(v, block->getArgument(numArgs + i));
    for (auto [i, dy] :
         llvm::enumerate(entry.getArguments().drop_front(numArgs)))
      map.map(dy, block->getArgument(numArgs + residuals.size() + i));
    for (Operation &op : entry)
      if (!forwardOps.contains(&op))
        b.clone(op, map);
  }
  return std::make_pair(fwd, bwd);
}

LogicalResult VJPGenerator::lowerGradOps(func::FuncOp fn) {
  if (!lowered.insert(fn).second)
    return success();
  SmallVector<GradOp> grads;
  fn.walk([&](GradOp op) { grads.push_back(op); });
  for (GradOp op : grads) {
    auto callee = symbols.lookup<func::FuncOp>(op.getCallee());
    if (!callee)
      return op.emitOpError("'") << op.getCallee() << "' is not a func.func";
    FailureOr<func::FuncOp> vjp = getOrCreateVJP(callee, op);
    if (failed(vjp))
      return failure();
    OpBuilder b(op);
    SmallVector<Value> args(op.getOperands());
    Type resultType = callee.getFunctionType().getResult(0);
    // A non-scalar target means the gradient of its sum: seed with ones.
    args.push_back(splat(b, op.getLoc(), resultType, 1.0));
    auto call = func::CallOp::create(b, op.getLoc(), *vjp, args);
    // The VJP returns one adjoint per float argument, in order.
    SmallVector<int64_t> position(op.getNumOperands(), -1);
    int64_t k = 0;
    for (auto [i, v] : llvm::enumerate(op.getOperands()))
      if (isFloatTensor(v.getType()))
        position[i] = k++;
    for (auto [r, index] : llvm::zip(op.getResults(), op.getWrt()))
      r.replaceAllUsesWith(call.getResult(position[index]));
    op.erase();
  }
  return success();
}

struct TfcVJPPass : public mlir::tfc::impl::TfcVJPPassBase<TfcVJPPass> {
  using TfcVJPPassBase::TfcVJPPassBase;
  void runOnOperation() override {
    auto fn = getOperation().lookupSymbol<func::FuncOp>(function);
    if (!fn) {
      getOperation().emitError("tfc-vjp: no function named '")
          << function << "'";
      return signalPassFailure();
    }
    if (failed(generateVJP(getOperation(), fn, recomputeLoops)))
      signalPassFailure();
  }
};

struct TfcAutodiffPass
    : public mlir::tfc::impl::TfcAutodiffPassBase<TfcAutodiffPass> {
  void runOnOperation() override {
    VJPGenerator generator(getOperation());
    // A function a tfc.grad differentiates has its own tfc.grads lowered
    // when its VJP is generated (to stack-free VJPs, which it
    // differentiates); the others are lowered here.
    llvm::DenseSet<StringAttr> differentiated;
    getOperation().walk([&](GradOp op) {
      differentiated.insert(op.getCalleeAttr().getAttr());
    });
    SmallVector<func::FuncOp> functions(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp fn : functions)
      if (!differentiated.contains(fn.getSymNameAttr()) &&
          failed(generator.lowerGradOps(fn)))
        return signalPassFailure();
  }
};

} // namespace

SmallVector<unsigned> mlir::tfc::activeArguments(ModuleOp module,
                                                 func::FuncOp fn) {
  SymbolTable symbols(module);
  Activity activity(symbols);
  Block &body = fn.getBody().front();
  for (Value r : body.getTerminator()->getOperands())
    activity.add(r);
  activity.block(body);
  SmallVector<unsigned> active;
  for (auto [i, arg] : llvm::enumerate(body.getArguments()))
    if (activity.has(arg))
      active.push_back(i);
  return active;
}

FailureOr<mlir::tfc::GeneratedVJP>
mlir::tfc::generateVJP(ModuleOp module, func::FuncOp fn, bool recomputeLoops) {
  VJPGenerator generator(module, recomputeLoops);
  FailureOr<func::FuncOp> vjp = generator.getOrCreateVJP(fn, fn);
  if (failed(vjp))
    return failure();
  auto parts = generator.split(fn, *vjp);
  if (failed(parts))
    return failure();
  return GeneratedVJP{*vjp, parts->first, parts->second};
}
