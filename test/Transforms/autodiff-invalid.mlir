// Bad input to tfc-autodiff: a diagnostic and exit code 1, never a crash.
// RUN: not tfc-opt --tfc-autodiff %s --split-input-file 2>&1 | FileCheck %s
// RUN: tfc-opt --tfc-autodiff %s --split-input-file --verify-diagnostics

func.func @f(%x: tensor<3xi32>, %w: tensor<3xf32>) -> tensor<f32> {
  %c = tfc.cast %x : tensor<3xi32> to tensor<3xf32>
  %m = tfc.mul %c, %w : tensor<3xf32>
  %s = tfc.reduce_sum %m, axes = [0], keepdims = false : tensor<3xf32> -> tensor<f32>
  return %s : tensor<f32>
}
// CHECK: error: 'tfc.grad' op cannot differentiate with respect to argument 0 of type 'tensor<3xi32>': gradients are defined only for f32 and f64 tensors
func.func @g(%x: tensor<3xi32>, %w: tensor<3xf32>) -> tensor<3xi32> {
  // expected-error @+1 {{cannot differentiate with respect to argument 0 of type 'tensor<3xi32>'}}
  %g = tfc.grad @f(%x, %w) wrt [0] : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xi32>
  return %g : tensor<3xi32>
}

// -----

// CHECK: error: 'tfc.grad' op needs @two to return exactly one f32 or f64 tensor
func.func @two(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  return %x, %x : tensor<f32>, tensor<f32>
}
func.func @g(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{needs @two to return exactly one f32 or f64 tensor}}
  %g = tfc.grad @two(%x) wrt [0] : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}

// -----

// CHECK: error: 'tfc.while' op cannot be differentiated: tfc-autodiff needs the before region to pass its arguments unchanged
func.func @loop(%x0: tensor<f64>) -> tensor<f64> {
  %bound = tfc.constant dense<1.4> : tensor<f64>
  // expected-error @+1 {{needs the before region to pass its arguments unchanged}}
  %r = tfc.while (%x = %x0) : (tensor<f64>) -> tensor<f64> {
    %c = tfc.cmp lt, %x, %bound : tensor<f64>
    %y = tfc.sin %x : tensor<f64>
    tfc.condition(%c) %y : tensor<f64>
  } do {
  ^bb0(%y: tensor<f64>):
    tfc.yield %y : tensor<f64>
  }
  return %r : tensor<f64>
}
func.func @g(%x: tensor<f64>) -> tensor<f64> {
  %g = tfc.grad @loop(%x) wrt [0] : (tensor<f64>) -> tensor<f64>
  return %g : tensor<f64>
}

// -----

// Dynamic dims: rules that place blocks by static offsets (concat, slice,
// convolution, pooling) refuse them, naming the op and the shape.
// CHECK: error: 'tfc.concat' op gradient rule failed: gradient of concat: input 0 has a dynamic shape (-1,) (-1: dynamic); this gradient needs static shapes
func.func @dyn(%x: tensor<?xf32>) -> tensor<f32> {
  // expected-error @+1 {{this gradient needs static shapes}}
  %c = tfc.concat %x, %x axis = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %s = tfc.reduce_sum %c, axes = [0], keepdims = false : tensor<?xf32> -> tensor<f32>
  return %s : tensor<f32>
}
func.func @g(%x: tensor<?xf32>) -> tensor<?xf32> {
  %g = tfc.grad @dyn(%x) wrt [0] : (tensor<?xf32>) -> tensor<?xf32>
  return %g : tensor<?xf32>
}

// -----

// CHECK: error: 'func.call' op differentiates @rec, which calls itself: recursive functions are not supported
func.func @rec(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{differentiates @rec, which calls itself}}
  %y = func.call @rec(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @g(%x: tensor<f32>) -> tensor<f32> {
  %g = tfc.grad @rec(%x) wrt [0] : (tensor<f32>) -> tensor<f32>
  return %g : tensor<f32>
}
