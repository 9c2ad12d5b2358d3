//===- bench_compile_cache.cpp - The persistent compile cache (issue 6) ---===//
//
//   build/bin/tfc-bench-cache [--runs=5] [--case=fifty|lstm|all]
//
// Time to first result of a fresh process running a traced function, with a
// cold and with a warm persistent compile cache. Each run makes an empty
// TFC_CACHE_DIR, then starts this binary as a child twice: the first child
// compiles with LLVM and fills the cache (cold), the second finds the object
// code there (warm). Reported per case, medians over the runs:
//   process   wall time of the whole child, spawn to exit (what a user waits)
//   first     inside the child, main() to the first result (no process
//             start-up or shared-library loading)
// and the cold/warm ratios. The child checks its result against eager
// execution and reports whether its compile hit the cache.
//
// Cases: `fifty` is the 50-op function of tfc-bench-jit's Compile50 (ten
// blocks of tanh(y @ w + b) * y - b, 4x16 @ 16x16) at O2; `lstm` is one LSTM
// cell step at hidden 32, batch 1.
//
//===----------------------------------------------------------------------===//

#include "lstm_step.h"

#include <tfc/tfc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

using Clock = std::chrono::steady_clock;

tfc::Tensor fifty(const tfc::Tensor &x, const tfc::Tensor &w,
                  const tfc::Tensor &b) {
  tfc::Tensor y = x;
  for (int i = 0; i < 10; ++i)
    y = tfc::tanh(tfc::matmul(y, w) + b) * y - b;
  return y;
}


float maxDiff(const tfc::Tensor &a, const tfc::Tensor &b) {
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  if (x.size() != y.size())
    return INFINITY;
  float d = 0;
  for (size_t i = 0; i < x.size(); ++i)
    d = std::max(d, std::fabs(x[i] - y[i]));
  return d;
}

/// The child: trace, compile, run once; prints "first_ms=<t> hit=<0|1>".
int child(const std::string &which, Clock::time_point start) {
  float diff;
  if (which == "fifty") {
    tfc::Tensor x = tfc::random_uniform({4, 16}, -1, 1, 1);
    tfc::Tensor w = tfc::random_uniform({16, 16}, -0.5, 0.5, 2);
    tfc::Tensor b = tfc::random_uniform({4, 16}, -0.1, 0.1, 3);
    auto f = tfc::function(fifty);
    tfc::Tensor y = f(x, w, b);
    auto t = Clock::now();
    diff = maxDiff(y, fifty(x, w, b));
    std::printf("first_ms=%.3f ",
                std::chrono::duration<double, std::milli>(t - start).count());
  } else if (which == "lstm") {
    int64_t n = 32;
    tfc::Tensor x = tfc::random_uniform({1, n}, -1, 1, 1);
    tfc::Tensor h = tfc::random_uniform({1, n}, -1, 1, 2);
    tfc::Tensor c = tfc::random_uniform({1, n}, -1, 1, 3);
    tfc::Tensor wx = tfc::random_uniform({n, 4 * n}, -0.1, 0.1, 4);
    tfc::Tensor wh = tfc::random_uniform({n, 4 * n}, -0.1, 0.1, 5);
    tfc::Tensor b = tfc::random_uniform({4 * n}, -0.1, 0.1, 6);
    auto f = tfc::function(lstmStep);
    auto [h2, c2] = f(x, h, c, wx, wh, b);
    auto t = Clock::now();
    auto [he, ce] = lstmStep(x, h, c, wx, wh, b);
    diff = std::max(maxDiff(h2, he), maxDiff(c2, ce));
    std::printf("first_ms=%.3f ",
                std::chrono::duration<double, std::milli>(t - start).count());
  } else {
    std::fprintf(stderr, "unknown case '%s'\n", which.c_str());
    return 2;
  }
  auto stats = tfc::jit::compile_cache_stats();
  std::printf("hit=%d\n", stats.hits > 0 ? 1 : 0);
  if (!(diff < 1e-5f)) {
    std::fprintf(stderr, "wrong result (max |diff| %g)\n", diff);
    return 1;
  }
  return 0;
}

struct ChildResult {
  double processMs = 0, firstMs = 0;
  bool hit = false;
};

/// Runs this binary as `--child=<which>` with TFC_CACHE_DIR=<dir>.
bool runChild(const char *self, const std::string &which,
              const std::string &dir, ChildResult &out) {
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, "TFC_CACHE_DIR=", 14) != 0)
      env.push_back(*e);
  env.push_back("TFC_CACHE_DIR=" + dir);
  std::vector<char *> envp;
  for (auto &s : env)
    envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string arg = "--child=" + which;
  char *argv[] = {const_cast<char *>(self), arg.data(), nullptr};

  int fds[2];
  if (pipe(fds) != 0)
    return false;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  auto t0 = Clock::now();
  pid_t pid;
  int rc = posix_spawn(&pid, self, &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return false;
  }
  std::string text;
  char buf[256];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0)
    text.append(buf, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  out.processMs =
      std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return false;
  int hit = 0;
  if (std::sscanf(text.c_str(), "first_ms=%lf hit=%d", &out.firstMs, &hit) != 2)
    return false;
  out.hit = hit != 0;
  return true;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  auto start = Clock::now();
  int runs = 5;
  std::string which = "all";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--child=", 8) == 0)
      return child(argv[i] + 8, start);
    if (std::strncmp(argv[i], "--runs=", 7) == 0)
      runs = std::max(1, std::atoi(argv[i] + 7));
    else if (std::strncmp(argv[i], "--case=", 7) == 0)
      which = argv[i] + 7;
    else {
      std::fprintf(stderr, "usage: %s [--runs=N] [--case=fifty|lstm|all]\n",
                   argv[0]);
      return 2;
    }
  }
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0)
    return 1;
  self[len] = 0;

  std::vector<std::string> cases;
  if (which == "all")
    cases = {"fifty", "lstm"};
  else
    cases = {which};
  std::printf("%-6s %5s %12s %12s %12s %12s %8s %8s\n", "case", "runs",
              "cold proc", "warm proc", "cold first", "warm first", "proc x",
              "first x");
  for (const std::string &c : cases) {
    std::vector<double> coldP, warmP, coldF, warmF;
    for (int r = 0; r < runs; ++r) {
      char tmpl[] = "/tmp/tfc-bench-cache-XXXXXX";
      if (!mkdtemp(tmpl))
        return 1;
      ChildResult cold, warm;
      bool ok = runChild(self, c, tmpl, cold) && runChild(self, c, tmpl, warm);
      std::string rm = std::string("rm -rf ") + tmpl;
      if (std::system(rm.c_str()) != 0)
        std::fprintf(stderr, "could not remove %s\n", tmpl);
      if (!ok || cold.hit || !warm.hit) {
        std::fprintf(stderr,
                     "case %s run %d failed (cold hit %d, warm hit %d)\n",
                     c.c_str(), r, cold.hit, warm.hit);
        return 1;
      }
      coldP.push_back(cold.processMs);
      warmP.push_back(warm.processMs);
      coldF.push_back(cold.firstMs);
      warmF.push_back(warm.firstMs);
    }
    double cp = median(coldP), wp = median(warmP), cf = median(coldF),
           wf = median(warmF);
    std::printf("%-6s %5d %9.1f ms %9.1f ms %9.1f ms %9.1f ms %7.1fx %7.1fx\n",
                c.c_str(), runs, cp, wp, cf, wf, cp / wp, cf / wf);
  }
  return 0;
}
