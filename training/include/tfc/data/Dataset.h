//===- Dataset.h - tf.data-style input pipelines ----------------*- C++ -*-===//
//
// A Dataset is a cheap handle (copies share one pipeline) to a lazily
// evaluated input pipeline whose elements are std::vector<Tensor>, like
// tf.data.Dataset:
//
//   auto ds = data::Dataset::from_tensor_slices({x, y})
//                 .shuffle(60000, 42)
//                 .batch(128)
//                 .prefetch(data::AUTOTUNE);
//   for (const std::vector<Tensor> &batch : ds) { ... }
//
// Nothing runs until iteration; each begin() starts a new pass. Elements
// that are rows of a from_tensor_slices source (through shuffle, take,
// skip, shard, repeat and cache) are tracked as row indices, so batch()
// makes one slice or gather per component instead of stacking rows.
// docs/data.md has the details.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_DATA_DATASET_H
#define TFC_DATA_DATASET_H

#include "tfc/runtime/Tensor.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

namespace tfc::data {

/// tf.data.AUTOTUNE: let the dataset pick a parallelism or buffer size.
inline constexpr int AUTOTUNE = -1;

/// cardinality() of an endless dataset.
inline constexpr int64_t INFINITE_CARDINALITY = -1;
/// cardinality() when the size is not known before iterating (filter).
inline constexpr int64_t UNKNOWN_CARDINALITY = -2;

using Element = std::vector<Tensor>;

namespace detail {
class Node;
} // namespace detail

class Dataset {
public:
  class iterator;

  /// An empty handle: every method but defined() throws
  /// InvalidArgumentError.
  Dataset() = default;

  /// One element per row: element i is {t[i] for t in tensors}. The tensors
  /// must be concrete, of rank >= 1 and share their first dim (else
  /// InvalidArgumentError). Rows are zero-copy views of the tensors.
  static Dataset from_tensor_slices(std::vector<Tensor> tensors);

  /// A buffer-based shuffle like tf.data's: fills a buffer of `buffer_size`
  /// elements, then repeatedly emits a uniformly drawn buffer element and
  /// refills its slot (buffer_size >= the dataset's size is a uniform
  /// permutation). With a seed, pass k of every dataset shuffled with that
  /// seed uses the same order; `reshuffle_each_iteration` makes pass k
  /// differ from pass 0 (else every pass repeats pass 0's order). Without a
  /// seed, the order is drawn from std::random_device.
  Dataset shuffle(int64_t buffer_size,
                  std::optional<uint64_t> seed = std::nullopt,
                  bool reshuffle_each_iteration = true) const;

  /// Stacks `batch_size` consecutive elements along a new first dim; the
  /// last batch may be smaller unless `drop_remainder`. Elements of one
  /// batch must have the same number of components, dtypes and shapes.
  Dataset batch(int64_t batch_size, bool drop_remainder = false) const;

  /// Applies `fn` to each element. num_parallel_calls > 1 (or AUTOTUNE:
  /// one per core, at least 2) runs `fn` on that many worker threads with
  /// the elements kept in order; 1 runs it on the iterating thread.
  Dataset
  map(std::function<std::vector<Tensor>(const std::vector<Tensor> &)> fn,
      int num_parallel_calls = 1) const;

  /// Keeps the elements for which `predicate` returns a concrete Bool
  /// scalar that is true.
  Dataset
  filter(std::function<Tensor(const std::vector<Tensor> &)> predicate) const;

  /// The dataset `count` times over (-1: forever). An upstream that yields
  /// nothing in a pass ends the repetition.
  Dataset repeat(int64_t count = -1) const;
  /// The first `count` elements (-1: all).
  Dataset take(int64_t count) const;
  /// All but the first `count` elements (-1: skips everything).
  Dataset skip(int64_t count) const;

  /// Computes up to `buffer_size` elements ahead (AUTOTUNE: 2) on a
  /// background thread. Destroying the iterator stops the thread; an error
  /// in the pipeline is rethrown to the iterating thread in order.
  Dataset prefetch(int64_t buffer_size) const;

  /// The first complete pass of the pipeline before it is kept in memory
  /// and later passes replay it (a pass abandoned early is not kept).
  Dataset cache() const;

  /// Elements i with i % num_shards == index.
  Dataset shard(int64_t num_shards, int64_t index) const;

  /// The number of elements; INFINITE_CARDINALITY (-1) or
  /// UNKNOWN_CARDINALITY (-2), as tf.data computes them.
  int64_t cardinality() const;

  /// Starts a new pass (computing its first element).
  iterator begin() const;
  iterator end() const;

  bool defined() const { return bool(node_); }

private:
  explicit Dataset(std::shared_ptr<const detail::Node> node);
  const detail::Node &node(const char *method) const;
  std::shared_ptr<const detail::Node> node_;
};

/// An input iterator over one pass; copies share the pass. An exception
/// thrown while computing an element (by a user function, a kernel, a
/// worker thread) propagates from begin() or operator++ and ends the pass.
class Dataset::iterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = Element;
  using difference_type = std::ptrdiff_t;
  using pointer = const Element *;
  using reference = const Element &;

  iterator() = default;
  reference operator*() const;
  pointer operator->() const { return &**this; }
  iterator &operator++();
  void operator++(int) { ++*this; }
  /// Equal when both are at the end, or are the same pass at the same
  /// element.
  friend bool operator==(const iterator &a, const iterator &b) {
    return a.state_ == b.state_;
  }

private:
  friend class Dataset;
  struct State;
  explicit iterator(std::shared_ptr<State> state) : state_(std::move(state)) {}
  std::shared_ptr<State> state_; ///< Null at the end.
};

} // namespace tfc::data

#endif // TFC_DATA_DATASET_H
