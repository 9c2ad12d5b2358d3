//===- UserGuideTest.cpp - The examples of docs/user-guide.md
//--------------===//
//
// Each test runs a snippet of the eager section of docs/user-guide.md and
// checks the output the guide shows. Keep the two in sync.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include <cstdio>
#include <limits>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace tfc;
using namespace tfc::testing;

namespace {

std::string lines(std::initializer_list<const char *> ls) {
  std::string s;
  for (const char *l : ls)
    s += std::string(l) + "\n";
  return s;
}

TEST(UserGuide, Tensors) {
  std::ostringstream out;
  Tensor a = constant({{1.f, 2.f}, {3.f, 4.f}});
  Tensor n = constant(6);
  Tensor m = constant({1, 2.5});
  Tensor v = from_vector<int64_t>({1, 2, 3, 4, 5, 6}, {2, 3});
  out << a << "\n" << n << "\n" << m << "\n" << v << "\n";
  EXPECT_EQ(
      out.str(),
      lines({"tfc.Tensor(", "[[1. 2.]",
             " [3. 4.]], shape=(2, 2), dtype=float32)",
             "tfc.Tensor(6, shape=(), dtype=int32)",
             "tfc.Tensor([1.  2.5], shape=(2,), dtype=float64)", "tfc.Tensor(",
             "[[1 2 3]", " [4 5 6]], shape=(2, 3), dtype=int64)"}));
}

TEST(UserGuide, Conv2D) {
  std::ostringstream out;
  Tensor image = reshape(cast(range(1, 10), DType::Float32), {1, 3, 3, 1});
  Tensor box = ones({2, 2, 1, 1}); // 2x2 window sums
  out << conv2d(image, box) << "\n";
  out << conv2d(image, ones({3, 3, 1, 1}), {2, 2}, Padding::Same).shape()[1]
      << "\n";
  EXPECT_EQ(out.str(),
            lines({"tfc.Tensor(", "[[[[12.]", "   [16.]]", "", "  [[24.]",
                   "   [28.]]]], shape=(1, 2, 2, 1), dtype=float32)", "2"}));
}

TEST(UserGuide, GatherRandomTopK) {
  std::ostringstream out;
  Tensor table = reshape(cast(range(0, 6), DType::Float32), {3, 2});
  out << gather(table, constant({2, 0, 2})) << "\n";
  out << sparse_softmax_cross_entropy_with_logits(constant({1}),
                                                  constant({{0.f, 0.f}}))
      << "\n";
  auto gen = random::Generator::from_seed(7);
  auto draw = function([&] { return gen.uniform({2}); });
  out << (draw().to_vector<float>() != draw().to_vector<float>()) << "\n";
  out << top_k(constant({3.f, 1.f, 4.f, 1.f}), 2).second << "\n";
  EXPECT_EQ(out.str(),
            lines({"tfc.Tensor(", "[[4. 5.]", " [0. 1.]",
                   " [4. 5.]], shape=(3, 2), dtype=float32)",
                   "tfc.Tensor([0.6931472], shape=(1,), dtype=float32)", "1",
                   "tfc.Tensor([2 0], shape=(2,), dtype=int32)"}));
}

TEST(UserGuide, Ops) {
  std::ostringstream out;
  Tensor x = constant({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  out << x * 2 + 1 << "\n";
  out << reduce_sum(x, {-1}) << "\n";
  out << reduce_mean(x, {0}, /*keepdims=*/true) << "\n";
  out << (x > 2.f) << "\n";
  out << softmax(constant({1.f, 2.f, 3.f})) << "\n";
  out << floor_div(constant({7, -7}), 2) << " " << mod(constant({7, -7}), 2)
      << "\n";
  EXPECT_EQ(out.str(),
            lines({"tfc.Tensor(", "[[ 3.  5.  7.]",
                   " [ 9. 11. 13.]], shape=(2, 3), dtype=float32)",
                   "tfc.Tensor([ 6. 15.], shape=(2,), dtype=float32)",
                   "tfc.Tensor([[2.5 3.5 4.5]], shape=(1, 3), dtype=float32)",
                   "tfc.Tensor(", "[[False False  True]",
                   " [ True  True  True]], shape=(2, 3), dtype=bool)",
                   "tfc.Tensor([0.09003057 0.24472848 0.66524094], "
                   "shape=(3,), dtype=float32)",
                   "tfc.Tensor([ 3 -4], shape=(2,), dtype=int32) "
                   "tfc.Tensor([1 1], shape=(2,), dtype=int32)"}));
}

TEST(UserGuide, Variables) {
  Variable w(zeros({2}), "w");
  Variable alias = w;
  alias.assign_add(constant({1.f, 2.f}));
  w.assign_sub(0.5f);
  EXPECT_EQ(w.value().str(),
            "tfc.Tensor([0.5 1.5], shape=(2,), dtype=float32)");
}

TEST(UserGuide, ControlFlowPrintAssert) {
  Tensor x = constant({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}});
  Tensor y = cond(
      reduce_sum(x) > 10.f, [&] { return x / 2; }, [&] { return x; });
  EXPECT_TRUE(tensorIs(y, DType::Float32, {2, 3}, {0.5, 1, 1.5, 2, 2.5, 3}));
  auto r = while_loop([](const std::vector<Tensor> &v) { return v[0] < 10; },
                      [](const std::vector<Tensor> &v) {
                        return std::vector<Tensor>{v[0] * 2};
                      },
                      {constant(1)});
  EXPECT_EQ(r[0].str(), "tfc.Tensor(16, shape=(), dtype=int32)");

  PrintCapture capture;
  print("x =", x);
  print("sum and max:", reduce_sum(x), reduce_max(x));
  EXPECT_EQ(capture.lines,
            (std::vector<std::string>{"x = [[1. 2. 3.]\n [4. 5. 6.]]",
                                      "sum and max: 21.0 6.0"}));

  EXPECT_TRUE(throwsWith<RuntimeError>(
      [&] { assert_true(x > 3.f, "x must exceed 3"); },
      {"assertion failed: x must exceed 3 (element 0 of the predicate, shape "
       "(2, 3), is false)"}));
}

TEST(UserGuide, Errors) {
  Variable w(zeros({2}), "w");
  Tensor x = zeros({2, 3});
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [] {
        add(constant({1.f, 2.f}), constant({1.f, 2.f, 3.f}));
      },
      {"add: incompatible shapes (2,) and (3,) (float32 vs float32) (at "}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { reduce_sum(x, {2}); },
      {"reduce_sum: axis 2 is out of range for shape (2, 3) (rank 2, valid "
       "axes are [-2, 2)) (at "}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { w.assign(zeros({3})); },
      {"assign: variable 'w' has shape (2,) and dtype float32, but the value "
       "has shape (3,) and dtype float32 (a variable's shape is fixed when it "
       "is created) (at "}));
}

// "Using tfc from an outside project": the version macros of the headers and
// tfc::version() of the loaded library agree, and spell MAJOR.MINOR.PATCH.
TEST(UserGuide, Version) {
  static_assert(TFC_VERSION_MAJOR == 0 && TFC_VERSION_MINOR >= 1);
  std::ostringstream out;
  out << TFC_VERSION_STRING << " " << tfc::version();
  std::string v = std::to_string(TFC_VERSION_MAJOR) + "." +
                  std::to_string(TFC_VERSION_MINOR) + "." +
                  std::to_string(TFC_VERSION_PATCH);
  EXPECT_EQ(out.str(), v + " " + v);
}

TEST(UserGuide, ThreadsCudaPrintOptions) {
  int saved = kernels::get_num_threads();
  kernels::set_num_threads(1);
  EXPECT_EQ(kernels::get_num_threads(), 1);
  kernels::set_num_threads(0);
  EXPECT_GE(kernels::get_num_threads(), 1);
  kernels::set_num_threads(saved);

  Device device = cuda::is_available() ? Device::cuda(0) : Device::cpu();
  Tensor x = random_uniform({1024}, -1, 1, 1).to(device);
  EXPECT_EQ(x.device(), device);
  EXPECT_EQ(cuda::is_available(), cuda::device_count() > 0);

  std::ostringstream out;
  Tensor t = constant({1.0 / 3, 2.0 / 3});
  set_print_options({.precision = 3});
  out << t << "\n";
  set_print_options({.threshold = 5, .edgeitems = 2});
  out << range(0, 10) << "\n";
  {
    PrintOptionsGuard full({.threshold = std::numeric_limits<int64_t>::max()});
    EXPECT_EQ(range(0, 2000).str().find("..."), std::string::npos);
  }
  EXPECT_NE(range(0, 2000).str().find("..."), std::string::npos);
  set_print_options({});
  out << t << "\n";
  EXPECT_EQ(out.str(),
            lines({"tfc.Tensor([0.333 0.667], shape=(2,), dtype=float64)",
                   "tfc.Tensor([0 1 ... 8 9], shape=(10,), dtype=int64)",
                   "tfc.Tensor([0.33333333 0.66666667], shape=(2,), "
                   "dtype=float64)"}));
}

// ".npy files", through libtfc.so's exports.
TEST(UserGuide, NpyFiles) {
  std::string path = ::testing::TempDir() + "tfc-user-guide-" +
                     std::to_string(::getpid()) + "-w.npy";
  Tensor w = constant({{1.f, 2.f}, {3.f, 4.f}});
  save_npy(path, w);
  Tensor back = load_npy(path);
  EXPECT_EQ(back.str() + "\n",
            lines({"tfc.Tensor(", "[[1. 2.]",
                   " [3. 4.]], shape=(2, 2), dtype=float32)"}));
  EXPECT_EQ(decode_npy(encode_npy(w)).str(), w.str());
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { load_npy(path + ".missing"); },
      {"cannot open '", ".missing': No such file or directory"}));
  std::remove(path.c_str());
}

} // namespace
