//===- Ops.cpp - The op table: one kernel call per op ---------------------===//
//
// `execute` names every kernel; it is registered as the eager executor
// (OpNames.cpp) when this object is linked, so code that only builds IR from
// dispatched ops (the autodiff pass in tfc-opt) links no kernel.

#include "tfc/runtime/Ops.h"

#include "Internal.h"

#include <array>

using namespace tfc;
using namespace tfc::detail;

namespace {

[[noreturn]] [[gnu::cold]] void failArity(OpKind kind, size_t want,
                                          size_t got) {
  fail(op_name(kind), "expected ", want, want == 1 ? " operand" : " operands",
       ", got ", got);
}

inline void arity(OpKind kind, size_t want, size_t got) {
  if (want != got) [[unlikely]]
    failArity(kind, want, got);
}

/// A (height, width) pair of a window op's attributes.
std::array<int64_t, 2> window(OpKind kind, const std::vector<int64_t> &v,
                              const char *what) {
  if (v.size() != 2)
    fail(op_name(kind), "expected 2 ", what, " (height, width), got ",
         v.size());
  return {v[0], v[1]};
}

} // namespace

Tensor tfc::execute(OpKind kind, const Tensor *in, size_t n,
                    const OpAttrs &attrs) {
  using namespace tfc::kernels;
  if (n && !in)
    fail(op_name(kind), "null operand array with ", n, " operands");
  switch (kind) {
#define TFC_UNARY(E, fn)                                                       \
  case OpKind::E:                                                              \
    arity(kind, 1, n);                                                         \
    return fn(in[0]);
    TFC_FOR_EACH_UNARY_ELEMENTWISE_OP(TFC_UNARY)
#undef TFC_UNARY
#define TFC_BINARY(E, fn)                                                      \
  case OpKind::E:                                                              \
    arity(kind, 2, n);                                                         \
    return fn(in[0], in[1]);
    TFC_FOR_EACH_BINARY_ELEMENTWISE_OP(TFC_BINARY)
    TFC_BINARY(Matmul, matmul)
    TFC_BINARY(SoftmaxCrossEntropy, softmax_cross_entropy_with_logits)
#undef TFC_BINARY
  case OpKind::Cmp:
    arity(kind, 2, n);
    return compare(attrs.predicate, in[0], in[1]);
  case OpKind::Select:
    arity(kind, 3, n);
    return select(in[0], in[1], in[2]);
  case OpKind::Cast:
    arity(kind, 1, n);
    return cast(in[0], attrs.dtype);
  case OpKind::BroadcastTo:
    arity(kind, 1, n);
    return broadcast_to(in[0], attrs.shape);
  case OpKind::Reshape:
    arity(kind, 1, n);
    return reshape(in[0], attrs.shape);
  case OpKind::Transpose:
    arity(kind, 1, n);
    return transpose(in[0], attrs.axes);
  case OpKind::ExpandDims:
    arity(kind, 1, n);
    return expand_dims(in[0], attrs.axis);
  case OpKind::Squeeze:
    arity(kind, 1, n);
    return squeeze(in[0], attrs.axes);
  case OpKind::Concat:
    if (n == 0)
      fail("concat", "expected at least one operand, got 0");
    return concat(std::vector<Tensor>(in, in + n), attrs.axis);
  case OpKind::Slice:
    arity(kind, 1, n);
    return slice(in[0], attrs.begin, attrs.shape);
  case OpKind::ReduceSum:
    arity(kind, 1, n);
    return reduce(ReduceKind::Sum, in[0], attrs.axes, attrs.keepdims);
  case OpKind::ReduceMean:
    arity(kind, 1, n);
    return reduce(ReduceKind::Mean, in[0], attrs.axes, attrs.keepdims);
  case OpKind::ReduceMax:
    arity(kind, 1, n);
    return reduce(ReduceKind::Max, in[0], attrs.axes, attrs.keepdims);
  case OpKind::ReduceMin:
    arity(kind, 1, n);
    return reduce(ReduceKind::Min, in[0], attrs.axes, attrs.keepdims);
  case OpKind::ReduceProd:
    arity(kind, 1, n);
    return reduce(ReduceKind::Prod, in[0], attrs.axes, attrs.keepdims);
  case OpKind::Argmax:
    arity(kind, 1, n);
    return argmax(in[0], attrs.axis);
  case OpKind::Softmax:
    arity(kind, 1, n);
    return softmax(in[0], attrs.axis);
  case OpKind::LogSoftmax:
    arity(kind, 1, n);
    return log_softmax(in[0], attrs.axis);
  case OpKind::OneHot:
    arity(kind, 1, n);
    return one_hot(in[0], attrs.depth, attrs.dtype);
  case OpKind::SparseSoftmaxCrossEntropy:
    arity(kind, 2, n);
    return sparse_softmax_cross_entropy_with_logits(in[0], in[1]);
  case OpKind::Cumsum:
    arity(kind, 1, n);
    return cumsum(in[0], attrs.axis, attrs.exclusive, attrs.reverse);
  case OpKind::TopKIndices:
    arity(kind, 1, n);
    return top_k_indices(in[0], attrs.k);
  case OpKind::PhiloxRandom:
    arity(kind, 1, n);
    return philox_random(in[0], attrs.shape, attrs.dtype, attrs.distribution);
  case OpKind::Gather:
    arity(kind, 2, n);
    return gather(in[0], in[1], attrs.axis);
  case OpKind::UnsortedSegmentSum:
    arity(kind, 2, n);
    return unsorted_segment_sum(in[0], in[1], attrs.num_segments);
  case OpKind::Conv2D:
    arity(kind, 2, n);
    return conv2d(in[0], in[1], window(kind, attrs.strides, "strides"),
                  window(kind, attrs.dilations, "dilations"), attrs.padding);
  case OpKind::Conv2DBackpropInput:
    arity(kind, 2, n);
    return conv2d_backprop_input(
        attrs.shape, in[0], in[1], window(kind, attrs.strides, "strides"),
        window(kind, attrs.dilations, "dilations"), attrs.padding);
  case OpKind::Conv2DBackpropFilter:
    arity(kind, 2, n);
    return conv2d_backprop_filter(
        in[0], attrs.shape, in[1], window(kind, attrs.strides, "strides"),
        window(kind, attrs.dilations, "dilations"), attrs.padding);
  case OpKind::MaxPool2D:
    arity(kind, 1, n);
    return max_pool2d(in[0], window(kind, attrs.ksize, "ksize"),
                      window(kind, attrs.strides, "strides"), attrs.padding);
  case OpKind::AvgPool2D:
    arity(kind, 1, n);
    return avg_pool2d(in[0], window(kind, attrs.ksize, "ksize"),
                      window(kind, attrs.strides, "strides"), attrs.padding);
  case OpKind::MaxPool2DGrad:
    arity(kind, 2, n);
    return max_pool2d_grad(in[0], in[1], window(kind, attrs.ksize, "ksize"),
                           window(kind, attrs.strides, "strides"),
                           attrs.padding);
  case OpKind::MaxPool2DGradGrad:
    arity(kind, 2, n);
    return max_pool2d_grad_grad(
        in[0], in[1], window(kind, attrs.ksize, "ksize"),
        window(kind, attrs.strides, "strides"), attrs.padding);
  case OpKind::AvgPool2DGrad:
    arity(kind, 1, n);
    return avg_pool2d_grad(
        attrs.shape, in[0], window(kind, attrs.ksize, "ksize"),
        window(kind, attrs.strides, "strides"), attrs.padding);
  case OpKind::AllReduce:
    arity(kind, 1, n);
    return all_reduce(in[0], attrs.reduce_op);
  case OpKind::StopGradient:
    arity(kind, 1, n);
    require_concrete("stop_gradient", in[0]);
    return alias(in[0], in[0].shape()); // Identity (a fresh handle).
  }
  fail("execute", "invalid op kind ", static_cast<int>(kind));
}

namespace {
/// Links the table to the dispatch funnel's eager path (OpNames.cpp).
[[maybe_unused]] const bool registered = [] {
  tfc::detail::set_eager_executor(&tfc::execute);
  return true;
}();
} // namespace
