// tfc.print writes one line per execution: the label, then each tensor's
// data in NumPy layout, space separated (the same line as eager tfc::print).
// Printed inside a loop it prints every iteration, before the results.
// RUN: tfc-run %s --mode=interpret --arg="[[1.5,2],[3,4]]:f32" --arg="3:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[[1.5,2],[3,4]]:f32" --arg="3:i32" | FileCheck %s

// CHECK: start {{\[\[}}1.5 2. ]
// CHECK-NEXT: [3.  4. ]] 3 [ True False]
// CHECK-NEXT: i = 0
// CHECK-NEXT: i = 1
// CHECK-NEXT: i = 2
// CHECK-NEXT: done
// CHECK-NEXT: tfc.Tensor(3, shape=(), dtype=int32)
// CHECK-NOT: i =

func.func @main(%x: tensor<2x2xf32>, %n: tensor<i32>) -> tensor<i32> {
  %flags = tfc.constant dense<[true, false]> : tensor<2xi1>
  tfc.print "start" %x, %n, %flags : tensor<2x2xf32>, tensor<i32>, tensor<2xi1>
  %zero = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  %r = tfc.while (%i = %zero) : (tensor<i32>) -> tensor<i32> {
    %c = tfc.cmp lt, %i, %n : tensor<i32>
    tfc.condition(%c) %i : tensor<i32>
  } do {
  ^bb0(%j: tensor<i32>):
    tfc.print "i =" %j : tensor<i32>
    %k = tfc.add %j, %one : tensor<i32>
    tfc.yield %k : tensor<i32>
  }
  // A label-only print is followed by an op without results here: the
  // assembly format would read a following `%v =` as its operand.
  tfc.print "done"
  return %r : tensor<i32>
}
