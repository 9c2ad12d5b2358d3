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

def TfcReadOnlyArgumentsPass : Pass<"tfc-readonly-arguments", "ModuleOp"> {
  let summary = "Mark the tensor arguments of public functions read-only";
  let description = [{
    Sets `bufferization.writable = false` on every tensor argument of every
    public function, so that bufferization never writes into a caller's
    buffer: compiled code gets runtime tensors that other code still holds.
    The last step of `tfc-prepare-pipeline`, after which the JIT reads each
    public function's signature.

    Example:
    ```mlir
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32>
    // becomes
    func.func @f(%x: tensor<2xf32> {bufferization.writable = false}) -> tensor<2xf32>
    ```
  }];
  let dependentDialects = ["mlir::bufferization::BufferizationDialect"];
}

def TfcInsertRuntimeChecksPass : Pass<"tfc-insert-runtime-checks"> {
  let summary = "Check at run time what the verifier cannot: dynamic dims, divisors";
  let description = [{
    Compiled code must fail where the interpreter and the eager kernels fail.
    Before each op whose validity depends on a dynamic dim this pass emits a
    `tfc.check` on the dims (InvalidArgumentError): elementwise operands of
    equal shape, matmul inner and batch dims, reshape element counts, squeeze
    axes of size 1, slice bounds, broadcast sources (1 or the target dim),
    concat's non-axis dims, cross-entropy labels against logits, and
    reduce_max / reduce_min / argmax (and an integer reduce_mean) over zero
    elements of a non-empty result. A check whose condition folds to true is
    not emitted (static shapes need none); one that folds to false stays and
    fails every call, as the interpreter would.

    The dims are read from values computed before any fusion group (an
    elementwise result's dims are its first operand's), so the checks are a
    few scalar compares per op, outside every loop over elements, and they
    do not keep values out of fusion groups.

    Integer `floor_div` / `mod` get a `tfc.check_elements ... nonzero` on the
    divisor and integer `pow` a `nonnegative` one on the exponent
    (RuntimeError); a constant divisor is checked here instead.

    Example:
    ```mlir
    %0 = tfc.add %a, %b : tensor<?xf32>
    // becomes
    %c0 = arith.constant 0 : index
    %da = tensor.dim %a, %c0 : tensor<?xf32>
    %db = tensor.dim %b, %c0 : tensor<?xf32>
    %ok = arith.cmpi eq, %da, %db : index
    tfc.check %ok, invalid_argument, "tfc.add: operand shapes ({},) and ({},) differ at run time; elementwise ops do not broadcast" (%da, %db)
    %0 = tfc.add %a, %b : tensor<?xf32>
    ```
  }];
  let dependentDialects = ["mlir::arith::ArithDialect",
                           "mlir::tensor::TensorDialect"];
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

def TfcDedupFusionsPass : Pass<"tfc-dedup-fusions", "ModuleOp"> {
  let summary = "Compile repeated identical fusions once, as one function";
  let description = [{
    Tracing unrolls C++ loops, so a traced model repeats the same fused
    computation many times (a layer applied N times, an RNN cell unrolled
    over time). Each copy would be lowered, optimized and code-generated by
    LLVM separately. This pass finds `tfc.fusion` ops that are structurally
    identical (same kind, operand and result types, and the same body up to
    renaming of values) and, for every group of at least `min-repeats`,
    outlines one copy into a private function (marked `noinline` for LLVM)
    that each member calls. IREE deduplicates identical dispatch
    executables for the same reason.

    Example (two identical fusions):
    ```mlir
    %0 = tfc.fusion loop (%a, %b) : ... { tfc.tanh ... }
    %1 = tfc.fusion loop (%0, %b) : ... { tfc.tanh ... }
    // becomes
    %0 = func.call @main_fusion_0(%a, %b) : ...
    %1 = func.call @main_fusion_0(%0, %b) : ...
    func.func private @main_fusion_0(...) attributes {passthrough = ["noinline"]} {
      %r = tfc.fusion loop (...) { tfc.tanh ... }
      return %r : ...
    }
    ```
  }];
  let dependentDialects = ["mlir::func::FuncDialect"];
  let options = [
    Option<"minRepeats", "min-repeats", "unsigned", /*default=*/"2",
           "Outline a fusion only if this many identical copies exist">,
  ];
}

#endif // TFC_DIALECT_TFC_TRANSFORMS_PASSES_TD
