//===- ShapeTest.cpp - reshape, transpose, expand/squeeze, concat, slice --===//

#include "TestUtil.h"

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

std::vector<int32_t> iota32(int n) {
  std::vector<int32_t> v(n);
  for (int i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

TEST(Shape, ReshapeIsAView) {
  Tensor x = make<int32_t>(iota32(6), {2, 3});
  Tensor r = k::reshape(x, {3, 2});
  expectEq<int32_t>(r, {3, 2}, iota32(6));
  EXPECT_EQ(r.raw_data(), x.raw_data());
  EXPECT_EQ(r.storage(), x.storage());
  expectEq<int32_t>(k::reshape(x, {-1}), {6}, iota32(6));
  expectEq<int32_t>(k::reshape(x, {2, -1, 1}), {2, 3, 1}, iota32(6));
  expectEq<float>(k::reshape(make<float>({5}, {1, 1}), {}), {}, {5});
  expectEq<float>(k::reshape(scalar(5.f), {1, 1, 1}), {1, 1, 1}, {5});
  expectEq<float>(k::reshape(make<float>({}, {0, 4}), {2, 0}), {2, 0}, {});
  expectEq<float>(k::reshape(make<float>({}, {0, 4}), {-1, 4}), {0, 4}, {});
}

TEST(Shape, Transpose2DAndND) {
  Tensor x = make<int32_t>(iota32(6), {2, 3});
  expectEq<int32_t>(k::transpose(x, {}), {3, 2}, {0, 3, 1, 4, 2, 5});
  expectEq<int32_t>(k::transpose(x, {1, 0}), {3, 2}, {0, 3, 1, 4, 2, 5});
  expectEq<int32_t>(k::transpose(x, {0, 1}), {2, 3}, iota32(6));
  Tensor y = make<int32_t>(iota32(24), {2, 3, 4});
  // perm (2, 0, 1): out[i][j][l] = y[j][l][i].
  std::vector<int32_t> want;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j)
      for (int l = 0; l < 3; ++l)
        want.push_back(j * 12 + l * 4 + i);
  expectEq<int32_t>(k::transpose(y, {2, 0, 1}), {4, 2, 3}, want);
  // Batched swap of the last two dims (the tiled path).
  want.clear();
  for (int b = 0; b < 2; ++b)
    for (int l = 0; l < 4; ++l)
      for (int j = 0; j < 3; ++j)
        want.push_back(b * 12 + j * 4 + l);
  expectEq<int32_t>(k::transpose(y, {0, 2, 1}), {2, 4, 3}, want);
  // Negative entries count from the end; rank 0 and size-1 dims.
  expectEq<int32_t>(k::transpose(x, {-1, -2}), {3, 2}, {0, 3, 1, 4, 2, 5});
  expectEq<float>(k::transpose(scalar(3.f), {}), {}, {3});
  expectEq<double>(k::transpose(make<double>({1, 2}, {1, 2}), {}), {2, 1}, {1, 2});
  expectEq<bool>(k::transpose(make<bool>({true, false, false, true, true, false},
                                         {3, 2}), {}),
                 {2, 3}, {true, false, true, false, true, false});
}

TEST(Shape, TransposeLargeMatchesReference) {
  const int R = 70, C = 129;
  std::vector<int64_t> v(R * C);
  for (int i = 0; i < R * C; ++i)
    v[i] = i;
  std::vector<int64_t> want(R * C);
  for (int i = 0; i < R; ++i)
    for (int j = 0; j < C; ++j)
      want[j * R + i] = v[i * C + j];
  expectEq<int64_t>(k::transpose(make<int64_t>(v, {R, C}), {}), {C, R}, want);
}

TEST(Shape, ExpandDimsAndSqueeze) {
  Tensor x = make<float>({1, 2, 3}, {3});
  EXPECT_EQ(k::expand_dims(x, 0).shape(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(k::expand_dims(x, 1).shape(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(k::expand_dims(x, -1).shape(), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(k::expand_dims(x, -2).shape(), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(k::expand_dims(scalar(1.f), 0).shape(), (std::vector<int64_t>{1}));
  Tensor y = make<float>({1, 2, 3}, {1, 3, 1});
  expectEq<float>(k::squeeze(y, {}), {3}, {1, 2, 3});
  expectEq<float>(k::squeeze(y, {0}), {3, 1}, {1, 2, 3});
  expectEq<float>(k::squeeze(y, {-1}), {1, 3}, {1, 2, 3});
  expectEq<float>(k::squeeze(make<float>({4}, {1, 1}), {}), {}, {4});
  EXPECT_EQ(k::squeeze(y, {}).raw_data(), y.raw_data());
}

TEST(Shape, Concat) {
  Tensor a = make<int32_t>({1, 2, 3, 4}, {2, 2});
  Tensor b = make<int32_t>({5, 6}, {1, 2});
  Tensor c = make<int32_t>({7, 8}, {2, 1});
  expectEq<int32_t>(k::concat({a, b}, 0), {3, 2}, {1, 2, 3, 4, 5, 6});
  expectEq<int32_t>(k::concat({a, c}, 1), {2, 3}, {1, 2, 7, 3, 4, 8});
  expectEq<int32_t>(k::concat({a, c}, -1), {2, 3}, {1, 2, 7, 3, 4, 8});
  expectEq<int32_t>(k::concat({a}, 0), {2, 2}, {1, 2, 3, 4});
  expectEq<int32_t>(k::concat({a, make<int32_t>({}, {0, 2}), b}, 0), {3, 2},
                    {1, 2, 3, 4, 5, 6});
  expectEq<double>(k::concat({make<double>({1}, {1}), make<double>({2, 3}, {2})}, 0),
                   {3}, {1, 2, 3});
  expectEq<bool>(k::concat({make<bool>({true}, {1}), make<bool>({false}, {1})}, 0),
                 {2}, {true, false});
}

TEST(Shape, Slice) {
  Tensor x = make<int32_t>(iota32(12), {3, 4});
  expectEq<int32_t>(k::slice(x, {1, 1}, {2, 2}), {2, 2}, {5, 6, 9, 10});
  expectEq<int32_t>(k::slice(x, {0, 2}, {-1, -1}), {3, 2}, {2, 3, 6, 7, 10, 11});
  // Contiguous rows: a view.
  Tensor rows = k::slice(x, {1, 0}, {2, 4});
  expectEq<int32_t>(rows, {2, 4}, {4, 5, 6, 7, 8, 9, 10, 11});
  EXPECT_EQ(rows.storage(), x.storage());
  expectEq<int32_t>(k::slice(x, {2, 1}, {1, 2}), {1, 2}, {9, 10});
  expectEq<int32_t>(k::slice(x, {3, 0}, {0, 4}), {0, 4}, {});
  expectEq<float>(k::slice(scalar(2.f), {}, {}), {}, {2});
  Tensor y = make<int32_t>(iota32(24), {2, 3, 4});
  expectEq<int32_t>(k::slice(y, {1, 0, 1}, {1, 3, 2}), {1, 3, 2},
                    {13, 14, 17, 18, 21, 22});
  expectEq<int32_t>(k::slice(y, {0, 1, 0}, {2, 2, 4}), {2, 2, 4},
                    {4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23});
}

} // namespace
