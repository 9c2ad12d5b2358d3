//===- AutodiffPasses.td - tfc-autodiff --------------------*- tablegen -*-===//
//
// Apart from Passes.td: this pass links the frontend (its gradient rules),
// which the JIT, linked by the frontend, must not depend on.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_DIALECT_TFC_TRANSFORMS_AUTODIFFPASSES_TD
#define TFC_DIALECT_TFC_TRANSFORMS_AUTODIFFPASSES_TD

include "mlir/Pass/PassBase.td"

def TfcAutodiffPass : Pass<"tfc-autodiff", "ModuleOp"> {
  let summary = "Generate reverse-mode gradient functions for tfc.grad";
  let description = [{
    For every function `@f` that a `tfc.grad` differentiates, generates
    `@f_vjp(args..., dys...) -> (dargs...)`: the forward computation followed
    by the adjoint of each op in reverse order (one adjoint per f32/f64
    argument, one `dy` per f32/f64 result). Each `tfc.grad @f(...) wrt [...]`
    becomes a call of `@f_vjp` seeded with ones.

    - Kernel ops use the gradient rules of the frontend, the same rules the
      eager tape runs (GradientRules.cpp).
    - `tfc.if`: an `if` on the same predicate whose branches recompute their
      forward branch and yield its adjoints.
    - `tfc.while`: the forward loop counts its iterations and pushes the
      values entering each iteration onto `!tfc.stack`s; a backward loop runs
      that many times, popping them, recomputing the body and applying its
      adjoint: O(N) time and memory for N iterations.
    - `tfc.custom_gradient`: its `backward` region is inlined as the rule.
    - `func.call @g`: a call of `@g_vjp` (generated on demand).

    The output is ordinary tfc IR (plus stack ops), so running the pass again
    on a function that contains a lowered `tfc.grad` differentiates the
    gradient (higher orders). Gradients need static shapes.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def TfcVJPPass : Pass<"tfc-vjp", "ModuleOp"> {
  let summary = "Generate the VJP of one function, split at its forward sweep";
  let description = [{
    Generates, for the function named by `function` (`@f`), what
    `tfc-autodiff` generates for a `tfc.grad` of it, `@f_vjp(args..., dys...)
    -> (dargs...)`, and that VJP cut in two where its forward sweep ends:

    - `@f_fwd(args...) -> (results..., residuals...)`: `@f`'s results and
      the values the forward sweep computes and the reverse sweep reads;
    - `@f_bwd(args..., residuals..., dys...) -> (dargs...)`: the reverse
      sweep.

    A caller that runs `@f_fwd` instead of `@f` keeps the residuals and
    later runs only `@f_bwd`: the backward pass of a compiled call does not
    recompute its forward. Where a residual is not a tensor (the
    `!tfc.stack`s of a differentiated `tfc.while`) only `@f_vjp` is
    generated, unless `recompute-loops` asks for loops without stacks. One `dy` per f32/f64 result and one adjoint per f32/f64
    argument, as for `tfc.grad`; gradients need static shapes.
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"\"",
           "the function to differentiate">,
    Option<"recomputeLoops", "recompute-loops", "bool", /*default=*/"false",
           "loops keep no stacks: each adjoint iteration recomputes the "
           "values entering it from the inits (O(N^2)); the gradient can be "
           "differentiated again">
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // TFC_DIALECT_TFC_TRANSFORMS_AUTODIFFPASSES_TD
