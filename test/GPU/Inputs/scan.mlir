// cumsum, top_k_indices, sparse_softmax_cross_entropy and erf for the CUDA
// pipeline: the scans loop over the axis inside each thread.
func.func @scan(%x: tensor<8x33xf32>, %l: tensor<8xi32>, %d: tensor<5x7xf64>) -> (tensor<8x33xf32>, tensor<8x4xi32>, tensor<8xf32>, tensor<5x7xf64>) {
  %c = tfc.cumsum %x, axis = 1, exclusive = true, reverse = false : tensor<8x33xf32>
  %t = tfc.top_k_indices %x, k = 4 : tensor<8x33xf32> -> tensor<8x4xi32>
  %s = tfc.sparse_softmax_cross_entropy %l, %x : (tensor<8xi32>, tensor<8x33xf32>) -> tensor<8xf32>
  %e = tfc.erf %d : tensor<5x7xf64>
  return %c, %t, %s, %e : tensor<8x33xf32>, tensor<8x4xi32>, tensor<8xf32>, tensor<5x7xf64>
}
