//===- ErrorTest.cpp - Every bad input throws the right error -------------===//
//
// Each case checks the exception type and that the message names the op, the
// shapes and the dtypes involved.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;
using IAE = InvalidArgumentError;

namespace {

Tensor f23() { return make<float>({1, 2, 3, 4, 5, 6}, {2, 3}); }
Tensor i3() { return make<int32_t>({1, 2, 3}, {3}); }

TEST(Errors, Elementwise) {
  expectError<IAE>([] { k::add(f23(), make<float>({1, 2, 3, 4}, {4})); },
                   {"add: incompatible shapes (2, 3) and (4,) (float32 vs float32)"});
  expectError<IAE>([] { k::add(f23(), i3()); },
                   {"add: mixed dtypes float32 and int32"});
  expectError<IAE>([] { k::exp(i3()); }, {"exp: expected a floating dtype, got int32"});
  expectError<IAE>([] { k::sigmoid(make<bool>({true}, {1})); },
                   {"sigmoid: expected a floating dtype, got bool"});
  expectError<IAE>([] { k::neg(make<bool>({true}, {1})); },
                   {"neg", "numeric", "got bool"});
  expectError<IAE>([] { k::div(i3(), i3()); },
                   {"div: expected a floating dtype, got int32"});
  expectError<IAE>([] { k::logical_not(f23()); },
                   {"logical_not: expected dtype bool, got float32"});
  expectError<IAE>([] { k::logical_and(i3(), i3()); },
                   {"logical_and: expected dtype bool, got int32"});
  expectError<IAE>([] { k::add(make<bool>({true}, {1}), make<bool>({true}, {1})); },
                   {"add", "got bool"});
  expectError<IAE>([] { k::floor_div(i3(), make<int32_t>({1, 0, 2}, {3})); },
                   {"floor_div: integer division by zero", "int32", "(3,)"});
  expectError<IAE>([] { k::mod(make<int64_t>({5}, {1}), scalar<int64_t>(0)); },
                   {"mod: integer division by zero", "int64", "(1,)", "()"});
  expectError<IAE>([] { k::pow(i3(), scalar<int32_t>(-1)); },
                   {"pow", "negative integer powers", "int32", "(3,)"});
  expectError<IAE>(
      [] { k::compare(k::CmpPredicate::LT, make<bool>({true}, {1}), make<bool>({false}, {1})); },
      {"cmp lt", "bool"});
  expectError<IAE>([] { k::compare(k::CmpPredicate::EQ, f23(), i3()); },
                   {"cmp eq: mixed dtypes float32 and int32"});
  expectError<IAE>([] { k::select(f23(), f23(), f23()); },
                   {"select: condition must be bool, got float32", "(2, 3)"});
  expectError<IAE>([] { k::select(make<bool>({true}, {1}), f23(), i3()); },
                   {"select: mixed dtypes float32 and int32"});
  expectError<IAE>(
      [] { k::select(make<bool>({true, false}, {2}), f23(), f23()); },
      {"select: incompatible shapes (2,)", "(2, 3)", "float32"});
  expectError<IAE>([] { k::add(Tensor(), f23()); }, {"add", "undefined"});
}

TEST(Errors, Shape) {
  expectError<IAE>([] { k::reshape(f23(), {4}); },
                   {"reshape: cannot reshape tensor of shape (2, 3) (6 elements) into shape (4,)"});
  expectError<IAE>([] { k::reshape(f23(), {-1, -1}); },
                   {"reshape: only one dimension can be -1", "(-1, -1)"});
  expectError<IAE>([] { k::reshape(f23(), {-1, 4}); },
                   {"reshape", "(2, 3)", "(-1, 4)"});
  expectError<IAE>([] { k::reshape(f23(), {-2, 3}); },
                   {"reshape: invalid target shape (-2, 3)"});
  expectError<IAE>([] { k::transpose(f23(), {0, 0}); },
                   {"transpose: perm (0, 0) is not a permutation", "(2, 3)"});
  expectError<IAE>([] { k::transpose(f23(), {1, 0, 2}); },
                   {"transpose: perm (1, 0, 2)", "rank 2"});
  expectError<IAE>([] { k::expand_dims(f23(), 3); },
                   {"expand_dims: axis 3 out of range", "(2, 3)"});
  expectError<IAE>([] { k::squeeze(f23(), {1}); },
                   {"squeeze: cannot squeeze axis 1 of shape (2, 3)", "size is 3"});
  expectError<IAE>([] { k::squeeze(f23(), {2}); },
                   {"squeeze: axis 2 out of range for rank 2 tensor of shape (2, 3)"});
  expectError<IAE>([] { k::concat({}, 0); }, {"concat: expected at least one tensor"});
  expectError<IAE>([] { k::concat({f23(), make<float>({1, 2}, {1, 2})}, 0); },
                   {"concat: input 1 has shape (1, 2) but input 0 has shape (2, 3)"});
  expectError<IAE>([] { k::concat({f23(), make<int32_t>({1, 2, 3}, {1, 3})}, 0); },
                   {"concat: mixed dtypes float32 and int32"});
  expectError<IAE>([] { k::concat({scalar(1.f), scalar(2.f)}, 0); },
                   {"concat: cannot concatenate scalars"});
  expectError<IAE>([] { k::concat({f23(), f23()}, 2); },
                   {"concat: axis 2 out of range for rank 2 tensor of shape (2, 3)"});
  expectError<IAE>([] { k::slice(f23(), {0, 2}, {1, 2}); },
                   {"slice: size (1, 2) at begin (0, 2) is out of bounds for shape (2, 3)"});
  expectError<IAE>([] { k::slice(f23(), {0, 4}, {1, 0}); },
                   {"slice: begin (0, 4) is out of bounds for shape (2, 3)"});
  expectError<IAE>([] { k::slice(f23(), {0}, {1}); },
                   {"slice", "one entry per dim of shape (2, 3)"});
  expectError<IAE>([] { k::broadcast_to(f23(), {3, 3}); },
                   {"broadcast_to: cannot broadcast tensor of shape (2, 3) (float32) to shape (3, 3)"});
  expectError<IAE>([] { k::broadcast_to(f23(), {3}); },
                   {"broadcast_to", "(2, 3)", "(3,)"});
  expectError<IAE>([] { k::broadcast_to(f23(), {-1, 3}); },
                   {"broadcast_to: invalid target shape (-1, 3)"});
}

TEST(Errors, LinalgReductionsNN) {
  expectError<IAE>([] { k::matmul(f23(), f23()); },
                   {"matmul: inner dimensions differ: shapes (2, 3) and (2, 3)", "float32"});
  expectError<IAE>([] { k::matmul(make<float>({1, 2, 3}, {3}), f23()); },
                   {"matmul: expected operands of rank >= 2", "(3,)", "(2, 3)"});
  expectError<IAE>(
      [] { k::matmul(make<float>(std::vector<float>(12), {2, 2, 3}),
                     make<float>(std::vector<float>(18), {3, 3, 2})); },
      {"matmul: incompatible batch dims (2,) and (3,)", "(2, 2, 3)", "(3, 3, 2)"});
  expectError<IAE>([] { k::matmul(f23(), make<int32_t>({1, 2, 3}, {3, 1})); },
                   {"matmul: mixed dtypes float32 and int32"});
  expectError<IAE>([] { k::matmul(make<bool>({true}, {1, 1}), make<bool>({true}, {1, 1})); },
                   {"matmul", "got bool"});
  expectError<IAE>([] { k::reduce(k::ReduceKind::Sum, f23(), {3}, false); },
                   {"reduce_sum: axis 3 out of range for rank 2 tensor of shape (2, 3)"});
  expectError<IAE>([] { k::reduce(k::ReduceKind::Mean, f23(), {1, -1}, false); },
                   {"reduce_mean: duplicate axis -1 in axes (1, -1)", "(2, 3)"});
  expectError<IAE>([] { k::reduce(k::ReduceKind::Max, make<float>({}, {0, 2}), {0}, false); },
                   {"reduce_max: cannot reduce over zero elements", "(0, 2)"});
  expectError<IAE>([] { k::reduce(k::ReduceKind::Mean, make<int32_t>({}, {0}), {}, false); },
                   {"reduce_mean", "zero int32 elements", "(0,)"});
  expectError<IAE>([] { k::reduce(k::ReduceKind::Sum, make<bool>({true}, {1}), {}, false); },
                   {"reduce_sum", "got bool"});
  expectError<IAE>([] { k::reduce(k::ReduceKind::Prod, scalar(1.f), {0}, false); },
                   {"reduce_prod: axis 0 out of range for rank 0 tensor of shape ()"});
  expectError<IAE>([] { k::argmax(scalar(1.f), 0); },
                   {"argmax: expected a tensor of rank >= 1, got shape ()"});
  expectError<IAE>([] { k::argmax(f23(), -3); },
                   {"argmax: axis -3 out of range for rank 2 tensor of shape (2, 3)"});
  expectError<IAE>([] { k::argmax(make<float>({}, {2, 0}), 1); },
                   {"argmax", "size 0", "(2, 0)"});
  expectError<IAE>([] { k::softmax(i3(), 0); },
                   {"softmax: expected a floating dtype, got int32"});
  expectError<IAE>([] { k::log_softmax(f23(), 2); },
                   {"log_softmax: axis 2 out of range for rank 2 tensor of shape (2, 3)"});
  expectError<IAE>([] { k::softmax(scalar(1.f), 0); },
                   {"softmax: expected a tensor of rank >= 1, got shape ()"});
  expectError<IAE>(
      [] { k::softmax_cross_entropy_with_logits(f23(), make<float>({1, 2}, {1, 2})); },
      {"softmax_cross_entropy_with_logits: labels shape (2, 3) and logits shape (1, 2)"});
  expectError<IAE>(
      [] { k::softmax_cross_entropy_with_logits(make<double>({1}, {1}), make<float>({1}, {1})); },
      {"softmax_cross_entropy_with_logits: mixed dtypes float64", "float32"});
  expectError<IAE>([] { k::one_hot(f23(), 3, DType::Float32); },
                   {"one_hot: expected an integer dtype (int32, int64), got float32"});
  expectError<IAE>([] { k::one_hot(i3(), -1, DType::Float32); },
                   {"one_hot: depth must be >= 0, got -1"});
}

TEST(Errors, Creation) {
  expectError<IAE>([] { k::range(0, 10, 0, DType::Int32); },
                   {"range: delta must not be 0"});
  expectError<IAE>([] { k::range(0, 10, 1, DType::Bool); }, {"range", "got bool"});
  expectError<IAE>([] { k::range(0, int64_t(1) << 40, int64_t(1) << 20, DType::Int32); },
                   {"range", "do not fit in int32"});
  expectError<IAE>([] { k::full({2, -3}, 1, DType::Float32); },
                   {"full: invalid shape (2, -3)"});
  expectError<IAE>([] { k::full({2}, 1.5, DType::Int32); },
                   {"full: value 1.5", "int32"});
  expectError<IAE>([] { k::full({int64_t(1) << 40, int64_t(1) << 40}, 0, DType::Float32); },
                   {"full", "too large"});
  expectError<IAE>([] { k::random_uniform({2}, 3, 1, 0, DType::Float32); },
                   {"random_uniform: expected lo < hi", "float32"});
  expectError<IAE>([] { k::random_uniform({2}, 0, 1, 0, DType::Bool); },
                   {"random_uniform", "got bool"});
  expectError<IAE>([] { k::random_normal({2}, 0, 1, 0, DType::Int32); },
                   {"random_normal: expected a floating dtype, got int32"});
  expectError<IAE>([] { k::random_normal({2}, 0, -1, 0, DType::Float32); },
                   {"random_normal", "stddev"});
  expectError<IAE>([] { k::set_num_threads(-1); }, {"set_num_threads"});
}

TEST(Errors, AllAreTfcErrors) {
  // Every kernel error is catchable as the base class too.
  EXPECT_THROW(k::add(f23(), i3()), Error);
  EXPECT_THROW(k::reshape(f23(), {5}), std::runtime_error);
}

} // namespace
