//===- DataTest.cpp - datasets, IDX/CSV readers, Fashion-MNIST ------------===//
//
// Every Dataset transformation against elements written out by hand, the
// threads behind map and prefetch (order, errors, early destruction), the
// readers on files written here (and on hostile ones), and Fashion-MNIST
// from the Debian package when it is installed.
//
//===----------------------------------------------------------------------===//

#include "tfc/data/Dataset.h"
#include "tfc/data/Readers.h"
#include "tfc/keras/Datasets.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Function.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"

#include "TestCacheDir.h"

#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <set>
#include <thread>

using namespace tfc;
using namespace tfc::data;
using Bytes = std::vector<unsigned char>;

TFC_TEST_PRIVATE_CACHE_DIR("tfc-data-tests");

namespace {

// --- helpers -----------------------------------------------------------------

/// from_tensor_slices of 0, 1, ..., n-1 (Int64).
Dataset rangeDataset(int64_t n) {
  return Dataset::from_tensor_slices({range(0, n)});
}

/// Component 0 of each element, a scalar Int64.
std::vector<int64_t> scalars(const Dataset &ds) {
  std::vector<int64_t> out;
  for (const Element &e : ds)
    out.push_back(e.at(0).item<int64_t>());
  return out;
}

/// Component 0 of each element, a vector Int64.
std::vector<std::vector<int64_t>> vectors(const Dataset &ds) {
  std::vector<std::vector<int64_t>> out;
  for (const Element &e : ds)
    out.push_back(e.at(0).to_vector<int64_t>());
  return out;
}

std::vector<int64_t> iota(int64_t lo, int64_t hi) {
  std::vector<int64_t> v(hi - lo);
  std::iota(v.begin(), v.end(), lo);
  return v;
}

Element identity(const Element &e) { return e; }

/// EXPECT that `f` throws E with every one of `parts` in its message.
template <class E, class F>
void expectThrows(F &&f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const E &e) {
    std::string msg = e.what();
    for (const std::string &p : parts)
      EXPECT_NE(msg.find(p), std::string::npos)
          << "'" << p << "' not in: " << msg;
  }
}

/// A fresh directory, removed with everything in it at scope exit.
class TempDir {
public:
  TempDir() {
    std::string tmpl = "/tmp/tfc-data-test-XXXXXX";
    if (!mkdtemp(tmpl.data()))
      throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string &name) const {
    return (std::filesystem::path(path) / name).string();
  }
  std::string path;
};

void writeFile(const std::string &path, const Bytes &bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(bytes.data()),
          static_cast<std::streamsize>(bytes.size()));
}

void writeText(const std::string &path, const std::string &text) {
  writeFile(path, Bytes(text.begin(), text.end()));
}

/// `bytes` as a gzip file (zlib's deflate with a gzip wrapper).
Bytes gzip(const Bytes &bytes) {
  z_stream zs;
  std::memset(&zs, 0, sizeof zs);
  if (deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) !=
      Z_OK)
    throw std::runtime_error("deflateInit2");
  Bytes out(deflateBound(&zs, bytes.size()) + 64);
  zs.next_in = const_cast<unsigned char *>(bytes.data());
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = out.data();
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END)
    throw std::runtime_error("deflate");
  out.resize(zs.total_out);
  return out;
}

/// An IDX file: magic, big-endian dims, then `data` (already big-endian).
Bytes idx(unsigned char type, const std::vector<uint32_t> &dims,
          const Bytes &data) {
  Bytes b = {0, 0, type, static_cast<unsigned char>(dims.size())};
  for (uint32_t d : dims)
    for (int s = 24; s >= 0; s -= 8)
      b.push_back(static_cast<unsigned char>(d >> s));
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

/// `v` as `n` big-endian bytes.
void pushBigEndian(Bytes &b, uint64_t v, int n) {
  for (int s = 8 * (n - 1); s >= 0; s -= 8)
    b.push_back(static_cast<unsigned char>(v >> s));
}

// --- from_tensor_slices and iteration
// ------------------------------------------

TEST(Dataset, FromTensorSlicesGivesRows) {
  Tensor x = constant({{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  Tensor y = constant({10, 20, 30});
  Dataset ds = Dataset::from_tensor_slices({x, y});
  EXPECT_EQ(ds.cardinality(), 3);
  std::vector<std::vector<float>> rows;
  std::vector<int32_t> labels;
  for (const Element &e : ds) {
    ASSERT_EQ(e.size(), 2u);
    EXPECT_EQ(e[0].shape(), (std::vector<int64_t>{2}));
    EXPECT_EQ(e[0].dtype(), DType::Float32);
    EXPECT_EQ(e[1].shape(), (std::vector<int64_t>{}));
    rows.push_back(e[0].to_vector<float>());
    labels.push_back(e[1].item<int32_t>());
  }
  EXPECT_EQ(rows, (std::vector<std::vector<float>>{{1, 2}, {3, 4}, {5, 6}}));
  EXPECT_EQ(labels, (std::vector<int32_t>{10, 20, 30}));
  // Rank 3, and zero-size rows.
  Tensor z = reshape(range(0, 12, 1, DType::Int32), {3, 2, 2});
  std::vector<std::vector<int32_t>> blocks;
  for (const Element &e : Dataset::from_tensor_slices({z}))
    blocks.push_back(e[0].to_vector<int32_t>());
  EXPECT_EQ(blocks, (std::vector<std::vector<int32_t>>{
                        {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}}));
  int n = 0;
  for (const Element &e : Dataset::from_tensor_slices({zeros({4, 0})})) {
    EXPECT_EQ(e[0].shape(), (std::vector<int64_t>{0}));
    ++n;
  }
  EXPECT_EQ(n, 4);
  EXPECT_EQ(scalars(rangeDataset(0)), std::vector<int64_t>{});
}

TEST(Dataset, FromTensorSlicesRejectsBadTensors) {
  expectThrows<InvalidArgumentError>(
      [] {
        Dataset::from_tensor_slices({zeros({3, 2}), zeros({4})});
      },
      {"from_tensor_slices", "(3, 2)", "(4,)"});
  expectThrows<InvalidArgumentError>(
      [] { Dataset::from_tensor_slices({constant(1.f)}); },
      {"from_tensor_slices", "scalar"});
  expectThrows<InvalidArgumentError>([] { Dataset::from_tensor_slices({}); },
                                     {"from_tensor_slices"});
  expectThrows<InvalidArgumentError>(
      [] {
        Dataset::from_tensor_slices({zeros({2}), Tensor()});
      },
      {"from_tensor_slices", "undefined"});
}

TEST(Dataset, EachBeginStartsANewPass) {
  Dataset ds = rangeDataset(3);
  Dataset::iterator a = ds.begin();
  Dataset::iterator b = ds.begin();
  EXPECT_EQ((*a)[0].item<int64_t>(), 0);
  ++a;
  ++a;
  EXPECT_EQ((*a)[0].item<int64_t>(), 2);
  EXPECT_EQ((*b)[0].item<int64_t>(), 0); // unaffected by a
  ++a;
  EXPECT_TRUE(a == ds.end());
  EXPECT_FALSE(b == ds.end());
  EXPECT_THROW(*a, InvalidArgumentError);
  EXPECT_THROW(++a, InvalidArgumentError);
  static_assert(std::input_iterator<Dataset::iterator>);
  EXPECT_THROW(Dataset().batch(2), InvalidArgumentError);
  EXPECT_FALSE(Dataset().defined());
  // An iterator keeps its pipeline alive after the handles are gone.
  Dataset::iterator it = rangeDataset(4).skip(1).batch(2).begin();
  EXPECT_EQ(it->at(0).to_vector<int64_t>(), (std::vector<int64_t>{1, 2}));
  ++it;
  EXPECT_EQ(it->at(0).to_vector<int64_t>(), (std::vector<int64_t>{3}));
}

// --- take, skip, repeat, shard
// --------------------------------------------------

TEST(Dataset, TakeSkipRepeatShard) {
  Dataset ds = rangeDataset(6);
  EXPECT_EQ(scalars(ds.take(2)), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(scalars(ds.take(0)), std::vector<int64_t>{});
  EXPECT_EQ(scalars(ds.take(-1)), iota(0, 6));
  EXPECT_EQ(scalars(ds.take(10)), iota(0, 6));
  EXPECT_EQ(scalars(ds.skip(4)), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(scalars(ds.skip(9)), std::vector<int64_t>{});
  EXPECT_EQ(scalars(ds.skip(-1)), std::vector<int64_t>{});
  EXPECT_EQ(scalars(ds.take(3).repeat(2)),
            (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(scalars(ds.repeat(0)), std::vector<int64_t>{});
  EXPECT_EQ(scalars(ds.skip(4).repeat().take(5)),
            (std::vector<int64_t>{4, 5, 4, 5, 4}));
  EXPECT_EQ(scalars(ds.skip(6).repeat()), std::vector<int64_t>{});
  EXPECT_EQ(scalars(ds.shard(4, 1)), (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(scalars(ds.shard(4, 3)), (std::vector<int64_t>{3}));
  EXPECT_EQ(scalars(ds.shard(1, 0)), iota(0, 6));
  // The same on computed elements (not rows): map first.
  Dataset m = ds.map(identity);
  EXPECT_EQ(scalars(m.skip(1).take(3).repeat(2).shard(2, 0)),
            (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(scalars(ds.skip(1).take(3).repeat(2).shard(2, 0)),
            (std::vector<int64_t>{1, 3, 2}));
}

// --- batch
// ---------------------------------------------------------------------

TEST(Dataset, BatchGroupsConsecutiveElements) {
  Dataset ds = rangeDataset(10);
  using V = std::vector<std::vector<int64_t>>;
  EXPECT_EQ(vectors(ds.batch(3)), (V{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9}}));
  EXPECT_EQ(vectors(ds.batch(3, true)), (V{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}));
  EXPECT_EQ(vectors(ds.batch(20)), (V{iota(0, 10)}));
  EXPECT_EQ(vectors(ds.batch(20, true)), V{});
  EXPECT_EQ(vectors(ds.map(identity).batch(4)),
            (V{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}));
  // Batches of batches stack.
  std::vector<std::vector<int64_t>> shapes;
  for (const Element &e : ds.batch(2).batch(2))
    shapes.push_back(e[0].shape());
  EXPECT_EQ(shapes, (V{{2, 2}, {2, 2}, {1, 2}}));
  expectThrows<InvalidArgumentError>([&] { ds.batch(0); },
                                     {"batch", "batch_size", "0"});
  expectThrows<InvalidArgumentError>([&] { ds.batch(-3); }, {"batch"});
}

TEST(Dataset, BatchOfRowsSlicesOrGathersAndEqualsStacking) {
  Tensor x = random_uniform({23, 3, 2}, -1, 1, 7);
  Tensor y = range(0, 23, 1, DType::Int32);
  Dataset ds = Dataset::from_tensor_slices({x, y});
  // Consecutive rows: the batch is a slice, a view of x's storage.
  Dataset::iterator first = ds.batch(5).begin();
  EXPECT_EQ((*first)[0].storage(), x.storage());
  EXPECT_EQ((*first)[0].shape(), (std::vector<int64_t>{5, 3, 2}));

  for (bool drop : {false, true}) {
    // Rows (gather after shuffle) and computed elements (stack after map)
    // against batches stacked here from the shuffled elements.
    Dataset rows = ds.shuffle(9, 11).batch(5, drop);
    Dataset stacked = ds.map(identity).shuffle(9, 11).batch(5, drop);
    std::vector<Element> elements;
    for (const Element &e : ds.shuffle(9, 11))
      elements.push_back(e);
    std::vector<std::vector<float>> wantX;
    std::vector<std::vector<int32_t>> wantY;
    for (size_t b = 0; b < elements.size(); b += 5) {
      if (drop && b + 5 > elements.size())
        break;
      wantX.emplace_back();
      wantY.emplace_back();
      for (size_t j = b; j < std::min(b + 5, elements.size()); ++j) {
        for (float v : elements[j][0].to_vector<float>())
          wantX.back().push_back(v);
        wantY.back().push_back(elements[j][1].item<int32_t>());
      }
    }
    for (const Dataset &d : {rows, stacked}) {
      std::vector<std::vector<float>> gotX;
      std::vector<std::vector<int32_t>> gotY;
      for (const Element &e : d) {
        ASSERT_EQ(e.size(), 2u);
        EXPECT_EQ(e[0].shape()[1], 3);
        EXPECT_EQ(e[0].shape()[0], e[1].shape()[0]);
        gotX.push_back(e[0].to_vector<float>());
        gotY.push_back(e[1].to_vector<int32_t>());
      }
      EXPECT_EQ(gotX, wantX);
      EXPECT_EQ(gotY, wantY);
    }
    EXPECT_EQ(rows.cardinality(), drop ? 4 : 5);
  }
}

TEST(Dataset, BatchRejectsElementsThatDoNotStack) {
  Dataset ds = rangeDataset(4).map([](const Element &e) -> Element {
    int64_t n = e[0].item<int64_t>();
    return {zeros({n + 1})};
  });
  expectThrows<InvalidArgumentError>(
      [&] {
        for (const Element &e : ds.batch(2))
          (void)e;
      },
      {"batch", "(2,)", "(1,)"});
}

// --- shuffle -----------------------------------------------------------------

TEST(Dataset, ShuffleWithASeedIsReproducibleAndReshuffles) {
  const int64_t n = 50;
  Dataset a = rangeDataset(n).shuffle(n, 42);
  Dataset b = rangeDataset(n).shuffle(n, 42);
  std::vector<int64_t> a1 = scalars(a), a2 = scalars(a);
  EXPECT_EQ(a1, scalars(b)); // the first pass of any dataset with seed 42
  EXPECT_NE(a1, iota(0, n));
  EXPECT_NE(a1, a2);         // reshuffled
  EXPECT_EQ(a2, scalars(b)); // ... the same way: pass 2 of b
  std::vector<int64_t> sorted = a1;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, iota(0, n));
  EXPECT_NE(a1, scalars(rangeDataset(n).shuffle(n, 43)));

  Dataset fixed = rangeDataset(n).shuffle(n, 42, false);
  EXPECT_EQ(scalars(fixed), a1);
  EXPECT_EQ(scalars(fixed), a1);

  // Unseeded: orders differ between datasets (50! orders), but with
  // reshuffle_each_iteration = false one dataset repeats its own.
  EXPECT_NE(scalars(rangeDataset(n).shuffle(n)),
            scalars(rangeDataset(n).shuffle(n)));
  Dataset unseeded = rangeDataset(n).shuffle(n, std::nullopt, false);
  EXPECT_EQ(scalars(unseeded), scalars(unseeded));

  // repeat re-runs the shuffle: each epoch is a new permutation.
  std::vector<int64_t> two = scalars(rangeDataset(n).shuffle(n, 42).repeat(2));
  ASSERT_EQ(two.size(), size_t(2 * n));
  EXPECT_EQ(std::vector<int64_t>(two.begin(), two.begin() + n), a1);
  EXPECT_EQ(std::vector<int64_t>(two.begin() + n, two.end()), a2);

  // Rows and computed elements are shuffled the same way.
  EXPECT_EQ(scalars(rangeDataset(n).map(identity).shuffle(7, 5)),
            scalars(rangeDataset(n).shuffle(7, 5)));
  expectThrows<InvalidArgumentError>([] { rangeDataset(3).shuffle(0); },
                                     {"shuffle", "buffer_size"});
}

TEST(Dataset, ShuffleDrawsFromItsBufferOnly) {
  // With a buffer of b, output k is one of the first k + b inputs, and a
  // buffer of 1 keeps the order.
  EXPECT_EQ(scalars(rangeDataset(20).shuffle(1, 3)), iota(0, 20));
  for (uint64_t seed = 0; seed < 20; ++seed) {
    std::vector<int64_t> out = scalars(rangeDataset(30).shuffle(4, seed));
    ASSERT_EQ(out.size(), 30u);
    for (size_t k = 0; k < out.size(); ++k)
      EXPECT_LT(out[k], int64_t(k) + 4) << "seed " << seed << " at " << k;
    std::sort(out.begin(), out.end());
    EXPECT_EQ(out, iota(0, 30));
  }
  // Every input can come first from a full buffer (a uniform draw).
  std::set<int64_t> firsts;
  for (uint64_t seed = 0; seed < 200; ++seed)
    firsts.insert(scalars(rangeDataset(5).shuffle(5, seed)).front());
  EXPECT_EQ(firsts.size(), 5u);
}

// --- map, filter -------------------------------------------------------------

TEST(Dataset, MapAndFilter) {
  Dataset ds = rangeDataset(8);
  Dataset doubled = ds.map([](const Element &e) -> Element {
    return {e[0] * int64_t(2), e[0] + int64_t(100)};
  });
  std::vector<std::pair<int64_t, int64_t>> got;
  for (const Element &e : doubled)
    got.emplace_back(e[0].item<int64_t>(), e[1].item<int64_t>());
  EXPECT_EQ(got.size(), 8u);
  for (int64_t i = 0; i < 8; ++i)
    EXPECT_EQ(got[i], std::make_pair(2 * i, 100 + i));
  EXPECT_EQ(doubled.cardinality(), 8);

  Dataset even =
      ds.filter([](const Element &e) { return e[0] % int64_t(2) == 0; });
  EXPECT_EQ(scalars(even), (std::vector<int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(even.cardinality(), UNKNOWN_CARDINALITY);
  EXPECT_EQ(scalars(even.batch(3).map([](const Element &e) -> Element {
              return {reduce_sum(e[0])};
            })),
            (std::vector<int64_t>{0 + 2 + 4, 6}));

  expectThrows<InvalidArgumentError>(
      [&] {
        for (const Element &e : ds.filter([](const Element &e) {
               return e[0]; // int64, not bool
             }))
          (void)e;
      },
      {"filter", "bool", "int64"});
  expectThrows<InvalidArgumentError>([&] { ds.map(nullptr); }, {"map"});
  expectThrows<InvalidArgumentError>([&] { ds.filter(nullptr); }, {"filter"});
  expectThrows<InvalidArgumentError>([&] { ds.map(identity, 0); },
                                     {"map", "num_parallel_calls"});
  expectThrows<InvalidArgumentError>([&] { ds.map(identity, -2); },
                                     {"map", "num_parallel_calls"});
}

TEST(Dataset, ParallelMapKeepsOrderAndUsesOtherThreads) {
  for (int width : {2, 4, AUTOTUNE}) {
    std::mutex mu;
    std::set<std::thread::id> threads;
    Dataset ds = rangeDataset(64).map(
        [&](const Element &e) -> Element {
          int64_t i = e[0].item<int64_t>();
          // Later elements finish first: order must come from the queue.
          std::this_thread::sleep_for(
              std::chrono::microseconds(200 * ((64 - i) % 5)));
          {
            std::lock_guard<std::mutex> lock(mu);
            threads.insert(std::this_thread::get_id());
          }
          return {e[0] * e[0]};
        },
        width);
    std::vector<int64_t> want;
    for (int64_t i = 0; i < 64; ++i)
      want.push_back(i * i);
    EXPECT_EQ(scalars(ds), want) << "width " << width;
    EXPECT_EQ(scalars(ds.take(5)), (std::vector<int64_t>{0, 1, 4, 9, 16}));
    EXPECT_EQ(threads.count(std::this_thread::get_id()), 0u);
    EXPECT_GE(threads.size(), 1u);
  }
}

/// A user exception type, to check that the type survives the threads.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

TEST(Dataset, ExceptionsFromUserFunctionsReachTheIteratingThread) {
  auto failAt3 = [](const Element &e) -> Element {
    if (e[0].item<int64_t>() == 3)
      throw UserError("element 3 is bad");
    return e;
  };
  for (int width : {1, 3}) {
    for (bool prefetch : {false, true}) {
      Dataset ds = rangeDataset(10).map(failAt3, width);
      if (prefetch)
        ds = ds.prefetch(2);
      std::vector<int64_t> seen;
      try {
        for (const Element &e : ds)
          seen.push_back(e[0].item<int64_t>());
        ADD_FAILURE() << "no exception";
      } catch (const UserError &e) {
        EXPECT_STREQ(e.what(), "element 3 is bad");
      }
      // Elements before the error arrive first, in order.
      EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2}))
          << "width " << width << " prefetch " << prefetch;
    }
  }
  // An upstream error (a filter's) through a parallel map and prefetch.
  Dataset bad = rangeDataset(5)
                    .filter([](const Element &e) {
                      if (e[0].item<int64_t>() == 2)
                        throw UserError("filter failed");
                      return constant(true);
                    })
                    .map(identity, 2)
                    .prefetch(AUTOTUNE);
  std::vector<int64_t> seen;
  EXPECT_THROW(
      {
        for (const Element &e : bad)
          seen.push_back(e[0].item<int64_t>());
      },
      UserError);
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1}));
}

// --- prefetch
// ------------------------------------------------------------------

TEST(Dataset, PrefetchYieldsTheSameElements) {
  Dataset ds = rangeDataset(100).shuffle(100, 3);
  EXPECT_EQ(scalars(ds.prefetch(AUTOTUNE)),
            scalars(rangeDataset(100).shuffle(100, 3)));
  EXPECT_EQ(scalars(rangeDataset(7).prefetch(1)), iota(0, 7));
  EXPECT_EQ(vectors(rangeDataset(7).map(identity, 2).prefetch(3).batch(4)),
            (std::vector<std::vector<int64_t>>{{0, 1, 2, 3}, {4, 5, 6}}));
  EXPECT_EQ(rangeDataset(7).prefetch(3).cardinality(), 7);
  expectThrows<InvalidArgumentError>([] { rangeDataset(3).prefetch(0); },
                                     {"prefetch", "buffer_size"});
  expectThrows<InvalidArgumentError>([] { rangeDataset(3).prefetch(-5); },
                                     {"prefetch"});
}

TEST(Dataset, PrefetchAndParallelMapStopWhenTheIteratorDies) {
  // Endless upstreams: the producer waits on a full queue, the workers on
  // an empty one; destroying the iterator must wake and join them.
  std::atomic<int64_t> calls{0};
  Dataset ds = rangeDataset(10)
                   .repeat()
                   .map(
                       [&](const Element &e) -> Element {
                         ++calls;
                         return e;
                       },
                       3)
                   .prefetch(4)
                   .map(identity, AUTOTUNE)
                   .prefetch(2);
  for (int round = 0; round < 200; ++round) {
    int64_t want = round % 10, taken = 0;
    for (const Element &e : ds) {
      EXPECT_EQ(e[0].item<int64_t>(), taken % 10);
      if (taken++ == want)
        break;
    }
  }
  // Nothing runs any more once every iterator is gone.
  int64_t before = calls.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(calls.load(), before);
  // An iterator destroyed before its first increment, and one at the end.
  for (int round = 0; round < 50; ++round) {
    Dataset::iterator it = ds.begin();
    EXPECT_EQ((*it)[0].item<int64_t>(), 0);
  }
  EXPECT_EQ(scalars(rangeDataset(3).prefetch(8)), iota(0, 3));
}

// --- cache
// ---------------------------------------------------------------------

TEST(Dataset, CacheRunsItsUpstreamOnce) {
  int64_t calls = 0;
  Dataset ds = rangeDataset(5)
                   .map([&](const Element &e) -> Element {
                     ++calls;
                     return {e[0] * int64_t(10)};
                   })
                   .cache();
  // A pass abandoned early is not kept.
  for (const Element &e : ds) {
    (void)e;
    break;
  }
  EXPECT_EQ(calls, 1);
  std::vector<int64_t> want = {0, 10, 20, 30, 40};
  EXPECT_EQ(scalars(ds), want);
  EXPECT_EQ(calls, 6);
  EXPECT_EQ(scalars(ds), want);
  EXPECT_EQ(scalars(ds.repeat(3).take(7)),
            (std::vector<int64_t>{0, 10, 20, 30, 40, 0, 10}));
  EXPECT_EQ(calls, 6);
  EXPECT_EQ(ds.cardinality(), 5);

  // A cached shuffle replays its first order; uncached it reshuffles.
  Dataset shuffled = rangeDataset(30).shuffle(30, 9);
  Dataset cached = shuffled.cache();
  std::vector<int64_t> first = scalars(cached);
  EXPECT_EQ(first, scalars(rangeDataset(30).shuffle(30, 9)));
  EXPECT_EQ(scalars(cached), first);
  EXPECT_NE(scalars(shuffled), scalars(shuffled));
  // And batches of the cached rows are the cached order.
  std::vector<std::vector<int64_t>> batches = vectors(cached.batch(30));
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0], first);
}

// --- cardinality
// ---------------------------------------------------------------

TEST(Dataset, CardinalityFollowsTfData) {
  Dataset ds = rangeDataset(10);
  Dataset endless = ds.repeat();
  Dataset unknown = ds.filter([](const Element &) { return constant(true); });
  EXPECT_EQ(ds.cardinality(), 10);
  EXPECT_EQ(ds.batch(3).cardinality(), 4);
  EXPECT_EQ(ds.batch(3, true).cardinality(), 3);
  EXPECT_EQ(ds.repeat(3).cardinality(), 30);
  EXPECT_EQ(ds.repeat(0).cardinality(), 0);
  EXPECT_EQ(endless.cardinality(), INFINITE_CARDINALITY);
  EXPECT_EQ(rangeDataset(0).repeat().cardinality(), 0);
  EXPECT_EQ(endless.take(5).cardinality(), 5);
  EXPECT_EQ(endless.skip(5).cardinality(), INFINITE_CARDINALITY);
  EXPECT_EQ(endless.batch(4).cardinality(), INFINITE_CARDINALITY);
  EXPECT_EQ(ds.take(4).cardinality(), 4);
  EXPECT_EQ(ds.take(40).cardinality(), 10);
  EXPECT_EQ(ds.take(-1).cardinality(), 10);
  EXPECT_EQ(ds.skip(4).cardinality(), 6);
  EXPECT_EQ(ds.skip(40).cardinality(), 0);
  EXPECT_EQ(ds.skip(-1).cardinality(), 0);
  EXPECT_EQ(ds.shard(3, 0).cardinality(), 4);
  EXPECT_EQ(ds.shard(3, 2).cardinality(), 3);
  EXPECT_EQ(unknown.cardinality(), UNKNOWN_CARDINALITY);
  EXPECT_EQ(unknown.take(3).cardinality(), UNKNOWN_CARDINALITY);
  EXPECT_EQ(unknown.repeat().cardinality(), INFINITE_CARDINALITY);
  EXPECT_EQ(unknown.repeat(2).cardinality(), UNKNOWN_CARDINALITY);
  EXPECT_EQ(endless.filter([](const Element &) { return constant(true); })
                .cardinality(),
            INFINITE_CARDINALITY);
  EXPECT_EQ(ds.map(identity, 2).shuffle(4).prefetch(2).cache().cardinality(),
            10);
  // Finite cardinalities are the element counts.
  for (const Dataset &d : {ds.batch(3), ds.skip(4).repeat(2), ds.shard(3, 1),
                           ds.take(4).batch(3, true), ds.repeat(2).batch(7)}) {
    int64_t n = 0;
    for (const Element &e : d) {
      (void)e;
      ++n;
    }
    EXPECT_EQ(d.cardinality(), n);
  }
}

TEST(Dataset, InvalidArgumentsNameTheMethod) {
  Dataset ds = rangeDataset(4);
  expectThrows<InvalidArgumentError>([&] { ds.shard(0, 0); },
                                     {"shard", "num_shards"});
  expectThrows<InvalidArgumentError>([&] { ds.shard(3, 3); },
                                     {"shard", "index", "3"});
  expectThrows<InvalidArgumentError>([&] { ds.shard(3, -1); },
                                     {"shard", "index"});
  expectThrows<InvalidArgumentError>([&] { ds.take(-2); }, {"take", "-2"});
  expectThrows<InvalidArgumentError>([&] { ds.skip(-2); }, {"skip", "-2"});
  expectThrows<InvalidArgumentError>([&] { ds.repeat(-4); }, {"repeat", "-4"});
  expectThrows<InvalidArgumentError>([] { Dataset().cardinality(); },
                                     {"cardinality", "empty"});
}

TEST(Dataset, ComputesEagerlyWhileAFunctionIsTraced) {
  // The batches are computed, not traced: concrete tensors that the trace
  // captures as constants.
  Tensor x = constant({{1.f, 2.f}, {3.f, 4.f}, {5.f, 6.f}});
  Dataset ds = Dataset::from_tensor_slices({x}).shuffle(3, 1).batch(2);
  std::vector<bool> symbolic;
  auto f = function([&](const Tensor &w) {
    Tensor total = constant(0.f);
    for (const Element &e : ds) {
      symbolic.push_back(e[0].is_symbolic());
      total = total + reduce_sum(e[0]);
    }
    return w * total;
  });
  EXPECT_EQ(f(constant(2.f)).item<float>(), 2.f * 21.f);
  EXPECT_EQ(symbolic, (std::vector<bool>{false, false}));
}

TEST(Dataset, AnEpochOfMnistSizedBatchesIsFast) {
  Tensor x = random_uniform({60000, 784}, 0, 1, 1);
  Tensor y = range(0, 60000, 1, DType::Int32);
  Dataset ds = Dataset::from_tensor_slices({x, y});
  for (bool shuffled : {false, true}) {
    Dataset d = shuffled ? ds.shuffle(60000, 1).batch(128) : ds.batch(128);
    auto start = std::chrono::steady_clock::now();
    int64_t batches = 0, rows = 0, labelSum = 0;
    for (const Element &e : d) {
      ++batches;
      rows += e[0].shape()[0];
      EXPECT_EQ(e[0].shape()[1], 784);
      for (int32_t v : e[1].to_vector<int32_t>())
        labelSum += v;
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count();
    std::printf("from_tensor_slices((60000, 784))%s.batch(128): one epoch "
                "in %.1f ms\n",
                shuffled ? ".shuffle(60000)" : "", seconds * 1e3);
    EXPECT_EQ(batches, 469);
    EXPECT_EQ(rows, 60000);
    EXPECT_EQ(labelSum, int64_t(59999) * 60000 / 2); // every row once
  }
}

// --- read_idx
// ------------------------------------------------------------------

TEST(ReadIdx, EveryTypePlainAndGzipped) {
  TempDir dir;
  struct Case {
    unsigned char type;
    std::vector<uint32_t> dims;
    Bytes data;
    DType dtype;
    std::vector<double> want;
  };
  std::vector<Case> cases;
  {
    Bytes d = {0, 1, 127, 128, 200, 255};
    cases.push_back(
        {0x08, {2, 3}, d, DType::Int32, {0, 1, 127, 128, 200, 255}});
    cases.push_back({0x09, {6}, d, DType::Int32, {0, 1, 127, -128, -56, -1}});
  }
  {
    Bytes d;
    for (int v : {-300, 32767, -32768, 5})
      pushBigEndian(d, static_cast<uint16_t>(v), 2);
    cases.push_back({0x0B, {2, 2}, d, DType::Int32, {-300, 32767, -32768, 5}});
  }
  {
    Bytes d;
    for (int64_t v :
         {int64_t(-70000), int64_t(2147483647), int64_t(-2147483647 - 1)})
      pushBigEndian(d, static_cast<uint32_t>(v), 4);
    cases.push_back({0x0C,
                     {3, 1, 1},
                     d,
                     DType::Int32,
                     {-70000, 2147483647, -2147483648.0}});
  }
  {
    Bytes d;
    for (float v : {1.5f, -0.25f})
      pushBigEndian(d, std::bit_cast<uint32_t>(v), 4);
    cases.push_back({0x0D, {2}, d, DType::Float32, {1.5, -0.25}});
  }
  {
    Bytes d;
    for (double v : {1e300, -3.0})
      pushBigEndian(d, std::bit_cast<uint64_t>(v), 8);
    cases.push_back({0x0E, {1, 2}, d, DType::Float64, {1e300, -3.0}});
  }
  for (const Case &c : cases) {
    Bytes file = idx(c.type, c.dims, c.data);
    for (bool gz : {false, true}) {
      std::string name = std::to_string(c.type);
      name += gz ? ".idx.gz" : ".idx";
      std::string path = dir.file(name);
      writeFile(path, gz ? gzip(file) : file);
      Tensor t = read_idx(path);
      EXPECT_EQ(t.dtype(), c.dtype);
      std::vector<int64_t> shape(c.dims.begin(), c.dims.end());
      EXPECT_EQ(t.shape(), shape);
      std::vector<double> got = cast(t, DType::Float64).to_vector<double>();
      EXPECT_EQ(got, c.want) << "type " << int(c.type) << " gz " << gz;
    }
  }
  // A gzip file of two members (as `cat a.gz b.gz` makes) is one stream.
  Bytes whole = idx(0x08, {4}, {9, 8, 7, 6});
  Bytes first(whole.begin(), whole.begin() + 6),
      second(whole.begin() + 6, whole.end());
  Bytes two = gzip(first), tail = gzip(second);
  two.insert(two.end(), tail.begin(), tail.end());
  writeFile(dir.file("two.gz"), two);
  EXPECT_EQ(read_idx(dir.file("two.gz")).to_vector<int32_t>(),
            (std::vector<int32_t>{9, 8, 7, 6}));
  // Empty dims are fine: no data.
  writeFile(dir.file("empty.idx"), idx(0x08, {0, 28}, {}));
  EXPECT_EQ(read_idx(dir.file("empty.idx")).shape(),
            (std::vector<int64_t>{0, 28}));
}

TEST(ReadIdx, HostileFilesThrowNamingTheFileAndProblem) {
  TempDir dir;
  Bytes good = idx(0x08, {2, 2}, {1, 2, 3, 4});
  struct Case {
    std::string name;
    Bytes bytes;
    std::string problem;
  };
  Bytes truncatedGz = gzip(good);
  truncatedGz.resize(truncatedGz.size() - 6);
  Bytes corruptGz = gzip(idx(0x08, {64}, Bytes(64, 7)));
  for (size_t i = 10; i < corruptGz.size() - 8; ++i)
    corruptGz[i] ^= 0x5a;
  Bytes badCrc = gzip(good);
  badCrc[badCrc.size() - 6] ^= 1; // the CRC32 in the trailer
  Bytes garbageAfterGz = gzip(good);
  for (unsigned char c : {'j', 'u', 'n', 'k'})
    garbageAfterGz.push_back(c);
  Bytes huge = idx(0x08, {65536, 65536, 65536}, {1, 2, 3}); // 2^48 bytes
  Bytes overflow =
      idx(0x0E, {0x7fffffff, 0x7fffffff, 0x7fffffff}, {}); // > 2^63 bytes
  Bytes trailing = good;
  trailing.push_back(0);
  std::vector<Case> cases = {
      {"empty", {}, "truncated header"},
      {"short-magic", {0, 0, 8}, "truncated header"},
      {"short-dims", {0, 0, 8, 2, 0, 0, 0, 2, 0, 0}, "truncated header"},
      {"bad-magic", {1, 0, 8, 1, 0, 0, 0, 1, 5}, "bad magic"},
      {"bad-type", {0, 0, 0x0A, 1, 0, 0, 0, 1, 5}, "unknown data type 0x0a"},
      {"rank-0", {0, 0, 8, 0}, "number of dimensions 0"},
      {"rank-9", idx(0x08, std::vector<uint32_t>(9, 1), {1}),
       "number of dimensions 9"},
      {"negative-dim", idx(0x08, {0xffffffff}, {}), "negative"},
      {"truncated-data", idx(0x08, {2, 2}, {1, 2, 3}), "truncated data"},
      {"huge-dims", huge, "truncated data"},
      {"huge-dims.gz", gzip(huge), "truncated data"},
      {"overflow", overflow, "overflow"},
      {"trailing", trailing, "trailing bytes"},
      {"trailing.gz", gzip(trailing), "trailing bytes"},
      {"truncated.gz", truncatedGz, "truncated gzip"},
      {"corrupt.gz", corruptGz, "corrupt gzip"},
      {"bad-crc.gz", badCrc, "corrupt gzip"},
      {"garbage-after.gz", garbageAfterGz, "corrupt gzip"},
  };
  for (const Case &c : cases) {
    std::string path = dir.file(c.name);
    writeFile(path, c.bytes);
    SCOPED_TRACE(c.name);
    expectThrows<InvalidArgumentError>([&] { read_idx(path); },
                                       {"read_idx", path, c.problem});
  }
  expectThrows<InvalidArgumentError>(
      [&] { read_idx(dir.file("missing")); },
      {"read_idx", dir.file("missing"), "cannot open"});
  expectThrows<InvalidArgumentError>([&] { read_idx(dir.path); },
                                     {"read_idx", "directory"});
}

TEST(ReadIdx, MutatedFilesNeverCrash) {
  // Random truncations and byte flips of valid files: each read succeeds
  // or throws a tfc::Error.
  TempDir dir;
  Bytes data(3 * 5 * 4);
  for (size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<unsigned char>(i * 37);
  Bytes plain = idx(0x0D, {3, 5}, data);
  Bytes gz = gzip(plain);
  std::mt19937 rng(1234);
  std::string path = dir.file("mutant");
  int errors = 0;
  for (int round = 0; round < 400; ++round) {
    Bytes b = round % 2 ? gz : plain;
    if (rng() % 3 == 0) {
      b.resize(rng() % b.size());
    } else {
      for (int k = 0, n = 1 + rng() % 3; k < n; ++k)
        b[rng() % b.size()] ^= static_cast<unsigned char>(1 + rng() % 255);
    }
    writeFile(path, b);
    try {
      Tensor t = read_idx(path);
      EXPECT_LE(t.nbytes(), size_t(1) << 20);
    } catch (const Error &) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 200);
}

// --- read_csv
// ------------------------------------------------------------------

TEST(ReadCsv, ParsesColumnsOfEachDType) {
  TempDir dir;
  std::string text = "a, b ,c,d,e\n"
                     "1,2.5,true,-7,0.1\r\n"
                     "\n"
                     " -3 , 4e2 ,0,9000000000,+2\n"
                     "5,-0.125,False,1,-1e-300\n";
  writeText(dir.file("mixed.csv"), text);
  std::vector<Tensor> cols =
      read_csv(dir.file("mixed.csv"),
               {.column_dtypes = {DType::Int32, DType::Float32, DType::Bool,
                                  DType::Int64, DType::Float64}});
  ASSERT_EQ(cols.size(), 5u);
  EXPECT_EQ(cols[0].to_vector<int32_t>(), (std::vector<int32_t>{1, -3, 5}));
  EXPECT_EQ(cols[1].to_vector<float>(),
            (std::vector<float>{2.5f, 400.f, -0.125f}));
  EXPECT_EQ(cols[2].dtype(), DType::Bool);
  EXPECT_EQ(cast(cols[2], DType::Int32).to_vector<int32_t>(),
            (std::vector<int32_t>{1, 0, 0}));
  EXPECT_EQ(cols[3].to_vector<int64_t>(),
            (std::vector<int64_t>{-7, 9000000000, 1}));
  EXPECT_EQ(cols[4].to_vector<double>(),
            (std::vector<double>{0.1, 2, -1e-300}));
  for (const Tensor &c : cols)
    EXPECT_EQ(c.shape(), (std::vector<int64_t>{3}));

  // No header, another delimiter, all Float32 by default, gzipped.
  std::string semi = "1;2\n3;4.5";
  Bytes bytes(semi.begin(), semi.end());
  writeFile(dir.file("semi.csv.gz"), gzip(bytes));
  cols = read_csv(dir.file("semi.csv.gz"), {.delimiter = ';', .header = false});
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[0].to_vector<float>(), (std::vector<float>{1, 3}));
  EXPECT_EQ(cols[1].to_vector<float>(), (std::vector<float>{2, 4.5f}));
  EXPECT_EQ(cols[1].dtype(), DType::Float32);

  // A header and no rows: empty columns.
  writeText(dir.file("header-only.csv"), "x,y\n");
  cols = read_csv(dir.file("header-only.csv"));
  ASSERT_EQ(cols.size(), 2u);
  EXPECT_EQ(cols[0].shape(), (std::vector<int64_t>{0}));
  // The columns feed a dataset directly.
  writeText(dir.file("xy.csv"), "x,y\n1,10\n2,20\n3,30\n");
  cols = read_csv(dir.file("xy.csv"));
  std::vector<float> sums;
  for (const Element &e : Dataset::from_tensor_slices(cols).batch(2))
    sums.push_back(reduce_sum(e[0] + e[1]).item<float>());
  EXPECT_EQ(sums, (std::vector<float>{33, 33}));
}

TEST(ReadCsv, BadFilesNameFileLineAndColumn) {
  TempDir dir;
  struct Case {
    std::string text;
    CsvOptions options;
    std::vector<std::string> parts;
  };
  std::vector<Case> cases = {
      {"a,b,c\n1,2,3\n4,5\n", {}, {"line 3", "2 fields, expected 3"}},
      {"a,b\n1,2\n3,4,5\n", {}, {"line 3", "3 fields, expected 2"}},
      {"a,b\n1,abc\n", {}, {"line 2, column 2", "'abc'", "float32"}},
      {"a,b\n1,\n", {}, {"line 2, column 2", "empty field"}},
      {"a\n1.5.2\n", {}, {"line 2, column 1", "'1.5.2'"}},
      {"a\n3000000000\n",
       {.column_dtypes = {DType::Int32}},
       {"line 2, column 1", "int32"}},
      {"a\n2.5\n", {.column_dtypes = {DType::Int64}}, {"'2.5'", "int64"}},
      {"a\n1e50\n", {}, {"'1e50'", "float32"}},
      {"a\nyes\n", {.column_dtypes = {DType::Bool}}, {"'yes'", "bool"}},
      {"a\n+-1\n", {}, {"'+-1'"}},
      {"a,b\n1,2\n",
       {.column_dtypes = {DType::Float32}},
       {"line 1", "header has 2 columns"}},
      {"", {}, {"empty", "header"}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    std::string path = dir.file("bad" + std::to_string(i) + ".csv");
    writeText(path, cases[i].text);
    SCOPED_TRACE(cases[i].text);
    try {
      read_csv(path, cases[i].options);
      ADD_FAILURE() << "no exception";
    } catch (const InvalidArgumentError &e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find("read_csv"), std::string::npos) << msg;
      EXPECT_NE(msg.find(path), std::string::npos) << msg;
      for (const std::string &p : cases[i].parts)
        EXPECT_NE(msg.find(p), std::string::npos) << p << " not in " << msg;
    }
  }
  expectThrows<InvalidArgumentError>([&] { read_csv(dir.file("missing.csv")); },
                                     {"read_csv", "cannot open"});
  expectThrows<InvalidArgumentError>(
      [&] { read_csv(dir.file("bad0.csv"), {.delimiter = '\n'}); },
      {"read_csv", "delimiter"});
}

// --- Fashion-MNIST
// ---------------------------------------------------------------

namespace fashion = tfc::keras::datasets::fashion_mnist;

TEST(FashionMnist, LoadsTheDebianPackage) {
  std::string dir = fashion::kDefaultDir;
  if (!std::filesystem::exists(dir + "/train-images-idx3-ubyte.gz"))
    GTEST_SKIP() << "dataset-fashion-mnist is not installed";
  auto [train, test] = fashion::load_data();
  auto [xTrain, yTrain] = train;
  auto [xTest, yTest] = test;
  EXPECT_EQ(xTrain.shape(), (std::vector<int64_t>{60000, 28, 28}));
  EXPECT_EQ(yTrain.shape(), (std::vector<int64_t>{60000}));
  EXPECT_EQ(xTest.shape(), (std::vector<int64_t>{10000, 28, 28}));
  EXPECT_EQ(yTest.shape(), (std::vector<int64_t>{10000}));
  for (const Tensor &t : {xTrain, yTrain, xTest, yTest})
    EXPECT_EQ(t.dtype(), DType::Int32);
  EXPECT_EQ(reduce_min(xTrain).item<int32_t>(), 0);
  EXPECT_EQ(reduce_max(xTrain).item<int32_t>(), 255);
  EXPECT_EQ(yTrain.to_vector<int32_t>()[0], 9); // "Ankle boot"
  EXPECT_EQ(yTest.to_vector<int32_t>()[0], 9);
  // Balanced classes: 6000 of each in training, 1000 in the test set.
  std::map<int32_t, int> trainCounts, testCounts;
  for (int32_t v : yTrain.to_vector<int32_t>())
    ++trainCounts[v];
  for (int32_t v : yTest.to_vector<int32_t>())
    ++testCounts[v];
  ASSERT_EQ(trainCounts.size(), 10u);
  for (auto [label, count] : trainCounts) {
    EXPECT_EQ(count, 6000) << label;
    EXPECT_EQ(testCounts[label], 1000) << label;
  }
}

TEST(FashionMnist, MissingFilesNameTheDirectoryAndThePackage) {
  expectThrows<Error>(
      [] { fashion::load_data("/nonexistent/fashion"); },
      {"/nonexistent/fashion", "dataset-fashion-mnist", "apt-get install"});
  TempDir dir;
  expectThrows<Error>(
      [&] { fashion::load_data(dir.path); },
      {dir.path, "train-images-idx3-ubyte", "dataset-fashion-mnist"});
}

TEST(FashionMnist, ReadsUncompressedFilesAndChecksShapes) {
  TempDir dir;
  auto images = [](uint32_t n, uint32_t side) {
    Bytes px(n * side * side);
    for (size_t i = 0; i < px.size(); ++i)
      px[i] = static_cast<unsigned char>(i % 256);
    return idx(0x08, {n, side, side}, px);
  };
  writeFile(dir.file("train-images-idx3-ubyte"), images(3, 28));
  writeFile(dir.file("train-labels-idx1-ubyte"), idx(0x08, {3}, {9, 0, 4}));
  writeFile(dir.file("t10k-images-idx3-ubyte.gz"), gzip(images(2, 28)));
  writeFile(dir.file("t10k-labels-idx1-ubyte"), idx(0x08, {2}, {1, 2}));
  auto [train, test] = fashion::load_data(dir.path);
  EXPECT_EQ(train.first.shape(), (std::vector<int64_t>{3, 28, 28}));
  EXPECT_EQ(train.first.to_vector<int32_t>()[300], 300 % 256);
  EXPECT_EQ(train.second.to_vector<int32_t>(), (std::vector<int32_t>{9, 0, 4}));
  EXPECT_EQ(test.first.shape(), (std::vector<int64_t>{2, 28, 28}));
  EXPECT_EQ(test.second.to_vector<int32_t>(), (std::vector<int32_t>{1, 2}));

  writeFile(dir.file("t10k-labels-idx1-ubyte"), idx(0x08, {2}, {1, 10}));
  expectThrows<Error>([&] { fashion::load_data(dir.path); },
                      {"t10k-labels-idx1-ubyte", "[0, 9]"});
  writeFile(dir.file("t10k-labels-idx1-ubyte"), idx(0x08, {3}, {1, 2, 3}));
  expectThrows<Error>([&] { fashion::load_data(dir.path); },
                      {"t10k-labels-idx1-ubyte", "2 integer labels"});
  writeFile(dir.file("train-images-idx3-ubyte"), images(3, 27));
  expectThrows<Error>([&] { fashion::load_data(dir.path); },
                      {"train-images-idx3-ubyte", "(3, 27, 27)"});
}

} // namespace
