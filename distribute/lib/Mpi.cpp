//===- Mpi.cpp - The Communicator on MPI ----------------------------------===//

#include "tfc/distribute/Mpi.h"

#include "tfc/runtime/Error.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <string>

namespace tfc::distribute {

namespace {

void check(int rc, const char *what) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw RuntimeError(std::string("mpi: ") + what +
                     " failed: " + std::string(text, size_t(len)));
}

MPI_Datatype mpiType(DType t) {
  switch (t) {
  case DType::Int32:
    return MPI_INT32_T;
  case DType::Int64:
    return MPI_INT64_T;
  case DType::Float32:
    return MPI_FLOAT;
  case DType::Float64:
    return MPI_DOUBLE;
  case DType::Bool:
    break;
  }
  throw InvalidArgumentError("all_reduce: bool tensors cannot be reduced");
}

void finalizeAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

// MPI counts are int: larger buffers go in chunks.
constexpr int64_t kMaxChunk = INT_MAX / 2;

} // namespace

std::shared_ptr<MpiCommunicator> MpiCommunicator::create() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    // Collectives come from the thread that trains; FUNNELED suffices.
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided),
          "MPI_Init_thread");
    std::atexit(finalizeAtExit);
  }
  // Errors come back as codes (thrown as RuntimeError), not aborts.
  check(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN),
        "MPI_Comm_set_errhandler");
  int rank = 0, size = 1;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  return std::shared_ptr<MpiCommunicator>(new MpiCommunicator(rank, size));
}

MpiCommunicator::~MpiCommunicator() = default;

void MpiCommunicator::all_reduce_sum(const void *send, void *recv,
                                     int64_t count, DType dtype) {
  MPI_Datatype t = mpiType(dtype);
  const char *in = static_cast<const char *>(send);
  char *out = static_cast<char *>(recv);
  const int64_t elt = int64_t(dtype_size(dtype));
  for (int64_t done = 0; done < count;) {
    int64_t n = std::min(kMaxChunk, count - done);
    check(MPI_Allreduce(in == out ? MPI_IN_PLACE : in + done * elt,
                        out + done * elt, int(n), t, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
    done += n;
  }
}

void MpiCommunicator::broadcast(void *data, int64_t bytes, int root) {
  char *p = static_cast<char *>(data);
  for (int64_t done = 0; done < bytes;) {
    int64_t n = std::min(kMaxChunk, bytes - done);
    check(MPI_Bcast(p + done, int(n), MPI_BYTE, root, MPI_COMM_WORLD),
          "MPI_Bcast");
    done += n;
  }
}

void MpiCommunicator::barrier() {
  check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

std::string MpiCommunicator::library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string s(text, size_t(len));
  return s.substr(0, s.find_first_of(",\n"));
}

std::shared_ptr<MpiCommunicator> init_mpi() {
  auto c = MpiCommunicator::create();
  set_communicator(c);
  return c;
}

} // namespace tfc::distribute
