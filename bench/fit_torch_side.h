//===- fit_torch_side.h - libtorch's training loop for tfc-bench-fit-torch ===//
//
// The interface between bench_fit_torch.cpp (tfc, C++20) and
// bench_fit_torch_side.cpp (libtorch, C++17, its own translation unit):
// plain C++ types only, so neither side sees the other's headers.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BENCH_FIT_TORCH_SIDE_H
#define TFC_BENCH_FIT_TORCH_SIDE_H

#include <cstdint>
#include <memory>
#include <string>

namespace fitbench {

/// The two models of the comparison (fit_cases.h builds tfc's).
enum class Net { Mlp, Cnn };

/// The losses of one epoch: its first step's and the mean over its steps.
struct EpochLosses {
  double first = 0;
  double mean = 0;
};

/// libtorch's idiomatic training loop over `n` examples: a torch::nn
/// Sequential, torch::optim::Adam, cross_entropy on logits, batches taken
/// from pre-made tensors through a shuffled index drawn per epoch.
class TorchTrainer {
public:
  /// `x`: n images of 28x28x1 float32 (NHWC, laid out here once as libtorch's
  /// NCHW); `y`: n labels in 0..9. Both are copied.
  static std::unique_ptr<TorchTrainer> create(Net net, const float *x,
                                              const int32_t *y, int64_t n,
                                              int64_t batch, uint64_t seed);
  virtual ~TorchTrainer();
  /// One pass over the n examples (the last batch may be smaller).
  virtual EpochLosses epoch() = 0;
  /// The fraction of `n` images (NHWC float32) whose argmax is the label,
  /// in eval mode (no dropout).
  virtual double accuracy(const float *x, const int32_t *y, int64_t n) = 0;
};

/// torch::set_num_threads (intra-op threads), when it differs.
void torchSetNumThreads(int n);
/// "libtorch 1.13.1, oneDNN" and the like, for the benchmark's label.
std::string torchDescription();

} // namespace fitbench

#endif // TFC_BENCH_FIT_TORCH_SIDE_H
