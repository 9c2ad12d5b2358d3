//===- OpsTest.cpp - The op table: names and execute ----------------------===//

#include "TestUtil.h"

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

TEST(Ops, NamesRoundTrip) {
  int count = 0;
#define TFC_CHECK_OP(e, name)                                                  \
  EXPECT_EQ(op_name(OpKind::e), #name);                                        \
  EXPECT_EQ(op_kind_from_name(#name), OpKind::e);                              \
  ++count;
  TFC_FOR_EACH_OP(TFC_CHECK_OP)
#undef TFC_CHECK_OP
  EXPECT_EQ(count, 63);
  EXPECT_EQ(op_kind_from_name("nope"), std::nullopt);
  EXPECT_EQ(op_kind_from_name(""), std::nullopt);
  EXPECT_EQ(op_name(OpKind::ReduceSum), "reduce_sum");
  EXPECT_EQ(k::to_string(k::CmpPredicate::GE), "ge");
  EXPECT_EQ(k::to_string(k::ReduceKind::Mean), "reduce_mean");
  EXPECT_EQ(to_string(DType::Float64), "float64");
  EXPECT_EQ(to_mlir_string(DType::Bool), "i1");
  EXPECT_EQ(to_mlir_string(DType::Int64), "i64");
}

TEST(Ops, ExecuteDispatchesEveryFamily) {
  Tensor x = make<float>({1, -2, 3, -4}, {2, 2});
  Tensor y = make<float>({1, 1, 2, 2}, {2, 2});
  expectEq<float>(execute(OpKind::Add, {x, y}), {2, 2}, {2, -1, 5, -2});
  expectEq<float>(execute(OpKind::Relu, {x}), {2, 2}, {1, 0, 3, 0});
  expectEq<float>(execute(OpKind::Square, {x}), {2, 2}, {1, 4, 9, 16});
  OpAttrs cmp;
  cmp.predicate = k::CmpPredicate::GT;
  expectEq<bool>(execute(OpKind::Cmp, {x, y}, cmp), {2, 2},
                 {false, false, true, false});
  expectEq<float>(
      execute(OpKind::Select, {execute(OpKind::Cmp, {x, y}, cmp), x, y}),
      {2, 2}, {1, 1, 3, 2});
  OpAttrs cast;
  cast.dtype = DType::Int32;
  expectEq<int32_t>(execute(OpKind::Cast, {x}, cast), {2, 2}, {1, -2, 3, -4});
  OpAttrs shape;
  shape.shape = {4};
  expectEq<float>(execute(OpKind::Reshape, {x}, shape), {4}, {1, -2, 3, -4});
  shape.shape = {3, 2, 2};
  EXPECT_EQ(execute(OpKind::BroadcastTo, {x}, shape).shape(),
            (std::vector<int64_t>{3, 2, 2}));
  OpAttrs perm;
  perm.axes = {1, 0};
  expectEq<float>(execute(OpKind::Transpose, {x}, perm), {2, 2},
                  {1, 3, -2, -4});
  OpAttrs ax;
  ax.axis = 0;
  EXPECT_EQ(execute(OpKind::ExpandDims, {x}, ax).shape(),
            (std::vector<int64_t>{1, 2, 2}));
  expectEq<float>(execute(OpKind::Concat, {x, y}, ax), {4, 2},
                  {1, -2, 3, -4, 1, 1, 2, 2});
  expectEq<int64_t>(execute(OpKind::Argmax, {x}, ax), {2}, {1, 0});
  OpAttrs sq;
  sq.axes = {0};
  EXPECT_EQ(execute(OpKind::Squeeze, {make<float>({1, 2}, {1, 2})}, sq).shape(),
            (std::vector<int64_t>{2}));
  OpAttrs sl;
  sl.begin = {1, 0};
  sl.shape = {1, -1};
  expectEq<float>(execute(OpKind::Slice, {x}, sl), {1, 2}, {3, -4});
  OpAttrs red;
  red.axes = {1};
  red.keepdims = true;
  expectEq<float>(execute(OpKind::ReduceSum, {x}, red), {2, 1}, {-1, -1});
  expectEq<float>(execute(OpKind::ReduceMean, {x}, red), {2, 1}, {-0.5, -0.5});
  expectEq<float>(execute(OpKind::ReduceMax, {x}, red), {2, 1}, {1, 3});
  expectEq<float>(execute(OpKind::ReduceMin, {x}, red), {2, 1}, {-2, -4});
  expectEq<float>(execute(OpKind::ReduceProd, {x}, red), {2, 1}, {-2, -12});
  expectEq<float>(execute(OpKind::Matmul, {x, y}), {2, 2}, {-3, -3, -5, -5});
  OpAttrs last;
  last.axis = 1;
  expectNear<float>(execute(OpKind::Softmax, {y}, last), {2, 2},
                    {0.5, 0.5, 0.5, 0.5});
  expectNear<float>(
      execute(OpKind::LogSoftmax, {y}, last), {2, 2},
      {-std::log(2.0), -std::log(2.0), -std::log(2.0), -std::log(2.0)});
  expectNear<float>(execute(OpKind::SoftmaxCrossEntropy,
                            {make<float>({1, 0, 0, 1}, {2, 2}), y}),
                    {2}, {std::log(2.0), std::log(2.0)});
  OpAttrs oh;
  oh.depth = 3;
  oh.dtype = DType::Float32;
  expectEq<float>(execute(OpKind::OneHot, {make<int32_t>({2}, {1})}, oh),
                  {1, 3}, {0, 0, 1});
  Tensor sg = execute(OpKind::StopGradient, {x});
  expectEq<float>(sg, {2, 2}, {1, -2, 3, -4});
  EXPECT_NE(sg.id(), x.id());
  Tensor b = make<bool>({true, false}, {2});
  expectEq<bool>(execute(OpKind::LogicalNot, {b}), {2}, {false, true});
  expectEq<bool>(execute(OpKind::LogicalOr, {b, b}), {2}, {true, false});
  expectEq<int32_t>(execute(OpKind::FloorDiv, {make<int32_t>({-7}, {1}),
                                               make<int32_t>({2}, {1})}),
                    {1}, {-4});
  expectEq<int32_t>(
      execute(OpKind::Mod, {make<int32_t>({-7}, {1}), make<int32_t>({3}, {1})}),
      {1}, {2});
}

TEST(Ops, ExecuteChecksOperandCount) {
  Tensor x = scalar(1.f);
  expectError<InvalidArgumentError>([&] { execute(OpKind::Add, {x}); },
                                    {"add", "expected 2 operands, got 1"});
  expectError<InvalidArgumentError>(
      [&] {
        execute(OpKind::Exp, {x, x});
      },
      {"exp", "expected 1 operand, got 2"});
  expectError<InvalidArgumentError>(
      [&] {
        execute(OpKind::Select, {x, x});
      },
      {"select", "expected 3 operands, got 2"});
  expectError<InvalidArgumentError>([&] { execute(OpKind::Concat, {}); },
                                    {"concat", "at least one"});
  expectError<InvalidArgumentError>([&] { execute(OpKind::Neg, {}); },
                                    {"neg", "expected 1 operand, got 0"});
}

} // namespace
