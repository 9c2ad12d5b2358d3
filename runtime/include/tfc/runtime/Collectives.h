//===- Collectives.h - The communicator collectives run on ------*- C++ -*-===//
//
// MLIR- and library-free: the interface a collective library implements
// (tfc/distribute/Mpi.h binds Open MPI), the process-wide communicator the
// all_reduce kernel and compiled code use, and the reduction kinds. With
// no communicator set the program is one replica and collectives are
// identities, as under TensorFlow's default strategy.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_COLLECTIVES_H
#define TFC_RUNTIME_COLLECTIVES_H

#include "tfc/runtime/DType.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tfc::distribute {

/// How all_reduce combines the replicas' values (tf.distribute.ReduceOp).
enum class ReduceOp { Sum, Mean };

/// A group of processes (replicas) that run the same program. All calls
/// are collective: every replica makes them in the same order. A lost peer
/// is an error (tfc::RuntimeError naming it) or ends the job, never a hang
/// (the binding's docs say which).
class Communicator {
public:
  virtual ~Communicator();
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Element-wise sum over the replicas of the `count` elements of `dtype`
  /// (int32, int64, float32, float64) at `send`, written to `recv` (the
  /// same pointer: in place; else the buffers do not overlap). Every
  /// replica receives the same bits.
  virtual void all_reduce_sum(const void *send, void *recv, int64_t count,
                              DType dtype) = 0;
  /// `bytes` at `data` on replica `root` copied to every replica.
  virtual void broadcast(void *data, int64_t bytes, int root) = 0;
  virtual void barrier() = 0;
  /// "mpi", ... (messages, logs).
  virtual std::string name() const = 0;
};

/// The communicator of this process; null: one replica.
std::shared_ptr<Communicator> communicator();
/// Sets it (null: back to one replica). Not while collectives are running.
void set_communicator(std::shared_ptr<Communicator> comm);

/// rank() and size() of communicator(), 0 and 1 without one.
int replica_rank();
int num_replicas();

/// all_reduce_sum from `send` to `recv`, then / size for Mean (integers
/// truncate toward zero), on the current communicator; a copy (or nothing,
/// in place) for one replica.
void all_reduce(const void *send, void *recv, int64_t count, DType dtype,
                ReduceOp op);

} // namespace tfc::distribute

#endif // TFC_RUNTIME_COLLECTIVES_H
