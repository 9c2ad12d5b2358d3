// tfc.conv2d and its gradients on hand-computed cases, the same in the
// interpreter (the runtime's im2col+GEMM kernels) and in compiled code
// (linalg; large convolutions call the same kernels, see
// test/Conversion/conv-to-linalg.mlir).
// RUN: tfc-run %s --mode=interpret | FileCheck %s
// RUN: tfc-run %s --mode=jit | FileCheck %s

// x = 1..9 as 3x3, a 2x2 filter of ones, VALID: the sums of the 2x2 windows.
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[\[}}12.]
// CHECK-NEXT: [16.]]
// CHECK: [24.]
// CHECK-NEXT: [28.]]]], shape=(1, 2, 2, 1), dtype=float32)
// SAME with a 3x3 filter of ones: the sums of each 3x3 neighbourhood.
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[\[}}12.]
// CHECK-NEXT: [21.]
// CHECK-NEXT: [16.]]
// CHECK: [27.]
// CHECK-NEXT: [45.]
// CHECK-NEXT: [33.]]
// CHECK: [24.]
// CHECK-NEXT: [39.]
// CHECK-NEXT: [28.]]]], shape=(1, 3, 3, 1), dtype=float32)
// SAME, stride 2: the corners' neighbourhoods (padding 1 before).
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[\[}}12.]
// CHECK-NEXT: [16.]]
// CHECK: [24.]
// CHECK-NEXT: [28.]]]], shape=(1, 2, 2, 1), dtype=float32)
// Dilation 2, VALID: the four corners, 1 + 3 + 7 + 9.
// CHECK: tfc.Tensor({{\[\[\[\[}}20.]]]], shape=(1, 1, 1, 1), dtype=float32)
// backprop_input of the first, dy = ones: how many windows cover each pixel.
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[\[}}1.]
// CHECK-NEXT: [2.]
// CHECK-NEXT: [1.]]
// CHECK: [2.]
// CHECK-NEXT: [4.]
// CHECK-NEXT: [2.]]
// CHECK: [1.]
// CHECK-NEXT: [2.]
// CHECK-NEXT: [1.]]]], shape=(1, 3, 3, 1), dtype=float32)
// backprop_filter of the first, dy = ones: the window sums again.
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[\[}}12.]]
// CHECK: [16.]]]
// CHECK: [24.]]
// CHECK: [28.]]]], shape=(2, 2, 1, 1), dtype=float32)
// backprop_input with stride 2 (2x2 windows tile a 4x4 input): each dy
// value spread over its window.
// CHECK: tfc.Tensor(
// CHECK-NEXT: {{\[\[\[\[}}1.]
// CHECK-NEXT: [1.]
// CHECK-NEXT: [2.]
// CHECK-NEXT: [2.]]
// CHECK: [1.]
// CHECK-NEXT: [1.]
// CHECK-NEXT: [2.]
// CHECK-NEXT: [2.]]
// CHECK: [3.]
// CHECK-NEXT: [3.]
// CHECK-NEXT: [4.]
// CHECK-NEXT: [4.]]
// CHECK: [3.]
// CHECK-NEXT: [3.]
// CHECK-NEXT: [4.]
// CHECK-NEXT: [4.]]]], shape=(1, 4, 4, 1), dtype=float32)

func.func @main() -> (tensor<1x2x2x1xf32>, tensor<1x3x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>, tensor<1x4x4x1xf32>) {
  %x = tfc.constant dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf32>
  %f2 = tfc.constant dense<1.0> : tensor<2x2x1x1xf32>
  %f3 = tfc.constant dense<1.0> : tensor<3x3x1x1xf32>
  %a = tfc.conv2d %x, %f2, strides = [1, 1], dilations = [1, 1], padding = "VALID" : (tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x2x1xf32>
  %b = tfc.conv2d %x, %f3, strides = [1, 1], dilations = [1, 1], padding = "SAME" : (tensor<1x3x3x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x3x3x1xf32>
  %c = tfc.conv2d %x, %f3, strides = [2, 2], dilations = [1, 1], padding = "SAME" : (tensor<1x3x3x1xf32>, tensor<3x3x1x1xf32>) -> tensor<1x2x2x1xf32>
  %d = tfc.conv2d %x, %f2, strides = [1, 1], dilations = [2, 2], padding = "VALID" : (tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<1x1x1x1xf32>
  %dy = tfc.constant dense<1.0> : tensor<1x2x2x1xf32>
  %e = tfc.conv2d_backprop_input %f2, %dy, input_shape = [1, 3, 3, 1], strides = [1, 1], dilations = [1, 1], padding = "VALID" : (tensor<2x2x1x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x3x3x1xf32>
  %g = tfc.conv2d_backprop_filter %x, %dy, filter_shape = [2, 2, 1, 1], strides = [1, 1], dilations = [1, 1], padding = "VALID" : (tensor<1x3x3x1xf32>, tensor<1x2x2x1xf32>) -> tensor<2x2x1x1xf32>
  %dy2 = tfc.constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %h = tfc.conv2d_backprop_input %f2, %dy2, input_shape = [1, 4, 4, 1], strides = [2, 2], dilations = [1, 1], padding = "VALID" : (tensor<2x2x1x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32>
  return %a, %b, %c, %d, %e, %g, %h : tensor<1x2x2x1xf32>, tensor<1x3x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1x3x3x1xf32>, tensor<2x2x1x1xf32>, tensor<1x4x4x1xf32>
}
