//===- FunctionTest.cpp - tfc::function: tracing, caching, variables ------===//
//
// The behaviours TensorFlow documents for tf.function, in C++.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <sstream>

using namespace tfc;

namespace {

TEST(Function, MatmulPlusVariable) {
  // tf.function docs: f() = matmul([[10,10],[11,1]], [[1,0],[0,1]]) + b.
  Variable b(constant(12.f));
  auto f = function([&]() {
    Tensor x = constant({{10.f, 10.f}, {11.f, 1.f}});
    Tensor y = constant({{1.f, 0.f}, {0.f, 1.f}});
    return matmul(x, y) + Tensor(b);
  });
  Tensor r = f();
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{22, 22, 23, 13}));
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_NE(f.ir("tfc").find("tfc.var_read"), std::string::npos) << f.ir("tfc");
}

TEST(Function, AssignAddCommitsAfterEachCall) {
  Variable x(constant(0));
  auto add_one = function([](Variable v) {
    v.assign_add(1);
    return v.value();
  });
  EXPECT_EQ(add_one(x).item<int32_t>(), 1);
  EXPECT_EQ(add_one(x).item<int32_t>(), 2);
  EXPECT_EQ(add_one(x).item<int32_t>(), 3);
  EXPECT_EQ(x.value().item<int32_t>(), 3);
  EXPECT_EQ(add_one.tracing_count(), 1);
  // A different variable is a different signature.
  Variable y(constant(10));
  EXPECT_EQ(add_one(y).item<int32_t>(), 11);
  EXPECT_EQ(add_one.tracing_count(), 2);
  EXPECT_EQ(x.value().item<int32_t>(), 3);
}

struct CreatesOnFirstCall {
  std::optional<Variable> v;
  Tensor operator()(const Tensor &x) {
    if (!v)
      v.emplace(constant(2.f));
    return x * v->value();
  }
};

TEST(Function, VariableCreatedOnFirstTraceOnly) {
  auto f = function(CreatesOnFirstCall{});
  EXPECT_EQ(f(constant(3.f)).item<float>(), 6.f);
  // A new shape retraces; the variable already exists: fine.
  EXPECT_EQ(f(constant({1.f, 2.f})).to_vector<float>(),
            (std::vector<float>{2.f, 4.f}));
  EXPECT_EQ(f.tracing_count(), 2);
}

TEST(Function, VariableCreatedOnEveryCallThrowsOnSecondTrace) {
  auto f = function([](const Tensor &x) {
    Variable v(constant(1.f));
    return x + v.value();
  });
  EXPECT_EQ(f(constant(1.f)).item<float>(), 2.f);
  try {
    f(constant({1.f, 2.f}));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "tried to create variables on non-first call"),
              std::string::npos)
        << e.what();
  }
}

TEST(Function, PrintRunsEveryCallCoutOnlyWhileTracing) {
  std::string printed;
  set_print_sink([&](std::string_view s) { printed += std::string(s) + "\n"; });
  std::ostringstream traced;
  auto f = function([&](const Tensor &x) {
    Tensor y = x * 2;
    traced << y << "\n"; // C++ side effect: trace time only
    tfc::print("y:", y); // run-time print: every call
    return y;
  });
  f(constant(1));
  f(constant(2));
  f(constant(3));
  set_print_sink(nullptr);
  EXPECT_EQ(printed, "y: 2\ny: 4\ny: 6\n");
  EXPECT_EQ(traced.str(),
            "tfc.Tensor(<traced tfc.mul>, shape=(), dtype=int32)\n");
  EXPECT_EQ(f.tracing_count(), 1);
}

TEST(Function, RetracesOnNewShapeNotOnSameShape) {
  auto f = function([](const Tensor &x) { return reduce_sum(x * x); });
  EXPECT_EQ(f(constant({1.f, 2.f})).item<float>(), 5.f);
  EXPECT_EQ(f(constant({3.f, 4.f})).item<float>(), 25.f);
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(f(constant({1.f, 2.f, 3.f})).item<float>(), 14.f);
  EXPECT_EQ(f.tracing_count(), 2);
  EXPECT_EQ(f(constant({{1.f}})).item<float>(), 1.f);
  EXPECT_EQ(f.tracing_count(), 3);
}

TEST(Function, ScalarArgumentsAreTraceTimeConstants) {
  auto f = function([](const Tensor &x, int k) { return x * k; });
  EXPECT_EQ(f(constant(2), 3).item<int32_t>(), 6);
  EXPECT_EQ(f(constant(2), 3).item<int32_t>(), 6);
  EXPECT_EQ(f.tracing_count(), 1);
  EXPECT_EQ(f(constant(2), 5).item<int32_t>(), 10);
  EXPECT_EQ(f.tracing_count(), 2);
}

TEST(Function, CollatzWithWhileLoopAndCond) {
  auto collatz = function([](const Tensor &n0) {
    auto out =
        while_loop([](const std::vector<Tensor> &v) { return v[0] != 1; },
                   [](const std::vector<Tensor> &v) {
                     Tensor n = v[0];
                     Tensor next = cond(
                         n % 2 == 0, [&] { return floor_div(n, 2); },
                         [&] { return 3 * n + 1; });
                     return std::vector<Tensor>{next, v[1] + 1};
                   },
                   {n0, constant(0)});
    return out[1];
  });
  EXPECT_EQ(collatz(constant(27)).item<int32_t>(), 111);
  EXPECT_EQ(collatz(constant(6)).item<int32_t>(), 8);
  EXPECT_EQ(collatz.tracing_count(), 1);
  std::string ir = collatz.ir("tfc");
  EXPECT_NE(ir.find("tfc.while"), std::string::npos);
  EXPECT_NE(ir.find("tfc.if"), std::string::npos);
}

TEST(Function, NestedControlFlow) {
  // while (i < 3) { if (i % 2 == 0) { j = 0; while (j < i + 1) j++; acc += j }
  // ; i++ }
  auto f = function([](const Tensor &limit) {
    auto out = while_loop(
        [&](const std::vector<Tensor> &v) { return v[0] < limit; },
        [](const std::vector<Tensor> &v) {
          Tensor i = v[0], acc = v[1];
          Tensor add = cond(
              i % 2 == 0,
              [&] {
                auto inner = while_loop(
                    [&](const std::vector<Tensor> &w) { return w[0] < i + 1; },
                    [](const std::vector<Tensor> &w) {
                      return std::vector<Tensor>{w[0] + 1};
                    },
                    {constant(0)});
                return inner[0];
              },
              [] { return constant(0); });
          return std::vector<Tensor>{i + 1, acc + add};
        },
        {constant(0), constant(0)});
    return out[1];
  });
  // i = 0 -> 1, i = 2 -> 3, i = 4 -> 5: 9
  EXPECT_EQ(f(constant(5)).item<int32_t>(), 9);
}

TEST(Function, FailedAssertLeavesVariablesUnchanged) {
  Variable v(constant(5));
  auto f = function([](Variable var, const Tensor &delta) {
    var.assign_add(delta);
    assert_true(var.value() >= 0, "v must stay non-negative");
    return var.value();
  });
  EXPECT_EQ(f(v, constant(1)).item<int32_t>(), 6);
  try {
    f(v, constant(-100));
    FAIL() << "expected RuntimeError";
  } catch (const RuntimeError &e) {
    EXPECT_NE(std::string(e.what()).find("v must stay non-negative"),
              std::string::npos);
  }
  EXPECT_EQ(v.value().item<int32_t>(), 6);
}

TEST(Function, LoopVariableShapeChangeThrows) {
  auto f = function([](const Tensor &x) {
    return while_loop(
        [](const std::vector<Tensor> &v) { return reduce_sum(v[0]) < 10.f; },
        [](const std::vector<Tensor> &v) {
          return std::vector<Tensor>{concat({v[0], v[0]}, 0)};
        },
        {x})[0];
  });
  try {
    f(constant({1.f}));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "loop variable 0 has shape (1) before the loop, but shape "
                  "(2) after one iteration"),
              std::string::npos)
        << e.what();
  }
  // The failed trace left nothing behind: a good call still works.
  auto g = function([](const Tensor &x) { return x + 1.f; });
  EXPECT_EQ(g(constant(1.f)).item<float>(), 2.f);
}

TEST(Function, BranchesWithDifferentTypesThrow) {
  auto f = function([](const Tensor &x) {
    return cond(
        x > 0.f, [&] { return x; }, [&] { return cast(x, DType::Int32); });
  });
  try {
    f(constant(1.f));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("cond:"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("float32"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("int32"), std::string::npos);
  }
}

TEST(Function, BadOpWhileTracingNamesOpAndLine) {
  auto f =
      function([](const Tensor &a, const Tensor &b) { return matmul(a, b); });
  try {
    f(ones({2, 3}), ones({2, 3}));
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("matmul"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(2, 3)"), std::string::npos) << msg;
    EXPECT_NE(msg.find("FunctionTest.cpp"), std::string::npos) << msg;
  }
}

TEST(Function, BroadcastingIsExplicitInTheIR) {
  auto f = function([](const Tensor &x, const Tensor &row) { return x + row; });
  Tensor r = f(ones({2, 3}), constant({1.f, 2.f, 3.f}));
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{2, 3, 4, 2, 3, 4}));
  EXPECT_NE(f.ir("tfc").find("tfc.broadcast_to"), std::string::npos);
  EXPECT_NE(f.ir("llvm").find("define"), std::string::npos);
}

TEST(Function, ReturnsTupleAndVector) {
  auto f = function([](const Tensor &x) {
    return std::pair<Tensor, Tensor>{x + 1, x * 2};
  });
  auto [a, b] = f(constant(3));
  EXPECT_EQ(a.item<int32_t>(), 4);
  EXPECT_EQ(b.item<int32_t>(), 6);
  auto g = function([](const Tensor &x) {
    return std::vector<Tensor>{x, -x, x * x};
  });
  auto v = g(constant(2.0));
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[2].item<double>(), 4.0);
}

} // namespace
