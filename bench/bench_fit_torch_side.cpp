//===- bench_fit_torch_side.cpp - libtorch's loop for tfc-bench-fit-torch -===//
//
// libtorch's half of bench_fit_torch.cpp (fit_torch_side.h): the training
// loop a libtorch user writes for the same models, optimizer, loss and batch
// as tfc's Model::fit. Compiled as its own C++17 translation unit (libtorch's
// headers need exceptions and C++17).
//
//   model->train();
//   perm = randperm(n)                       // once per epoch
//   for each batch:  idx = perm[b*B : (b+1)*B]
//     xb = x.index_select(0, idx), yb = y.index_select(0, idx)
//     optimizer.zero_grad(); loss = cross_entropy(model(xb), yb);
//     loss.backward(); optimizer.step(); running += loss.item()
//
// Adam's epsilon is Keras's 1e-7 (libtorch's default is 1e-8). The per-step
// loss.item() mirrors fit, which reads its loss tracker after every step.
//
//===----------------------------------------------------------------------===//

#include "fit_torch_side.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>

namespace fitbench {

namespace {

namespace nn = torch::nn;

/// The models of bench_fit_torch.cpp in libtorch's NCHW layout. The CNN's
/// flatten runs over (C, H, W) where Keras's runs over (H, W, C): the dense
/// layer sees the same numbers in another order.
nn::Sequential makeModel(Net net) {
  if (net == Net::Mlp)
    return nn::Sequential(nn::Flatten(), nn::Linear(784, 256), nn::ReLU(),
                          nn::Linear(256, 128), nn::ReLU(),
                          nn::Linear(128, 10));
  return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 32, 3)), nn::ReLU(),
                        nn::MaxPool2d(nn::MaxPool2dOptions(2)),
                        nn::Conv2d(nn::Conv2dOptions(32, 64, 3)), nn::ReLU(),
                        nn::MaxPool2d(nn::MaxPool2dOptions(2)), nn::Flatten(),
                        nn::Dropout(0.5), nn::Linear(5 * 5 * 64, 10));
}

/// The initial weights (and dropout masks) from libtorch's global generator.
nn::Sequential seededModel(Net net, uint64_t seed) {
  torch::manual_seed(seed);
  return makeModel(net);
}

class Trainer final : public TorchTrainer {
public:
  Trainer(Net net, const float *x, const int32_t *y, int64_t n, int64_t batch,
          uint64_t seed)
      : n_(n), batch_(batch), gen_(at::detail::createCPUGenerator(seed)),
        model_(seededModel(net, seed)),
        opt_(model_->parameters(), torch::optim::AdamOptions(1e-3).eps(1e-7)) {
    // NHWC -> NCHW, once, outside any timing (copies: the callers' buffers
    // are theirs).
    x_ = torch::from_blob(const_cast<float *>(x), {n, 28, 28, 1})
             .permute({0, 3, 1, 2})
             .contiguous()
             .clone();
    y_ = torch::from_blob(const_cast<int32_t *>(y), {n}, torch::kInt32)
             .to(torch::kLong);
  }

  EpochLosses epoch() override {
    model_->train();
    torch::Tensor perm = torch::randperm(n_, gen_);
    EpochLosses r;
    int64_t steps = 0;
    for (int64_t b = 0; b < n_; b += batch_, ++steps) {
      torch::Tensor idx = perm.slice(0, b, std::min(n_, b + batch_));
      torch::Tensor xb = x_.index_select(0, idx);
      torch::Tensor yb = y_.index_select(0, idx);
      opt_.zero_grad();
      torch::Tensor loss =
          torch::nn::functional::cross_entropy(model_->forward(xb), yb);
      loss.backward();
      opt_.step();
      double l = loss.item<double>();
      if (steps == 0)
        r.first = l;
      r.mean += l;
    }
    r.mean /= double(std::max<int64_t>(steps, 1));
    return r;
  }

  double accuracy(const float *x, const int32_t *y, int64_t n) override {
    torch::NoGradGuard noGrad;
    model_->eval();
    torch::Tensor xs = torch::from_blob(const_cast<float *>(x), {n, 28, 28, 1})
                           .permute({0, 3, 1, 2})
                           .contiguous();
    torch::Tensor ys =
        torch::from_blob(const_cast<int32_t *>(y), {n}, torch::kInt32)
            .to(torch::kLong);
    int64_t right = 0;
    for (int64_t b = 0; b < n; b += 256) {
      int64_t e = std::min(n, b + 256);
      torch::Tensor pred = model_->forward(xs.slice(0, b, e)).argmax(1);
      right += pred.eq(ys.slice(0, b, e)).sum().item<int64_t>();
    }
    return double(right) / double(n);
  }

private:
  int64_t n_, batch_;
  at::Generator gen_;
  nn::Sequential model_;
  torch::optim::Adam opt_;
  torch::Tensor x_, y_;
};

} // namespace

TorchTrainer::~TorchTrainer() = default;

std::unique_ptr<TorchTrainer> TorchTrainer::create(Net net, const float *x,
                                                   const int32_t *y, int64_t n,
                                                   int64_t batch,
                                                   uint64_t seed) {
  return std::make_unique<Trainer>(net, x, y, n, batch, seed);
}

void torchSetNumThreads(int n) {
  if (torch::get_num_threads() != n)
    torch::set_num_threads(n);
}

std::string torchDescription() {
  return std::string("libtorch ") + TORCH_VERSION +
         (at::hasMKLDNN() ? ", oneDNN" : ", native conv");
}

} // namespace fitbench
