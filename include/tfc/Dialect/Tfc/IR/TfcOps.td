//===- TfcOps.td - tfc operations --------------------------*- tablegen -*-===//
#ifndef TFC_OPS_TD
#define TFC_OPS_TD

include "tfc/Dialect/Tfc/IR/TfcDialect.td"
include "tfc/Dialect/Tfc/IR/TfcInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

class Tfc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tfc_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// tfc.constant
//===----------------------------------------------------------------------===//

def Tfc_ConstantOp : Tfc_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "a dense tensor constant";
  let description = [{
    Materialises a dense elements attribute as a tensor value.

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
// Elementwise binary ops
//===----------------------------------------------------------------------===//

class Tfc_BinaryElementwiseOp<string mnemonic, Type operandType,
                              list<Trait> traits = []>
    : Tfc_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType,
        Elementwise, DeclareOpInterfaceMethods<Tfc_ElementwiseOpInterface>])> {
  let arguments = (ins operandType:$lhs, operandType:$rhs);
  let results = (outs operandType:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Tfc_AddOp : Tfc_BinaryElementwiseOp<"add", Tfc_NumericTensor,
    [Commutative]> {
  let summary = "elementwise addition";
  let description = [{
    Example:
    ```mlir
    %0 = tfc.add %a, %b : tensor<2x3xf32>
    ```
  }];
  let hasFolder = 1;
}

#endif // TFC_OPS_TD
