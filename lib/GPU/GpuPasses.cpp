//===- GpuPasses.cpp - tfc passes of the NVIDIA GPU path --------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The memory model these passes implement (docs/gpu.md): every buffer the
// compiled function allocates is CUDA managed memory, so kernels and the
// host code that stays on the CPU (loop conditions, scalar updates) use the
// same buffers; launches are synchronous, so the host never reads a buffer
// a kernel is still writing. Public functions take their arguments in
// managed memory and return managed buffers the caller owns (callInto
// copies CPU tensors in and adopts results as CUDA tensors).
//
//===----------------------------------------------------------------------===//

#include "tfc/GPU/Passes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"

#include <numeric>

namespace mlir::tfc {
#define GEN_PASS_DEF_TFCGPUPARALLELOUTERPASS
#define GEN_PASS_DEF_TFCGPUHOSTMEMORYPASS
#define GEN_PASS_DEF_TFCGPUTILEPARALLELLOOPSPASS
#include "tfc/GPU/Passes.h.inc"
} // namespace mlir::tfc

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// tfc-gpu-parallel-outer
//===----------------------------------------------------------------------===//

struct ParallelOuterPass
    : public tfc::impl::TfcGpuParallelOuterPassBase<ParallelOuterPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> generics;
    getOperation().walk([&](linalg::GenericOp op) { generics.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::GenericOp op : generics) {
      SmallVector<unsigned> order;
      auto iterators = op.getIteratorTypesArray();
      for (auto [i, it] : llvm::enumerate(iterators))
        if (linalg::isParallelIterator(it))
          order.push_back(i);
      for (auto [i, it] : llvm::enumerate(iterators))
        if (!linalg::isParallelIterator(it))
          order.push_back(i);
      bool identity = true;
      for (auto [i, d] : llvm::enumerate(order))
        identity &= (d == i);
      if (identity)
        continue;
      rewriter.setInsertionPoint(op);
      if (failed(linalg::interchangeGenericOp(rewriter, op, order))) {
        op.emitError("cannot move the parallel loops of this linalg.generic "
                     "outermost for the GPU");
        return signalPassFailure();
      }
    }
  }
};

//===----------------------------------------------------------------------===//
// tfc-gpu-host-memory
//===----------------------------------------------------------------------===//

/// Frees managed memory: gpu.dealloc lowers only in its async form, so it
/// gets a stream of its own and waits for it.
void emitFree(OpBuilder &b, Location loc, Value memref) {
  Type token = gpu::AsyncTokenType::get(b.getContext());
  auto stream = gpu::WaitOp::create(b, loc, token, ValueRange{});
  auto dealloc = gpu::DeallocOp::create(
      b, loc, token, ValueRange{stream.getAsyncToken()}, memref);
  gpu::WaitOp::create(b, loc, Type(), ValueRange{dealloc.getAsyncToken()});
}

/// A managed buffer shaped like `like` (dynamic sizes read from it).
Value emitManagedLike(OpBuilder &b, Location loc, Value like) {
  auto type = cast<MemRefType>(like.getType());
  SmallVector<Value> sizes;
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      sizes.push_back(memref::DimOp::create(b, loc, like, i));
  return gpu::AllocOp::create(b, loc, type, Type(), ValueRange{}, sizes,
                              ValueRange{}, /*hostShared=*/true)
      .getMemref();
}

func::FuncOp getOrInsertDecl(ModuleOp module, StringRef name,
                             FunctionType type) {
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b(module.getBodyRegion());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  return fn;
}

struct HostMemoryPass
    : public tfc::impl::TfcGpuHostMemoryPassBase<HostMemoryPass> {
  /// The CUDA pipeline's later gpu-module-to-binary, and the JIT's
  /// translation of the host module, need the GPU/NVVM translations and the
  /// NVVM target; registering them here makes every pipeline holding this
  /// pass self-sufficient (tfc-opt's registry has only the dialects).
  void getDependentDialects(DialectRegistry &registry) const override {
    TfcGpuHostMemoryPassBase::getDependentDialects(registry);
    registerBuiltinDialectTranslation(registry);
    registerLLVMDialectTranslation(registry);
    registerGPUDialectTranslation(registry);
    gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
    registerNVVMDialectTranslation(registry);
    NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);

    // Allocations and deallocations, everywhere.
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    module.walk([&](Operation *op) {
      if (auto a = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(a);
      else if (auto d = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(d);
    });
    for (memref::AllocOp alloc : allocs) {
      b.setInsertionPoint(alloc);
      auto managed = gpu::AllocOp::create(
          b, alloc.getLoc(), alloc.getType(), Type(), ValueRange{},
          alloc.getDynamicSizes(), alloc.getSymbolOperands(), true);
      alloc.replaceAllUsesWith(managed.getMemref());
      alloc.erase();
    }
    for (memref::DeallocOp dealloc : deallocs) {
      b.setInsertionPoint(dealloc);
      emitFree(b, dealloc.getLoc(), dealloc.getMemref());
      dealloc.erase();
    }

    auto i1 = IntegerType::get(ctx, 1);
    auto ptr = LLVM::LLVMPointerType::get(ctx);
    func::FuncOp okFn, messageFn, assertFn;
    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>())) {
      if (fn.isDeclaration())
        continue;
      Block &entry = fn.getBody().front();
      SmallVector<Value> toFree;

      // Constant globals live in host memory: kernels get a managed copy.
      SmallVector<memref::GetGlobalOp> globals;
      fn.walk([&](memref::GetGlobalOp g) { globals.push_back(g); });
      for (memref::GetGlobalOp g : globals) {
        g->moveBefore(&entry, entry.begin());
        b.setInsertionPointAfter(g);
        Value managed = emitManagedLike(b, g.getLoc(), g.getResult());
        auto copy =
            memref::CopyOp::create(b, g.getLoc(), g.getResult(), managed);
        g.getResult().replaceAllUsesExcept(managed, copy.getOperation());
        toFree.push_back(managed);
      }

      bool boundary = fn.isPublic();
      if (boundary) {
        // Arguments arrive in managed memory: the caller (callInto) passes
        // CUDA tensors as they are and copies the others to the device.
        for (BlockArgument arg : entry.getArguments()) {
          auto type = dyn_cast<MemRefType>(arg.getType());
          if (type && !type.getLayout().isIdentity()) {
            fn.emitError("argument ")
                << arg.getArgNumber()
                << " must have an identity layout for the CUDA target, got "
                << type;
            return signalPassFailure();
          }
        }
        if (!okFn) {
          okFn = getOrInsertDecl(module, "tfc_cuda_ok",
                                 FunctionType::get(ctx, {}, {i1}));
          messageFn = getOrInsertDecl(module, "tfc_cuda_error_message",
                                      FunctionType::get(ctx, {}, {ptr}));
          assertFn = getOrInsertDecl(module, "tfc_rt_assert",
                                     FunctionType::get(ctx, {i1, ptr}, {}));
        }
      }

      SmallVector<func::ReturnOp> returns;
      fn.walk([&](func::ReturnOp r) { returns.push_back(r); });
      for (func::ReturnOp ret : returns) {
        Location loc = ret.getLoc();
        b.setInsertionPoint(ret);
        // Results stay in managed memory and belong to the caller (callInto
        // adopts them as CUDA tensors). So a constant's managed copy is
        // freed only when no result is (a view of) it.
        SmallVector<Value> resultPointers;
        if (!toFree.empty())
          for (Value v : ret.getOperands())
            if (isa<MemRefType>(v.getType()))
              resultPointers.push_back(
                  memref::ExtractAlignedPointerAsIndexOp::create(b, loc, v));
        for (Value m : toFree) {
          if (llvm::is_contained(ret.getOperands(), m))
            continue;
          if (resultPointers.empty()) {
            emitFree(b, loc, m);
            continue;
          }
          Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m);
          Value notReturned;
          for (Value q : resultPointers) {
            Value ne =
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, p, q);
            notReturned = notReturned
                              ? arith::AndIOp::create(b, loc, notReturned, ne)
                              : ne;
          }
          auto ifOp =
              scf::IfOp::create(b, loc, notReturned, /*withElse=*/false);
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          emitFree(b, loc, m);
        }
        if (boundary) {
          Value ok = func::CallOp::create(b, loc, okFn).getResult(0);
          Value message = func::CallOp::create(b, loc, messageFn).getResult(0);
          func::CallOp::create(b, loc, assertFn, ValueRange{ok, message});
        }
      }
    }
  }
};

//===----------------------------------------------------------------------===//
// tfc-gpu-tile-parallel-loops
//===----------------------------------------------------------------------===//

SmallVector<scf::ParallelOp> outermostParallelLoops(Operation *root) {
  SmallVector<scf::ParallelOp> loops;
  root->walk([&](scf::ParallelOp p) {
    if (!p->getParentOfType<scf::ParallelOp>())
      loops.push_back(p);
  });
  return loops;
}

struct TileParallelLoopsPass
    : public tfc::impl::TfcGpuTileParallelLoopsPassBase<TileParallelLoopsPass> {
  using TfcGpuTileParallelLoopsPassBase::TfcGpuTileParallelLoopsPassBase;
  void runOnOperation() override {
    if (blockSize < 1 || blockSize > 1024) {
      getOperation().emitError("block-size must be in [1, 1024], got ")
          << blockSize;
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : outermostParallelLoops(getOperation())) {
      unsigned n = loop.getNumLoops();
      if (n < 2)
        continue;
      std::vector<unsigned> all(n);
      std::iota(all.begin(), all.end(), 0u);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
    }
    for (scf::ParallelOp loop : outermostParallelLoops(getOperation())) {
      int64_t tile = blockSize;
      // Small static loops get one block of exactly their size.
      auto lb = getConstantIntValue(loop.getLowerBound()[0]);
      auto ub = getConstantIntValue(loop.getUpperBound()[0]);
      auto step = getConstantIntValue(loop.getStep()[0]);
      if (lb && ub && step && *step > 0 && *ub > *lb)
        tile = std::min(tile, (*ub - *lb + *step - 1) / *step);
      scf::tileParallelLoop(loop, {tile}, /*noMinMaxBounds=*/true);
    }
  }
};

} // namespace
