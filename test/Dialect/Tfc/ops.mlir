// RUN: tfc-opt %s | tfc-opt | FileCheck %s
// RUN: tfc-opt %s --mlir-print-op-generic | tfc-opt | FileCheck %s

// CHECK-LABEL: func @constant
func.func @constant() -> tensor<1x2xf32> {
  // CHECK: tfc.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
  %0 = tfc.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// CHECK-LABEL: func @add
func.func @add(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK: tfc.add %{{.*}}, %{{.*}} : tensor<?x3xf32>
  %0 = tfc.add %a, %b : tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
