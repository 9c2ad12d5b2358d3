// Boolean ops on i1: logical_and, logical_or, logical_not, cmp eq/ne on
// bools, select between bools.
// RUN: tfc-run %s --mode=interpret --arg="[true,true,false,false]:i1" --arg="[true,false,true,false]:i1" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[true,true,false,false]:i1" --arg="[true,false,true,false]:i1" | FileCheck %s

// CHECK: tfc.Tensor([ True False False False], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([ True  True  True False], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([False False  True  True], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([ True False False  True], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([False  True  True False], shape=(4,), dtype=bool)
// CHECK-NEXT: tfc.Tensor([False False  True False], shape=(4,), dtype=bool)

func.func @main(%p: tensor<4xi1>, %q: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %and = tfc.logical_and %p, %q : tensor<4xi1>
  %or = tfc.logical_or %p, %q : tensor<4xi1>
  %not = tfc.logical_not %p : tensor<4xi1>
  %eq = tfc.cmp eq, %p, %q : tensor<4xi1>
  %ne = tfc.cmp ne, %p, %q : tensor<4xi1>
  %sel = tfc.select %p, %not, %q : tensor<4xi1>, tensor<4xi1>
  return %and, %or, %not, %eq, %ne, %sel : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}
