// RUN: not tfc-opt %s --convert-tfc-to-linalg 2>&1 | FileCheck %s

// Variables must be promoted to values first: the conversion reports the op
// it could not lower, with its location, and fails.
// CHECK: error: failed to legalize operation 'tfc.var_read'
func.func @vars(%v: !tfc.var<tensor<f32>>) -> tensor<f32> {
  %0 = tfc.var_read %v : !tfc.var<tensor<f32>>
  return %0 : tensor<f32>
}
