//===- DedupFusions.cpp - Compile repeated identical fusions once ---------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Tracing unrolls the user's C++ loops, so identical fused computations
// repeat (ten layers of the same shape, an RNN cell unrolled over time).
// LLVM's optimization and code generation cost grows with each copy, and the
// copies also crowd the instruction cache at run time. This pass outlines
// one copy of each group of identical `tfc.fusion` ops into a private
// function that every member calls. See Passes.td and docs/fusion.md.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCDEDUPFUSIONSPASS
#include "tfc/Dialect/Tfc/Transforms/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using namespace mlir::tfc;

namespace {

/// True if `a` and `b` compute the same function of their inputs: same kind,
/// input and result types, and bodies equal op by op once each value of `a`
/// is renamed to the corresponding value of `b`.
bool sameFusion(FusionOp a, FusionOp b) {
  if (a.getKind() != b.getKind() ||
      a.getInputs().getTypes() != b.getInputs().getTypes() ||
      a.getResultTypes() != b.getResultTypes())
    return false;
  Block &blockA = a.getBody().front(), &blockB = b.getBody().front();
  if (blockA.getOperations().size() != blockB.getOperations().size())
    return false;
  IRMapping map;
  map.map(blockA.getArguments(), blockB.getArguments());
  auto check = [&](Value x, Value y) {
    return success(map.lookupOrNull(x) == y);
  };
  auto mark = [&](Value x, Value y) { map.map(x, y); };
  for (auto [opA, opB] : llvm::zip(blockA, blockB))
    if (!OperationEquivalence::isEquivalentTo(
            &opA, &opB, check, mark,
            OperationEquivalence::Flags::IgnoreLocations))
      return false;
  return true;
}

struct TfcDedupFusionsPass
    : public tfc::impl::TfcDedupFusionsPassBase<TfcDedupFusionsPass> {
  using TfcDedupFusionsPassBase::TfcDedupFusionsPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>())) {
      // Groups of identical fusions, in program order of their first member.
      SmallVector<SmallVector<FusionOp>> groups;
      DenseMap<llvm::hash_code, SmallVector<unsigned>> byHash;
      fn.walk([&](FusionOp op) {
        // The hash covers the op itself (kind, types), not its body.
        llvm::hash_code h = OperationEquivalence::computeHash(
            op, OperationEquivalence::ignoreHashValue,
            OperationEquivalence::ignoreHashValue,
            OperationEquivalence::Flags::IgnoreLocations);
        SmallVector<unsigned> &candidates = byHash[h];
        for (unsigned g : candidates)
          if (sameFusion(groups[g].front(), op)) {
            groups[g].push_back(op);
            return;
          }
        candidates.push_back(groups.size());
        groups.push_back({op});
      });
      for (auto &group : groups)
        if (group.size() >= std::max(2u, unsigned(minRepeats)))
          outline(fn, group, symbols);
    }
  }

  /// One private function holding a copy of `group.front()`; every member
  /// becomes a call of it.
  void outline(func::FuncOp parent, ArrayRef<FusionOp> group,
               SymbolTable &symbols) {
    FusionOp first = group.front();
    MLIRContext *ctx = first.getContext();
    auto type = FunctionType::get(ctx, first.getInputs().getTypes(),
                                  first.getResultTypes());
    OpBuilder b(parent);
    auto callee = func::FuncOp::create(
        b, first.getLoc(), (parent.getName() + "_fusion").str(), type);
    callee.setPrivate();
    // Keep one copy in the object code: LLVM would otherwise inline the
    // small loop nest back into every caller before vectorizing it.
    callee->setAttr("passthrough",
                    b.getArrayAttr({b.getStringAttr("noinline")}));
    symbols.insert(callee); // renames on a clash: @main_fusion_0, ...
    Block *entry = callee.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping map;
    map.map(first.getInputs(), entry->getArguments());
    Operation *copy = b.clone(*first, map);
    func::ReturnOp::create(b, first.getLoc(), copy->getResults());

    for (FusionOp op : group) {
      b.setInsertionPoint(op);
      auto call = func::CallOp::create(b, op.getLoc(), callee, op.getInputs());
      op.replaceAllUsesWith(call.getResults());
      op.erase();
    }
  }
};

} // namespace
