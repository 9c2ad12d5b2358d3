//===- LinalgToBlas.cpp - Large float matmuls to OpenBLAS -------*- C++ -*-===//
//
// tfc-linalg-to-blas, one of the CPU code generator's last linalg steps, on
// buffers: large float matmuls become OpenBLAS calls through the runtime
// (tuned kernels beat generated loops there, and a call is cheap to compile
// where LLVM would unroll small static loop nests). tfc-linalg-to-loops
// (LinalgToLoops.cpp) then lowers every other linalg op.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/LinalgWork.h"
#include "tfc/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCLINALGTOBLASPASS
#include "tfc/Conversion/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using mlir::tfc::staticWork;

namespace {

/// `memref<?x?xT, strided<[?, ?], offset: ?>>`: any 2-d view.
MemRefType anyView(Type elt) {
  MLIRContext *ctx = elt.getContext();
  int64_t d = ShapedType::kDynamic;
  return MemRefType::get(
      {d, d}, elt, StridedLayoutAttr::get(ctx, d, ArrayRef<int64_t>{d, d}));
}

func::FuncOp getOrInsertGemm(ModuleOp module, Type elt) {
  std::string name = elt.isF32() ? "tfc_rt_gemm_f32" : "tfc_rt_gemm_f64";
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  MemRefType view = anyView(elt);
  auto type = b.getFunctionType({view, view, view, elt}, {});
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  // Descriptors are passed by pointer to `_mlir_ciface_<name>` (runtime).
  fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
  return fn;
}

/// The fill that zeroes `buffer` just before `op`, if any: the call then
/// overwrites with beta = 0 and the fill goes away.
linalg::FillOp zeroFillBefore(Operation *op, Value buffer) {
  auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode());
  if (!fill || fill.getOutputs()[0] != buffer)
    return {};
  if (!matchPattern(fill.getInputs()[0], m_AnyZeroFloat()))
    return {};
  return fill;
}

struct TfcLinalgToBlasPass
    : public tfc::impl::TfcLinalgToBlasPassBase<TfcLinalgToBlasPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::MatmulOp> matmuls;
    module.walk([&](linalg::MatmulOp op) { matmuls.push_back(op); });
    for (linalg::MatmulOp op : matmuls) {
      if (!op.hasPureBufferSemantics())
        continue;
      Value a = op.getInputs()[0], b = op.getInputs()[1],
            c = op.getOutputs()[0];
      auto cType = cast<MemRefType>(c.getType());
      Type elt = cType.getElementType();
      if (!(elt.isF32() || elt.isF64()) || !cType.getLayout().isIdentity() ||
          cast<MemRefType>(a.getType()).getElementType() != elt ||
          cast<MemRefType>(b.getType()).getElementType() != elt)
        continue;
      // linalg.matmul with a user-defined transpose/broadcast map is not a
      // plain GEMM.
      if (op.hasUserDefinedMaps())
        continue;
      SmallVector<int64_t> ranges = op.getStaticLoopRanges();
      bool dynamic = llvm::any_of(ranges, ShapedType::isDynamic);
      if (!dynamic) {
        int64_t work = staticWork(ranges);
        if (work < static_cast<int64_t>(minWork))
          continue;
        // A small row-vector product (M = 1) vectorizes well inline and
        // costs less than the library call (the LSTM step at batch 1).
        if (ranges[0] == 1 && work < 16 * static_cast<int64_t>(minWork))
          continue;
      }
      OpBuilder builder(op);
      Location loc = op.getLoc();
      func::FuncOp gemm = getOrInsertGemm(module, elt);
      MemRefType view = anyView(elt);
      auto cast = [&](Value v) -> Value {
        return memref::CastOp::create(builder, loc, view, v);
      };
      double betaValue = 1.0;
      if (linalg::FillOp fill = zeroFillBefore(op, c)) {
        fill.erase();
        betaValue = 0.0;
      }
      Value ca = cast(a), cb = cast(b), cc = cast(c);
      Value beta = arith::ConstantOp::create(
          builder, loc, builder.getFloatAttr(elt, betaValue));
      func::CallOp::create(builder, loc, gemm, ValueRange{ca, cb, cc, beta});
      op.erase();
    }
  }
};

} // namespace
