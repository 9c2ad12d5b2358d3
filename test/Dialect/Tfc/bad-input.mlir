// Bad input of every kind makes tfc-opt print a located diagnostic and exit
// with status 1; `not` fails the test if tfc-opt crashes instead.

// RUN: not tfc-opt %S/Inputs/garbage.mlir 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: garbage.mlir:1:1: error: custom op 'this' is unknown

// RUN: not tfc-opt %S/Inputs/truncated-region.mlir 2>&1 | FileCheck %s --check-prefix=TRUNC-REGION
// TRUNC-REGION: truncated-region.mlir:7:{{[0-9]+}}: error: expected operation name in quotes

// RUN: not tfc-opt %S/Inputs/truncated-op.mlir 2>&1 | FileCheck %s --check-prefix=TRUNC-OP
// TRUNC-OP: truncated-op.mlir:2:{{[0-9]+}}: error: expected non-function type

// RUN: not tfc-opt %S/Inputs/bad-bytecode.mlirbc 2>&1 | FileCheck %s --check-prefix=BYTECODE
// BYTECODE: bad-bytecode.mlirbc:{{[0-9]+}}:{{[0-9]+}}: error:

// Each split below is one more bad input; every one must be diagnosed.
// RUN: not tfc-opt %s -split-input-file 2>&1 | FileCheck %s

func.func @unknown_op(%a: tensor<2xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: custom op 'tfc.frobnicate' is unknown
  %0 = tfc.frobnicate %a : tensor<2xf32>
  return
}

// -----

func.func @wrong_operand_type(%a: tensor<2xi32>, %b: tensor<2xi32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:16: error: use of value '%a' expects different type than prior uses: 'tensor<2xf32>' vs 'tensor<2xi32>'
  %0 = tfc.add %a, %b : tensor<2xf32>
  return
}

// -----

func.func @undefined_value() {
  // CHECK: bad-input.mlir:[[@LINE+1]]:16: error: use of undeclared SSA value name
  %0 = tfc.exp %nowhere : tensor<2xf32>
  return
}

// -----

func.func @unbalanced(%a: tensor<2xf32>) {
  %0 = tfc.exp %a : tensor<2xf32>
  return
// The split ends here, inside the function body:
// CHECK: bad-input.mlir:[[@LINE]]:{{[0-9]+}}: error: expected operation name in quotes
// -----

func.func @bad_var_type(%v: !tfc.var<f32>) {
  // CHECK: bad-input.mlir:[[@LINE-1]]:{{[0-9]+}}: error: invalid kind of type specified: expected builtin.tensor, but found 'f32'
  return
}

// -----

func.func @if_wrong_terminator(%p: tensor<i1>, %c: tensor<i1>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:3: error: 'tfc.if' op expected the then region to end with 'tfc.yield' but got 'tfc.condition'
  tfc.if %p {
    tfc.condition(%c)
  }
  return
}

// -----

func.func @while_wrong_terminator(%i: tensor<i32>) -> tensor<i32> {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: 'tfc.while' op expected the before region to end with 'tfc.condition' but got 'tfc.yield'
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.yield %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    tfc.yield %b : tensor<i32>
  }
  return %r : tensor<i32>
}

// -----

func.func @if_result_mismatch(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<f32> {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: 'tfc.if' op the then region's tfc.yield value #0 has type 'tensor<2xf32>' but result #0 has type 'tensor<f32>'
  %r = tfc.if %p -> (tensor<f32>) {
    tfc.yield %a : tensor<2xf32>
  } else {
    tfc.yield %a : tensor<2xf32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_result_mismatch(%i: tensor<i32>, %p: tensor<i1>) -> tensor<f32> {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: 'tfc.while' op tfc.condition value #0 has type 'tensor<i32>' but result #0 has type 'tensor<f32>'
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<f32> {
    tfc.condition(%p) %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    tfc.yield %b : tensor<i32>
  }
  return %r : tensor<f32>
}

// -----

func.func @while_missing_do(%i: tensor<i32>, %p: tensor<i1>) {
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %a : tensor<i32>
  }
  // CHECK: bad-input.mlir:[[@LINE+1]]:3: error: custom op 'tfc.while' expected 'do'
  return
}

// -----

func.func @while_bad_assignment(%i: tensor<i32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:21: error: expected '='
  %r = tfc.while (%a %i) : (tensor<i32>) -> tensor<i32> {
  } do {
  }
  return
}

// -----

func.func @if_without_region(%p: tensor<i1>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected '{' to begin a region
  tfc.if %p
}

// -----

func.func @cmp_missing_predicate(%a: tensor<2xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:16: error: custom op 'tfc.cmp' expected string or keyword containing one of the following enum values for attribute 'predicate'
  %0 = tfc.cmp %a, %a : tensor<2xf32>
  return
}

// -----

func.func @transpose_bad_attr(%a: tensor<2x3xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected '['
  %0 = tfc.transpose %a, perm = 1 : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @generic_wrong_attr_type(%a: tensor<2x3xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'tfc.transpose' op attribute 'perm' failed to satisfy constraint: i64 dense array attribute
  %0 = "tfc.transpose"(%a) {perm = 1 : i64} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @generic_wrong_region_count(%p: tensor<i1>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:3: error: 'tfc.if' op expected 2 regions
  "tfc.if"(%p) ({
    "tfc.yield"() : () -> ()
  }) : (tensor<i1>) -> ()
  return
}

// -----

func.func @generic_wrong_operand_count(%a: tensor<2xf32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: 'tfc.add' op expected 2 operands, but found 1
  %0 = "tfc.add"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @generic_empty_while(%i: tensor<i32>) {
  // CHECK: bad-input.mlir:[[@LINE+1]]:8: error: 'tfc.while' op region #0 ('before') failed to verify constraint: region with 1 blocks
  %r = "tfc.while"(%i) ({}, {}) : (tensor<i32>) -> tensor<i32>
  return
}
