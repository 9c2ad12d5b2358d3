// The GPU tests' programs: an elementwise chain (one fused kernel), a row
// reduction, a matmul and a while loop whose body launches a kernel.
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tfc.add %a, %b : tensor<4x8xf32>
  %1 = tfc.mul %0, %a : tensor<4x8xf32>
  %2 = tfc.tanh %1 : tensor<4x8xf32>
  %3 = tfc.exp %2 : tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}
func.func @rowsum(%x: tensor<16x32xf32>) -> tensor<16xf32> {
  %s = tfc.reduce_sum %x, axes = [1], keepdims = false : tensor<16x32xf32> -> tensor<16xf32>
  return %s : tensor<16xf32>
}
func.func @mm(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %c = tfc.matmul %a, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  return %c : tensor<8x4xf32>
}
func.func @loop(%x: tensor<8xf32>, %n: tensor<i32>) -> tensor<8xf32> {
  %zero = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  %r:2 = tfc.while (%i = %zero, %v = %x) : (tensor<i32>, tensor<8xf32>) -> (tensor<i32>, tensor<8xf32>) {
    %c = tfc.cmp lt, %i, %n : tensor<i32>
    tfc.condition(%c) %i, %v : tensor<i32>, tensor<8xf32>
  } do {
  ^bb0(%i2: tensor<i32>, %v2: tensor<8xf32>):
    %i3 = tfc.add %i2, %one : tensor<i32>
    %v3 = tfc.mul %v2, %v2 : tensor<8xf32>
    %v4 = tfc.add %v3, %x : tensor<8xf32>
    tfc.yield %i3, %v4 : tensor<i32>, tensor<8xf32>
  }
  return %r#1 : tensor<8xf32>
}
