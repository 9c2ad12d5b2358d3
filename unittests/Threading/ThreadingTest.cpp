//===- ThreadingTest.cpp - set_num_threads governs every thread pool ------===//
//
// kernels::set_num_threads must size the OpenMP teams of eager kernels and
// of JIT-compiled parallel loops, from whichever thread calls, and
// OpenBLAS's pool. The teams are observed through OMPT, libomp's tool
// interface: this binary is the tool (ompt_start_tool below), so libomp
// reports the size of every team and which OS threads run it.
//
//===----------------------------------------------------------------------===//
#include <tfc/tfc.h>

#include TFC_OMP_TOOLS_H
#include <cblas.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>

using namespace tfc;

namespace {

// Constant-initialised: libomp may start the tool before this file's
// dynamic initialisers run.
std::atomic<bool> gToolActive{false};
std::atomic<int> gRegions{0};
std::atomic<unsigned> gLargestTeam{0};
constexpr int kMaxTids = 64;
std::atomic<pid_t> gTids[kMaxTids];

void noteThread(pid_t tid) {
  for (auto &slot : gTids) {
    pid_t seen = slot.load();
    if (seen == tid)
      return;
    if (seen == 0 && slot.compare_exchange_strong(seen, tid))
      return;
    if (seen == tid)
      return;
  }
}

void onParallelBegin(ompt_data_t *, const ompt_frame_t *, ompt_data_t *,
                     unsigned, int, const void *) {
  ++gRegions;
}

void onImplicitTask(ompt_scope_endpoint_t endpoint, ompt_data_t *,
                    ompt_data_t *, unsigned actualParallelism, unsigned,
                    int flags) {
  if (endpoint != ompt_scope_begin || !(flags & ompt_task_implicit))
    return;
  unsigned prev = gLargestTeam.load();
  while (actualParallelism > prev &&
         !gLargestTeam.compare_exchange_weak(prev, actualParallelism)) {
  }
  noteThread(gettid());
}

int initializeTool(ompt_function_lookup_t lookup, int, ompt_data_t *) {
  auto setCallback =
      reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (!setCallback)
    return 0;
  bool ok = setCallback(ompt_callback_parallel_begin,
                        reinterpret_cast<ompt_callback_t>(&onParallelBegin)) ==
                ompt_set_always &&
            setCallback(ompt_callback_implicit_task,
                        reinterpret_cast<ompt_callback_t>(&onImplicitTask)) ==
                ompt_set_always;
  gToolActive = ok;
  return 1;
}

void finalizeTool(ompt_data_t *) {}

/// What the teams started since the last reset() looked like.
struct Teams {
  int regions;
  unsigned largest; ///< Threads in the largest team.
  int threads;      ///< Distinct OS threads that ran any of them.
};

void reset() {
  gRegions = 0;
  gLargestTeam = 0;
  for (auto &slot : gTids)
    slot = 0;
}

Teams seen() {
  int threads = 0;
  for (auto &slot : gTids)
    threads += slot.load() != 0;
  return {gRegions.load(), gLargestTeam.load(), threads};
}

/// Restores the thread count a test changed.
class Threading : public ::testing::Test {
protected:
  void SetUp() override {
    // libomp starts the tool when it initialises, on the first OpenMP call
    // (tfc makes one at load time only without TFC_NUM_THREADS).
    omp_get_max_threads();
    ASSERT_TRUE(gToolActive.load())
        << "libomp did not start the OMPT tool: team sizes are unobservable";
    saved = kernels::get_num_threads();
  }
  void TearDown() override { kernels::set_num_threads(saved); }
  int saved = 1;
};

/// 2^20 floats: far above the parallel threshold (32768, docs/fusion.md).
constexpr int64_t kN = int64_t(1) << 20;

Tensor big() { return full({kN}, 0.5); }

void expectAffine(const Tensor &y) {
  std::vector<float> v = y.to_vector<float>();
  ASSERT_EQ(v.size(), size_t(kN));
  EXPECT_EQ(v.front(), 2.f);
  EXPECT_EQ(v.back(), 2.f);
}

/// y = 2x + 1: one fused loop the compiler runs in parallel.
auto affine() {
  return function([](const Tensor &x) { return x * 2.f + 1.f; });
}

} // namespace

extern "C" ompt_start_tool_result_t *ompt_start_tool(unsigned, const char *) {
  static ompt_start_tool_result_t result = {
      &initializeTool, &finalizeTool, {0}};
  return &result;
}

namespace {

TEST_F(Threading, CompiledLoopsFollowSetNumThreads) {
  auto f = affine();
  Tensor x = big();
  kernels::set_num_threads(1);
  reset();
  expectAffine(f(x));
  Teams t = seen();
  EXPECT_GE(t.regions, 1) << "the compiled loop did not run in parallel";
  EXPECT_EQ(t.largest, 1u);
  EXPECT_EQ(t.threads, 1);

  kernels::set_num_threads(2);
  reset();
  expectAffine(f(x)); // the same compiled code: read at run time
  t = seen();
  EXPECT_GE(t.regions, 1);
  EXPECT_EQ(t.largest, 2u);
  EXPECT_EQ(t.threads, 2);

  kernels::set_num_threads(1);
  reset();
  expectAffine(f(x));
  EXPECT_EQ(seen().largest, 1u);
  EXPECT_EQ(seen().threads, 1);
}

TEST_F(Threading, SettingIsProcessWide) {
  // OpenMP's own setting (omp_set_num_threads) holds for the calling thread
  // only; set_num_threads must hold for code run from any thread.
  auto f = affine();
  Tensor x = big();
  expectAffine(f(x)); // compile outside the measured runs
  kernels::set_num_threads(1);
  reset();
  std::thread([&] { expectAffine(f(x)); }).join();
  EXPECT_GE(seen().regions, 1);
  EXPECT_EQ(seen().largest, 1u);
  EXPECT_EQ(seen().threads, 1);

  std::thread([] { kernels::set_num_threads(2); }).join();
  EXPECT_EQ(kernels::get_num_threads(), 2);
  reset();
  expectAffine(f(x));
  EXPECT_EQ(seen().largest, 2u);
}

TEST_F(Threading, EagerKernelsFollowSetNumThreads) {
  Tensor x = big();
  kernels::set_num_threads(1);
  reset();
  Tensor y = x * 2.f + 1.f;
  expectAffine(y);
  EXPECT_LE(seen().largest, 1u);
  EXPECT_LE(seen().threads, 1);

  kernels::set_num_threads(2);
  reset();
  expectAffine(x * 2.f + 1.f);
  EXPECT_GE(seen().regions, 1);
  EXPECT_EQ(seen().largest, 2u);
  EXPECT_EQ(seen().threads, 2);
}

TEST_F(Threading, OpenBlasFollowsSetNumThreads) {
  for (int n : {1, 2, 1}) {
    kernels::set_num_threads(n);
    EXPECT_EQ(kernels::get_num_threads(), n);
    EXPECT_EQ(kernels::num_threads(), n);
    EXPECT_EQ(openblas_get_num_threads(), n);
  }
  kernels::set_num_threads(0); // all cores
  int all = kernels::get_num_threads();
  EXPECT_GE(all, 1);
  EXPECT_EQ(openblas_get_num_threads(), all);
}

TEST_F(Threading, NegativeCountIsAnError) {
  kernels::set_num_threads(2);
  try {
    kernels::set_num_threads(-3);
    FAIL() << "expected InvalidArgumentError";
  } catch (const InvalidArgumentError &e) {
    EXPECT_NE(std::string(e.what()).find("set_num_threads"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("-3"), std::string::npos);
  }
  EXPECT_EQ(kernels::get_num_threads(), 2);
}

TEST_F(Threading, EnvironmentVariableSetsEveryPool) {
  // A fresh process (gtest re-runs this binary) reads TFC_NUM_THREADS at
  // start: tfc's count, OpenBLAS's and the compiled loops' teams follow it
  // without any call, whatever OpenMP's own default is.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("TFC_NUM_THREADS", "1", 1);
  EXPECT_EXIT(
      {
        int tfcThreads = kernels::get_num_threads();
        int blasThreads = openblas_get_num_threads();
        auto f = affine();
        Tensor x = big();
        reset();
        Tensor y = f(x);
        Teams t = seen();
        bool ok = tfcThreads == 1 && blasThreads == 1 && t.regions >= 1 &&
                  t.largest == 1 && y.to_vector<float>()[0] == 2.f;
        if (!ok)
          std::fprintf(stderr,
                       "tfc %d, OpenBLAS %d, regions %d, largest team %u\n",
                       tfcThreads, blasThreads, t.regions, t.largest);
        std::exit(ok ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  unsetenv("TFC_NUM_THREADS");
}

} // namespace
