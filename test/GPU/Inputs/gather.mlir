// gather, unsorted_segment_sum and the three Philox draws: the CUDA
// pipeline maps each linalg.generic's parallel dims to threads (the segment
// sum reduces over the ids inside each thread; Philox runs in the kernel).
func.func @gather(%p: tensor<50x8xf32>, %i: tensor<16xi32>, %d: tensor<16x8xf32>, %s: tensor<2xi64>) -> (tensor<16x8xf32>, tensor<50x8xf32>, tensor<4x8xf32>, tensor<33xf64>, tensor<5x3xf32>) {
  %g = tfc.gather %p, %i, axis = 0 : (tensor<50x8xf32>, tensor<16xi32>) -> tensor<16x8xf32>
  %u = tfc.unsorted_segment_sum %d, %i, num_segments = 50 : (tensor<16x8xf32>, tensor<16xi32>) -> tensor<50x8xf32>
  %a = tfc.philox_random %s, "uniform" : tensor<2xi64> -> tensor<4x8xf32>
  %n = tfc.philox_random %s, "normal" : tensor<2xi64> -> tensor<33xf64>
  %t = tfc.philox_random %s, "truncated_normal" : tensor<2xi64> -> tensor<5x3xf32>
  return %g, %u, %a, %n, %t : tensor<16x8xf32>, tensor<50x8xf32>, tensor<4x8xf32>, tensor<33xf64>, tensor<5x3xf32>
}
