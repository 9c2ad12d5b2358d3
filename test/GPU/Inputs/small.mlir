// Small programs for the GPU execution tests (literal arguments).
func.func @chain(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tfc.add %a, %b : tensor<2x3xf32>
  %1 = tfc.mul %0, %a : tensor<2x3xf32>
  %2 = tfc.tanh %1 : tensor<2x3xf32>
  %3 = tfc.exp %2 : tensor<2x3xf32>
  return %3 : tensor<2x3xf32>
}
func.func @rowsum(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %s = tfc.reduce_sum %x, axes = [1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  return %s : tensor<2xf32>
}
func.func @mm(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %c = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}
func.func @loop(%x: tensor<3xf32>, %n: tensor<i32>) -> (tensor<3xf32>, tensor<i32>) {
  %zero = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  %r:2 = tfc.while (%i = %zero, %v = %x) : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) {
    %c = tfc.cmp lt, %i, %n : tensor<i32>
    tfc.condition(%c) %i, %v : tensor<i32>, tensor<3xf32>
  } do {
  ^bb0(%i2: tensor<i32>, %v2: tensor<3xf32>):
    %i3 = tfc.add %i2, %one : tensor<i32>
    %v3 = tfc.add %v2, %v2 : tensor<3xf32>
    tfc.yield %i3, %v3 : tensor<i32>, tensor<3xf32>
  }
  return %r#1, %r#0 : tensor<3xf32>, tensor<i32>
}
