// The pooling ops and their gradients (SAME, 3x3 windows, stride 2): the
// CUDA pipeline maps each linalg.generic's result dims to threads, the
// window loops run inside the kernel.
func.func @pool(%x: tensor<2x7x7x3xf32>, %dy: tensor<2x4x4x3xf32>, %g: tensor<2x7x7x3xf32>) -> (tensor<2x4x4x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>) {
  %m = tfc.max_pool2d %x, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x7x7x3xf32> -> tensor<2x4x4x3xf32>
  %a = tfc.avg_pool2d %x, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x7x7x3xf32> -> tensor<2x4x4x3xf32>
  %dm = tfc.max_pool2d_grad %x, %dy, ksize = [3, 3], strides = [2, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>) -> tensor<2x7x7x3xf32>
  %gg = tfc.max_pool2d_grad_grad %x, %g, ksize = [3, 3], strides = [2, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x7x7x3xf32>) -> tensor<2x4x4x3xf32>
  %da = tfc.avg_pool2d_grad %dy, input_shape = [2, 7, 7, 3], ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x4x4x3xf32> -> tensor<2x7x7x3xf32>
  return %m, %a, %dm, %gg, %da : tensor<2x4x4x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>
}
