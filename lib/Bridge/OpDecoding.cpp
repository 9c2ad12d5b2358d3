//===- OpDecoding.cpp - A tfc op as (OpKind, OpAttrs) ---------------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
#include "tfc/Bridge/OpDecoding.h"

#include "tfc/Bridge/Types.h"

namespace tfc::bridge {

std::optional<OpKind> kernelOpKind(mlir::Operation *op) {
  mlir::OperationName name = op->getName();
  if (name.getDialectNamespace() != "tfc")
    return std::nullopt;
  llvm::StringRef mnemonic = name.stripDialect();
  return op_kind_from_name(std::string_view(mnemonic.data(), mnemonic.size()));
}

kernels::CmpPredicate toKernelPredicate(mlir::tfc::CmpPredicate predicate) {
  switch (predicate) {
  case mlir::tfc::CmpPredicate::eq:
    return kernels::CmpPredicate::EQ;
  case mlir::tfc::CmpPredicate::ne:
    return kernels::CmpPredicate::NE;
  case mlir::tfc::CmpPredicate::lt:
    return kernels::CmpPredicate::LT;
  case mlir::tfc::CmpPredicate::le:
    return kernels::CmpPredicate::LE;
  case mlir::tfc::CmpPredicate::gt:
    return kernels::CmpPredicate::GT;
  case mlir::tfc::CmpPredicate::ge:
    return kernels::CmpPredicate::GE;
  }
  return kernels::CmpPredicate::EQ;
}

mlir::tfc::CmpPredicate toDialectPredicate(kernels::CmpPredicate predicate) {
  switch (predicate) {
  case kernels::CmpPredicate::EQ:
    return mlir::tfc::CmpPredicate::eq;
  case kernels::CmpPredicate::NE:
    return mlir::tfc::CmpPredicate::ne;
  case kernels::CmpPredicate::LT:
    return mlir::tfc::CmpPredicate::lt;
  case kernels::CmpPredicate::LE:
    return mlir::tfc::CmpPredicate::le;
  case kernels::CmpPredicate::GT:
    return mlir::tfc::CmpPredicate::gt;
  case kernels::CmpPredicate::GE:
    return mlir::tfc::CmpPredicate::ge;
  }
  return mlir::tfc::CmpPredicate::eq;
}

std::optional<DecodedOp> decodeKernelOp(mlir::Operation *op, std::string &why) {
  std::optional<OpKind> kind = kernelOpKind(op);
  if (!kind) {
    why = "has no runtime kernel";
    return std::nullopt;
  }
  if (op->getNumResults() != 1) {
    why = "expected one result";
    return std::nullopt;
  }
  auto resultType =
      llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
  if (!resultType) {
    why = "the result must be a ranked tensor";
    return std::nullopt;
  }
  DecodedOp d;
  d.kind = *kind;
  bool ok = true;
  auto i64Array = [&](llvm::StringRef name) {
    auto attr = op->getAttrOfType<mlir::DenseI64ArrayAttr>(name);
    if (!attr) {
      why = "missing array attribute '" + name.str() + "'";
      ok = false;
      return std::vector<int64_t>();
    }
    return std::vector<int64_t>(attr.asArrayRef().begin(),
                                attr.asArrayRef().end());
  };
  auto i64 = [&](llvm::StringRef name) -> int64_t {
    auto attr = op->getAttrOfType<mlir::IntegerAttr>(name);
    if (!attr) {
      why = "missing integer attribute '" + name.str() + "'";
      ok = false;
      return 0;
    }
    return attr.getInt();
  };
  auto resultDType = [&]() {
    std::optional<DType> dtype = toDType(resultType.getElementType());
    if (!dtype) {
      why = "unsupported result element type";
      ok = false;
      return DType::Float32;
    }
    return *dtype;
  };

  switch (d.kind) {
  case OpKind::Cmp: {
    auto attr = op->getAttrOfType<mlir::IntegerAttr>("predicate");
    std::optional<mlir::tfc::CmpPredicate> p =
        attr ? mlir::tfc::symbolizeCmpPredicate(attr.getInt()) : std::nullopt;
    if (!p) {
      why = "missing or bad 'predicate' attribute";
      return std::nullopt;
    }
    d.attrs.predicate = toKernelPredicate(*p);
    break;
  }
  case OpKind::Cast:
    d.attrs.dtype = resultDType();
    break;
  case OpKind::OneHot:
    d.attrs.dtype = resultDType();
    d.attrs.depth = i64("depth");
    break;
  case OpKind::Reshape:
  case OpKind::BroadcastTo:
    d.attrs.shape = shapeOf(resultType);
    break;
  case OpKind::Transpose:
    d.attrs.axes = i64Array("perm");
    break;
  case OpKind::PhiloxRandom: {
    d.attrs.shape = shapeOf(resultType);
    d.attrs.dtype = resultDType();
    auto dist = op->getAttrOfType<mlir::StringAttr>("distribution");
    if (!dist || (dist.getValue() != "uniform" && dist.getValue() != "normal" &&
                  dist.getValue() != "truncated_normal")) {
      why = "missing or bad 'distribution' attribute";
      return std::nullopt;
    }
    d.attrs.distribution = dist.getValue() == "uniform"
                               ? kernels::RandomDistribution::Uniform
                           : dist.getValue() == "normal"
                               ? kernels::RandomDistribution::Normal
                               : kernels::RandomDistribution::TruncatedNormal;
    break;
  }
  case OpKind::AllReduce: {
    auto op_ = op->getAttrOfType<mlir::StringAttr>("reduce_op");
    if (!op_ || (op_.getValue() != "sum" && op_.getValue() != "mean")) {
      why = "missing or bad 'reduce_op' attribute";
      return std::nullopt;
    }
    d.attrs.reduce_op = op_.getValue() == "mean" ? distribute::ReduceOp::Mean
                                                 : distribute::ReduceOp::Sum;
    break;
  }
  case OpKind::Cumsum: {
    d.attrs.axis = i64("axis");
    auto excl = op->getAttrOfType<mlir::BoolAttr>("exclusive");
    auto rev = op->getAttrOfType<mlir::BoolAttr>("reverse");
    if (!excl || !rev) {
      why = "missing bool attribute 'exclusive' or 'reverse'";
      return std::nullopt;
    }
    d.attrs.exclusive = excl.getValue();
    d.attrs.reverse = rev.getValue();
    break;
  }
  case OpKind::TopKIndices:
    d.attrs.k = i64("k");
    break;
  case OpKind::UnsortedSegmentSum:
    d.attrs.num_segments = i64("num_segments");
    break;
  case OpKind::Gather:
  case OpKind::ExpandDims:
  case OpKind::Concat:
  case OpKind::Argmax:
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
    d.attrs.axis = i64("axis");
    break;
  case OpKind::Squeeze:
    d.attrs.axes = i64Array("axes");
    d.identity = d.attrs.axes.empty();
    break;
  case OpKind::Slice:
    d.attrs.begin = i64Array("begin");
    d.attrs.shape = i64Array("size");
    break;
  case OpKind::Conv2D:
  case OpKind::Conv2DBackpropInput:
  case OpKind::Conv2DBackpropFilter:
  case OpKind::MaxPool2D:
  case OpKind::AvgPool2D:
  case OpKind::MaxPool2DGrad:
  case OpKind::MaxPool2DGradGrad:
  case OpKind::AvgPool2DGrad: {
    bool pool = d.kind != OpKind::Conv2D &&
                d.kind != OpKind::Conv2DBackpropInput &&
                d.kind != OpKind::Conv2DBackpropFilter;
    if (d.kind == OpKind::Conv2DBackpropInput ||
        d.kind == OpKind::Conv2DBackpropFilter ||
        d.kind == OpKind::AvgPool2DGrad)
      d.attrs.shape = shapeOf(resultType);
    d.attrs.strides = i64Array("strides");
    if (pool)
      d.attrs.ksize = i64Array("ksize");
    else
      d.attrs.dilations = i64Array("dilations");
    auto padding = op->getAttrOfType<mlir::StringAttr>("padding");
    if (!padding ||
        (padding.getValue() != "SAME" && padding.getValue() != "VALID")) {
      why = "missing or bad 'padding' attribute";
      return std::nullopt;
    }
    d.attrs.padding =
        padding.getValue() == "SAME" ? Padding::Same : Padding::Valid;
    break;
  }
  case OpKind::ReduceSum:
  case OpKind::ReduceMean:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd: {
    d.attrs.axes = i64Array("axes");
    auto keep = op->getAttrOfType<mlir::BoolAttr>("keepdims");
    if (!keep) {
      why = "missing bool attribute 'keepdims'";
      return std::nullopt;
    }
    d.attrs.keepdims = keep.getValue();
    d.identity = d.attrs.axes.empty();
    break;
  }
  default:
    break;
  }
  if (!ok)
    return std::nullopt;
  return d;
}

} // namespace tfc::bridge
