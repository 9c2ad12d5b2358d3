//===- LinalgToLoops.cpp - Parallel loops from linalg -----------*- C++ -*-===//
//
// The CPU code generator's last linalg steps, on buffers (after
// tfc-linalg-to-blas, LinalgToBlas.cpp, has sent large float matmuls to
// OpenBLAS):
//  - tfc-linalg-to-loops: every other linalg op becomes loops, scf.parallel
//    (later OpenMP) when its iteration space is big enough to pay for
//    waking a second thread, versioned at run time when sizes are dynamic;
//  - tfc-openmp-num-threads: the OpenMP teams those loops become take their
//    size from the runtime's thread setting at run time.
//
//===----------------------------------------------------------------------===//

#include "tfc/Conversion/LinalgWork.h"
#include "tfc/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCLINALGTOLOOPSPASS
#define GEN_PASS_DEF_TFCOPENMPNUMTHREADSPASS
#include "tfc/Conversion/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;
using mlir::tfc::staticWork;

namespace {

//===----------------------------------------------------------------------===//
// tfc-linalg-to-loops
//===----------------------------------------------------------------------===//

/// The (i, k, j) loop order for a generated matmul: the innermost loop then
/// walks rows of B and C contiguously and vectorizes.
/// Parallel loops outermost: loops nest in iterator order, so a reduction
/// before a parallel dim (a bias gradient: sum over (n, h, w) of an NHWC
/// tensor) would put one OpenMP region, and its barrier, inside every
/// iteration of the serial reduction loops (86,528 regions for a 128x26x26
/// batch: seconds). Each element still sums in the same order.
FailureOr<linalg::LinalgOp> parallelFirst(RewriterBase &rewriter,
                                          linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<unsigned> perm;
  for (unsigned i = 0; i < iters.size(); ++i)
    if (iters[i] == utils::IteratorType::parallel)
      perm.push_back(i);
  for (unsigned i = 0; i < iters.size(); ++i)
    if (iters[i] != utils::IteratorType::parallel)
      perm.push_back(i);
  if (llvm::equal(perm, llvm::seq<unsigned>(0, unsigned(iters.size()))))
    return op;
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic) {
    FailureOr<linalg::GenericOp> g = linalg::generalizeNamedOp(rewriter, op);
    if (failed(g))
      return op; // left as it is: correct, only slower
    generic = *g;
  }
  FailureOr<linalg::GenericOp> swapped =
      linalg::interchangeGenericOp(rewriter, generic, perm);
  if (failed(swapped))
    return failure();
  return cast<linalg::LinalgOp>(swapped->getOperation());
}

FailureOr<linalg::LinalgOp> prepare(RewriterBase &rewriter,
                                    linalg::LinalgOp op) {
  if (!isa<linalg::MatmulOp>(op) ||
      cast<linalg::MatmulOp>(op).hasUserDefinedMaps())
    return parallelFirst(rewriter, op);
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

/// Leading parallel iterations that give every thread work many times over.
constexpr int64_t kMinParallelTrips = 64;

/// Turns the outermost loops of the sequential nest `loops` (outermost
/// first, in `op`'s iterator order) into one scf.parallel: as many leading
/// parallel-iterator loops as it takes to reach kMinParallelTrips
/// iterations (all the leading parallel ones if they never do). The loops
/// inside keep their order, so the innermost one still walks contiguous
/// memory and vectorizes. One scf.parallel over every dim would not:
/// OpenMP collapses it into one flattened index and rebuilds each dim from
/// it with a division per element (an NHWC bias + ReLU ran scalar, ~2.5 ns
/// an element).
void parallelizeOuterLoops(RewriterBase &rewriter, linalg::LinalgOp op,
                           ArrayRef<Operation *> loops) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  SmallVector<scf::ForOp> chain;
  int64_t trips = 1;
  for (Operation *loop : loops) {
    auto f = dyn_cast<scf::ForOp>(loop);
    if (!f || chain.size() >= iters.size() ||
        iters[chain.size()] != utils::IteratorType::parallel)
      break;
    // Perfectly nested: the previous loop's body is this loop and a yield.
    if (!chain.empty() && (f->getParentOp() != chain.back() ||
                           chain.back().getBody()->getOperations().size() != 2))
      break;
    chain.push_back(f);
    std::optional<int64_t> lb = getConstantIntValue(f.getLowerBound()),
                           ub = getConstantIntValue(f.getUpperBound()),
                           st = getConstantIntValue(f.getStep());
    if (!lb || !ub || !st || *st <= 0) // dynamic: assume it is enough
      break;
    trips *= std::max<int64_t>(0, (*ub - *lb + *st - 1) / *st);
    if (trips >= kMinParallelTrips)
      break;
  }
  if (chain.empty())
    return;
  Location loc = chain.front().getLoc();
  SmallVector<Value> lbs, ubs, steps;
  for (scf::ForOp f : chain) {
    lbs.push_back(f.getLowerBound());
    ubs.push_back(f.getUpperBound());
    steps.push_back(f.getStep());
  }
  rewriter.setInsertionPoint(chain.front());
  auto par = scf::ParallelOp::create(rewriter, loc, lbs, ubs, steps);
  SmallVector<Value> ivs(par.getInductionVars());
  for (size_t i = 0; i + 1 < chain.size(); ++i)
    rewriter.replaceAllUsesWith(chain[i].getInductionVar(), ivs[i]);
  Block *inner = chain.back().getBody();
  Operation *yield = inner->getTerminator();
  rewriter.inlineBlockBefore(inner, par.getBody()->getTerminator(),
                             ValueRange{ivs.back()});
  rewriter.eraseOp(yield);
  rewriter.eraseOp(chain.front());
}

/// Reductions over leading dims of operands laid out row-major with the
/// kept (parallel) dims innermost and contiguous, like a bias gradient
/// (sum over n, h, w of an NHWC tensor). In their own loop order the
/// innermost loop adds contiguous rows into the output row and vectorizes;
/// parallel over the kept dims instead (parallelFirst), every inner access
/// is strided and scalar. One thread at memory speed beats that.
bool isColumnSum(linalg::LinalgOp op) {
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  auto firstParallel = llvm::find(iters, utils::IteratorType::parallel);
  if (firstParallel == iters.begin() || firstParallel == iters.end() ||
      !std::all_of(firstParallel, iters.end(), [](utils::IteratorType t) {
        return t == utils::IteratorType::parallel;
      }))
    return false;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type || !type.getLayout().isIdentity() ||
        !op.getMatchingIndexingMap(&operand).isMinorIdentity())
      return false;
  }
  return true;
}

/// The splat value of the constant global `v` reads, if it is one.
std::optional<TypedAttr> splatGlobal(Value v) {
  auto get = v.getDefiningOp<memref::GetGlobalOp>();
  if (!get)
    return std::nullopt;
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      get, get.getNameAttr());
  if (!global || !global.getConstant())
    return std::nullopt;
  auto init =
      dyn_cast_or_null<SplatElementsAttr>(global.getConstantInitValue());
  if (!init)
    return std::nullopt;
  return init.getSplatValue<TypedAttr>();
}

/// memref.copy between strided views (a concat's or a slice gradient's
/// blocks) would become a call of MLIR's generic `memrefCopy`, one element
/// at a time through index arithmetic; as linalg.copy it becomes loops
/// like any other op here (contiguous rows innermost, vectorized). A copy
/// of a splat constant becomes a fill. Contiguous copies stay (memcpy).
void stridedCopiesToLinalg(Operation *root) {
  SmallVector<memref::CopyOp> copies;
  root->walk([&](memref::CopyOp op) { copies.push_back(op); });
  for (memref::CopyOp op : copies) {
    auto from = cast<MemRefType>(op.getSource().getType());
    auto to = cast<MemRefType>(op.getTarget().getType());
    std::optional<TypedAttr> splat = splatGlobal(op.getSource());
    if (!splat && from.getLayout().isIdentity() && to.getLayout().isIdentity())
      continue;
    OpBuilder b(op);
    if (splat) {
      Value value = arith::ConstantOp::create(b, op.getLoc(), *splat);
      linalg::FillOp::create(b, op.getLoc(), value, op.getTarget());
    } else {
      linalg::CopyOp::create(b, op.getLoc(), op.getSource(), op.getTarget());
    }
    op.erase();
  }
}

struct TfcLinalgToLoopsPass
    : public tfc::impl::TfcLinalgToLoopsPassBase<TfcLinalgToLoopsPass> {
  using Base::Base;

  LogicalResult lower(IRRewriter &rewriter, linalg::LinalgOp op,
                      bool parallel) {
    rewriter.setInsertionPoint(op);
    bool noUnroll = !parallel && callsMath(op);
    FailureOr<linalg::LinalgLoops> loops =
        linalg::linalgOpToLoops(rewriter, op);
    if (failed(loops))
      return op->emitError("cannot lower this linalg op to loops");
    if (parallel)
      parallelizeOuterLoops(rewriter, op, *loops);
    rewriter.eraseOp(op);
    if (parallel)
      return success();
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
    stridedCopiesToLinalg(getOperation());
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    int64_t threshold = static_cast<int64_t>(parallelThreshold);
    for (linalg::LinalgOp original : ops) {
      rewriter.setInsertionPoint(original);
      if (isColumnSum(original)) {
        if (failed(lower(rewriter, original, /*parallel=*/false)))
          return signalPassFailure();
        continue;
      }
      FailureOr<linalg::LinalgOp> op = prepare(rewriter, original);
      if (failed(op)) {
        original->emitError("cannot reorder this op's loops");
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
