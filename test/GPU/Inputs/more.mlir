// Kernels that need more than arithmetic: integer pow (math-to-funcs,
// copied into the kernel module), f64 transcendentals (libdevice), dynamic
// shapes and a softmax (reductions feeding elementwise ops).
func.func @ipow(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %p = tfc.pow %a, %b : tensor<6xi32>
  return %p : tensor<6xi32>
}
func.func @f64math(%x: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %e = tfc.exp %x : tensor<?x?xf64>
  %l = tfc.log1p %e : tensor<?x?xf64>
  %t = tfc.tanh %l : tensor<?x?xf64>
  %f = tfc.floor %t : tensor<?x?xf64>
  return %f : tensor<?x?xf64>
}
func.func @softmax(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %s = tfc.softmax %x, axis = 1 : tensor<4x10xf32>
  return %s : tensor<4x10xf32>
}
