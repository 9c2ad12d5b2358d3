//===- Strategy.h - Data-parallel training across processes -----*- C++ -*-===//
//
// tf.distribute.MultiWorkerMirroredStrategy for keras::Model: one replica
// per process, all with the same model; given to compile(), fit then
//  - broadcasts the weights and optimizer slots from replica 0 when the
//    train step is first built,
//  - gives each replica its part of every global batch (fit's batch_size
//    is the global batch, as in Keras),
//  - averages the gradients inside the compiled step with tfc.all_reduce
//    over fused buckets (Horovod's tensor fusion, DDP's buckets),
//  - sums the metrics' state across replicas before reading them,
//  - shows the progress bar and runs ModelCheckpoint/CSVLogger on replica 0.
// The replicas talk through distribute::communicator() (tfc/distribute/
// Mpi.h sets one); without one the strategy is a single replica.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_DISTRIBUTE_STRATEGY_H
#define TFC_DISTRIBUTE_STRATEGY_H

#include "tfc/frontend/Distribute.h"
#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tfc::distribute {

struct StrategyOptions {
  /// Gradients are concatenated into buckets of at most this many bytes,
  /// one all_reduce each (a single larger gradient is its own bucket).
  /// PyTorch DDP's default bucket_cap_mb is 25.
  int64_t bucket_bytes = int64_t(25) << 20;
};

class MultiWorkerMirroredStrategy {
public:
  explicit MultiWorkerMirroredStrategy(StrategyOptions options = {});

  int num_replicas_in_sync() const { return size(); }
  /// This process's replica (0 is the chief).
  int replica_id() const { return rank(); }
  bool is_chief() const { return rank() == 0; }
  const StrategyOptions &options() const { return options_; }

  /// The replicas' gradients combined as one batch of all their rows:
  /// sum_r rows_r * g_r / sum_r rows_r, where g_r are the mean gradients
  /// of replica r's `rows` rows (float32/float64). Traceable; one
  /// all_reduce per bucket. `also_sum` (optional): float tensors summed
  /// over the replicas in the first bucket's collective, unweighted, and
  /// replaced by their sums (fit sums its metrics' updates so).
  std::vector<Tensor>
  reduce_gradients(const std::vector<Tensor> &grads, int64_t rows,
                   std::vector<Tensor> *also_sum = nullptr) const;

  /// Rows [n * r / N, n * (r + 1) / N) of each tensor for replica r of N
  /// (n: their common first dim). Empty when n < N: every replica then
  /// skips the batch, so all run the same number of steps.
  std::vector<Tensor> local_part(const std::vector<Tensor> &batch) const;

private:
  StrategyOptions options_;
};

} // namespace tfc::distribute

#endif // TFC_DISTRIBUTE_STRATEGY_H
