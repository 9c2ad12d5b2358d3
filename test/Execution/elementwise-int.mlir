// Elementwise ops on i32 and i64. Results in order, for i32: add sub mul
// maximum minimum floor_div mod pow neg abs square relu; then for i64: add
// mul floor_div mod. floor_div/mod on negative operands round toward negative
// infinity as in Python (-7 // 2 == -4, -7 % 2 == 1, 7 % -2 == -1).
// RUN: tfc-run %s --mode=interpret --arg="[7,-7,7,-7,0,3]:i32" --arg="[2,2,-2,-2,5,3]:i32" --arg="[9000000000,-9000000000,-5]:i64" --arg="[4,4,-3]:i64" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="[7,-7,7,-7,0,3]:i32" --arg="[2,2,-2,-2,5,3]:i32" --arg="[9000000000,-9000000000,-5]:i64" --arg="[4,4,-3]:i64" | FileCheck %s

// CHECK: tfc.Tensor([ 9 -5  5 -9  5  6], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 5 -9  9 -5 -5  0], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 14 -14 -14  14   0   9], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 7  2  7 -2  5  3], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 2 -7 -2 -7  0  3], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 3 -4 -4  3  0  1], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 1  1 -1 -1  0  0], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([49 49 49 49  0 27], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([-7  7 -7  7  0 -3], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([7 7 7 7 0 3], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([49 49 49 49  0  9], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([7 0 7 0 0 3], shape=(6,), dtype=int32)
// CHECK-NEXT: tfc.Tensor([ 9000000004 -8999999996          -8], shape=(3,), dtype=int64)
// CHECK-NEXT: tfc.Tensor([ 36000000000 -36000000000           15], shape=(3,), dtype=int64)
// CHECK-NEXT: tfc.Tensor([ 2250000000 -2250000000           1], shape=(3,), dtype=int64)
// CHECK-NEXT: tfc.Tensor([ 0  0 -2], shape=(3,), dtype=int64)

func.func @main(%a: tensor<6xi32>, %b: tensor<6xi32>, %c: tensor<3xi64>, %d: tensor<3xi64>) -> (tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) {
  %add = tfc.add %a, %b : tensor<6xi32>
  %sub = tfc.sub %a, %b : tensor<6xi32>
  %mul = tfc.mul %a, %b : tensor<6xi32>
  %max = tfc.maximum %a, %b : tensor<6xi32>
  %min = tfc.minimum %a, %b : tensor<6xi32>
  %fd = tfc.floor_div %a, %b : tensor<6xi32>
  %mod = tfc.mod %a, %b : tensor<6xi32>
  %absb = tfc.abs %b : tensor<6xi32>
  %pow = tfc.pow %a, %absb : tensor<6xi32>
  %neg = tfc.neg %a : tensor<6xi32>
  %abs = tfc.abs %a : tensor<6xi32>
  %sq = tfc.square %a : tensor<6xi32>
  %relu = tfc.relu %a : tensor<6xi32>
  %add64 = tfc.add %c, %d : tensor<3xi64>
  %mul64 = tfc.mul %c, %d : tensor<3xi64>
  %fd64 = tfc.floor_div %c, %d : tensor<3xi64>
  %mod64 = tfc.mod %c, %d : tensor<3xi64>
  return %add, %sub, %mul, %max, %min, %fd, %mod, %pow, %neg, %abs, %sq, %relu, %add64, %mul64, %fd64, %mod64 : tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>
}
