//===- Patterns.h - convert-tfc-to-linalg's op families ---------*- C++ -*-===//
//
// convert-tfc-to-linalg's patterns, one file per op family under
// lib/Conversion/TfcToLinalg/. This header declares each family's populate
// function (populateTfcToLinalgPatterns calls them all) and the builders
// that more than one family uses, each defined once.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_CONVERSION_TFCTOLINALG_PATTERNS_H
#define TFC_CONVERSION_TFCTOLINALG_PATTERNS_H

// buildScalarOp, the scalar body of one elementwise op (ScalarOps.cpp), is
// declared in Passes.h.
#include "tfc/Conversion/Passes.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir {
class RewritePatternSet;
namespace tfc {

//===----------------------------------------------------------------------===//
// Families
//===----------------------------------------------------------------------===//

/// Elementwise ops (any tfc op with an elementwise scalar body), constants,
/// broadcast_to and one_hot, to linalg.generic/fill and arith.constant
/// (ElementwiseToLinalg.cpp).
void populateElementwiseToLinalgPatterns(RewritePatternSet &patterns);

/// matmul to linalg.matmul or a linalg.generic (MatmulToLinalg.cpp).
void populateMatmulToLinalgPatterns(RewritePatternSet &patterns);

/// conv2d and its gradients to tensor.pad, linalg.conv_2d_nhwc_hwcf and a
/// linalg.generic (ConvToLinalg.cpp).
void populateConvToLinalgPatterns(RewritePatternSet &patterns);

/// max/avg pooling and their gradients to linalg.generic ops whose bodies
/// loop over the window (PoolToLinalg.cpp).
void populatePoolToLinalgPatterns(RewritePatternSet &patterns);
/// gather (a generic reading params at the index) and unsorted_segment_sum
/// (a generic reducing over the ids; a CPU library call) (GatherToLinalg.cpp).
void populateGatherToLinalgPatterns(RewritePatternSet &patterns);
/// philox_random: Philox in a generic's body; a CPU library call
/// (RandomToLinalg.cpp).
void populateRandomToLinalgPatterns(RewritePatternSet &patterns);
/// cumsum and top_k_indices: generics looping over the axis; CPU library
/// calls (ScanToLinalg.cpp).
void populateScanToLinalgPatterns(RewritePatternSet &patterns);

/// transpose, reshape/expand_dims/squeeze, concat and slice to
/// linalg.generic and tensor ops (ShapeToLinalg.cpp).
void populateShapeToLinalgPatterns(RewritePatternSet &patterns);

/// The reduce_* ops, argmax, (log_)softmax and softmax_cross_entropy to
/// linalg.generic with reduction iterators (ReductionToLinalg.cpp).
void populateReductionToLinalgPatterns(RewritePatternSet &patterns);

/// tfc.if/while/yield/condition to scf (ControlFlowToSCF.cpp).
void populateControlFlowToSCFPatterns(RewritePatternSet &patterns);

/// print, assert, check and check_elements to calls of the runtime
/// (PrintAndChecksToRuntime.cpp).
void populatePrintAndChecksToRuntimePatterns(RewritePatternSet &patterns);

/// tfc.fusion to one linalg.generic (FusionToLinalg.cpp).
void populateFusionToLinalgPatterns(RewritePatternSet &patterns);

/// Builders shared by the families: internal to convert-tfc-to-linalg.
namespace linalg_lowering {

//===----------------------------------------------------------------------===//
// Scalars (ScalarOps.cpp)
//===----------------------------------------------------------------------===//

inline bool isFloat(Type t) { return isa<FloatType>(t); }

Value zeroOf(OpBuilder &b, Location loc, Type t);

/// Integer divisor that cannot trap: 0 and (INT_MIN, -1) lanes divide by 1.
Value safeDivisor(OpBuilder &b, Location loc, Value lhs, Value rhs);

/// `x` converted to the element type `to`, as tfc.cast does.
Value castScalar(OpBuilder &b, Location loc, Value x, Type to);

/// tfc.cmp's predicate `pred` on two scalars.
Value compareScalar(OpBuilder &b, Location loc, CmpPredicate pred, Value lhs,
                    Value rhs);

/// The reductions whose scalar step combine() builds.
enum class ReduceKind { Sum, Prod, Max, Min };

/// Identity of a reduction `kind` for element type `t`.
Value reductionInit(OpBuilder &b, Location loc, ReduceKind kind, Type t);

/// One step of a reduction `kind`: `x` combined into the accumulator `acc`.
Value combine(OpBuilder &b, Location loc, ReduceKind kind, Value acc, Value x);

//===----------------------------------------------------------------------===//
// Tensors and linalg.generic (Utils.cpp)
//===----------------------------------------------------------------------===//

/// Dynamic sizes of `type`, read from `like` (same rank, same dynamic dims).
SmallVector<Value> dynamicSizesFrom(OpBuilder &b, Location loc,
                                    RankedTensorType type, Value like);

Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ValueRange dynSizes);

/// `n` parallel iterators.
SmallVector<utils::IteratorType> parallel(int64_t n);

/// A linalg.generic over `resultType` whose inputs are indexed by `maps` and
/// whose body is `body(args) -> result scalar`.
Value buildGeneric(OpBuilder &b, Location loc, RankedTensorType resultType,
                   ValueRange inputs, ArrayRef<AffineMap> inputMaps, Value init,
                   function_ref<Value(OpBuilder &, Location, ValueRange)> body);

/// Map from the iteration space of `resultRank` dims to an operand broadcast
/// NumPy-style into it (trailing alignment; size-1 dims read index 0).
AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType operandType,
                       RankedTensorType resultType);

/// Reshape between two shapes with equal element counts; a null Value when
/// the result has several dynamic dims that no expand_shape can express.
Value buildReshape(OpBuilder &b, Location loc, Value source,
                   RankedTensorType resultType);

/// `fn` applied to each element of `x`; the result's element type is
/// `resultElt` if given, else `x`'s.
Value elementwiseMap(OpBuilder &b, Location loc, Value x,
                     function_ref<Value(OpBuilder &, Location, Value)> fn,
                     Type resultElt = {});

/// Inserts the unit dims of `axes` back into a reduced value (keepdims).
Value keepDims(OpBuilder &b, Location loc, Value reduced,
               RankedTensorType resultType);

/// The DenseI64ArrayAttr / IntegerAttr `name` of `op` (empty / 0 if absent).
SmallVector<int64_t> i64Array(Operation *op, StringRef name);
int64_t i64Attr(Operation *op, StringRef name);

/// Extracts the i1 of a rank-0 tensor<i1>.
Value extractPredicate(OpBuilder &b, Location loc, Value pred);

} // namespace linalg_lowering
} // namespace tfc
} // namespace mlir

#endif // TFC_CONVERSION_TFCTOLINALG_PATTERNS_H
