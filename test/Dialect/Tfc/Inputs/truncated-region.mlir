// A tfc.while cut off in the middle of its after region.
func.func @f(%init: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  %r = tfc.while (%a = %init) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    %n = tfc.add %b, %b : tensor<i32>
