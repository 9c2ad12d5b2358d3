//===- FuseElementwise.cpp - Form tfc.fusion groups -------------*- C++ -*-===//
//
// Greedy producer-consumer grouping, consumers first (XLA's instruction
// fusion): each elementwise op or reduction roots a group that pulls in its
// producers while that neither duplicates expensive work nor breaks
// dominance. The decisions are documented with the pass in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

#include <algorithm>

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCFUSEELEMENTWISEPASS
#include "tfc/Dialect/Tfc/Transforms/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using namespace mlir::tfc;

namespace {

bool isElementwise(Operation *op) { return isa<ElementwiseOpInterface>(op); }

bool isSplatConstant(Operation *op) {
  auto c = dyn_cast<ConstantOp>(op);
  if (!c)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
  return dense && dense.isSplat();
}

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// A broadcast an affine map can express: every operand dim is a static 1
/// or statically equal to the dim it aligns with.
bool isAffineBroadcast(BroadcastToOp op) {
  ArrayRef<int64_t> in = shapeOf(op.getOperand()), out = shapeOf(op);
  size_t offset = out.size() - in.size();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] == 1)
      continue;
    if (ShapedType::isDynamic(in[i]) || in[i] != out[i + offset])
      return false;
  }
  return true;
}

/// An elementwise op whose operands and result all have exactly `shape`
/// (the verifier lets a dynamic dim meet a static one; a fusion does not).
bool hasExactShape(Operation *op, ArrayRef<int64_t> shape) {
  for (Value v : op->getOperands())
    if (shapeOf(v) != shape)
      return false;
  return shapeOf(op->getResult(0)) == shape;
}

struct Group {
  Operation *root = nullptr;
  FusionKind kind = FusionKind::loop;
  SmallVector<int64_t> domain;
  /// Members moved into the fusion, and members cloned into it (constants
  /// and broadcasts that keep other users).
  llvm::SetVector<Operation *> moved, cloned;
  /// Moved members whose value is also used after the root.
  SmallVector<Operation *> extraOutputs;

  bool contains(Operation *op) const {
    return moved.contains(op) || cloned.contains(op);
  }
  /// Cloned members do not count: their originals may stay outside.
  bool allUsersInside(Operation *op) const {
    return llvm::all_of(op->getUsers(),
                        [&](Operation *u) { return moved.contains(u); });
  }
};

class Fuser {
public:
  Fuser(unsigned maxInputs, unsigned maxOutputs)
      : maxInputs(maxInputs), maxOutputs(maxOutputs) {}

  void runOnBlock(Block &block) {
    SmallVector<Operation *> ops;
    for (Operation &op : llvm::reverse(block))
      ops.push_back(&op);
    for (Operation *op : ops) {
      if (grouped.contains(op) || erased.contains(op))
        continue;
      if (!(isElementwise(op) && op->getNumResults() == 1) &&
          !isFusibleReduction(op))
        continue;
      if (std::optional<Group> g = grow(op))
        materialize(*g);
    }
  }

private:
  std::optional<Group> grow(Operation *root) {
    Group g;
    g.root = root;
    if (isFusibleReduction(root)) {
      g.kind = FusionKind::input;
      g.domain.assign(shapeOf(root->getOperand(0)).begin(),
                      shapeOf(root->getOperand(0)).end());
    } else {
      if (!hasExactShape(root, shapeOf(root->getResult(0))))
        return std::nullopt;
      g.domain.assign(shapeOf(root->getResult(0)).begin(),
                      shapeOf(root->getResult(0)).end());
    }
    g.moved.insert(root);
    Block *block = root->getBlock();
    // Members in insertion order; their operands are the candidates.
    for (size_t next = 0; next < g.moved.size() + g.cloned.size(); ++next) {
      Operation *member = next < g.moved.size()
                              ? g.moved[next]
                              : g.cloned[next - g.moved.size()];
      if (isa<ConstantOp>(member))
        continue;
      bool isBroadcast = isa<BroadcastToOp>(member);
      for (Value operand : member->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || g.contains(def))
          continue;
        // A splat constant is cloned in from any enclosing block: it is a
        // scalar in the loop body, not a value to read.
        if (isSplatConstant(def)) {
          g.cloned.insert(def);
          continue;
        }
        if (def->getBlock() != block || grouped.contains(def))
          continue;
        // A broadcast's operand is read through the broadcast's map.
        if (isBroadcast)
          continue;
        if (auto bcast = dyn_cast<BroadcastToOp>(def)) {
          if (shapeOf(bcast) == ArrayRef<int64_t>(g.domain) &&
              isAffineBroadcast(bcast))
            g.cloned.insert(def);
          continue;
        }
        if (!isElementwise(def) || def->getNumResults() != 1 ||
            shapeOf(def->getResult(0)) != ArrayRef<int64_t>(g.domain) ||
            !hasExactShapeOperands(def, g.domain))
          continue;
        if (g.allUsersInside(def)) {
          g.moved.insert(def);
          continue;
        }
        // Multi-output: other users must come after the root, where the
        // fusion will be.
        bool laterUsersOnly = llvm::all_of(def->getUsers(), [&](Operation *u) {
          if (g.moved.contains(u))
            return true;
          Operation *anc = block->findAncestorOpInBlock(*u);
          return anc && root->isBeforeInBlock(anc);
        });
        if (g.kind == FusionKind::loop && laterUsersOnly &&
            g.extraOutputs.size() + 1 < maxOutputs) {
          g.moved.insert(def);
          g.extraOutputs.push_back(def);
        }
      }
    }
    // One op alone gains nothing from a fusion.
    unsigned computing = 0;
    for (Operation *op : g.moved)
      computing += !isa<ConstantOp>(op);
    for (Operation *op : g.cloned)
      computing += isa<BroadcastToOp>(op);
    if (computing < 2)
      return std::nullopt;
    // A moved member that ended up with all its users inside (a later
    // member used it too) needs no extra result.
    llvm::erase_if(g.extraOutputs,
                   [&](Operation *op) { return g.allUsersInside(op); });
    SmallVector<Value> inputs = collectInputs(g);
    if (inputs.size() > maxInputs)
      return std::nullopt;
    bool needsDirect = g.kind == FusionKind::input ||
                       llvm::any_of(g.domain, ShapedType::isDynamic);
    if (needsDirect && !hasDirectInput(g, inputs))
      return std::nullopt;
    return g;
  }

  static bool hasExactShapeOperands(Operation *op, ArrayRef<int64_t> shape) {
    for (Value v : op->getOperands())
      if (shapeOf(v) != shape)
        return false;
    return true;
  }

  /// Values the members use that are defined outside the group, in first
  /// use order.
  static SmallVector<Value> collectInputs(const Group &g) {
    llvm::SetVector<Value> inputs;
    for (Operation *op : members(g))
      for (Value v : fusedOperands(op)) {
        Operation *def = v.getDefiningOp();
        if (!def || !g.contains(def))
          inputs.insert(v);
      }
    return inputs.takeVector();
  }

  /// The operands a member reads inside the fusion: a broadcast's `like`
  /// only sizes dims, which the fusion's iteration space sizes there.
  static OperandRange fusedOperands(Operation *op) {
    if (auto bcast = dyn_cast<BroadcastToOp>(op))
      return bcast->getOperands().take_front(1);
    return op->getOperands();
  }

  /// The group's members in block order (a topological order).
  static SmallVector<Operation *> members(const Group &g) {
    // Constants from enclosing blocks first (they have no operands), then
    // the group's block in order.
    SmallVector<Operation *> all, outer;
    Block *block = g.root->getBlock();
    for (Operation *op : llvm::concat<Operation *const>(g.moved, g.cloned))
      (op->getBlock() == block ? all : outer).push_back(op);
    llvm::sort(
        all, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    outer.append(all.begin(), all.end());
    return outer;
  }

  /// Whether some input is read at the iteration space's shape (not through
  /// a broadcast). Dynamic sizes are read from it; and a reduction's loop
  /// nest needs it, since its output does not span the reduced dims (linalg
  /// requires every loop dim to be the dim of some operand).
  static bool hasDirectInput(const Group &g, ArrayRef<Value> inputs) {
    for (Value v : inputs) {
      if (shapeOf(v) != ArrayRef<int64_t>(g.domain))
        continue;
      bool direct = llvm::any_of(v.getUsers(), [&](Operation *u) {
        return g.contains(u) && !isa<BroadcastToOp>(u);
      });
      if (direct)
        return true;
    }
    return false;
  }

  void materialize(Group &g) {
    SmallVector<Value> inputs = collectInputs(g);
    SmallVector<Value> results = {g.root->getResult(0)};
    for (Operation *op : g.extraOutputs)
      results.push_back(op->getResult(0));
    OpBuilder b(g.root);
    Location loc = g.root->getLoc();
    auto fusion = FusionOp::create(b, loc, ValueRange(results).getTypes(),
                                   g.kind, inputs);
    Block *body = new Block();
    fusion.getBody().push_back(body);
    IRMapping map;
    for (Value v : inputs)
      map.map(v, body->addArgument(v.getType(), v.getLoc()));
    OpBuilder inner = OpBuilder::atBlockEnd(body);
    for (Operation *op : members(g)) {
      Operation *clone = inner.clone(*op, map);
      if (isa<BroadcastToOp>(clone) && clone->getNumOperands() > 1)
        clone->eraseOperand(1); // fusedOperands
    }
    SmallVector<Value> yielded;
    for (Value r : results)
      yielded.push_back(map.lookup(r));
    YieldOp::create(inner, loc, yielded);

    for (auto [r, f] : llvm::zip(results, fusion.getResults()))
      r.replaceAllUsesWith(f);
    // Users first: erase in reverse block order, moved members (now
    // unused) before the cloned ones they used.
    auto laterFirst = [](Operation *a, Operation *c) {
      return c->isBeforeInBlock(a);
    };
    SmallVector<Operation *> moved(g.moved.begin(), g.moved.end());
    SmallVector<Operation *> cloned(g.cloned.begin(), g.cloned.end());
    llvm::sort(moved, laterFirst);
    // Constants from other blocks: their order does not matter.
    std::stable_partition(cloned.begin(), cloned.end(), [&](Operation *op) {
      return op->getBlock() == g.root->getBlock();
    });
    auto inBlock = llvm::find_if(cloned, [&](Operation *op) {
      return op->getBlock() != g.root->getBlock();
    });
    std::sort(cloned.begin(), inBlock, laterFirst);
    for (Operation *op : moved) {
      grouped.insert(op);
      erased.insert(op);
      op->erase();
    }
    for (Operation *op : cloned) {
      if (!op->use_empty())
        continue;
      grouped.insert(op);
      erased.insert(op);
      op->erase();
    }
    for (Operation *op : g.cloned)
      if (!erased.contains(op))
        grouped.insert(op); // keeps its other users; not a new root
    grouped.insert(fusion);
  }

  unsigned maxInputs, maxOutputs;
  llvm::SmallPtrSet<Operation *, 32> grouped, erased;
};

struct TfcFuseElementwisePass
    : public tfc::impl::TfcFuseElementwisePassBase<TfcFuseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    if (maxOutputs < 1 || maxInputs < 1) {
      getOperation()->emitError(
          "tfc-fuse-elementwise: max-inputs and max-outputs must be >= 1");
      return signalPassFailure();
    }
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      // Never regroup inside an existing fusion.
      if (!isa_and_nonnull<FusionOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks) {
      Fuser fuser(maxInputs, maxOutputs);
      fuser.runOnBlock(*block);
    }
  }
};

} // namespace
