// A kernel error while interpreting names the op's file:line; compiled
// code checks the divisor at run time (tfc-insert-runtime-checks) and fails
// the same way.
// RUN: not tfc-run %s --mode=interpret --arg="[7,8]:i32" --arg="[2,0]:i32" 2>&1 | FileCheck %s
// RUN: not tfc-run %s --mode=jit --arg="[7,8]:i32" --arg="[2,0]:i32" 2>&1 | FileCheck %s
// CHECK: tfc-run: error: {{(tfc\.)?}}floor_div{{.*}}division by zero{{.*}} (at {{.*}}:[[# @LINE + 3]])

func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = tfc.floor_div %a, %b : tensor<2xi32>
  return %0 : tensor<2xi32>
}
