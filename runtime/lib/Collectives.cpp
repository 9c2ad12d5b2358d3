//===- Collectives.cpp - The process's communicator, all_reduce -----------===//
//
// The communicator is set once by a binding (tfc/distribute/Mpi.h) before
// training and read on every collective, so reads take a shared_ptr copy
// under a mutex (a collective costs microseconds; the lock nanoseconds).
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Collectives.h"

#include "tfc/runtime/Error.h"

#include <cstring>
#include <mutex>

namespace tfc::distribute {

Communicator::~Communicator() = default;

namespace {
std::mutex &commMutex() {
  static std::mutex m;
  return m;
}
std::shared_ptr<Communicator> &commSlot() {
  static std::shared_ptr<Communicator> c;
  return c;
}

template <class T> void divideBy(void *data, int64_t count, int size) {
  T *p = static_cast<T *>(data);
  for (int64_t i = 0; i < count; ++i)
    p[i] /= static_cast<T>(size);
}
} // namespace

std::shared_ptr<Communicator> communicator() {
  std::lock_guard<std::mutex> lock(commMutex());
  return commSlot();
}

void set_communicator(std::shared_ptr<Communicator> comm) {
  std::lock_guard<std::mutex> lock(commMutex());
  commSlot() = std::move(comm);
}

int replica_rank() {
  auto c = communicator();
  return c ? c->rank() : 0;
}

int num_replicas() {
  auto c = communicator();
  return c ? c->size() : 1;
}

void all_reduce(const void *send, void *recv, int64_t count, DType dtype,
                ReduceOp op) {
  std::shared_ptr<Communicator> c = communicator();
  if (!c || c->size() == 1 || count == 0) {
    if (send != recv && count > 0)
      std::memcpy(recv, send, size_t(count) * dtype_size(dtype));
    return;
  }
  c->all_reduce_sum(send, recv, count, dtype);
  void *data = recv;
  if (op != ReduceOp::Mean)
    return;
  switch (dtype) {
  case DType::Int32:
    return divideBy<int32_t>(data, count, c->size());
  case DType::Int64:
    return divideBy<int64_t>(data, count, c->size());
  case DType::Float32:
    return divideBy<float>(data, count, c->size());
  case DType::Float64:
    return divideBy<double>(data, count, c->size());
  case DType::Bool:
    break;
  }
  throw InvalidArgumentError("all_reduce: bool tensors cannot be reduced");
}

} // namespace tfc::distribute
