func.func @add(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfc.add %a, %b : tensor<2xf32>
  return %0 : tensor<2xf32>
}
