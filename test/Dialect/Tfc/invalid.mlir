// RUN: tfc-opt %s -split-input-file -verify-diagnostics

// Every verifier error of the tfc dialect, one per split. Ops whose result
// type is inferred report the inference failure, then "failed to infer".

//===----------------------------------------------------------------------===//
// Element types and elementwise ops
//===----------------------------------------------------------------------===//

func.func @exp_of_int(%x: tensor<2xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<2xi32>'}}
  %0 = tfc.exp %x : tensor<2xi32>
  return
}

// -----

func.func @floor_of_int(%x: tensor<2xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<2xi32>'}}
  %0 = tfc.floor %x : tensor<2xi32>
  return
}

// -----

func.func @neg_of_bool(%x: tensor<2xi1>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values, but got 'tensor<2xi1>'}}
  %0 = tfc.neg %x : tensor<2xi1>
  return
}

// -----

func.func @logical_not_of_float(%x: tensor<2xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = tfc.logical_not %x : tensor<2xf32>
  return
}

// -----

func.func @unsupported_element(%x: tensor<2xi8>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 1-bit signless integer or 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values, but got 'tensor<2xi8>'}}
  %0 = tfc.stop_gradient %x : tensor<2xi8>
  return
}

// -----

func.func @unranked(%x: tensor<*xf32>) {
  // expected-error @+1 {{custom op 'tfc.exp' invalid kind of type specified: expected builtin.tensor, but found 'tensor<*xf32>'}}
  %0 = tfc.exp %x : tensor<*xf32>
  return
}

// -----

func.func @binary_shape_mismatch(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tfc.add' op expected every operand and result to have the shape of operand #0 'tensor<2xf32>' but operand #1 has type 'tensor<3xf32>'}}
  %0 = "tfc.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @binary_no_implicit_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'tfc.mul' op expected every operand and result to have the shape of operand #0 'tensor<2x3xf32>' but operand #1 has type 'tensor<3xf32>'}}
  %0 = "tfc.mul"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @div_of_int(%a: tensor<2xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<2xi32>'}}
  %0 = tfc.div %a, %a : tensor<2xi32>
  return
}

// -----

func.func @logical_and_of_int(%a: tensor<2xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<2xi32>'}}
  %0 = tfc.logical_and %a, %a : tensor<2xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// cmp, select, cast
//===----------------------------------------------------------------------===//

func.func @cmp_operand_mismatch(%a: tensor<2xf32>, %b: tensor<2xf64>) {
  // expected-error @+1 {{all of {lhs, rhs} have same type}}
  %0 = "tfc.cmp"(%a, %b) {predicate = 2 : i64} : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xi1>
  return
}

// -----

func.func @cmp_result_shape(%a: tensor<2xf32>) {
  // expected-error @+1 {{'tfc.cmp' op expected every operand and result to have the shape of operand #0 'tensor<2xf32>' but result #0 has type 'tensor<3xi1>'}}
  %0 = "tfc.cmp"(%a, %a) {predicate = 2 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xi1>
  return
}

// -----

func.func @cmp_bad_predicate(%a: tensor<2xf32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, lt, le, gt, ge]}}
  %0 = tfc.cmp less, %a, %a : tensor<2xf32>
  return
}

// -----

func.func @select_cond_shape(%c: tensor<3xi1>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'tfc.select' op expected every operand and result to have the shape of operand #0 'tensor<3xi1>' but operand #1 has type 'tensor<2xf32>'}}
  %0 = tfc.select %c, %a, %a : tensor<3xi1>, tensor<2xf32>
  return
}

// -----

func.func @select_cond_type(%c: tensor<2xf32>, %a: tensor<2xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 1-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = tfc.select %c, %a, %a : tensor<2xf32>, tensor<2xf32>
  return
}

// -----

func.func @select_branch_types(%c: tensor<2xi1>, %a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{all of {on_true, on_false, result} have same type}}
  %0 = "tfc.select"(%c, %a, %b) : (tensor<2xi1>, tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @cast_shape(%a: tensor<2xf32>) {
  // expected-error @+1 {{'tfc.cast' op expected every operand and result to have the shape of operand #0 'tensor<2xf32>' but result #0 has type 'tensor<3xi32>'}}
  %0 = tfc.cast %a : tensor<2xf32> to tensor<3xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// broadcast_to
//===----------------------------------------------------------------------===//

func.func @broadcast_lower_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tfc.broadcast_to' op cannot broadcast 'tensor<2x3xf32>' to the lower-rank 'tensor<3xf32>'}}
  %0 = tfc.broadcast_to %a : tensor<2x3xf32> to tensor<3xf32>
  return
}

// -----

func.func @broadcast_bad_dim(%a: tensor<2xf32>) {
  // expected-error @+1 {{'tfc.broadcast_to' op cannot broadcast 'tensor<2xf32>' to 'tensor<4x3xf32>': operand dim #0 is 2, expected 1 or 3}}
  %0 = tfc.broadcast_to %a : tensor<2xf32> to tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_element_type(%a: tensor<3xf32>) {
  // expected-error @+1 {{'tfc.broadcast_to' op expected the result element type to be 'f32' but got 'tensor<2x3xf64>'}}
  %0 = tfc.broadcast_to %a : tensor<3xf32> to tensor<2x3xf64>
  return
}

// -----

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

func.func @matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4x4xf32>) {
  // expected-error @+2 {{'tfc.matmul' op failed to infer returned types}}
  // expected-error @+1 {{'tfc.matmul' op expected the contracted dims to match but lhs 'tensor<2x3xf32>' has 3 columns and rhs 'tensor<4x4xf32>' has 4 rows}}
  %0 = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_rank1(%a: tensor<3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.matmul' op expected operands of one rank, at least 2, but got 'tensor<3xf32>' and 'tensor<3xf32>'}}
  %0 = tfc.matmul %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  return
}

// -----

func.func @matmul_rank_mismatch(%a: tensor<2x2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.matmul' op expected operands of one rank, at least 2, but got 'tensor<2x2x3xf32>' and 'tensor<3x4xf32>'}}
  %0 = tfc.matmul %a, %b : (tensor<2x2x3xf32>, tensor<3x4xf32>) -> tensor<2x2x4xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x2x3xf32>, %b: tensor<5x3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.matmul' op expected equal batch dims but dim #0 is 2 in 'tensor<2x2x3xf32>' and 5 in 'tensor<5x3x4xf32>'}}
  %0 = tfc.matmul %a, %b : (tensor<2x2x3xf32>, tensor<5x3x4xf32>) -> tensor<2x2x4xf32>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf64>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.matmul' op expected operands of one element type but got 'tensor<2x3xf32>' and 'tensor<3x4xf64>'}}
  %0 = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf64>) -> tensor<2x4xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.matmul' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<2x5xf32>'}}
  %0 = tfc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @matmul_bool(%a: tensor<2x2xi1>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values, but got 'tensor<2x2xi1>'}}
  %0 = tfc.matmul %a, %a : (tensor<2x2xi1>, tensor<2x2xi1>) -> tensor<2x2xi1>
  return
}

// -----

//===----------------------------------------------------------------------===//
// transpose, reshape, expand_dims, squeeze
//===----------------------------------------------------------------------===//

func.func @transpose_length(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.transpose' op expected a permutation of 2 dims for 'tensor<2x3xf32>' but got 3 entries}}
  %0 = tfc.transpose %a, perm = [1, 0, 2] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_duplicate(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.transpose' op expected a permutation of [0, 2) but got [array<i64: 1, 1>]}}
  %0 = tfc.transpose %a, perm = [1, 1] : tensor<2x3xf32> -> tensor<3x3xf32>
  return
}

// -----

func.func @transpose_out_of_range(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.transpose' op expected a permutation of [0, 2) but got [array<i64: -1, 0>]}}
  %0 = tfc.transpose %a, perm = [-1, 0] : tensor<2x3xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_result(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  %0 = tfc.transpose %a, perm = [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_missing_perm(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{requires attribute 'perm'}}
  %0 = "tfc.transpose"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @reshape_count(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tfc.reshape' op cannot reshape 'tensor<2x3xf32>' (6 elements) to 'tensor<5xf32>' (5 elements)}}
  %0 = tfc.reshape %a : tensor<2x3xf32> -> tensor<5xf32>
  return
}

// -----

func.func @reshape_element_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tfc.reshape' op expected the result element type to be 'f32' but got 'tensor<6xi32>'}}
  %0 = tfc.reshape %a : tensor<2x3xf32> -> tensor<6xi32>
  return
}

// -----

func.func @expand_dims_axis(%a: tensor<3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.expand_dims' op expected axis in [0, 1] for 'tensor<3xf32>' but got 2}}
  %0 = tfc.expand_dims %a, axis = 2 : tensor<3xf32> -> tensor<3x1xf32>
  return
}

// -----

func.func @expand_dims_negative_axis(%a: tensor<3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.expand_dims' op expected axis in [0, 1] for 'tensor<3xf32>' but got -1}}
  %0 = tfc.expand_dims %a, axis = -1 : tensor<3xf32> -> tensor<3x1xf32>
  return
}

// -----

func.func @squeeze_not_one(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.squeeze' op cannot squeeze dim #1 of 'tensor<2x3xf32>': expected size 1 but got 3}}
  %0 = tfc.squeeze %a, axes = [1] : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @squeeze_dynamic(%a: tensor<?x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.squeeze' op cannot squeeze dim #0 of 'tensor<?x3xf32>': expected size 1 but got ?}}
  %0 = tfc.squeeze %a, axes = [0] : tensor<?x3xf32> -> tensor<3xf32>
  return
}

// -----

func.func @squeeze_unsorted(%a: tensor<1x1xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.squeeze' op expected sorted axes without duplicates but got 1 before 0}}
  %0 = tfc.squeeze %a, axes = [1, 0] : tensor<1x1xf32> -> tensor<f32>
  return
}

// -----

func.func @squeeze_out_of_range(%a: tensor<1x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.squeeze' op expected axes in [0, 2) but got axis 2}}
  %0 = tfc.squeeze %a, axes = [2] : tensor<1x3xf32> -> tensor<1x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// concat, slice
//===----------------------------------------------------------------------===//

func.func @concat_no_inputs() {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.concat' op expected at least one input}}
  %0 = "tfc.concat"() {axis = 0 : i64} : () -> tensor<0xf32>
  return
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.concat' op expected axis in [0, 2) for 'tensor<2x3xf32>' but got 2}}
  %0 = tfc.concat %a, %a axis = 2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @concat_other_dim(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.concat' op expected input #1 'tensor<2x4xf32>' to match 'tensor<2x3xf32>' in dim #1 (all dims but the axis must agree)}}
  %0 = tfc.concat %a, %b axis = 0 : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.concat' op expected inputs of one rank and element type but got 'tensor<2x3xf32>' and 'tensor<3xf32>'}}
  %0 = tfc.concat %a, %b axis = 0 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @concat_element_type(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.concat' op expected inputs of one rank and element type but got 'tensor<2xf32>' and 'tensor<2xi32>'}}
  %0 = tfc.concat %a, %b axis = 0 : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @slice_out_of_bounds(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.slice' op slice [3, 5) is out of bounds of dim #1 of 'tensor<3x4xf32>'}}
  %0 = tfc.slice %a, begin = [0, 3], size = [2, 2] : tensor<3x4xf32> -> tensor<2x2xf32>
  return
}

// -----

func.func @slice_negative(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.slice' op expected non-negative begin and size but got begin 0 and size -1 in dim #0}}
  %0 = tfc.slice %a, begin = [0, 0], size = [-1, 2] : tensor<3x4xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @slice_rank(%a: tensor<3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.slice' op expected 2 begin and size entries for 'tensor<3x4xf32>' but got 1 and 2}}
  %0 = tfc.slice %a, begin = [0], size = [2, 2] : tensor<3x4xf32> -> tensor<2x2xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions and argmax
//===----------------------------------------------------------------------===//

func.func @reduce_axis_range(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.reduce_sum' op expected axes in [0, 2) but got axis 2}}
  %0 = tfc.reduce_sum %a, axes = [2], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_negative_axis(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.reduce_max' op expected axes in [0, 2) but got axis -1}}
  %0 = tfc.reduce_max %a, axes = [-1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_duplicate_axes(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.reduce_mean' op expected sorted axes without duplicates but got 1 before 1}}
  %0 = tfc.reduce_mean %a, axes = [1, 1], keepdims = false : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_unsorted_axes(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.reduce_prod' op expected sorted axes without duplicates but got 1 before 0}}
  %0 = tfc.reduce_prod %a, axes = [1, 0], keepdims = false : tensor<2x3xf32> -> tensor<f32>
  return
}

// -----

func.func @reduce_keepdims_result(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.reduce_min' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  %0 = tfc.reduce_min %a, axes = [1], keepdims = true : tensor<2x3xf32> -> tensor<2xf32>
  return
}

// -----

func.func @reduce_bool(%a: tensor<2xi1>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values, but got 'tensor<2xi1>'}}
  %0 = tfc.reduce_sum %a, axes = [0], keepdims = false : tensor<2xi1> -> tensor<i1>
  return
}

// -----

func.func @argmax_axis(%a: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.argmax' op expected axis in [0, 2) for 'tensor<2x3xf32>' but got 2}}
  %0 = tfc.argmax %a, axis = 2 : tensor<2x3xf32> -> tensor<2xi64>
  return
}

// -----

func.func @argmax_result_type(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 must be ranked tensor of 64-bit signless integer values, but got 'tensor<2xi32>'}}
  %0 = tfc.argmax %a, axis = 1 : tensor<2x3xf32> -> tensor<2xi32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Softmax family, one_hot
//===----------------------------------------------------------------------===//

func.func @softmax_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tfc.softmax' op expected axis in [0, 2) for 'tensor<2x3xf32>' but got 2}}
  %0 = tfc.softmax %a, axis = 2 : tensor<2x3xf32>
  return
}

// -----

func.func @log_softmax_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'tfc.log_softmax' op expected axis in [0, 2) for 'tensor<2x3xf32>' but got -1}}
  %0 = tfc.log_softmax %a, axis = -1 : tensor<2x3xf32>
  return
}

// -----

func.func @softmax_int(%a: tensor<2x3xi32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values, but got 'tensor<2x3xi32>'}}
  %0 = tfc.softmax %a, axis = 1 : tensor<2x3xi32>
  return
}

// -----

func.func @xent_scalar(%a: tensor<f32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.softmax_cross_entropy' op expected logits of rank at least 1 but got 'tensor<f32>'}}
  %0 = tfc.softmax_cross_entropy %a, %a : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @xent_mismatch(%l: tensor<2x3xf32>, %x: tensor<2x4xf32>) {
  // expected-error @+1 {{all of {labels, logits} have same type}}
  %0 = "tfc.softmax_cross_entropy"(%l, %x) : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @one_hot_depth(%i: tensor<2xi32>) {
  // expected-error @+1 {{'tfc.one_hot' op expected a depth of at least 0 but got -1}}
  %0 = tfc.one_hot %i, depth = -1 : tensor<2xi32> -> tensor<2x0xf32>
  return
}

// -----

func.func @one_hot_shape(%i: tensor<2xi32>) {
  // expected-error @+1 {{'tfc.one_hot' op expected a result of shape 'tensor<2x3xf32>' (indices shape + depth) but got 'tensor<3x2xf32>'}}
  %0 = tfc.one_hot %i, depth = 3 : tensor<2xi32> -> tensor<3x2xf32>
  return
}

// -----

func.func @one_hot_float_indices(%i: tensor<2xf32>) {
  // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<2xf32>'}}
  %0 = tfc.one_hot %i, depth = 3 : tensor<2xf32> -> tensor<2x3xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tfc.if
//===----------------------------------------------------------------------===//

func.func @if_yield_type(%p: tensor<i1>, %a: tensor<f32>, %i: tensor<i32>) {
  // expected-error @+1 {{'tfc.if' op the then region's tfc.yield value #0 has type 'tensor<i32>' but result #0 has type 'tensor<f32>'}}
  %r = tfc.if %p -> (tensor<f32>) {
    tfc.yield %i : tensor<i32>
  } else {
    tfc.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @if_else_yield_type(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'tfc.if' op the else region's tfc.yield value #0 has type 'tensor<2xf32>' but result #0 has type 'tensor<f32>'}}
  %r = tfc.if %p -> (tensor<f32>) {
    tfc.yield %a : tensor<f32>
  } else {
    tfc.yield %b : tensor<2xf32>
  }
  return
}

// -----

func.func @if_yield_count(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'tfc.if' op the then region's tfc.yield value has 2 values but result has 1}}
  %r = tfc.if %p -> (tensor<f32>) {
    tfc.yield %a, %a : tensor<f32>, tensor<f32>
  } else {
    tfc.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @if_missing_yield_values(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'tfc.if' op the then region's tfc.yield value has 0 values but result has 1}}
  %r = tfc.if %p -> (tensor<f32>) {
  } else {
    tfc.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @if_no_else(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'tfc.if' op expected an else region since the op has 1 results}}
  %r = tfc.if %p -> (tensor<f32>) {
    tfc.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @if_wrong_terminator(%p: tensor<i1>, %a: tensor<f32>) {
  // expected-error @+1 {{'tfc.if' op expected the then region to end with 'tfc.yield' but got 'func.return'}}
  %r = tfc.if %p -> (tensor<f32>) {
    func.return
  } else {
    tfc.yield %a : tensor<f32>
  }
  return
}

// -----

func.func @if_vector_predicate(%p: tensor<2xi1>) {
  // expected-error @+1 {{operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<2xi1>'}}
  "tfc.if"(%p) ({
    "tfc.yield"() : () -> ()
  }, {
  }) : (tensor<2xi1>) -> ()
  return
}

// -----

func.func @if_two_blocks(%p: tensor<i1>) {
  // expected-error @+1 {{'tfc.if' op expects region #0 to have 0 or 1 blocks}}
  "tfc.if"(%p) ({
    "tfc.yield"() : () -> ()
  ^bb1:
    "tfc.yield"() : () -> ()
  }, {
  }) : (tensor<i1>) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// tfc.while
//===----------------------------------------------------------------------===//

func.func @while_before_args(%i: tensor<i32>, %p: tensor<i1>) {
  // expected-error @+1 {{'tfc.while' op before region argument #0 has type 'tensor<f32>' but init #0 has type 'tensor<i32>'}}
  %r = "tfc.while"(%i) ({
  ^bb0(%a: tensor<f32>):
    "tfc.condition"(%p, %i) : (tensor<i1>, tensor<i32>) -> ()
  }, {
  ^bb0(%b: tensor<i32>):
    "tfc.yield"(%b) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return
}

// -----

func.func @while_condition_vs_results(%i: tensor<i32>, %f: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{'tfc.while' op tfc.condition value #0 has type 'tensor<f32>' but result #0 has type 'tensor<i32>'}}
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %f : tensor<f32>
  } do {
  ^bb0(%b: tensor<f32>):
    tfc.yield %i : tensor<i32>
  }
  return
}

// -----

func.func @while_after_args(%i: tensor<i32>, %p: tensor<i1>) {
  // expected-error @+1 {{'tfc.while' op after region argument #0 has type 'tensor<f32>' but tfc.condition value #0 has type 'tensor<i32>'}}
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<f32>):
    tfc.yield %i : tensor<i32>
  }
  return
}

// -----

func.func @while_yield(%i: tensor<i32>, %f: tensor<f32>, %p: tensor<i1>) {
  // expected-error @+1 {{'tfc.while' op tfc.yield value #0 has type 'tensor<f32>' but before region argument #0 has type 'tensor<i32>'}}
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    tfc.yield %f : tensor<f32>
  }
  return
}

// -----

func.func @while_yield_count(%i: tensor<i32>, %p: tensor<i1>) {
  // expected-error @+1 {{'tfc.while' op tfc.yield value has 0 values but before region argument has 1}}
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    tfc.yield
  }
  return
}

// -----

func.func @while_before_terminator(%i: tensor<i32>) {
  // expected-error @+1 {{'tfc.while' op expected the before region to end with 'tfc.condition' but got 'tfc.yield'}}
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.yield %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    tfc.yield %b : tensor<i32>
  }
  return
}

// -----

func.func @while_after_terminator(%i: tensor<i32>, %p: tensor<i1>) {
  // expected-error @+1 {{'tfc.while' op expected the after region to end with 'tfc.yield' but got 'tfc.condition'}}
  %r = tfc.while (%a = %i) : (tensor<i32>) -> tensor<i32> {
    tfc.condition(%p) %a : tensor<i32>
  } do {
  ^bb0(%b: tensor<i32>):
    tfc.condition(%p) %b : tensor<i32>
  }
  return
}

// -----

func.func @while_empty_before(%i: tensor<i32>) {
  // expected-error @+1 {{'tfc.while' op expects a non-empty block}}
  %r = "tfc.while"(%i) ({
  ^bb0(%a: tensor<i32>):
  }, {
  ^bb0(%b: tensor<i32>):
    "tfc.yield"(%b) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return
}

// -----

func.func @while_vector_condition(%i: tensor<i32>, %p: tensor<2xi1>) {
  %r = "tfc.while"(%i) ({
  ^bb0(%a: tensor<i32>):
    // expected-error @+1 {{operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<2xi1>'}}
    "tfc.condition"(%p, %a) : (tensor<2xi1>, tensor<i32>) -> ()
  }, {
  ^bb0(%b: tensor<i32>):
    "tfc.yield"(%b) : (tensor<i32>) -> ()
  }) : (tensor<i32>) -> tensor<i32>
  return
}

// -----

func.func @while_input_types(%i: tensor<i32>) {
  // expected-error @+1 {{expected 1 input types, one per init, but got 2}}
  %r = tfc.while (%a = %i) : (tensor<i32>, tensor<i32>) -> tensor<i32> {
  } do {
  }
  return
}

// -----

func.func @condition_outside_while(%p: tensor<i1>) {
  // expected-error @+1 {{'tfc.condition' op expects parent op 'tfc.while'}}
  tfc.condition(%p)
}

// -----

func.func @yield_outside(%a: tensor<f32>) {
  // expected-error @+1 {{'tfc.yield' op expects parent op to be one of 'tfc.if, tfc.while, tfc.fusion'}}
  tfc.yield %a : tensor<f32>
}

// -----

//===----------------------------------------------------------------------===//
// Variables, print, assert
//===----------------------------------------------------------------------===//

func.func @var_assign_type(%v: !tfc.var<tensor<2xf32>>, %x: tensor<3xf32>) {
  // expected-error @+1 {{'tfc.var_assign' op failed to verify that value has the variable's value type}}
  "tfc.var_assign"(%v, %x) : (!tfc.var<tensor<2xf32>>, tensor<3xf32>) -> ()
  return
}

// -----

func.func @var_assign_add_bool(%v: !tfc.var<tensor<2xi1>>, %x: tensor<2xi1>) {
  // expected-error @+1 {{operand #1 must be ranked tensor of 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values, but got 'tensor<2xi1>'}}
  tfc.var_assign_add %v, %x : !tfc.var<tensor<2xi1>>
  return
}

// -----

func.func @var_read_type(%v: !tfc.var<tensor<2xf32>>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.var_read' op inferred type(s) 'tensor<2xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = "tfc.var_read"(%v) : (!tfc.var<tensor<2xf32>>) -> tensor<3xf32>
  return
}

// -----

func.func @var_read_not_a_var(%v: tensor<2xf32>) {
  // expected-error @+1 {{'tfc.var_read' op expected a !tfc.var operand but got 'tensor<2xf32>'}}
  %0 = tfc.var_read %v : tensor<2xf32>
  return
}

// -----

// expected-error @+1 {{expected a tensor of i1, i32, i64, f32 or f64 but got 'tensor<2xi8>'}}
func.func @var_element_type(%v: !tfc.var<tensor<2xi8>>) {
  return
}

// -----

func.func @print_type(%x: tensor<2xi8>) {
  // expected-error @+1 {{operand #0 must be variadic of ranked tensor}}
  tfc.print "x" %x : tensor<2xi8>
  return
}

// -----

func.func @assert_vector(%p: tensor<2xi1>) {
  // expected-error @+1 {{operand #0 must be 0D tensor of 1-bit signless integer values, but got 'tensor<2xi1>'}}
  tfc.assert %p, "never" : tensor<2xi1>
  return
}

// -----

// A dynamic leading result dim has no operand dim to take its size from.
func.func @broadcast_dynamic_leading(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tfc.broadcast_to' op cannot broadcast 'tensor<4xf32>' to 'tensor<?x4xf32>': dynamic dim #0 of the result has no operand dim to take its size from}}
  %0 = tfc.broadcast_to %a : tensor<4xf32> to tensor<?x4xf32>
  return
}

// -----

func.func @broadcast_like_lacks_dim(%a: tensor<4xf32>, %l: tensor<4xf32>) {
  // expected-error @+1 {{'tfc.broadcast_to' op cannot broadcast 'tensor<4xf32>' to 'tensor<?x4xf32>': dynamic dim #0 of the result has no operand dim to take its size from and `like` has none either}}
  %0 = tfc.broadcast_to %a like %l : tensor<4xf32> to tensor<?x4xf32> like tensor<4xf32>
  return
}

// -----

func.func @broadcast_like_higher_rank(%a: tensor<4xf32>, %l: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'tfc.broadcast_to' op expected `like` of rank at most 2 but got 'tensor<2x3x4xf32>'}}
  %0 = tfc.broadcast_to %a like %l : tensor<4xf32> to tensor<?x4xf32> like tensor<2x3x4xf32>
  return
}

// -----

func.func @broadcast_like_bad_dim(%a: tensor<4xf32>, %l: tensor<?x5xf32>) {
  // expected-error @+1 {{'tfc.broadcast_to' op cannot broadcast like 'tensor<?x5xf32>' to 'tensor<?x4xf32>': its dim #1 is 5, expected 1 or 4}}
  %0 = tfc.broadcast_to %a like %l : tensor<4xf32> to tensor<?x4xf32> like tensor<?x5xf32>
  return
}

// -----

func.func @conv2d_channels(%x: tensor<1x5x5x3xf32>, %f: tensor<3x3x2x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.conv2d' op input [1, 5, 5, 3] has 3 channels but filter [3, 3, 2, 4] expects 2}}
  %0 = tfc.conv2d %x, %f, strides = [1, 1], dilations = [1, 1], padding = "SAME" : (tensor<1x5x5x3xf32>, tensor<3x3x2x4xf32>) -> tensor<1x5x5x4xf32>
  return
}

// -----

func.func @conv2d_stride(%x: tensor<1x5x5x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.conv2d' op expected strides and dilations of at least 1 but got strides [0, 1] and dilations [1, 1]}}
  %0 = tfc.conv2d %x, %f, strides = [0, 1], dilations = [1, 1], padding = "SAME" : (tensor<1x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x5x5x4xf32>
  return
}

// -----

func.func @conv2d_padding(%x: tensor<1x5x5x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.conv2d' op expected padding "SAME" or "VALID" but got "FULL"}}
  %0 = tfc.conv2d %x, %f, strides = [1, 1], dilations = [1, 1], padding = "FULL" : (tensor<1x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x5x5x4xf32>
  return
}

// -----

func.func @conv2d_window(%x: tensor<1x5x5x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.conv2d' op the height window (3 taps, dilation 3) does not fit input [1, 5, 5, 3] with padding VALID}}
  %0 = tfc.conv2d %x, %f, strides = [1, 1], dilations = [3, 1], padding = "VALID" : (tensor<1x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x1x3x4xf32>
  return
}

// -----

func.func @conv2d_result(%x: tensor<1x5x5x3xf32>, %f: tensor<3x3x3x4xf32>) {
  // expected-error @+2 {{'tfc.conv2d' op inferred type(s) 'tensor<1x3x3x4xf32>' are incompatible with return type(s) of operation 'tensor<1x5x5x4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = tfc.conv2d %x, %f, strides = [1, 1], dilations = [1, 1], padding = "VALID" : (tensor<1x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x5x5x4xf32>
  return
}

// -----

func.func @conv2d_backprop_input_dy(%f: tensor<3x3x3x4xf32>, %dy: tensor<1x2x2x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.conv2d_backprop_input' op expected dy of the convolution's result shape but got 'tensor<1x2x2x4xf32>'}}
  %0 = tfc.conv2d_backprop_input %f, %dy, input_shape = [1, 5, 5, 3], strides = [1, 1], dilations = [1, 1], padding = "SAME" : (tensor<3x3x3x4xf32>, tensor<1x2x2x4xf32>) -> tensor<1x5x5x3xf32>
  return
}

// -----

func.func @conv2d_backprop_filter_shape(%x: tensor<1x5x5x3xf32>, %dy: tensor<1x5x5x4xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.conv2d_backprop_filter' op expected filter_shape of 4 dims (the first at least 1, the others at least 1) but got [0, 3, 3, 4]}}
  %0 = tfc.conv2d_backprop_filter %x, %dy, filter_shape = [0, 3, 3, 4], strides = [1, 1], dilations = [1, 1], padding = "SAME" : (tensor<1x5x5x3xf32>, tensor<1x5x5x4xf32>) -> tensor<0x3x3x4xf32>
  return
}

// -----

func.func @max_pool2d_window(%x: tensor<1x4x4x2xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.max_pool2d' op the height window of 5 does not fit an input of 4 with padding VALID}}
  %0 = tfc.max_pool2d %x, ksize = [5, 1], strides = [1, 1], padding = "VALID" : tensor<1x4x4x2xf32> -> tensor<1x1x4x2xf32>
  return
}

// -----

func.func @avg_pool2d_grad_dy(%dy: tensor<1x3x3x2xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.avg_pool2d_grad' op expected dy of the pooling's result shape but got 'tensor<1x3x3x2xf32>'}}
  %0 = tfc.avg_pool2d_grad %dy, input_shape = [1, 4, 4, 2], ksize = [2, 2], strides = [2, 2], padding = "VALID" : tensor<1x3x3x2xf32> -> tensor<1x4x4x2xf32>
  return
}

// -----

func.func @gather_axis(%p: tensor<4x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.gather' op expected an axis in [0, 2) for params 'tensor<4x3xf32>' but got 2}}
  %0 = tfc.gather %p, %i, axis = 2 : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @segment_sum_prefix(%d: tensor<4x3xf32>, %i: tensor<3xi32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.unsorted_segment_sum' op expected the shape of segment_ids 'tensor<3xi32>' to be a prefix of the shape of data 'tensor<4x3xf32>'}}
  %0 = tfc.unsorted_segment_sum %d, %i, num_segments = 5 : (tensor<4x3xf32>, tensor<3xi32>) -> tensor<5x3xf32>
  return
}

// -----

func.func @philox_state(%s: tensor<3xi64>) {
  // expected-error @+1 {{'tfc.philox_random' op expected a state of type tensor<2xi64> (key, counter) but got 'tensor<3xi64>'}}
  %0 = tfc.philox_random %s, "uniform" : tensor<3xi64> -> tensor<4xf32>
  return
}

// -----

func.func @philox_distribution(%s: tensor<2xi64>) {
  // expected-error @+1 {{'tfc.philox_random' op expected distribution "uniform", "normal" or "truncated_normal" but got "gamma"}}
  %0 = tfc.philox_random %s, "gamma" : tensor<2xi64> -> tensor<4xf32>
  return
}

// -----

func.func @cumsum_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tfc.cumsum' op expected an axis in [0, 1) but got 1}}
  %0 = tfc.cumsum %x, axis = 1, exclusive = false, reverse = false : tensor<4xf32>
  return
}

// -----

func.func @top_k_too_many(%x: tensor<2x3xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.top_k_indices' op expected k in [0, 3] (the last dim of 'tensor<2x3xf32>') but got 4}}
  %0 = tfc.top_k_indices %x, k = 4 : tensor<2x3xf32> -> tensor<2x4xi32>
  return
}

// -----

func.func @sparse_cross_entropy_labels(%l: tensor<3xi32>, %z: tensor<2x5xf32>) {
  // expected-error @+2 {{failed to infer returned types}}
  // expected-error @+1 {{'tfc.sparse_softmax_cross_entropy' op expected labels of the shape of 'tensor<2x5xf32>' without its last dim but got 'tensor<3xi32>'}}
  %0 = tfc.sparse_softmax_cross_entropy %l, %z : (tensor<3xi32>, tensor<2x5xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @check_elements_bound(%i: tensor<4xi32>) {
  // expected-error @+1 {{'tfc.check_elements' op predicate needs a bound}}
  tfc.check_elements %i, in_range, "m" : tensor<4xi32>
  return
}

// -----

func.func @all_reduce_op(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tfc.all_reduce' op expected reduce_op "sum" or "mean" but got "max"}}
  %0 = tfc.all_reduce %x, "max" : tensor<4xf32>
  return
}

// -----

func.func @all_reduce_bool(%x: tensor<4xi1>) {
  // expected-error @+1 {{'tfc.all_reduce' op operand #0 must be ranked tensor of 32-bit signless integer or 64-bit signless integer or 32-bit float or 64-bit float values}}
  %0 = tfc.all_reduce %x, "sum" : tensor<4xi1>
  return
}
