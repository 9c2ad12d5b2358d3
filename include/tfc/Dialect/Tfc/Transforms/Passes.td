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

def TfcFuseElementwisePass : Pass<"tfc-fuse-elementwise"> {
  let summary = "Group elementwise producer-consumer chains into tfc.fusion ops";
  let description = [{
    Walks each block from its last op up. Every elementwise op or reduction
    not yet in a group roots a new group, which then pulls in the producers
    of its operands, transitively:

    - an elementwise op of the group's shape whose every user is in the
      group moves in;
    - one whose other users all come after the group's root moves in too,
      and its value becomes an extra result (multi-output fusion): nothing
      is computed twice;
    - splat constants and `broadcast_to` ops are cloned in even when they
      have other users: reading them costs no more than reading the value
      they would otherwise pass in. A `broadcast_to` is absorbed only if an
      affine map can express it (each operand dim is a static 1 or equal to
      its target dim).
    - any other producer with users outside the group stays outside: an
      expensive value (say a `tanh`) with several consumers is computed
      once and read, never duplicated.

    A group rooted at a reduction is an `input` fusion (its elementwise
    producers run in the reduction's loop nest). Groups of one op stay as
    they are; a group is dropped if it would need more than `max-inputs`
    inputs or `max-outputs` results, or if no input can give the size of a
    dynamic dim. The code generator emits one loop nest per fusion.

    Example:
    ```mlir
    %0 = tfc.mul %x, %a : tensor<16xf32>
    %1 = tfc.tanh %0 : tensor<16xf32>
    %2 = tfc.add %1, %x : tensor<16xf32>
    // becomes
    %2 = tfc.fusion loop (%x, %a) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
    ^bb0(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>):
      %0 = tfc.mul %arg0, %arg1 : tensor<16xf32>
      %1 = tfc.tanh %0 : tensor<16xf32>
      %2 = tfc.add %1, %arg0 : tensor<16xf32>
      tfc.yield %2 : tensor<16xf32>
    }
    ```
  }];
  let options = [
    Option<"maxInputs", "max-inputs", "unsigned", /*default=*/"16",
           "Largest number of inputs a fusion may take">,
    Option<"maxOutputs", "max-outputs", "unsigned", /*default=*/"4",
           "Largest number of results a fusion may have">,
  ];
}

#endif // TFC_DIALECT_TFC_TRANSFORMS_PASSES_TD
