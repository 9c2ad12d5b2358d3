// RUN: tfc-opt %s --convert-tfc-to-linalg | FileCheck %s
// RUN: tfc-opt %s --tfc-cpu-pipeline | FileCheck %s --check-prefix=CPU

// conv2d and its gradients in linalg (ConvToLinalg.cpp): SAME pads
// explicitly; the input gradient spreads dy by the strides, pads it and
// convolves it (stride 1) with the filter flipped in space and transposed;
// the filter gradient is a linalg.generic tagged for the runtime.

// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (-d0 + 2, -d1 + 2, d3, d2)>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5 * 2 + d0, d6 * 2 + d1 * 2, d2)>
// CHECK-LABEL: func @conv
// CHECK: %[[PX:.*]] = tensor.pad %arg0 low[0, 1, 2, 0] high[0, 1, 2, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[PX]], %arg1 : tensor<2x9x11x3xf32>, tensor<3x3x3x4xf32>) outs(%{{.*}} : tensor<2x4x4x4xf32>)
// CHECK: %[[SPREAD:.*]] = tensor.insert_slice %arg2 into %{{.*}}[0, 0, 0, 0] [2, 4, 4, 4] [1, 2, 2, 1] : tensor<2x4x4x4xf32> into tensor<2x7x7x4xf32>
// CHECK: %[[PDY:.*]] = tensor.pad %[[SPREAD]] low[0, 1, 2, 0] high[0, 1, 2, 0]
// CHECK: %[[FF:.*]] = linalg.generic {indexing_maps = [#[[FLIP]], {{.*}}]{{.*}} ins(%arg1 : tensor<3x3x3x4xf32>) outs(%{{.*}} : tensor<3x3x4x3xf32>)
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[PDY]], %[[FF]] : tensor<2x9x11x4xf32>, tensor<3x3x4x3xf32>) outs(%{{.*}} : tensor<2x7x7x3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[X]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"], library_call = "tfc_rt_conv2d_backprop_filter"}
// CHECK-NOT: tfc.

// On the CPU the three convolutions become calls of the runtime's
// im2col+GEMM kernels (tfc-linalg-to-blas).
// CPU-COUNT-2: call @tfc_rt_conv2d_f32(
// CPU: call @tfc_rt_conv2d_backprop_filter_f32(

func.func @conv(%x: tensor<2x7x7x3xf32>, %f: tensor<3x3x3x4xf32>, %dy: tensor<2x4x4x4xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>) {
  %y = tfc.conv2d %x, %f, strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x4x4x4xf32>
  %dx = tfc.conv2d_backprop_input %f, %dy, input_shape = [2, 7, 7, 3], strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<3x3x3x4xf32>, tensor<2x4x4x4xf32>) -> tensor<2x7x7x3xf32>
  %df = tfc.conv2d_backprop_filter %x, %dy, filter_shape = [3, 3, 3, 4], strides = [2, 2], dilations = [1, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x4x4x4xf32>) -> tensor<3x3x3x4xf32>
  return %y, %dx, %df : tensor<2x4x4x4xf32>, tensor<2x7x7x3xf32>, tensor<3x3x3x4xf32>
}
