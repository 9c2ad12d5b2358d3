//===- OpTableTest.cpp - The runtime's op table and the ODS op set agree --===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// Every runtime op (OpKind) is a registered tfc op of the same mnemonic, and
// every registered tfc op either has a runtime op or is one of the dialect's
// structural ops (constants, control flow, variables, checks, stacks,
// gradients, fusion) listed here. A new ODS op without a kernel, or a kernel
// without an ODS op, fails this test until it is placed deliberately.
//
//===----------------------------------------------------------------------===//

#include "tfc/Bridge/OpDecoding.h"
#include "tfc/InitAllDialects.h"
#include "tfc/runtime/Ops.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

/// tfc ops that are not kernels: the interpreter, the lowering and autodiff
/// handle them structurally.
const std::set<std::string> kStructuralOps = {
    "tfc.constant",        "tfc.if",
    "tfc.while",           "tfc.yield",
    "tfc.condition",       "tfc.fusion",
    "tfc.var_read",        "tfc.var_assign",
    "tfc.var_assign_add",  "tfc.var_assign_sub",
    "tfc.print",           "tfc.assert",
    "tfc.check",           "tfc.check_elements",
    "tfc.stack_new",       "tfc.stack_push",
    "tfc.stack_pop",       "tfc.stack_size",
    "tfc.stack_free",      "tfc.grad",
    "tfc.custom_gradient", "tfc.custom_yield"};

std::set<std::string> registeredTfcOps(mlir::MLIRContext &ctx) {
  std::set<std::string> ops;
  for (mlir::RegisteredOperationName name : ctx.getRegisteredOperations())
    if (name.getDialectNamespace() == "tfc")
      ops.insert(name.getStringRef().str());
  return ops;
}

TEST(OpTable, EveryRuntimeOpIsARegisteredTfcOp) {
  mlir::DialectRegistry registry;
  mlir::tfc::registerAllDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::set<std::string> ods = registeredTfcOps(ctx);
  int kinds = 0;
#define TFC_CHECK_OP(e, name)                                                  \
  ++kinds;                                                                     \
  EXPECT_TRUE(ods.count("tfc." #name))                                         \
      << "OpKind::" #e " has no ODS op tfc." #name;                            \
  EXPECT_EQ(tfc::op_name(tfc::OpKind::e), #name);                              \
  EXPECT_EQ(tfc::op_kind_from_name(#name), tfc::OpKind::e);
  TFC_FOR_EACH_OP(TFC_CHECK_OP)
#undef TFC_CHECK_OP
  EXPECT_GT(kinds, 40);
}

TEST(OpTable, EveryRegisteredTfcOpIsAKernelOrStructural) {
  mlir::DialectRegistry registry;
  mlir::tfc::registerAllDialects(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  std::set<std::string> ods = registeredTfcOps(ctx);
  ASSERT_FALSE(ods.empty());
  for (const std::string &name : ods) {
    bool kernel = tfc::op_kind_from_name(name.substr(4)).has_value();
    bool structural = kStructuralOps.count(name) != 0;
    EXPECT_TRUE(kernel != structural)
        << name
        << (kernel ? " has a runtime op but is also listed as structural"
                   : " has neither a runtime op (TFC_FOR_EACH_OP in "
                     "runtime/include/tfc/runtime/Ops.h) nor a place in "
                     "kStructuralOps");
  }
  for (const std::string &name : kStructuralOps)
    EXPECT_TRUE(ods.count(name)) << name << " is listed but not registered";
}

} // namespace
