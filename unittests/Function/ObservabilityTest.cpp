//===- ObservabilityTest.cpp - names, retrace log, warning, timing, dumps -===//
//
// What tfc::function tells the user about its traces: the IR names derived
// from the callable, TFC_LOG=retrace, the too-many-traces warning,
// TFC_TIMING and TFC_DUMP_DIR (docs/environment.md).
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

using namespace tfc;

// Exported (the binary is linked with ENABLE_EXPORTS), so the function
// pointer is named through the dynamic symbol table.
Tensor observability_double_it(const Tensor &x) { return x + x; }

namespace app {
struct Model {
  Tensor operator()(const Tensor &x) const { return x * x; }
};
template <int N> struct Scale {
  Tensor operator()(const Tensor &x) const { return x * float(N); }
};
} // namespace app

namespace {

// Not in the dynamic symbol table: no readable name can be found.
Tensor hiddenDouble(const Tensor &x) { return x + x; }

// Readable name "cbrt", which libm defines: the derived name must not
// shadow it inside the compiled module.
struct cbrt {
  Tensor operator()(const Tensor &x) const { return x - x; }
};

/// Sets (or, with nullopt, unsets) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, std::optional<std::string> value) : name(name) {
    if (const char *old = std::getenv(name))
      saved = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (saved)
      setenv(name, saved->c_str(), 1);
    else
      unsetenv(name);
  }

private:
  const char *name;
  std::optional<std::string> saved;
};

/// The stderr written while `body` runs.
template <class Body> std::string stderrOf(Body body) {
  testing::internal::CaptureStderr();
  body();
  return testing::internal::GetCapturedStderr();
}

std::string funcName(const std::string &ir) {
  std::smatch m;
  if (std::regex_search(ir, m, std::regex("func\\.func @([A-Za-z0-9_$.]+)\\(")))
    return m[1];
  return "<no func.func in IR>\n" + ir;
}

FunctionOptions named(const char *name) {
  FunctionOptions options;
  options.name = name;
  return options;
}

int countOf(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1))
    ++n;
  return n;
}

// --- Names -----------------------------------------------------------------

TEST(FunctionNames, Lambdas) {
  auto first = function([](const Tensor &x) { return x + x; });
  auto second = function([](const Tensor &x) { return x * x; });
  Tensor x = constant({1.f, 2.f});
  first(x);
  second(x);
  EXPECT_EQ(funcName(first.ir()),
            "FunctionNames_Lambdas_Test_TestBody_lambda1");
  EXPECT_EQ(funcName(second.ir()),
            "FunctionNames_Lambdas_Test_TestBody_lambda2");
}

TEST(FunctionNames, FunctorsFunctionPointersAndFallback) {
  Tensor x = constant({1.f, 2.f});
  auto model = function(app::Model{});
  auto scale = function(app::Scale<3>{});
  auto exported = function(&observability_double_it);
  auto hidden = function(&hiddenDouble);
  auto wrapped =
      function(std::function<Tensor(const Tensor &)>(&observability_double_it));
  EXPECT_EQ(model(x).to_vector<float>(), (std::vector<float>{1.f, 4.f}));
  EXPECT_EQ(scale(x).to_vector<float>(), (std::vector<float>{3.f, 6.f}));
  EXPECT_EQ(exported(x).to_vector<float>(), (std::vector<float>{2.f, 4.f}));
  EXPECT_EQ(hidden(x).to_vector<float>(), (std::vector<float>{2.f, 4.f}));
  EXPECT_EQ(wrapped(x).to_vector<float>(), (std::vector<float>{2.f, 4.f}));
  EXPECT_EQ(funcName(model.ir()), "app_Model");
  EXPECT_EQ(funcName(scale.ir()), "app_Scale"); // template arguments dropped
  EXPECT_EQ(funcName(exported.ir()), "observability_double_it");
  EXPECT_EQ(funcName(wrapped.ir()), "observability_double_it");
  EXPECT_TRUE(std::regex_match(funcName(hidden.ir()), std::regex("fn_[0-9]+")))
      << funcName(hidden.ir());
  // The same callable again: the same fallback name (so its compiles hit
  // the compile cache); another one: another name.
  auto hiddenAgain = function(&hiddenDouble);
  hiddenAgain(x);
  EXPECT_EQ(funcName(hiddenAgain.ir()), funcName(hidden.ir()));
  auto other = function(+[](const Tensor &t) { return t - t; });
  other(x);
  EXPECT_TRUE(std::regex_match(funcName(other.ir()), std::regex("fn_[0-9]+")))
      << funcName(other.ir());
  EXPECT_NE(funcName(other.ir()), funcName(hidden.ir()));
  // An explicit name wins.
  auto explicitName = function(app::Model{}, named("my_model"));
  explicitName(x);
  EXPECT_EQ(funcName(explicitName.ir()), "my_model");
}

TEST(FunctionNames, NamesThatWouldShadowACSymbolGetASuffix) {
  auto f = function(cbrt{});
  Tensor x = constant({8.f, 27.f});
  EXPECT_EQ(f(x).to_vector<float>(), (std::vector<float>{0.f, 0.f}));
  EXPECT_EQ(funcName(f.ir()), "cbrt_fn");
}

// The class "FunctionNames_ErrorMessagesUseTheDerivedName_Test" would make
// the name longer than 64 characters: only the innermost parts are kept.
TEST(FunctionNames, ErrorMessagesUseTheDerivedName) {
  auto f = function([](const Tensor &x) {
    Variable v(constant(1.f));
    return x + Tensor(v);
  });
  f(constant({1.f}));
  try {
    f(constant({1.f, 2.f})); // a retrace creating a variable again
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find(
                  "tfc::function 'TestBody_lambda1' tried to create variables"),
              std::string::npos)
        << e.what();
  }
}

// --- TFC_LOG=retrace -----------------------------------------------------

TEST(RetraceLog, ShapeChange) {
  ScopedEnv env("TFC_LOG", "retrace");
  auto f = function([](const Tensor &x) { return x + x; }, named("step"));
  std::string err = stderrOf([&] {
    f(zeros({32, 784}));
    f(zeros({32, 784})); // cached: no line
    f(zeros({16, 784}));
  });
  EXPECT_EQ(err, "tfc: retracing 'step' (trace 2): argument 0 shape "
                 "(32, 784) -> (16, 784)\n");
}

TEST(RetraceLog, DtypeScalarAndVariable) {
  ScopedEnv env("TFC_LOG", "retrace");
  Variable a(constant({1.f, 2.f})), b(constant({3.f, 4.f}));
  auto f =
      function([](const Tensor &x, const Variable &v,
                  auto s) { return std::make_pair(x * s, Tensor(v) * 2.f); },
               named("mixed"));
  Tensor x32 = constant({1.f, 1.f});
  std::string err = stderrOf([&] {
    f(x32, a, 3);
    f(x32, a, 4);
    f(x32, b, 4);
    f(x32, b, 3.5);
  });
  std::string va = "#" + std::to_string(a.id()),
              vb = "#" + std::to_string(b.id());
  EXPECT_EQ(err, "tfc: retracing 'mixed' (trace 2): argument 2 value 3 -> 4\n"
                 "tfc: retracing 'mixed' (trace 3): argument 1 variable " +
                     va + " -> variable " + vb +
                     " (another tfc::Variable)\n"
                     "tfc: retracing 'mixed' (trace 4): argument 2 scalar "
                     "int32 4 -> float64 3.5\n");
  // A float64 tensor: compared with the closest earlier trace (trace 3
  // differs in the dtype only).
  err = stderrOf([&] { f(constant({1.0, 1.0}), b, 4); });
  EXPECT_EQ(err, "tfc: retracing 'mixed' (trace 5, closest to trace 3): "
                 "argument 0 dtype float32 -> float64\n");
}

TEST(RetraceLog, ReduceRetracingSaysWhichDimsBecomeDynamic) {
  ScopedEnv env("TFC_LOG", "retrace");
  FunctionOptions options = named("relaxed");
  options.reduce_retracing = true;
  auto f = function([](const Tensor &x) { return x + x; }, options);
  std::string err = stderrOf([&] {
    f(zeros({2, 3}));
    f(zeros({4, 3}));
    f(zeros({5, 3})); // served by the dynamic-shape function
  });
  EXPECT_EQ(err, "tfc: retracing 'relaxed' (trace 2): argument 0 shape "
                 "(2, 3) -> (4, 3); reduce_retracing: tracing once with "
                 "dynamic dims: argument 0 (?, 3)\n");
  EXPECT_EQ(f.tracing_count(), 2);
}

TEST(RetraceLog, OffByDefault) {
  ScopedEnv env("TFC_LOG", std::nullopt);
  auto f = function([](const Tensor &x) { return x + x; }, named("quiet"));
  std::string err = stderrOf([&] {
    f(zeros({2}));
    f(zeros({3}));
  });
  EXPECT_EQ(err, "");
  EXPECT_EQ(f.tracing_count(), 2);
}

TEST(RetraceLog, UnknownCategoryIsReportedNotFatal) {
  ScopedEnv env("TFC_LOG", "bogus,retrace");
  auto f = function([](const Tensor &x) { return x + x; }, named("b"));
  std::string err = stderrOf([&] {
    f(zeros({2}));
    f(zeros({3}));
  });
  // Reported once per process; the known category still applies.
  EXPECT_NE(err.find("tfc: retracing 'b' (trace 2)"), std::string::npos) << err;
  EXPECT_LE(countOf(err, "unknown category 'bogus'"), 1) << err;
}

// --- The too-many-traces warning -------------------------------------------

TEST(RetraceWarning, SixthTraceWarnsOnceThenAtTwelve) {
  ScopedEnv env("TFC_LOG", std::nullopt);
  auto f = function([](const Tensor &x) { return x + x; }, named("busy"));
  std::string upToFive = stderrOf([&] {
    for (int64_t n = 1; n <= 5; ++n)
      f(zeros({n}));
  });
  EXPECT_EQ(upToFive, "");
  std::string sixth = stderrOf([&] { f(zeros({6})); });
  EXPECT_EQ(countOf(sixth, "tfc: warning: tfc::function 'busy' is being "
                           "traced for the 6th time (argument 0 shape (5,) "
                           "-> (6,))"),
            1)
      << sixth;
  EXPECT_NE(sixth.find("reduce_retracing"), std::string::npos);
  EXPECT_NE(sixth.find("TFC_LOG=-warnings"), std::string::npos);
  std::string more = stderrOf([&] {
    for (int64_t n = 7; n <= 12; ++n)
      f(zeros({n}));
  });
  EXPECT_EQ(countOf(more, "tfc: warning:"), 1) << more;
  EXPECT_NE(more.find("for the 12th time"), std::string::npos) << more;
  EXPECT_EQ(f.tracing_count(), 12);
}

TEST(RetraceWarning, SilencedByTfcLog) {
  for (const char *setting : {"-warnings", "none"}) {
    ScopedEnv env("TFC_LOG", setting);
    auto f = function([](const Tensor &x) { return x + x; }, named("busy2"));
    std::string err = stderrOf([&] {
      for (int64_t n = 1; n <= 6; ++n)
        f(zeros({n}));
    });
    EXPECT_EQ(err, "") << "TFC_LOG=" << setting;
  }
}

// --- TFC_TIMING ------------------------------------------------------------

TEST(Timing, LinesNameTheFunctionAndIncludeTheTrace) {
  for (auto [var, value] :
       {std::pair{"TFC_TIMING", "1"}, std::pair{"TFC_LOG", "timing"}}) {
    ScopedEnv timing("TFC_TIMING", std::nullopt);
    ScopedEnv log("TFC_LOG", std::nullopt);
    ScopedEnv set(var, value);
    auto f = function([](const Tensor &x) { return x + x; }, named("timed"));
    std::string err = stderrOf([&] {
      f(zeros({2}));
      f(zeros({2})); // cached: no line
      f(zeros({3}));
    });
    std::regex line("tfc timing 'timed' trace ([12]) \\(ms, wall\\): trace "
                    "[0-9.]+ verify\\+print [0-9.]+ .*\\| total [0-9.]+\n");
    auto begin = std::sregex_iterator(err.begin(), err.end(), line);
    std::vector<std::string> traces;
    for (auto it = begin; it != std::sregex_iterator(); ++it)
      traces.push_back((*it)[1]);
    EXPECT_EQ(traces, (std::vector<std::string>{"1", "2"}))
        << var << "=" << value << "\n"
        << err;
    EXPECT_EQ(countOf(err, "\n"), 2) << err;
  }
}

TEST(Timing, OffUnlessAsked) {
  ScopedEnv timing("TFC_TIMING", std::nullopt);
  ScopedEnv log("TFC_LOG", std::nullopt);
  auto f = function([](const Tensor &x) { return x + x; }, named("untimed"));
  EXPECT_EQ(stderrOf([&] { f(zeros({2})); }), "");
}

// --- TFC_DUMP_DIR ------------------------------------------------------------

std::vector<std::string> filesIn(const std::filesystem::path &dir) {
  std::vector<std::string> names;
  for (const auto &e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class DumpDir : public ::testing::Test {
protected:
  void SetUp() override {
    char tmpl[] = "/tmp/tfc-dump-test-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::filesystem::path dir;
};

TEST_F(DumpDir, OneSetPerCompileWithSourceLocations) {
  ScopedEnv env("TFC_DUMP_DIR", dir.string());
  // add() records its caller's line; C++ operators cannot (no default
  // arguments), so their ops are loc(unknown).
  auto f = function([](const Tensor &x) { return add(x, x); }, named("dumped"));
  f(zeros({2}));
  f(zeros({3})); // a retrace writes a second set
  std::vector<std::string> files = filesIn(dir);
  ASSERT_EQ(files.size(), 8u);
  std::regex name("([0-9]{4})-dumped\\.([0-3])-(tfc|optimized|llvm-dialect|"
                  "llvm)\\.(mlir|ll)");
  std::set<std::string> numbers;
  for (const std::string &file : files) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(file, m, name)) << file;
    numbers.insert(m[1]);
  }
  EXPECT_EQ(numbers.size(), 2u);
  // The traced op carries this file's line; the lowered IR keeps it.
  std::string tfcDump =
      readFile(dir / (*numbers.begin() + "-dumped.0-tfc.mlir"));
  EXPECT_TRUE(std::regex_search(
      tfcDump, std::regex("tfc\\.add .* loc\\(\"[^\"]*ObservabilityTest\\.cpp\""
                          ":[0-9]+:[0-9]+\\)")))
      << tfcDump;
  std::string optimized =
      readFile(dir / (*numbers.begin() + "-dumped.1-optimized.mlir"));
  EXPECT_NE(optimized.find("ObservabilityTest.cpp"), std::string::npos)
      << optimized;
  // f.ir() stays without locations.
  EXPECT_EQ(f.ir().find("loc("), std::string::npos) << f.ir();
}

TEST_F(DumpDir, ConcurrentCompilesDoNotClobber) {
  ScopedEnv env("TFC_DUMP_DIR", dir.string());
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([t] {
      auto f = function([](const Tensor &x) { return x * 3.f; },
                        named("concurrent"));
      f(zeros({int64_t(t + 1)}));
    });
  for (auto &t : threads)
    t.join();
  std::vector<std::string> files = filesIn(dir);
  EXPECT_EQ(files.size(), size_t(4 * kThreads));
  // Every tfc dump is a whole module for one of the shapes.
  std::set<std::string> shapes;
  for (const std::string &file : files)
    if (file.find(".0-tfc.mlir") != std::string::npos) {
      std::smatch m;
      std::string text = readFile(dir / file);
      ASSERT_TRUE(std::regex_search(text, m,
                                    std::regex("@concurrent\\(%arg0: "
                                               "tensor<([0-9])xf32>")))
          << text;
      shapes.insert(m[1]);
    }
  EXPECT_EQ(shapes, (std::set<std::string>{"1", "2", "3", "4"}));
}

} // namespace
