// A small tfc program: `x + 0` folds away under --canonicalize.
func.func @affine(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %zero = tfc.constant dense<0.0> : tensor<2x2xf32>
  %0 = tfc.add %x, %zero : tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
