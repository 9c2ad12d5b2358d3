//===- Dataset.cpp - Pipeline nodes and their iterators -------------------===//
//
// A Dataset is a chain of immutable nodes; each pass asks the last node for
// an iterator, which opens its upstream's, and so on. Iterators are
// single-threaded except where a node says otherwise (map's workers,
// prefetch's producer), and they own those threads: destroying an iterator
// stops and joins them.
//
// Rows: while the elements are rows of a from_tensor_slices source, the
// row-preserving nodes (shuffle, take, skip, shard, repeat, cache) iterate
// row indices instead of elements, with the same template code, so that
// batch() can gather whole batches. The order of rows is the order of the
// elements either way.
//
//===----------------------------------------------------------------------===//

#include "tfc/data/Dataset.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>
#include <type_traits>

namespace tfc::data {

namespace {

template <class... A> [[noreturn]] void fail(const char *method, A &&...args) {
  std::ostringstream os;
  os << "Dataset." << method << ": ";
  (os << ... << args);
  throw InvalidArgumentError(os.str());
}

/// "(2, 3) float32"
std::string describe(const Tensor &t) {
  return shape_to_string(t.shape()) + " " + std::string(to_string(t.dtype()));
}

/// A dataset computes concrete tensors even when it is iterated while a
/// function is being traced: its ops run eagerly on the iterating thread.
class EagerScope {
public:
  EagerScope() : prev(tfc::detail::set_active_trace_hook(nullptr)) {}
  ~EagerScope() { tfc::detail::set_active_trace_hook(prev); }
  EagerScope(const EagerScope &) = delete;
  EagerScope &operator=(const EagerScope &) = delete;

private:
  tfc::detail::TraceHook *prev;
};

/// SplitMix64: a small, fast generator whose output is fixed by its seed on
/// every platform (std::uniform_int_distribution is not).
class Rng {
public:
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n), n > 0 (Lemire's multiply-and-reject).
  uint64_t below(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      uint64_t threshold = -n % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

private:
  uint64_t state;
};

/// a * b, saturating at INT64_MAX (both >= 0).
int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

} // namespace

namespace detail {

// In an anonymous namespace: libtfc.map exports every tfc name, and this
// polymorphic template's typeinfo would be one.
namespace {
template <class Item> class Iter {
public:
  virtual ~Iter() = default;
  /// The next item into `out` (replacing it), or false at the end (and on
  /// every call after that).
  virtual bool next(Item &out) = 0;
};
template <class Item> using IterPtr = std::unique_ptr<Iter<Item>>;
} // namespace
using Row = int64_t;

/// The tensors of a from_tensor_slices dataset.
struct Source {
  std::vector<Tensor> tensors;
  int64_t rows = 0;
  std::vector<std::vector<int64_t>> rowShapes; ///< Shapes without dim 0.
  std::vector<size_t> rowBytes;

  /// Component k of row i: a view sharing the tensor's storage.
  Tensor row(size_t k, Row i) const {
    const Tensor &t = tensors[k];
    if (rowBytes[k] == 0)
      return Tensor::empty(t.dtype(), rowShapes[k]);
    char *base = static_cast<char *>(t.raw_data());
    return Tensor::from_storage(t.dtype(), rowShapes[k], t.storage(),
                                base + i * rowBytes[k]);
  }
};

class Node : public std::enable_shared_from_this<Node> {
public:
  virtual ~Node() = default;
  virtual int64_t cardinality() const = 0;
  /// The source whose rows this dataset's elements are, or null.
  virtual std::shared_ptr<const Source> source() const { return nullptr; }

  /// A new pass over the elements.
  IterPtr<Element> elements() const;
  /// A new pass over the row indices; only when source() is not null.
  IterPtr<Row> rows() const { return makeRows(); }

protected:
  /// Elements of a node without a source.
  virtual IterPtr<Element> makeElements() const { return nullptr; }
  /// Rows of a node with a source.
  virtual IterPtr<Row> makeRows() const { return nullptr; }
};
using NodePtr = std::shared_ptr<const Node>;

/// A new pass over `node` as Items: elements or rows.
template <class Item> IterPtr<Item> open(const Node &node) {
  if constexpr (std::is_same_v<Item, Row>)
    return node.rows();
  else
    return node.elements();
}

namespace {

class RowElements final : public Iter<Element> {
public:
  RowElements(std::shared_ptr<const Source> src, IterPtr<Row> rows)
      : src(std::move(src)), rows(std::move(rows)) {}
  bool next(Element &out) override {
    Row i;
    if (!rows->next(i))
      return false;
    out.clear();
    for (size_t k = 0; k < src->tensors.size(); ++k)
      out.push_back(src->row(k, i));
    return true;
  }

private:
  std::shared_ptr<const Source> src;
  IterPtr<Row> rows;
};

} // namespace

IterPtr<Element> Node::elements() const {
  if (std::shared_ptr<const Source> src = source())
    return std::make_unique<RowElements>(std::move(src), rows());
  return makeElements();
}

namespace {

// --- from_tensor_slices ------------------------------------------------------

class CountIter final : public Iter<Row> {
public:
  explicit CountIter(Row n) : n(n) {}
  bool next(Row &out) override {
    if (i >= n)
      return false;
    out = i++;
    return true;
  }

private:
  Row i = 0, n;
};

class SlicesNode final : public Node {
public:
  explicit SlicesNode(std::shared_ptr<const Source> src)
      : src(std::move(src)) {}
  int64_t cardinality() const override { return src->rows; }
  std::shared_ptr<const Source> source() const override { return src; }

protected:
  IterPtr<Row> makeRows() const override {
    return std::make_unique<CountIter>(src->rows);
  }

private:
  std::shared_ptr<const Source> src;
};

/// A node that passes its upstream's items on, reordered or selected: it
/// iterates rows when the upstream has a source. Derived defines
/// `template <class Item> IterPtr<Item> iterate() const`.
template <class Derived> class RowPreservingNode : public Node {
public:
  explicit RowPreservingNode(NodePtr up) : up(std::move(up)) {}
  std::shared_ptr<const Source> source() const override { return up->source(); }

protected:
  IterPtr<Element> makeElements() const override {
    return static_cast<const Derived *>(this)->template iterate<Element>();
  }
  IterPtr<Row> makeRows() const override {
    if (!up->source())
      return nullptr;
    return static_cast<const Derived *>(this)->template iterate<Row>();
  }
  NodePtr up;
};

// --- shuffle -----------------------------------------------------------------

template <class Item> class ShuffleIter final : public Iter<Item> {
public:
  ShuffleIter(IterPtr<Item> up, int64_t capacity, uint64_t seed)
      : up(std::move(up)), capacity(capacity), rng(seed) {}
  bool next(Item &out) override {
    while (!upDone && static_cast<int64_t>(buffer.size()) < capacity)
      pull();
    if (buffer.empty())
      return false;
    size_t k = rng.below(buffer.size());
    out = std::move(buffer[k]);
    if (!upDone) {
      Item refill;
      if (up->next(refill)) {
        buffer[k] = std::move(refill);
        return true;
      }
      upDone = true;
    }
    if (k + 1 != buffer.size())
      buffer[k] = std::move(buffer.back());
    buffer.pop_back();
    return true;
  }

private:
  void pull() {
    Item item;
    if (up->next(item))
      buffer.push_back(std::move(item));
    else
      upDone = true;
  }
  IterPtr<Item> up;
  int64_t capacity;
  Rng rng;
  std::vector<Item> buffer;
  bool upDone = false;
};

class ShuffleNode final : public RowPreservingNode<ShuffleNode> {
public:
  ShuffleNode(NodePtr up, int64_t bufferSize, uint64_t seed, bool reshuffle)
      : RowPreservingNode(std::move(up)), bufferSize(bufferSize), seed(seed),
        reshuffle(reshuffle) {}
  int64_t cardinality() const override { return up->cardinality(); }
  template <class Item> IterPtr<Item> iterate() const {
    uint64_t pass = reshuffle ? passes.fetch_add(1) : 0;
    // Pass k's seed: a hash of (seed, k), so passes are unrelated streams.
    Rng mix(seed ^ Rng(pass).next());
    return std::make_unique<ShuffleIter<Item>>(open<Item>(*up), bufferSize,
                                               mix.next());
  }

private:
  int64_t bufferSize;
  uint64_t seed;
  bool reshuffle;
  mutable std::atomic<uint64_t> passes{0};
};

// --- take, skip, shard
// ---------------------------------------------------------

template <class Item> class TakeIter final : public Iter<Item> {
public:
  TakeIter(IterPtr<Item> up, int64_t count) : up(std::move(up)), left(count) {}
  bool next(Item &out) override {
    if (left == 0)
      return false;
    if (!up->next(out))
      return false;
    if (left > 0)
      --left;
    return true;
  }

private:
  IterPtr<Item> up;
  int64_t left; ///< -1: unlimited.
};

class TakeNode final : public RowPreservingNode<TakeNode> {
public:
  TakeNode(NodePtr up, int64_t count)
      : RowPreservingNode(std::move(up)), count(count) {}
  int64_t cardinality() const override {
    int64_t n = up->cardinality();
    if (n == UNKNOWN_CARDINALITY || count < 0)
      return n;
    return n == INFINITE_CARDINALITY ? count : std::min(n, count);
  }
  template <class Item> IterPtr<Item> iterate() const {
    return std::make_unique<TakeIter<Item>>(open<Item>(*up), count);
  }

private:
  int64_t count;
};

template <class Item> class SkipIter final : public Iter<Item> {
public:
  SkipIter(IterPtr<Item> up, int64_t count) : up(std::move(up)), left(count) {}
  bool next(Item &out) override {
    while (left != 0) {
      if (!up->next(out)) {
        left = 0;
        return false;
      }
      if (left > 0)
        --left;
    }
    return up->next(out);
  }

private:
  IterPtr<Item> up;
  int64_t left; ///< -1: everything.
};

class SkipNode final : public RowPreservingNode<SkipNode> {
public:
  SkipNode(NodePtr up, int64_t count)
      : RowPreservingNode(std::move(up)), count(count) {}
  int64_t cardinality() const override {
    int64_t n = up->cardinality();
    if (n < 0)
      return n;
    return count < 0 ? 0 : std::max<int64_t>(0, n - count);
  }
  template <class Item> IterPtr<Item> iterate() const {
    return std::make_unique<SkipIter<Item>>(open<Item>(*up), count);
  }

private:
  int64_t count;
};

template <class Item> class ShardIter final : public Iter<Item> {
public:
  ShardIter(IterPtr<Item> up, int64_t shards, int64_t index)
      : up(std::move(up)), shards(shards), index(index) {}
  bool next(Item &out) override {
    for (;;) {
      if (!up->next(out))
        return false;
      if (position++ % shards == index)
        return true;
    }
  }

private:
  IterPtr<Item> up;
  int64_t shards, index, position = 0;
};

class ShardNode final : public RowPreservingNode<ShardNode> {
public:
  ShardNode(NodePtr up, int64_t shards, int64_t index)
      : RowPreservingNode(std::move(up)), shards(shards), index(index) {}
  int64_t cardinality() const override {
    int64_t n = up->cardinality();
    if (n < 0)
      return n;
    return n / shards + (index < n % shards ? 1 : 0);
  }
  template <class Item> IterPtr<Item> iterate() const {
    return std::make_unique<ShardIter<Item>>(open<Item>(*up), shards, index);
  }

private:
  int64_t shards, index;
};

// --- repeat ------------------------------------------------------------------

template <class Item> class RepeatIter final : public Iter<Item> {
public:
  RepeatIter(NodePtr up, int64_t count) : up(std::move(up)), count(count) {}
  bool next(Item &out) override {
    while (!finished) {
      if (!current) {
        if (count >= 0 && passes >= count)
          break;
        current = open<Item>(*up);
        yielded = false;
      }
      if (current->next(out)) {
        yielded = true;
        return true;
      }
      current.reset();
      ++passes;
      // An empty pass would make "forever" spin forever (tf.data stops).
      if (count < 0 && !yielded)
        break;
    }
    finished = true;
    return false;
  }

private:
  NodePtr up;
  int64_t count; ///< -1: forever.
  int64_t passes = 0;
  IterPtr<Item> current;
  bool yielded = false, finished = false;
};

class RepeatNode final : public RowPreservingNode<RepeatNode> {
public:
  RepeatNode(NodePtr up, int64_t count)
      : RowPreservingNode(std::move(up)), count(count) {}
  int64_t cardinality() const override {
    int64_t n = up->cardinality();
    if (count < 0)
      return n == 0 ? 0 : INFINITE_CARDINALITY;
    if (count == 0)
      return 0;
    return n < 0 ? n : saturatingMul(n, count);
  }
  template <class Item> IterPtr<Item> iterate() const {
    return std::make_unique<RepeatIter<Item>>(up, count);
  }

private:
  int64_t count;
};

// --- cache -------------------------------------------------------------------

/// What a cache node keeps: the first complete pass, as elements or rows.
struct CacheStore {
  std::mutex mu;
  std::shared_ptr<const std::vector<Element>> elements;
  std::shared_ptr<const std::vector<Row>> rows;
  template <class Item> std::shared_ptr<const std::vector<Item>> &slot() {
    if constexpr (std::is_same_v<Item, Row>)
      return rows;
    else
      return elements;
  }
};

template <class Item> class ReplayIter final : public Iter<Item> {
public:
  explicit ReplayIter(std::shared_ptr<const std::vector<Item>> items)
      : items(std::move(items)) {}
  bool next(Item &out) override {
    if (i >= items->size())
      return false;
    out = (*items)[i++];
    return true;
  }

private:
  std::shared_ptr<const std::vector<Item>> items;
  size_t i = 0;
};

template <class Item> class RecordIter final : public Iter<Item> {
public:
  RecordIter(IterPtr<Item> up, std::shared_ptr<CacheStore> store)
      : up(std::move(up)), store(std::move(store)) {}
  bool next(Item &out) override {
    if (finished)
      return false;
    if (!up->next(out)) {
      finished = true;
      std::lock_guard<std::mutex> lock(store->mu);
      auto &slot = store->slot<Item>();
      if (!slot) // The first pass to complete wins.
        slot = std::make_shared<const std::vector<Item>>(std::move(items));
      return false;
    }
    items.push_back(out);
    return true;
  }

private:
  IterPtr<Item> up;
  std::shared_ptr<CacheStore> store;
  std::vector<Item> items;
  bool finished = false;
};

class CacheNode final : public RowPreservingNode<CacheNode> {
public:
  explicit CacheNode(NodePtr up)
      : RowPreservingNode(std::move(up)),
        store(std::make_shared<CacheStore>()) {}
  int64_t cardinality() const override { return up->cardinality(); }
  template <class Item> IterPtr<Item> iterate() const {
    {
      std::lock_guard<std::mutex> lock(store->mu);
      if (auto items = store->slot<Item>())
        return std::make_unique<ReplayIter<Item>>(std::move(items));
    }
    return std::make_unique<RecordIter<Item>>(open<Item>(*up), store);
  }

private:
  std::shared_ptr<CacheStore> store;
};

// --- batch -------------------------------------------------------------------

/// Batches of rows: one slice (consecutive rows) or gather per component.
class BatchRowsIter final : public Iter<Element> {
public:
  BatchRowsIter(std::shared_ptr<const Source> src, IterPtr<Row> rows,
                int64_t size, bool dropRemainder)
      : src(std::move(src)), rows(std::move(rows)), size(size),
        dropRemainder(dropRemainder) {}
  bool next(Element &out) override {
    picked.clear();
    Row i;
    while (static_cast<int64_t>(picked.size()) < size && rows->next(i))
      picked.push_back(i);
    if (picked.empty() ||
        (dropRemainder && static_cast<int64_t>(picked.size()) < size))
      return false;
    int64_t n = static_cast<int64_t>(picked.size());
    bool consecutive = true;
    for (int64_t k = 1; k < n && consecutive; ++k)
      consecutive = picked[k] == picked[0] + k;
    out.clear();
    Tensor indices;
    if (!consecutive)
      indices = from_vector<int64_t>(picked, {n});
    for (const Tensor &t : src->tensors) {
      if (!consecutive) {
        out.push_back(gather(t, indices, 0));
        continue;
      }
      std::vector<int64_t> begin(t.rank(), 0), extent(t.rank(), -1);
      begin[0] = picked[0];
      extent[0] = n;
      out.push_back(slice(t, std::move(begin), std::move(extent)));
    }
    return true;
  }

private:
  std::shared_ptr<const Source> src;
  IterPtr<Row> rows;
  int64_t size;
  bool dropRemainder;
  std::vector<Row> picked;
};

/// Batches of computed elements: stacks each component.
class BatchStackIter final : public Iter<Element> {
public:
  BatchStackIter(IterPtr<Element> up, int64_t size, bool dropRemainder)
      : up(std::move(up)), size(size), dropRemainder(dropRemainder) {}
  bool next(Element &out) override {
    std::vector<Element> items;
    Element e;
    while (static_cast<int64_t>(items.size()) < size && up->next(e))
      items.push_back(std::move(e));
    if (items.empty() ||
        (dropRemainder && static_cast<int64_t>(items.size()) < size))
      return false;
    const Element &first = items[0];
    for (size_t j = 1; j < items.size(); ++j) {
      if (items[j].size() != first.size())
        fail("batch", "element ", j, " of a batch has ", items[j].size(),
             " components, element 0 has ", first.size());
      for (size_t k = 0; k < first.size(); ++k)
        if (items[j][k].dtype() != first[k].dtype() ||
            items[j][k].shape() != first[k].shape())
          fail("batch", "component ", k, " of element ", j, " of a batch is ",
               describe(items[j][k]), ", of element 0 ", describe(first[k]),
               "; elements of a batch must match");
    }
    out.clear();
    std::vector<Tensor> column(items.size());
    for (size_t k = 0; k < first.size(); ++k) {
      for (size_t j = 0; j < items.size(); ++j)
        column[j] = std::move(items[j][k]);
      out.push_back(stack(column, 0));
    }
    return true;
  }

private:
  IterPtr<Element> up;
  int64_t size;
  bool dropRemainder;
};

class BatchNode final : public Node {
public:
  BatchNode(NodePtr up, int64_t size, bool dropRemainder)
      : up(std::move(up)), size(size), dropRemainder(dropRemainder) {}
  int64_t cardinality() const override {
    int64_t n = up->cardinality();
    if (n < 0)
      return n;
    return dropRemainder ? n / size : n / size + (n % size != 0);
  }

protected:
  IterPtr<Element> makeElements() const override {
    if (std::shared_ptr<const Source> src = up->source())
      return std::make_unique<BatchRowsIter>(std::move(src), up->rows(), size,
                                             dropRemainder);
    return std::make_unique<BatchStackIter>(up->elements(), size,
                                            dropRemainder);
  }

private:
  NodePtr up;
  int64_t size;
  bool dropRemainder;
};

// --- map ---------------------------------------------------------------------

using MapFn = std::function<Element(const Element &)>;

class MapIter final : public Iter<Element> {
public:
  MapIter(IterPtr<Element> up, MapFn fn)
      : up(std::move(up)), fn(std::move(fn)) {}
  bool next(Element &out) override {
    Element in;
    if (!up->next(in))
      return false;
    out = fn(in);
    return true;
  }

private:
  IterPtr<Element> up;
  MapFn fn;
};

/// Keeps up to `width` elements in flight on `width` workers; the consumer
/// pulls the upstream (iterators are single-threaded) and takes results in
/// order. An upstream error takes its place in the order.
class ParallelMapIter final : public Iter<Element> {
public:
  ParallelMapIter(IterPtr<Element> up, MapFn fn, int width)
      : up(std::move(up)), fn(std::move(fn)), width(width) {}
  ~ParallelMapIter() override {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    workCv.notify_all();
    for (std::thread &w : workers)
      w.join();
  }
  bool next(Element &out) override {
    if (workers.empty())
      for (int i = 0; i < width; ++i)
        workers.emplace_back([this] { work(); });
    while (!upDone && static_cast<int>(inFlight.size()) < width)
      submit();
    if (inFlight.empty())
      return false;
    std::shared_ptr<Task> task = std::move(inFlight.front());
    inFlight.pop_front();
    {
      std::unique_lock<std::mutex> lock(mu);
      doneCv.wait(lock, [&] { return task->done; });
    }
    if (task->error) {
      upDone = true; // the pass ends with its first error
      inFlight.clear();
      std::rethrow_exception(task->error);
    }
    out = std::move(task->out);
    return true;
  }

private:
  struct Task {
    Element in, out;
    std::exception_ptr error;
    bool done = false; ///< Guarded by mu.
  };
  void submit() {
    auto task = std::make_shared<Task>();
    try {
      if (!up->next(task->in)) {
        upDone = true;
        return;
      }
    } catch (...) {
      upDone = true;
      task->error = std::current_exception();
      task->done = true;
      inFlight.push_back(std::move(task));
      return;
    }
    inFlight.push_back(task);
    {
      std::lock_guard<std::mutex> lock(mu);
      queue.push_back(std::move(task));
    }
    workCv.notify_one();
  }
  void work() {
    for (;;) {
      std::shared_ptr<Task> task;
      {
        std::unique_lock<std::mutex> lock(mu);
        workCv.wait(lock, [&] { return stop || !queue.empty(); });
        if (stop)
          return;
        task = std::move(queue.front());
        queue.pop_front();
      }
      try {
        task->out = fn(task->in);
      } catch (...) {
        task->error = std::current_exception();
      }
      task->in.clear();
      {
        std::lock_guard<std::mutex> lock(mu);
        task->done = true;
      }
      doneCv.notify_all();
    }
  }

  IterPtr<Element> up;
  MapFn fn;
  int width;
  bool upDone = false;
  std::deque<std::shared_ptr<Task>> inFlight; ///< Consumer only, in order.
  std::mutex mu;
  std::condition_variable workCv, doneCv;
  std::deque<std::shared_ptr<Task>> queue; ///< Not yet started; under mu.
  bool stop = false;                       ///< Under mu.
  std::vector<std::thread> workers;
};

class MapNode final : public Node {
public:
  MapNode(NodePtr up, MapFn fn, int width)
      : up(std::move(up)), fn(std::move(fn)), width(width) {}
  int64_t cardinality() const override { return up->cardinality(); }

protected:
  IterPtr<Element> makeElements() const override {
    if (width > 1)
      return std::make_unique<ParallelMapIter>(up->elements(), fn, width);
    return std::make_unique<MapIter>(up->elements(), fn);
  }

private:
  NodePtr up;
  MapFn fn;
  int width;
};

// --- filter ------------------------------------------------------------------

using Predicate = std::function<Tensor(const Element &)>;

class FilterIter final : public Iter<Element> {
public:
  FilterIter(IterPtr<Element> up, Predicate pred)
      : up(std::move(up)), pred(std::move(pred)) {}
  bool next(Element &out) override {
    while (up->next(out)) {
      Tensor keep = pred(out);
      if (!keep.defined() || keep.is_symbolic() ||
          keep.dtype() != DType::Bool || keep.rank() != 0)
        fail("filter",
             "the predicate must return a concrete bool scalar, "
             "got ",
             !keep.defined()      ? std::string("an undefined tensor")
             : keep.is_symbolic() ? "a symbolic " + describe(keep)
                                  : describe(keep));
      if (keep.item<bool>())
        return true;
    }
    return false;
  }

private:
  IterPtr<Element> up;
  Predicate pred;
};

class FilterNode final : public Node {
public:
  FilterNode(NodePtr up, Predicate pred)
      : up(std::move(up)), pred(std::move(pred)) {}
  int64_t cardinality() const override {
    return up->cardinality() == INFINITE_CARDINALITY ? INFINITE_CARDINALITY
                                                     : UNKNOWN_CARDINALITY;
  }

protected:
  IterPtr<Element> makeElements() const override {
    return std::make_unique<FilterIter>(up->elements(), pred);
  }

private:
  NodePtr up;
  Predicate pred;
};

// --- prefetch ----------------------------------------------------------------

/// A producer thread runs the upstream into a bounded queue; its error (or
/// end) is queued after the elements before it.
class PrefetchIter final : public Iter<Element> {
public:
  PrefetchIter(IterPtr<Element> up, size_t capacity)
      : up(std::move(up)), capacity(capacity) {}
  ~PrefetchIter() override {
    {
      std::lock_guard<std::mutex> lock(mu);
      stop = true;
    }
    notFull.notify_all();
    if (producer.joinable())
      producer.join();
  }
  bool next(Element &out) override {
    if (!producer.joinable() && !finished)
      producer = std::thread([this] { produce(); });
    std::unique_lock<std::mutex> lock(mu);
    notEmpty.wait(lock, [&] { return !queue.empty() || finished; });
    if (!queue.empty()) {
      out = std::move(queue.front());
      queue.pop_front();
      notFull.notify_one();
      return true;
    }
    if (error)
      std::rethrow_exception(std::exchange(error, nullptr));
    return false;
  }

private:
  void produce() {
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mu);
        notFull.wait(lock, [&] { return stop || queue.size() < capacity; });
        if (stop)
          return;
      }
      Element e;
      bool got = false;
      std::exception_ptr failure;
      try {
        got = up->next(e);
      } catch (...) {
        failure = std::current_exception();
      }
      {
        std::lock_guard<std::mutex> lock(mu);
        if (got) {
          queue.push_back(std::move(e));
        } else {
          error = failure;
          finished = true;
        }
      }
      notEmpty.notify_one();
      if (!got)
        return;
    }
  }

  IterPtr<Element> up;
  size_t capacity;
  std::mutex mu;
  std::condition_variable notFull, notEmpty;
  std::deque<Element> queue; ///< Under mu.
  bool finished = false;     ///< Under mu: the producer is done.
  bool stop = false;         ///< Under mu.
  std::exception_ptr error;  ///< Under mu.
  std::thread producer;
};

class PrefetchNode final : public Node {
public:
  PrefetchNode(NodePtr up, size_t capacity)
      : up(std::move(up)), capacity(capacity) {}
  int64_t cardinality() const override { return up->cardinality(); }

protected:
  IterPtr<Element> makeElements() const override {
    return std::make_unique<PrefetchIter>(up->elements(), capacity);
  }

private:
  NodePtr up;
  size_t capacity;
};

} // namespace
} // namespace detail

// --- Dataset -----------------------------------------------------------------

Dataset::Dataset(std::shared_ptr<const detail::Node> node)
    : node_(std::move(node)) {}

const detail::Node &Dataset::node(const char *method) const {
  if (!node_)
    fail(method, "the Dataset is an empty handle (default-constructed)");
  return *node_;
}

Dataset Dataset::from_tensor_slices(std::vector<Tensor> tensors) {
  const char *method = "from_tensor_slices";
  if (tensors.empty())
    fail(method, "needs at least one tensor");
  auto src = std::make_shared<detail::Source>();
  for (size_t k = 0; k < tensors.size(); ++k) {
    const Tensor &t = tensors[k];
    if (!t.defined())
      fail(method, "tensor ", k, " is undefined");
    if (t.is_symbolic())
      fail(method, "tensor ", k, " is symbolic (", describe(t),
           "); a dataset needs concrete tensors");
    if (t.rank() == 0)
      fail(method, "tensor ", k, " is a scalar (", describe(t),
           "); slicing needs rank >= 1");
    if (t.shape()[0] != tensors[0].shape()[0])
      fail(method, "tensors 0 and ", k,
           " differ in their first dim: ", describe(tensors[0]), " and ",
           describe(t));
    std::vector<int64_t> rowShape(t.shape().begin() + 1, t.shape().end());
    src->rowBytes.push_back(static_cast<size_t>(shape_numel(rowShape)) *
                            dtype_size(t.dtype()));
    src->rowShapes.push_back(std::move(rowShape));
  }
  src->rows = tensors[0].shape()[0];
  src->tensors = std::move(tensors);
  return Dataset(std::make_shared<detail::SlicesNode>(std::move(src)));
}

Dataset Dataset::shuffle(int64_t buffer_size, std::optional<uint64_t> seed,
                         bool reshuffle_each_iteration) const {
  node("shuffle");
  if (buffer_size <= 0)
    fail("shuffle", "buffer_size must be positive, got ", buffer_size);
  // Unseeded: a random seed per dataset, so its passes still follow
  // reshuffle_each_iteration.
  uint64_t s =
      seed ? *seed
           : (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  return Dataset(std::make_shared<detail::ShuffleNode>(
      node_, buffer_size, s, reshuffle_each_iteration));
}

Dataset Dataset::batch(int64_t batch_size, bool drop_remainder) const {
  node("batch");
  if (batch_size <= 0)
    fail("batch", "batch_size must be positive, got ", batch_size);
  return Dataset(
      std::make_shared<detail::BatchNode>(node_, batch_size, drop_remainder));
}

Dataset Dataset::map(std::function<Element(const Element &)> fn,
                     int num_parallel_calls) const {
  node("map");
  if (!fn)
    fail("map", "the function is empty");
  if (num_parallel_calls == 0 || num_parallel_calls < AUTOTUNE)
    fail("map", "num_parallel_calls must be positive or AUTOTUNE (-1), got ",
         num_parallel_calls);
  int width = num_parallel_calls;
  if (width == AUTOTUNE)
    width = std::max(2, static_cast<int>(std::thread::hardware_concurrency()));
  return Dataset(
      std::make_shared<detail::MapNode>(node_, std::move(fn), width));
}

Dataset
Dataset::filter(std::function<Tensor(const Element &)> predicate) const {
  node("filter");
  if (!predicate)
    fail("filter", "the predicate is empty");
  return Dataset(
      std::make_shared<detail::FilterNode>(node_, std::move(predicate)));
}

namespace {
/// take/skip/repeat counts: -1 (all, or forever) or >= 0.
void checkCount(const char *method, int64_t count) {
  if (count < -1)
    fail(method, "count must be >= 0 or -1, got ", count);
}
} // namespace

Dataset Dataset::repeat(int64_t count) const {
  node("repeat");
  checkCount("repeat", count);
  return Dataset(std::make_shared<detail::RepeatNode>(node_, count));
}

Dataset Dataset::take(int64_t count) const {
  node("take");
  checkCount("take", count);
  return Dataset(std::make_shared<detail::TakeNode>(node_, count));
}

Dataset Dataset::skip(int64_t count) const {
  node("skip");
  checkCount("skip", count);
  return Dataset(std::make_shared<detail::SkipNode>(node_, count));
}

Dataset Dataset::prefetch(int64_t buffer_size) const {
  node("prefetch");
  if (buffer_size <= 0 && buffer_size != AUTOTUNE)
    fail("prefetch", "buffer_size must be positive or AUTOTUNE (-1), got ",
         buffer_size);
  size_t capacity = buffer_size == AUTOTUNE ? 2 : size_t(buffer_size);
  return Dataset(std::make_shared<detail::PrefetchNode>(node_, capacity));
}

Dataset Dataset::cache() const {
  node("cache");
  return Dataset(std::make_shared<detail::CacheNode>(node_));
}

Dataset Dataset::shard(int64_t num_shards, int64_t index) const {
  node("shard");
  if (num_shards <= 0)
    fail("shard", "num_shards must be positive, got ", num_shards);
  if (index < 0 || index >= num_shards)
    fail("shard", "index must be in [0, ", num_shards, "), got ", index);
  return Dataset(std::make_shared<detail::ShardNode>(node_, num_shards, index));
}

int64_t Dataset::cardinality() const {
  return node("cardinality").cardinality();
}

// --- iteration ---------------------------------------------------------------

struct Dataset::iterator::State {
  detail::IterPtr<Element> items;
  Element current;
};

Dataset::iterator Dataset::begin() const {
  const detail::Node &n = node("begin");
  auto state = std::make_shared<iterator::State>();
  {
    EagerScope eager;
    state->items = n.elements();
  }
  iterator it(std::move(state));
  ++it;
  return it;
}

Dataset::iterator Dataset::end() const { return iterator(); }

const Element &Dataset::iterator::operator*() const {
  if (!state_)
    throw InvalidArgumentError("Dataset::iterator: dereferencing the end");
  return state_->current;
}

Dataset::iterator &Dataset::iterator::operator++() {
  if (!state_)
    throw InvalidArgumentError("Dataset::iterator: incrementing the end");
  try {
    EagerScope eager;
    if (!state_->items->next(state_->current))
      state_.reset();
  } catch (...) {
    state_.reset(); // an error ends the pass
    throw;
  }
  return *this;
}

} // namespace tfc::data
