// conv2d and its two gradients (SAME padding, stride 2, dilation 1x2): the
// CUDA pipeline tiles their linalg forms like any linalg op.
func.func @conv(%x: tensor<2x7x7x3xf32>, %f: tensor<3x3x3x4xf32>, %dy: tensor<2x4x4x4xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>) {
  %y = tfc.conv2d %x, %f, strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32>
  %dx = tfc.conv2d_backprop_input %f, %dy, input_shape = [2, 7, 7, 3], strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<3x3x3x4xf32>, tensor<2x4x4x4xf32>) -> tensor<2x7x7x3xf32>
  %df = tfc.conv2d_backprop_filter %x, %dy, filter_shape = [3, 3, 3, 4], strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x4x4x4xf32>) -> tensor<3x3x3x4xf32>
  return %y, %dx, %df : tensor<2x4x4x4xf32>, tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>
}
