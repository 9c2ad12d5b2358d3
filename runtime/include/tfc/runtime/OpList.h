//===- OpList.h - Every runtime op, once ------------------------*- C++ -*-===//
//
// The one list of the ops that have a runtime kernel. Each entry is
// X(Enum, mnemonic): `OpKind::Enum`, the dialect op `tfc.mnemonic` and the
// name in messages (#mnemonic). The two elementwise families also fix the
// kernel's name and signature, so an op added to them needs no further
// entry in the op table, the kernel declarations, the eager API's
// definitions or the tracer (docs/adding-an-op.md):
//   unary:  Tensor kernels::mnemonic(const Tensor &x)
//           Tensor tfc::mnemonic(const Tensor &x, source_location)
//   binary: Tensor kernels::mnemonic(const Tensor &a, const Tensor &b)
//           Tensor tfc::mnemonic(const Tensor &a, const Tensor &b, ...)
//           (NumPy broadcasting; the tracer inserts tfc.broadcast_to)
// Macros only: included by Ops.h and Kernels.h.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_OPLIST_H
#define TFC_RUNTIME_OPLIST_H

/// Elementwise, one operand, result of the operand's type.
#define TFC_FOR_EACH_UNARY_ELEMENTWISE_OP(X)                                   \
  X(Neg, neg)                                                                  \
  X(Abs, abs)                                                                  \
  X(Exp, exp)                                                                  \
  X(Log, log)                                                                  \
  X(Log1p, log1p)                                                              \
  X(Sqrt, sqrt)                                                                \
  X(Square, square)                                                            \
  X(Sin, sin)                                                                  \
  X(Cos, cos)                                                                  \
  X(Tanh, tanh)                                                                \
  X(Sigmoid, sigmoid)                                                          \
  X(Relu, relu)                                                                \
  X(Floor, floor)                                                              \
  X(Erf, erf)                                                                  \
  X(LogicalNot, logical_not)

/// Elementwise, two operands of one dtype (broadcasting), result of the
/// operands' type.
#define TFC_FOR_EACH_BINARY_ELEMENTWISE_OP(X)                                  \
  X(Add, add)                                                                  \
  X(Sub, sub)                                                                  \
  X(Mul, mul)                                                                  \
  X(Div, div)                                                                  \
  X(Pow, pow)                                                                  \
  X(Maximum, maximum)                                                          \
  X(Minimum, minimum)                                                          \
  X(FloorDiv, floor_div)                                                       \
  X(Mod, mod)                                                                  \
  X(LogicalAnd, logical_and)                                                   \
  X(LogicalOr, logical_or)

/// Every other op: its own case in execute(), the tracer and the decoder.
#define TFC_FOR_EACH_OTHER_OP(X)                                               \
  X(Cmp, cmp)                                                                  \
  X(Select, select)                                                            \
  X(Cast, cast)                                                                \
  X(BroadcastTo, broadcast_to)                                                 \
  X(Reshape, reshape)                                                          \
  X(Transpose, transpose)                                                      \
  X(ExpandDims, expand_dims)                                                   \
  X(Squeeze, squeeze)                                                          \
  X(Concat, concat)                                                            \
  X(Slice, slice)                                                              \
  X(Matmul, matmul)                                                            \
  X(ReduceSum, reduce_sum)                                                     \
  X(ReduceMean, reduce_mean)                                                   \
  X(ReduceMax, reduce_max)                                                     \
  X(ReduceMin, reduce_min)                                                     \
  X(ReduceProd, reduce_prod)                                                   \
  X(Argmax, argmax)                                                            \
  X(Softmax, softmax)                                                          \
  X(LogSoftmax, log_softmax)                                                   \
  X(OneHot, one_hot)                                                           \
  X(Gather, gather)                                                            \
  X(UnsortedSegmentSum, unsorted_segment_sum)                                  \
  X(PhiloxRandom, philox_random)                                               \
  X(SoftmaxCrossEntropy, softmax_cross_entropy)                                \
  X(SparseSoftmaxCrossEntropy, sparse_softmax_cross_entropy)                   \
  X(Cumsum, cumsum)                                                            \
  X(TopKIndices, top_k_indices)                                                \
  X(Conv2D, conv2d)                                                            \
  X(Conv2DBackpropInput, conv2d_backprop_input)                                \
  X(Conv2DBackpropFilter, conv2d_backprop_filter)                              \
  X(MaxPool2D, max_pool2d)                                                     \
  X(AvgPool2D, avg_pool2d)                                                     \
  X(MaxPool2DGrad, max_pool2d_grad)                                            \
  X(MaxPool2DGradGrad, max_pool2d_grad_grad)                                   \
  X(AvgPool2DGrad, avg_pool2d_grad)                                            \
  X(StopGradient, stop_gradient)                                               \
  X(AllReduce, all_reduce)

#define TFC_FOR_EACH_OP(X)                                                     \
  TFC_FOR_EACH_UNARY_ELEMENTWISE_OP(X)                                         \
  TFC_FOR_EACH_BINARY_ELEMENTWISE_OP(X)                                        \
  TFC_FOR_EACH_OTHER_OP(X)

#endif // TFC_RUNTIME_OPLIST_H
