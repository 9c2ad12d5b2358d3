//===- TfcStackToRuntime.cpp - tfc-autodiff ops for the JIT ---------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Patterns of convert-tfc-to-linalg for the ops tfc-autodiff emits:
// - a `!tfc.stack` becomes an i64 runtime handle (from tfc_rt_stack_new), kept
//   as a `tensor<i64>` that the users' adaptors see (no type converter is
//   needed: stack handles are never loop-carried, tfc-autodiff captures
//   them);
// - push passes the tensor as an unranked memref the runtime copies;
// - pop takes the index of the top entry, then a `tensor.generate` reads it
//   element by element (the entry stays valid until the next push);
// - `tfc.custom_gradient` runs its forward region.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/TfcStackToRuntime.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::tfc;

namespace {

func::FuncOp runtimeFunc(OpBuilder &b, Operation *anchor, StringRef name,
                         TypeRange inputs, TypeRange results) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto f = func::FuncOp::create(b, anchor->getLoc(), name,
                                b.getFunctionType(inputs, results));
  f.setPrivate();
  return f;
}

/// The i64 handle behind a lowered stack value.
FailureOr<Value> handleOf(ConversionPatternRewriter &rewriter, Operation *op,
                          Value stack) {
  auto handleType = RankedTensorType::get({}, rewriter.getI64Type());
  if (stack.getType() != handleType)
    if (auto cast = stack.getDefiningOp<UnrealizedConversionCastOp>())
      if (cast->getNumOperands() == 1)
        stack = cast->getOperand(0);
  if (stack.getType() != handleType)
    return rewriter.notifyMatchFailure(
        op, "the stack does not come from a lowered tfc.stack_new");
  return tensor::ExtractOp::create(rewriter, op->getLoc(), stack, ValueRange{})
      .getResult();
}

struct StackNewLowering : public OpConversionPattern<StackNewOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StackNewOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto i64 = rewriter.getI64Type();
    auto fn = runtimeFunc(rewriter, op, "tfc_rt_stack_new", {}, {i64});
    Value handle = func::CallOp::create(rewriter, loc, fn).getResult(0);
    Value tensor = tensor::FromElementsOp::create(
        rewriter, loc, RankedTensorType::get({}, i64), handle);
    // Users see the tensor<i64> through their adaptors.
    rewriter.replaceOp(op, tensor);
    return success();
  }
};

struct StackPushLowering : public OpConversionPattern<StackPushOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StackPushOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> handle = handleOf(rewriter, op, adaptor.getStack());
    if (failed(handle))
      return failure();
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    Type elt = type.getElementType();
    auto unranked = UnrankedTensorType::get(elt);
    auto i64 = rewriter.getI64Type();
    // One name per element type (a func has one signature); one C function.
    std::string name = "tfc_rt_stack_push_";
    llvm::raw_string_ostream(name) << elt;
    auto fn = runtimeFunc(rewriter, op, name, {i64, i64, unranked}, {});
    // The runtime only reads the tensor.
    fn.setArgAttr(2, "bufferization.access", rewriter.getStringAttr("read"));
    int64_t bytes = elt.isInteger(1) ? 1 : elt.getIntOrFloatBitWidth() / 8;
    Value size = arith::ConstantIntOp::create(rewriter, loc, i64, bytes);
    Value value =
        tensor::CastOp::create(rewriter, loc, unranked, adaptor.getValue());
    func::CallOp::create(rewriter, loc, fn, ValueRange{*handle, size, value});
    rewriter.eraseOp(op);
    return success();
  }
};

/// A pointer to a NUL-terminated global holding `text`.
Value globalString(OpBuilder &b, Location loc, Operation *anchor,
                   StringRef name, StringRef text) {
  auto module = anchor->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<LLVM::GlobalOp>(name))
    return LLVM::AddressOfOp::create(b, loc, existing);
  std::string withNul = text.str();
  withNul.push_back('\0');
  return LLVM::createGlobalString(loc, b, name, withNul,
                                  LLVM::Linkage::Internal);
}

struct StackPopLowering : public OpConversionPattern<StackPopOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StackPopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> handle = handleOf(rewriter, op, adaptor.getStack());
    if (failed(handle))
      return failure();
    Location loc = op.getLoc();
    auto i64 = rewriter.getI64Type();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    Type elt = type.getElementType();
    auto popFn = runtimeFunc(rewriter, op, "tfc_rt_stack_pop", {i64}, {i64});
    Value entry =
        func::CallOp::create(rewriter, loc, popFn, *handle).getResult(0);
    // An empty stack is reported like a failed tfc.assert.
    Value zero = arith::ConstantIntOp::create(rewriter, loc, i64, 0);
    Value ok = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                     entry, zero);
    auto ptr = LLVM::LLVMPointerType::get(rewriter.getContext());
    auto assertFn = runtimeFunc(rewriter, op, "tfc_rt_assert",
                                {rewriter.getI1Type(), ptr}, {});
    Value msg = globalString(rewriter, loc, op, "__tfc_str_stack_empty",
                             "tfc.stack_pop: the stack is empty");
    func::CallOp::create(rewriter, loc, assertFn, ValueRange{ok, msg});

    std::string readName = "tfc_rt_stack_read_";
    llvm::raw_string_ostream(readName) << elt;
    auto readFn = runtimeFunc(rewriter, op, readName, {i64, i64, i64}, {elt});
    Value h = *handle;
    auto generate = tensor::GenerateOp::create(
        rewriter, loc, type, ValueRange{},
        [&](OpBuilder &b, Location l, ValueRange indices) {
          // Row-major linear index of the element.
          Value linear = arith::ConstantIndexOp::create(b, l, 0);
          for (auto [d, index] : llvm::enumerate(indices)) {
            Value dim =
                arith::ConstantIndexOp::create(b, l, type.getDimSize(d));
            linear = arith::MulIOp::create(b, l, linear, dim);
            linear = arith::AddIOp::create(b, l, linear, index);
          }
          Value i = arith::IndexCastOp::create(b, l, i64, linear);
          Value v = func::CallOp::create(b, l, readFn, ValueRange{h, entry, i})
                        .getResult(0);
          tensor::YieldOp::create(b, l, v);
        });
    rewriter.replaceOp(op, generate.getResult());
    return success();
  }
};

struct StackSizeLowering : public OpConversionPattern<StackSizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StackSizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> handle = handleOf(rewriter, op, adaptor.getStack());
    if (failed(handle))
      return failure();
    auto i64 = rewriter.getI64Type();
    auto fn = runtimeFunc(rewriter, op, "tfc_rt_stack_size", {i64}, {i64});
    Value n =
        func::CallOp::create(rewriter, op.getLoc(), fn, *handle).getResult(0);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, RankedTensorType::get({}, i64), n);
    return success();
  }
};

struct StackFreeLowering : public OpConversionPattern<StackFreeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(StackFreeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> handle = handleOf(rewriter, op, adaptor.getStack());
    if (failed(handle))
      return failure();
    auto fn = runtimeFunc(rewriter, op, "tfc_rt_stack_free",
                          {rewriter.getI64Type()}, {});
    func::CallOp::create(rewriter, op.getLoc(), fn, *handle);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Running a custom gradient runs its forward region.
struct CustomGradientLowering : public OpConversionPattern<CustomGradientOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CustomGradientOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Block &forward = op.getForward().front();
    Operation *yield = forward.getTerminator();
    SmallVector<Value> results;
    for (Value v : yield->getOperands()) {
      auto arg = dyn_cast<BlockArgument>(v);
      results.push_back(arg && arg.getOwner() == &forward
                            ? adaptor.getOperands()[arg.getArgNumber()]
                            : v);
    }
    rewriter.inlineBlockBefore(&forward, op, adaptor.getOperands());
    rewriter.replaceOp(op, results);
    rewriter.eraseOp(yield);
    return success();
  }
};

} // namespace

void mlir::tfc::populateTfcStackToRuntimePatterns(RewritePatternSet &patterns) {
  patterns.add<StackNewLowering, StackPushLowering, StackPopLowering,
               StackSizeLowering, StackFreeLowering, CustomGradientLowering>(
      patterns.getContext());
}
