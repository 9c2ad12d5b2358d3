//===- GradientRules.cpp - One gradient rule per differentiable op --------===//
//
// Each rule is written once, with the public tfc ops. Every op goes through
// detail::dispatch, so a rule runs kernels when called eagerly and builds tfc
// IR when called while a tfc::function is being traced: one definition of each
// rule serves the eager tape and compiled gradients (DESIGN.md, "One
// definition of each thing"), as TensorFlow's gradient functions are written
// in TensorFlow ops. Because the backward pass is made of ordinary ops, an
// outer tape records it and higher derivatives come for free; rules that
// reuse the forward output (exp, tanh, sigmoid, ...) stay differentiable
// because that output is itself recorded.
//
// Non-differentiable ops are declared so in `gradient_rule`: no gradient
// flows through them (a tape reports zeros), as in TensorFlow.
//
//===----------------------------------------------------------------------===//
#include "tfc/frontend/Gradients.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Distribute.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"

#include <numeric>
#include <string>

using namespace tfc;
using namespace tfc::detail;

namespace {

using Grads = std::vector<Tensor>;

const Tensor &in(const GradientContext &c, size_t i) { return c.inputs[i]; }

/// The output gradient of a reduction reshaped so that it broadcasts against
/// the input (its reduced dims are size 1).
Tensor keepReducedDims(const GradientContext &c, const Tensor &dy) {
  if (c.attrs.keepdims)
    return dy;
  std::vector<int64_t> shape = in(c, 0).shape();
  if (!std::count(shape.begin(), shape.end(), -1)) {
    for (int64_t a : c.attrs.axes)
      shape[static_cast<size_t>(a)] = 1;
    return reshape(dy, shape);
  }
  // expand_dims, not a reshape: the input may have several dynamic dims.
  std::vector<int64_t> axes = c.attrs.axes;
  std::sort(axes.begin(), axes.end());
  Tensor kept = dy;
  for (int64_t a : axes)
    kept = expand_dims(kept, a);
  return kept;
}

/// The forward output of a reduction with its reduced dims kept.
Tensor keepReducedOutput(const GradientContext &c) {
  return keepReducedDims(c, c.output);
}

/// The number of elements each output element of a reduction summarises.
/// The number of elements each output of a reduction summarises: a constant,
/// or with a dynamic reduced dim a tensor counted at run time.
Tensor reducedCount(const GradientContext &c) {
  const Tensor &x = in(c, 0);
  int64_t count = 1;
  bool dynamic = false;
  for (int64_t a : c.attrs.axes) {
    int64_t d = x.shape()[static_cast<size_t>(a)];
    dynamic |= d < 0;
    count *= d < 0 ? 1 : d;
  }
  if (!dynamic)
    return full({}, static_cast<double>(count), x.dtype());
  Tensor one = full(std::vector<int64_t>(size_t(x.rank()), 1), 1.0, x.dtype());
  return reduce_sum(broadcast_like(one, x), c.attrs.axes, /*keepdims=*/true);
}

/// abs's slope: 1, 0 (at 0 and NaN) or -1, as x's dtype.
Tensor absSlope(const Tensor &x) {
  return cast(greater(x, 0), x.dtype()) - cast(less(x, 0), x.dtype());
}

/// Matrix transpose of the last two dims.
Tensor transposeLast2(const Tensor &x) {
  std::vector<int64_t> perm(static_cast<size_t>(x.rank()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return transpose(x, perm);
}

// --- Unary -------------------------------------------------------------------

Grads negGrad(const GradientContext &, const Tensor &dy) { return {neg(dy)}; }

Grads absGrad(const GradientContext &c, const Tensor &dy) {
  return {dy * absSlope(in(c, 0))};
}

Grads expGrad(const GradientContext &c, const Tensor &dy) {
  return {dy * c.output};
}

Grads logGrad(const GradientContext &c, const Tensor &dy) {
  return {dy / in(c, 0)};
}

Grads log1pGrad(const GradientContext &c, const Tensor &dy) {
  return {dy / (1 + in(c, 0))};
}

Grads sqrtGrad(const GradientContext &c, const Tensor &dy) {
  return {dy / (2 * c.output)};
}

Grads squareGrad(const GradientContext &c, const Tensor &dy) {
  return {dy * (2 * in(c, 0))};
}

Grads sinGrad(const GradientContext &c, const Tensor &dy) {
  return {dy * cos(in(c, 0))};
}

Grads cosGrad(const GradientContext &c, const Tensor &dy) {
  return {neg(dy * sin(in(c, 0)))};
}

Grads tanhGrad(const GradientContext &c, const Tensor &dy) {
  return {dy * (1 - square(c.output))};
}

Grads sigmoidGrad(const GradientContext &c, const Tensor &dy) {
  return {dy * (c.output * (1 - c.output))};
}

Grads reluGrad(const GradientContext &c, const Tensor &dy) {
  return {where(greater(in(c, 0), 0), dy, 0)};
}

// --- Binary (broadcasting: each gradient is un-broadcast to its input) -------

Grads addGrad(const GradientContext &c, const Tensor &dy) {
  return {unbroadcast(dy, in(c, 0).shape()), unbroadcast(dy, in(c, 1).shape())};
}

Grads subGrad(const GradientContext &c, const Tensor &dy) {
  return {unbroadcast(dy, in(c, 0).shape()),
          unbroadcast(neg(dy), in(c, 1).shape())};
}

Grads mulGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &a = in(c, 0), &b = in(c, 1);
  return {unbroadcast(dy * b, a.shape()), unbroadcast(dy * a, b.shape())};
}

Grads divGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &a = in(c, 0), &b = in(c, 1);
  return {unbroadcast(dy / b, a.shape()),
          unbroadcast(neg(dy) * a / (b * b), b.shape())};
}

Grads powGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &a = in(c, 0), &b = in(c, 1);
  Tensor da = dy * b * pow(a, b - 1);
  // d/db a^b = a^b log(a), taken as 0 where a <= 0 (as TensorFlow does). The
  // inner where keeps log away from non-positive values, so the gradient of
  // this gradient has no NaN either.
  Tensor positive = greater(a, 0);
  Tensor logA = where(positive, log(where(positive, a, 1)), 0);
  Tensor db = dy * c.output * logA;
  return {unbroadcast(da, a.shape()), unbroadcast(db, b.shape())};
}

/// floor-mod: x - floor(x / y) y, so d/dx = 1 and d/dy = -floor(x / y) away
/// from the jumps (TensorFlow's FloorMod gradient).
Grads modGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &a = in(c, 0), &b = in(c, 1);
  return {unbroadcast(dy, a.shape()),
          unbroadcast(neg(dy * floor_div(a, b)), b.shape())};
}

/// maximum/minimum: the gradient goes to `a` where `aWins` (ties go to a, as
/// TensorFlow's), else to `b`.
Grads selectBetween(const GradientContext &c, const Tensor &dy,
                    const Tensor &aWins) {
  return {unbroadcast(where(aWins, dy, 0), in(c, 0).shape()),
          unbroadcast(where(aWins, 0, dy), in(c, 1).shape())};
}

Grads maximumGrad(const GradientContext &c, const Tensor &dy) {
  return selectBetween(c, dy, greater_equal(in(c, 0), in(c, 1)));
}

Grads minimumGrad(const GradientContext &c, const Tensor &dy) {
  return selectBetween(c, dy, less_equal(in(c, 0), in(c, 1)));
}

Grads selectGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &pred = in(c, 0);
  return {Tensor(), unbroadcast(where(pred, dy, 0), in(c, 1).shape()),
          unbroadcast(where(pred, 0, dy), in(c, 2).shape())};
}

Grads castGrad(const GradientContext &c, const Tensor &dy) {
  DType from = in(c, 0).dtype();
  if (!is_floating(from) || !is_floating(c.output.dtype()))
    return {Tensor()};
  return {cast(dy, from)};
}

// --- Shape -------------------------------------------------------------------

Grads broadcastToGrad(const GradientContext &c, const Tensor &dy) {
  Grads g{unbroadcast(dy, in(c, 0).shape())};
  if (c.numInputs > 1)
    g.push_back(Tensor()); // `like`: only its shape is read
  return g;
}

/// reshape, expand_dims, squeeze: the gradient is dy in the input's shape.
Grads reshapeGrad(const GradientContext &c, const Tensor &dy) {
  return {reshape(dy, in(c, 0).shape())};
}

Grads transposeGrad(const GradientContext &c, const Tensor &dy) {
  const std::vector<int64_t> &perm = c.attrs.axes;
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inverse[static_cast<size_t>(perm[i])] = static_cast<int64_t>(i);
  return {transpose(dy, inverse)};
}

Grads concatGrad(const GradientContext &c, const Tensor &dy) {
  Grads grads;
  const size_t axis = static_cast<size_t>(c.attrs.axis);
  std::vector<int64_t> begin(dy.shape().size(), 0);
  for (size_t i = 0; i < c.numInputs; ++i) {
    const std::vector<int64_t> &shape = in(c, i).shape();
    grads.push_back(slice(dy, begin, shape));
    begin[axis] += shape[axis];
  }
  return grads;
}

/// The gradient of a slice is dy placed at `begin` in zeros of the input's
/// shape, built one dim at a time by concatenating zero blocks around it.
Grads sliceGrad(const GradientContext &c, const Tensor &dy) {
  const std::vector<int64_t> &shape = in(c, 0).shape();
  const std::vector<int64_t> &begin = c.attrs.begin;
  const std::vector<int64_t> &size = c.attrs.shape;
  Tensor g = dy;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t before = begin[d], after = shape[d] - begin[d] - size[d];
    if (before == 0 && after == 0)
      continue;
    std::vector<Tensor> pieces;
    std::vector<int64_t> blockShape = g.shape();
    if (before > 0) {
      blockShape[d] = before;
      pieces.push_back(zeros(blockShape, dy.dtype()));
    }
    pieces.push_back(g);
    if (after > 0) {
      blockShape[d] = after;
      pieces.push_back(zeros(blockShape, dy.dtype()));
    }
    g = concat(pieces, static_cast<int64_t>(d));
  }
  return {g};
}

// --- Linear algebra, reductions ----------------------------------------------

/// a (..., m, k) x b (..., k, n): da = dy b^T, db = a^T dy.
Grads matmulGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &a = in(c, 0), &b = in(c, 1);
  // Batch dims broadcast (tf.linalg.matmul): sum the adjoints back over
  // the batch dims an operand was broadcast along.
  return {unbroadcast(matmul(dy, transposeLast2(b)), a.shape()),
          unbroadcast(matmul(transposeLast2(a), dy), b.shape())};
}

// --- Convolution
// --------------------------------------------------------------- conv2d and
// its two gradients are bilinear, and each one's adjoints are the other two:
// <conv2d(x, f), dy> = <x, backprop_input(f, dy)> = <f, backprop_filter(x,
// dy)>. So the rules close over the three ops (second derivatives included).

std::array<int64_t, 2> pairOf(const std::vector<int64_t> &v) {
  return {v.at(0), v.at(1)};
}

Grads conv2dGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &x = in(c, 0), &f = in(c, 1);
  auto s = pairOf(c.attrs.strides), d = pairOf(c.attrs.dilations);
  return {conv2d_backprop_input(x.shape(), f, dy, s, c.attrs.padding, d),
          conv2d_backprop_filter(x, f.shape(), dy, s, c.attrs.padding, d)};
}

/// out = backprop_input(f, dy), shaped like the convolution's input.
Grads conv2dBackpropInputGrad(const GradientContext &c, const Tensor &g) {
  const Tensor &f = in(c, 0), &dy = in(c, 1);
  auto s = pairOf(c.attrs.strides), d = pairOf(c.attrs.dilations);
  return {conv2d_backprop_filter(g, f.shape(), dy, s, c.attrs.padding, d),
          conv2d(g, f, s, c.attrs.padding, d)};
}

/// out = backprop_filter(x, dy), shaped like the filter.
Grads conv2dBackpropFilterGrad(const GradientContext &c, const Tensor &g) {
  const Tensor &x = in(c, 0), &dy = in(c, 1);
  auto s = pairOf(c.attrs.strides), d = pairOf(c.attrs.dilations);
  return {conv2d_backprop_input(x.shape(), g, dy, s, c.attrs.padding, d),
          conv2d(x, g, s, c.attrs.padding, d)};
}

// --- Pooling
// ------------------------------------------------------------------ avg_pool2d
// and its gradient are linear and each other's adjoint; max_pool2d routes dy to
// each window's first maximum (max_pool2d_grad), whose adjoint in dy reads a
// gradient back at those maxima (max_pool2d_grad_grad), and the reverse. The
// choice of the maxima is piecewise constant in the input: no gradient flows to
// it from the two gradient ops (as in TensorFlow).

Grads maxPoolGrad(const GradientContext &c, const Tensor &dy) {
  return {max_pool2d_grad(in(c, 0), dy, pairOf(c.attrs.ksize),
                          pairOf(c.attrs.strides), c.attrs.padding)};
}

Grads maxPoolGradGrad(const GradientContext &c, const Tensor &g) {
  return {Tensor(),
          max_pool2d_grad_grad(in(c, 0), g, pairOf(c.attrs.ksize),
                               pairOf(c.attrs.strides), c.attrs.padding)};
}

Grads maxPoolGradGradGrad(const GradientContext &c, const Tensor &g) {
  return {Tensor(), max_pool2d_grad(in(c, 0), g, pairOf(c.attrs.ksize),
                                    pairOf(c.attrs.strides), c.attrs.padding)};
}

Grads avgPoolGrad(const GradientContext &c, const Tensor &dy) {
  return {avg_pool2d_grad(in(c, 0).shape(), dy, pairOf(c.attrs.ksize),
                          pairOf(c.attrs.strides), c.attrs.padding)};
}

Grads avgPoolGradGrad(const GradientContext &c, const Tensor &g) {
  return {avg_pool2d(g, pairOf(c.attrs.ksize), pairOf(c.attrs.strides),
                     c.attrs.padding)};
}

/// erf' = 2 / sqrt(pi) exp(-x^2).
Grads erfGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &x = in(c, 0);
  return {dy * (exp(-square(x)) * 1.1283791670955126)};
}

/// d/dlogits (logsumexp(z) - z[label]) = softmax(z) - one_hot(label).
Grads sparseCrossEntropyGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &labels = in(c, 0), &logits = in(c, 1);
  int64_t classes = logits.shape().back();
  if (classes < 0)
    throw InvalidArgumentError("gradient of sparse_softmax_cross_entropy: "
                               "the class dim of logits " +
                               shape_to_string(logits.shape()) +
                               " must be static (one_hot's depth)");
  Tensor p = softmax(logits, -1) - one_hot(labels, classes, logits.dtype());
  return {Tensor(), p * expand_dims(dy, -1)};
}

/// The adjoint of a running sum is the running sum the other way.
/// Each replica's input reaches every replica's output: the gradient is
/// the same all_reduce of the output gradients (Horovod's allreduce grad).
Grads allReduceGrad(const GradientContext &c, const Tensor &dy) {
  return {distribute::all_reduce(dy, c.attrs.reduce_op)};
}

Grads cumsumGrad(const GradientContext &c, const Tensor &dy) {
  return {cumsum(dy, c.attrs.axis, c.attrs.exclusive, !c.attrs.reverse)};
}

/// gather's gradient: dy's slices added into the rows they came from. dy
/// has shape outer + indices.shape + inner; move the indices' dims first,
/// sum by index, move the summed dim back to `axis`.
Grads gatherGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &params = in(c, 0), &indices = in(c, 1);
  int64_t axis = c.attrs.axis, q = indices.rank(), rank = dy.rank();
  int64_t n = params.shape()[static_cast<size_t>(axis)];
  if (n < 0)
    throw InvalidArgumentError(
        "gradient of gather: the gathered axis of params " +
        shape_to_string(params.shape()) +
        " must be static (its row count is unsorted_segment_sum's "
        "num_segments)");
  std::vector<int64_t> toFront, toBack;
  for (int64_t d = axis; d < axis + q; ++d)
    toFront.push_back(d);
  for (int64_t d = 0; d < axis; ++d)
    toFront.push_back(d);
  for (int64_t d = axis + q; d < rank; ++d)
    toFront.push_back(d);
  Tensor g = axis == 0 ? dy : transpose(dy, toFront);
  Tensor summed = unsorted_segment_sum(g, indices, n);
  if (axis == 0)
    return {summed, Tensor()};
  for (int64_t d = 1; d <= axis; ++d)
    toBack.push_back(d);
  toBack.push_back(0);
  for (int64_t d = axis + 1; d < params.rank(); ++d)
    toBack.push_back(d);
  return {transpose(summed, toBack), Tensor()};
}

/// unsorted_segment_sum's gradient: each slice gets its segment's dy; a
/// dropped (negative) id gets zero.
Grads segmentSumGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &data = in(c, 0), &ids = in(c, 1);
  Tensor picked = gather(dy, maximum(ids, 0), 0);
  std::vector<int64_t> maskShape = ids.shape();
  maskShape.resize(static_cast<size_t>(data.rank()), 1);
  Tensor keep = reshape(cast(ids >= 0, data.dtype()), maskShape);
  return {picked * keep, Tensor()};
}

Grads reduceSumGrad(const GradientContext &c, const Tensor &dy) {
  return {broadcast_like(keepReducedDims(c, dy), in(c, 0))};
}

Grads reduceMeanGrad(const GradientContext &c, const Tensor &dy) {
  Tensor g = broadcast_like(keepReducedDims(c, dy), in(c, 0));
  return {g / reducedCount(c)};
}

/// reduce_max/min: the gradient is shared equally by the elements that attain
/// the extreme (TensorFlow's rule).
Grads reduceExtremeGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &x = in(c, 0);
  Tensor hits = cast(equal(x, keepReducedOutput(c)), x.dtype());
  Tensor count = reduce_sum(hits, c.attrs.axes, /*keepdims=*/true);
  return {hits / count * keepReducedDims(c, dy)};
}

/// reduce_prod: d/dx_i prod(x) = prod of the other elements, computed without
/// dividing by x_i so that zeros are exact: with no zero in a slice it is
/// prod/x_i; with exactly one zero, only that element gets the product of the
/// others; with more, every gradient is 0.
Grads reduceProdGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &x = in(c, 0);
  const std::vector<int64_t> &axes = c.attrs.axes;
  Tensor isZero = equal(x, 0);
  Tensor zerosInSlice =
      reduce_sum(cast(isZero, x.dtype()), axes, /*keepdims=*/true);
  Tensor safeX = where(isZero, 1, x);
  Tensor prodNonZero = reduce_prod(safeX, axes, /*keepdims=*/true);
  Tensor others =
      where(equal(zerosInSlice, 0), prodNonZero / safeX,
            where(logical_and(equal(zerosInSlice, 1), isZero), prodNonZero, 0));
  return {others * keepReducedDims(c, dy)};
}

// --- NN ----------------------------------------------------------------------

Grads softmaxGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &y = c.output;
  Tensor inner = reduce_sum(dy * y, c.attrs.axis, /*keepdims=*/true);
  return {(dy - inner) * y};
}

Grads logSoftmaxGrad(const GradientContext &c, const Tensor &dy) {
  Tensor total = reduce_sum(dy, c.attrs.axis, /*keepdims=*/true);
  return {dy - exp(c.output) * total};
}

/// loss = -sum(labels * log_softmax(logits), -1):
///   dlogits = dy * (sum(labels, -1) * softmax(logits) - labels)
///   dlabels = dy * -log_softmax(logits)
/// (exact for labels that do not sum to one, too).
Grads crossEntropyGrad(const GradientContext &c, const Tensor &dy) {
  const Tensor &labels = in(c, 0), &logits = in(c, 1);
  Tensor dyKept = expand_dims(dy, -1);
  Tensor logProbs = log_softmax(logits, -1);
  Tensor labelSum = reduce_sum(labels, -1, /*keepdims=*/true);
  Tensor dLogits = dyKept * (labelSum * exp(logProbs) - labels);
  Tensor dLabels = dyKept * neg(logProbs);
  return {dLabels, dLogits};
}

} // namespace

// Every op decides here whether and how gradients flow through it: an op
// added to the op table without a case is a build error, never a silently
// zero gradient.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
GradientRule tfc::detail::gradient_rule(OpKind kind) {
  switch (kind) {
  case OpKind::Neg:
    return negGrad;
  case OpKind::Abs:
    return absGrad;
  case OpKind::Exp:
    return expGrad;
  case OpKind::Log:
    return logGrad;
  case OpKind::Log1p:
    return log1pGrad;
  case OpKind::Sqrt:
    return sqrtGrad;
  case OpKind::Square:
    return squareGrad;
  case OpKind::Sin:
    return sinGrad;
  case OpKind::Cos:
    return cosGrad;
  case OpKind::Tanh:
    return tanhGrad;
  case OpKind::Sigmoid:
    return sigmoidGrad;
  case OpKind::Relu:
    return reluGrad;
  case OpKind::Add:
    return addGrad;
  case OpKind::Sub:
    return subGrad;
  case OpKind::Mul:
    return mulGrad;
  case OpKind::Div:
    return divGrad;
  case OpKind::Pow:
    return powGrad;
  case OpKind::Mod:
    return modGrad;
  case OpKind::Maximum:
    return maximumGrad;
  case OpKind::Minimum:
    return minimumGrad;
  case OpKind::Select:
    return selectGrad;
  case OpKind::Cast:
    return castGrad;
  case OpKind::BroadcastTo:
    return broadcastToGrad;
  case OpKind::Reshape:
  case OpKind::ExpandDims:
  case OpKind::Squeeze:
    return reshapeGrad;
  case OpKind::Transpose:
    return transposeGrad;
  case OpKind::Concat:
    return concatGrad;
  case OpKind::Slice:
    return sliceGrad;
  case OpKind::Matmul:
    return matmulGrad;
  case OpKind::ReduceSum:
    return reduceSumGrad;
  case OpKind::ReduceMean:
    return reduceMeanGrad;
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
    return reduceExtremeGrad;
  case OpKind::ReduceProd:
    return reduceProdGrad;
  case OpKind::Softmax:
    return softmaxGrad;
  case OpKind::LogSoftmax:
    return logSoftmaxGrad;
  case OpKind::SoftmaxCrossEntropy:
    return crossEntropyGrad;
  case OpKind::Conv2D:
    return conv2dGrad;
  case OpKind::Conv2DBackpropInput:
    return conv2dBackpropInputGrad;
  case OpKind::Conv2DBackpropFilter:
    return conv2dBackpropFilterGrad;
  case OpKind::Gather:
    return gatherGrad;
  case OpKind::Erf:
    return erfGrad;
  case OpKind::SparseSoftmaxCrossEntropy:
    return sparseCrossEntropyGrad;
  case OpKind::Cumsum:
    return cumsumGrad;
  case OpKind::AllReduce:
    return allReduceGrad;
  case OpKind::UnsortedSegmentSum:
    return segmentSumGrad;
  case OpKind::MaxPool2D:
    return maxPoolGrad;
  case OpKind::MaxPool2DGrad:
    return maxPoolGradGrad;
  case OpKind::MaxPool2DGradGrad:
    return maxPoolGradGradGrad;
  case OpKind::AvgPool2D:
    return avgPoolGrad;
  case OpKind::AvgPool2DGrad:
    return avgPoolGradGrad;
  // Gradients stop here by definition.
  case OpKind::StopGradient:
    return nullptr;
  // Not differentiable: boolean or integer results, or piecewise constant.
  case OpKind::LogicalNot:
  case OpKind::LogicalAnd:
  case OpKind::LogicalOr:
  case OpKind::Cmp:
  case OpKind::FloorDiv:
  case OpKind::Floor:
  case OpKind::Argmax:
  case OpKind::OneHot:
  case OpKind::PhiloxRandom: // of an integer state
  case OpKind::TopKIndices:
    return nullptr;
  }
  return nullptr;
}
#pragma GCC diagnostic pop

/// Whether the rule of `kind` is right for inputs with dynamic (-1) dims,
/// as a traced function with reduce_retracing has: these rules compute no
/// sizes from shapes (or throw on a dynamic one they need). The others place
/// blocks by static offsets and sizes.
static bool handles_dynamic_shapes(OpKind kind) {
  switch (kind) {
  case OpKind::Concat:
  case OpKind::Slice:
  case OpKind::Conv2D:
  case OpKind::Conv2DBackpropInput:
  case OpKind::Conv2DBackpropFilter:
  case OpKind::MaxPool2D:
  case OpKind::MaxPool2DGrad:
  case OpKind::MaxPool2DGradGrad:
  case OpKind::AvgPool2D:
  case OpKind::AvgPool2DGrad:
    return false;
  default:
    return true;
  }
}

std::vector<Tensor>
tfc::detail::apply_gradient_rule(OpKind kind, const OpAttrs &attrs,
                                 const Tensor *inputs, size_t numInputs,
                                 const Tensor &output, const Tensor &dy) {
  GradientRule rule = gradient_rule(kind);
  if (!rule)
    return std::vector<Tensor>(numInputs);
  if (!handles_dynamic_shapes(kind))
    for (size_t i = 0; i < numInputs; ++i)
      if (std::count(inputs[i].shape().begin(), inputs[i].shape().end(), -1))
        throw InvalidArgumentError(
            "gradient of " + std::string(api_op_name(kind, attrs)) +
            ": input " + std::to_string(i) + " has a dynamic shape " +
            shape_to_string(inputs[i].shape()) + " (-1: dynamic)" +
            "; this gradient needs static shapes (trace without "
            "reduce_retracing)");
  std::vector<Tensor> grads =
      rule(GradientContext{kind, attrs, inputs, numInputs, output}, dy);
  std::string op(api_op_name(kind, attrs));
  if (grads.size() != numInputs)
    throw Error("gradient of " + op + ": the rule returned " +
                std::to_string(grads.size()) + " gradients for " +
                std::to_string(numInputs) + " inputs");
  for (size_t i = 0; i < numInputs; ++i) {
    if (!grads[i].defined())
      continue;
    if (grads[i].shape() != inputs[i].shape() ||
        grads[i].dtype() != inputs[i].dtype())
      throw Error("gradient of " + op + ": the rule returned " +
                  std::string(to_string(grads[i].dtype())) + " " +
                  shape_to_string(grads[i].shape()) + " for input " +
                  std::to_string(i) + " of " +
                  std::string(to_string(inputs[i].dtype())) + " " +
                  shape_to_string(inputs[i].shape()));
  }
  return grads;
}

Tensor tfc::detail::unbroadcast(const Tensor &grad,
                                const std::vector<int64_t> &shape) {
  const std::vector<int64_t> &have = grad.shape();
  if (have == shape)
    return grad;
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t lead = grad.rank() - rank;
  if (lead < 0)
    throw InvalidArgumentError(
        "unbroadcast: a gradient of shape " + shape_to_string(have) +
        " cannot come from broadcasting shape " + shape_to_string(shape));
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < lead; ++i)
    axes.push_back(i);
  for (int64_t i = 0; i < rank; ++i)
    if (shape[static_cast<size_t>(i)] == 1 &&
        have[static_cast<size_t>(lead + i)] != 1)
      axes.push_back(lead + i);
  Tensor summed = axes.empty() ? grad : reduce_sum(grad, axes);
  if (summed.shape() != shape)
    summed = reshape(summed, shape);
  return summed;
}
