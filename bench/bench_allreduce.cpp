//===- bench_allreduce.cpp - All-reduce: Open MPI against gloo -----------===//
//
//   OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
//   mpirun -np 2 --oversubscribe --mca btl self,tcp \
//     --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
//     build/bin/tfc-bench-allreduce [--min-bytes=4096] \
//     [--max-bytes=67108864] [--iters-scale=1]
//
// In-place float32 sum all-reduce of gradient-sized buffers (powers of 4
// from --min-bytes to --max-bytes) with each collective library tfc could
// build on, all in one run over the same transport (TCP on loopback):
//
//   MPI      MPI_Allreduce(MPI_IN_PLACE, ...) on MPI_COMM_WORLD
//   gloo     gloo::allreduce, its default algorithm (the ring), with the
//            AllreduceOptions built once per buffer as gloo's own benchmark
//            does (building them per call added ~4 ms per call here)
//   gloo-rc  gloo::AllreduceRingChunked, built once per buffer and run()
//
// gloo runs on a rendezvous::Context over a TCP device bound to 127.0.0.1,
// connected through a FileStore in a temporary directory that rank 0 makes
// and removes.
//
// Per size and library: a warm-up, a calibration that picks the number of
// calls per repetition (~0.3 s per size and library, times --iters-scale), then
// kReps repetitions separated by MPI_Barrier; the figure is the median
// per-call time, each repetition's time being the slowest rank's. After the
// repetitions the result is checked, then one more call on rank-dependent
// values is checked against the exact sum; a mismatch aborts with status 1.
//
// Rank 0 prints per size: the time per call (us), the bus bandwidth (NCCL
// tests convention: busbw = bytes / time * 2 * (n - 1) / n, in GB/s) and the
// ratio of each library's time to MPI's.
//
// On loopback (MTU 64 KiB), gloo's calls of 16-256 KB often take ~40 or
// ~90 ms: gloo sets SO_SNDBUF to the message size, and the sender then most
// likely waits for delayed ACKs (40 ms). Gone with SO_SNDBUF left alone.
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <gloo/allreduce.h>
#include <gloo/allreduce_ring_chunked.h>
#include <gloo/config.h>
#include <gloo/math.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr int kReps = 5;
// Time per size and library, all repetitions together, at --iters-scale=1.
constexpr double kTargetSeconds = 0.3;
// The calibration doubles the calls until they take at least this long.
constexpr double kProbeSeconds = 0.01;

struct Options {
  size_t minBytes = 4096;
  size_t maxBytes = 64 << 20;
  double itersScale = 1;
};

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int worldSize() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Any rank may fail alone, so abort the whole job rather than leave the
// other ranks waiting in a collective.
[[noreturn]] void fail(const char *fmt, ...) {
  std::fprintf(stderr, "rank %d: error: ", worldRank());
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

//===----------------------------------------------------------------------===//
// Libraries under test
//===----------------------------------------------------------------------===//

// One in-place sum all-reduce of the buffer given to Backend::prepare.
using AllreduceOp = std::function<void()>;

// A library under test: prepare() does the per-buffer setup (not timed) and
// returns the call to time. The first backend is the reference of the
// ratio columns.
struct Backend {
  const char *name;
  std::function<AllreduceOp(float *data, size_t count)> prepare;
};

Backend mpiBackend() {
  return {"MPI", [](float *data, size_t count) -> AllreduceOp {
            return [=] {
              MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(count),
                            MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            };
          }};
}

// Connects all ranks with gloo over TCP on loopback. The FileStore's
// directory is made by rank 0, its path sent with MPI_Bcast, and removed
// once every rank is connected.
std::shared_ptr<gloo::Context> connectGloo() {
  int rank = worldRank();
  std::string dir;
  if (rank == 0) {
    char tmpl[] = "/tmp/tfc-bench-allreduce-XXXXXX";
    if (!mkdtemp(tmpl))
      fail("mkdtemp: %s", std::strerror(errno));
    dir = tmpl;
  }
  int len = static_cast<int>(dir.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
  dir.resize(len);
  MPI_Bcast(dir.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD);

  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1"; // Listen and connect on loopback only.
  auto device = gloo::transport::tcp::CreateDevice(attr);
  auto context = std::make_shared<gloo::rendezvous::Context>(rank, worldSize());
  gloo::rendezvous::FileStore fileStore(dir);
  gloo::rendezvous::PrefixStore store("tfc-bench-allreduce", fileStore);
  context->connectFullMesh(store, device);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    std::filesystem::remove_all(dir);
  return context;
}

Backend glooBackend(std::shared_ptr<gloo::Context> context) {
  return {
      "gloo", [=](float *data, size_t count) -> AllreduceOp {
        // Shared: std::function needs a copyable callable.
        auto opts = std::make_shared<gloo::AllreduceOptions>(context);
        opts->setOutput(data, count);
        opts->setReduceFunction(
            static_cast<void (*)(void *, const void *, const void *, size_t)>(
                &gloo::sum<float>));
        return [=] { gloo::allreduce(*opts); };
      }};
}

Backend glooRingChunkedBackend(std::shared_ptr<gloo::Context> context) {
  return {"gloo-rc", [=](float *data, size_t count) -> AllreduceOp {
            auto algo = std::make_shared<gloo::AllreduceRingChunked<float>>(
                context, std::vector<float *>{data}, static_cast<int>(count));
            return [=] { algo->run(); };
          }};
}

//===----------------------------------------------------------------------===//
// Timing
//===----------------------------------------------------------------------===//

double maxOverRanks(double value) {
  double result = 0;
  MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return result;
}

// Seconds taken by `iters` back-to-back calls on the slowest rank.
double timeCalls(const AllreduceOp &op, long iters) {
  MPI_Barrier(MPI_COMM_WORLD);
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < iters; ++i)
    op();
  std::chrono::duration<double> elapsed =
      std::chrono::steady_clock::now() - start;
  return maxOverRanks(elapsed.count());
}

// Calls per repetition so that kReps repetitions take about targetSeconds.
// Every rank computes the same count: the times are maxima over the ranks.
long calibrateIters(const AllreduceOp &op, double targetSeconds) {
  long probe = 1;
  double seconds = timeCalls(op, probe);
  while (seconds < kProbeSeconds) {
    probe *= 2;
    seconds = timeCalls(op, probe);
  }
  double perCall = seconds / probe;
  return std::max(1L, std::lround(targetSeconds / kReps / perCall));
}

// Median over kReps repetitions of the time per call, in seconds.
double medianSecondsPerCall(const AllreduceOp &op, long iters) {
  std::vector<double> perCall;
  for (int rep = 0; rep < kReps; ++rep)
    perCall.push_back(timeCalls(op, iters) / iters);
  std::sort(perCall.begin(), perCall.end());
  return perCall[kReps / 2];
}

//===----------------------------------------------------------------------===//
// Correctness
//===----------------------------------------------------------------------===//

// Small integers, so that every sum below is exact in float32.
float pattern(size_t i) { return static_cast<float>(i % 251 + 1); }

// Timed calls reduce their own output again, which would grow by a factor n
// per call and overflow; values that sum to zero over the ranks stay exact
// (all zero from the first call on).
void fillZeroSum(float *data, size_t count, int rank, int size) {
  float scale = rank == 0 ? -static_cast<float>(size - 1) : 1.0f;
  for (size_t i = 0; i < count; ++i)
    data[i] = scale * pattern(i);
}

void fillRankValues(float *data, size_t count, int rank) {
  for (size_t i = 0; i < count; ++i)
    data[i] = static_cast<float>(rank + 1) * pattern(i);
}

// Exits (status 1, all ranks) unless data[i] == factor * pattern(i) for all
// i on every rank.
void check(const float *data, size_t count, float factor, const char *name,
           const char *what) {
  size_t bad = count;
  for (size_t i = 0; i < count && bad == count; ++i)
    if (data[i] != factor * pattern(i))
      bad = i;
  int ok = bad == count, allOk = 0;
  MPI_Allreduce(&ok, &allOk, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (allOk)
    return;
  if (!ok)
    fail("%s, %zu bytes, %s: element %zu is %g, expected %g", name,
         count * sizeof(float), what, bad, data[bad], factor * pattern(bad));
  // Let the failing rank print its message before the job is aborted.
  MPI_Barrier(MPI_COMM_WORLD);
  std::exit(1);
}

// Median seconds per call of one library on the first `count` floats of
// `data`, checked as described at the top of the file.
double measure(const Backend &backend, float *data, size_t count,
               const Options &options) {
  int rank = worldRank(), size = worldSize();
  fillZeroSum(data, count, rank, size);
  AllreduceOp op = backend.prepare(data, count);
  op(); // Warm-up: first-touch of internal buffers, connections, caches.
  long iters = calibrateIters(op, kTargetSeconds * options.itersScale);
  double seconds = medianSecondsPerCall(op, iters);
  check(data, count, 0.0f, backend.name, "after the timed calls");

  fillRankValues(data, count, rank);
  op();
  float rankSum = static_cast<float>(size * (size + 1) / 2);
  check(data, count, rankSum, backend.name, "sum of rank values");
  return seconds;
}

//===----------------------------------------------------------------------===//
// Report
//===----------------------------------------------------------------------===//

// NCCL tests' bus bandwidth of an all-reduce, GB/s.
double busBandwidth(size_t bytes, double seconds, int size) {
  return bytes / seconds * 2.0 * (size - 1) / size / 1e9;
}

std::string firstLine(const char *text) {
  std::string line = text;
  return line.substr(0, line.find('\n'));
}

void printHeader(const std::vector<Backend> &backends,
                 gloo::Context &glooContext, int size) {
  char mpiVersion[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(mpiVersion, &len);
  // This rank's listening address towards rank 1: shows gloo's interface.
  std::string glooAddress = glooContext.getPair(1)->address().str();
  std::printf("# %s\n", firstLine(mpiVersion).c_str());
  std::printf("# gloo %d.%d.%d (GLOO_VERSION %d), tcp transport on %s\n",
              GLOO_VERSION_MAJOR, GLOO_VERSION_MINOR, GLOO_VERSION_PATCH,
              GLOO_VERSION, glooAddress.c_str());
  std::printf("# %d ranks, float32 in-place sum, median of %d repetitions; "
              "busbw = bytes/time * 2(n-1)/n; x %s = time / %s's time\n",
              size, kReps, backends.front().name, backends.front().name);
  std::printf("%10s", "bytes");
  for (const Backend &backend : backends) {
    std::printf(" %11s %8s", (std::string(backend.name) + " us").c_str(),
                "GB/s");
    if (&backend != &backends.front())
      std::printf(" %8s", ("x " + std::string(backends.front().name)).c_str());
  }
  std::printf("\n");
}

void printRow(size_t bytes, const std::vector<double> &seconds, int size) {
  std::printf("%10zu", bytes);
  for (size_t b = 0; b < seconds.size(); ++b) {
    std::printf(" %11.1f %8.3f", seconds[b] * 1e6,
                busBandwidth(bytes, seconds[b], size));
    if (b != 0)
      std::printf(" %8.2f", seconds[b] / seconds[0]);
  }
  std::printf("\n");
  std::fflush(stdout);
}

bool parseSize(const char *arg, const char *flag, size_t &out) {
  size_t n = std::strlen(flag);
  if (std::strncmp(arg, flag, n) != 0)
    return false;
  out = std::strtoull(arg + n, nullptr, 10);
  return true;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = worldRank(), size = worldSize();

  Options options;
  for (int i = 1; i < argc; ++i) {
    if (parseSize(argv[i], "--min-bytes=", options.minBytes) ||
        parseSize(argv[i], "--max-bytes=", options.maxBytes))
      continue;
    if (std::strncmp(argv[i], "--iters-scale=", 14) == 0) {
      options.itersScale = std::atof(argv[i] + 14);
      continue;
    }
    if (rank == 0)
      std::fprintf(stderr,
                   "usage: mpirun -np N %s [--min-bytes=4096] "
                   "[--max-bytes=67108864] [--iters-scale=1]\n",
                   argv[0]);
    MPI_Finalize();
    return 2;
  }
  if (size < 2)
    fail("run with at least 2 ranks (mpirun -np 2)");
  if (options.minBytes < sizeof(float) || options.maxBytes < options.minBytes ||
      options.itersScale <= 0)
    fail("bad --min-bytes, --max-bytes or --iters-scale");

  try {
    std::shared_ptr<gloo::Context> glooContext = connectGloo();
    std::vector<Backend> backends = {mpiBackend(), glooBackend(glooContext),
                                     glooRingChunkedBackend(glooContext)};
    if (rank == 0)
      printHeader(backends, *glooContext, size);

    std::vector<float> buffer(options.maxBytes / sizeof(float));
    for (size_t bytes = options.minBytes; bytes <= options.maxBytes;
         bytes *= 4) {
      size_t count = bytes / sizeof(float);
      std::vector<double> seconds;
      for (const Backend &backend : backends)
        seconds.push_back(measure(backend, buffer.data(), count, options));
      if (rank == 0)
        printRow(count * sizeof(float), seconds, size);
    }
  } catch (const std::exception &e) {
    fail("%s", e.what());
  }

  MPI_Finalize();
  return 0;
}
