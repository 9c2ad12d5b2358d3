//===- Strategy.cpp - Gradient buckets, batch parts -----------------------===//

#include "tfc/distribute/Strategy.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"

#include <map>
#include <string>

namespace tfc::distribute {

MultiWorkerMirroredStrategy::MultiWorkerMirroredStrategy(
    StrategyOptions options)
    : options_(options) {
  if (options_.bucket_bytes < 1)
    throw InvalidArgumentError(
        "MultiWorkerMirroredStrategy: bucket_bytes must be >= 1, got " +
        std::to_string(options_.bucket_bytes));
}

std::vector<Tensor> MultiWorkerMirroredStrategy::reduce_gradients(
    const std::vector<Tensor> &grads, int64_t rows,
    std::vector<Tensor> *also_sum) const {
  if (size() == 1)
    return grads;
  if (also_sum)
    for (const Tensor &t : *also_sum)
      if (!t.defined() || !is_floating(t.dtype()))
        throw InvalidArgumentError(
            "MultiWorkerMirroredStrategy: also_sum holds an undefined or "
            "non-float tensor");
  // Buckets per dtype, filled from the last gradient back (the backward
  // pass produces the last layer's first).
  struct Bucket {
    DType dtype;
    std::vector<size_t> members;
    int64_t bytes = 0;
  };
  std::vector<Bucket> buckets;
  std::map<DType, size_t> open;
  for (size_t k = grads.size(); k-- > 0;) {
    const Tensor &g = grads[k];
    if (!g.defined())
      continue;
    if (!is_floating(g.dtype()))
      throw InvalidArgumentError(
          "MultiWorkerMirroredStrategy: gradient " + std::to_string(k) +
          " is " + std::string(to_string(g.dtype())) + ", not a float");
    int64_t bytes = g.numel() * int64_t(dtype_size(g.dtype()));
    auto it = open.find(g.dtype());
    if (it == open.end() ||
        (!buckets[it->second].members.empty() &&
         buckets[it->second].bytes + bytes > options_.bucket_bytes)) {
      buckets.push_back({g.dtype(), {}, 0});
      open[g.dtype()] = buckets.size() - 1;
      it = open.find(g.dtype());
    }
    buckets[it->second].members.push_back(k);
    buckets[it->second].bytes += bytes;
  }
  if (buckets.empty() && also_sum && !also_sum->empty())
    buckets.push_back({DType::Float32, {}, 0}); // the sums travel alone
  std::vector<Tensor> out(grads.size());
  Tensor total; // sum of the replicas' rows, from the first bucket
  for (size_t b = 0; b < buckets.size(); ++b) {
    const Bucket &bk = buckets[b];
    Tensor n = cast(constant(double(rows)), bk.dtype);
    std::vector<Tensor> parts;
    for (size_t k : bk.members)
      parts.push_back(reshape(grads[k] * n, {-1}));
    // The first bucket also carries the rows, then the plain sums.
    int64_t extra = 0;
    if (b == 0) {
      parts.push_back(reshape(n, {1}));
      if (also_sum)
        for (const Tensor &t : *also_sum) {
          parts.push_back(reshape(cast(t, bk.dtype), {-1}));
          extra += t.numel();
        }
    }
    Tensor flat = parts.size() == 1 ? parts[0] : concat(parts, 0);
    Tensor summed = all_reduce(flat, ReduceOp::Sum);
    if (b == 0) {
      int64_t at = summed.shape()[0] - extra - 1;
      total = reshape(slice(summed, {at}, {1}), {});
      if (also_sum)
        for (Tensor &t : *also_sum) {
          ++at;
          Tensor s = slice(summed, {at}, {t.numel()});
          at += t.numel() - 1;
          t = cast(reshape(s, t.shape()), t.dtype());
        }
    }
    Tensor scale = 1.0 / cast(total, bk.dtype);
    int64_t at = 0;
    for (size_t k : bk.members) {
      int64_t len = grads[k].numel();
      out[k] = reshape(slice(summed, {at}, {len}), grads[k].shape()) * scale;
      at += len;
    }
  }
  return out;
}

std::vector<Tensor> MultiWorkerMirroredStrategy::local_part(
    const std::vector<Tensor> &batch) const {
  const int n = size();
  if (n == 1 || batch.empty())
    return batch;
  const int64_t rows = batch[0].shape().empty() ? 0 : batch[0].shape()[0];
  if (rows < n)
    return {};
  const int r = rank();
  const int64_t begin = rows * r / n, end = rows * (r + 1) / n;
  std::vector<Tensor> part;
  for (const Tensor &t : batch) {
    std::vector<int64_t> b(size_t(t.rank()), 0), s = t.shape();
    b[0] = begin;
    s[0] = end - begin;
    part.push_back(slice(t, b, s));
  }
  return part;
}

} // namespace tfc::distribute
