//===- DialectTest.cpp - Building and verifying tfc IR in C++ ------------===//
#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/InitAllDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace mlir;

namespace {
/// Owns an MLIRContext with every tfc dialect loaded and collects diagnostics.
class TfcDialectTest : public ::testing::Test {
protected:
  TfcDialectTest() {
    DialectRegistry registry;
    tfc::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    handler.emplace(&context, [this](Diagnostic &diag) {
      messages += diag.str();
      messages += "\n";
      return success();
    });
  }
  /// Verifies `op` and returns the diagnostics it produced.
  std::string verifyMessages(Operation *op) {
    messages.clear();
    (void)verify(op);
    return messages;
  }

  MLIRContext context;
  std::optional<ScopedDiagnosticHandler> handler;
  std::string messages;
};

TEST_F(TfcDialectTest, BuildAddAndFoldZero) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  auto module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module.getBody());
  auto type = RankedTensorType::get({2}, b.getF32Type());
  auto x = tfc::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, ArrayRef<float>{1.f, 2.f}));
  auto zero = tfc::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, ArrayRef<float>{0.f, 0.f}));
  auto add = tfc::AddOp::create(b, loc, x, zero);
  EXPECT_TRUE(succeeded(verify(module)));
  SmallVector<OpFoldResult> folded;
  ASSERT_TRUE(succeeded(add->fold(folded)));
  ASSERT_EQ(folded.size(), 1u);
  EXPECT_EQ(dyn_cast<Value>(folded[0]), x.getResult());
  module->erase();
}

TEST_F(TfcDialectTest, ParseRejectsMismatchedTypes) {
  const char *text = R"mlir(
    func.func @f(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
      %0 = "tfc.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32>
    })mlir";
  messages.clear();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &context);
  EXPECT_FALSE(module);
  EXPECT_NE(messages.find("tfc.add"), std::string::npos) << messages;
  EXPECT_NE(messages.find("same type"), std::string::npos) << messages;
}
} // namespace
