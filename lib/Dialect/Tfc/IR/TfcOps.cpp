//===- TfcOps.cpp - tfc operations ------------------------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Verifiers, result-type inference, folders, canonicalization patterns and
// the custom assembly of tfc ops.
//
// Verifiers and inference functions never assume what they have not checked:
// they run on IR straight from the parser (including the generic form), so
// every type is dyn_cast and every attribute null-checked before use.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/runtime/ConvGeometry.h"

#include "mlir/Dialect/CommonFolders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVectorExtras.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::tfc;

#include "tfc/Dialect/Tfc/IR/TfcInterfaces.cpp.inc"
#include "tfc/Dialect/Tfc/IR/TfcOpsEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Axis helpers
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::tfc::normalizeAxis(int64_t axis, int64_t bound) {
  if (axis < -bound || axis >= bound)
    return failure();
  return axis < 0 ? axis + bound : axis;
}

FailureOr<SmallVector<int64_t>> mlir::tfc::normalizeAxes(ArrayRef<int64_t> axes,
                                                         int64_t rank) {
  SmallVector<int64_t> result;
  result.reserve(axes.size());
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized = normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    result.push_back(*normalized);
  }
  llvm::sort(result);
  result.erase(llvm::unique(result), result.end());
  return result;
}

namespace {
/// Emits an error at `loc` (if any) prefixed with `'opName' op`, the way
/// `emitOpError` would, for use in static inference functions.
template <typename... Args>
LogicalResult emitInferError(std::optional<Location> loc, StringRef opName,
                             Args &&...args) {
  return emitOptionalError(loc, "'", opName, "' op ",
                           std::forward<Args>(args)...);
}

/// Checks that `axes` are in `[0, rank)`, strictly increasing (so sorted and
/// unique), as every op taking a set of axes stores them.
LogicalResult verifyNormalizedAxes(std::optional<Location> loc,
                                   StringRef opName, ArrayRef<int64_t> axes,
                                   int64_t rank) {
  for (auto [i, axis] : llvm::enumerate(axes)) {
    if (axis < 0 || axis >= rank)
      return emitInferError(loc, opName, "expected axes in [0, ", rank,
                            ") but got axis ", axis);
    if (i > 0 && axes[i - 1] >= axis)
      return emitInferError(loc, opName,
                            "expected sorted axes without duplicates but got ",
                            axes[i - 1], " before ", axis);
  }
  return success();
}

/// Returns `type` as a ranked tensor or emits "expected a ranked tensor".
FailureOr<RankedTensorType> getRankedTensor(std::optional<Location> loc,
                                            StringRef opName, StringRef what,
                                            Type type) {
  auto tensor = dyn_cast_or_null<RankedTensorType>(type);
  if (!tensor)
    return emitInferError(loc, opName, "expected ", what,
                          " to be a ranked tensor but got ", type);
  return tensor;
}

/// True if two dims may be equal at run time.
bool dimsCompatible(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// The more precise of two compatible dims.
int64_t mergeDims(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? b : a;
}

/// Returns a splat elements attribute's value as an APInt, if it is one of an
/// integer type.
std::optional<APInt> getSplatInt(Attribute attr) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat || !isa<IntegerType>(splat.getElementType()))
    return std::nullopt;
  return splat.getSplatValue<APInt>();
}

/// Returns a splat elements attribute's value as an APFloat, if it is one of
/// a float type.
std::optional<APFloat> getSplatFloat(Attribute attr) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(attr);
  if (!splat || !isa<FloatType>(splat.getElementType()))
    return std::nullopt;
  return splat.getSplatValue<APFloat>();
}

/// True if `attr` is a splat of zero (either sign for floats).
bool isSplatZero(Attribute attr) {
  if (std::optional<APInt> i = getSplatInt(attr))
    return i->isZero();
  if (std::optional<APFloat> f = getSplatFloat(attr))
    return f->isZero();
  return false;
}

/// True if `attr` is a splat of one.
bool isSplatOne(Attribute attr) {
  if (std::optional<APInt> i = getSplatInt(attr))
    return i->isOne();
  if (std::optional<APFloat> f = getSplatFloat(attr))
    return f->isExactlyValue(1.0);
  return false;
}

using IntUnaryFn = function_ref<std::optional<APInt>(const APInt &)>;
using FloatUnaryFn = function_ref<std::optional<APFloat>(const APFloat &)>;
using IntBinaryFn =
    function_ref<std::optional<APInt>(const APInt &, const APInt &)>;
using FloatBinaryFn =
    function_ref<std::optional<APFloat>(const APFloat &, const APFloat &)>;

/// Constant-folds a unary elementwise op whose result has `resultType`,
/// dispatching on the element type; a null callback means "do not fold".
Attribute foldUnary(ArrayRef<Attribute> operands, Type resultType,
                    IntUnaryFn intFn, FloatUnaryFn floatFn) {
  auto shaped = dyn_cast<ShapedType>(resultType);
  if (!shaped || !shaped.hasStaticShape() || !operands[0])
    return {};
  if (isa<FloatType>(shaped.getElementType())) {
    if (!floatFn)
      return {};
    return constFoldUnaryOpConditional<FloatAttr, APFloat, void>(
        operands, resultType,
        [&](const APFloat &a) -> std::optional<APFloat> { return floatFn(a); });
  }
  if (!intFn)
    return {};
  return constFoldUnaryOpConditional<IntegerAttr, APInt, void>(
      operands, resultType,
      [&](const APInt &a) -> std::optional<APInt> { return intFn(a); });
}

/// Constant-folds a binary elementwise op, like `foldUnary`.
Attribute foldBinary(ArrayRef<Attribute> operands, Type resultType,
                     IntBinaryFn intFn, FloatBinaryFn floatFn) {
  auto shaped = dyn_cast<ShapedType>(resultType);
  if (!shaped || !shaped.hasStaticShape() || !operands[0] || !operands[1])
    return {};
  if (isa<FloatType>(shaped.getElementType())) {
    if (!floatFn)
      return {};
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void>(
        operands, resultType,
        [&](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
          return floatFn(a, b);
        });
  }
  if (!intFn)
    return {};
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void>(
      operands, resultType,
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return intFn(a, b);
      });
}

/// Applies a libm function to `x` in double precision and rounds the result
/// back to `x`'s semantics.
APFloat applyInDouble(const APFloat &x, double (*fn)(double)) {
  APFloat wide(x);
  bool losesInfo = false;
  (void)wide.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                     &losesInfo);
  APFloat result(fn(wide.convertToDouble()));
  (void)result.convert(x.getSemantics(), APFloat::rmNearestTiesToEven,
                       &losesInfo);
  return result;
}

/// Like `applyInDouble` for a binary function.
APFloat applyInDouble(const APFloat &x, const APFloat &y,
                      double (*fn)(double, double)) {
  bool losesInfo = false;
  APFloat wx(x), wy(y);
  (void)wx.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
  (void)wy.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven,
                   &losesInfo);
  APFloat result(fn(wx.convertToDouble(), wy.convertToDouble()));
  (void)result.convert(x.getSemantics(), APFloat::rmNearestTiesToEven,
                       &losesInfo);
  return result;
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
} // namespace

//===----------------------------------------------------------------------===//
// ElementwiseOpInterface
//===----------------------------------------------------------------------===//

LogicalResult mlir::tfc::detail::verifyElementwiseOp(Operation *op) {
  if (op->getNumOperands() == 0)
    return op->emitOpError("expected at least one operand");
  auto reference = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
  if (!reference)
    return success(); // Operand type constraints report this.
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || succeeded(verifyCompatibleShape(tensor, reference)))
      return success();
    return op->emitOpError("expected every operand and result to have the "
                           "shape of operand #0 ")
           << reference << " but " << what << " #" << index << " has type "
           << type;
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult ConstantOp::verify() {
  auto type = cast<ShapedType>(getValue().getType());
  if (!type.hasStaticShape())
    return emitOpError("expected a value with a static shape but got ") << type;
  return success();
}

//===----------------------------------------------------------------------===//
// Unary elementwise folders
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APInt &a) -> std::optional<APInt> { return -a; },
      [](const APFloat &a) -> std::optional<APFloat> { return neg(a); });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APInt &a) -> std::optional<APInt> { return a.abs(); },
      [](const APFloat &a) -> std::optional<APFloat> { return abs(a); });
}

OpFoldResult SquareOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APInt &a) -> std::optional<APInt> { return a * a; },
      [](const APFloat &a) -> std::optional<APFloat> { return a * a; });
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APInt &a) -> std::optional<APInt> {
        return a.isNegative() ? APInt::getZero(a.getBitWidth()) : a;
      },
      [](const APFloat &a) -> std::optional<APFloat> {
        if (a.isNaN() || !a.isNegative())
          return a;
        return APFloat::getZero(a.getSemantics());
      });
}

OpFoldResult LogicalNotOp::fold(FoldAdaptor adaptor) {
  return foldUnary(
      adaptor.getOperands(), getType(),
      [](const APInt &a) -> std::optional<APInt> { return ~a; }, nullptr);
}

/// Defines the folder of a float-only unary op computing `fn` in double.
#define TFC_DEFINE_FLOAT_UNARY_FOLDER(OpTy, fn)                                \
  OpFoldResult OpTy::fold(FoldAdaptor adaptor) {                               \
    return foldUnary(adaptor.getOperands(), getType(), nullptr,                \
                     [](const APFloat &a) -> std::optional<APFloat> {          \
                       return applyInDouble(a, fn);                            \
                     });                                                       \
  }

// `static_cast` picks the `double(double)` overload of each libm function.
using DoubleFn = double (*)(double);
TFC_DEFINE_FLOAT_UNARY_FOLDER(ExpOp, static_cast<DoubleFn>(std::exp))
TFC_DEFINE_FLOAT_UNARY_FOLDER(LogOp, static_cast<DoubleFn>(std::log))
TFC_DEFINE_FLOAT_UNARY_FOLDER(Log1pOp, static_cast<DoubleFn>(std::log1p))
TFC_DEFINE_FLOAT_UNARY_FOLDER(SqrtOp, static_cast<DoubleFn>(std::sqrt))
TFC_DEFINE_FLOAT_UNARY_FOLDER(SinOp, static_cast<DoubleFn>(std::sin))
TFC_DEFINE_FLOAT_UNARY_FOLDER(CosOp, static_cast<DoubleFn>(std::cos))
TFC_DEFINE_FLOAT_UNARY_FOLDER(TanhOp, static_cast<DoubleFn>(std::tanh))
TFC_DEFINE_FLOAT_UNARY_FOLDER(SigmoidOp, sigmoid)
#undef TFC_DEFINE_FLOAT_UNARY_FOLDER

//===----------------------------------------------------------------------===//
// Binary elementwise folders
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (Attribute folded = foldBinary(
          adaptor.getOperands(), getType(),
          [](const APInt &a, const APInt &b) -> std::optional<APInt> {
            return a + b;
          },
          [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
            return a + b;
          }))
    return folded;
  // x + 0 -> x (constants are moved to the right by the Commutative trait).
  if (isSplatZero(adaptor.getRhs()))
    return getLhs();
  return {};
}

namespace {
/// concat(a1, a2, ...) + concat(b1, b2, ...) along one axis ->
/// concat(a1 + b1, ...) over the union of both concats' cuts, where a block
/// spanning a cut of the other side must be a splat constant (cut into
/// smaller splats). x + 0 then folds, so the summed gradients of slices
/// (each its block in zeros) become one concat of the blocks.
struct AddOfConcats : public OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    auto lhs = op.getLhs().getDefiningOp<ConcatOp>();
    auto rhs = op.getRhs().getDefiningOp<ConcatOp>();
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!lhs || !rhs || !type || lhs.getAxis() != rhs.getAxis() ||
        !lhs->hasOneUse() || !rhs->hasOneUse() || lhs.getType() != type ||
        rhs.getType() != type)
      return rewriter.notifyMatchFailure(op, "not two single-use concats");
    int64_t axis = static_cast<int64_t>(lhs.getAxis());
    // Each side's blocks as [begin, end) along the axis; all static.
    auto blocks = [&](ConcatOp c, SmallVector<int64_t> &cuts) {
      int64_t at = 0;
      for (Value v : c.getInputs()) {
        int64_t n = cast<RankedTensorType>(v.getType()).getDimSize(axis);
        if (ShapedType::isDynamic(n))
          return false;
        at += n;
        cuts.push_back(at);
      }
      return true;
    };
    SmallVector<int64_t> lcuts, rcuts;
    if (!blocks(lhs, lcuts) || !blocks(rhs, rcuts))
      return rewriter.notifyMatchFailure(op, "a dynamic block");
    SmallVector<int64_t> cuts(lcuts);
    cuts.append(rcuts);
    llvm::sort(cuts);
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    // The block of `c` covering [from, to): an input, or a piece of a splat.
    auto piece = [&](ConcatOp c, ArrayRef<int64_t> ends, int64_t from,
                     int64_t to, bool build) -> Value {
      size_t i = llvm::upper_bound(ends, from) - ends.begin();
      Value input = c.getInputs()[i];
      int64_t begin = i == 0 ? 0 : ends[i - 1];
      if (begin == from && ends[i] == to)
        return input;
      SplatElementsAttr splat;
      if (!matchPattern(input, m_Constant(&splat)))
        return {};
      if (!build)
        return input;
      auto inputType = cast<RankedTensorType>(input.getType());
      SmallVector<int64_t> shape(inputType.getShape());
      shape[axis] = to - from;
      auto pieceType = inputType.clone(shape);
      return ConstantOp::create(
          rewriter, op.getLoc(), pieceType,
          SplatElementsAttr::get(pieceType, splat.getSplatValue<Attribute>()));
    };
    for (bool build : {false, true}) {
      SmallVector<Value> sums;
      int64_t from = 0;
      for (int64_t to : cuts) {
        Value a = piece(lhs, lcuts, from, to, build),
              b = piece(rhs, rcuts, from, to, build);
        if (!a || !b)
          return rewriter.notifyMatchFailure(
              op, "a block that is not a splat spans a cut");
        if (build)
          sums.push_back(AddOp::create(rewriter, op.getLoc(), a, b));
        from = to;
      }
      if (build)
        rewriter.replaceOpWithNewOp<ConcatOp>(op, type, sums,
                                              lhs.getAxisAttr());
    }
    return success();
  }
};
} // namespace

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<AddOfConcats>(context);
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (Attribute folded = foldBinary(
          adaptor.getOperands(), getType(),
          [](const APInt &a, const APInt &b) -> std::optional<APInt> {
            return a - b;
          },
          [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
            return a - b;
          }))
    return folded;
  // x - 0 -> x
  if (isSplatZero(adaptor.getRhs()))
    return getLhs();
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  if (Attribute folded = foldBinary(
          adaptor.getOperands(), getType(),
          [](const APInt &a, const APInt &b) -> std::optional<APInt> {
            return a * b;
          },
          [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
            return a * b;
          }))
    return folded;
  // x * 1 -> x
  if (isSplatOne(adaptor.getRhs()))
    return getLhs();
  return {};
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (Attribute folded = foldBinary(
          adaptor.getOperands(), getType(), nullptr,
          [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
            return a / b;
          }))
    return folded;
  // x / 1 -> x
  if (isSplatOne(adaptor.getRhs()))
    return getLhs();
  return {};
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a.sge(b) ? a : b;
      },
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return maximum(a, b);
      });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a.sle(b) ? a : b;
      },
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        return minimum(a, b);
      });
}

OpFoldResult FloorDivOp::fold(FoldAdaptor adaptor) {
  if (Attribute folded = foldBinary(
          adaptor.getOperands(), getType(),
          [](const APInt &a, const APInt &b) -> std::optional<APInt> {
            // Division by zero and INT_MIN / -1 are not folded.
            if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
              return std::nullopt;
            APInt quotient = a.sdiv(b);
            if (!a.srem(b).isZero() && (a.isNegative() != b.isNegative()))
              quotient -= 1;
            return quotient;
          },
          [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
            APFloat quotient = a / b;
            (void)quotient.roundToIntegral(APFloat::rmTowardNegative);
            return quotient;
          }))
    return folded;
  // Integer x floordiv 1 -> x (for floats, floor(x) != x).
  if (getSplatInt(adaptor.getRhs()) && isSplatOne(adaptor.getRhs()))
    return getLhs();
  return {};
}

OpFoldResult ModOp::fold(FoldAdaptor adaptor) {
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero() || (a.isMinSignedValue() && b.isAllOnes()))
          return std::nullopt;
        APInt rem = a.srem(b);
        if (!rem.isZero() && rem.isNegative() != b.isNegative())
          rem += b;
        return rem;
      },
      [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
        APFloat rem = a;
        (void)rem.mod(b);
        if (!rem.isZero() && !rem.isNaN() && rem.isNegative() != b.isNegative())
          rem = rem + b;
        return rem;
      });
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  if (Attribute folded = foldBinary(
          adaptor.getOperands(), getType(),
          [](const APInt &base, const APInt &exponent) -> std::optional<APInt> {
            if (exponent.isNegative())
              return std::nullopt;
            APInt result(base.getBitWidth(), 1), square = base;
            for (uint64_t e = exponent.getZExtValue(); e; e >>= 1) {
              if (e & 1)
                result *= square;
              square *= square;
            }
            return result;
          },
          [](const APFloat &a, const APFloat &b) -> std::optional<APFloat> {
            return applyInDouble(
                a, b, static_cast<double (*)(double, double)>(std::pow));
          }))
    return folded;
  // x ^ 1 -> x
  if (isSplatOne(adaptor.getRhs()))
    return getLhs();
  return {};
}

OpFoldResult LogicalAndOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  // x & true -> x, x & false -> false
  if (std::optional<APInt> rhs = getSplatInt(adaptor.getRhs()))
    return rhs->isOne() ? getLhs() : getRhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a & b;
      },
      nullptr);
}

OpFoldResult LogicalOrOp::fold(FoldAdaptor adaptor) {
  if (getLhs() == getRhs())
    return getLhs();
  // x | false -> x, x | true -> true
  if (std::optional<APInt> rhs = getSplatInt(adaptor.getRhs()))
    return rhs->isZero() ? getLhs() : getRhs();
  return foldBinary(
      adaptor.getOperands(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a | b;
      },
      nullptr);
}

//===----------------------------------------------------------------------===//
// CmpOp
//===----------------------------------------------------------------------===//

LogicalResult CmpOp::inferReturnTypes(MLIRContext *context,
                                      std::optional<Location> location,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> type = getRankedTensor(
      location, getOperationName(), "lhs", adaptor.getLhs().getType());
  if (failed(type))
    return failure();
  inferred.push_back(type->clone(IntegerType::get(context, 1)));
  return success();
}

namespace {
/// Evaluates `predicate` given the outcome of a three-way comparison.
bool evaluatePredicate(CmpPredicate predicate, bool less, bool equal,
                       bool unordered) {
  switch (predicate) {
  case CmpPredicate::eq:
    return !unordered && equal;
  case CmpPredicate::ne:
    return unordered || !equal;
  case CmpPredicate::lt:
    return !unordered && less;
  case CmpPredicate::le:
    return !unordered && (less || equal);
  case CmpPredicate::gt:
    return !unordered && !less && !equal;
  case CmpPredicate::ge:
    return !unordered && !less;
  }
  llvm_unreachable("unknown tfc.cmp predicate");
}
} // namespace

OpFoldResult CmpOp::fold(FoldAdaptor adaptor) {
  auto operandType = dyn_cast<ShapedType>(getLhs().getType());
  if (!operandType || !operandType.hasStaticShape() || !adaptor.getLhs() ||
      !adaptor.getRhs())
    return {};
  CmpPredicate predicate = getPredicate();
  Type elementType = operandType.getElementType();
  if (isa<FloatType>(elementType)) {
    return constFoldBinaryOpConditional<FloatAttr, APFloat, void, IntegerAttr>(
        adaptor.getOperands(), getType(),
        [&](const APFloat &a, const APFloat &b) -> std::optional<APInt> {
          APFloat::cmpResult order = a.compare(b);
          return APInt(1, evaluatePredicate(predicate,
                                            order == APFloat::cmpLessThan,
                                            order == APFloat::cmpEqual,
                                            order == APFloat::cmpUnordered));
        });
  }
  bool isBool = elementType.isInteger(1);
  return constFoldBinaryOpConditional<IntegerAttr, APInt, void, IntegerAttr>(
      adaptor.getOperands(), getType(),
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        bool less = isBool ? a.ult(b) : a.slt(b);
        return APInt(1, evaluatePredicate(predicate, less, a == b,
                                          /*unordered=*/false));
      });
}

//===----------------------------------------------------------------------===//
// SelectOp
//===----------------------------------------------------------------------===//

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  if (getOnTrue() == getOnFalse())
    return getOnTrue();
  if (std::optional<APInt> cond = getSplatInt(adaptor.getCond()))
    return cond->isOne() ? getOnTrue() : getOnFalse();
  return {};
}

//===----------------------------------------------------------------------===//
// CastOp
//===----------------------------------------------------------------------===//

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // cast(cast(x)) to x's own type is not x in general (f32 -> i32 -> f32
  // truncates), so only identical types fold.
  return {};
}

//===----------------------------------------------------------------------===//
// BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (operandType.getElementType() != resultType.getElementType())
    return emitOpError("expected the result element type to be ")
           << operandType.getElementType() << " but got " << resultType;
  int64_t rankDiff = resultType.getRank() - operandType.getRank();
  if (rankDiff < 0)
    return emitOpError("cannot broadcast ")
           << operandType << " to the lower-rank " << resultType;
  // The first dim of `t` (trailing-aligned with the result) that is neither
  // 1 nor compatible with the result's.
  auto misfit = [&](RankedTensorType t) -> std::optional<int64_t> {
    int64_t offset = resultType.getRank() - t.getRank();
    for (auto [i, dim] : llvm::enumerate(t.getShape()))
      if (dim != 1 && !dimsCompatible(dim, resultType.getDimSize(i + offset)))
        return int64_t(i);
    return std::nullopt;
  };
  if (auto i = misfit(operandType))
    return emitOpError("cannot broadcast ")
           << operandType << " to " << resultType << ": operand dim #" << *i
           << " is " << operandType.getDimSize(*i) << ", expected 1 or "
           << resultType.getDimSize(*i + rankDiff);
  RankedTensorType likeType;
  if (getLike()) {
    likeType = cast<RankedTensorType>(getLike().getType());
    if (likeType.getRank() > resultType.getRank())
      return emitOpError("expected `like` of rank at most ")
             << resultType.getRank() << " but got " << likeType;
    if (auto i = misfit(likeType))
      return emitOpError("cannot broadcast like ")
             << likeType << " to " << resultType << ": its dim #" << *i
             << " is " << likeType.getDimSize(*i) << ", expected 1 or "
             << resultType.getDimSize(*i + resultType.getRank() -
                                      likeType.getRank());
  }
  // Inside a fusion the iteration space sizes every dim.
  if ((*this)->getParentOfType<FusionOp>())
    return success();
  for (int64_t i = 0; i < resultType.getRank(); ++i)
    if (resultType.isDynamicDim(i) && !dynamicDimSource(i))
      return emitOpError("cannot broadcast ")
             << operandType << " to " << resultType << ": dynamic dim #" << i
             << " of the result has no operand dim to take its size from"
             << (likeType ? " and `like` has none either"
                          : "; give a `like` operand");
  return success();
}

std::optional<std::pair<Value, int64_t>>
BroadcastToOp::dynamicDimSource(int64_t i) {
  auto result = cast<RankedTensorType>(getType());
  auto in = cast<RankedTensorType>(getOperand().getType());
  int64_t j = i - (result.getRank() - in.getRank());
  if (j >= 0 && in.getDimSize(j) != 1)
    return std::make_pair(getOperand(), j);
  if (getLike()) {
    auto like = cast<RankedTensorType>(getLike().getType());
    int64_t k = i - (result.getRank() - like.getRank());
    if (k >= 0)
      return std::make_pair(getLike(), k);
  }
  // The operand's static 1: the result dim is 1 at run time.
  if (j >= 0)
    return std::make_pair(getOperand(), j);
  return std::nullopt;
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // broadcast_to(broadcast_to(x)) -> broadcast_to(x): broadcasting composes,
  // as long as every dynamic result dim still has a dim of x of the same
  // run-time size to take it from (not a leading dim x lacks, and not a
  // dim of size 1 that the inner broadcast expanded).
  if (auto inner = getOperand().getDefiningOp<BroadcastToOp>()) {
    auto x = cast<RankedTensorType>(inner.getOperand().getType());
    auto result = cast<RankedTensorType>(getType());
    int64_t offset = result.getRank() - x.getRank();
    bool composes = true;
    for (int64_t i = 0; i < result.getRank(); ++i) {
      if (!result.isDynamicDim(i) ||
          (i >= offset && x.getDimSize(i - offset) != 1))
        continue;
      // No dim of x: this op's own `like` must size it.
      auto own = dynamicDimSource(i);
      composes &= own && own->first == getLike();
    }
    if (composes) {
      getOperandMutable().assign(inner.getOperand());
      return getResult();
    }
  }
  // A broadcast splat is a splat of the result type.
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getOperand()))
    if (getType().hasStaticShape())
      return SplatElementsAttr::get(getType(),
                                    splat.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> lhs =
      getRankedTensor(location, name, "lhs", adaptor.getLhs().getType());
  FailureOr<RankedTensorType> rhs =
      getRankedTensor(location, name, "rhs", adaptor.getRhs().getType());
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getElementType() != rhs->getElementType())
    return emitInferError(location, name,
                          "expected operands of one element type but got ",
                          *lhs, " and ", *rhs);
  int64_t rank = lhs->getRank();
  if (rank < 2 || rhs->getRank() != rank)
    return emitInferError(location, name,
                          "expected operands of one rank, at least 2, but got ",
                          *lhs, " and ", *rhs);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank - 2; ++i) {
    int64_t a = lhs->getDimSize(i), b = rhs->getDimSize(i);
    if (!dimsCompatible(a, b))
      return emitInferError(location, name, "expected equal batch dims but ",
                            "dim #", i, " is ", a, " in ", *lhs, " and ", b,
                            " in ", *rhs);
    shape.push_back(mergeDims(a, b));
  }
  int64_t k1 = lhs->getDimSize(rank - 1), k2 = rhs->getDimSize(rank - 2);
  if (!dimsCompatible(k1, k2))
    return emitInferError(
        location, name, "expected the contracted dims to match but lhs ", *lhs,
        " has ", k1, " columns and rhs ", *rhs, " has ", k2, " rows");
  shape.push_back(lhs->getDimSize(rank - 2));
  shape.push_back(rhs->getDimSize(rank - 1));
  inferred.push_back(RankedTensorType::get(shape, lhs->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> type = getRankedTensor(
      location, name, "the operand", adaptor.getOperand().getType());
  if (failed(type))
    return failure();
  if (!adaptor.getPermAttr())
    return emitInferError(location, name, "requires a 'perm' attribute");
  ArrayRef<int64_t> perm = adaptor.getPerm();
  int64_t rank = type->getRank();
  if (static_cast<int64_t>(perm.size()) != rank)
    return emitInferError(location, name, "expected a permutation of ", rank,
                          " dims for ", *type, " but got ", perm.size(),
                          " entries");
  SmallVector<bool> seen(rank, false);
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return emitInferError(location, name, "expected a permutation of [0, ",
                            rank, ") but got [", adaptor.getPermAttr(), "]");
    seen[p] = true;
    shape.push_back(type->getDimSize(p));
  }
  inferred.push_back(type->clone(shape));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPerm();
  for (auto [i, p] : llvm::enumerate(perm))
    if (static_cast<int64_t>(i) != p)
      return {};
  return getOperand();
}

namespace {
/// transpose(transpose(x, p1), p2) -> transpose(x, p1 o p2); the identity
/// permutation is then folded away.
struct ComposeTransposes : public OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getOperand().getDefiningOp<TransposeOp>();
    if (!inner)
      return rewriter.notifyMatchFailure(op, "operand is not a tfc.transpose");
    ArrayRef<int64_t> innerPerm = inner.getPerm();
    SmallVector<int64_t> composed = llvm::map_to_vector(
        op.getPerm(), [&](int64_t p) { return innerPerm[p]; });
    rewriter.replaceOpWithNewOp<TransposeOp>(op, op.getType(),
                                             inner.getOperand(), composed);
    return success();
  }
};
} // namespace

void TransposeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ComposeTransposes>(context);
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto operandType = cast<RankedTensorType>(getOperand().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (operandType.getElementType() != resultType.getElementType())
    return emitOpError("expected the result element type to be ")
           << operandType.getElementType() << " but got " << resultType;
  if (operandType.hasStaticShape() && resultType.hasStaticShape() &&
      operandType.getNumElements() != resultType.getNumElements())
    return emitOpError("cannot reshape ")
           << operandType << " (" << operandType.getNumElements()
           << " elements) to " << resultType << " ("
           << resultType.getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getOperand().getType() == getType())
    return getOperand();
  // reshape(reshape(x)) -> reshape(x): only the final shape matters.
  if (auto inner = getOperand().getDefiningOp<ReshapeOp>()) {
    getOperandMutable().assign(inner.getOperand());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getOperand()))
    if (getType().hasStaticShape())
      return dense.reshape(getType());
  return {};
}

//===----------------------------------------------------------------------===//
// ExpandDimsOp
//===----------------------------------------------------------------------===//

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> location,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> type = getRankedTensor(
      location, name, "the operand", adaptor.getOperand().getType());
  if (failed(type))
    return failure();
  if (!adaptor.getAxisAttr())
    return emitInferError(location, name, "requires an 'axis' attribute");
  int64_t axis = adaptor.getAxisAttr().getInt();
  int64_t rank = type->getRank();
  if (axis < 0 || axis > rank)
    return emitInferError(location, name, "expected axis in [0, ", rank,
                          "] for ", *type, " but got ", axis);
  SmallVector<int64_t> shape(type->getShape());
  shape.insert(shape.begin() + axis, 1);
  inferred.push_back(type->clone(shape));
  return success();
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor) {
  // expand_dims(squeeze(x, [a]), a) -> x
  if (auto squeeze = getOperand().getDefiningOp<SqueezeOp>())
    if (squeeze.getAxes() == ArrayRef<int64_t>{getAxisAttr().getInt()} &&
        squeeze.getOperand().getType() == getType())
      return squeeze.getOperand();
  return {};
}

//===----------------------------------------------------------------------===//
// SqueezeOp
//===----------------------------------------------------------------------===//

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> type = getRankedTensor(
      location, name, "the operand", adaptor.getOperand().getType());
  if (failed(type))
    return failure();
  if (!adaptor.getAxesAttr())
    return emitInferError(location, name, "requires an 'axes' attribute");
  ArrayRef<int64_t> axes = adaptor.getAxes();
  if (failed(verifyNormalizedAxes(location, name, axes, type->getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [i, dim] : llvm::enumerate(type->getShape())) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(i))) {
      shape.push_back(dim);
      continue;
    }
    if (dim != 1)
      return emitInferError(location, name, "cannot squeeze dim #", i, " of ",
                            *type, ": expected size 1 but got ",
                            ShapedType::isDynamic(dim) ? std::string("?")
                                                       : std::to_string(dim));
  }
  inferred.push_back(type->clone(shape));
  return success();
}

OpFoldResult SqueezeOp::fold(FoldAdaptor) {
  if (getAxes().empty())
    return getOperand();
  // squeeze(expand_dims(x, a), [a]) -> x
  if (auto expand = getOperand().getDefiningOp<ExpandDimsOp>())
    if (getAxes() == ArrayRef<int64_t>{expand.getAxisAttr().getInt()})
      return expand.getOperand();
  return {};
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return emitInferError(location, name, "expected at least one input");
  if (!adaptor.getAxisAttr())
    return emitInferError(location, name, "requires an 'axis' attribute");
  FailureOr<RankedTensorType> first =
      getRankedTensor(location, name, "input #0", inputs[0].getType());
  if (failed(first))
    return failure();
  int64_t rank = first->getRank();
  int64_t axis = adaptor.getAxisAttr().getInt();
  if (axis < 0 || axis >= rank)
    return emitInferError(location, name, "expected axis in [0, ", rank,
                          ") for ", *first, " but got ", axis);
  SmallVector<int64_t> shape(first->getShape());
  for (auto [i, input] : llvm::enumerate(inputs.drop_front())) {
    FailureOr<RankedTensorType> type = getRankedTensor(
        location, name, "input #" + std::to_string(i + 1), input.getType());
    if (failed(type))
      return failure();
    if (type->getElementType() != first->getElementType() ||
        type->getRank() != rank)
      return emitInferError(location, name,
                            "expected inputs of one rank and element type but "
                            "got ",
                            *first, " and ", *type);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t dim = type->getDimSize(d);
      if (d == axis) {
        shape[d] = ShapedType::isDynamic(shape[d]) || ShapedType::isDynamic(dim)
                       ? ShapedType::kDynamic
                       : shape[d] + dim;
        continue;
      }
      if (!dimsCompatible(shape[d], dim))
        return emitInferError(location, name, "expected input #", i + 1, " ",
                              *type, " to match ", *first, " in dim #", d,
                              " (all dims but the axis must agree)");
      shape[d] = mergeDims(shape[d], dim);
    }
  }
  inferred.push_back(first->clone(shape));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs()[0].getType() == getType())
    return getInputs()[0];
  return {};
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> location,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> type = getRankedTensor(
      location, name, "the operand", adaptor.getOperand().getType());
  if (failed(type))
    return failure();
  if (!adaptor.getBeginAttr() || !adaptor.getSizeAttr())
    return emitInferError(location, name,
                          "requires 'begin' and 'size' attributes");
  ArrayRef<int64_t> begin = adaptor.getBegin(), size = adaptor.getSize();
  int64_t rank = type->getRank();
  if (static_cast<int64_t>(begin.size()) != rank ||
      static_cast<int64_t>(size.size()) != rank)
    return emitInferError(location, name, "expected ", rank,
                          " begin and size entries for ", *type, " but got ",
                          begin.size(), " and ", size.size());
  for (int64_t d = 0; d < rank; ++d) {
    if (begin[d] < 0 || size[d] < 0)
      return emitInferError(location, name,
                            "expected non-negative begin and size but got "
                            "begin ",
                            begin[d], " and size ", size[d], " in dim #", d);
    int64_t dim = type->getDimSize(d);
    // begin + size may overflow: compare with what is left of the dim.
    if (!ShapedType::isDynamic(dim) &&
        (begin[d] > dim || size[d] > dim - begin[d])) {
      int64_t end;
      std::string endText =
          __builtin_add_overflow(begin[d], size[d], &end)
              ? std::to_string(begin[d]) + " + " + std::to_string(size[d])
              : std::to_string(end);
      return emitInferError(location, name, "slice [", begin[d], ", ", endText,
                            ") is out of bounds of dim #", d, " of ", *type);
    }
  }
  inferred.push_back(type->clone(size));
  return success();
}

//===----------------------------------------------------------------------===//
// Conv2D and its gradients
//===----------------------------------------------------------------------===//

namespace {
/// The window attributes of conv2d and pooling: two (height, width) pairs
/// `a` and `b`, each entry at least 1, and the padding "SAME" or "VALID".
LogicalResult checkWindowAttrs(std::optional<Location> loc, StringRef name,
                               StringRef aName, ArrayRef<int64_t> a,
                               StringRef bName, ArrayRef<int64_t> b,
                               StringRef padding) {
  if (a.size() != 2 || b.size() != 2)
    return emitInferError(loc, name, "expected 2 ", aName, " and 2 ", bName,
                          " entries (height, width) but got ", a.size(),
                          " and ", b.size());
  for (int64_t v : llvm::concat<const int64_t>(a, b))
    if (v < 1)
      return emitInferError(loc, name, "expected ", aName, " and ", bName,
                            " of at least 1 but got ", aName, " [", a[0], ", ",
                            a[1], "] and ", bName, " [", b[0], ", ", b[1], "]");
  if (padding != "SAME" && padding != "VALID")
    return emitInferError(loc, name,
                          "expected padding \"SAME\" or \"VALID\" but got \"",
                          padding, "\"");
  return success();
}

/// The shape tfc.conv2d gives for `input` and `filter` (dynamic dims stay
/// dynamic), after checking the window attributes; the geometry is
/// tfc::kernels::window_dim, shared with the kernels.
FailureOr<SmallVector<int64_t>>
conv2dShape(std::optional<Location> loc, StringRef name,
            ArrayRef<int64_t> input, ArrayRef<int64_t> filter,
            ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
            StringRef padding) {
  if (failed(checkWindowAttrs(loc, name, "strides", strides, "dilations",
                              dilations, padding)))
    return failure();
  auto shapeText = [](ArrayRef<int64_t> shape) {
    std::string text = "[";
    for (auto [i, d] : llvm::enumerate(shape))
      text += (i ? ", " : "") +
              (ShapedType::isDynamic(d) ? std::string("?") : std::to_string(d));
    return text + "]";
  };
  if (input.size() != 4 || filter.size() != 4)
    return emitInferError(loc, name,
                          "expected a rank-4 input (NHWC) and a rank-4 filter "
                          "(HWIO) but got input ",
                          shapeText(input), " and filter ", shapeText(filter));
  // Every dim but the batch at least 1, as the kernels require.
  for (int64_t d : llvm::concat<const int64_t>(input.drop_front(), filter))
    if (d == 0)
      return emitInferError(loc, name,
                            "expected every dim but the batch to be at least "
                            "1 but got input ",
                            shapeText(input), " and filter ",
                            shapeText(filter));
  if (!dimsCompatible(input[3], filter[2]))
    return emitInferError(loc, name, "input ", shapeText(input), " has ",
                          input[3], " channels but filter ", shapeText(filter),
                          " expects ", filter[2]);
  SmallVector<int64_t> out{input[0], 0, 0, filter[3]};
  for (int d = 0; d < 2; ++d) {
    int64_t in = input[1 + d], k = filter[d];
    if (ShapedType::isDynamic(in) || ShapedType::isDynamic(k)) {
      out[1 + d] = ShapedType::kDynamic;
      continue;
    }
    std::optional<::tfc::kernels::WindowDim> w = ::tfc::kernels::window_dim(
        in, k, strides[d], dilations[d], padding == "SAME");
    if (!w)
      return emitInferError(loc, name, "the ", d == 0 ? "height" : "width",
                            " window (", k, " taps, dilation ", dilations[d],
                            ") does not fit input ", shapeText(input),
                            " with padding ", padding);
    out[1 + d] = w->out;
  }
  return out;
}

/// `shape` as given by a gradient op's attribute: 4 dims, the first at
/// least `minFirst` (0 for a batch), the others at least 1.
LogicalResult checkShapeAttr(std::optional<Location> loc, StringRef name,
                             StringRef what, ArrayRef<int64_t> shape,
                             int64_t minFirst) {
  if (shape.size() != 4 || shape[0] < minFirst ||
      llvm::any_of(shape.drop_front(), [](int64_t d) { return d < 1; })) {
    std::string text;
    for (auto [i, d] : llvm::enumerate(shape))
      text += (i ? ", " : "") + std::to_string(d);
    return emitInferError(loc, name, "expected ", what,
                          " of 4 dims (the "
                          "first at least ",
                          minFirst,
                          ", the others at "
                          "least 1) but got [",
                          text, "]");
  }
  return success();
}

/// The float element type shared by `a` and `b`.
FailureOr<Type> sameFloatType(std::optional<Location> loc, StringRef name,
                              RankedTensorType a, RankedTensorType b) {
  if (a.getElementType() != b.getElementType() ||
      !isa<FloatType>(a.getElementType()))
    return emitInferError(loc, name,
                          "expected operands of one float element type but "
                          "got ",
                          a, " and ", b);
  return a.getElementType();
}
} // namespace

namespace {
/// The shape a pooling window of `ksize` moved by `strides` gives for
/// `input` (dynamic batch and channels stay dynamic).
FailureOr<SmallVector<int64_t>>
pool2dShape(std::optional<Location> loc, StringRef name,
            ArrayRef<int64_t> input, ArrayRef<int64_t> ksize,
            ArrayRef<int64_t> strides, StringRef padding) {
  if (failed(checkWindowAttrs(loc, name, "ksize", ksize, "strides", strides,
                              padding)))
    return failure();
  if (input.size() != 4)
    return emitInferError(loc, name, "expected a rank-4 (NHWC) input but got ",
                          input.size(), " dims");
  if (input[3] == 0)
    return emitInferError(loc, name,
                          "expected at least 1 channel but the input has 0");
  SmallVector<int64_t> out(input);
  for (int d = 0; d < 2; ++d) {
    int64_t in = input[1 + d];
    if (ShapedType::isDynamic(in)) {
      out[1 + d] = ShapedType::kDynamic;
      continue;
    }
    std::optional<::tfc::kernels::WindowDim> w = ::tfc::kernels::window_dim(
        in, ksize[d], strides[d], 1, padding == "SAME");
    if (!w)
      return emitInferError(loc, name, "the ", d == 0 ? "height" : "width",
                            " window of ", ksize[d],
                            " does not fit an input of ", in, " with padding ",
                            padding);
    out[1 + d] = w->out;
  }
  return out;
}

/// Checks that `value` has the pooling result's shape `want`.
LogicalResult checkPooled(std::optional<Location> loc, StringRef name,
                          StringRef what, RankedTensorType value,
                          ArrayRef<int64_t> want) {
  if (value.getRank() != 4 ||
      !llvm::all_of(llvm::zip(want, value.getShape()), [](auto p) {
        return dimsCompatible(std::get<0>(p), std::get<1>(p));
      }))
    return emitInferError(loc, name, "expected ", what,
                          " of the pooling's result shape but got ", value);
  return success();
}

template <typename Adaptor>
LogicalResult requirePoolAttrs(std::optional<Location> loc, StringRef name,
                               Adaptor &adaptor) {
  if (!adaptor.getKsizeAttr() || !adaptor.getStridesAttr() ||
      !adaptor.getPaddingAttr())
    return emitInferError(loc, name,
                          "requires 'ksize', 'strides' and 'padding'");
  return success();
}

/// max_pool2d and avg_pool2d.
template <typename Adaptor>
LogicalResult inferPool(std::optional<Location> location, StringRef name,
                        Adaptor adaptor, SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> input =
      getRankedTensor(location, name, "input", adaptor.getInput().getType());
  if (failed(input) || failed(requirePoolAttrs(location, name, adaptor)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      pool2dShape(location, name, input->getShape(), adaptor.getKsize(),
                  adaptor.getStrides(), adaptor.getPadding());
  if (failed(shape))
    return failure();
  inferred.push_back(input->clone(*shape));
  return success();
}
} // namespace

LogicalResult MaxPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferPool(location, getOperationName(), adaptor, inferred);
}

LogicalResult AvgPool2DOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> location,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return inferPool(location, getOperationName(), adaptor, inferred);
}

LogicalResult MaxPool2DGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> input =
      getRankedTensor(location, name, "input", adaptor.getInput().getType());
  FailureOr<RankedTensorType> dy =
      getRankedTensor(location, name, "dy", adaptor.getDy().getType());
  if (failed(input) || failed(dy) ||
      failed(requirePoolAttrs(location, name, adaptor)) ||
      failed(sameFloatType(location, name, *input, *dy)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      pool2dShape(location, name, input->getShape(), adaptor.getKsize(),
                  adaptor.getStrides(), adaptor.getPadding());
  if (failed(shape) || failed(checkPooled(location, name, "dy", *dy, *shape)))
    return failure();
  inferred.push_back(*input);
  return success();
}

LogicalResult MaxPool2DGradGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> input =
      getRankedTensor(location, name, "input", adaptor.getInput().getType());
  FailureOr<RankedTensorType> grad =
      getRankedTensor(location, name, "grad", adaptor.getGrad().getType());
  if (failed(input) || failed(grad) ||
      failed(requirePoolAttrs(location, name, adaptor)) ||
      failed(sameFloatType(location, name, *input, *grad)))
    return failure();
  if (!llvm::all_of(llvm::zip_equal(input->getShape(), grad->getShape()),
                    [](auto p) {
                      return dimsCompatible(std::get<0>(p), std::get<1>(p));
                    }))
    return emitInferError(location, name,
                          "expected grad of the input's shape but got ", *grad,
                          " for ", *input);
  FailureOr<SmallVector<int64_t>> shape =
      pool2dShape(location, name, input->getShape(), adaptor.getKsize(),
                  adaptor.getStrides(), adaptor.getPadding());
  if (failed(shape))
    return failure();
  inferred.push_back(input->clone(*shape));
  return success();
}

LogicalResult AvgPool2DGradOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> dy =
      getRankedTensor(location, name, "dy", adaptor.getDy().getType());
  if (failed(dy) || failed(requirePoolAttrs(location, name, adaptor)))
    return failure();
  if (!adaptor.getInputShapeAttr())
    return emitInferError(location, name, "requires 'input_shape'");
  ArrayRef<int64_t> inputShape = adaptor.getInputShape();
  if (failed(checkShapeAttr(location, name, "input_shape", inputShape, 0)))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      pool2dShape(location, name, inputShape, adaptor.getKsize(),
                  adaptor.getStrides(), adaptor.getPadding());
  if (failed(shape) || failed(checkPooled(location, name, "dy", *dy, *shape)))
    return failure();
  inferred.push_back(dy->clone(inputShape));
  return success();
}

LogicalResult Conv2DOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> input =
      getRankedTensor(location, name, "input", adaptor.getInput().getType());
  FailureOr<RankedTensorType> filter =
      getRankedTensor(location, name, "filter", adaptor.getFilter().getType());
  if (failed(input) || failed(filter))
    return failure();
  FailureOr<Type> elt = sameFloatType(location, name, *input, *filter);
  if (failed(elt))
    return failure();
  if (!adaptor.getStridesAttr() || !adaptor.getDilationsAttr() ||
      !adaptor.getPaddingAttr())
    return emitInferError(location, name,
                          "requires 'strides', 'dilations' and 'padding'");
  FailureOr<SmallVector<int64_t>> shape = conv2dShape(
      location, name, input->getShape(), filter->getShape(),
      adaptor.getStrides(), adaptor.getDilations(), adaptor.getPadding());
  if (failed(shape))
    return failure();
  inferred.push_back(RankedTensorType::get(*shape, *elt));
  return success();
}

namespace {
/// The result type of a conv2d gradient op: `shapeAttr` (the shape of the
/// convolution's input, or of its filter when `ofFilter`), after checking
/// `dy` against the convolution of that shape with `known` (the other
/// operand of the convolution).
template <typename Adaptor>
LogicalResult
inferConvGradient(std::optional<Location> location, StringRef name,
                  Adaptor &adaptor, Value known, StringRef knownName,
                  DenseI64ArrayAttr shapeAttr, StringRef attrName,
                  bool ofFilter, SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> other =
      getRankedTensor(location, name, knownName, known.getType());
  FailureOr<RankedTensorType> dy =
      getRankedTensor(location, name, "dy", adaptor.getDy().getType());
  if (failed(other) || failed(dy))
    return failure();
  FailureOr<Type> elt = sameFloatType(location, name, *other, *dy);
  if (failed(elt))
    return failure();
  if (!shapeAttr || !adaptor.getStridesAttr() || !adaptor.getDilationsAttr() ||
      !adaptor.getPaddingAttr())
    return emitInferError(location, name, "requires '", attrName,
                          "', 'strides', 'dilations' and 'padding'");
  ArrayRef<int64_t> shape = shapeAttr.asArrayRef();
  if (failed(checkShapeAttr(location, name, attrName, shape, ofFilter ? 1 : 0)))
    return failure();
  FailureOr<SmallVector<int64_t>> convShape =
      conv2dShape(location, name, ofFilter ? other->getShape() : shape,
                  ofFilter ? shape : other->getShape(), adaptor.getStrides(),
                  adaptor.getDilations(), adaptor.getPadding());
  if (failed(convShape))
    return failure();
  if (dy->getRank() != 4 ||
      !llvm::all_of(llvm::zip(*convShape, dy->getShape()), [](auto p) {
        return dimsCompatible(std::get<0>(p), std::get<1>(p));
      }))
    return emitInferError(location, name,
                          "expected dy of the convolution's result shape but "
                          "got ",
                          *dy);
  inferred.push_back(RankedTensorType::get(shape, *elt));
  return success();
}
} // namespace

LogicalResult Conv2DBackpropInputOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferConvGradient(location, getOperationName(), adaptor,
                           adaptor.getFilter(), "filter",
                           adaptor.getInputShapeAttr(), "input_shape",
                           /*ofFilter=*/false, inferred);
}

LogicalResult Conv2DBackpropFilterOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  return inferConvGradient(location, getOperationName(), adaptor,
                           adaptor.getInput(), "input",
                           adaptor.getFilterShapeAttr(), "filter_shape",
                           /*ofFilter=*/true, inferred);
}

OpFoldResult SliceOp::fold(FoldAdaptor) {
  if (getOperand().getType() == getType() &&
      llvm::all_of(getBegin(), [](int64_t b) { return b == 0; }))
    return getOperand();
  return {};
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

namespace {
/// Result type of reducing `axes` of `operand`, shared by all reductions.
LogicalResult inferReduceType(std::optional<Location> location, StringRef name,
                              Type operand, DenseI64ArrayAttr axesAttr,
                              BoolAttr keepdims,
                              SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> type =
      getRankedTensor(location, name, "the operand", operand);
  if (failed(type))
    return failure();
  if (!axesAttr || !keepdims)
    return emitInferError(location, name,
                          "requires 'axes' and 'keepdims' attributes");
  ArrayRef<int64_t> axes = axesAttr.asArrayRef();
  if (failed(verifyNormalizedAxes(location, name, axes, type->getRank())))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [i, dim] : llvm::enumerate(type->getShape())) {
    if (!llvm::is_contained(axes, static_cast<int64_t>(i)))
      shape.push_back(dim);
    else if (keepdims.getValue())
      shape.push_back(1);
  }
  inferred.push_back(type->clone(shape));
  return success();
}

/// A reduction over no axes is the identity.
template <typename OpTy> OpFoldResult foldReduce(OpTy op) {
  if (op.getAxes().empty() && op.getOperand().getType() == op.getType())
    return op.getOperand();
  return {};
}
} // namespace

#define TFC_DEFINE_REDUCTION(OpTy)                                             \
  LogicalResult OpTy::inferReturnTypes(                                        \
      MLIRContext *, std::optional<Location> location, Adaptor adaptor,        \
      SmallVectorImpl<Type> &inferred) {                                       \
    return inferReduceType(                                                    \
        location, getOperationName(), adaptor.getOperand().getType(),          \
        adaptor.getAxesAttr(), adaptor.getKeepdimsAttr(), inferred);           \
  }                                                                            \
  OpFoldResult OpTy::fold(FoldAdaptor) { return foldReduce(*this); }

TFC_DEFINE_REDUCTION(ReduceSumOp)
TFC_DEFINE_REDUCTION(ReduceMeanOp)
TFC_DEFINE_REDUCTION(ReduceMaxOp)
TFC_DEFINE_REDUCTION(ReduceMinOp)
TFC_DEFINE_REDUCTION(ReduceProdOp)
#undef TFC_DEFINE_REDUCTION

//===----------------------------------------------------------------------===//
// ArgMaxOp
//===----------------------------------------------------------------------===//

LogicalResult ArgMaxOp::inferReturnTypes(MLIRContext *context,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> type = getRankedTensor(
      location, name, "the operand", adaptor.getOperand().getType());
  if (failed(type))
    return failure();
  if (!adaptor.getAxisAttr())
    return emitInferError(location, name, "requires an 'axis' attribute");
  int64_t axis = adaptor.getAxisAttr().getInt();
  int64_t rank = type->getRank();
  if (axis < 0 || axis >= rank)
    return emitInferError(location, name, "expected axis in [0, ", rank,
                          ") for ", *type, " but got ", axis);
  SmallVector<int64_t> shape(type->getShape());
  shape.erase(shape.begin() + axis);
  inferred.push_back(
      RankedTensorType::get(shape, IntegerType::get(context, 64)));
  return success();
}

//===----------------------------------------------------------------------===//
// Softmax family
//===----------------------------------------------------------------------===//

namespace {
/// Checks that a softmax-like op's axis is a dim of its operand.
LogicalResult verifySoftmaxAxis(Operation *op, RankedTensorType type,
                                int64_t axis) {
  if (axis < 0 || axis >= type.getRank())
    return op->emitOpError("expected axis in [0, ")
           << type.getRank() << ") for " << type << " but got " << axis;
  return success();
}
} // namespace

LogicalResult SoftmaxOp::verify() {
  return verifySoftmaxAxis(*this, getType(), getAxisAttr().getInt());
}

LogicalResult LogSoftmaxOp::verify() {
  return verifySoftmaxAxis(*this, getType(), getAxisAttr().getInt());
}

LogicalResult SoftmaxCrossEntropyOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> type =
      getRankedTensor(location, name, "logits", adaptor.getLogits().getType());
  if (failed(type))
    return failure();
  if (type->getRank() < 1)
    return emitInferError(location, name,
                          "expected logits of rank at least 1 but got ", *type);
  inferred.push_back(type->clone(type->getShape().drop_back()));
  return success();
}

//===----------------------------------------------------------------------===//
// OneHotOp
//===----------------------------------------------------------------------===//

LogicalResult OneHotOp::verify() {
  auto indicesType = cast<RankedTensorType>(getIndices().getType());
  auto resultType = cast<RankedTensorType>(getType());
  int64_t depth = getDepthAttr().getInt();
  // Depth 0 is allowed, as in TensorFlow: the result is empty.
  if (depth < 0)
    return emitOpError("expected a depth of at least 0 but got ") << depth;
  SmallVector<int64_t> shape(indicesType.getShape());
  shape.push_back(depth);
  if (resultType.getShape() != ArrayRef<int64_t>(shape))
    return emitOpError("expected a result of shape ")
           << RankedTensorType::get(shape, resultType.getElementType())
           << " (indices shape + depth) but got " << resultType;
  return success();
}

//===----------------------------------------------------------------------===//
// GatherOp, UnsortedSegmentSumOp
//===----------------------------------------------------------------------===//

LogicalResult GatherOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> location,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> params =
      getRankedTensor(location, name, "params", adaptor.getParams().getType());
  FailureOr<RankedTensorType> indices = getRankedTensor(
      location, name, "indices", adaptor.getIndices().getType());
  if (failed(params) || failed(indices))
    return failure();
  if (!adaptor.getAxisAttr())
    return emitInferError(location, name, "requires an 'axis' attribute");
  int64_t axis = adaptor.getAxis();
  if (axis < 0 || axis >= params->getRank())
    return emitInferError(location, name, "expected an axis in [0, ",
                          params->getRank(), ") for params ", *params,
                          " but got ", axis);
  SmallVector<int64_t> shape(params->getShape().take_front(axis));
  llvm::append_range(shape, indices->getShape());
  llvm::append_range(shape, params->getShape().drop_front(axis + 1));
  inferred.push_back(RankedTensorType::get(shape, params->getElementType()));
  return success();
}

LogicalResult UnsortedSegmentSumOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> data =
      getRankedTensor(location, name, "data", adaptor.getData().getType());
  FailureOr<RankedTensorType> ids = getRankedTensor(
      location, name, "segment_ids", adaptor.getSegmentIds().getType());
  if (failed(data) || failed(ids))
    return failure();
  if (!adaptor.getNumSegmentsAttr())
    return emitInferError(location, name,
                          "requires a 'num_segments' attribute");
  int64_t n = adaptor.getNumSegments();
  if (n < 0)
    return emitInferError(location, name, "expected num_segments >= 0 but got ",
                          n);
  bool prefix = ids->getRank() <= data->getRank();
  for (int64_t d = 0; prefix && d < ids->getRank(); ++d)
    prefix = dimsCompatible(ids->getDimSize(d), data->getDimSize(d));
  if (!prefix)
    return emitInferError(location, name, "expected the shape of segment_ids ",
                          *ids, " to be a prefix of the shape of data ", *data);
  SmallVector<int64_t> shape = {n};
  llvm::append_range(shape, data->getShape().drop_front(ids->getRank()));
  inferred.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}

LogicalResult SparseSoftmaxCrossEntropyOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> labels =
      getRankedTensor(location, name, "labels", adaptor.getLabels().getType());
  FailureOr<RankedTensorType> logits =
      getRankedTensor(location, name, "logits", adaptor.getLogits().getType());
  if (failed(labels) || failed(logits))
    return failure();
  int64_t r = logits->getRank();
  if (r < 1 || ShapedType::isDynamic(logits->getDimSize(r - 1)))
    return emitInferError(location, name,
                          "expected logits of rank >= 1 with a static number "
                          "of classes (last dim) but got ",
                          *logits);
  bool ok = labels->getRank() == r - 1;
  for (int64_t d = 0; ok && d < r - 1; ++d)
    ok = dimsCompatible(labels->getDimSize(d), logits->getDimSize(d));
  if (!ok)
    return emitInferError(location, name, "expected labels of the shape of ",
                          *logits, " without its last dim but got ", *labels);
  SmallVector<int64_t> shape(logits->getShape().drop_back());
  for (int64_t d = 0; d < r - 1; ++d)
    shape[d] = mergeDims(shape[d], labels->getDimSize(d));
  inferred.push_back(RankedTensorType::get(shape, logits->getElementType()));
  return success();
}

LogicalResult CumsumOp::verify() {
  int64_t rank = cast<RankedTensorType>(getType()).getRank();
  int64_t axis = getAxisAttr().getInt();
  if (axis < 0 || axis >= rank)
    return emitOpError("expected an axis in [0, ")
           << rank << ") but got " << axis;
  return success();
}

LogicalResult TopKIndicesOp::inferReturnTypes(MLIRContext *ctx,
                                              std::optional<Location> location,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  StringRef name = getOperationName();
  FailureOr<RankedTensorType> x = getRankedTensor(
      location, name, "the operand", adaptor.getOperand().getType());
  if (failed(x))
    return failure();
  if (!adaptor.getKAttr())
    return emitInferError(location, name, "requires a 'k' attribute");
  int64_t r = x->getRank(), k = adaptor.getK();
  if (r < 1)
    return emitInferError(location, name,
                          "expected an operand of rank >= 1 but got ", *x);
  int64_t n = x->getDimSize(r - 1);
  if (k < 0 || (!ShapedType::isDynamic(n) && k > n))
    return emitInferError(location, name, "expected k in [0, ", n,
                          "] (the last dim of ", *x, ") but got ", k);
  SmallVector<int64_t> shape(x->getShape());
  shape.back() = k;
  inferred.push_back(RankedTensorType::get(shape, IntegerType::get(ctx, 32)));
  return success();
}

LogicalResult AllReduceOp::verify() {
  StringRef op = getReduceOp();
  if (op != "sum" && op != "mean")
    return emitOpError("expected reduce_op \"sum\" or \"mean\" but got \"")
           << op << "\"";
  return success();
}

LogicalResult PhiloxRandomOp::verify() {
  auto state = cast<RankedTensorType>(getState().getType());
  if (state.getDimSize(0) != 2)
    return emitOpError("expected a state of type tensor<2xi64> (key, counter) "
                       "but got ")
           << state;
  StringRef d = getDistribution();
  if (d != "uniform" && d != "normal" && d != "truncated_normal")
    return emitOpError("expected distribution \"uniform\", \"normal\" or "
                       "\"truncated_normal\" but got \"")
           << d << "\"";
  if (!cast<RankedTensorType>(getType()).hasStaticShape())
    return emitOpError("expected a static result shape but got ") << getType();
  return success();
}

LogicalResult CheckElementsOp::verify() {
  bool bounded = getPredicate() == ElementPredicate::in_range ||
                 getPredicate() == ElementPredicate::below;
  if (bounded != static_cast<bool>(getBound()))
    return emitOpError(bounded ? "predicate needs a bound"
                               : "predicate takes no bound");
  return success();
}

//===----------------------------------------------------------------------===//
// IfOp
//===----------------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &state,
                 TypeRange resultTypes, Value condition,
                 function_ref<void(OpBuilder &, Location)> thenBuilder,
                 function_ref<void(OpBuilder &, Location)> elseBuilder) {
  state.addOperands(condition);
  state.addTypes(resultTypes);
  OpBuilder::InsertionGuard guard(builder);
  builder.createBlock(state.addRegion());
  thenBuilder(builder, state.location);
  Region *elseRegion = state.addRegion();
  if (!elseBuilder)
    return;
  builder.createBlock(elseRegion);
  elseBuilder(builder, state.location);
}

namespace {
/// The terminator of a single-block region if it is `TerminatorTy`.
template <typename TerminatorTy> TerminatorTy getTerminatorOf(Region &region) {
  if (region.empty() || region.front().empty())
    return {};
  return dyn_cast<TerminatorTy>(region.front().back());
}

/// Checks that `region` ends in `TerminatorTy`, naming what it found.
template <typename TerminatorTy>
FailureOr<TerminatorTy> verifyTerminator(Operation *op, Region &region,
                                         StringRef regionName) {
  if (region.empty() || region.front().empty())
    return op->emitOpError("expected the ")
           << regionName << " region to end with '"
           << TerminatorTy::getOperationName() << "' but it is empty";
  Operation &last = region.front().back();
  if (auto terminator = dyn_cast<TerminatorTy>(last))
    return terminator;
  return op->emitOpError("expected the ")
         << regionName << " region to end with '"
         << TerminatorTy::getOperationName() << "' but got '" << last.getName()
         << "'";
}

/// Checks that `actual` (what `actualWhat` passes) has the types `expected`
/// (what `expectedWhat` needs), naming both types on a mismatch.
LogicalResult verifyTypesMatch(Operation *op, TypeRange actual,
                               StringRef actualWhat, TypeRange expected,
                               StringRef expectedWhat) {
  if (actual.size() != expected.size())
    return op->emitOpError()
           << actualWhat << " has " << actual.size() << " values but "
           << expectedWhat << " has " << expected.size();
  for (auto [i, types] : llvm::enumerate(llvm::zip(actual, expected))) {
    auto [a, e] = types;
    if (a != e)
      return op->emitOpError()
             << actualWhat << " #" << i << " has type " << a << " but "
             << expectedWhat << " #" << i << " has type " << e;
  }
  return success();
}
} // namespace

YieldOp IfOp::thenYield() { return getTerminatorOf<YieldOp>(getThenRegion()); }

YieldOp IfOp::elseYield() { return getTerminatorOf<YieldOp>(getElseRegion()); }

LogicalResult IfOp::verify() {
  if (getElseRegion().empty()) {
    if (getNumResults() != 0)
      return emitOpError("expected an else region since the op has ")
             << getNumResults() << " results";
  } else if (!getElseRegion().hasOneBlock()) {
    return emitOpError("expected the else region to have one block but got ")
           << getElseRegion().getBlocks().size();
  }
  for (auto [region, name] :
       {std::pair<Region *, StringRef>{&getThenRegion(), "then"},
        {&getElseRegion(), "else"}}) {
    if (region->empty())
      continue;
    FailureOr<YieldOp> yield = verifyTerminator<YieldOp>(*this, *region, name);
    if (failed(yield))
      return failure();
    std::string what = ("the " + name + " region's tfc.yield value").str();
    if (failed(verifyTypesMatch(*this, yield->getOperandTypes(), what,
                                getResultTypes(), "result")))
      return failure();
  }
  return success();
}

void IfOp::getSuccessorRegions(RegionBranchPoint point,
                               SmallVectorImpl<RegionSuccessor> &regions) {
  // Each region branches back to the parent.
  if (!point.isParent()) {
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
    return;
  }
  regions.push_back(RegionSuccessor(&getThenRegion()));
  if (getElseRegion().empty())
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
  else
    regions.push_back(RegionSuccessor(&getElseRegion()));
}

void IfOp::getEntrySuccessorRegions(ArrayRef<Attribute> operands,
                                    SmallVectorImpl<RegionSuccessor> &regions) {
  std::optional<APInt> condition =
      operands.empty() ? std::nullopt : getSplatInt(operands[0]);
  if (!condition) {
    getSuccessorRegions(RegionBranchPoint::parent(), regions);
    return;
  }
  if (condition->isOne())
    regions.push_back(RegionSuccessor(&getThenRegion()));
  else if (!getElseRegion().empty())
    regions.push_back(RegionSuccessor(&getElseRegion()));
  else
    regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

void IfOp::getRegionInvocationBounds(
    ArrayRef<Attribute> operands,
    SmallVectorImpl<InvocationBounds> &invocationBounds) {
  std::optional<APInt> condition =
      operands.empty() ? std::nullopt : getSplatInt(operands[0]);
  if (!condition) {
    invocationBounds.push_back({0, 1});
    // An absent else region never runs.
    invocationBounds.push_back(getElseRegion().empty()
                                   ? InvocationBounds(0, 0)
                                   : InvocationBounds(0, 1));
    return;
  }
  invocationBounds.push_back(condition->isOne() ? InvocationBounds(1, 1)
                                                : InvocationBounds(0, 0));
  invocationBounds.push_back(condition->isOne() ? InvocationBounds(0, 0)
                                                : InvocationBounds(1, 1));
}

namespace {
/// Replaces a `tfc.if` on a constant predicate by the ops of the taken
/// branch, its results by the values that branch yields.
struct InlineIfWithConstantPredicate : public OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr predicate;
    if (!matchPattern(op.getCondition(), m_Constant(&predicate)))
      return rewriter.notifyMatchFailure(op, "predicate is not a constant");
    bool taken = predicate.getSplatValue<bool>();
    Region &region = taken ? op.getThenRegion() : op.getElseRegion();
    if (region.empty()) {
      // A false predicate without an else region: nothing runs.
      rewriter.eraseOp(op);
      return success();
    }
    Block *block = &region.front();
    auto yield = dyn_cast<YieldOp>(block->getTerminator());
    if (!yield)
      return rewriter.notifyMatchFailure(op, "branch is not yield-terminated");
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(block, op);
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void IfOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                       MLIRContext *context) {
  results.add<InlineIfWithConstantPredicate>(context);
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

void WhileOp::build(
    OpBuilder &builder, OperationState &state, TypeRange resultTypes,
    ValueRange inits,
    function_ref<void(OpBuilder &, Location, ValueRange)> beforeBuilder,
    function_ref<void(OpBuilder &, Location, ValueRange)> afterBuilder) {
  state.addOperands(inits);
  state.addTypes(resultTypes);
  OpBuilder::InsertionGuard guard(builder);
  SmallVector<Location> beforeLocs(inits.size(), state.location);
  Block *before =
      builder.createBlock(state.addRegion(), {}, inits.getTypes(), beforeLocs);
  beforeBuilder(builder, state.location, before->getArguments());
  SmallVector<Location> afterLocs(resultTypes.size(), state.location);
  Block *after =
      builder.createBlock(state.addRegion(), {}, resultTypes, afterLocs);
  afterBuilder(builder, state.location, after->getArguments());
}

namespace {
/// See WhileOp::getEffects.
struct LoopTerminationResource
    : public SideEffects::Resource::Base<LoopTerminationResource> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(LoopTerminationResource)
  StringRef getName() final { return "tfc.loop-termination"; }
};
} // namespace

void WhileOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A loop that never ends must not become a loop that returns: this write
  // keeps a side-effect-free tfc.while from being erased as trivially dead.
  // (RecursiveMemoryEffects adds the effects of the regions.)
  effects.emplace_back(MemoryEffects::Write::get(),
                       LoopTerminationResource::get());
}

ConditionOp WhileOp::getConditionOp() {
  return getTerminatorOf<ConditionOp>(getBefore());
}

YieldOp WhileOp::getYieldOp() { return getTerminatorOf<YieldOp>(getAfter()); }

Block::BlockArgListType WhileOp::getBeforeArguments() {
  return getBefore().getArguments();
}

Block::BlockArgListType WhileOp::getAfterArguments() {
  return getAfter().getArguments();
}

LogicalResult WhileOp::verify() {
  // Region shapes (one block each) are checked by the op's traits first.
  if (failed(verifyTypesMatch(*this, getBefore().getArgumentTypes(),
                              "before region argument", getInits().getTypes(),
                              "init")))
    return failure();
  FailureOr<ConditionOp> condition =
      verifyTerminator<ConditionOp>(*this, getBefore(), "before");
  if (failed(condition))
    return failure();
  if (failed(verifyTypesMatch(*this, condition->getArgs().getTypes(),
                              "tfc.condition value", getResultTypes(),
                              "result")))
    return failure();
  if (failed(verifyTypesMatch(
          *this, getAfter().getArgumentTypes(), "after region argument",
          condition->getArgs().getTypes(), "tfc.condition value")))
    return failure();
  FailureOr<YieldOp> yield =
      verifyTerminator<YieldOp>(*this, getAfter(), "after");
  if (failed(yield))
    return failure();
  return verifyTypesMatch(*this, yield->getOperandTypes(), "tfc.yield value",
                          getBefore().getArgumentTypes(),
                          "before region argument");
}

OperandRange WhileOp::getEntrySuccessorOperands(RegionSuccessor) {
  return getInits();
}

void WhileOp::getSuccessorRegions(RegionBranchPoint point,
                                  SmallVectorImpl<RegionSuccessor> &regions) {
  // Entering the op, or finishing the body: evaluate the condition.
  if (point.isParent() ||
      point.getTerminatorPredecessorOrNull()->getParentRegion() ==
          &getAfter()) {
    regions.push_back(RegionSuccessor(&getBefore(), getBeforeArguments()));
    return;
  }
  // From the condition: run the body or leave.
  regions.push_back(RegionSuccessor(&getAfter(), getAfterArguments()));
  regions.push_back(RegionSuccessor(getOperation(), getResults()));
}

/// Parses `tfc.while (%arg = %init, ...) : (types) -> types region do region`.
ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> regionArgs;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  Region *before = result.addRegion();
  Region *after = result.addRegion();

  OptionalParseResult listResult =
      parser.parseOptionalAssignmentList(regionArgs, inits);
  if (listResult.has_value() && failed(*listResult))
    return failure();

  FunctionType functionType;
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseColonType(functionType))
    return failure();
  if (functionType.getNumInputs() != inits.size())
    return parser.emitError(typeLoc) << "expected " << inits.size()
                                     << " input types, one per init, but got "
                                     << functionType.getNumInputs();
  result.addTypes(functionType.getResults());
  if (parser.resolveOperands(inits, functionType.getInputs(), typeLoc,
                             result.operands))
    return failure();
  for (auto [arg, type] : llvm::zip(regionArgs, functionType.getInputs()))
    arg.type = type;

  if (parser.parseRegion(*before, regionArgs) || parser.parseKeyword("do") ||
      parser.parseRegion(*after) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  if (!getInits().empty()) {
    p << " (";
    llvm::interleaveComma(
        llvm::zip(getBeforeArguments(), getInits()), p, [&](auto pair) {
          p << std::get<0>(pair) << " = " << std::get<1>(pair);
        });
    p << ")";
  }
  p << " : ";
  p.printFunctionalType(getInits().getTypes(), getResultTypes());
  p << ' ';
  p.printRegion(getBefore(), /*printEntryBlockArgs=*/false);
  p << " do ";
  p.printRegion(getAfter());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// ConditionOp
//===----------------------------------------------------------------------===//

MutableOperandRange ConditionOp::getMutableSuccessorOperands(RegionSuccessor) {
  return getArgsMutable();
}

void ConditionOp::getSuccessorRegions(
    ArrayRef<Attribute> operands, SmallVectorImpl<RegionSuccessor> &regions) {
  auto loop = cast<WhileOp>((*this)->getParentOp());
  std::optional<APInt> condition =
      operands.empty() ? std::nullopt : getSplatInt(operands[0]);
  if (!condition || condition->isOne())
    regions.push_back(
        RegionSuccessor(&loop.getAfter(), loop.getAfterArguments()));
  if (!condition || condition->isZero())
    regions.push_back(RegionSuccessor(loop.getOperation(), loop.getResults()));
}

//===----------------------------------------------------------------------===//
// VarReadOp
//===----------------------------------------------------------------------===//

LogicalResult VarReadOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> location,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  auto varType = dyn_cast<VarType>(adaptor.getVar().getType());
  if (!varType)
    return emitInferError(location, getOperationName(),
                          "expected a !tfc.var operand but got ",
                          adaptor.getVar().getType());
  inferred.push_back(varType.getValueType());
  return success();
}

//===----------------------------------------------------------------------===//
// FusionOp
//===----------------------------------------------------------------------===//

YieldOp FusionOp::getYieldOp() { return getTerminatorOf<YieldOp>(getBody()); }

bool mlir::tfc::isFusibleReduction(Operation *op) {
  return isa<ReduceSumOp, ReduceMeanOp, ReduceMaxOp, ReduceMinOp, ReduceProdOp>(
      op);
}

LogicalResult FusionOp::verify() {
  FailureOr<YieldOp> yield =
      verifyTerminator<YieldOp>(*this, getBody(), "body");
  if (failed(yield))
    return failure();
  Block &body = getBody().front();
  if (failed(verifyTypesMatch(*this, body.getArgumentTypes(),
                              "the body's argument", getInputs().getTypes(),
                              "input")))
    return failure();
  if (failed(verifyTypesMatch(*this, yield->getOperandTypes(),
                              "the body's tfc.yield value", getResultTypes(),
                              "result")))
    return failure();
  if (getNumResults() == 0)
    return emitOpError("expected at least one result");
  bool input = getKind() == FusionKind::input;
  for (Operation &op : body.without_terminator()) {
    if (isa<ElementwiseOpInterface, BroadcastToOp>(op))
      continue;
    if (auto c = dyn_cast<ConstantOp>(op)) {
      auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
      if (dense && dense.isSplat())
        continue;
      return emitOpError("may hold only splat constants, but its body has ")
             << c.getValue();
    }
    if (input && isFusibleReduction(&op) &&
        &op == yield->getOperation()->getPrevNode())
      continue;
    InFlightDiagnostic diag = emitOpError("cannot fuse '")
                              << op.getName() << "' into a "
                              << stringifyFusionKind(getKind()) << " fusion";
    if (input && isFusibleReduction(&op))
      diag << " (the reduction must be the last op before tfc.yield)";
    return diag;
  }
  if (input) {
    Operation *last = (*yield)->getPrevNode();
    if (!last || !isFusibleReduction(last) || yield->getNumOperands() != 1 ||
        yield->getOperand(0) != last->getResult(0))
      return emitOpError("an input fusion must yield exactly the result of "
                         "its final reduction");
    return success();
  }
  auto first = cast<RankedTensorType>(getResult(0).getType());
  for (auto [i, t] : llvm::enumerate(getResultTypes())) {
    if (cast<RankedTensorType>(t).getShape() != first.getShape())
      return emitOpError("a loop fusion's results must all have one shape, "
                         "but result #")
             << i << " has type " << t << " and result #0 has type " << first;
  }
  return success();
}

#define GET_ATTRDEF_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOpsAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "tfc/Dialect/Tfc/IR/TfcOps.cpp.inc"
