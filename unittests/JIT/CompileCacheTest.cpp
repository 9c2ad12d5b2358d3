//===- CompileCacheTest.cpp - The persistent compile cache ----------------===//
#include "tfc/JIT/CompiledModule.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include "TestCacheDir.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tfc;
using tfc::jit::CompiledModule;
using tfc::jit::CompileOptions;

namespace {

TFC_TEST_PRIVATE_CACHE_DIR("tfc-jit-tests");

/// A fresh directory per test, removed afterwards.
class CompileCache : public ::testing::Test {
public:
  void SetUp() override {
    llvm::SmallString<128> d;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tfc-cache-test", d));
    dir = std::string(d);
    options.cache_dir = dir;
  }
  void TearDown() override { llvm::sys::fs::remove_directories(dir); }

  /// Names of the files in `dir`.
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
         it.increment(ec))
      out.push_back(llvm::sys::path::filename(it->path()).str());
    return out;
  }
  std::string entry() const {
    auto f = files();
    EXPECT_EQ(f.size(), 1u);
    return f.empty() ? "" : dir + "/" + f[0];
  }

  std::string dir;
  CompileOptions options;
};

// `scale` makes each test's module (and so its key) distinct from the others.
std::string source(int scale) {
  return R"mlir(
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %c = tfc.constant dense<)mlir" +
         std::to_string(scale) + R"mlir(.0> : tensor<4xf32>
      %0 = tfc.mul %a, %c : tensor<4xf32>
      %1 = tfc.tanh %0 : tensor<4xf32>
      %2 = tfc.add %1, %a : tensor<4xf32>
      return %2 : tensor<4xf32>
    })mlir";
}

Tensor input() {
  Tensor t = Tensor::empty(DType::Float32, {4});
  float *p = t.data<float>();
  for (int i = 0; i < 4; ++i)
    p[i] = 0.25f * float(i) - 0.5f;
  return t;
}

std::vector<float> expected(int scale) {
  std::vector<float> out;
  for (int i = 0; i < 4; ++i) {
    float a = 0.25f * float(i) - 0.5f;
    out.push_back(std::tanh(a * float(scale)) + a);
  }
  return out;
}

void expectRight(const CompiledModule &m, int scale) {
  std::vector<float> got = m.call("f", {input()}).at(0).to_vector<float>();
  std::vector<float> want = expected(scale);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-5f) << "element " << i;
}

TEST_F(CompileCache, SecondCompileHits) {
  auto before = jit::compile_cache_stats();
  auto first = CompiledModule::from_source(source(2), options);
  EXPECT_FALSE(first.from_cache());
  expectRight(first, 2);
  auto mid = jit::compile_cache_stats();
  EXPECT_EQ(mid.misses, before.misses + 1);
  EXPECT_EQ(mid.stores, before.stores + 1);
  EXPECT_EQ(mid.hits, before.hits);
  ASSERT_EQ(files().size(), 1u);
  EXPECT_EQ(llvm::sys::path::extension(files()[0]), ".o");

  auto second = CompiledModule::from_source(source(2), options);
  EXPECT_TRUE(second.from_cache());
  expectRight(second, 2);
  auto after = jit::compile_cache_stats();
  EXPECT_EQ(after.hits, mid.hits + 1);
  EXPECT_EQ(after.misses, mid.misses);
  // The "llvm" stage says what happened and still shows the function.
  EXPECT_NE(second.ir("llvm").find("compile cache"), std::string::npos);
  EXPECT_NE(second.ir("llvm").find("define"), std::string::npos);
  // The first module is unaffected by the second.
  expectRight(first, 2);
}

TEST_F(CompileCache, KeyDependsOnModuleAndOptLevel) {
  CompiledModule::from_source(source(3), options);
  CompiledModule::from_source(source(4), options);
  CompileOptions o1 = options;
  o1.opt_level = 1;
  auto m = CompiledModule::from_source(source(3), o1);
  EXPECT_FALSE(m.from_cache());
  expectRight(m, 3);
  EXPECT_EQ(files().size(), 3u);
}

/// Rewrites the single entry with `mutate` applied, then checks that a
/// compile ignores it, recompiles correctly and rewrites a good entry.
void checkRecovers(CompileCache &t, const CompileOptions &options, int scale,
                   const std::function<void(std::string &)> &mutate) {
  CompiledModule::from_source(source(scale), options);
  std::string path = t.entry();
  std::string bytes;
  {
    auto buf = llvm::MemoryBuffer::getFile(path);
    ASSERT_TRUE(bool(buf));
    bytes = (*buf)->getBuffer().str();
  }
  mutate(bytes);
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f << bytes;
  }
  auto before = jit::compile_cache_stats();
  auto m = CompiledModule::from_source(source(scale), options);
  EXPECT_FALSE(m.from_cache());
  expectRight(m, scale);
  auto after = jit::compile_cache_stats();
  EXPECT_EQ(after.rejected, before.rejected + 1);
  EXPECT_EQ(after.stores, before.stores + 1);
  // Rewritten: the next compile hits again.
  auto again = CompiledModule::from_source(source(scale), options);
  EXPECT_TRUE(again.from_cache());
  expectRight(again, scale);
}

TEST_F(CompileCache, FlippedByteIsRecovered) {
  checkRecovers(*this, options, 5,
                [](std::string &b) { b[b.size() / 2] ^= 1; });
}

TEST_F(CompileCache, TruncatedEntryIsRecovered) {
  checkRecovers(*this, options, 6,
                [](std::string &b) { b.resize(b.size() / 3); });
}

TEST_F(CompileCache, EmptyAndGarbageEntriesAreRecovered) {
  checkRecovers(*this, options, 7, [](std::string &b) { b.clear(); });
  llvm::sys::fs::remove_directories(dir);
  checkRecovers(*this, options, 8,
                [](std::string &b) { b.assign(300, '\x7f'); });
}

TEST_F(CompileCache, WellFormedEntryWithBadObjectIsRecovered) {
  // A header and digest that validate, around bytes that are no object
  // file: linking fails, and the compile falls back to LLVM.
  checkRecovers(*this, options, 9, [](std::string &b) {
    std::string payload(512, 'x');
    auto digest = llvm::BLAKE3::hash<32>(llvm::arrayRefFromStringRef(payload));
    uint64_t size = payload.size();
    b.resize(40);
    b.append(reinterpret_cast<const char *>(&size), 8);
    b.append(reinterpret_cast<const char *>(digest.data()), 32);
    b += payload;
  });
}

TEST_F(CompileCache, DisabledByOption) {
  options.cache = false;
  auto before = jit::compile_cache_stats();
  auto a = CompiledModule::from_source(source(10), options);
  auto b = CompiledModule::from_source(source(10), options);
  EXPECT_FALSE(a.from_cache());
  EXPECT_FALSE(b.from_cache());
  expectRight(b, 10);
  auto after = jit::compile_cache_stats();
  EXPECT_EQ(after.hits, before.hits);
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_TRUE(files().empty());
}

TEST_F(CompileCache, EnvironmentChoosesTheDirectory) {
  const char *saved = std::getenv("TFC_CACHE_DIR");
  std::string keep = saved ? saved : "";
  CompileOptions plain; // no cache_dir: the environment decides
  setenv("TFC_CACHE_DIR", dir.c_str(), 1);
  EXPECT_EQ(jit::default_compile_cache_dir(), dir);
  CompiledModule::from_source(source(11), plain);
  EXPECT_EQ(files().size(), 1u);
  EXPECT_TRUE(CompiledModule::from_source(source(11), plain).from_cache());
  // Set but empty: off.
  setenv("TFC_CACHE_DIR", "", 1);
  EXPECT_EQ(jit::default_compile_cache_dir(), "");
  auto before = jit::compile_cache_stats();
  auto m = CompiledModule::from_source(source(11), plain);
  EXPECT_FALSE(m.from_cache());
  expectRight(m, 11);
  EXPECT_EQ(jit::compile_cache_stats().hits, before.hits);
  EXPECT_EQ(jit::compile_cache_stats().misses, before.misses);
  if (saved)
    setenv("TFC_CACHE_DIR", keep.c_str(), 1);
  else
    unsetenv("TFC_CACHE_DIR");
}

TEST_F(CompileCache, UnwritableDirectoryStillCompiles) {
  // A regular file where the directory should be: nothing can be stored.
  std::string blocker = dir + "/blocker";
  { std::ofstream(blocker) << "x"; }
  options.cache_dir = blocker + "/sub";
  auto before = jit::compile_cache_stats();
  auto m = CompiledModule::from_source(source(12), options);
  expectRight(m, 12);
  EXPECT_EQ(jit::compile_cache_stats().write_errors, before.write_errors + 1);
}

TEST_F(CompileCache, ConcurrentThreads) {
  constexpr int kThreads = 4;
  std::vector<std::thread> threads;
  std::vector<int> ok(kThreads, 0);
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      auto m = CompiledModule::from_source(source(13), options);
      std::vector<float> got = m.call("f", {input()}).at(0).to_vector<float>();
      std::vector<float> want = expected(13);
      bool same = got.size() == want.size();
      for (size_t k = 0; same && k < got.size(); ++k)
        same = std::fabs(got[k] - want[k]) < 1e-5f;
      ok[i] = same;
    });
  for (auto &t : threads)
    t.join();
  for (int i = 0; i < kThreads; ++i)
    EXPECT_TRUE(ok[i]) << "thread " << i;
  // One complete entry, no temporary files left behind.
  EXPECT_EQ(files().size(), 1u);
  EXPECT_TRUE(CompiledModule::from_source(source(13), options).from_cache());
}

TEST_F(CompileCache, ConcurrentProcesses) {
  constexpr int kChildren = 4;
  std::vector<pid_t> pids;
  for (int i = 0; i < kChildren; ++i) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // Child: compile (racing the others to write the entry) and check.
      int code = 0;
      try {
        auto m = CompiledModule::from_source(source(14), options);
        std::vector<float> got =
            m.call("f", {input()}).at(0).to_vector<float>();
        std::vector<float> want = expected(14);
        for (size_t k = 0; k < want.size(); ++k)
          if (std::fabs(got.at(k) - want[k]) > 1e-5f)
            code = 2;
      } catch (...) {
        code = 3;
      }
      _exit(code);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
  }
  EXPECT_EQ(files().size(), 1u);
  auto m = CompiledModule::from_source(source(14), options);
  EXPECT_TRUE(m.from_cache());
  expectRight(m, 14);
}

} // namespace
