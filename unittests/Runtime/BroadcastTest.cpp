//===- BroadcastTest.cpp - NumPy broadcasting in binary kernels -----------===//

#include "TestUtil.h"

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

/// Reference broadcast add by explicit index arithmetic.
std::vector<double> naiveAdd(const std::vector<double> &a,
                             const std::vector<int64_t> &as,
                             const std::vector<double> &b,
                             const std::vector<int64_t> &bs,
                             const std::vector<int64_t> &os) {
  int64_t n = shape_numel(os);
  std::vector<double> out(n);
  size_t r = os.size();
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t rem = flat, ia = 0, ib = 0, sa = 1, sb = 1;
    for (size_t d = r; d-- > 0;) {
      int64_t idx = rem % os[d];
      rem /= os[d];
      if (d + as.size() >= r) {
        int64_t dim = as[d + as.size() - r];
        ia += (dim == 1 ? 0 : idx) * sa;
        sa *= dim;
      }
      if (d + bs.size() >= r) {
        int64_t dim = bs[d + bs.size() - r];
        ib += (dim == 1 ? 0 : idx) * sb;
        sb *= dim;
      }
    }
    out[flat] = a[ia] + b[ib];
  }
  return out;
}

std::vector<double> iota(int64_t n, double scale) {
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = double(i) * scale;
  return v;
}

TEST(Broadcast, Shapes) {
  EXPECT_EQ(k::broadcast_shapes("add", {2, 3}, {3}), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(k::broadcast_shapes("add", {}, {4}), (std::vector<int64_t>{4}));
  EXPECT_EQ(k::broadcast_shapes("add", {3, 1}, {1, 4}), (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(k::broadcast_shapes("add", {2, 1, 3}, {4, 1}),
            (std::vector<int64_t>{2, 4, 3}));
  EXPECT_EQ(k::broadcast_shapes("add", {0, 1}, {1, 5}), (std::vector<int64_t>{0, 5}));
  EXPECT_EQ(k::broadcast_shapes("add", {}, {}), (std::vector<int64_t>{}));
  expectError<InvalidArgumentError>(
      [] { k::broadcast_shapes("mul", {2, 3}, {4}); },
      {"mul: incompatible shapes (2, 3) and (4,)"});
}

TEST(Broadcast, ScalarBothSides) {
  Tensor x = make<float>({1, 2, 3, 4, 5, 6}, {2, 3});
  expectEq<float>(k::sub(x, scalar(1.f)), {2, 3}, {0, 1, 2, 3, 4, 5});
  expectEq<float>(k::sub(scalar(10.f), x), {2, 3}, {9, 8, 7, 6, 5, 4});
  // A [1]-shaped "scalar" against a matrix still broadcasts.
  expectEq<float>(k::mul(x, make<float>({2}, {1})), {2, 3}, {2, 4, 6, 8, 10, 12});
  expectEq<float>(k::mul(make<float>({2}, {1, 1}), x), {2, 3},
                  {2, 4, 6, 8, 10, 12});
}

TEST(Broadcast, RowAndColumn) {
  Tensor x = make<int32_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor row = make<int32_t>({10, 20, 30}, {3});
  Tensor col = make<int32_t>({100, 200}, {2, 1});
  expectEq<int32_t>(k::add(x, row), {2, 3}, {11, 22, 33, 14, 25, 36});
  expectEq<int32_t>(k::add(row, x), {2, 3}, {11, 22, 33, 14, 25, 36});
  expectEq<int32_t>(k::add(x, col), {2, 3}, {101, 102, 103, 204, 205, 206});
  expectEq<int32_t>(k::sub(col, x), {2, 3}, {99, 98, 97, 196, 195, 194});
}

TEST(Broadcast, BothSidesOuter) {
  Tensor a = make<double>({1, 2, 3}, {3, 1});
  Tensor b = make<double>({10, 20, 30, 40}, {1, 4});
  expectEq<double>(k::add(a, b), {3, 4},
                   {11, 21, 31, 41, 12, 22, 32, 42, 13, 23, 33, 43});
  expectEq<bool>(k::compare(k::CmpPredicate::LT, make<int64_t>({1, 5}, {2, 1}),
                            make<int64_t>({2, 3, 6}, {3})),
                 {2, 3}, {true, true, true, false, false, true});
}

TEST(Broadcast, RankExtensionMatchesReference) {
  struct Case {
    std::vector<int64_t> a, b, out;
  } cases[] = {
      {{2, 1, 3}, {4, 1}, {2, 4, 3}},
      {{5, 1, 1, 7}, {1, 6, 2, 1}, {5, 6, 2, 7}},
      {{3, 4, 5}, {4, 1}, {3, 4, 5}},
      {{1}, {2, 3, 4}, {2, 3, 4}},
      {{2, 3, 1, 5}, {3, 4, 1}, {2, 3, 4, 5}},
  };
  for (const Case &c : cases) {
    auto av = iota(shape_numel(c.a), 1.0), bv = iota(shape_numel(c.b), 100.0);
    Tensor out = k::add(make<double>(av, c.a), make<double>(bv, c.b));
    expectEq<double>(out, c.out, naiveAdd(av, c.a, bv, c.b, c.out));
  }
}

TEST(Broadcast, LargeStridedMatchesReference) {
  // Big enough to split rows across threads in the general path.
  std::vector<int64_t> as{64, 1, 300}, bs{7, 1}, os{64, 7, 300};
  auto av = iota(shape_numel(as), 0.5), bv = iota(shape_numel(bs), 3.0);
  Tensor out = k::add(make<double>(av, as), make<double>(bv, bs));
  expectEq<double>(out, os, naiveAdd(av, as, bv, bs, os));
  // Few long rows: the per-row split.
  std::vector<int64_t> cs{2, 1}, ds{1, 100000}, es{2, 100000};
  auto cv = iota(2, 1.0), dv = iota(100000, 1.0);
  expectEq<double>(k::add(make<double>(cv, cs), make<double>(dv, ds)), es,
                   naiveAdd(cv, cs, dv, ds, es));
}

TEST(Broadcast, EmptyOutputs) {
  expectEq<float>(k::add(make<float>({}, {0, 1}), make<float>({1, 2}, {2})),
                  {0, 2}, {});
  expectEq<float>(k::add(make<float>({}, {2, 0}), make<float>({1, 2}, {2, 1})),
                  {2, 0}, {});
}

TEST(Broadcast, BroadcastTo) {
  expectEq<int32_t>(k::broadcast_to(make<int32_t>({1, 2}, {2, 1}), {2, 3}),
                    {2, 3}, {1, 1, 1, 2, 2, 2});
  expectEq<int32_t>(k::broadcast_to(make<int32_t>({1, 2, 3}, {3}), {2, 3}),
                    {2, 3}, {1, 2, 3, 1, 2, 3});
  expectEq<float>(k::broadcast_to(scalar(7.f), {2, 2}), {2, 2}, {7, 7, 7, 7});
  expectEq<bool>(k::broadcast_to(make<bool>({true, false}, {2}), {2, 2}),
                 {2, 2}, {true, false, true, false});
  expectEq<double>(k::broadcast_to(make<double>({5}, {1}), {0}), {0}, {});
  Tensor same = make<float>({1, 2}, {2});
  EXPECT_EQ(k::broadcast_to(same, {2}).raw_data(), same.raw_data());
}

} // namespace
