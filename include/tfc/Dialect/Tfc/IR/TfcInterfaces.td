//===- TfcInterfaces.td - tfc op interfaces ----------------*- tablegen -*-===//
#ifndef TFC_INTERFACES_TD
#define TFC_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Tfc_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let description = [{
    An op that maps same-shaped operands to a same-shaped result one element
    at a time. Fusion groups these; lowering emits one `linalg.generic` body
    per op through `buildScalar`.
  }];
  let cppNamespace = "::mlir::tfc";
}

#endif // TFC_INTERFACES_TD
