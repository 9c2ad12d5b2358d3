//===- InsertRuntimeChecks.cpp - Run-time checks for compiled code -*- C++ -*-//
//
// Compiled code must refuse what the interpreter and the eager kernels
// refuse. The verifier settles static shapes; this pass emits, before each op
// whose validity depends on a dynamic dim or on the data, a `tfc.check` on
// the dims (once per op, outside any loop over the elements) or a
// `tfc.check_elements` on an integer divisor / exponent. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/Dialect/Tfc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCINSERTRUNTIMECHECKSPASS
#include "tfc/Dialect/Tfc/Transforms/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using namespace mlir::tfc;

namespace {

/// " (at file:line)" for the first file location in `loc` (the user's source
/// line; inlined ops carry it inside a call-site location).
std::string locationSuffix(Location loc) {
  std::string out;
  loc->walk([&](Location l) {
    if (auto file = dyn_cast<FileLineColLoc>(l)) {
      out = " (at " + file.getFilename().str() + ":" +
            std::to_string(file.getLine()) + ")";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return out;
}

std::string opName(Operation *op) { return op->getName().getStringRef().str(); }

/// Builds the checks of one op, inserted just before it.
class Checker {
public:
  explicit Checker(Operation *op) : op(op), b(op), loc(op->getLoc()) {}

  /// Size of dim `i` of `v` as an index. Elementwise results and broadcast
  /// dims are followed back to the value they come from, so the dims are
  /// read off values computed before any fusion group (a tensor.dim on a
  /// fusable value would keep it out of its group). Sound because the
  /// producer's own check ran first.
  Value dim(Value v, int64_t i) {
    auto type = cast<RankedTensorType>(v.getType());
    if (!type.isDynamicDim(i))
      return arith::ConstantIndexOp::create(b, loc, type.getDimSize(i));
    if (Operation *def = v.getDefiningOp()) {
      if (isa<TfcDialect>(def->getDialect()) &&
          def->hasTrait<OpTrait::Elementwise>() && def->getNumOperands() > 0)
        if (auto t = dyn_cast<RankedTensorType>(def->getOperand(0).getType()))
          if (t.getRank() == type.getRank())
            return dim(def->getOperand(0), i);
      if (auto bc = dyn_cast<BroadcastToOp>(def))
        if (auto source = bc.dynamicDimSource(i))
          return dim(source->first, source->second);
    }
    return tensor::DimOp::create(b, loc, v, i);
  }

  /// "(2, {})" with the dynamic dims of `v` appended to the message values.
  std::string shape(Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    std::string s = "(";
    for (int64_t i = 0; i < type.getRank(); ++i) {
      if (i)
        s += ", ";
      if (type.isDynamicDim(i)) {
        s += "{}";
        values.push_back(dim(v, i));
      } else {
        s += std::to_string(type.getDimSize(i));
      }
    }
    return s + (type.getRank() == 1 ? ",)" : ")");
  }

  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(loc, p, x, y);
  }
  Value eq(Value x, Value y) { return cmp(arith::CmpIPredicate::eq, x, y); }
  Value index(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value all(ArrayRef<Value> conds) {
    Value r;
    for (Value c : conds)
      r = r ? b.createOrFold<arith::AndIOp>(loc, r, c) : c;
    return r;
  }
  Value any(Value x, Value y) {
    return b.createOrFold<arith::OrIOp>(loc, x, y);
  }
  Value product(Value v, ArrayRef<int64_t> dims) {
    Value p = index(1);
    for (int64_t d : dims)
      p = b.createOrFold<arith::MulIOp>(loc, p, dim(v, d));
    return p;
  }

  /// Emits `tfc.check` unless `ok` is the constant true. `message` gets the
  /// op's name and source line; `values` fill its `{}`s.
  void check(Value ok, const std::string &message) {
    if (!ok || matchPattern(ok, m_One())) {
      values.clear();
      return;
    }
    CheckOp::create(b, loc, ok, CheckKind::invalid_argument,
                    opName(op) + ": " + message + locationSuffix(loc), values);
    values.clear();
  }

  /// A data check: every element of `v` must satisfy `pred` (`in_range`,
  /// `below`: against `bound`; `{}` in the message becomes the bound).
  void checkElements(Value v, ElementPredicate pred, const std::string &message,
                     Value bound = {}) {
    // A constant operand (and bound) is checked here, at compile time:
    // nothing to emit when it passes (the usual `x // 2`).
    DenseIntElementsAttr attr;
    std::optional<int64_t> limit;
    if (bound)
      limit = getConstantIntValue(bound);
    if (matchPattern(v, m_Constant(&attr)) && (!bound || limit)) {
      bool ok = llvm::all_of(attr.getValues<APInt>(), [&](const APInt &x) {
        int64_t e = x.getSExtValue();
        switch (pred) {
        case ElementPredicate::nonzero:
          return e != 0;
        case ElementPredicate::nonnegative:
          return e >= 0;
        case ElementPredicate::in_range:
          return e >= 0 && e < *limit;
        case ElementPredicate::below:
          return e < *limit;
        }
        return false;
      });
      if (ok)
        return;
    }
    CheckElementsOp::create(b, loc, v, pred, bound,
                            opName(op) + ": " + message + locationSuffix(loc));
  }

  Operation *op;
  OpBuilder b;
  Location loc;
  SmallVector<Value> values;
};

std::string listText(ArrayRef<int64_t> xs) {
  std::string s = "[";
  for (auto [i, x] : llvm::enumerate(xs))
    s += (i ? ", " : "") + std::to_string(x);
  return s + "]";
}

std::string typeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

bool isIntegerTensor(Value v) {
  Type t = cast<ShapedType>(v.getType()).getElementType();
  return isa<IntegerType>(t) && !t.isInteger(1);
}

void checkElementwise(Checker &c, Operation *op) {
  Value first = op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(first.getType());
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type || !resultType)
    return;
  for (Value other : op->getOperands().drop_front()) {
    auto otherType = dyn_cast<RankedTensorType>(other.getType());
    if (!otherType || otherType.getRank() != type.getRank())
      continue;
    SmallVector<Value> conds;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i) || otherType.isDynamicDim(i))
        conds.push_back(c.eq(c.dim(first, i), c.dim(other, i)));
    if (conds.empty())
      continue;
    std::string a = c.shape(first), b = c.shape(other);
    c.check(c.all(conds), "operand shapes " + a + " and " + b +
                              " differ at run time; elementwise ops do not "
                              "broadcast");
  }
  // A result dim the type states statically while the operands' is dynamic.
  SmallVector<Value> conds;
  for (int64_t i = 0; i < type.getRank() && i < resultType.getRank(); ++i)
    if (type.isDynamicDim(i) && !resultType.isDynamicDim(i))
      conds.push_back(c.eq(c.dim(first, i), c.index(resultType.getDimSize(i))));
  if (!conds.empty()) {
    std::string a = c.shape(first);
    c.check(c.all(conds), "operand shape " + a +
                              " differs from the result type " +
                              typeText(resultType));
  }

  // Integer division and powers: the eager kernels refuse a zero divisor
  // and a negative exponent.
  if (isa<FloorDivOp, ModOp>(op) && isIntegerTensor(op->getOperand(1)))
    c.checkElements(op->getOperand(1), ElementPredicate::nonzero,
                    "integer division by zero");
  if (isa<PowOp>(op) && isIntegerTensor(op->getOperand(1)))
    c.checkElements(op->getOperand(1), ElementPredicate::nonnegative,
                    "integers to negative integer powers are not allowed");
}

void checkBroadcast(Checker &c, BroadcastToOp op) {
  auto in = cast<RankedTensorType>(op.getOperand().getType());
  auto out = cast<RankedTensorType>(op.getType());
  int64_t offset = out.getRank() - in.getRank();
  SmallVector<Value> conds;
  for (int64_t j = 0; j < in.getRank(); ++j) {
    if (!in.isDynamicDim(j) || out.isDynamicDim(j + offset))
      continue;
    Value d = c.dim(op.getOperand(), j);
    int64_t target = out.getDimSize(j + offset);
    conds.push_back(c.any(c.eq(d, c.index(1)), c.eq(d, c.index(target))));
  }
  // A dynamic dim sized by the operand must fit `like` too: the trace took
  // them to be equal (or `like`'s 1), not a run-time broadcast of a 1.
  if (Value like = op.getLike()) {
    auto lt = cast<RankedTensorType>(like.getType());
    int64_t likeOffset = out.getRank() - lt.getRank();
    for (int64_t j = 0; j < in.getRank(); ++j) {
      int64_t k = j + offset - likeOffset;
      if (!in.isDynamicDim(j) || k < 0 || lt.getDimSize(k) == 1)
        continue;
      Value d = c.dim(op.getOperand(), j), l = c.dim(like, k);
      conds.push_back(c.any(c.eq(l, c.index(1)), c.eq(d, l)));
    }
  }
  if (conds.empty())
    return;
  std::string s = c.shape(op.getOperand());
  if (Value like = op.getLike())
    s += " like a tensor of shape " + c.shape(like);
  c.check(c.all(conds),
          "cannot broadcast a tensor of shape " + s + " to " + typeText(out));
}

void checkMatmul(Checker &c, MatmulOp op) {
  Value lhs = op.getOperand(0), rhs = op.getOperand(1);
  auto lt = cast<RankedTensorType>(lhs.getType());
  auto rt = cast<RankedTensorType>(rhs.getType());
  auto out = cast<RankedTensorType>(op.getType());
  int64_t r = lt.getRank();
  if (r < 2 || rt.getRank() != r || out.getRank() != r)
    return;
  SmallVector<Value> conds;
  auto agree = [&](Value x, int64_t i, Value y, int64_t j) {
    auto xt = cast<RankedTensorType>(x.getType());
    auto yt = cast<RankedTensorType>(y.getType());
    if (xt.isDynamicDim(i) || yt.isDynamicDim(j))
      conds.push_back(c.eq(c.dim(x, i), c.dim(y, j)));
  };
  agree(lhs, r - 1, rhs, r - 2);
  for (int64_t d = 0; d < r - 2; ++d)
    agree(lhs, d, rhs, d);
  // Static result dims read from dynamic operand dims.
  for (int64_t d = 0; d < r; ++d) {
    if (out.isDynamicDim(d))
      continue;
    Value from = d == r - 1 ? rhs : lhs;
    if (cast<RankedTensorType>(from.getType()).isDynamicDim(d))
      conds.push_back(c.eq(c.dim(from, d), c.index(out.getDimSize(d))));
  }
  if (conds.empty())
    return;
  std::string a = c.shape(lhs), b = c.shape(rhs);
  c.check(c.all(conds), "inner or batch dimensions of shapes " + a + " and " +
                            b + " differ at run time");
}

void checkReshape(Checker &c, Operation *op) {
  Value in = op->getOperand(0);
  auto it = cast<RankedTensorType>(in.getType());
  auto out = cast<RankedTensorType>(op->getResult(0).getType());
  if (it.hasStaticShape())
    return; // the verifier compared the element counts
  SmallVector<int64_t> all =
      llvm::to_vector(llvm::seq<int64_t>(0, it.getRank()));
  Value n = c.product(in, all);
  int64_t known = 1, dynamic = 0;
  for (int64_t d : out.getShape()) {
    if (ShapedType::isDynamic(d))
      ++dynamic;
    else
      known *= d;
  }
  if (dynamic > 1)
    return; // the lowering refuses these at compile time
  Value ok;
  if (dynamic == 0) {
    ok = c.eq(n, c.index(known));
  } else if (known == 0) {
    // The eager kernel cannot infer a dim next to a zero.
    ok = arith::ConstantIntOp::create(c.b, c.loc, 0, 1);
  } else {
    ok = c.eq(c.b.createOrFold<arith::RemUIOp>(c.loc, n, c.index(known)),
              c.index(0));
  }
  std::string s = c.shape(in);
  c.check(ok,
          "cannot reshape a tensor of shape " + s + " into " + typeText(out));
}

void checkSqueeze(Checker &c, SqueezeOp op) {
  Value in = op.getOperand();
  auto it = cast<RankedTensorType>(in.getType());
  SmallVector<int64_t> axes(op.getAxes());
  if (axes.empty())
    return;
  SmallVector<Value> conds;
  for (int64_t a : axes)
    if (a >= 0 && a < it.getRank() && it.isDynamicDim(a))
      conds.push_back(c.eq(c.dim(in, a), c.index(1)));
  if (conds.empty())
    return;
  std::string s = c.shape(in);
  c.check(c.all(conds), "cannot squeeze a dim that is not 1 (shape " + s + ")");
}

void checkSlice(Checker &c, SliceOp op) {
  Value in = op.getOperand();
  auto it = cast<RankedTensorType>(in.getType());
  ArrayRef<int64_t> begin = op.getBegin(), size = op.getSize();
  SmallVector<Value> conds;
  for (int64_t i = 0; i < it.getRank() && i < (int64_t)begin.size() &&
                      i < (int64_t)size.size();
       ++i)
    if (it.isDynamicDim(i))
      conds.push_back(c.cmp(arith::CmpIPredicate::ule,
                            c.index(begin[i] + size[i]), c.dim(in, i)));
  if (conds.empty())
    return;
  std::string s = c.shape(in);
  c.check(c.all(conds), "begin " + listText(begin) + " size " + listText(size) +
                            " is out of bounds for shape " + s);
}

void checkConcat(Checker &c, ConcatOp op) {
  int64_t axis = op.getAxis();
  Value first = op.getOperand(0);
  auto ft = cast<RankedTensorType>(first.getType());
  for (Value other : op.getOperands().drop_front()) {
    auto ot = cast<RankedTensorType>(other.getType());
    SmallVector<Value> conds;
    for (int64_t i = 0; i < ft.getRank(); ++i)
      if (i != axis && (ft.isDynamicDim(i) || ot.isDynamicDim(i)))
        conds.push_back(c.eq(c.dim(first, i), c.dim(other, i)));
    if (conds.empty())
      continue;
    std::string a = c.shape(first), b = c.shape(other);
    c.check(c.all(conds), "input shapes " + a + " and " + b +
                              " differ outside the concatenation axis");
  }
}

/// reduce_max/min (and an integer reduce_mean) over zero elements of a
/// non-empty result, and argmax over an empty axis, have no value.
void checkEmptyReduction(Checker &c, Operation *op, ArrayRef<int64_t> axes,
                         const char *what) {
  Value in = op->getOperand(0);
  auto it = cast<RankedTensorType>(in.getType());
  SmallVector<int64_t> kept;
  for (int64_t i = 0; i < it.getRank(); ++i)
    if (!llvm::is_contained(axes, i))
      kept.push_back(i);
  Value reduced = c.product(in, axes);
  Value outN = c.product(in, kept);
  Value ok = c.any(c.cmp(arith::CmpIPredicate::ne, reduced, c.index(0)),
                   c.eq(outN, c.index(0)));
  std::string s = c.shape(in);
  c.check(ok, std::string(what) + " (shape " + s + ")");
}

void checkCrossEntropy(Checker &c, SoftmaxCrossEntropyOp op) {
  Value labels = op.getOperand(0), logits = op.getOperand(1);
  auto lt = cast<RankedTensorType>(labels.getType());
  auto gt = cast<RankedTensorType>(logits.getType());
  if (lt.getRank() != gt.getRank())
    return;
  SmallVector<Value> conds;
  for (int64_t i = 0; i < lt.getRank(); ++i)
    if (lt.isDynamicDim(i) || gt.isDynamicDim(i))
      conds.push_back(c.eq(c.dim(labels, i), c.dim(logits, i)));
  if (conds.empty())
    return;
  std::string a = c.shape(labels), b = c.shape(logits);
  c.check(c.all(conds),
          "labels shape " + a + " and logits shape " + b + " differ");
}

/// gather: every index in [0, params.shape[axis]).
void checkGather(Checker &c, GatherOp op) {
  c.checkElements(op.getIndices(), ElementPredicate::in_range,
                  "an index is outside [0, {}) (the gathered axis of params)",
                  c.dim(op.getParams(), op.getAxis()));
}

/// unsorted_segment_sum: ids' dims equal data's leading dims; every id below
/// num_segments (negative ones are dropped).
void checkSegmentSum(Checker &c, UnsortedSegmentSumOp op) {
  Value data = op.getData(), ids = op.getSegmentIds();
  auto dt = cast<RankedTensorType>(data.getType());
  auto it = cast<RankedTensorType>(ids.getType());
  SmallVector<Value> conds;
  for (int64_t d = 0; d < it.getRank(); ++d)
    if (dt.isDynamicDim(d) || it.isDynamicDim(d))
      conds.push_back(c.eq(c.dim(ids, d), c.dim(data, d)));
  if (!conds.empty()) {
    std::string a = c.shape(ids), b = c.shape(data);
    c.check(c.all(conds),
            "segment_ids shape " + a + " is not a prefix of data shape " + b);
  }
  c.checkElements(ids, ElementPredicate::below,
                  "a segment id is not below num_segments = {}",
                  c.index(op.getNumSegments()));
}

/// sparse_softmax_cross_entropy: labels' dims equal logits' leading dims;
/// every label in [0, classes).
void checkSparseCrossEntropy(Checker &c, SparseSoftmaxCrossEntropyOp op) {
  Value labels = op.getLabels(), logits = op.getLogits();
  auto lt = cast<RankedTensorType>(labels.getType());
  auto gt = cast<RankedTensorType>(logits.getType());
  SmallVector<Value> conds;
  for (int64_t d = 0; d < lt.getRank(); ++d)
    if (lt.isDynamicDim(d) || gt.isDynamicDim(d))
      conds.push_back(c.eq(c.dim(labels, d), c.dim(logits, d)));
  if (!conds.empty()) {
    std::string a = c.shape(labels), b = c.shape(logits);
    c.check(c.all(conds), "labels shape " + a + " is not logits shape " + b +
                              " without its last dim");
  }
  c.checkElements(labels, ElementPredicate::in_range,
                  "a label is outside the valid range of classes [0, {})",
                  c.index(gt.getDimSize(gt.getRank() - 1)));
}

void insertChecks(Operation *op) {
  Checker c(op);
  if (op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
      op->getNumOperands() > 0) {
    checkElementwise(c, op);
    return;
  }
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](BroadcastToOp o) { checkBroadcast(c, o); })
      .Case([&](MatmulOp o) { checkMatmul(c, o); })
      .Case<ReshapeOp>([&](Operation *o) { checkReshape(c, o); })
      .Case([&](SqueezeOp o) { checkSqueeze(c, o); })
      .Case([&](SliceOp o) { checkSlice(c, o); })
      .Case([&](ConcatOp o) { checkConcat(c, o); })
      .Case<ReduceMaxOp, ReduceMinOp>([&](Operation *o) {
        checkEmptyReduction(c, o, o->getAttrOfType<DenseI64ArrayAttr>("axes"),
                            "cannot reduce over zero elements");
      })
      .Case([&](ReduceMeanOp o) {
        if (isIntegerTensor(o.getOperand()))
          checkEmptyReduction(c, o, o.getAxes(),
                              "mean of zero integer elements");
      })
      .Case([&](ArgMaxOp o) {
        int64_t axis = o.getAxis();
        checkEmptyReduction(c, o, ArrayRef<int64_t>(axis),
                            "cannot take the argmax over an axis of size 0");
      })
      .Case([&](SoftmaxCrossEntropyOp o) { checkCrossEntropy(c, o); })
      .Case([&](GatherOp o) { checkGather(c, o); })
      .Case(
          [&](SparseSoftmaxCrossEntropyOp o) { checkSparseCrossEntropy(c, o); })
      .Case([&](UnsortedSegmentSumOp o) { checkSegmentSum(c, o); });
}

struct InsertRuntimeChecksPass
    : public tfc::impl::TfcInsertRuntimeChecksPassBase<
          InsertRuntimeChecksPass> {
  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (!isa<TfcDialect>(op->getDialect()) || isa<CheckOp>(op) ||
          isa<CheckElementsOp>(op) || op->getParentOfType<FusionOp>() ||
          isa<FusionOp>(op))
        return;
      for (Type t : op->getOperandTypes())
        if (!isa<RankedTensorType>(t))
          return;
      ops.push_back(op);
    });
    for (Operation *op : ops)
      insertChecks(op);
  }
};

} // namespace
