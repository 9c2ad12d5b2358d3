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

/// Keeps parallel only as many leading dims of `par` as it takes to reach
/// kMinParallelTrips iterations; the rest become an scf.for nest inside.
/// OpenMP collapses a multi-dim loop into one flattened index and rebuilds
/// every dim from it with a division per element, which keeps LLVM from
/// vectorizing (an NHWC bias + ReLU ran scalar at ~2.5 ns an element); a
/// sequential innermost loop over contiguous memory vectorizes.
void keepOuterDimsParallel(RewriterBase &rewriter, scf::ParallelOp par) {
  unsigned n = par.getNumLoops();
  unsigned k = 0;
  int64_t trips = 1;
  while (k + 1 < n && trips < kMinParallelTrips) {
    std::optional<int64_t> lb = getConstantIntValue(par.getLowerBound()[k]),
                           ub = getConstantIntValue(par.getUpperBound()[k]),
                           st = getConstantIntValue(par.getStep()[k]);
    ++k;
    if (!lb || !ub || !st || *st <= 0) // dynamic: assume it is enough
      break;
    trips *= std::max<int64_t>(0, (*ub - *lb + *st - 1) / *st);
  }
  if (k == 0 || k == n)
    return;
  Location loc = par.getLoc();
  rewriter.setInsertionPoint(par);
  auto outer = scf::ParallelOp::create(
      rewriter, loc, par.getLowerBound().take_front(k),
      par.getUpperBound().take_front(k), par.getStep().take_front(k));
  SmallVector<Value> ivs(outer.getInductionVars());
  rewriter.setInsertionPointToStart(outer.getBody());
  for (unsigned d = k; d < n; ++d) {
    auto loop = scf::ForOp::create(rewriter, loc, par.getLowerBound()[d],
                                   par.getUpperBound()[d], par.getStep()[d]);
    ivs.push_back(loop.getInductionVar());
    rewriter.setInsertionPointToStart(loop.getBody());
  }
  Block *body = par.getBody();
  Operation *reduce = body->getTerminator();
  Operation *innerEnd = rewriter.getInsertionBlock()->getTerminator();
  rewriter.inlineBlockBefore(body, innerEnd, ivs);
  rewriter.eraseOp(reduce);
  rewriter.eraseOp(par);
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
    if (parallel)
      for (Operation *loop : *loops)
        if (auto par = dyn_cast<scf::ParallelOp>(loop)) {
          keepOuterDimsParallel(rewriter, par);
          break; // the loops after it are nested inside it
        }
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
