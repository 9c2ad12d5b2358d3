// A while inside an if inside a while. For each i in [0, n): when i is odd,
// an inner loop adds i to the total i times (so odd i contribute i*i); even
// i contribute nothing. For n = 6: 1 + 9 + 25 = 35. The outer loop also
// counts the inner iterations it ran (1 + 3 + 5 = 9).
// RUN: tfc-run %s --mode=interpret --arg="6:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="6:i32" | FileCheck %s
// RUN: tfc-run %s --mode=interpret --arg="0:i32" | FileCheck %s --check-prefix=ZERO
// RUN: tfc-run %s --mode=jit --arg="0:i32" | FileCheck %s --check-prefix=ZERO

// ZERO: tfc.Tensor(0, shape=(), dtype=int32)
// ZERO-NEXT: tfc.Tensor(0, shape=(), dtype=int32)

// CHECK: tfc.Tensor(35, shape=(), dtype=int32)
// CHECK-NEXT: tfc.Tensor(9, shape=(), dtype=int32)

func.func @main(%n: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %zero = tfc.constant dense<0> : tensor<i32>
  %one = tfc.constant dense<1> : tensor<i32>
  %two = tfc.constant dense<2> : tensor<i32>
  %r:3 = tfc.while (%i = %zero, %total = %zero, %inner = %zero) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
    %more = tfc.cmp lt, %i, %n : tensor<i32>
    tfc.condition(%more) %i, %total, %inner : tensor<i32>, tensor<i32>, tensor<i32>
  } do {
  ^bb0(%i1: tensor<i32>, %t1: tensor<i32>, %c1: tensor<i32>):
    %parity = tfc.mod %i1, %two : tensor<i32>
    %odd = tfc.cmp eq, %parity, %one : tensor<i32>
    %upd:2 = tfc.if %odd -> (tensor<i32>, tensor<i32>) {
      %w:3 = tfc.while (%k = %zero, %acc = %t1, %cnt = %c1) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
        %go = tfc.cmp lt, %k, %i1 : tensor<i32>
        tfc.condition(%go) %k, %acc, %cnt : tensor<i32>, tensor<i32>, tensor<i32>
      } do {
      ^bb0(%k1: tensor<i32>, %a1: tensor<i32>, %n1: tensor<i32>):
        %k2 = tfc.add %k1, %one : tensor<i32>
        %a2 = tfc.add %a1, %i1 : tensor<i32>
        %n2 = tfc.add %n1, %one : tensor<i32>
        tfc.yield %k2, %a2, %n2 : tensor<i32>, tensor<i32>, tensor<i32>
      }
      tfc.yield %w#1, %w#2 : tensor<i32>, tensor<i32>
    } else {
      tfc.yield %t1, %c1 : tensor<i32>, tensor<i32>
    }
    %i2 = tfc.add %i1, %one : tensor<i32>
    tfc.yield %i2, %upd#0, %upd#1 : tensor<i32>, tensor<i32>, tensor<i32>
  }
  return %r#1, %r#2 : tensor<i32>, tensor<i32>
}
