func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  %0 = tfc.matmul %a, %b : (tensor<2x3xf32>, 