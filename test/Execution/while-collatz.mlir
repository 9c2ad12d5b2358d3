// tfc.while: the number of Collatz steps from n down to 1, written in tfc IR
// (27 takes 111 steps and climbs to 9232 on the way), plus a loop that runs
// zero times (n = 1).
// RUN: tfc-run %s --mode=interpret --arg="27:i64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="27:i64" | FileCheck %s
// RUN: tfc-run %s --mode=interpret --arg="1:i64" | FileCheck %s --check-prefix=ONE
// RUN: tfc-run %s --mode=jit --arg="1:i64" | FileCheck %s --check-prefix=ONE

// ONE: tfc.Tensor(0, shape=(), dtype=int64)
// ONE-NEXT: tfc.Tensor(1, shape=(), dtype=int64)

// CHECK: tfc.Tensor(111, shape=(), dtype=int64)
// CHECK-NEXT: tfc.Tensor(9232, shape=(), dtype=int64)

// Results: steps, the highest value reached.
func.func @collatz(%n: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  %zero = tfc.constant dense<0> : tensor<i64>
  %one = tfc.constant dense<1> : tensor<i64>
  %two = tfc.constant dense<2> : tensor<i64>
  %three = tfc.constant dense<3> : tensor<i64>
  %r:3 = tfc.while (%x = %n, %steps = %zero, %peak = %n) : (tensor<i64>, tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>, tensor<i64>) {
    %c = tfc.cmp ne, %x, %one : tensor<i64>
    tfc.condition(%c) %x, %steps, %peak : tensor<i64>, tensor<i64>, tensor<i64>
  } do {
  ^bb0(%y: tensor<i64>, %s: tensor<i64>, %p: tensor<i64>):
    %m = tfc.mod %y, %two : tensor<i64>
    %even = tfc.cmp eq, %m, %zero : tensor<i64>
    %next = tfc.if %even -> (tensor<i64>) {
      %h = tfc.floor_div %y, %two : tensor<i64>
      tfc.yield %h : tensor<i64>
    } else {
      %t = tfc.mul %y, %three : tensor<i64>
      %u = tfc.add %t, %one : tensor<i64>
      tfc.yield %u : tensor<i64>
    }
    %s1 = tfc.add %s, %one : tensor<i64>
    %p1 = tfc.maximum %p, %next : tensor<i64>
    tfc.yield %next, %s1, %p1 : tensor<i64>, tensor<i64>, tensor<i64>
  }
  return %r#1, %r#2 : tensor<i64>, tensor<i64>
}
