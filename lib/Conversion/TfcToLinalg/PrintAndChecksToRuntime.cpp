//===- PrintAndChecksToRuntime.cpp - print and checks to calls --*- C++ -*-===//
//
// tfc.print, tfc.assert, tfc.check and tfc.check_elements become calls of
// the runtime's tfc_rt_print_*, tfc_rt_assert and tfc_rt_check_failed
// (declared once per module), with their messages as global strings;
// tfc.all_reduce a call of tfc_rt_all_reduce_<type>.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcToLinalg/Patterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;
using namespace mlir::tfc::linalg_lowering;

namespace {

/// The runtime function `name` (declared once per module).
static func::FuncOp getOrInsertRuntimeFunc(OpBuilder &b, Operation *anchor,
                                           StringRef name, FunctionType type) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, anchor->getLoc(), name, type);
  f.setPrivate();
  return f;
}

/// A pointer to a NUL-terminated global holding `text`.
static Value globalString(OpBuilder &b, Location loc, Operation *anchor,
                          StringRef text) {
  auto module = anchor->getParentOfType<ModuleOp>();
  std::string name;
  for (unsigned i = 0;; ++i) {
    name = ("__tfc_str_" + Twine(i)).str();
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    if (auto v = dyn_cast_or_null<StringAttr>(existing.getValueOrNull()))
      if (v.getValue().drop_back() == text)
        return LLVM::AddressOfOp::create(b, loc, existing);
  }
  std::string withNul = text.str();
  withNul.push_back('\0');
  return LLVM::createGlobalString(loc, b, name, withNul,
                                  LLVM::Linkage::Internal);
}

static int32_t dtypeCode(Type elt) {
  // Matches tfc::DType's order: Bool, Int32, Int64, Float32, Float64.
  if (elt.isInteger(1))
    return 0;
  if (elt.isInteger(32))
    return 1;
  if (elt.isInteger(64))
    return 2;
  if (elt.isF32())
    return 3;
  return 4;
}

/// tfc.print "label" %a, %b -> one runtime call per tensor (index, count).
struct PrintLowering : public OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto label = op->getAttrOfType<StringAttr>("label");
    Value labelPtr =
        globalString(rewriter, loc, op, label ? label.getValue() : "");
    ValueRange operands = adaptor.getOperands();
    auto i32 = rewriter.getI32Type();
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    Value count = arith::ConstantIntOp::create(rewriter, loc, i32,
                                               (int64_t)operands.size());
    if (operands.empty()) {
      auto fnType = FunctionType::get(rewriter.getContext(),
                                      {ptrType, i32, i32, i32}, {});
      auto fn =
          getOrInsertRuntimeFunc(rewriter, op, "tfc_rt_print_label", fnType);
      Value zero = arith::ConstantIntOp::create(rewriter, loc, i32, 0);
      func::CallOp::create(rewriter, loc, fn,
                           ValueRange{labelPtr, zero, count, zero});
    }
    for (auto [i, v] : llvm::enumerate(operands)) {
      auto type = cast<RankedTensorType>(v.getType());
      Type elt = type.getElementType();
      auto unranked = UnrankedTensorType::get(elt);
      std::string name = "tfc_rt_print_tensor_";
      llvm::raw_string_ostream(name) << elt;
      auto fnType = FunctionType::get(rewriter.getContext(),
                                      {ptrType, i32, i32, i32, unranked}, {});
      auto fn = getOrInsertRuntimeFunc(rewriter, op, name, fnType);
      // The runtime only reads the tensor: no copy before the call.
      fn.setArgAttr(4, "bufferization.access", rewriter.getStringAttr("read"));
      Value cast = tensor::CastOp::create(rewriter, loc, unranked, v);
      Value idx = arith::ConstantIntOp::create(rewriter, loc, i32, (int64_t)i);
      Value code =
          arith::ConstantIntOp::create(rewriter, loc, i32, dtypeCode(elt));
      func::CallOp::create(rewriter, loc, fn,
                           ValueRange{labelPtr, idx, count, code, cast});
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// tfc.all_reduce %x, "sum" -> a fresh buffer the runtime fills:
///   %out = memref.alloc(dims of %x)
///   call @tfc_rt_all_reduce_f32(dtype, op, %x as tensor<*xf32> (read),
///                               %out as memref<*xf32>)
///   %r = bufferization.to_tensor %out restrict writable
/// The call is opaque to the passes after this one, so it is neither
/// removed nor moved; the runtime reduces %x into %out (a strided %x is
/// gathered into %out first, then reduced in place; JIT.cpp,
/// tfcAllReduce).
struct AllReduceLowering : public OpConversionPattern<AllReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AllReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto type = cast<RankedTensorType>(x.getType());
    Type elt = type.getElementType();
    SmallVector<Value> dynDims;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (type.isDynamicDim(i))
        dynDims.push_back(tensor::DimOp::create(rewriter, loc, x, i));
    Value out = memref::AllocOp::create(
        rewriter, loc, MemRefType::get(type.getShape(), elt), dynDims);
    auto i32 = rewriter.getI32Type();
    auto unrankedTensor = UnrankedTensorType::get(elt);
    auto unrankedMemRef = UnrankedMemRefType::get(elt, 0);
    std::string name = "tfc_rt_all_reduce_";
    llvm::raw_string_ostream(name) << elt;
    auto fnType = FunctionType::get(
        rewriter.getContext(), {i32, i32, unrankedTensor, unrankedMemRef}, {});
    auto fn = getOrInsertRuntimeFunc(rewriter, op, name, fnType);
    fn.setArgAttr(2, "bufferization.access", rewriter.getStringAttr("read"));
    Value code =
        arith::ConstantIntOp::create(rewriter, loc, i32, dtypeCode(elt));
    Value reduce = arith::ConstantIntOp::create(
        rewriter, loc, i32, op.getReduceOp() == "mean" ? 1 : 0);
    func::CallOp::create(
        rewriter, loc, fn,
        ValueRange{code, reduce,
                   tensor::CastOp::create(rewriter, loc, unrankedTensor, x),
                   memref::CastOp::create(rewriter, loc, unrankedMemRef, out)});
    rewriter.replaceOp(op, bufferization::ToTensorOp::create(
                               rewriter, loc, type, out, /*restrict=*/true,
                               /*writable=*/true));
    return success();
  }
};

/// tfc.assert %pred, "msg" -> call @tfc_rt_assert(i1, ptr). The runtime
/// records the first failure; the JIT turns it into tfc::RuntimeError.
struct AssertLowering : public OpConversionPattern<AssertOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(AssertOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto msg = op->getAttrOfType<StringAttr>("message");
    std::string text = msg ? msg.getValue().str() : std::string();
    // Carry the user's source line into the runtime message.
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
      text += " (at " + fileLoc.getFilename().str() + ":" +
              std::to_string(fileLoc.getLine()) + ")";
    Value msgPtr = globalString(rewriter, loc, op, text);
    Value pred = extractPredicate(rewriter, loc, adaptor.getOperands()[0]);
    auto ptrType = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto fnType = FunctionType::get(rewriter.getContext(),
                                    {rewriter.getI1Type(), ptrType}, {});
    auto fn = getOrInsertRuntimeFunc(rewriter, op, "tfc_rt_assert", fnType);
    func::CallOp::create(rewriter, loc, fn, ValueRange{pred, msgPtr});
    rewriter.eraseOp(op);
    return success();
  }
};

/// Calls tfc_rt_check_failed(kind, msg, count, v0..v7) under `scf.if !ok`:
/// the passing path is one compare and branch. The runtime stops the call.
static void emitCheckFailure(OpBuilder &b, Location loc, Operation *anchor,
                             Value ok, CheckKind kind, StringRef message,
                             ValueRange values) {
  constexpr unsigned kMaxValues = 8; // the runtime entry point's arity
  auto i32 = b.getI32Type();
  auto i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  SmallVector<Type> argTypes = {i32, ptrType, i64};
  argTypes.append(kMaxValues, i64);
  auto fn =
      getOrInsertRuntimeFunc(b, anchor, "tfc_rt_check_failed",
                             FunctionType::get(b.getContext(), argTypes, {}));
  Value failed = arith::XOrIOp::create(
      b, loc, ok, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value msgPtr = globalString(b, loc, anchor, message);
  SmallVector<Value> args = {
      arith::ConstantIntOp::create(b, loc, i32, static_cast<int64_t>(kind)),
      msgPtr,
      arith::ConstantIntOp::create(b, loc, i64, (int64_t)values.size())};
  for (unsigned i = 0; i < kMaxValues; ++i)
    args.push_back(
        i < values.size()
            ? Value(arith::IndexCastOp::create(b, loc, i64, values[i]))
            : Value(arith::ConstantIntOp::create(b, loc, i64, 0)));
  func::CallOp::create(b, loc, fn, args);
}

/// tfc.check -> a call of the runtime when the condition is false.
struct CheckLowering : public OpConversionPattern<CheckOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CheckOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitCheckFailure(rewriter, op.getLoc(), op, adaptor.getOk(), op.getKind(),
                     op.getMessage(), adaptor.getValues());
    rewriter.eraseOp(op);
    return success();
  }
};

/// tfc.check_elements -> an OR-reduction of "element fails" over the tensor
/// (flattened), then a scalar check. An scf.for carrying the flag in a
/// register, no early exit: LLVM vectorizes it (a linalg reduction into a
/// rank-0 buffer stored the flag every iteration, which kept it scalar).
struct CheckElementsLowering : public OpConversionPattern<CheckElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CheckElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = adaptor.getOperand();
    auto type = cast<RankedTensorType>(x.getType());
    ElementPredicate pred = op.getPredicate();
    Value bound = adaptor.getBound();
    Value limit; // the bound in the element type
    if (bound)
      limit = arith::IndexCastOp::create(rewriter, loc, type.getElementType(),
                                         bound);
    auto isBad = [&](OpBuilder &b, Location l, Value v) -> Value {
      Value zero = zeroOf(b, l, v.getType());
      switch (pred) {
      case ElementPredicate::nonzero:
        return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, v, zero);
      case ElementPredicate::nonnegative:
        return arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, v, zero);
      case ElementPredicate::in_range:
        // One unsigned compare: negative values wrap above any bound.
        return arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, v, limit);
      case ElementPredicate::below:
        return arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, v, limit);
      }
      return Value();
    };
    Value anyBad;
    if (type.getRank() == 0) {
      anyBad = isBad(rewriter, loc,
                     tensor::ExtractOp::create(rewriter, loc, x, ValueRange{}));
    } else {
      Value flat = x;
      if (type.getRank() > 1) {
        int64_t n = type.hasStaticShape() ? type.getNumElements()
                                          : ShapedType::kDynamic;
        SmallVector<ReassociationIndices> all(1);
        for (int64_t d = 0; d < type.getRank(); ++d)
          all[0].push_back(d);
        flat = tensor::CollapseShapeOp::create(
            rewriter, loc, RankedTensorType::get({n}, type.getElementType()), x,
            all);
      }
      Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
      Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
      Value n = tensor::DimOp::create(rewriter, loc, flat, 0);
      Value init =
          arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(false));
      auto loop = scf::ForOp::create(
          rewriter, loc, zero, n, one, ValueRange{init},
          [&](OpBuilder &b, Location l, Value i, ValueRange acc) {
            Value v = tensor::ExtractOp::create(b, l, flat, ValueRange{i});
            Value bad = arith::OrIOp::create(b, l, acc[0], isBad(b, l, v));
            scf::YieldOp::create(b, l, bad);
          });
      anyBad = loop.getResult(0);
    }
    Value ok = arith::XOrIOp::create(
        rewriter, loc, anyBad,
        arith::ConstantOp::create(rewriter, loc, rewriter.getBoolAttr(true)));
    // Range checks raise what the eager kernels raise (InvalidArgumentError,
    // as TensorFlow); division and powers a RuntimeError.
    if (bound)
      emitCheckFailure(rewriter, loc, op, ok, CheckKind::invalid_argument,
                       op.getMessage(), ValueRange{bound});
    else
      emitCheckFailure(rewriter, loc, op, ok, CheckKind::runtime,
                       op.getMessage(), {});
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void mlir::tfc::populatePrintAndChecksToRuntimePatterns(
    RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<PrintLowering, AssertLowering>(ctx);
  patterns.add<CheckLowering, CheckElementsLowering>(ctx);
  patterns.add<AllReduceLowering>(ctx);
}
