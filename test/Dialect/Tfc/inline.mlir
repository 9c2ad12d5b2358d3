// RUN: tfc-opt %s "--inline=default-pipeline=" | FileCheck %s

// The tfc inliner interface lets calls to tfc functions be inlined, also
// into the single-block regions of tfc.if and tfc.while. The inliner's
// simplification pipeline is off so callees reach it as written.

func.func private @square_plus(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfc.square %x : tensor<2xf32>
  %1 = tfc.add %0, %y : tensor<2xf32>
  return %1 : tensor<2xf32>
}

// CHECK-LABEL: func @call_at_top_level
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>)
func.func @call_at_top_level(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK-NOT: call
  // CHECK: %[[S:.*]] = tfc.square %[[A]] : tensor<2xf32>
  // CHECK: %[[R:.*]] = tfc.add %[[S]], %[[B]] : tensor<2xf32>
  %0 = func.call @square_plus(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: return %[[R]]
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @call_in_if
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[A:.*]]: tensor<2xf32>)
func.func @call_in_if(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfc.if %[[P]] -> (tensor<2xf32>) {
  // CHECK-NEXT: %[[S:.*]] = tfc.square %[[A]]
  // CHECK-NEXT: %[[R:.*]] = tfc.add %[[S]], %[[A]]
  // CHECK-NEXT: tfc.yield %[[R]]
  %r = tfc.if %p -> (tensor<2xf32>) {
    %0 = func.call @square_plus(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %0 : tensor<2xf32>
  } else {
    tfc.yield %a : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func @call_in_while
func.func @call_in_while(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfc.while
  // CHECK: } do {
  // CHECK-NEXT: ^bb0(%[[B:.*]]: tensor<2xf32>):
  // CHECK-NEXT: %[[S:.*]] = tfc.square %[[B]]
  // CHECK-NEXT: %[[R:.*]] = tfc.add %[[S]], %[[B]]
  // CHECK-NEXT: tfc.yield %[[R]]
  %r = tfc.while (%x = %a) : (tensor<2xf32>) -> tensor<2xf32> {
    tfc.condition(%p) %x : tensor<2xf32>
  } do {
  ^bb0(%y: tensor<2xf32>):
    %0 = func.call @square_plus(%y, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %0 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

func.func private @two_blocks(%x: tensor<2xf32>) -> tensor<2xf32> {
  cf.br ^next(%x : tensor<2xf32>)
^next(%y: tensor<2xf32>):
  %0 = tfc.neg %y : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// tfc regions hold one block, so a multi-block callee stays a call there.
// CHECK-LABEL: func @multi_block_callee_in_if
func.func @multi_block_callee_in_if(%p: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfc.if
  // CHECK-NEXT: func.call @two_blocks
  %r = tfc.if %p -> (tensor<2xf32>) {
    %0 = func.call @two_blocks(%a) : (tensor<2xf32>) -> tensor<2xf32>
    tfc.yield %0 : tensor<2xf32>
  } else {
    tfc.yield %a : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
