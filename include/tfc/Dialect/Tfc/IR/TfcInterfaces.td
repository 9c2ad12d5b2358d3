//===- TfcInterfaces.td - tfc op interfaces ----------------*- tablegen -*-===//
#ifndef TFC_INTERFACES_TD
#define TFC_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Tfc_ElementwiseOpInterface : OpInterface<"ElementwiseOpInterface"> {
  let description = [{
    An op that maps same-shaped operands to a same-shaped result one element
    at a time. Fusion groups these; lowering emits one `linalg.generic` body
    per op. Its verifier checks that every tensor operand and result has the
    shape of the first operand (dynamic dims are compatible with any size).
  }];
  let cppNamespace = "::mlir::tfc";
  // Runs before the `Elementwise` trait (list it first among an op's traits)
  // so shape mismatches are reported with the types involved.
  let verify = [{ return ::mlir::tfc::detail::verifyElementwiseOp($_op); }];
}

#endif // TFC_INTERFACES_TD
