// RUN: tfc-opt %s --convert-tfc-to-linalg | FileCheck %s
// RUN: tfc-opt %s --tfc-cpu-pipeline | FileCheck %s --check-prefix=CPU

// Pooling in linalg (PoolToLinalg.cpp): one linalg.generic per op over its
// result, the window loops (scf.for) and bounds-checked tensor.extract in
// the body, tagged with the runtime kernel and the window
// "(kh,kw,sh,sw,pad_top,pad_left)". SAME 3x3/2 on 7: padding 1 before.

// CHECK-LABEL: func @pool
// CHECK: linalg.generic {{.*}}library_call = "tfc_rt_max_pool2d(3,3,2,2,1,1)"
// CHECK: scf.for
// CHECK: tensor.extract
// CHECK: arith.maximumf
// CHECK: linalg.generic {{.*}}library_call = "tfc_rt_avg_pool2d(3,3,2,2,1,1)"
// CHECK: linalg.generic {{.*}}library_call = "tfc_rt_max_pool2d_grad(3,3,2,2,1,1)"
// CHECK: linalg.generic {{.*}}library_call = "tfc_rt_max_pool2d_grad_grad(3,3,2,2,1,1)"
// CHECK: linalg.generic {{.*}}library_call = "tfc_rt_avg_pool2d_grad(3,3,2,2,1,1)"
// CHECK-NOT: tfc.

// On the CPU each becomes a call of the runtime's kernel on the buffers
// the body reads (the input before dy or grad), then the result.
// CPU-DAG: call @tfc_rt_max_pool2d_f32(
// CPU-DAG: call @tfc_rt_avg_pool2d_f32(
// CPU-DAG: call @tfc_rt_max_pool2d_grad_f32(
// CPU-DAG: call @tfc_rt_max_pool2d_grad_grad_f32(
// CPU-DAG: call @tfc_rt_avg_pool2d_grad_f32(

func.func @pool(%x: tensor<2x7x7x3xf32>, %dy: tensor<2x4x4x3xf32>, %g: tensor<2x7x7x3xf32>) -> (tensor<2x4x4x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>) {
  %m = tfc.max_pool2d %x, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x7x7x3xf32> -> tensor<2x4x4x3xf32>
  %a = tfc.avg_pool2d %x, ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x7x7x3xf32> -> tensor<2x4x4x3xf32>
  %dm = tfc.max_pool2d_grad %x, %dy, ksize = [3, 3], strides = [2, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>) -> tensor<2x7x7x3xf32>
  %gg = tfc.max_pool2d_grad_grad %x, %g, ksize = [3, 3], strides = [2, 2], padding = "SAME" : (tensor<2x7x7x3xf32>, tensor<2x7x7x3xf32>) -> tensor<2x4x4x3xf32>
  %da = tfc.avg_pool2d_grad %dy, input_shape = [2, 7, 7, 3], ksize = [3, 3], strides = [2, 2], padding = "SAME" : tensor<2x4x4x3xf32> -> tensor<2x7x7x3xf32>
  return %m, %a, %dm, %gg, %da : tensor<2x4x4x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>, tensor<2x4x4x3xf32>, tensor<2x7x7x3xf32>
}
