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
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

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

/// The allocation `v` views, through casts, subviews and reshapes.
Value rootBuffer(Value v) {
  while (auto view = v.getDefiningOp<ViewLikeOpInterface>())
    v = view.getViewSource();
  return v;
}

/// Whether `op` or an op nested in it has an operand viewing `root`.
bool touches(Operation *op, Value root) {
  WalkResult r = op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (isa<MemRefType>(v.getType()) && rootBuffer(v) == root)
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return r.wasInterrupted();
}

bool isZeroFill(linalg::FillOp fill) {
  return matchPattern(fill.getInputs()[0], m_AnyZeroFloat());
}

/// Whether `buffer` holds the zeros of a fill when `op` runs: the fill is
/// earlier in the block and the ops in between at most copy from it.
bool zeroFilledAt(Value buffer, Operation *op) {
  Value root = rootBuffer(buffer);
  for (Operation *p = op->getPrevNode(); p; p = p->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(p);
        fill && fill.getOutputs()[0] == buffer)
      return isZeroFill(fill);
    if (auto copy = dyn_cast<memref::CopyOp>(p);
        copy && rootBuffer(copy.getTarget()) != root)
      continue; // reads it at most
    if (touches(p, root))
      return false;
  }
  return false;
}

/// The op that last zeroed `buffer` before `op`, with nothing in between
/// touching it: a zero fill, or a copy of a zero-filled buffer (one-shot
/// bufferization's copy when two matmuls share one CSE'd zero init). The
/// call then overwrites with beta = 0 and that op goes. Else null.
Operation *zeroingBefore(Operation *op, Value buffer) {
  Value root = rootBuffer(buffer);
  for (Operation *p = op->getPrevNode(); p; p = p->getPrevNode()) {
    if (auto fill = dyn_cast<linalg::FillOp>(p);
        fill && fill.getOutputs()[0] == buffer)
      return isZeroFill(fill) ? p : nullptr;
    if (auto copy = dyn_cast<memref::CopyOp>(p);
        copy && copy.getTarget() == buffer)
      return zeroFilledAt(copy.getSource(), copy) ? p : nullptr;
    if (touches(p, root))
      return nullptr;
  }
  return nullptr;
}

/// `memref<?x?x?x?xT, strided<[?, ?, ?, ?], offset: ?>>`: any 4-d view.
MemRefType anyView4(Type elt) {
  MLIRContext *ctx = elt.getContext();
  int64_t d = ShapedType::kDynamic;
  return MemRefType::get(
      {d, d, d, d}, elt,
      StridedLayoutAttr::get(ctx, d, ArrayRef<int64_t>{d, d, d, d}));
}

/// `base_f32(a, b, out, sh, sw, dh, dw)` (the runtime's conv kernels).
func::FuncOp getOrInsertConvCall(ModuleOp module, StringRef base, Type elt) {
  std::string name = (base + (elt.isF32() ? "_f32" : "_f64")).str();
  if (auto fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  MemRefType view = anyView4(elt);
  Type i64 = b.getI64Type();
  auto type = b.getFunctionType({view, view, view, i64, i64, i64, i64}, {});
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
  return fn;
}

/// Replaces `op` (inputs a, b; output c, zero-filled just before) by a call
/// of the runtime's `base` kernel with the window's strides and dilations.
/// False (nothing changed) when the operands do not qualify.
bool convToCall(ModuleOp module, linalg::LinalgOp op, StringRef base,
                int64_t sh, int64_t sw, int64_t dh, int64_t dw,
                int64_t minWork) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1)
    return false;
  Value a = op.getDpsInputs()[0], b = op.getDpsInputs()[1],
        c = op.getDpsInits()[0];
  auto cType = cast<MemRefType>(c.getType());
  Type elt = cType.getElementType();
  if (!(elt.isF32() || elt.isF64()) || !cType.getLayout().isIdentity() ||
      cast<MemRefType>(a.getType()).getElementType() != elt ||
      cast<MemRefType>(b.getType()).getElementType() != elt)
    return false;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (!llvm::any_of(ranges, ShapedType::isDynamic) &&
      staticWork(ranges) < minWork)
    return false;
  // The kernels overwrite the output: only a freshly zeroed one qualifies.
  Operation *zeroing = zeroingBefore(op, c);
  if (!zeroing)
    return false;
  zeroing->erase();
  OpBuilder builder(op);
  Location loc = op.getLoc();
  func::FuncOp fn = getOrInsertConvCall(module, base, elt);
  MemRefType view = anyView4(elt);
  SmallVector<Value> args;
  for (Value v : {a, b, c})
    args.push_back(memref::CastOp::create(builder, loc, view, v));
  for (int64_t v : {sh, sw, dh, dw})
    args.push_back(
        arith::ConstantOp::create(builder, loc, builder.getI64IntegerAttr(v)));
  func::CallOp::create(builder, loc, fn, args);
  op->erase();
  return true;
}

/// The coefficient of loop `dim` in result `result` of `map` (affine in
/// the loops, no symbols).
int64_t coefficient(AffineMap map, unsigned result, unsigned dim) {
  SmallVector<int64_t> at(map.getNumDims(), 0);
  int64_t base = map.compose(at)[result];
  at[dim] = 1;
  return map.compose(at)[result] - base;
}

/// Convolutions: linalg.conv_2d_nhwc_hwcf (conv2d and its input gradient)
/// and the filter gradient's tagged linalg.generic (ConvToLinalg.cpp)
/// become calls of the runtime's im2col+GEMM kernels.
void convsToCalls(ModuleOp module, int64_t minWork) {
  SmallVector<linalg::LinalgOp> convs;
  module.walk([&](linalg::LinalgOp op) {
    if (isa<linalg::Conv2DNhwcHwcfOp>(op))
      convs.push_back(op);
    else if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation()))
      if (generic.getLibraryCall() == "tfc_rt_conv2d_backprop_filter" &&
          generic.getNumLoops() == 7)
        convs.push_back(op);
  });
  for (linalg::LinalgOp op : convs) {
    if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation())) {
      auto s = conv.getStrides().getValues<int64_t>();
      auto d = conv.getDilations().getValues<int64_t>();
      convToCall(module, op, "tfc_rt_conv2d", s[0], s[1], d[0], d[1], minWork);
      continue;
    }
    // Loops (a, b, c, o, n, i, j); input map (n, i*sh + a*dh, j*sw + b*dw, c).
    AffineMap x = op.getIndexingMapsArray()[0];
    convToCall(module, op, "tfc_rt_conv2d_backprop_filter",
               coefficient(x, 1, 5), coefficient(x, 2, 6), coefficient(x, 1, 0),
               coefficient(x, 2, 1), minWork);
  }
}

/// The memrefs `op`'s body reads from outside, in first-read order.
llvm::SetVector<Value> bodyReads(linalg::GenericOp op) {
  llvm::SetVector<Value> read;
  op.getRegion().walk<WalkOrder::PreOrder>([&](Operation *inner) {
    for (Value v : inner->getOperands())
      if (isa<MemRefType>(v.getType()) &&
          !op.getRegion().isAncestor(v.getParentRegion()))
        read.insert(v);
  });
  return read;
}

/// A contiguous (identity-layout) buffer as `memref<?xT, strided<[?],
/// offset: ?>>`.
Value flatView(OpBuilder &b, Location loc, Value v) {
  auto t = cast<MemRefType>(v.getType());
  Value f = v;
  if (t.getRank() == 0) {
    f = memref::ExpandShapeOp::create(
        b, loc, MemRefType::get({1}, t.getElementType()), v,
        SmallVector<ReassociationIndices>{},
        SmallVector<OpFoldResult>{b.getIndexAttr(1)});
  } else if (t.getRank() > 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < t.getRank(); ++d)
      all.push_back(d);
    f = memref::CollapseShapeOp::create(b, loc, v,
                                        SmallVector<ReassociationIndices>{all});
  }
  int64_t dyn = ShapedType::kDynamic;
  return memref::CastOp::create(
      b, loc,
      MemRefType::get(
          {dyn}, t.getElementType(),
          StridedLayoutAttr::get(b.getContext(), dyn, ArrayRef<int64_t>{dyn})),
      f);
}

/// The product of `buffer`'s dims [from, to) as an i64.
Value dimProduct(OpBuilder &b, Location loc, Value buffer, int64_t from,
                 int64_t to) {
  Value p = arith::ConstantIndexOp::create(b, loc, 1);
  for (int64_t d = from; d < to; ++d)
    p = arith::MulIOp::create(b, loc, p,
                              memref::DimOp::create(b, loc, buffer, d));
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), p);
}

Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
}

/// "f32", "f64", "i32", "i64", "i1" or "" (no kernel).
std::string typeSuffix(Type t) {
  return t.isF32()         ? "f32"
         : t.isF64()       ? "f64"
         : t.isInteger(32) ? "i32"
         : t.isInteger(64) ? "i64"
         : t.isInteger(1)  ? "i1"
                           : "";
}

/// Replaces `op` by a call of `name(args)` (declared on first use, with the
/// C interface the runtime's entry points take).
void replaceByCall(ModuleOp module, Operation *op, const std::string &name,
                   ValueRange args) {
  auto fn = module.lookupSymbol<func::FuncOp>(name);
  if (!fn) {
    OpBuilder mb = OpBuilder::atBlockBegin(module.getBody());
    fn = func::FuncOp::create(mb, module.getLoc(), name,
                              mb.getFunctionType(args.getTypes(), {}));
    fn.setPrivate();
    fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), mb.getUnitAttr());
  }
  OpBuilder b(op);
  func::CallOp::create(b, op->getLoc(), fn, args);
  op->erase();
}

/// The integers of a library_call "name(a,b,...)" after `prefix`.
std::optional<SmallVector<int64_t>> callParams(linalg::GenericOp op,
                                               StringRef prefix) {
  std::optional<StringRef> call = op.getLibraryCall();
  if (!call || !call->starts_with(prefix))
    return std::nullopt;
  StringRef rest = call->drop_front(prefix.size());
  SmallVector<int64_t> params;
  if (rest.empty())
    return params;
  if (!rest.consume_front("(") || !rest.consume_back(")"))
    return std::nullopt;
  for (StringRef field : llvm::split(rest, ',')) {
    int64_t v;
    if (field.getAsInteger(10, v))
      return std::nullopt;
    params.push_back(v);
  }
  return params;
}

/// Generics whose library_call starts with `prefix`, on buffers.
SmallVector<linalg::GenericOp> tagged(ModuleOp module, StringRef prefix) {
  SmallVector<linalg::GenericOp> ops;
  module.walk([&](linalg::GenericOp op) {
    if (callParams(op, prefix) && op.hasPureBufferSemantics() &&
        op.getNumDpsInits() == 1)
      ops.push_back(op);
  });
  return ops;
}

bool contiguous(Value v) {
  return cast<MemRefType>(v.getType()).getLayout().isIdentity();
}

/// Pooling (PoolToLinalg.cpp): a linalg.generic whose library_call is
/// "tfc_rt_<op>(kh,kw,sh,sw,pt,pl)" becomes a call of the runtime's kernel
/// `tfc_rt_<op>_f32(operands..., result, kh, kw, sh, sw, pt, pl)`; its
/// operands are the buffers the body reads, any layout (the runtime packs a
/// strided one), and it writes every element of the result.
void poolsToCalls(ModuleOp module) {
  SmallVector<linalg::GenericOp> pools;
  module.walk([&](linalg::GenericOp op) {
    std::optional<StringRef> call = op.getLibraryCall();
    if (call && call->starts_with("tfc_rt_") && call->contains("pool2d") &&
        call->ends_with(")"))
      pools.push_back(op);
  });
  for (linalg::GenericOp op : pools) {
    if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
      continue;
    StringRef call = *op.getLibraryCall();
    auto [name, rest] = call.split('(');
    SmallVector<int64_t> params;
    for (StringRef field : llvm::split(rest.drop_back(), ','))
      if (int64_t v; !field.getAsInteger(10, v))
        params.push_back(v);
    Value out = op.getDpsInits()[0];
    auto outType = cast<MemRefType>(out.getType());
    Type elt = outType.getElementType();
    if (params.size() != 6 || !(elt.isF32() || elt.isF64()) ||
        !outType.getLayout().isIdentity())
      continue;
    OpBuilder b(op);
    Location loc = op.getLoc();
    std::string fnName = (name + (elt.isF32() ? "_f32" : "_f64")).str();
    MemRefType view = anyView4(elt);
    // The operands are the buffers the body reads from outside, in the
    // order it first reads them (the lowering reads the input before dy
    // or grad); canonicalization may have dropped them as generic inputs.
    llvm::SetVector<Value> read = bodyReads(op);
    // Where folding removed a read the kernel needs (a 1x1 window's max
    // needs no comparison), the loops stay: they are cheap there.
    unsigned want = name.ends_with("_grad") && name.contains("max") ? 2
                    : name.ends_with("_grad_grad")                  ? 2
                                                                    : 1;
    if (read.size() != want ||
        (name == "tfc_rt_max_pool2d_grad" &&
         cast<MemRefType>(read[0].getType()).getShape() != outType.getShape()))
      continue;
    SmallVector<Value> args;
    for (Value v : read)
      args.push_back(memref::CastOp::create(b, loc, view, v));
    args.push_back(memref::CastOp::create(b, loc, view, out));
    for (int64_t v : params)
      args.push_back(i64Constant(b, loc, v));
    replaceByCall(module, op, fnName, args);
  }
}

/// tfc.gather's generic (library_call "tfc_rt_gather(<axis>)"; the indices
/// its input, params read in its body) -> the runtime's row copy on flat
/// views: params [outer, n, inner] by the dims around the axis, the indices
/// [m], out [outer, m, inner].
void gathersToCalls(ModuleOp module) {
  for (linalg::GenericOp op : tagged(module, "tfc_rt_gather")) {
    SmallVector<int64_t> params = *callParams(op, "tfc_rt_gather");
    llvm::SetVector<Value> read = bodyReads(op);
    if (params.size() != 1 || op.getNumDpsInputs() != 1 || read.size() != 1)
      continue;
    int64_t axis = params[0];
    Value table = read[0], ids = op.getDpsInputs()[0],
          out = op.getDpsInits()[0];
    auto pt = cast<MemRefType>(table.getType());
    std::string te = typeSuffix(pt.getElementType()),
                ti = typeSuffix(
                    cast<MemRefType>(ids.getType()).getElementType());
    if (te.empty() || (ti != "i32" && ti != "i64") || !contiguous(table) ||
        !contiguous(ids) || !contiguous(out) || axis >= pt.getRank())
      continue;
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> args = {
        flatView(b, loc, table),
        flatView(b, loc, ids),
        flatView(b, loc, out),
        dimProduct(b, loc, table, 0, axis),
        dimProduct(b, loc, table, axis, axis + 1),
        dimProduct(b, loc, table, axis + 1, pt.getRank())};
    replaceByCall(module, op, "tfc_rt_gather_" + te + "_" + ti, args);
  }
}

/// tfc.unsorted_segment_sum's generic (library_call
/// "tfc_rt_unsorted_segment_sum"; inputs ids [m] and data [m, inner...],
/// out [n, inner...]) -> the runtime's scatter-add on flat views, which also
/// zeroes out (the fill before goes).
void segmentSumsToCalls(ModuleOp module) {
  for (linalg::GenericOp op : tagged(module, "tfc_rt_unsorted_segment_sum")) {
    if (op.getNumDpsInputs() != 2)
      continue;
    Value ids = op.getDpsInputs()[0], data = op.getDpsInputs()[1],
          out = op.getDpsInits()[0];
    auto ot = cast<MemRefType>(out.getType());
    std::string te = typeSuffix(ot.getElementType()),
                ti = typeSuffix(
                    cast<MemRefType>(ids.getType()).getElementType());
    if (te.empty() || te == "i1" || (ti != "i32" && ti != "i64") ||
        !contiguous(ids) || !contiguous(data) || !contiguous(out))
      continue;
    if (auto fill = dyn_cast_or_null<linalg::FillOp>(op->getPrevNode()))
      if (fill.getOutputs()[0] == out &&
          (matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ||
           matchPattern(fill.getInputs()[0], m_Zero())))
        fill.erase();
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> args = {flatView(b, loc, ids), flatView(b, loc, data),
                               flatView(b, loc, out),
                               dimProduct(b, loc, out, 0, 1),
                               dimProduct(b, loc, out, 1, ot.getRank())};
    replaceByCall(module, op, "tfc_rt_unsorted_segment_sum_" + te + "_" + ti,
                  args);
  }
}

/// tfc.cumsum's generic ("tfc_rt_cumsum(axis,exclusive,reverse)", the
/// operand read in its body) -> the runtime's linear scan on flat views.
void cumsumsToCalls(ModuleOp module) {
  for (linalg::GenericOp op : tagged(module, "tfc_rt_cumsum")) {
    SmallVector<int64_t> params = *callParams(op, "tfc_rt_cumsum");
    llvm::SetVector<Value> read = bodyReads(op);
    Value out = op.getDpsInits()[0];
    if (params.size() != 3 || read.size() != 1 || !contiguous(read[0]) ||
        !contiguous(out))
      continue;
    auto xt = cast<MemRefType>(read[0].getType());
    std::string te = typeSuffix(xt.getElementType());
    if (te.empty() || te == "i1" || params[0] >= xt.getRank())
      continue;
    OpBuilder b(op);
    Location loc = op.getLoc();
    SmallVector<Value> args = {
        flatView(b, loc, read[0]),
        flatView(b, loc, out),
        dimProduct(b, loc, read[0], 0, params[0]),
        dimProduct(b, loc, read[0], params[0], params[0] + 1),
        dimProduct(b, loc, read[0], params[0] + 1, xt.getRank()),
        i64Constant(b, loc, params[1]),
        i64Constant(b, loc, params[2])};
    replaceByCall(module, op, "tfc_rt_cumsum_" + te, args);
  }
}

/// tfc.top_k_indices' generic ("tfc_rt_top_k_indices", the operand read in
/// its body) -> the runtime's partial sort per row.
void topKsToCalls(ModuleOp module) {
  for (linalg::GenericOp op : tagged(module, "tfc_rt_top_k_indices")) {
    llvm::SetVector<Value> read = bodyReads(op);
    Value out = op.getDpsInits()[0];
    if (read.size() != 1 || !contiguous(read[0]) || !contiguous(out))
      continue;
    auto xt = cast<MemRefType>(read[0].getType());
    std::string te = typeSuffix(xt.getElementType());
    if (te.empty() || te == "i1")
      continue;
    OpBuilder b(op);
    Location loc = op.getLoc();
    int64_t r = xt.getRank();
    SmallVector<Value> args = {flatView(b, loc, read[0]), flatView(b, loc, out),
                               dimProduct(b, loc, read[0], 0, r - 1),
                               dimProduct(b, loc, read[0], r - 1, r),
                               dimProduct(b, loc, out, r - 1, r)};
    replaceByCall(module, op, "tfc_rt_top_k_indices_" + te, args);
  }
}

/// tfc.philox_random's generic (the state [2] its input twice, out [n];
/// library_call "tfc_rt_philox_random(<distribution>)") -> the runtime's
/// philox_fill: the eager kernel's bits.
void randomsToCalls(ModuleOp module) {
  for (linalg::GenericOp op : tagged(module, "tfc_rt_philox_random")) {
    SmallVector<int64_t> params = *callParams(op, "tfc_rt_philox_random");
    if (params.size() != 1 || op.getNumDpsInputs() != 2)
      continue;
    Value state = op.getDpsInputs()[0], out = op.getDpsInits()[0];
    auto ot = cast<MemRefType>(out.getType());
    if (ot.getRank() != 1 || cast<MemRefType>(state.getType()).getRank() != 1)
      continue;
    OpBuilder b(op);
    Location loc = op.getLoc();
    // Any 1-d layout: the runtime reads the state's stride and copies a
    // strided result.
    int64_t dyn = ShapedType::kDynamic;
    auto view = [&](Type t) {
      return MemRefType::get(
          {dyn}, t,
          StridedLayoutAttr::get(b.getContext(), dyn, ArrayRef<int64_t>{dyn}));
    };
    SmallVector<Value> args = {
        memref::CastOp::create(b, loc, view(b.getI64Type()), state),
        memref::CastOp::create(b, loc, view(ot.getElementType()), out),
        i64Constant(b, loc, params[0])};
    replaceByCall(module, op,
                  std::string("tfc_rt_philox_random_") +
                      (ot.getElementType().isF32() ? "f32" : "f64"),
                  args);
  }
}

/// True when `op` writes no buffer that may be `root`'s: it has no memory
/// effects, or only allocates/frees, or is a linalg op whose outputs are
/// other fresh allocations.
bool leavesAlone(Operation *op, Value root) {
  if (isMemoryEffectFree(op) || isa<memref::AllocOp, memref::AllocaOp>(op))
    return true;
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
    return rootBuffer(dealloc.getMemref()) != root;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return llvm::all_of(linalgOp.getDpsInits(), [&](Value out) {
      Value r = rootBuffer(out);
      return r != root && r.getDefiningOp<memref::AllocOp>();
    });
  return false;
}

/// When `v` is a transposed copy of a 2-d buffer that `user` alone reads
/// (a matmul gradient's A^T or B^T), made in the same block with nothing
/// writing the source in between: a transposed view of the source, made
/// just before `user`; the copy goes, and its buffer, unless reused later,
/// is left in `dead` for the caller to erase after `user`. The GEMM then reads
/// the source through BLAS's transpose flag. Else null, nothing changed.
Value foldTransposedCopy(Value v, Operation *user,
                         SmallVectorImpl<Operation *> &dead) {
  auto alloc = v.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != user->getBlock())
    return {};
  // Its users: the copy, `user`, deallocs, and (bufferization reuses
  // buffers) later ops that overwrite it whole before reading it.
  Block *block = user->getBlock();
  linalg::GenericOp copy;
  SmallVector<Operation *> deallocs;
  Operation *nextWriter = nullptr;
  for (OpOperand &use : alloc->getUses()) {
    Operation *u = use.getOwner();
    Operation *at = block->findAncestorOpInBlock(*u);
    if (!at)
      return {};
    if (u == user)
      continue;
    if (isa<memref::DeallocOp>(u)) {
      deallocs.push_back(u);
    } else if (at->isBeforeInBlock(user)) {
      auto g = dyn_cast<linalg::GenericOp>(u);
      if (!g || copy)
        return {};
      copy = g;
    } else if (!nextWriter || at->isBeforeInBlock(nextWriter) ||
               at == nextWriter) {
      nextWriter = at;
    }
  }
  if (!copy)
    return {};
  if (nextWriter) {
    auto w = dyn_cast<linalg::LinalgOp>(nextWriter);
    if (!w || w.getNumParallelLoops() != w.getNumLoops() ||
        llvm::is_contained(w.getDpsInputs(), v))
      return {};
    for (OpOperand &init : w.getDpsInitsMutable())
      if (init.get() == v && (w.payloadUsesValueFromOperand(&init) ||
                              !w.getMatchingIndexingMap(&init).isPermutation()))
        return {};
    if (!llvm::is_contained(w.getDpsInits(), v))
      return {};
  }
  MLIRContext *ctx = v.getContext();
  AffineMap swap = AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, ctx);
  if (copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      copy.getDpsInits()[0] != v || copy.getNumLoops() != 2 ||
      copy.getNumParallelLoops() != 2 ||
      copy.getIndexingMapsArray()[0] != swap ||
      !copy.getIndexingMapsArray()[1].isIdentity())
    return {};
  Block &body = copy.getRegion().front();
  auto yield = cast<linalg::YieldOp>(body.getTerminator());
  if (body.getOperations().size() != 1 ||
      yield.getValues()[0] != body.getArgument(0))
    return {};
  Value source = copy.getDpsInputs()[0];
  Value root = rootBuffer(source);
  for (Operation *op = copy->getNextNode(); op != user; op = op->getNextNode())
    if (!leavesAlone(op, root))
      return {};
  copy.erase();
  if (!nextWriter) {
    for (Operation *d : deallocs)
      d->erase();
    dead.push_back(alloc);
  }
  OpBuilder b(user);
  return memref::TransposeOp::create(b, user->getLoc(), source,
                                     AffineMapAttr::get(swap));
}

struct TfcLinalgToBlasPass
    : public tfc::impl::TfcLinalgToBlasPassBase<TfcLinalgToBlasPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    convsToCalls(module, static_cast<int64_t>(minWork));
    if (kernelCalls) {
      poolsToCalls(module);
      segmentSumsToCalls(module);
      gathersToCalls(module);
      cumsumsToCalls(module);
      topKsToCalls(module);
      randomsToCalls(module);
    }
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
      if (Operation *zeroing = zeroingBefore(op, c)) {
        zeroing->erase();
        betaValue = 0.0;
      }
      SmallVector<Operation *> dead;
      if (a != b) {
        if (Value view = foldTransposedCopy(a, op, dead))
          a = view;
        if (Value view = foldTransposedCopy(b, op, dead))
          b = view;
      }
      Value ca = cast(a), cb = cast(b), cc = cast(c);
      Value beta = arith::ConstantOp::create(
          builder, loc, builder.getFloatAttr(elt, betaValue));
      func::CallOp::create(builder, loc, gemm, ValueRange{ca, cb, cc, beta});
      op.erase();
      for (Operation *alloc : dead)
        alloc->erase();
    }
  }
};

} // namespace
