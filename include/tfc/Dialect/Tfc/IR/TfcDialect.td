//===- TfcDialect.td - The tfc dialect ---------------------*- tablegen -*-===//
#ifndef TFC_DIALECT_TD
#define TFC_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tfc_Dialect : Dialect {
  let name = "tfc";
  let summary = "TensorFlow-2-style tensor programs with real control flow";
  let description = [{
    The `tfc` dialect is what `tfc::function` traces C++ code into. Values are
    builtin ranked tensors of `i1`, `i32`, `i64`, `f32` or `f64` (dynamic dims
    allowed). Elementwise ops take operands of one shape: the tracer inserts an
    explicit `tfc.broadcast_to`, which keeps elementwise ops simple to fuse and
    lower. Control flow is structured (`tfc.if`, `tfc.while`, modelled on
    `scf`), and state lives in variables reached through `!tfc.var` handles.
  }];
  let cppNamespace = "::mlir::tfc";
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class Tfc_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Tfc_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Tfc_VarType : Tfc_Type<"Var", "var"> {
  let summary = "handle to a mutable variable holding one tensor";
  let description = [{
    A `!tfc.var<tensor<2x2xf32>>` refers to storage that outlives one call of
    a function. It is read with `tfc.var_read` and written with
    `tfc.var_assign`; the value type never changes.

    Example: `%v: !tfc.var<tensor<f32>>`
  }];
  let parameters = (ins "::mlir::RankedTensorType":$valueType);
  let assemblyFormat = "`<` $valueType `>`";
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tfc_Element : AnyTypeOf<[I1, I32, I64, F32, F64]>;
def Tfc_Tensor : RankedTensorOf<[I1, I32, I64, F32, F64]>;
def Tfc_FloatTensor : RankedTensorOf<[F32, F64]>;
def Tfc_NumericTensor : RankedTensorOf<[I32, I64, F32, F64]>;
def Tfc_IntTensor : RankedTensorOf<[I32, I64]>;
def Tfc_BoolTensor : RankedTensorOf<[I1]>;
def Tfc_ScalarBoolTensor : 0DTensorOf<[I1]>;

#endif // TFC_DIALECT_TD
