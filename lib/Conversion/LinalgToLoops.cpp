//===- LinalgToLoops.cpp - Library matmul and parallel loops ----*- C++ -*-===//
//
// The CPU code generator's last linalg steps, on buffers:
//  - tfc-linalg-to-blas: large float matmuls become OpenBLAS calls through
//    the runtime (tuned kernels beat generated loops there, and a call is
//    cheap to compile where LLVM would unroll small static loop nests);
//  - tfc-linalg-to-loops: every other linalg op becomes loops, scf.parallel
//    (later OpenMP) when its iteration space is big enough to pay for
//    waking a second thread, versioned at run time when sizes are dynamic;
//  - tfc-openmp-num-threads: the OpenMP teams those loops become take their
//    size from the runtime's thread setting at run time.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCLINALGTOBLASPASS
#define GEN_PASS_DEF_TFCLINALGTOLOOPSPASS
#define GEN_PASS_DEF_TFCOPENMPNUMTHREADSPASS
#include "tfc/Conversion/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;

namespace {

/// The product of static loop ranges, saturated at INT64_MAX: large static
/// dims (each tensor fitting in memory) can multiply past int64. It only
/// chooses between library call, serial and parallel code.
int64_t staticWork(ArrayRef<int64_t> ranges) {
  int64_t work = 1;
  for (int64_t r : ranges)
    if (__builtin_mul_overflow(work, r, &work))
      return std::numeric_limits<int64_t>::max();
  return work;
}

//===----------------------------------------------------------------------===//
// tfc-linalg-to-blas
//===----------------------------------------------------------------------===//

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

//===----------------------------------------------------------------------===//
// tfc-linalg-to-loops
//===----------------------------------------------------------------------===//

/// The (i, k, j) loop order for a generated matmul: the innermost loop then
/// walks rows of B and C contiguously and vectorizes.
FailureOr<linalg::LinalgOp> prepare(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp>(op) ||
      cast<linalg::MatmulOp>(op).hasUserDefinedMaps())
    return op;
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, op);
  if (failed(generic))
    return failure();
  FailureOr<linalg::GenericOp> swapped =
      linalg::interchangeGenericOp(rewriter, *generic, {0, 2, 1});
  if (failed(swapped))
    return failure();
  return cast<linalg::LinalgOp>(swapped->getOperation());
}

bool hasParallelLoop(linalg::LinalgOp op) {
  return llvm::any_of(op.getIteratorTypesArray(), [](utils::IteratorType t) {
    return t == utils::IteratorType::parallel;
  });
}

/// A body that calls a transcendental (which becomes a long polynomial).
bool callsMath(linalg::LinalgOp op) {
  return op
      ->walk([](Operation *inner) {
        return isa<math::MathDialect>(inner->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

struct TfcLinalgToLoopsPass
    : public tfc::impl::TfcLinalgToLoopsPassBase<TfcLinalgToLoopsPass> {
  using Base::Base;

  LogicalResult lower(IRRewriter &rewriter, linalg::LinalgOp op,
                      bool parallel) {
    rewriter.setInsertionPoint(op);
    bool noUnroll = !parallel && callsMath(op);
    FailureOr<linalg::LinalgLoops> loops =
        parallel ? linalg::linalgOpToParallelLoops(rewriter, op)
                 : linalg::linalgOpToLoops(rewriter, op);
    if (failed(loops))
      return op->emitError("cannot lower this linalg op to loops");
    rewriter.eraseOp(op);
    // scf-to-cf moves the annotation onto the loop's latch branch.
    if (noUnroll) {
      MLIRContext *ctx = rewriter.getContext();
      auto unroll = LLVM::LoopUnrollAttr::get(
          ctx, /*disable=*/rewriter.getBoolAttr(true), {}, {}, {}, {}, {}, {});
      auto annotation = LLVM::LoopAnnotationAttr::get(
          ctx, {}, {}, {}, unroll, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
      for (Operation *loop : *loops)
        if (isa<scf::ForOp>(loop))
          loop->setAttr("loop_annotation", annotation);
    }
    return success();
  }

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    int64_t threshold = static_cast<int64_t>(parallelThreshold);
    for (linalg::LinalgOp original : ops) {
      rewriter.setInsertionPoint(original);
      FailureOr<linalg::LinalgOp> op = prepare(rewriter, original);
      if (failed(op)) {
        original->emitError("cannot reorder the matmul's loops");
        return signalPassFailure();
      }
      bool canParallel = threshold > 0 && hasParallelLoop(*op);
      SmallVector<int64_t> ranges = op->getStaticLoopRanges();
      bool dynamic = llvm::any_of(ranges, ShapedType::isDynamic);
      if (!canParallel || !dynamic) {
        // Only static sizes are multiplied (kDynamic would overflow).
        int64_t work = dynamic ? 1 : staticWork(ranges);
        if (failed(lower(rewriter, *op,
                         canParallel && !dynamic && work >= threshold)))
          return signalPassFailure();
        continue;
      }
      // Dynamic sizes: choose at run time, both versions compiled.
      Location loc = op->getLoc();
      rewriter.setInsertionPoint(*op);
      SmallVector<Range, 4> loopRanges = op->createLoopRanges(rewriter, loc);
      Value work = arith::ConstantIndexOp::create(rewriter, loc, 1);
      for (Range &r : loopRanges)
        work = arith::MulIOp::create(
            rewriter, loc, work,
            getValueOrCreateConstantIndexOp(rewriter, loc, r.size));
      Value big = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::sge, work,
          arith::ConstantIndexOp::create(rewriter, loc, threshold));
      auto branch = scf::IfOp::create(rewriter, loc, big, /*withElse=*/true);
      rewriter.setInsertionPoint(branch.thenBlock()->getTerminator());
      auto inThen = cast<linalg::LinalgOp>(rewriter.clone(**op));
      rewriter.setInsertionPoint(branch.elseBlock()->getTerminator());
      auto inElse = cast<linalg::LinalgOp>(rewriter.clone(**op));
      rewriter.eraseOp(*op);
      if (failed(lower(rewriter, inThen, /*parallel=*/true)) ||
          failed(lower(rewriter, inElse, /*parallel=*/false)))
        return signalPassFailure();
    }
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// tfc-openmp-num-threads
//===----------------------------------------------------------------------===//

namespace {
struct TfcOpenMPNumThreadsPass
    : public tfc::impl::TfcOpenMPNumThreadsPassBase<TfcOpenMPNumThreadsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<omp::ParallelOp> teams;
    module.walk([&](omp::ParallelOp op) {
      if (!op.getNumThreads())
        teams.push_back(op);
    });
    if (teams.empty())
      return;
    constexpr StringLiteral name = "tfc_rt_num_threads";
    OpBuilder b(module.getContext());
    auto i32 = b.getI32Type();
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (fn && fn.getFunctionType() != b.getFunctionType({}, {i32})) {
      fn.emitError() << "'" << name
                     << "' is reserved for the runtime's thread count (() -> "
                        "i32), found "
                     << fn.getFunctionType();
      return signalPassFailure();
    }
    if (!fn) {
      b.setInsertionPointToStart(module.getBody());
      fn = func::FuncOp::create(b, module.getLoc(), name,
                                b.getFunctionType({}, {i32}));
      fn.setPrivate();
    }
    for (omp::ParallelOp op : teams) {
      // Read per region, not once per function: a cached function follows
      // later set_num_threads calls.
      b.setInsertionPoint(op);
      auto n = func::CallOp::create(b, op.getLoc(), fn);
      op.getNumThreadsMutable().assign(n.getResult(0));
    }
  }
};
} // namespace
