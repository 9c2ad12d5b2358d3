//===- Distribute.h - Collectives over the replicas -------------*- C++ -*-===//
//
// Data-parallel programs run one process per replica, each with the same
// program. These functions talk to the others through the communicator a
// binding sets (tfc/distribute/Mpi.h: Open MPI); without one the program
// is a single replica and they are identities. docs/distributed.md.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_DISTRIBUTE_H
#define TFC_FRONTEND_DISTRIBUTE_H

#include "tfc/frontend/Variable.h"
#include "tfc/runtime/Collectives.h"
#include "tfc/runtime/Tensor.h"

#include <source_location>
#include <vector>

namespace tfc::distribute {

/// This process's replica index in [0, num_replicas()).
int rank();
/// The number of replicas (1 without a communicator).
int size();

/// The element-wise sum or mean of `x` over every replica, the same bits
/// on each (Horovod's allreduce). An op like any other: eager, traced into
/// a compiled function as `tfc.all_reduce`, differentiable (its gradient
/// is the all_reduce of the output gradient). Numeric dtypes.
Tensor all_reduce(const Tensor &x, ReduceOp op = ReduceOp::Sum,
                  std::source_location loc = std::source_location::current());

/// Replica `root`'s value of each Variable assigned to the Variable on
/// every replica (the shapes and dtypes must agree). Eager only.
void broadcast(const std::vector<Variable> &vars, int root = 0,
               std::source_location loc = std::source_location::current());
/// Replica `root`'s `x` (same shape and dtype on every replica). Eager only.
Tensor broadcast(const Tensor &x, int root = 0,
                 std::source_location loc = std::source_location::current());

/// Returns when every replica has called it.
void barrier();

} // namespace tfc::distribute

#endif // TFC_FRONTEND_DISTRIBUTE_H
