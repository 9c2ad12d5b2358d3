//===- TfcAutodiffOps.td - ops of the tfc-autodiff pass ----*- tablegen -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Included at the end of TfcOps.td. The ops that ask for a gradient
// (`tfc.grad`), that carry a user-written gradient (`tfc.custom_gradient`),
// and the stack the reverse pass of a `tfc.while` saves loop values on
// (`!tfc.stack`, `tfc.stack_*`). See docs/autodiff.md.
//
//===----------------------------------------------------------------------===//

#ifndef TFC_AUTODIFF_OPS_TD
#define TFC_AUTODIFF_OPS_TD

include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"

//===----------------------------------------------------------------------===//
// !tfc.stack
//===----------------------------------------------------------------------===//

def Tfc_StackType : Tfc_Type<"Stack", "stack"> {
  let summary = "handle to a last-in first-out stack of tensors of one type";
  let description = [{
    A `!tfc.stack<tensor<2xf32>>` refers to a growable stack owned by the
    runtime, created by `tfc.stack_new` and destroyed by `tfc.stack_free`.
    `tfc.stack_push` and `tfc.stack_pop` change it in place (they have memory
    effects, so they are never reordered or removed). The element type has a
    static shape, so every entry has the same size. `tfc-autodiff` uses one
    stack per loop-carried value of a `tfc.while` it differentiates.

    Example: `%s = tfc.stack_new : !tfc.stack<tensor<f64>>`
  }];
  let parameters = (ins "::mlir::RankedTensorType":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
  let genVerifyDecl = 1;
}

/// The rank-0 `tensor<i64>` of `tfc.stack_size`.
def Tfc_I64Scalar : 0DTensorOf<[I64]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI64Type())";
}

def Tfc_Stack : Type<CPred<"::llvm::isa<::mlir::tfc::StackType>($_self)">,
                     "!tfc.stack handle", "::mlir::tfc::StackType">;

/// The stack operand of push/pop/size/free; its element type must match.
class Tfc_StackOp<string mnemonic, list<Trait> traits = []>
    : Tfc_Op<mnemonic, traits>;

def Tfc_StackNewOp : Tfc_StackOp<"stack_new", [MemoryEffects<[MemAlloc]>]> {
  let summary = "creates an empty stack";
  let description = [{
    Example:
    ```mlir
    %s = tfc.stack_new : !tfc.stack<tensor<2xf32>>
    ```
  }];
  let results = (outs Tfc_Stack:$stack);
  let assemblyFormat = "attr-dict `:` qualified(type($stack))";
}

def Tfc_StackPushOp : Tfc_StackOp<"stack_push", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"value has the stack's element type", "stack", "value",
      "::llvm::cast<::mlir::tfc::StackType>($_self).getElementType()">]> {
  let summary = "pushes a copy of a tensor onto a stack";
  let description = [{
    Example:
    ```mlir
    tfc.stack_push %s, %x : !tfc.stack<tensor<2xf32>>
    ```
  }];
  let arguments = (ins Tfc_Stack:$stack, Tfc_Tensor:$value);
  let assemblyFormat = "$stack `,` $value attr-dict `:` qualified(type($stack))";
}

def Tfc_StackPopOp : Tfc_StackOp<"stack_pop", [
    MemoryEffects<[MemRead, MemWrite]>,
    TypesMatchWith<"result has the stack's element type", "stack", "value",
      "::llvm::cast<::mlir::tfc::StackType>($_self).getElementType()">]> {
  let summary = "removes the top entry of a stack and returns it";
  let description = [{
    Popping an empty stack is a run-time error.

    Example:
    ```mlir
    %x = tfc.stack_pop %s : !tfc.stack<tensor<2xf32>>
    ```
  }];
  let arguments = (ins Tfc_Stack:$stack);
  let results = (outs Tfc_Tensor:$value);
  let assemblyFormat = "$stack attr-dict `:` qualified(type($stack))";
}

def Tfc_StackSizeOp : Tfc_StackOp<"stack_size", [MemoryEffects<[MemRead]>]> {
  let summary = "the number of entries on a stack, as a rank-0 i64 tensor";
  let description = [{
    Example:
    ```mlir
    %n = tfc.stack_size %s : !tfc.stack<tensor<2xf32>>
    ```
  }];
  let arguments = (ins Tfc_Stack:$stack);
  let results = (outs Tfc_I64Scalar:$size);
  let assemblyFormat = "$stack attr-dict `:` qualified(type($stack))";
}

def Tfc_StackFreeOp : Tfc_StackOp<"stack_free", [MemoryEffects<[MemFree]>]> {
  let summary = "destroys a stack and the entries left on it";
  let description = [{
    The handle must not be used afterwards.

    Example:
    ```mlir
    tfc.stack_free %s : !tfc.stack<tensor<2xf32>>
    ```
  }];
  let arguments = (ins Tfc_Stack:$stack);
  let assemblyFormat = "$stack attr-dict `:` qualified(type($stack))";
}

//===----------------------------------------------------------------------===//
// tfc.grad
//===----------------------------------------------------------------------===//

def Tfc_GradOp : Tfc_Op<"grad", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "the gradient of a function with respect to some arguments";
  let description = [{
    The gradient of the sum of `@callee`'s only result (a float tensor) with
    respect to the arguments listed in `wrt`, evaluated at `operands`: one
    result per entry of `wrt`, each of that argument's type. Every argument
    in `wrt` must be an f32 or f64 tensor.

    `tfc-autodiff` replaces it by a call of the reverse-mode gradient
    function it generates (`@callee_vjp`). That function is ordinary tfc IR,
    so a function containing `tfc.grad` can itself be differentiated
    (higher-order derivatives).

    Example:
    ```mlir
    %g:2 = tfc.grad @f(%x, %w) wrt [0, 1] : (tensor<f32>, tensor<3xf32>) -> (tensor<f32>, tensor<3xf32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, DenseI64ArrayAttr:$wrt,
                       Variadic<Tfc_Tensor>:$operands);
  let results = (outs Variadic<Tfc_Tensor>:$grads);
  let assemblyFormat = [{
    $callee `(` $operands `)` `wrt` $wrt attr-dict `:`
    functional-type($operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// tfc.custom_gradient
//===----------------------------------------------------------------------===//

def Tfc_CustomGradientOp : Tfc_Op<"custom_gradient", [IsolatedFromAbove,
    RecursiveMemoryEffects]> {
  let summary = "a computation with a user-written gradient";
  let description = [{
    `forward` computes the results from its block arguments (one per
    operand). `backward` receives the operands, the results and one adjoint
    per result, in that order, and yields one adjoint per operand (a zero
    tensor for an operand that gets no gradient). Running the op runs
    `forward`; `tfc-autodiff` uses `backward` as the op's gradient rule
    instead of differentiating `forward` (`tfc::custom_gradient`, e.g. a
    numerically stable `log(1 + exp(x))`). Both regions end in
    `tfc.custom_yield` and are isolated from above.

    Example:
    ```mlir
    %y = tfc.custom_gradient (%x) : (tensor<f32>) -> tensor<f32> {
    ^bb0(%a: tensor<f32>):
      %e = tfc.exp %a : tensor<f32>
      %l = tfc.log1p %e : tensor<f32>
      tfc.custom_yield %l : tensor<f32>
    } backward {
    ^bb0(%a: tensor<f32>, %y: tensor<f32>, %dy: tensor<f32>):
      %s = tfc.sigmoid %a : tensor<f32>
      %d = tfc.mul %dy, %s : tensor<f32>
      tfc.custom_yield %d : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tfc_Tensor>:$inputs);
  let results = (outs Variadic<Tfc_Tensor>:$results);
  let regions = (region SizedRegion<1>:$forward, SizedRegion<1>:$backward);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results)
    $forward `backward` $backward
  }];
  let hasVerifier = 1;
}

def Tfc_CustomYieldOp : Tfc_Op<"custom_yield", [Pure, ReturnLike, Terminator,
    HasParent<"CustomGradientOp">]> {
  let summary = "ends a region of tfc.custom_gradient";
  let description = [{
    Example:
    ```mlir
    tfc.custom_yield %a : tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<Tfc_Tensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

#endif // TFC_AUTODIFF_OPS_TD
