// RUN: tfc-opt %s --convert-tfc-to-linalg | FileCheck %s
// RUN: tfc-opt %s --tfc-cpu-pipeline | FileCheck %s --check-prefix=CPU

// gather (GatherToLinalg.cpp): a generic over the result reading params
// with tensor.extract at the clamped index, tagged "tfc_rt_gather(<axis>)";
// unsorted_segment_sum: a generic reducing over the ids into a zero-filled
// [num_segments, inner]; philox_random (RandomToLinalg.cpp): Philox's
// multiplies in a 1-d generic's body.

// CHECK-LABEL: func @gather
// CHECK: linalg.generic {{.*}}library_call = "tfc_rt_gather(1)"
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: tensor.extract
// CHECK: linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]{{.*}}library_call = "tfc_rt_unsorted_segment_sum"
// CHECK: arith.cmpi eq
// CHECK: linalg.generic {{.*}}library_call = "tfc_rt_philox_random(1)"
// CHECK-COUNT-20: arith.mului_extended
// CHECK: math.log
// CHECK: math.cos
// CHECK-NOT: tfc.

// On the CPU the indices and ids are checked first (InvalidArgumentError),
// then calls of the runtime's kernels, the eager ops' code.
// CPU: llvm.call @tfc_rt_check_failed
// CPU: llvm.call @tfc_rt_gather_f32_i64(
// CPU: llvm.call @tfc_rt_check_failed
// CPU: llvm.call @tfc_rt_unsorted_segment_sum_f32_i64(
// CPU: llvm.call @tfc_rt_philox_random_f32(

func.func @gather(%p: tensor<4x50x3xf32>, %i: tensor<6xi64>, %d: tensor<6x3xf32>, %s: tensor<2xi64>) -> (tensor<4x6x3xf32>, tensor<50x3xf32>, tensor<2x5xf32>) {
  %g = tfc.gather %p, %i, axis = 1 : (tensor<4x50x3xf32>, tensor<6xi64>) -> tensor<4x6x3xf32>
  %u = tfc.unsorted_segment_sum %d, %i, num_segments = 50 : (tensor<6x3xf32>, tensor<6xi64>) -> tensor<50x3xf32>
  %r = tfc.philox_random %s, "normal" : tensor<2xi64> -> tensor<2x5xf32>
  return %g, %u, %r : tensor<4x6x3xf32>, tensor<50x3xf32>, tensor<2x5xf32>
}
