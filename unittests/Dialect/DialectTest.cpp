//===- DialectTest.cpp - Building and verifying tfc IR in C++ ------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Builds tfc IR through `OpBuilder` the way the tracer does, and checks that
// verifiers, inference, folders and the region-branch interfaces behave.
//
//===----------------------------------------------------------------------===//

#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/InitAllDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
/// Owns an MLIRContext with every tfc dialect loaded, a module to build into,
/// and collects diagnostics.
class TfcDialectTest : public ::testing::Test {
protected:
  TfcDialectTest() : builder(&context), loc(builder.getUnknownLoc()) {
    DialectRegistry registry;
    tfc::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    handler.emplace(&context, [this](Diagnostic &diag) {
      messages += diag.str();
      messages += "\n";
      return success();
    });
    module = ModuleOp::create(loc);
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// Verifies `op` and returns the diagnostics it produced.
  std::string verifyMessages(Operation *op) {
    messages.clear();
    (void)verify(op);
    return messages;
  }

  /// A ranked tensor type of f32 (or `element`).
  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element = {}) {
    return RankedTensorType::get(shape,
                                 element ? element : builder.getF32Type());
  }

  /// A constant of `type` filled with `value`.
  Value splat(RankedTensorType type, float value) {
    return tfc::ConstantOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, value));
  }

  /// The rank-0 i1 constant `value`.
  Value predicate(bool value) {
    auto type = tensor({}, builder.getI1Type());
    return tfc::ConstantOp::create(builder, loc, type,
                                   DenseElementsAttr::get(type, value));
  }

  MLIRContext context;
  OpBuilder builder;
  Location loc;
  OwningOpRef<ModuleOp> module;
  std::optional<ScopedDiagnosticHandler> handler;
  std::string messages;
};

TEST_F(TfcDialectTest, BuildAddAndFoldZero) {
  auto type = tensor({2});
  auto x = tfc::ConstantOp::create(
      builder, loc, type,
      DenseElementsAttr::get(type, ArrayRef<float>{1.f, 2.f}));
  Value zero = splat(type, 0.f);
  auto add = tfc::AddOp::create(builder, loc, x, zero);
  EXPECT_EQ(add.getType(), type);
  EXPECT_TRUE(succeeded(verify(*module)));
  // Both operands constant: the folder computes the sum.
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(add->fold(folded)));
  ASSERT_EQ(folded.size(), 1u);
  auto sum = dyn_cast_or_null<DenseElementsAttr>(
      dyn_cast_if_present<Attribute>(folded[0]));
  ASSERT_TRUE(sum);
  EXPECT_EQ(sum.getValues<float>()[1], 2.f);
}

TEST_F(TfcDialectTest, AddZeroFoldsToOperand) {
  auto type = tensor({2});
  auto func = func::FuncOp::create(builder, loc, "f",
                                   builder.getFunctionType({type}, {}));
  builder.setInsertionPointToStart(func.addEntryBlock());
  Value x = func.getArgument(0);
  auto add = tfc::AddOp::create(builder, loc, x, splat(type, 0.f));
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(add->fold(folded)));
  ASSERT_EQ(folded.size(), 1u);
  EXPECT_EQ(dyn_cast<Value>(folded[0]), x);
}

TEST_F(TfcDialectTest, ParseRejectsMismatchedTypes) {
  const char *text = R"mlir(
    func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
      %0 = "tfc.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32>
    })mlir";
  messages.clear();
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(text, &context);
  EXPECT_FALSE(parsed);
  EXPECT_NE(messages.find("'tfc.add' op expected every operand and result to "
                          "have the shape of operand #0 'tensor<2xf32>' but "
                          "operand #1 has type 'tensor<3xf32>'"),
            std::string::npos)
      << messages;
}

TEST_F(TfcDialectTest, MatmulInfersResultType) {
  Value a = splat(tensor({5, 2, 3}), 1.f);
  Value b = splat(tensor({5, 3, ShapedType::kDynamic}), 1.f);
  // The ODS builder infers [5, 2, ?].
  auto matmul = tfc::MatmulOp::create(builder, loc, a, b);
  EXPECT_EQ(matmul.getType(), tensor({5, 2, ShapedType::kDynamic}));
  EXPECT_EQ(verifyMessages(matmul), "");
}

TEST_F(TfcDialectTest, MatmulShapeMismatchMessage) {
  Value a = splat(tensor({2, 3}), 1.f);
  Value b = splat(tensor({4, 5}), 1.f);
  // Building with an explicit result type: the verifier explains.
  auto matmul = tfc::MatmulOp::create(builder, loc, tensor({2, 5}), a, b);
  std::string text = verifyMessages(matmul);
  EXPECT_NE(text.find("'tfc.matmul' op expected the contracted dims to match "
                      "but lhs 'tensor<2x3xf32>' has 3 columns and rhs "
                      "'tensor<4x5xf32>' has 4 rows"),
            std::string::npos)
      << text;
}

TEST_F(TfcDialectTest, CreateCheckedReportsInsteadOfAborting) {
  Value a = splat(tensor({2, 3}), 1.f);
  Value b = splat(tensor({4, 5}), 1.f);
  messages.clear();
  // The ODS inferring builder would call report_fatal_error here.
  FailureOr<tfc::MatmulOp> bad =
      tfc::createChecked<tfc::MatmulOp>(builder, loc, ValueRange{a, b});
  EXPECT_TRUE(failed(bad));
  EXPECT_NE(messages.find("has 3 columns"), std::string::npos) << messages;

  // A valid one is built, with the inferred type.
  Value c = splat(tensor({3, 4}), 1.f);
  FailureOr<tfc::MatmulOp> good =
      tfc::createChecked<tfc::MatmulOp>(builder, loc, ValueRange{a, c});
  ASSERT_TRUE(succeeded(good));
  EXPECT_EQ(good->getType(), tensor({2, 4}));

  // Attributes go through the same path: a bad axis is reported.
  messages.clear();
  FailureOr<tfc::ReduceSumOp> reduce = tfc::createChecked<tfc::ReduceSumOp>(
      builder, loc, ValueRange{a},
      {builder.getNamedAttr("axes", builder.getDenseI64ArrayAttr({3})),
       builder.getNamedAttr("keepdims", builder.getBoolAttr(false))});
  EXPECT_TRUE(failed(reduce));
  EXPECT_NE(messages.find("expected axes in [0, 2) but got axis 3"),
            std::string::npos)
      << messages;

  // Ops with explicit result types are verified too, and erased on failure.
  messages.clear();
  FailureOr<tfc::ReshapeOp> reshape = tfc::createChecked<tfc::ReshapeOp>(
      builder, loc, TypeRange{tensor({5})}, ValueRange{a});
  EXPECT_TRUE(failed(reshape));
  EXPECT_NE(messages.find("cannot reshape 'tensor<2x3xf32>' (6 elements) to "
                          "'tensor<5xf32>' (5 elements)"),
            std::string::npos)
      << messages;
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(TfcDialectTest, TransposeBadPermutation) {
  Value x = splat(tensor({2, 3}), 1.f);
  auto transpose = tfc::TransposeOp::create(
      builder, loc, tensor({3, 3}), x, builder.getDenseI64ArrayAttr({1, 1}));
  std::string text = verifyMessages(transpose);
  EXPECT_NE(text.find("'tfc.transpose' op expected a permutation of [0, 2)"),
            std::string::npos)
      << text;

  // A good permutation infers the permuted shape.
  auto good = tfc::TransposeOp::create(builder, loc, x,
                                       builder.getDenseI64ArrayAttr({1, 0}));
  EXPECT_EQ(good.getType(), tensor({3, 2}));
}

TEST_F(TfcDialectTest, NormalizeAxes) {
  FailureOr<SmallVector<int64_t>> axes = tfc::normalizeAxes({-1, 0, 2, 0}, 3);
  ASSERT_TRUE(succeeded(axes));
  EXPECT_EQ(*axes, (SmallVector<int64_t>{0, 2}));
  EXPECT_TRUE(failed(tfc::normalizeAxes({3}, 3)));
  EXPECT_TRUE(failed(tfc::normalizeAxes({-4}, 3)));
  EXPECT_EQ(*tfc::normalizeAxis(-1, 4), 3);
  EXPECT_TRUE(failed(tfc::normalizeAxis(4, 4)));
}

TEST_F(TfcDialectTest, IfYieldMismatchMessage) {
  auto scalar = tensor({});
  Value a = splat(scalar, 1.f);
  Value wrong = splat(tensor({2}), 1.f);
  auto ifOp =
      tfc::IfOp::create(builder, loc, TypeRange{scalar}, predicate(true));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().emplaceBlock());
    tfc::YieldOp::create(builder, loc, ValueRange{wrong});
    builder.setInsertionPointToStart(&ifOp.getElseRegion().emplaceBlock());
    tfc::YieldOp::create(builder, loc, ValueRange{a});
  }
  std::string text = verifyMessages(ifOp);
  EXPECT_NE(text.find("'tfc.if' op the then region's tfc.yield value #0 has "
                      "type 'tensor<2xf32>' but result #0 has type "
                      "'tensor<f32>'"),
            std::string::npos)
      << text;
}

TEST_F(TfcDialectTest, IfWithoutElseNeedsNoResults) {
  auto ifOp =
      tfc::IfOp::create(builder, loc, TypeRange{tensor({})}, predicate(false));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().emplaceBlock());
    tfc::YieldOp::create(builder, loc, ValueRange{splat(tensor({}), 0.f)});
  }
  std::string text = verifyMessages(ifOp);
  EXPECT_NE(text.find("expected an else region since the op has 1 results"),
            std::string::npos)
      << text;
}

TEST_F(TfcDialectTest, IfSuccessorsFollowConstantPredicate) {
  auto ifOp = tfc::IfOp::create(builder, loc, TypeRange{}, predicate(true));
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().emplaceBlock());
    tfc::YieldOp::create(builder, loc);
    builder.setInsertionPointToStart(&ifOp.getElseRegion().emplaceBlock());
    tfc::YieldOp::create(builder, loc);
  }
  ASSERT_EQ(verifyMessages(ifOp), "");
  auto branch = cast<RegionBranchOpInterface>(ifOp.getOperation());
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  EXPECT_EQ(successors.size(), 2u);

  // With the predicate known to be true, only the then region is entered.
  successors.clear();
  Attribute trueAttr =
      DenseElementsAttr::get(tensor({}, builder.getI1Type()), true);
  branch.getEntrySuccessorRegions({trueAttr}, successors);
  ASSERT_EQ(successors.size(), 1u);
  EXPECT_EQ(successors[0].getSuccessor(), &ifOp.getThenRegion());
}

TEST_F(TfcDialectTest, BuildWhileLoop) {
  // while (i < 10) i = i + 1, built the way tfc::while_loop traces.
  auto i32 = tensor({}, builder.getI32Type());
  auto i1 = tensor({}, builder.getI1Type());
  auto intConst = [&](int32_t v) -> Value {
    return tfc::ConstantOp::create(builder, loc, i32,
                                   DenseElementsAttr::get(i32, v));
  };
  Value init = intConst(0), limit = intConst(10), one = intConst(1);
  auto loop =
      tfc::WhileOp::create(builder, loc, TypeRange{i32}, ValueRange{init});
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *before = builder.createBlock(&loop.getBefore(), {}, {i32}, {loc});
    Value cond = tfc::CmpOp::create(builder, loc, tfc::CmpPredicate::lt,
                                    before->getArgument(0), limit);
    EXPECT_EQ(cond.getType(), i1);
    tfc::ConditionOp::create(builder, loc, cond,
                             ValueRange{before->getArgument(0)});
    Block *after = builder.createBlock(&loop.getAfter(), {}, {i32}, {loc});
    Value next = tfc::AddOp::create(builder, loc, after->getArgument(0), one);
    tfc::YieldOp::create(builder, loc, ValueRange{next});
  }
  EXPECT_EQ(verifyMessages(loop), "");
  EXPECT_TRUE(loop.getConditionOp());
  EXPECT_TRUE(loop.getYieldOp());

  // Entering goes to `before`; `before` goes to `after` or out.
  auto branch = cast<RegionBranchOpInterface>(loop.getOperation());
  SmallVector<RegionSuccessor> successors;
  branch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
  ASSERT_EQ(successors.size(), 1u);
  EXPECT_EQ(successors[0].getSuccessor(), &loop.getBefore());
  successors.clear();
  branch.getSuccessorRegions(
      RegionBranchPoint(cast<RegionBranchTerminatorOpInterface>(
          loop.getConditionOp().getOperation())),
      successors);
  ASSERT_EQ(successors.size(), 2u);
  EXPECT_EQ(successors[0].getSuccessor(), &loop.getAfter());
  EXPECT_TRUE(successors[1].isParent());

  // The custom form round-trips through the parser.
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  OwningOpRef<ModuleOp> reparsed =
      parseSourceString<ModuleOp>(printed, &context);
  ASSERT_TRUE(reparsed) << printed << messages;
  EXPECT_NE(printed.find("tfc.while ("), std::string::npos) << printed;
}

TEST_F(TfcDialectTest, WhileYieldMismatchMessage) {
  auto i32 = tensor({}, builder.getI32Type());
  Value init = tfc::ConstantOp::create(builder, loc, i32,
                                       DenseElementsAttr::get(i32, 0));
  Value f = splat(tensor({}), 1.f);
  auto loop =
      tfc::WhileOp::create(builder, loc, TypeRange{i32}, ValueRange{init});
  {
    OpBuilder::InsertionGuard guard(builder);
    Block *before = builder.createBlock(&loop.getBefore(), {}, {i32}, {loc});
    tfc::ConditionOp::create(builder, loc, predicate(true),
                             ValueRange{before->getArgument(0)});
    builder.createBlock(&loop.getAfter(), {}, {i32}, {loc});
    tfc::YieldOp::create(builder, loc, ValueRange{f});
  }
  std::string text = verifyMessages(loop);
  EXPECT_NE(text.find("'tfc.while' op tfc.yield value #0 has type "
                      "'tensor<f32>' but before region argument #0 has type "
                      "'tensor<i32>'"),
            std::string::npos)
      << text;
}

TEST_F(TfcDialectTest, VariableOpsHaveMemoryEffects) {
  auto valueType = tensor({2});
  auto varType = tfc::VarType::get(&context, valueType);
  auto func = func::FuncOp::create(builder, loc, "f",
                                   builder.getFunctionType({varType}, {}));
  builder.setInsertionPointToStart(func.addEntryBlock());
  Value var = func.getArgument(0);
  auto read = tfc::VarReadOp::create(builder, loc, var);
  EXPECT_EQ(read.getType(), valueType);
  auto assign = tfc::VarAssignOp::create(builder, loc, var, read);
  auto print = tfc::PrintOp::create(builder, loc, "x", ValueRange{read});

  auto readEffects = cast<MemoryEffectOpInterface>(read.getOperation());
  EXPECT_TRUE(readEffects.hasEffect<MemoryEffects::Read>());
  EXPECT_FALSE(readEffects.hasEffect<MemoryEffects::Write>());
  SmallVector<MemoryEffects::EffectInstance> effects;
  cast<MemoryEffectOpInterface>(assign.getOperation()).getEffects(effects);
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_TRUE(isa<MemoryEffects::Write>(effects[0].getEffect()));
  EXPECT_EQ(effects[0].getResource(), tfc::VariableResource::get());
  EXPECT_EQ(effects[0].getValue(), var);
  EXPECT_FALSE(isOpTriviallyDead(print));
  EXPECT_TRUE(isPure(tfc::ExpOp::create(builder, loc, read)));
}

TEST_F(TfcDialectTest, VarTypeRejectsUnsupportedElements) {
  messages.clear();
  auto bad = tfc::VarType::getChecked([&] { return emitError(loc); }, &context,
                                      tensor({2}, builder.getIntegerType(8)));
  EXPECT_FALSE(bad);
  EXPECT_NE(messages.find("expected a tensor of i1, i32, i64, f32 or f64"),
            std::string::npos)
      << messages;
}
} // namespace
