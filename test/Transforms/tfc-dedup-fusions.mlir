// RUN: tfc-opt %s --tfc-dedup-fusions --split-input-file | FileCheck %s
// RUN: tfc-opt %s --tfc-dedup-fusions="min-repeats=3" --split-input-file | FileCheck %s --check-prefix=THREE
// The whole CPU pipeline runs the pass after fusion, and the outlined
// function stays one function in LLVM (noinline):
// RUN: tfc-opt %s --split-input-file --tfc-cpu-pipeline | FileCheck %s --check-prefix=LLVM

// Two identical fusions (a traced loop body repeated) become two calls of
// one private function; the function holds one copy of the fusion.
// CHECK-LABEL: func.func private @repeated_fusion
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>) -> tensor<4xf32>
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK: %[[F:.*]] = tfc.fusion loop(%[[A]], %[[B]])
// CHECK: tfc.tanh
// CHECK: return %[[F]]
// CHECK-LABEL: func.func @repeated
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[C0:.*]] = call @repeated_fusion(%[[X]], %[[Y]])
// CHECK: %[[C1:.*]] = call @repeated_fusion(%[[C0]], %[[Y]])
// CHECK-NOT: tfc.fusion
// CHECK: return %[[C1]]
// Two copies are not enough when three are asked for.
// THREE-LABEL: func.func @repeated
// THREE-COUNT-2: tfc.fusion
// THREE-NOT: call
// LLVM: llvm.func @repeated_fusion({{.*}}passthrough = ["noinline"]
// LLVM: llvm.func @repeated(
// LLVM-COUNT-2: llvm.call @repeated_fusion(
func.func @repeated(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tfc.fusion loop(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %1 = tfc.mul %a, %b : tensor<4xf32>
    %2 = tfc.tanh %1 : tensor<4xf32>
    tfc.yield %2 : tensor<4xf32>
  }
  %3 = tfc.fusion loop(%0, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %1 = tfc.mul %a, %b : tensor<4xf32>
    %2 = tfc.tanh %1 : tensor<4xf32>
    tfc.yield %2 : tensor<4xf32>
  }
  return %3 : tensor<4xf32>
}

// -----

// Same ops in the same order, but wired differently (a - b versus b - a),
// of another shape, or with another constant: three different functions of
// their inputs, so nothing is outlined.
// CHECK-LABEL: func.func @different
// CHECK-NOT: call
// CHECK-COUNT-4: tfc.fusion
// CHECK-NOT: func.func private
func.func @different(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4xf32>) {
  %0 = tfc.fusion loop(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %1 = tfc.sub %a, %b : tensor<4xf32>
    %2 = tfc.exp %1 : tensor<4xf32>
    tfc.yield %2 : tensor<4xf32>
  }
  %3 = tfc.fusion loop(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %1 = tfc.sub %b, %a : tensor<4xf32>
    %2 = tfc.exp %1 : tensor<4xf32>
    tfc.yield %2 : tensor<4xf32>
  }
  %4 = tfc.fusion loop(%z, %z) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
    %1 = tfc.sub %a, %b : tensor<8xf32>
    %2 = tfc.exp %1 : tensor<8xf32>
    tfc.yield %2 : tensor<8xf32>
  }
  %5 = tfc.fusion loop(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %c = tfc.constant dense<3.0> : tensor<4xf32>
    %1 = tfc.sub %a, %c : tensor<4xf32>
    %2 = tfc.exp %1 : tensor<4xf32>
    tfc.yield %2 : tensor<4xf32>
  }
  return %0, %3, %4, %5 : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>, tensor<4xf32>
}

// -----

// Fusions inside control flow are outlined too; the callee's name does not
// clash with an existing symbol.
// CHECK-LABEL: func.func @loop_fusion(
// CHECK-LABEL: func.func private @loop_fusion_0(
// CHECK-LABEL: func.func @loop(
// CHECK: tfc.if
// CHECK: call @loop_fusion_0
// CHECK: call @loop_fusion_0
func.func @loop_fusion(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @loop(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tfc.if %p -> (tensor<4xf32>) {
    %0 = tfc.fusion loop(%x) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>):
      %1 = tfc.neg %a : tensor<4xf32>
      %2 = tfc.exp %1 : tensor<4xf32>
      tfc.yield %2 : tensor<4xf32>
    }
    tfc.yield %0 : tensor<4xf32>
  } else {
    %0 = tfc.fusion loop(%x) : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: tensor<4xf32>):
      %1 = tfc.neg %a : tensor<4xf32>
      %2 = tfc.exp %1 : tensor<4xf32>
      tfc.yield %2 : tensor<4xf32>
    }
    tfc.yield %0 : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
