//===- Mpi.h - tfc's collectives on Open MPI --------------------*- C++ -*-===//
//
// libtfc_distribute: the Communicator (tfc/runtime/Collectives.h) on MPI,
// for programs started by `mpirun -np N prog` (docs/distributed.md). A
// library of its own, so that libtfc.so does not load MPI.
//
//   #include <tfc/distribute/Mpi.h>
//   auto comm = tfc::distribute::init_mpi();   // every replica
//   // ... tfc::distribute::all_reduce, fit() with a strategy ...
//
// A replica that dies ends the job: mpirun stops the others and names the
// lost rank. Errors MPI returns become tfc::RuntimeError.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_DISTRIBUTE_MPI_H
#define TFC_DISTRIBUTE_MPI_H

#include "tfc/runtime/Collectives.h"

#include <memory>
#include <string>

namespace tfc::distribute {

class MpiCommunicator : public Communicator {
public:
  /// MPI_COMM_WORLD; initialises MPI if nobody has (and finalises it at
  /// exit). Without mpirun: one replica.
  static std::shared_ptr<MpiCommunicator> create();
  ~MpiCommunicator() override;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  void all_reduce_sum(const void *send, void *recv, int64_t count,
                      DType dtype) override;
  void broadcast(void *data, int64_t bytes, int root) override;
  void barrier() override;
  std::string name() const override { return "mpi"; }
  /// MPI_Get_library_version's first line.
  static std::string library_version();

private:
  MpiCommunicator(int rank, int size) : rank_(rank), size_(size) {}
  int rank_, size_;
};

/// MpiCommunicator::create(), made the process's communicator.
std::shared_ptr<MpiCommunicator> init_mpi();

} // namespace tfc::distribute

#endif // TFC_DISTRIBUTE_MPI_H
