//===- Passes.td - tfc dialect transforms ------------------*- tablegen -*-===//
#ifndef TFC_DIALECT_TFC_TRANSFORMS_PASSES_TD
#define TFC_DIALECT_TFC_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TfcPromoteVariablesPass : Pass<"tfc-promote-variables", "ModuleOp"> {
  let summary = "Turn variable handles into values threaded through the program";
  let description = [{
    Every public function taking `!tfc.var<T>` arguments is rewritten so that
    the variable's value enters as a `T` argument and, when the function
    writes the variable, its final value leaves as an extra result (after the
    original results). `tfc.var_read` becomes the current value,
    `tfc.var_assign{,_add,_sub}` a new current value; `tfc.if` and
    `tfc.while` gain results / loop-carried values for the variables their
    regions write. The attribute `tfc.written_vars` on the function lists,
    in result order, the argument index of each variable written.

    The caller commits those results to the variables only when the call
    completes, which gives TensorFlow's rule that a failed call (a failed
    `tfc.assert`) leaves every variable unchanged.

    Example:
    ```mlir
    func.func @inc(%v: !tfc.var<tensor<f32>>) -> tensor<f32> {
      %one = tfc.constant dense<1.0> : tensor<f32>
      tfc.var_assign_add %v, %one : !tfc.var<tensor<f32>>
      %0 = tfc.var_read %v : !tfc.var<tensor<f32>>
      return %0 : tensor<f32>
    }
    // becomes
    func.func @inc(%v: tensor<f32>) -> (tensor<f32>, tensor<f32>)
        attributes {tfc.written_vars = [0]} {
      %one = tfc.constant dense<1.0> : tensor<f32>
      %0 = tfc.add %v, %one : tensor<f32>
      return %0, %0 : tensor<f32>, tensor<f32>
    }
    ```
  }];
}

#endif // TFC_DIALECT_TFC_TRANSFORMS_PASSES_TD
