// tfc.if: both branches taken, several results, an if without else (side
// effect only), and an if nested in a branch.
// RUN: tfc-run %s --mode=interpret --arg="3:f32" --arg="[1,2]:i32" | FileCheck %s
// RUN: tfc-run %s --mode=jit --arg="3:f32" --arg="[1,2]:i32" | FileCheck %s
// RUN: tfc-run %s --mode=interpret --arg="-3:f32" --arg="[1,2]:i32" | FileCheck %s --check-prefix=NEG
// RUN: tfc-run %s --mode=jit --arg="-3:f32" --arg="[1,2]:i32" | FileCheck %s --check-prefix=NEG
// RUN: tfc-run %s --mode=interpret --arg="1.5:f32" --arg="[1,2]:i32" | FileCheck %s --check-prefix=SMALL
// RUN: tfc-run %s --mode=jit --arg="1.5:f32" --arg="[1,2]:i32" | FileCheck %s --check-prefix=SMALL

// SMALL: positive 1.5
// SMALL-NEXT: tfc.Tensor(1.5, shape=(), dtype=float32)
// SMALL-NEXT: tfc.Tensor(1.0, shape=(), dtype=float32)
// SMALL-NEXT: tfc.Tensor([1 2], shape=(2,), dtype=int32)

// NEG-NOT: positive
// NEG: tfc.Tensor(3.0, shape=(), dtype=float32)
// NEG-NEXT: tfc.Tensor(-1.0, shape=(), dtype=float32)
// NEG-NEXT: tfc.Tensor([-1 -2], shape=(2,), dtype=int32)

// CHECK: positive 3.0
// CHECK-NEXT: tfc.Tensor(6.0, shape=(), dtype=float32)
// CHECK-NEXT: tfc.Tensor(1.0, shape=(), dtype=float32)
// CHECK-NEXT: tfc.Tensor([1 2], shape=(2,), dtype=int32)

// Results: x > 0 ? (x > 2 ? 2x : x) : -x, then sign(x), then x > 0 ? v : -v;
// "positive x" is printed only when x > 0.

func.func @main(%x: tensor<f32>, %v: tensor<2xi32>) -> (tensor<f32>, tensor<f32>, tensor<2xi32>) {
  %zero = tfc.constant dense<0.0> : tensor<f32>
  %two = tfc.constant dense<2.0> : tensor<f32>
  %pos = tfc.cmp gt, %x, %zero : tensor<f32>
  %r:3 = tfc.if %pos -> (tensor<f32>, tensor<f32>, tensor<2xi32>) {
    %one = tfc.constant dense<1.0> : tensor<f32>
    %big = tfc.cmp gt, %x, %two : tensor<f32>
    %scaled = tfc.if %big -> (tensor<f32>) {
      %d = tfc.mul %x, %two : tensor<f32>
      tfc.yield %d : tensor<f32>
    } else {
      tfc.yield %x : tensor<f32>
    }
    tfc.yield %scaled, %one, %v : tensor<f32>, tensor<f32>, tensor<2xi32>
  } else {
    %n = tfc.neg %x : tensor<f32>
    %m = tfc.constant dense<-1.0> : tensor<f32>
    %nv = tfc.neg %v : tensor<2xi32>
    tfc.yield %n, %m, %nv : tensor<f32>, tensor<f32>, tensor<2xi32>
  }
  tfc.if %pos {
    tfc.print "positive" %x : tensor<f32>
  }
  return %r#0, %r#1, %r#2 : tensor<f32>, tensor<f32>, tensor<2xi32>
}
