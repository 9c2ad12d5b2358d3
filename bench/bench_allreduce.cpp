//===- bench_allreduce.cpp - All-reduce: tfc, Open MPI and gloo ----------===//
//
//   OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
//   mpirun -np 2 --oversubscribe --mca btl self,tcp \
//     --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
//     -x OMP_NUM_THREADS=1 build/bin/tfc-bench-allreduce [--min-bytes=4096] \
//     [--max-bytes=67108864] [--iters-scale=1]
//
// Float32 sum all-reduce of gradient-sized buffers (powers of 4 from
// --min-bytes to --max-bytes) with each collective library tfc could build
// on and with tfc's own collectives (on Open MPI), all in one run over the
// same transport (TCP on loopback):
//
//   MPI           MPI_Allreduce(MPI_IN_PLACE, ...) on MPI_COMM_WORLD
//   gloo          gloo::allreduce, its default algorithm (the ring), with the
//                 AllreduceOptions built once per buffer as gloo's own
//                 benchmark does (building them per call added ~4 ms per
//                 call here)
//   gloo-rc       gloo::AllreduceRingChunked, built once per buffer and run()
//   tfc comm      MpiCommunicator::all_reduce_sum on the buffer, in place
//                 (tfc's binding alone: MPI_Allreduce plus error checks)
//   tfc eager     tfc::distribute::all_reduce(t), t a float32 Tensor made
//                 once per buffer; returns a new tensor (the kernel passes
//                 t and the new buffer to MPI_Allreduce: out of place)
//   tfc compiled  a tfc::function whose body is that all_reduce, traced and
//                 compiled once per buffer size before the timing
//
// The tfc backends run on the communicator tfc::distribute::init_mpi() sets
// after MPI_Init (it reuses MPI_COMM_WORLD and sets MPI_ERRORS_RETURN on it).
//
// gloo runs on a rendezvous::Context over a TCP device bound to 127.0.0.1,
// connected through a FileStore in a temporary directory that rank 0 makes
// and removes.
//
// Per size and library: a warm-up, a calibration that picks the number of
// calls per repetition (~0.6 s per size and library, times --iters-scale),
// then kReps repetitions separated by MPI_Barrier, the libraries' repetitions
// interleaved; the figure is the median per-call time, each repetition's
// time being the slowest rank's. After the repetitions the result is
// checked, then one more call on rank-dependent values is checked against
// the exact sum; a mismatch aborts with status 1.
//
// Rank 0 prints per size: the time per call (us), MPI's bus bandwidth (NCCL
// tests convention: busbw = bytes / time * 2 * (n - 1) / n, in GB/s) and the
// ratio of each other library's time to MPI's. Then, per tfc backend, the
// worst (largest) time ratio over the sizes >= 1 MB (bandwidth) and the ratio
// at the smallest size (latency, 4 KB by default), against the goal of at
// least 0.8 of MPI's bandwidth and rate, i.e. a time ratio of at most 1.25.
// "tfc comm" makes the same MPI_Allreduce call as "MPI": how far its ratio is
// from 1 shows the run's noise (on a 2-core VM, with the repetitions
// interleaved: within ~10% at most sizes, up to ~1.3 at one size in some
// runs; whole runs sometimes land in a slower regime for MPI at >= 256 KB,
// e.g. 1 MB in ~240 us in one run and ~900 us in the next).
//
// A full run takes ~35 s on 2 cores.
//
// tfc eager and compiled reduce out of place (MPI reads the input tensor
// and writes the result's fresh buffer); their extra time over tfc comm is
// the result's allocation (first touch of new pages at the largest sizes).
//
// On loopback (MTU 64 KiB), gloo's calls of 16-256 KB often take ~40 or
// ~90 ms: gloo sets SO_SNDBUF to the message size, and the sender then most
// likely waits for delayed ACKs (40 ms). Gone with SO_SNDBUF left alone.
//
//===----------------------------------------------------------------------===//

#include <mpi.h>

#include <tfc/distribute/Mpi.h>
#include <tfc/tfc.h>

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

constexpr int kReps = 9;
// Time per size and library, all repetitions together, at --iters-scale=1.
constexpr double kTargetSeconds = 0.6;
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

// One sum all-reduce of the buffer given to Backend::prepare.
using AllreduceOp = std::function<void()>;

// What Backend::prepare returns. In place (`load` and `store` null): `run`
// reduces the buffer itself. Out of place: `load` copies the buffer into the
// backend's input, `run` reduces that input into a new result, `store`
// copies the latest result into the buffer (neither is timed).
struct Collective {
  AllreduceOp run;
  std::function<void()> load;
  std::function<void()> store;
};

// A library under test: prepare() does the per-buffer setup (not timed),
// loading the buffer's current values for out-of-place ones, and returns the
// call to time. The first backend is the reference of the ratio columns;
// `summarize`: a line of worst ratios at the end.
struct Backend {
  const char *name;
  std::function<Collective(float *data, size_t count)> prepare;
  bool summarize = false;
};

Backend mpiBackend() {
  return {"MPI", [](float *data, size_t count) -> Collective {
            return {[=] {
              MPI_Allreduce(MPI_IN_PLACE, data, static_cast<int>(count),
                            MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
            }};
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
      "gloo", [=](float *data, size_t count) -> Collective {
        // Shared: std::function needs a copyable callable.
        auto opts = std::make_shared<gloo::AllreduceOptions>(context);
        opts->setOutput(data, count);
        opts->setReduceFunction(
            static_cast<void (*)(void *, const void *, const void *, size_t)>(
                &gloo::sum<float>));
        return {[=] { gloo::allreduce(*opts); }};
      }};
}

Backend glooRingChunkedBackend(std::shared_ptr<gloo::Context> context) {
  return {"gloo-rc", [=](float *data, size_t count) -> Collective {
            auto algo = std::make_shared<gloo::AllreduceRingChunked<float>>(
                context, std::vector<float *>{data}, static_cast<int>(count));
            return {[=] { algo->run(); }};
          }};
}

// tfc's binding on its own: the communicator's in-place sum on the buffer.
Backend tfcCommBackend(std::shared_ptr<tfc::distribute::MpiCommunicator> comm) {
  return {"tfc comm",
          [=](float *data, size_t count) -> Collective {
            return {[=] {
              comm->all_reduce_sum(data, data, static_cast<int64_t>(count),
                                   tfc::DType::Float32);
            }};
          },
          /*summarize=*/true};
}

// The input and latest result of an out-of-place tfc all-reduce on the
// buffer `data`.
struct TfcState {
  float *data;
  size_t count;
  tfc::Tensor input, output;

  void load() {
    input = tfc::from_vector(std::vector<float>(data, data + count),
                             {static_cast<int64_t>(count)});
  }
  void store() {
    std::vector<float> result = output.to_vector<float>();
    if (result.size() != count)
      fail("tfc all_reduce returned %zu elements, expected %zu", result.size(),
           count);
    std::copy(result.begin(), result.end(), data);
  }
};

// Binds `run` to a fresh TfcState loaded from the buffer.
Collective tfcCollective(float *data, size_t count,
                         std::function<void(TfcState &)> run) {
  auto state = std::make_shared<TfcState>(TfcState{data, count, {}, {}});
  state->load();
  return {[=] { run(*state); }, [=] { state->load(); },
          [=] { state->store(); }};
}

Backend tfcEagerBackend() {
  return {"tfc eager",
          [](float *data, size_t count) {
            return tfcCollective(data, count, [](TfcState &s) {
              s.output = tfc::distribute::all_reduce(s.input);
            });
          },
          /*summarize=*/true};
}

tfc::Tensor allReduceStep(const tfc::Tensor &x) {
  return tfc::distribute::all_reduce(x);
}

// A tfc::function per buffer size (one shape each, so no retrace warning),
// traced and compiled in prepare(): that first call is not timed.
Backend tfcCompiledBackend() {
  return {"tfc compiled",
          [](float *data, size_t count) {
            tfc::FunctionOptions options;
            options.name = "all_reduce_step";
            auto step = tfc::function(&allReduceStep, options);
            Collective c = tfcCollective(
                data, count, [=](TfcState &s) { s.output = step(s.input); });
            c.run(); // Trace and compile for this shape.
            return c;
          },
          /*summarize=*/true};
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

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

//===----------------------------------------------------------------------===//
// Correctness
//===----------------------------------------------------------------------===//

// Small integers, so that every sum below is exact in float32.
float pattern(size_t i) { return static_cast<float>(i % 251 + 1); }

// Timed in-place calls reduce their own output again, which would grow by a
// factor n per call and overflow; values that sum to zero over the ranks stay
// exact (all zero from the first call on). Out-of-place calls (tfc eager and
// compiled) reduce the same input each time: their result is all zero too.
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

// Median seconds per call of each library on the first `count` floats of
// `data`, checked as described at the top of the file. The libraries'
// repetitions are interleaved (in round r, library (k + r) % n goes k-th),
// so that slow spells of the machine fall on all of them alike: on a 2-core
// VM, library-after-library timing gave the same MPI call times up to 2x
// apart from one run to the next.
std::vector<double> measure(const std::vector<Backend> &backends, float *data,
                            size_t count, const Options &options) {
  int rank = worldRank(), size = worldSize();
  size_t n = backends.size();
  // The in-place libraries share the buffer: zero-sum values stay zero
  // whichever reduces them. Out-of-place ones load them in prepare().
  fillZeroSum(data, count, rank, size);
  std::vector<Collective> calls;
  for (const Backend &backend : backends)
    calls.push_back(backend.prepare(data, count));
  std::vector<long> iters;
  for (const Collective &c : calls) {
    c.run(); // Warm-up: first-touch of internal buffers, connections, caches.
    iters.push_back(calibrateIters(c.run, kTargetSeconds * options.itersScale));
  }
  std::vector<std::vector<double>> perCall(n);
  for (int rep = 0; rep < kReps; ++rep)
    for (size_t k = 0; k < n; ++k) {
      size_t b = (k + size_t(rep)) % n;
      perCall[b].push_back(timeCalls(calls[b].run, iters[b]) / iters[b]);
    }
  std::vector<double> seconds;
  for (const std::vector<double> &times : perCall)
    seconds.push_back(median(times));

  std::string inPlace;
  for (size_t b = 0; b < n; ++b)
    if (!calls[b].store)
      inPlace += (inPlace.empty() ? "" : ", ") + std::string(backends[b].name);
  if (!inPlace.empty())
    check(data, count, 0.0f, inPlace.c_str(), "after the timed calls");
  for (size_t b = 0; b < n; ++b)
    if (calls[b].store) {
      calls[b].store();
      check(data, count, 0.0f, backends[b].name, "after the timed calls");
    }

  float rankSum = static_cast<float>(size * (size + 1) / 2);
  for (size_t b = 0; b < n; ++b) {
    fillRankValues(data, count, rank);
    if (calls[b].load)
      calls[b].load();
    calls[b].run();
    if (calls[b].store)
      calls[b].store();
    check(data, count, rankSum, backends[b].name, "sum of rank values");
  }
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

// Width of a backend's time column: room for "<name> us".
int timeWidth(const Backend &backend) {
  return std::max(9, static_cast<int>(std::strlen(backend.name)) + 3);
}

void printHeader(const std::vector<Backend> &backends,
                 gloo::Context &glooContext, int size) {
  char mpiVersion[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(mpiVersion, &len);
  // This rank's listening address towards rank 1: shows gloo's interface.
  std::string glooAddress = glooContext.getPair(1)->address().str();
  const char *ref = backends.front().name;
  std::printf("# %s\n", firstLine(mpiVersion).c_str());
  std::printf("# gloo %d.%d.%d (GLOO_VERSION %d), tcp transport on %s\n",
              GLOO_VERSION_MAJOR, GLOO_VERSION_MINOR, GLOO_VERSION_PATCH,
              GLOO_VERSION, glooAddress.c_str());
  std::printf("# tfc %s, communicator \"%s\" (MpiCommunicator on %s)\n",
              tfc::version(), tfc::distribute::communicator()->name().c_str(),
              ref);
  std::printf("# %d ranks, float32 sum, median of %d repetitions; us per "
              "call; GB/s: %s's busbw = bytes/time * 2(n-1)/n; x %s = time / "
              "%s's time\n",
              size, kReps, ref, ref, ref);
  std::printf("%10s", "bytes");
  for (const Backend &backend : backends) {
    std::printf(" %*s", timeWidth(backend),
                (std::string(backend.name) + " us").c_str());
    if (&backend == &backends.front())
      std::printf(" %7s", "GB/s");
    else
      std::printf(" %6s", ("x " + std::string(ref)).c_str());
  }
  std::printf("\n");
}

void printRow(const std::vector<Backend> &backends, size_t bytes,
              const std::vector<double> &seconds, int size) {
  std::printf("%10zu", bytes);
  for (size_t b = 0; b < seconds.size(); ++b) {
    std::printf(" %*.1f", timeWidth(backends[b]), seconds[b] * 1e6);
    if (b == 0)
      std::printf(" %7.3f", busBandwidth(bytes, seconds[b], size));
    else
      std::printf(" %6.2f", seconds[b] / seconds[0]);
  }
  std::printf("\n");
  std::fflush(stdout);
}

std::string sizeText(size_t bytes) {
  char text[32];
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
    std::snprintf(text, sizeof text, "%zu MB", bytes >> 20);
  else if (bytes >= 1024 && bytes % 1024 == 0)
    std::snprintf(text, sizeof text, "%zu KB", bytes >> 10);
  else
    std::snprintf(text, sizeof text, "%zu B", bytes);
  return text;
}

// Per summarized backend: its worst time ratio to the reference over the
// sizes >= 1 MB and its ratio at the smallest size; the goal is at least
// 0.8 of the reference's bandwidth and rate (a time ratio <= 1.25).
void printSummary(const std::vector<Backend> &backends,
                  const std::vector<size_t> &sizes,
                  const std::vector<std::vector<double>> &rows) {
  constexpr double kGoal = 0.8;
  const char *ref = backends.front().name;
  std::printf("# goal: >= %.1f of %s's bandwidth (sizes >= 1 MB) and rate "
              "(%s), i.e. time ratio <= %.2f\n",
              kGoal, ref, sizeText(sizes.front()).c_str(), 1 / kGoal);
  for (size_t b = 1; b < backends.size(); ++b) {
    if (!backends[b].summarize)
      continue;
    double worst = 0;
    size_t worstBytes = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      double ratio = rows[i][b] / rows[i][0];
      if (sizes[i] >= (1 << 20) && ratio > worst) {
        worst = ratio;
        worstBytes = sizes[i];
      }
    }
    double latency = rows.front()[b] / rows.front()[0];
    std::printf("# %-12s", backends[b].name);
    if (worstBytes)
      std::printf(" bandwidth: worst x %s %.2f at %s (%.2f of it)", ref, worst,
                  sizeText(worstBytes).c_str(), 1 / worst);
    else
      std::printf(" bandwidth: no size >= 1 MB");
    std::printf("; latency: x %s %.2f at %s (%.2f of it); %s\n", ref, latency,
                sizeText(sizes.front()).c_str(), 1 / latency,
                (!worstBytes || 1 / worst >= kGoal) && 1 / latency >= kGoal
                    ? "meets the goal"
                    : "BELOW the goal");
  }
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
    // tfc's communicator: reuses MPI_COMM_WORLD (MPI is initialised).
    std::shared_ptr<tfc::distribute::MpiCommunicator> comm =
        tfc::distribute::init_mpi();
    std::shared_ptr<gloo::Context> glooContext = connectGloo();
    std::vector<Backend> backends = {mpiBackend(),
                                     glooBackend(glooContext),
                                     glooRingChunkedBackend(glooContext),
                                     tfcCommBackend(comm),
                                     tfcEagerBackend(),
                                     tfcCompiledBackend()};
    if (rank == 0)
      printHeader(backends, *glooContext, size);

    std::vector<float> buffer(options.maxBytes / sizeof(float));
    std::vector<size_t> sizes;
    std::vector<std::vector<double>> rows;
    for (size_t bytes = options.minBytes; bytes <= options.maxBytes;
         bytes *= 4) {
      size_t count = bytes / sizeof(float);
      std::vector<double> seconds =
          measure(backends, buffer.data(), count, options);
      sizes.push_back(count * sizeof(float));
      rows.push_back(seconds);
      if (rank == 0)
        printRow(backends, count * sizeof(float), seconds, size);
    }
    if (rank == 0)
      printSummary(backends, sizes, rows);
  } catch (const std::exception &e) {
    fail("%s", e.what());
  }

  MPI_Finalize();
  return 0;
}
