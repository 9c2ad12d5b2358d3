//===- PromoteVariables.cpp - Variable handles to SSA values ----*- C++ -*-===//
//
// Rewrites `!tfc.var` function arguments into tensor arguments plus extra
// results for the variables written, threading the current value of each
// variable through tfc.if (extra results) and tfc.while (extra loop-carried
// values) in program order. See Passes.td for the contract.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCPROMOTEVARIABLESPASS
#include "tfc/Dialect/Tfc/Transforms/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using namespace mlir::tfc;

namespace {

bool isVarWrite(Operation *op) {
  return isa<VarAssignOp, VarAssignAddOp, VarAssignSubOp>(op);
}
Value writtenVar(Operation *op) { return op->getOperand(0); }

class Promoter {
public:
  explicit Promoter(OpBuilder &b) : builder(b) {}

  /// Variables (function arguments) written anywhere inside `op`, in walk
  /// order.
  SmallVector<Value> writesInside(Operation *op) {
    llvm::SetVector<Value> vars;
    op->walk([&](Operation *inner) {
      if (isVarWrite(inner))
        vars.insert(writtenVar(inner));
    });
    return SmallVector<Value>(vars.begin(), vars.end());
  }

  LogicalResult processBlock(Block &block) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (failed(processOp(&op)))
        return failure();
    }
    return success();
  }

  LogicalResult processOp(Operation *op) {
    if (auto read = dyn_cast<VarReadOp>(op)) {
      read.getResult().replaceAllUsesWith(current.lookup(read.getVar()));
      read->erase();
      return success();
    }
    if (isVarWrite(op)) {
      Value var = writtenVar(op);
      Value value = op->getOperand(1);
      builder.setInsertionPoint(op);
      Value old = current.lookup(var);
      if (isa<VarAssignAddOp>(op))
        value = AddOp::create(builder, op->getLoc(), old, value);
      else if (isa<VarAssignSubOp>(op))
        value = SubOp::create(builder, op->getLoc(), old, value);
      current[var] = value;
      op->erase();
      return success();
    }
    if (auto ifOp = dyn_cast<IfOp>(op))
      return processIf(ifOp);
    if (auto whileOp = dyn_cast<WhileOp>(op))
      return processWhile(whileOp);
    if (op->getNumRegions() == 0)
      return success();
    if (!writesInside(op).empty())
      return op->emitOpError(
          "writes a variable inside a region tfc-promote-variables does not "
          "know how to thread (only tfc.if and tfc.while)");
    for (Region &region : op->getRegions())
      for (Block &block : region)
        if (failed(processBlock(block)))
          return failure();
    return success();
  }

  LogicalResult processIf(IfOp ifOp) {
    SmallVector<Value> vars = writesInside(ifOp);
    DenseMap<Value, Value> saved = current;
    SmallVector<SmallVector<Value>> finals;
    for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
      current = saved;
      SmallVector<Value> branchFinal;
      if (!region->empty()) {
        if (failed(processBlock(region->front())))
          return failure();
        for (Value v : vars)
          branchFinal.push_back(current.lookup(v));
        Operation *yield = region->front().getTerminator();
        yield->insertOperands(yield->getNumOperands(), branchFinal);
      }
      finals.push_back(branchFinal);
    }
    current = saved;
    if (vars.empty())
      return success();
    if (ifOp.getElseRegion().empty())
      return ifOp.emitOpError("writes a variable but has no else region");
    // Rebuild with one extra result per written variable.
    SmallVector<Type> types(ifOp->getResultTypes());
    for (Value v : vars)
      types.push_back(current.lookup(v).getType());
    builder.setInsertionPoint(ifOp);
    auto newIf =
        IfOp::create(builder, ifOp.getLoc(), types, ifOp.getCondition());
    newIf->setDiscardableAttrs(ifOp->getDiscardableAttrDictionary());
    newIf.getThenRegion().takeBody(ifOp.getThenRegion());
    newIf.getElseRegion().takeBody(ifOp.getElseRegion());
    unsigned n = ifOp->getNumResults();
    ifOp->replaceAllUsesWith(newIf->getResults().take_front(n));
    for (auto [i, v] : llvm::enumerate(vars))
      current[v] = newIf->getResult(n + i);
    ifOp->erase();
    return success();
  }

  LogicalResult processWhile(WhileOp whileOp) {
    SmallVector<Value> vars = writesInside(whileOp);
    DenseMap<Value, Value> saved = current;
    if (vars.empty()) {
      for (Region *region : {&whileOp.getBefore(), &whileOp.getAfter()})
        for (Block &block : *region)
          if (failed(processBlock(block)))
            return failure();
      current = saved;
      return success();
    }
    Block &before = whileOp.getBefore().front();
    Block &after = whileOp.getAfter().front();
    SmallVector<Value> inits(whileOp.getInits());
    SmallVector<Type> types(whileOp->getResultTypes());
    for (Value v : vars) {
      Value init = saved.lookup(v);
      inits.push_back(init);
      types.push_back(init.getType());
    }
    // Before region: the variables arrive as new block arguments and leave
    // through tfc.condition.
    for (Value v : vars)
      current[v] = before.addArgument(saved.lookup(v).getType(), v.getLoc());
    if (failed(processBlock(before)))
      return failure();
    Operation *condition = before.getTerminator();
    for (Value v : vars)
      condition->insertOperands(condition->getNumOperands(), current.lookup(v));
    // After region: the same, leaving through tfc.yield.
    for (Value v : vars)
      current[v] = after.addArgument(saved.lookup(v).getType(), v.getLoc());
    if (failed(processBlock(after)))
      return failure();
    Operation *yield = after.getTerminator();
    for (Value v : vars)
      yield->insertOperands(yield->getNumOperands(), current.lookup(v));

    builder.setInsertionPoint(whileOp);
    auto newWhile = WhileOp::create(builder, whileOp.getLoc(), types, inits);
    newWhile->setDiscardableAttrs(whileOp->getDiscardableAttrDictionary());
    newWhile.getBefore().takeBody(whileOp.getBefore());
    newWhile.getAfter().takeBody(whileOp.getAfter());
    unsigned n = whileOp->getNumResults();
    whileOp->replaceAllUsesWith(newWhile->getResults().take_front(n));
    current = saved;
    for (auto [i, v] : llvm::enumerate(vars))
      current[v] = newWhile->getResult(n + i);
    whileOp->erase();
    return success();
  }

  DenseMap<Value, Value> current;

private:
  OpBuilder &builder;
};

} // namespace

LogicalResult mlir::tfc::promoteVariables(func::FuncOp func) {
  if (func.isDeclaration())
    return success();
  Block &entry = func.getBody().front();
  SmallVector<Value> varArgs;
  for (BlockArgument arg : entry.getArguments()) {
    if (!isa<VarType>(arg.getType()))
      continue;
    for (Operation *user : arg.getUsers())
      if (!isa<VarReadOp>(user) && !isVarWrite(user))
        return user->emitOpError(
            "uses a variable handle in a way tfc-promote-variables cannot "
            "thread (only tfc.var_read and tfc.var_assign* may use it)");
    varArgs.push_back(arg);
  }
  if (varArgs.empty())
    return success();
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("tfc-promote-variables needs a single-block body");
  OpBuilder builder(func.getContext());
  Promoter promoter(builder);
  // Until the handle argument itself changes type, its value is stood in
  // for by a cast; the cast is folded away at the end.
  SmallVector<Operation *> standIns;
  builder.setInsertionPointToStart(&entry);
  for (Value v : varArgs) {
    Type valueType = cast<VarType>(v.getType()).getValueType();
    auto standIn =
        UnrealizedConversionCastOp::create(builder, v.getLoc(), valueType, v);
    standIns.push_back(standIn);
    promoter.current[v] = standIn.getResult(0);
  }
  SmallVector<Value> written = promoter.writesInside(func);
  if (failed(promoter.processBlock(entry)))
    return failure();
  SmallVector<int64_t> writtenIndex;
  SmallVector<Value> finals;
  for (Value v : varArgs) {
    if (!llvm::is_contained(written, v))
      continue;
    writtenIndex.push_back(cast<BlockArgument>(v).getArgNumber());
    finals.push_back(promoter.current.lookup(v));
  }

  for (auto [v, standIn] : llvm::zip(varArgs, standIns)) {
    v.setType(cast<VarType>(v.getType()).getValueType());
    for (Value &f : finals)
      if (f == standIn->getResult(0))
        f = v;
    standIn->getResult(0).replaceAllUsesWith(v);
    standIn->erase();
  }
  Operation *ret = entry.getTerminator();
  ret->insertOperands(ret->getNumOperands(), finals);
  SmallVector<Type> results(func.getFunctionType().getResults());
  for (Value v : finals)
    results.push_back(v.getType());
  func.setFunctionType(
      FunctionType::get(func.getContext(), entry.getArgumentTypes(), results));
  func->setAttr("tfc.written_vars",
                DenseI64ArrayAttr::get(func.getContext(), writtenIndex));
  return success();
}

namespace {
struct TfcPromoteVariablesPass
    : public tfc::impl::TfcPromoteVariablesPassBase<TfcPromoteVariablesPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (failed(promoteVariables(func)))
        return signalPassFailure();
  }
};
} // namespace
