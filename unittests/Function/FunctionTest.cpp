//===- FunctionTest.cpp - tfc::function: tracing, caching, variables ------===//
//
// The behaviours TensorFlow documents for tf.function, in C++.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include "TestCacheDir.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

using namespace tfc;

namespace {

TFC_TEST_PRIVATE_CACHE_DIR("tfc-function-tests");

float maxAbsDiff(const Tensor &a, const Tensor &b) {
  EXPECT_EQ(a.shape(), b.shape());
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  float d = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    d = std::max(d, std::fabs(x[i] - y[i]));
  return d;
}

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

//===----------------------------------------------------------------------===//
// The call path
//===----------------------------------------------------------------------===//

TEST(Function, ManyArgumentsAndResultsBeyondInlineBuffers) {
  // 20 tensor arguments and 10 results: more than the inline buffers hold.
  auto g = function([](Tensor a, Tensor b, Tensor c, Tensor d, Tensor e,
                       Tensor f2, Tensor g2, Tensor h, Tensor i, Tensor j,
                       Tensor k, Tensor l, Tensor m, Tensor n, Tensor o,
                       Tensor p, Tensor q, Tensor r, Tensor s2, Tensor t) {
    std::vector<Tensor> out;
    std::vector<Tensor> in{a, b, c, d, e, f2, g2, h, i,  j,
                           k, l, m, n, o, p,  q,  r, s2, t};
    for (size_t x = 0; x < 10; ++x)
      out.push_back(in[x] + in[x + 10]);
    return out;
  });
  std::vector<Tensor> v;
  for (int x = 0; x < 20; ++x)
    v.push_back(full({2, 3}, double(x)));
  for (int rep = 0; rep < 2; ++rep) {
    std::vector<Tensor> out =
        g(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10],
          v[11], v[12], v[13], v[14], v[15], v[16], v[17], v[18], v[19]);
    ASSERT_EQ(out.size(), 10u);
    for (int x = 0; x < 10; ++x)
      EXPECT_EQ(out[x].to_vector<float>(),
                std::vector<float>(6, float(x + x + 10)));
  }
  EXPECT_EQ(g.tracing_count(), 1);
}

TEST(Function, SignatureKeySeparatesScalarsVariablesAndShapes) {
  auto f = function([](const Tensor &x, int k) { return x * float(k); });
  EXPECT_EQ(f(ones({2}), 2).to_vector<float>(), (std::vector<float>{2, 2}));
  EXPECT_EQ(f(ones({2}), 3).to_vector<float>(), (std::vector<float>{3, 3}));
  EXPECT_EQ(f(ones({2}), 2).to_vector<float>(), (std::vector<float>{2, 2}));
  EXPECT_EQ(f(ones({3}), 2).to_vector<float>(), (std::vector<float>{2, 2, 2}));
  EXPECT_EQ(f(ones({2, 1}), 2).shape(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(f.tracing_count(), 4);
  Variable a(constant(1.f)), b(constant(5.f));
  auto g = function([](Variable v) { return Tensor(v) + 1.f; });
  EXPECT_EQ(g(a).item<float>(), 2.f);
  EXPECT_EQ(g(b).item<float>(), 6.f);
  EXPECT_EQ(g(a).item<float>(), 2.f);
  EXPECT_EQ(g.tracing_count(), 2);
}

TEST(Function, SymbolicTensorKeptFromATraceIsRejected) {
  Tensor leaked;
  auto f = function([&](const Tensor &x) {
    leaked = x * 2.f;
    return x + 1.f;
  });
  f(ones({2}));
  ASSERT_TRUE(leaked.is_symbolic());
  auto g = function([](const Tensor &x) { return x + 1.f; });
  g(ones({2}));
  EXPECT_THROW(g(leaked), InvalidArgumentError);
}

//===----------------------------------------------------------------------===//
// reduce_retracing
//===----------------------------------------------------------------------===//

/// A small dense network without a bias: matmul, elementwise, a reduction
/// and a softmax over the features.
std::pair<Tensor, Tensor> denseNoBias(const Tensor &x, const Tensor &w) {
  Tensor h = matmul(x, w);
  Tensor y = tanh(h) * sigmoid(h) - x;
  return {softmax(y, 1), reduce_sum(y, {1})};
}

TEST(Function, ReduceRetracingTwentyBatchSizesTraceAtMostThrice) {
  Tensor w = random_uniform({8, 8}, -0.5, 0.5, 7);
  FunctionOptions options;
  options.reduce_retracing = true;
  auto f = function(denseNoBias, options);
  for (int64_t batch : {1, 2, 3, 5, 8,  13, 21, 34,  55, 89,
                        4, 6, 7, 9, 10, 11, 12, 100, 64, 1}) {
    Tensor x = random_uniform({batch, 8}, -1, 1, uint64_t(batch));
    auto [p, s] = f(x, w);
    auto [pe, se] = denseNoBias(x, w);
    EXPECT_LT(maxAbsDiff(p, pe), 1e-5f) << "batch " << batch;
    EXPECT_LT(maxAbsDiff(s, se), 1e-5f) << "batch " << batch;
  }
  EXPECT_LE(f.tracing_count(), 3);
  EXPECT_EQ(f.tracing_count(), 2);
  // The latest trace has a dynamic batch dim.
  EXPECT_NE(f.ir("tfc").find("tensor<?x8xf32>"), std::string::npos)
      << f.ir("tfc");
  // A new dtype or rank is a new family: traced statically again.
  auto [p3, s3] = f(random_uniform({4, 8}, -1, 1, 3, DType::Float64),
                    cast(w, DType::Float64));
  EXPECT_EQ(p3.dtype(), DType::Float64);
  EXPECT_EQ(f.tracing_count(), 3);
}

TEST(Function, ReduceRetracingGeneralisesAgainForANewDim) {
  FunctionOptions options;
  options.reduce_retracing = true;
  auto f =
      function([](const Tensor &x) { return reduce_sum(x * x, {1}); }, options);
  auto check = [&](int64_t rows, int64_t cols) {
    Tensor x = random_uniform({rows, cols}, -1, 1, uint64_t(rows * cols));
    EXPECT_LT(maxAbsDiff(f(x), reduce_sum(x * x, {1})), 1e-5f);
  };
  check(2, 3);
  check(4, 3); // rows dynamic
  check(7, 3);
  EXPECT_EQ(f.tracing_count(), 2);
  check(5, 6); // cols differ too: both dynamic
  check(9, 8);
  EXPECT_EQ(f.tracing_count(), 3);
  EXPECT_NE(f.ir("tfc").find("tensor<?x?xf32>"), std::string::npos);
  // A dim of 1 may broadcast, which the dynamic trace does not express:
  // such a call traces with its own shapes.
  check(9, 1);
  check(1, 11);
  EXPECT_EQ(f.tracing_count(), 5);
}

TEST(Function, ReduceRetracingBroadcastsABiasIntoTheDynamicBatch) {
  // A bias (rank 1, or 1 x n) broadcast into the dynamic batch dim is
  // broadcast `like` the matmul's result: one dynamic-shape trace serves
  // every batch (but 1, which may broadcast, see fits() in Tracing.cpp).
  FunctionOptions options;
  options.reduce_retracing = true;
  Tensor w = random_uniform({8, 4}, -0.5, 0.5, 1);
  for (Tensor b :
       {random_uniform({4}, -1, 1, 2), random_uniform({1, 4}, -1, 1, 3)}) {
    auto dense = [](const Tensor &x, const Tensor &w, const Tensor &b) {
      return relu(matmul(x, w) + b) * 2.f;
    };
    auto f = function(dense, options);
    for (int64_t batch : {2, 3, 5, 7, 64}) {
      Tensor x = random_uniform({batch, 8}, -1, 1, uint64_t(batch));
      Tensor r = f(x, w, b);
      EXPECT_EQ(r.shape(), (std::vector<int64_t>{batch, 4}));
      EXPECT_LT(maxAbsDiff(r, dense(x, w, b)), 1e-5f) << "batch " << batch;
    }
    EXPECT_EQ(f.tracing_count(), 2);
    EXPECT_NE(f.ir("tfc").find(" like %"), std::string::npos) << f.ir("tfc");
  }
}

TEST(Function, ReduceRetracingFallsBackWhenNoOperandSizesABroadcast) {
  // where(c [n, 1], a [1, m], b []): b's broadcast needs n from c and m from
  // a; one broadcast takes its sizes from one operand, so the dynamic-shape
  // trace is dropped and each shape traces on its own, with right results.
  FunctionOptions options;
  options.reduce_retracing = true;
  auto pick = [](const Tensor &c, const Tensor &a, const Tensor &b) {
    return where(c > 0.f, a, b);
  };
  auto f = function(pick, options);
  for (int64_t n : {2, 3, 4}) {
    Tensor c = random_uniform({n, 1}, -1, 1, uint64_t(n));
    Tensor a = random_uniform({1, n + 1}, -1, 1, uint64_t(n + 10));
    Tensor b = constant(7.f);
    Tensor r = f(c, a, b);
    EXPECT_EQ(r.shape(), (std::vector<int64_t>{n, n + 1}));
    EXPECT_LT(maxAbsDiff(r, pick(c, a, b)), 1e-6f) << "n " << n;
  }
  EXPECT_EQ(f.tracing_count(), 3);
}

TEST(Function, ReduceRetracingOffTracesPerShape) {
  auto f = function([](const Tensor &x) { return x + x; });
  for (int64_t n = 1; n <= 5; ++n)
    f(ones({n}));
  EXPECT_EQ(f.tracing_count(), 5);
}

} // namespace

namespace {

/// Integer-valued floats small enough that every product sum is exact.
std::vector<float> smallInts(int64_t n, int seed) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[i] = float((i * 7 + seed) % 11 - 5);
  return v;
}

/// Row-major (m x k) times (k x n), exact in double.
std::vector<float> naiveProduct(const std::vector<float> &a,
                                const std::vector<float> &b, int64_t m,
                                int64_t k, int64_t n) {
  std::vector<float> c(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        s += double(a[i * k + kk]) * double(b[kk * n + j]);
      c[i * n + j] = float(s);
    }
  return c;
}

// Float32 GEMMs from 2^21 multiply-adds run on oneDNN's sgemm where tfc is
// built with it, smaller ones on OpenBLAS (runtime/lib/Blas.h), eager and
// compiled alike, operands transposed (as BLAS flags) or not. Every sum is
// exact here, so each product must equal the naive one bit for bit, on one
// thread and on two; and an output buffer recycled from a tensor of NaNs
// must not leak into the result (beta = 0 overwrites C).
TEST(Function, GemmsOnEitherLibraryAreExact) {
  const int saved = kernels::num_threads();
  for (int threads : {1, 2}) {
    kernels::set_num_threads(threads);
    for (auto [m, k, n] : {std::array<int64_t, 3>{128, 784, 256},
                           std::array<int64_t, 3>{64, 128, 256},
                           std::array<int64_t, 3>{8, 16, 8}}) {
      SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" +
                   std::to_string(n) + ", " + std::to_string(threads) +
                   " threads");
      std::vector<float> av = smallInts(m * k, 1), bv = smallInts(k * n, 4);
      std::vector<float> want = naiveProduct(av, bv, m, k, n);
      Tensor a = from_vector(av, {m, k}), b = from_vector(bv, {k, n});
      {
        Tensor garbage = full({m, n}, std::nan(""));
        (void)garbage.to_vector<float>();
      }
      EXPECT_EQ(matmul(a, b).to_vector<float>(), want) << "eager";
      // The transposes are BLAS flags in the compiled GEMM calls.
      Tensor at = transpose(a, {1, 0}), bt = transpose(b, {1, 0});
      auto f = tfc::function([](const Tensor &a, const Tensor &b,
                                const Tensor &at, const Tensor &bt) {
        return std::vector<Tensor>{
            matmul(a, b), matmul(transpose(at, {1, 0}), b),
            matmul(a, transpose(bt, {1, 0})),
            matmul(transpose(at, {1, 0}), transpose(bt, {1, 0}))};
      });
      std::vector<Tensor> got = f(a, b, at, bt);
      ASSERT_EQ(got.size(), 4u);
      for (size_t i = 0; i < got.size(); ++i)
        EXPECT_EQ(got[i].to_vector<float>(), want) << "compiled product " << i;
    }
  }
  kernels::set_num_threads(saved);
}

} // namespace

namespace {

// flush_denormals: inside the call a subnormal result is 0 and a subnormal
// operand reads as 0, on every OpenMP worker of a parallel loop; eager ops
// and the caller's own arithmetic keep subnormals (the mode is restored).
TEST(Function, FlushDenormalsFlushesInsideTheCallOnly) {
  const int saved = kernels::num_threads();
  const int64_t n = int64_t(1) << 18; // a parallel loop on two threads
  Tensor x = full({n}, 1e-20);        // x * x = 1e-40: subnormal
  Tensor sub = full({n}, 1e-40);      // a subnormal operand
  auto body = [](const Tensor &x, const Tensor &s) {
    return std::vector<Tensor>{x * x, s * 2.0f};
  };
  auto plain = tfc::function(body);
  auto flushing = tfc::function(body, FunctionOptions{.flush_denormals = true});
  for (int threads : {1, 2}) {
    kernels::set_num_threads(threads);
    std::vector<Tensor> kept = plain(x, sub), flushed = flushing(x, sub);
    for (float v : kept[0].to_vector<float>())
      ASSERT_EQ(std::fpclassify(v), FP_SUBNORMAL) << threads << " threads";
    for (float v : kept[1].to_vector<float>())
      ASSERT_EQ(std::fpclassify(v), FP_SUBNORMAL) << threads << " threads";
    for (float v : flushed[0].to_vector<float>())
      ASSERT_EQ(v, 0.0f) << "FTZ, " << threads << " threads";
    for (float v : flushed[1].to_vector<float>())
      ASSERT_EQ(v, 0.0f) << "DAZ, " << threads << " threads";
    volatile float a = 1e-20f;
    EXPECT_EQ(std::fpclassify(a * a), FP_SUBNORMAL) << "caller's mode";
    EXPECT_EQ(std::fpclassify((constant(1e-20f) * 1e-20f).item<float>()),
              FP_SUBNORMAL)
        << "eager";
  }
  kernels::set_num_threads(saved);
}

} // namespace
