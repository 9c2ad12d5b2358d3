// Variables (!tfc.var parameters): var_read, var_assign, var_assign_add and
// var_assign_sub, read back after each write, through a call, and final
// values reported as `var N:` (N is the parameter's position).
// The JIT inlines @bump and promotes the handles to values
// (tfc-promote-variables); tfc-run reports the written variables' final
// values the same way in both modes.
// RUN: tfc-run %s --mode=interpret --arg="[1,2]:f32" --arg="[10,20]:f32" --arg="5:i32" | FileCheck %s
// RUN: tfc-run %s --mode=interpret --arg="[10,20]:f32" --var="[1,2]:f32" --var="5:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[1,2]:f32" --arg="[10,20]:f32" --arg="5:i32" | FileCheck %s

// CHECK: after assign_add [11. 22.]
// CHECK-NEXT: after assign_sub [1. 2.]
// CHECK-NEXT: after assign [10. 20.]
// CHECK-NEXT: counter 6
// CHECK-NEXT: counter 7
// CHECK-NEXT: tfc.Tensor([1. 2.], shape=(2,), dtype=float32)
// CHECK-NEXT: tfc.Tensor(7, shape=(), dtype=int32)
// CHECK-NEXT: var 0: tfc.Tensor([10. 20.], shape=(2,), dtype=float32)
// CHECK-NEXT: var 2: tfc.Tensor(7, shape=(), dtype=int32)


// Returns the value before any write and the counter after two increments.
func.func @main(%v: !tfc.var<tensor<2xf32>>, %x: tensor<2xf32>, %count: !tfc.var<tensor<i32>>) -> (tensor<2xf32>, tensor<i32>) {
  %old = tfc.var_read %v : !tfc.var<tensor<2xf32>>
  tfc.var_assign_add %v, %x : !tfc.var<tensor<2xf32>>
  %a = tfc.var_read %v : !tfc.var<tensor<2xf32>>
  tfc.print "after assign_add" %a : tensor<2xf32>
  tfc.var_assign_sub %v, %x : !tfc.var<tensor<2xf32>>
  %b = tfc.var_read %v : !tfc.var<tensor<2xf32>>
  tfc.print "after assign_sub" %b : tensor<2xf32>
  tfc.var_assign %v, %x : !tfc.var<tensor<2xf32>>
  %c = tfc.var_read %v : !tfc.var<tensor<2xf32>>
  tfc.print "after assign" %c : tensor<2xf32>
  func.call @bump(%count) : (!tfc.var<tensor<i32>>) -> ()
  func.call @bump(%count) : (!tfc.var<tensor<i32>>) -> ()
  %n = tfc.var_read %count : !tfc.var<tensor<i32>>
  return %old, %n : tensor<2xf32>, tensor<i32>
}

func.func private @bump(%count: !tfc.var<tensor<i32>>) {
  %one = tfc.constant dense<1> : tensor<i32>
  tfc.var_assign_add %count, %one : !tfc.var<tensor<i32>>
  %n = tfc.var_read %count : !tfc.var<tensor<i32>>
  tfc.print "counter" %n : tensor<i32>
  return
}
