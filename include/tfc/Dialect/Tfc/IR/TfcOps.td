//===- TfcOps.td - tfc operations --------------------------*- tablegen -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Every op of the `tfc` dialect. Ops are grouped by family and most families
// share a base class that bundles traits and the assembly format, in the style
// of StableHLO and Arith: unary and binary elementwise ops, shape ops,
// reductions, the softmax family, structured control flow and variable/IO ops.
//
// Conventions shared by every op (see docs/dialect.md):
// - operands and results are builtin ranked tensors of i1/i32/i64/f32/f64;
// - elementwise ops take operands of one type: broadcasting is explicit
//   (`tfc.broadcast_to`);
// - axis attributes are stored normalized: non-negative, and for ops taking a
//   set of axes, sorted and without duplicates. Verifiers reject anything
//   else, so passes never normalize.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_OPS_TD
#define TFC_OPS_TD

include "tfc/Dialect/Tfc/IR/TfcDialect.td"
include "tfc/Dialect/Tfc/IR/TfcInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Tfc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tfc_Dialect, mnemonic, traits>;

/// The rank-0 `tensor<i1>` taken by `tfc.if`, `tfc.condition` and
/// `tfc.assert`. Buildable, so assembly formats need not spell it.
def Tfc_PredTensor : 0DTensorOf<[I1]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI1Type())";
}

/// Memory written by `tfc.var_assign*` and read by `tfc.var_read`.
def Tfc_VariableResource : Resource<"::mlir::tfc::VariableResource">;
/// The program's observable output: `tfc.print` and `tfc.assert`.
def Tfc_OutputResource : Resource<"::mlir::tfc::OutputResource">;
/// The replicas' collective channel: `tfc.all_reduce`.
def Tfc_CollectiveResource : Resource<"::mlir::tfc::CollectiveResource">;

//===----------------------------------------------------------------------===//
// tfc.constant
//===----------------------------------------------------------------------===//

def Tfc_ConstantOp : Tfc_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "a dense tensor constant";
  let description = [{
    Materialises an elements attribute as a tensor value. The attribute must
    have a static shape; its type is the result type.

    Example:
    ```mlir
    %0 = tfc.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise unary ops
//===----------------------------------------------------------------------===//

/// One operand and one result of the same type; `tfc.exp %x : tensor<2xf32>`.
class Tfc_UnaryElementwiseOp<string mnemonic, Type operandType,
                             list<Trait> traits = []>
    : Tfc_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Tfc_ElementwiseOpInterface>,
        SameOperandsAndResultType, InferTypeOpInterface, Elementwise])> {
  let arguments = (ins operandType:$operand);
  let results = (outs operandType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

/// A unary elementwise op with a constant folder written in TfcOps.cpp.
class Tfc_FoldableUnaryOp<string mnemonic, Type operandType,
                          list<Trait> traits = []>
    : Tfc_UnaryElementwiseOp<mnemonic, operandType, traits> {
  let hasFolder = 1;
}

def Tfc_NegOp : Tfc_FoldableUnaryOp<"neg", Tfc_NumericTensor, [Involution]> {
  let summary = "elementwise negation";
  let description = [{
    `-x` per element. Integer negation wraps.

    Example:
    ```mlir
    %0 = tfc.neg %x : tensor<2xi32>
    ```
  }];
}

def Tfc_AbsOp : Tfc_FoldableUnaryOp<"abs", Tfc_NumericTensor, [Idempotent]> {
  let summary = "elementwise absolute value";
  let description = [{
    `|x|` per element. The absolute value of the most negative integer is
    itself (two's complement wrap).

    Example:
    ```mlir
    %0 = tfc.abs %x : tensor<2xf32>
    ```
  }];
}

def Tfc_ExpOp : Tfc_FoldableUnaryOp<"exp", Tfc_FloatTensor> {
  let summary = "elementwise natural exponential";
  let description = [{
    `e^x` per element.

    Example:
    ```mlir
    %0 = tfc.exp %x : tensor<2xf32>
    ```
  }];
}

def Tfc_LogOp : Tfc_FoldableUnaryOp<"log", Tfc_FloatTensor> {
  let summary = "elementwise natural logarithm";
  let description = [{
    `ln(x)` per element; `-inf` at 0 and NaN below.

    Example:
    ```mlir
    %0 = tfc.log %x : tensor<2xf32>
    ```
  }];
}

def Tfc_Log1pOp : Tfc_FoldableUnaryOp<"log1p", Tfc_FloatTensor> {
  let summary = "elementwise ln(1 + x)";
  let description = [{
    `ln(1 + x)` per element, accurate for small `x`.

    Example:
    ```mlir
    %0 = tfc.log1p %x : tensor<2xf64>
    ```
  }];
}

def Tfc_SqrtOp : Tfc_FoldableUnaryOp<"sqrt", Tfc_FloatTensor> {
  let summary = "elementwise square root";
  let description = [{
    `sqrt(x)` per element; NaN for negative `x`.

    Example:
    ```mlir
    %0 = tfc.sqrt %x : tensor<2xf32>
    ```
  }];
}

def Tfc_FloorOp : Tfc_UnaryElementwiseOp<"floor", Tfc_FloatTensor,
                                         [Idempotent]> {
  let summary = "elementwise floor";
  let description = [{
    The largest integral value not greater than `x`, per element (round
    toward negative infinity; `tf.math.floor`). NaN and infinities are
    returned as they are. Not differentiable: no gradient flows through it.

    Example:
    ```mlir
    %0 = tfc.floor %x : tensor<2xf32>
    ```
  }];
}

def Tfc_ErfOp : Tfc_UnaryElementwiseOp<"erf", Tfc_FloatTensor> {
  let summary = "elementwise error function";
  let description = [{
    `erf(x) = 2 / sqrt(pi) * integral from 0 to x of exp(-t^2) dt` per
    element (`tf.math.erf`): odd, in (-1, 1), +-1 at +-infinity, NaN for
    NaN. Its derivative is `2 / sqrt(pi) * exp(-x^2)`.

    Example:
    ```mlir
    %0 = tfc.erf %x : tensor<2xf32>
    ```
  }];
}

def Tfc_SquareOp : Tfc_FoldableUnaryOp<"square", Tfc_NumericTensor> {
  let summary = "elementwise square";
  let description = [{
    `x * x` per element. Integer squares wrap.

    Example:
    ```mlir
    %0 = tfc.square %x : tensor<2xi64>
    ```
  }];
}

def Tfc_SinOp : Tfc_FoldableUnaryOp<"sin", Tfc_FloatTensor> {
  let summary = "elementwise sine";
  let description = [{
    `sin(x)` per element, `x` in radians.

    Example:
    ```mlir
    %0 = tfc.sin %x : tensor<2xf32>
    ```
  }];
}

def Tfc_CosOp : Tfc_FoldableUnaryOp<"cos", Tfc_FloatTensor> {
  let summary = "elementwise cosine";
  let description = [{
    `cos(x)` per element, `x` in radians.

    Example:
    ```mlir
    %0 = tfc.cos %x : tensor<2xf32>
    ```
  }];
}

def Tfc_TanhOp : Tfc_FoldableUnaryOp<"tanh", Tfc_FloatTensor> {
  let summary = "elementwise hyperbolic tangent";
  let description = [{
    `tanh(x)` per element.

    Example:
    ```mlir
    %0 = tfc.tanh %x : tensor<2xf32>
    ```
  }];
}

def Tfc_SigmoidOp : Tfc_FoldableUnaryOp<"sigmoid", Tfc_FloatTensor> {
  let summary = "elementwise logistic function";
  let description = [{
    `1 / (1 + e^-x)` per element.

    Example:
    ```mlir
    %0 = tfc.sigmoid %x : tensor<2xf32>
    ```
  }];
}

def Tfc_ReluOp : Tfc_FoldableUnaryOp<"relu", Tfc_NumericTensor, [Idempotent]> {
  let summary = "elementwise rectified linear unit";
  let description = [{
    `max(x, 0)` per element. NaN stays NaN.

    Example:
    ```mlir
    %0 = tfc.relu %x : tensor<2x3xf32>
    ```
  }];
}

def Tfc_LogicalNotOp : Tfc_FoldableUnaryOp<"logical_not", Tfc_BoolTensor,
    [Involution]> {
  let summary = "elementwise boolean negation";
  let description = [{
    `!x` per element of an `i1` tensor.

    Example:
    ```mlir
    %0 = tfc.logical_not %p : tensor<2xi1>
    ```
  }];
}

def Tfc_StopGradientOp : Tfc_UnaryElementwiseOp<"stop_gradient", Tfc_Tensor> {
  let summary = "identity that blocks gradients";
  let description = [{
    Returns its operand unchanged. Autodiff treats the result as a constant:
    no gradient flows back through it. It is deliberately not folded away by
    canonicalization (that would change gradients); lowering erases it.

    Example:
    ```mlir
    %0 = tfc.stop_gradient %x : tensor<2xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

/// Two operands and one result, all of one type; `tfc.add %a, %b : T`.
class Tfc_BinaryElementwiseOp<string mnemonic, Type operandType,
                              list<Trait> traits = []>
    : Tfc_Op<mnemonic, !listconcat(traits, [Pure,
        DeclareOpInterfaceMethods<Tfc_ElementwiseOpInterface>,
        SameOperandsAndResultType, InferTypeOpInterface, Elementwise])> {
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Tfc_AddOp : Tfc_BinaryElementwiseOp<"add", Tfc_NumericTensor,
    [Commutative]> {
  let summary = "elementwise addition";
  let description = [{
    `lhs + rhs` per element; integers wrap. Folds constants and `x + 0`
    (for floats this treats `-0.0 + 0.0` as `-0.0`, as XLA does).
    Canonicalization adds two single-use `tfc.concat`s along the same axis
    block by block, cutting only splat constants where their blocks do not
    line up: the sum of slice gradients (each the block in zeros) becomes
    one concat of the blocks.

    Example:
    ```mlir
    %0 = tfc.add %a, %b : tensor<2x3xf32>
    ```
  }];
  let hasCanonicalizer = 1;
}

def Tfc_SubOp : Tfc_BinaryElementwiseOp<"sub", Tfc_NumericTensor> {
  let summary = "elementwise subtraction";
  let description = [{
    `lhs - rhs` per element; integers wrap. Folds constants and `x - 0`.

    Example:
    ```mlir
    %0 = tfc.sub %a, %b : tensor<2xi32>
    ```
  }];
}

def Tfc_MulOp : Tfc_BinaryElementwiseOp<"mul", Tfc_NumericTensor,
    [Commutative]> {
  let summary = "elementwise multiplication";
  let description = [{
    `lhs * rhs` per element; integers wrap. Folds constants and `x * 1`.

    Example:
    ```mlir
    %0 = tfc.mul %a, %b : tensor<2xf32>
    ```
  }];
}

def Tfc_DivOp : Tfc_BinaryElementwiseOp<"div", Tfc_FloatTensor> {
  let summary = "elementwise floating-point division";
  let description = [{
    `lhs / rhs` per element (IEEE: division by zero gives inf or NaN).
    Integer division is `tfc.floor_div`. Folds constants and `x / 1`.

    Example:
    ```mlir
    %0 = tfc.div %a, %b : tensor<2xf32>
    ```
  }];
}

def Tfc_MaximumOp : Tfc_BinaryElementwiseOp<"maximum", Tfc_NumericTensor,
    [Commutative]> {
  let summary = "elementwise maximum";
  let description = [{
    `max(lhs, rhs)` per element; NaN if either float operand is NaN.

    Example:
    ```mlir
    %0 = tfc.maximum %a, %b : tensor<2xf32>
    ```
  }];
}

def Tfc_MinimumOp : Tfc_BinaryElementwiseOp<"minimum", Tfc_NumericTensor,
    [Commutative]> {
  let summary = "elementwise minimum";
  let description = [{
    `min(lhs, rhs)` per element; NaN if either float operand is NaN.

    Example:
    ```mlir
    %0 = tfc.minimum %a, %b : tensor<2xf32>
    ```
  }];
}

def Tfc_FloorDivOp : Tfc_BinaryElementwiseOp<"floor_div", Tfc_NumericTensor> {
  let summary = "elementwise division rounded toward negative infinity";
  let description = [{
    `floor(lhs / rhs)` per element, as TensorFlow's `floordiv`. Integer
    division by zero is undefined behaviour at run time and is never folded.

    Example:
    ```mlir
    %0 = tfc.floor_div %a, %b : tensor<2xi32>
    ```
  }];
}

def Tfc_ModOp : Tfc_BinaryElementwiseOp<"mod", Tfc_NumericTensor> {
  let summary = "elementwise floored remainder";
  let description = [{
    `lhs - floor_div(lhs, rhs) * rhs` per element, as TensorFlow's
    `floormod`: the result has the sign of `rhs`. Integer remainder by zero is
    undefined behaviour at run time and is never folded.

    Example:
    ```mlir
    %0 = tfc.mod %a, %b : tensor<2xi64>
    ```
  }];
}

def Tfc_PowOp : Tfc_BinaryElementwiseOp<"pow", Tfc_NumericTensor> {
  let summary = "elementwise power";
  let description = [{
    `lhs ^ rhs` per element. For integers the exponent must be non-negative
    (a negative exponent is an error at run time and is never folded).

    Example:
    ```mlir
    %0 = tfc.pow %a, %b : tensor<2xf32>
    ```
  }];
}

def Tfc_LogicalAndOp : Tfc_BinaryElementwiseOp<"logical_and", Tfc_BoolTensor,
    [Commutative]> {
  let summary = "elementwise boolean and";
  let description = [{
    Example:
    ```mlir
    %0 = tfc.logical_and %p, %q : tensor<2xi1>
    ```
  }];
}

def Tfc_LogicalOrOp : Tfc_BinaryElementwiseOp<"logical_or", Tfc_BoolTensor,
    [Commutative]> {
  let summary = "elementwise boolean or";
  let description = [{
    Example:
    ```mlir
    %0 = tfc.logical_or %p, %q : tensor<2xi1>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Compare, select, cast
//===----------------------------------------------------------------------===//

def Tfc_CmpPredicateAttr : I64EnumAttr<"CmpPredicate",
    "comparison predicate of tfc.cmp", [
      I64EnumAttrCase<"eq", 0>,
      I64EnumAttrCase<"ne", 1>,
      I64EnumAttrCase<"lt", 2>,
      I64EnumAttrCase<"le", 3>,
      I64EnumAttrCase<"gt", 4>,
      I64EnumAttrCase<"ge", 5>
    ]> {
  let cppNamespace = "::mlir::tfc";
}

def Tfc_CmpOp : Tfc_Op<"cmp", [Pure,
    DeclareOpInterfaceMethods<Tfc_ElementwiseOpInterface>, Elementwise,
    AllTypesMatch<["lhs", "rhs"]>, InferTypeOpAdaptor]> {
  let summary = "elementwise comparison";
  let description = [{
    Compares two tensors of one type per element and returns an `i1` tensor
    of the same shape. Floats compare ordered: every predicate but `ne` is
    false when an operand is NaN. `i1` compares as unsigned (false < true);
    `i32`/`i64` as signed.

    Example:
    ```mlir
    %r = tfc.cmp lt, %a, %b : tensor<2xf32>
    ```
  }];
  let arguments = (ins Tfc_CmpPredicateAttr:$predicate, Tfc_Tensor:$lhs,
                       Tfc_Tensor:$rhs);
  let results = (outs Tfc_BoolTensor:$result);
  let assemblyFormat = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
  let hasFolder = 1;
}

def Tfc_SelectOp : Tfc_Op<"select", [Pure,
    DeclareOpInterfaceMethods<Tfc_ElementwiseOpInterface>, Elementwise,
    AllTypesMatch<["on_true", "on_false", "result"]>,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "elementwise choice between two tensors";
  let description = [{
    `cond ? on_true : on_false` per element. `cond` is an `i1` tensor of the
    same shape as the other operands; the result has their type.

    Example:
    ```mlir
    %r = tfc.select %cond, %a, %b : tensor<2xi1>, tensor<2xf32>
    ```
  }];
  let arguments = (ins Tfc_BoolTensor:$cond, Tfc_Tensor:$on_true,
                       Tfc_Tensor:$on_false);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $cond `,` $on_true `,` $on_false attr-dict `:` type($cond) `,` type($result)
  }];
  let hasFolder = 1;
}

def Tfc_CastOp : Tfc_Op<"cast", [Pure,
    DeclareOpInterfaceMethods<Tfc_ElementwiseOpInterface>, Elementwise]> {
  let summary = "elementwise element-type conversion";
  let description = [{
    Converts each element to the result element type, keeping the shape.
    Float to integer truncates toward zero; to `i1` means `!= 0`; `i1` to a
    number gives 0 or 1; integers widen by sign extension.

    Example:
    ```mlir
    %0 = tfc.cast %x : tensor<2xf32> to tensor<2xi32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `to` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Tfc_BroadcastToOp : Tfc_Op<"broadcast_to", [Pure]> {
  let summary = "explicit NumPy-style broadcast";
  let description = [{
    Broadcasts `operand` to the result shape following NumPy rules: the
    operand's dims align with the result's trailing dims, and each must equal
    the result dim or be 1 (a dynamic dim on either side is checked at run
    time). The element type is unchanged. Elementwise ops never broadcast
    implicitly; the tracer inserts this op instead.

    A dynamic result dim takes its run-time size from the aligned operand
    dim (a static 1 there gives 1). With the optional `like` operand the
    result is `operand` broadcast to
    `broadcast_shapes(shape(operand), shape(like))`: `like` sizes the
    dynamic dims the operand lacks or has a static 1 in, as in `x + bias`
    with a dynamic batch, where the bias is broadcast like `x`. Only
    `like`'s shape is read. Inside a `tfc.fusion` body the fusion's
    iteration space sizes every dim, so no `like` is needed there.

    Example:
    ```mlir
    %0 = tfc.broadcast_to %x : tensor<3xf32> to tensor<2x3xf32>
    %1 = tfc.broadcast_to %b like %y : tensor<3xf32> to tensor<?x3xf32>
           like tensor<?x3xf32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand, Optional<Tfc_Tensor>:$like);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $operand (`like` $like^)? attr-dict `:` type($operand) `to` type($result)
    (`like` type($like)^)?
  }];
  let extraClassDeclaration = [{
    /// The value and dim that give dynamic result dim `i` its run-time size:
    /// the aligned operand dim unless that is absent or a static 1, else
    /// `like`'s aligned dim, else the operand's static 1; none if neither
    /// has a dim there.
    std::optional<std::pair<::mlir::Value, int64_t>> dynamicDimSource(
        int64_t i);
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tfc_MatmulOp : Tfc_Op<"matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "(batched) matrix product";
  let description = [{
    Multiplies `[..., m, k]` by `[..., k, n]` giving `[..., m, n]`. Both
    operands have the same rank (at least 2), the same numeric element type
    and equal leading (batch) dims; no broadcasting. The result type is
    inferred; a dynamic dim stays dynamic unless the other operand knows it.

    Example:
    ```mlir
    %0 = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Tfc_NumericTensor:$lhs, Tfc_NumericTensor:$rhs);
  let results = (outs Tfc_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` `(` type($lhs) `,` type($rhs) `)` `->` type($result)
  }];
}

def Tfc_TransposeOp : Tfc_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "permutes the dims of a tensor";
  let description = [{
    Result dim `i` is operand dim `perm[i]`. `perm` must be a permutation of
    `[0, rank)`. Transposes of transposes compose; an identity permutation
    folds away.

    Example:
    ```mlir
    %0 = tfc.transpose %x, perm = [1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand, DenseI64ArrayAttr:$perm);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `perm` `=` $perm attr-dict `:` type($operand) `->` type($result)
  }];
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tfc_ReshapeOp : Tfc_Op<"reshape", [Pure]> {
  let summary = "reinterprets a tensor's elements under a new shape";
  let description = [{
    Row-major reshape. The element type is unchanged and, when both shapes
    are static, the element counts must match. Reshape of a reshape folds to
    one reshape; a reshape to the operand's own type folds away.

    Example:
    ```mlir
    %0 = tfc.reshape %x : tensor<2x3xf32> -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` type($operand) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tfc_ExpandDimsOp : Tfc_Op<"expand_dims", [Pure, InferTypeOpAdaptor]> {
  let summary = "inserts a dim of size 1";
  let description = [{
    Inserts a unit dim before operand dim `axis`; `axis` is in `[0, rank]`
    (`rank` appends).

    Example:
    ```mlir
    %0 = tfc.expand_dims %x, axis = 0 : tensor<3xf32> -> tensor<1x3xf32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand, I64Attr:$axis);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `axis` `=` $axis attr-dict `:` type($operand) `->` type($result)
  }];
  let hasFolder = 1;
}

def Tfc_SqueezeOp : Tfc_Op<"squeeze", [Pure, InferTypeOpAdaptor]> {
  let summary = "removes dims of size 1";
  let description = [{
    Removes the listed dims, each of which must have static size 1. `axes`
    is sorted, without duplicates, each in `[0, rank)`. An empty `axes` is the
    identity.

    Example:
    ```mlir
    %0 = tfc.squeeze %x, axes = [0] : tensor<1x3xf32> -> tensor<3xf32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand, DenseI64ArrayAttr:$axes);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `axes` `=` $axes attr-dict `:` type($operand) `->` type($result)
  }];
  let hasFolder = 1;
}

def Tfc_ConcatOp : Tfc_Op<"concat", [Pure, InferTypeOpAdaptor]> {
  let summary = "joins tensors along one dim";
  let description = [{
    Concatenates one or more tensors of the same rank (at least 1) and
    element type along `axis`, in `[0, rank)`. All other dims must agree; the
    result dim along `axis` is the sum (dynamic if any input's is).

    Example:
    ```mlir
    %0 = tfc.concat %a, %b axis = 0 : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
    ```
  }];
  let arguments = (ins Variadic<Tfc_Tensor>:$inputs, I64Attr:$axis);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` `(` type($inputs) `)` `->` type($result)
  }];
  let hasFolder = 1;
}

def Tfc_SliceOp : Tfc_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "extracts a static-size box";
  let description = [{
    Takes `size[i]` elements of dim `i` starting at `begin[i]`. Both arrays
    have one non-negative entry per dim, and `begin[i] + size[i]` may not
    exceed a static dim. The result shape is `size`.

    Example:
    ```mlir
    %0 = tfc.slice %x, begin = [0, 1], size = [2, 2] : tensor<3x4xf32> -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$size);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `begin` `=` $begin `,` `size` `=` $size attr-dict `:`
    type($operand) `->` type($result)
  }];
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Reduces `axes` (sorted, unique, in range) of a numeric tensor.
class Tfc_ReduceOp<string mnemonic, string what, string exampleType>
    : Tfc_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = "reduces dims by " # what;
  let description = [{
    Reduces the dims listed in `axes` by }] # what # [{. `axes` is sorted,
    without duplicates, each in `[0, rank)`; an empty list is the identity.
    With `keepdims = true` reduced dims stay as size 1, otherwise they are
    removed. The result type is inferred.

    Example:
    ```mlir
    %0 = tfc.}] # mnemonic # [{ %x, axes = [1], keepdims = false : tensor<2x3x}]
      # exampleType # [{> -> tensor<2x}] # exampleType # [{>
    ```
  }];
  let arguments = (ins Tfc_NumericTensor:$operand, DenseI64ArrayAttr:$axes,
                       BoolAttr:$keepdims);
  let results = (outs Tfc_NumericTensor:$result);
  let assemblyFormat = [{
    $operand `,` `axes` `=` $axes `,` `keepdims` `=` $keepdims attr-dict `:`
    type($operand) `->` type($result)
  }];
  let hasFolder = 1;
}

def Tfc_ReduceSumOp : Tfc_ReduceOp<"reduce_sum", "summation", "f32">;
def Tfc_ReduceMeanOp : Tfc_ReduceOp<"reduce_mean",
    "the arithmetic mean (integer division for integers)", "f32">;
def Tfc_ReduceMaxOp : Tfc_ReduceOp<"reduce_max", "maximum", "i32">;
def Tfc_ReduceMinOp : Tfc_ReduceOp<"reduce_min", "minimum", "f64">;
def Tfc_ReduceProdOp : Tfc_ReduceOp<"reduce_prod", "product", "i64">;

def Tfc_ArgMaxOp : Tfc_Op<"argmax", [Pure, InferTypeOpAdaptor]> {
  let summary = "index of the largest element along one dim";
  let description = [{
    Returns, for each position of the other dims, the `i64` index of the
    first largest element along `axis` (in `[0, rank)`). The dim is removed.
    `i1` orders false < true (the first `true`, as NumPy and TensorFlow).

    Example:
    ```mlir
    %0 = tfc.argmax %x, axis = 1 : tensor<2x3xf32> -> tensor<2xi64>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$operand, I64Attr:$axis);
  let results = (outs RankedTensorOf<[I64]>:$result);
  let assemblyFormat = [{
    $operand `,` `axis` `=` $axis attr-dict `:` type($operand) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Softmax family
//===----------------------------------------------------------------------===//

/// Normalizes along `axis` of a float tensor; result has the operand type.
class Tfc_SoftmaxBaseOp<string mnemonic> : Tfc_Op<mnemonic,
    [Pure, SameOperandsAndResultType, InferTypeOpInterface]> {
  let arguments = (ins Tfc_FloatTensor:$operand, I64Attr:$axis);
  let results = (outs Tfc_FloatTensor:$result);
  let assemblyFormat = [{
    $operand `,` `axis` `=` $axis attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Tfc_SoftmaxOp : Tfc_SoftmaxBaseOp<"softmax"> {
  let summary = "softmax along one dim";
  let description = [{
    `exp(x - max) / sum(exp(x - max))` along `axis` (in `[0, rank)`),
    computed stably.

    Example:
    ```mlir
    %0 = tfc.softmax %x, axis = 1 : tensor<2x3xf32>
    ```
  }];
}

def Tfc_LogSoftmaxOp : Tfc_SoftmaxBaseOp<"log_softmax"> {
  let summary = "log of softmax along one dim";
  let description = [{
    `x - max - log(sum(exp(x - max)))` along `axis` (in `[0, rank)`).

    Example:
    ```mlir
    %0 = tfc.log_softmax %x, axis = 1 : tensor<2x3xf32>
    ```
  }];
}

def Tfc_SoftmaxCrossEntropyOp : Tfc_Op<"softmax_cross_entropy",
    [Pure, AllTypesMatch<["labels", "logits"]>, InferTypeOpAdaptor]> {
  let summary = "per-example softmax cross entropy over the last dim";
  let description = [{
    `-sum(labels * log_softmax(logits))` over the last dim. `labels` (a
    probability distribution per example) and `logits` have one float type of
    rank at least 1; the result drops the last dim.

    Example:
    ```mlir
    %0 = tfc.softmax_cross_entropy %labels, %logits : tensor<2x3xf32> -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$labels, Tfc_FloatTensor:$logits);
  let results = (outs Tfc_FloatTensor:$result);
  let assemblyFormat = [{
    $labels `,` $logits attr-dict `:` type($logits) `->` type($result)
  }];
}

def Tfc_SparseSoftmaxCrossEntropyOp
    : Tfc_Op<"sparse_softmax_cross_entropy", [Pure, InferTypeOpAdaptor]> {
  let summary = "per-example softmax cross entropy with integer labels";
  let description = [{
    `tf.nn.sparse_softmax_cross_entropy_with_logits`: for logits of shape
    `[..., classes]` (classes static) and integer labels of shape `[...]`,
    `logsumexp(logits[i, :]) - logits[i, labels[i]]`, the maximum
    subtracted first (stable for any finite logits). A label outside
    `[0, classes)` is an error (TensorFlow's CPU raises): the eager kernel
    raises, compiled code checks the labels first. Lowered as
    `tfc.softmax_cross_entropy` of the one-hot labels, which fuses the same
    way.

    Example:
    ```mlir
    %l = tfc.sparse_softmax_cross_entropy %labels, %logits : (tensor<128xi32>, tensor<128x10xf32>) -> tensor<128xf32>
    ```
  }];
  let arguments = (ins Tfc_IntTensor:$labels, Tfc_FloatTensor:$logits);
  let results = (outs Tfc_FloatTensor:$result);
  let assemblyFormat = [{
    $labels `,` $logits attr-dict `:` `(` type($labels) `,` type($logits) `)`
    `->` type($result)
  }];
}

def Tfc_OneHotOp : Tfc_Op<"one_hot", [Pure]> {
  let summary = "one-hot encoding of integer indices";
  let description = [{
    Appends a dim of size `depth` (at least 0; 0 gives an empty result):
    element `[..., j]` is 1 where `indices[...] == j` and 0 elsewhere (an
    index outside `[0, depth)` gives an all-zero row). The result element type is free.

    Example:
    ```mlir
    %0 = tfc.one_hot %i, depth = 3 : tensor<2xi32> -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tfc_IntTensor:$indices, I64Attr:$depth);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $indices `,` `depth` `=` $depth attr-dict `:` type($indices) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Gather and segment sums
//===----------------------------------------------------------------------===//

def Tfc_GatherOp : Tfc_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "slices of params along an axis, picked by integer indices";
  let description = [{
    `tf.gather(params, indices, axis)` (no batch dims): the result has shape
    `params.shape[:axis] + indices.shape + params.shape[axis + 1:]`, and
    element `[o..., i..., r...]` is `params[o..., indices[i...], r...]`.
    `axis` is in `[0, rank(params))`. An index outside
    `[0, params.shape[axis])` is an error, as on TensorFlow's CPU: the eager
    kernel raises, compiled code checks the indices first
    (`tfc.check_elements ... in_range`) and its loops never read out of
    bounds.

    Example:
    ```mlir
    %e = tfc.gather %table, %ids, axis = 0 : (tensor<50000x256xf32>, tensor<4096xi32>) -> tensor<4096x256xf32>
    ```
  }];
  let arguments = (ins Tfc_Tensor:$params, Tfc_IntTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = [{
    $params `,` $indices `,` `axis` `=` $axis attr-dict `:` `(` type($params)
    `,` type($indices) `)` `->` type($result)
  }];
}

def Tfc_UnsortedSegmentSumOp
    : Tfc_Op<"unsorted_segment_sum", [Pure, InferTypeOpAdaptor]> {
  let summary = "sums of data's slices grouped by segment ids";
  let description = [{
    `tf.math.unsorted_segment_sum`: `segment_ids`' shape is a prefix of
    `data`'s; the result has shape `[num_segments] + data.shape[rank(ids):]`
    and row `s` is the sum of the slices `data[i...]` with
    `segment_ids[i...] == s` (zero if none). A negative id drops its slice
    (TensorFlow's rule); an id `>= num_segments` is an error (checked like
    `tfc.gather`'s indices). It is `tfc.gather`'s gradient.

    Example:
    ```mlir
    %g = tfc.unsorted_segment_sum %dy, %ids, num_segments = 50000 : (tensor<4096x256xf32>, tensor<4096xi32>) -> tensor<50000x256xf32>
    ```
  }];
  let arguments = (ins Tfc_NumericTensor:$data, Tfc_IntTensor:$segment_ids,
                       I64Attr:$num_segments);
  let results = (outs Tfc_NumericTensor:$result);
  let assemblyFormat = [{
    $data `,` $segment_ids `,` `num_segments` `=` $num_segments attr-dict `:`
    `(` type($data) `,` type($segment_ids) `)` `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Scans and selection
//===----------------------------------------------------------------------===//

def Tfc_CumsumOp : Tfc_Op<"cumsum", [Pure, SameOperandsAndResultType]> {
  let summary = "cumulative sum along an axis";
  let description = [{
    `tf.math.cumsum(x, axis, exclusive, reverse)`: element `j` along `axis`
    is the sum of elements `0..j` (`exclusive`: `0..j-1`; `reverse`: from the
    other end). `axis` is in `[0, rank)`; integer sums wrap.

    Example:
    ```mlir
    %0 = tfc.cumsum %x, axis = 1, exclusive = false, reverse = true : tensor<4x5xf32>
    ```
  }];
  let arguments = (ins Tfc_NumericTensor:$operand, I64Attr:$axis,
                       BoolAttr:$exclusive, BoolAttr:$reverse);
  let results = (outs Tfc_NumericTensor:$result);
  let assemblyFormat = [{
    $operand `,` `axis` `=` $axis `,` `exclusive` `=` $exclusive `,`
    `reverse` `=` $reverse attr-dict `:` type($operand)
  }];
  let hasVerifier = 1;
}

def Tfc_TopKIndicesOp
    : Tfc_Op<"top_k_indices", [Pure, InferTypeOpAdaptor]> {
  let summary = "indices of the k largest elements along the last dim";
  let description = [{
    The `i32` positions of the `k` largest elements of each row (the last
    dim), largest first; equal values in index order; NaN counts as larger
    than every number (`tf.math.top_k`'s indices, sorted). `k` is in
    `[0, last dim]` (static). `tfc::top_k` gathers the values with them.

    Example:
    ```mlir
    %i = tfc.top_k_indices %x, k = 5 : tensor<128x1000xf32> -> tensor<128x5xi32>
    ```
  }];
  let arguments = (ins Tfc_NumericTensor:$operand, I64Attr:$k);
  let results = (outs RankedTensorOf<[I32]>:$result);
  let assemblyFormat = [{
    $operand `,` `k` `=` $k attr-dict `:` type($operand) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

def Tfc_PhiloxRandomOp : Tfc_Op<"philox_random", [Pure]> {
  let summary = "counter-based random numbers from a (key, counter) state";
  let description = [{
    A draw of Philox4x32-10 (Salmon et al., SC'11; TensorFlow's and JAX's
    generator) from `state = [key, counter]` (`tensor<2xi64>`, the value of
    a `tfc::random::Generator`'s Variable): element `i` (row-major) takes
    its words (one or two for a uniform, twice that for a normal) from the
    Philox block of the 128-bit counter `(counter + i / per_block, attempt)`
    and the key alone, so the op is pure and every element is independent
    of the others (any thread or GPU lane may make it). `distribution` is "uniform" ([0, 1):
    24 random bits for f32, 53 for f64), "normal" (Box-Muller) or
    "truncated_normal" (a normal redrawn with the next attempt until
    `|z| < 2`). The result shape is static; the caller advances the counter
    by the element count.

    Example:
    ```mlir
    %u = tfc.philox_random %state, "uniform" : tensor<2xi64> -> tensor<128x10xf32>
    ```
  }];
  let arguments = (ins 1DTensorOf<[I64]>:$state, StrAttr:$distribution);
  let results = (outs Tfc_FloatTensor:$result);
  let assemblyFormat = [{
    $state `,` $distribution attr-dict `:` type($state) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Convolution
//===----------------------------------------------------------------------===//

/// The window attributes of tfc.conv2d and its gradients (TensorFlow's):
/// two strides and two dilations (height, width), each at least 1, and the
/// padding "SAME" or "VALID".
class Tfc_Conv2DBase<string mnemonic, string summaryText>
    : Tfc_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = summaryText;
  let results = (outs Tfc_FloatTensor:$result);
}

def Tfc_Conv2DOp : Tfc_Conv2DBase<"conv2d", "2-D convolution (NHWC, HWIO)"> {
  let description = [{
    `result[n, i, j, o] = sum(input[n, i*sh + a*dh - pt, j*sw + b*dw - pl, c]
    * filter[a, b, c, o])` over the window taps `a`, `b` and the input
    channels `c`, as `tf.nn.conv2d`: the input is NHWC, the filter HWIO
    (height, width, in channels, out channels), one float element type.
    VALID keeps every window inside the input (`out = (in - span) / stride
    + 1`, span `(k - 1) * dilation + 1`); SAME pads with zeros so that `out
    = ceil(in / stride)`, the smaller half of the padding before. The result
    type is inferred; the verifier rejects mismatched channels, strides or
    dilations below 1 and VALID windows longer than the input.

    Example:
    ```mlir
    %y = tfc.conv2d %x, %f, strides = [1, 1], dilations = [1, 1], padding = "SAME" : (tensor<8x28x28x1xf32>, tensor<3x3x1x32xf32>) -> tensor<8x28x28x32xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$input, Tfc_FloatTensor:$filter,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       StrAttr:$padding);
  let assemblyFormat = [{
    $input `,` $filter `,` `strides` `=` $strides `,` `dilations` `=`
    $dilations `,` `padding` `=` $padding attr-dict `:`
    `(` type($input) `,` type($filter) `)` `->` type($result)
  }];
}

def Tfc_Conv2DBackpropInputOp
    : Tfc_Conv2DBase<"conv2d_backprop_input",
                     "gradient of tfc.conv2d with respect to its input"> {
  let description = [{
    The input gradient of `tfc.conv2d` (`tf.nn.conv2d_backprop_input`): for
    an input of shape `input_shape`, the filter and the gradient `dy` of the
    convolution's result, the sum over the windows of `dy * filter` scattered
    back to the input positions each window read (zero where none did). The
    attributes are the convolution's; `dy` must have the shape
    `tfc.conv2d` gives for `input_shape`. The result has shape
    `input_shape`.

    Example:
    ```mlir
    %dx = tfc.conv2d_backprop_input %f, %dy, input_shape = [8, 28, 28, 1], strides = [1, 1], dilations = [1, 1], padding = "SAME" : (tensor<3x3x1x32xf32>, tensor<8x28x28x32xf32>) -> tensor<8x28x28x1xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$filter, Tfc_FloatTensor:$dy,
                       DenseI64ArrayAttr:$input_shape,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       StrAttr:$padding);
  let assemblyFormat = [{
    $filter `,` $dy `,` `input_shape` `=` $input_shape `,` `strides` `=`
    $strides `,` `dilations` `=` $dilations `,` `padding` `=` $padding
    attr-dict `:` `(` type($filter) `,` type($dy) `)` `->` type($result)
  }];
}

def Tfc_Conv2DBackpropFilterOp
    : Tfc_Conv2DBase<"conv2d_backprop_filter",
                     "gradient of tfc.conv2d with respect to its filter"> {
  let description = [{
    The filter gradient of `tfc.conv2d` (`tf.nn.conv2d_backprop_filter`):
    `result[a, b, c, o] = sum(input[n, i*sh + a*dh - pt, j*sw + b*dw - pl, c]
    * dy[n, i, j, o])` over `n, i, j`, for a filter of shape `filter_shape`.
    The attributes are the convolution's; `dy` must have the shape
    `tfc.conv2d` gives for the input and `filter_shape`.

    Example:
    ```mlir
    %df = tfc.conv2d_backprop_filter %x, %dy, filter_shape = [3, 3, 1, 32], strides = [1, 1], dilations = [1, 1], padding = "SAME" : (tensor<8x28x28x1xf32>, tensor<8x28x28x32xf32>) -> tensor<3x3x1x32xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$input, Tfc_FloatTensor:$dy,
                       DenseI64ArrayAttr:$filter_shape,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$dilations,
                       StrAttr:$padding);
  let assemblyFormat = [{
    $input `,` $dy `,` `filter_shape` `=` $filter_shape `,` `strides` `=`
    $strides `,` `dilations` `=` $dilations `,` `padding` `=` $padding
    attr-dict `:` `(` type($input) `,` type($dy) `)` `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// TensorFlow's pooling windows: `ksize` and `strides` (height, width), each
/// at least 1, and the padding "SAME" or "VALID". Padding never contributes:
/// the max ignores it and the average divides by the number of input
/// elements in the window.
class Tfc_PoolBase<string mnemonic, string summaryText>
    : Tfc_Op<mnemonic, [Pure, InferTypeOpAdaptor]> {
  let summary = summaryText;
  let results = (outs Tfc_FloatTensor:$result);
}

def Tfc_MaxPool2DOp : Tfc_PoolBase<"max_pool2d", "2-D max pooling (NHWC)"> {
  let description = [{
    `tf.nn.max_pool2d`: the maximum of each `ksize` window moved by
    `strides` over the height and width of an NHWC float tensor (NaN if the
    window holds one). VALID keeps every window inside the input; SAME
    gives `ceil(in / stride)` windows per dim, the padding ignored.

    Example:
    ```mlir
    %y = tfc.max_pool2d %x, ksize = [2, 2], strides = [2, 2], padding = "VALID" : tensor<8x28x28x32xf32> -> tensor<8x14x14x32xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$input, DenseI64ArrayAttr:$ksize,
                       DenseI64ArrayAttr:$strides, StrAttr:$padding);
  let assemblyFormat = [{
    $input `,` `ksize` `=` $ksize `,` `strides` `=` $strides `,` `padding`
    `=` $padding attr-dict `:` type($input) `->` type($result)
  }];
}

def Tfc_AvgPool2DOp : Tfc_PoolBase<"avg_pool2d", "2-D average pooling (NHWC)"> {
  let description = [{
    `tf.nn.avg_pool2d`: the mean of each window's elements that lie inside
    the input (SAME padding is not counted).

    Example:
    ```mlir
    %y = tfc.avg_pool2d %x, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<8x7x7x4xf32> -> tensor<8x4x4x4xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$input, DenseI64ArrayAttr:$ksize,
                       DenseI64ArrayAttr:$strides, StrAttr:$padding);
  let assemblyFormat = [{
    $input `,` `ksize` `=` $ksize `,` `strides` `=` $strides `,` `padding`
    `=` $padding attr-dict `:` type($input) `->` type($result)
  }];
}

def Tfc_MaxPool2DGradOp
    : Tfc_PoolBase<"max_pool2d_grad",
                   "gradient of tfc.max_pool2d with respect to its input"> {
  let description = [{
    Each element of `dy` (shaped like the pooling's result) added at the
    first maximum of its window of `input` (row-major order within the
    window; the first NaN if any); zero elsewhere. The result is shaped like
    `input`.

    Example:
    ```mlir
    %dx = tfc.max_pool2d_grad %x, %dy, ksize = [2, 2], strides = [2, 2], padding = "VALID" : (tensor<8x28x28x32xf32>, tensor<8x14x14x32xf32>) -> tensor<8x28x28x32xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$input, Tfc_FloatTensor:$dy,
                       DenseI64ArrayAttr:$ksize, DenseI64ArrayAttr:$strides,
                       StrAttr:$padding);
  let assemblyFormat = [{
    $input `,` $dy `,` `ksize` `=` $ksize `,` `strides` `=` $strides `,`
    `padding` `=` $padding attr-dict `:` `(` type($input) `,` type($dy) `)`
    `->` type($result)
  }];
}

def Tfc_MaxPool2DGradGradOp
    : Tfc_PoolBase<"max_pool2d_grad_grad",
                   "gradient of tfc.max_pool2d_grad with respect to dy"> {
  let description = [{
    For each window of `input`, the element of `grad` (shaped like `input`)
    at the window's first maximum: the adjoint of `tfc.max_pool2d_grad` in
    its `dy` (TensorFlow's MaxPoolGradGrad). The result is shaped like the
    pooling's result.

    Example:
    ```mlir
    %g = tfc.max_pool2d_grad_grad %x, %gx, ksize = [2, 2], strides = [2, 2], padding = "VALID" : (tensor<8x28x28x32xf32>, tensor<8x28x28x32xf32>) -> tensor<8x14x14x32xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$input, Tfc_FloatTensor:$grad,
                       DenseI64ArrayAttr:$ksize, DenseI64ArrayAttr:$strides,
                       StrAttr:$padding);
  let assemblyFormat = [{
    $input `,` $grad `,` `ksize` `=` $ksize `,` `strides` `=` $strides `,`
    `padding` `=` $padding attr-dict `:` `(` type($input) `,` type($grad) `)`
    `->` type($result)
  }];
}

def Tfc_AvgPool2DGradOp
    : Tfc_PoolBase<"avg_pool2d_grad",
                   "gradient of tfc.avg_pool2d with respect to its input"> {
  let description = [{
    Each element of `dy` divided by its window's element count and spread
    over the window's elements inside an input of shape `input_shape`.

    Example:
    ```mlir
    %dx = tfc.avg_pool2d_grad %dy, input_shape = [8, 7, 7, 4], ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<8x4x4x4xf32> -> tensor<8x7x7x4xf32>
    ```
  }];
  let arguments = (ins Tfc_FloatTensor:$dy, DenseI64ArrayAttr:$input_shape,
                       DenseI64ArrayAttr:$ksize, DenseI64ArrayAttr:$strides,
                       StrAttr:$padding);
  let assemblyFormat = [{
    $dy `,` `input_shape` `=` $input_shape `,` `ksize` `=` $ksize `,`
    `strides` `=` $strides `,` `padding` `=` $padding attr-dict `:`
    type($dy) `->` type($result)
  }];
}

//===----------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------===//

def Tfc_IfOp : Tfc_Op<"if", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface, [
      "getEntrySuccessorRegions", "getRegionInvocationBounds"]>,
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    RecursivelySpeculatable, NoRegionArguments]> {
  let summary = "if-then-else on a scalar predicate";
  let description = [{
    Runs `thenRegion` when the rank-0 `i1` predicate holds, `elseRegion`
    otherwise; each ends in `tfc.yield` with values of the result types. The
    else region may be omitted only when there are no results. Modelled on
    `scf.if`; `tfc::cond` traces into it. An `if` on a constant predicate is
    replaced by the taken branch (canonicalization).

    Example:
    ```mlir
    %r = tfc.if %pred -> (tensor<f32>) {
      tfc.yield %a : tensor<f32>
    } else {
      tfc.yield %b : tensor<f32>
    }
    tfc.if %pred {
      tfc.print "taken"
    }
    ```
  }];
  let arguments = (ins Tfc_PredTensor:$condition);
  let results = (outs Variadic<Tfc_Tensor>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, AnyRegion:$elseRegion);
  let assemblyFormat = [{
    $condition (`->` `(` type($results)^ `)`)? $thenRegion
    (`else` $elseRegion^)? attr-dict
  }];
  let builders = [
    // Like scf.if's: each callback fills its branch's block (and must end
    // it with a tfc.yield); no elseBuilder, no else region.
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$condition,
      "::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location)>":$thenBuilder,
      CArg<"::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location)>",
           "nullptr">:$elseBuilder)>
  ];
  let extraClassDeclaration = [{
    /// The terminator of the then region (verified to be a `tfc.yield`).
    YieldOp thenYield();
    /// The terminator of the else region; null if there is no else region.
    YieldOp elseYield();
  }];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tfc_WhileOp : Tfc_Op<"while", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface, [
      "getEntrySuccessorOperands"]>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    RecursiveMemoryEffects, SingleBlock]> {
  let summary = "a while loop with a condition region and a body region";
  let description = [{
    Modelled on `scf.while`. The `before` region receives the loop-carried
    values (initially `inits`), computes a rank-0 `i1` condition and ends in
    `tfc.condition(%c) %v...`. When `%c` holds, `%v...` become the arguments
    of the `after` region, which ends in `tfc.yield` with the next
    loop-carried values; otherwise `%v...` are the results of the op.

    Types must agree along every edge: `inits` = `before` arguments =
    `tfc.yield` operands, and `tfc.condition` values = `after` arguments =
    results. `tfc::while_loop` traces into this op.

    A loop may not terminate, so it is never erased as dead, even when its
    results are unused or equal its inits: besides its regions' effects it
    writes the `tfc.loop-termination` resource (and its lowering keeps an
    empty side-effecting `llvm.inline_asm` in the condition region).

    Example:
    ```mlir
    %r = tfc.while (%a = %init) : (tensor<i32>) -> tensor<i32> {
      %c = tfc.cmp lt, %a, %limit : tensor<i32>
      tfc.condition(%c) %a : tensor<i32>
    } do {
    ^bb0(%a: tensor<i32>):
      %n = tfc.add %a, %one : tensor<i32>
      tfc.yield %n : tensor<i32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tfc_Tensor>:$inits);
  let results = (outs Variadic<Tfc_Tensor>:$results);
  let regions = (region SizedRegion<1>:$before, SizedRegion<1>:$after);
  let builders = [
    // Like scf.while's: the before block takes the inits' types, the after
    // block the result types; each callback gets its block's arguments and
    // ends it (tfc.condition, tfc.yield).
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::ValueRange":$inits,
      "::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, ::mlir::ValueRange)>":$beforeBuilder,
      "::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, ::mlir::ValueRange)>":$afterBuilder)>
  ];
  let extraClassDeclaration = [{
    /// The `tfc.condition` ending the before region, or null if malformed.
    ConditionOp getConditionOp();
    /// The `tfc.yield` ending the after region, or null if malformed.
    YieldOp getYieldOp();
    /// Arguments of the before region's block.
    Block::BlockArgListType getBeforeArguments();
    /// Arguments of the after region's block.
    Block::BlockArgListType getAfterArguments();
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tfc_YieldOp : Tfc_Op<"yield", [Pure, ReturnLike, Terminator,
    ParentOneOf<["IfOp", "WhileOp", "FusionOp"]>]> {
  let summary = "ends a region of tfc.if, tfc.fusion or the body of tfc.while";
  let description = [{
    Passes its operands to the parent: the results of a `tfc.if` or a
    `tfc.fusion`, or the next loop-carried values of a `tfc.while`. With no
    operands it may be omitted from a `tfc.if` region.

    Example:
    ```mlir
    tfc.yield %a, %b : tensor<f32>, tensor<2xi32>
    ```
  }];
  let arguments = (ins Variadic<Tfc_Tensor>:$results);
  let builders = [OpBuilder<(ins), [{ /* no operands */ }]>];
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Tfc_ConditionOp : Tfc_Op<"condition", [Pure, Terminator,
    HasParent<"WhileOp">,
    DeclareOpInterfaceMethods<RegionBranchTerminatorOpInterface,
      ["getSuccessorRegions"]>]> {
  let summary = "ends the before region of tfc.while";
  let description = [{
    If the rank-0 `i1` `condition` holds, `args` go to the `after` region;
    otherwise they become the results of the `tfc.while`.

    Example:
    ```mlir
    tfc.condition(%c) %a : tensor<i32>
    ```
  }];
  let arguments = (ins Tfc_PredTensor:$condition, Variadic<Tfc_Tensor>:$args);
  let assemblyFormat = [{
    `(` $condition `)` attr-dict ($args^ `:` type($args))?
  }];
}

//===----------------------------------------------------------------------===//
// Fusion
//===----------------------------------------------------------------------===//

def Tfc_FusionKindAttr : I64EnumAttr<"FusionKind",
    "how a fused group is code-generated", [
      I64EnumAttrCase<"loop", 0>, I64EnumAttrCase<"input", 1>]> {
  let cppNamespace = "::mlir::tfc";
}

def Tfc_FusionOp : Tfc_Op<"fusion", [IsolatedFromAbove,
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects,
    RecursivelySpeculatable]> {
  let summary = "a group of ops fused into one loop nest";
  let description = [{
    Produced by `tfc-fuse-elementwise`: the body computes the results from
    the block arguments (one per input) with elementwise ops, `broadcast_to`
    and splat constants, and ends in `tfc.yield`. Code generation emits one
    loop nest for the whole body, so no intermediate is stored (XLA's loop
    fusion, one fusion = one kernel on the GPU).

    - `loop`: every yielded value has the same shape (the iteration space);
      a fusion may yield several values (multi-output fusion).
    - `input`: the body ends in one reduction (`reduce_sum`, `reduce_mean`,
      `reduce_max`, `reduce_min`, `reduce_prod`) whose operand is computed
      by the elementwise ops before it, in the same loop nest as the
      reduction (XLA's input fusion); it yields exactly that reduction.

    Example:
    ```mlir
    %r = tfc.fusion loop (%x, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: tensor<4x8xf32>, %c: tensor<8xf32>):
      %0 = tfc.broadcast_to %c : tensor<8xf32> to tensor<4x8xf32>
      %1 = tfc.add %a, %0 : tensor<4x8xf32>
      %2 = tfc.tanh %1 : tensor<4x8xf32>
      tfc.yield %2 : tensor<4x8xf32>
    }
    ```
  }];
  let arguments = (ins Tfc_FusionKindAttr:$kind, Variadic<Tfc_Tensor>:$inputs);
  let results = (outs Variadic<Tfc_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $kind `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $body
  }];
  let extraClassDeclaration = [{
    /// The `tfc.yield` ending the body.
    YieldOp getYieldOp();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

def Tfc_VarReadOp : Tfc_Op<"var_read", [InferTypeOpAdaptor]> {
  let summary = "reads the current value of a variable";
  let description = [{
    The result type is the variable's value type.

    Example:
    ```mlir
    %x = tfc.var_read %v : !tfc.var<tensor<2xf32>>
    ```
  }];
  let arguments = (ins Arg<Tfc_VarType, "the variable read",
                           [MemRead<Tfc_VariableResource>]>:$var);
  let results = (outs Tfc_Tensor:$result);
  let assemblyFormat = "$var attr-dict `:` qualified(type($var))";
}

/// Writes `value` (of the variable's value type) to the variable `var`; the
/// variable operand carries the op's memory effects.
class Tfc_VarWriteOp<string mnemonic, Type valueType,
                     list<OpVariableDecorator> effects>
    : Tfc_Op<mnemonic, [
        TypesMatchWith<"value has the variable's value type", "var", "value",
          "::llvm::cast<::mlir::tfc::VarType>($_self).getValueType()">]> {
  let arguments = (ins Arg<Tfc_VarType, "the variable", effects>:$var,
                       valueType:$value);
  let assemblyFormat = "$var `,` $value attr-dict `:` qualified(type($var))";
}

def Tfc_VarAssignOp : Tfc_VarWriteOp<"var_assign", Tfc_Tensor,
    [MemWrite<Tfc_VariableResource>]> {
  let summary = "overwrites a variable";
  let description = [{
    Example:
    ```mlir
    tfc.var_assign %v, %x : !tfc.var<tensor<2xf32>>
    ```
  }];
}

def Tfc_VarAssignAddOp : Tfc_VarWriteOp<"var_assign_add", Tfc_NumericTensor,
    [MemRead<Tfc_VariableResource>, MemWrite<Tfc_VariableResource>]> {
  let summary = "adds to a variable in place";
  let description = [{
    `v = v + x`.

    Example:
    ```mlir
    tfc.var_assign_add %v, %x : !tfc.var<tensor<2xf32>>
    ```
  }];
}

def Tfc_VarAssignSubOp : Tfc_VarWriteOp<"var_assign_sub", Tfc_NumericTensor,
    [MemRead<Tfc_VariableResource>, MemWrite<Tfc_VariableResource>]> {
  let summary = "subtracts from a variable in place";
  let description = [{
    `v = v - x`.

    Example:
    ```mlir
    tfc.var_assign_sub %v, %x : !tfc.var<tensor<2xf32>>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Printing and assertions
//===----------------------------------------------------------------------===//

def Tfc_PrintOp : Tfc_Op<"print", [
    MemoryEffects<[MemWrite<Tfc_OutputResource>]>]> {
  let summary = "prints a label and tensors";
  let description = [{
    Prints `label` then each operand, in program order (it writes the output
    resource, so it is never removed or reordered with other output).

    Example:
    ```mlir
    tfc.print "step" %a, %b : tensor<2xf32>, tensor<i32>
    ```
  }];
  let arguments = (ins StrAttr:$label, Variadic<Tfc_Tensor>:$inputs);
  let assemblyFormat = "$label ($inputs^ `:` type($inputs))? attr-dict";
}

def Tfc_AllReduceOp : Tfc_Op<"all_reduce", [
    SameOperandsAndResultType, InferTypeOpInterface,
    MemoryEffects<[MemRead<Tfc_CollectiveResource>,
                   MemWrite<Tfc_CollectiveResource>]>]> {
  let summary = "sums or averages a tensor over the replicas";
  let description = [{
    Every replica (process) of a data-parallel program passes its `input`;
    each receives the element-wise sum (`"sum"`) or mean (`"mean"`) of all
    of them, the same bits on every replica (Horovod's allreduce,
    `tf.distribute.ReplicaContext.all_reduce`). With one replica the result
    is the input. It talks to the other replicas, so it is never erased,
    duplicated or reordered with other collectives; every replica must run
    the same sequence of them. Lowered to a call of the runtime's
    communicator (docs/distributed.md); CPU only.

    Example:
    ```mlir
    %g = tfc.all_reduce %x, "mean" : tensor<1024xf32>
    ```
  }];
  let arguments = (ins Tfc_NumericTensor:$input, StrAttr:$reduce_op);
  let results = (outs Tfc_NumericTensor:$result);
  let assemblyFormat = "$input `,` $reduce_op attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Tfc_AssertOp : Tfc_Op<"assert", [
    MemoryEffects<[MemWrite<Tfc_OutputResource>]>]> {
  let summary = "fails the call with a message if a predicate is false";
  let description = [{
    When the rank-0 `i1` `condition` is false, the running function stops
    and its caller receives an error carrying `message`.

    Example:
    ```mlir
    tfc.assert %ok, "x must be positive" : tensor<i1>
    ```
  }];
  let arguments = (ins Tfc_PredTensor:$condition, StrAttr:$message);
  let assemblyFormat = "$condition `,` $message attr-dict `:` type($condition)";
}

def Tfc_CheckKindAttr : I64EnumAttr<"CheckKind",
    "the error class a failed run-time check raises", [
      I64EnumAttrCase<"invalid_argument", 0>, I64EnumAttrCase<"runtime", 1>]> {
  let cppNamespace = "::mlir::tfc";
}

def Tfc_CheckOp : Tfc_Op<"check", [
    MemoryEffects<[MemWrite<Tfc_OutputResource>]>]> {
  let summary = "stops the call when a scalar condition on dims is false";
  let description = [{
    Emitted by `tfc-insert-runtime-checks` before an op whose validity
    depends on dynamic dims. When `ok` is false the call stops at once (no
    later op runs) and the caller receives a `kind` error
    (`invalid_argument`: tfc::InvalidArgumentError; `runtime`:
    tfc::RuntimeError) whose text is `message` with each `{}` replaced by
    the next of `values`.

    Example:
    ```mlir
    tfc.check %ok, invalid_argument, "tfc.add: operand shapes ({},) and ({},) differ" (%n, %m)
    ```
  }];
  let arguments = (ins I1:$ok, Tfc_CheckKindAttr:$kind, StrAttr:$message,
                       Variadic<Index>:$values);
  let assemblyFormat = [{
    $ok `,` $kind `,` $message (`(` $values^ `)`)? attr-dict
  }];
}

def Tfc_ElementPredicateAttr : I64EnumAttr<"ElementPredicate",
    "what tfc.check_elements requires of every element", [
      I64EnumAttrCase<"nonzero", 0>, I64EnumAttrCase<"nonnegative", 1>,
      I64EnumAttrCase<"in_range", 2>, I64EnumAttrCase<"below", 3>]> {
  let cppNamespace = "::mlir::tfc";
}

def Tfc_CheckElementsOp : Tfc_Op<"check_elements", [
    MemoryEffects<[MemWrite<Tfc_OutputResource>]>]> {
  let summary = "stops the call unless every element satisfies a predicate";
  let description = [{
    Emitted by `tfc-insert-runtime-checks` for the divisor of an integer
    `floor_div` / `mod` (`nonzero`), the exponent of an integer `pow`
    (`nonnegative`), the indices of `tfc.gather` (`in_range`: `0 <= x <
    bound`) and the ids of `tfc.unsorted_segment_sum` (`below`: `x <
    bound`). The check is one vectorized pass over `operand` before the op;
    when an element fails it, the call stops with a tfc::RuntimeError
    (`nonzero`, `nonnegative`) or tfc::InvalidArgumentError (`in_range`,
    `below`: the eager kinds) carrying `message`, its `{}` replaced by the
    bound.

    Example:
    ```mlir
    tfc.check_elements %b, nonzero, "tfc.floor_div: integer division by zero" : tensor<?xi32>
    tfc.check_elements %ids, in_range, "tfc.gather: an index is outside [0, {})" bound %n : tensor<?xi32>
    ```
  }];
  let arguments = (ins Tfc_IntTensor:$operand, Tfc_ElementPredicateAttr:$predicate,
                       Optional<Index>:$bound, StrAttr:$message);
  let assemblyFormat = [{
    $operand `,` $predicate `,` $message (`bound` $bound^)? attr-dict `:`
    type($operand)
  }];
  let hasVerifier = 1;
}

include "tfc/Dialect/Tfc/IR/TfcAutodiffOps.td"

#endif // TFC_OPS_TD
