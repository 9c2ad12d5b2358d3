//===- PrintTest.cpp - operator<<, str(), tfc::print, set_print_sink
//-------===//
#include "TestUtil.h"

#include <sstream>

using namespace tfc;
using namespace tfc::testing;

namespace {

TEST(Printing, MatmulReprMatchesTensorFlow) {
  EXPECT_EQ(
      (std::ostringstream() << matmul(constant({{2.f}}), constant({{2.f}})))
          .str(),
      "tfc.Tensor([[4.]], shape=(1, 1), dtype=float32)");
}

TEST(Printing, Scalars) {
  EXPECT_EQ(constant(6).str(), "tfc.Tensor(6, shape=(), dtype=int32)");
  EXPECT_EQ(constant(int64_t{-3}).str(),
            "tfc.Tensor(-3, shape=(), dtype=int64)");
  EXPECT_EQ(constant(4.f).str(), "tfc.Tensor(4.0, shape=(), dtype=float32)");
  EXPECT_EQ(constant(0.5).str(), "tfc.Tensor(0.5, shape=(), dtype=float64)");
  EXPECT_EQ(constant(true).str(), "tfc.Tensor(True, shape=(), dtype=bool)");
}

TEST(Printing, VectorsAndMatrices) {
  EXPECT_EQ(constant({1, 2, 3}).str(),
            "tfc.Tensor([1 2 3], shape=(3,), dtype=int32)");
  EXPECT_EQ(constant({true, false}).str(),
            "tfc.Tensor([ True False], shape=(2,), dtype=bool)");
  EXPECT_EQ(constant({1.5f, 2.f}).str(),
            "tfc.Tensor([1.5 2. ], shape=(2,), dtype=float32)");
  EXPECT_EQ(constant({{1, 2}, {3, 4}}).str(),
            "tfc.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)");
  EXPECT_EQ(zeros({0}).str(), "tfc.Tensor([], shape=(0,), dtype=float32)");
  // str() and operator<< agree.
  Tensor t = constant({{1.f, 2.f}});
  EXPECT_EQ((std::ostringstream() << t).str(), t.str());
}

TEST(Printing, DataInNumPyLayout) {
  EXPECT_EQ(format_data(constant({{1, 2}, {3, 4}})), "[[1 2]\n [3 4]]");
  EXPECT_EQ(format_data(constant({{1.f, 2.f}, {3.f, 4.f}})),
            "[[1. 2.]\n [3. 4.]]");
  EXPECT_EQ(format_data(constant({-1, 10})), "[-1 10]");
  EXPECT_EQ(format_data(constant(7)), "7");
}

TEST(Printing, LargeTensorsAreSummarised) {
  // NumPy: str(np.arange(2000)) == '[   0    1    2 ... 1997 1998 1999]'
  EXPECT_EQ(format_data(range(0, 2000)), "[   0    1    2 ... 1997 1998 1999]");
  std::string s = range(0, 2000).str();
  EXPECT_NE(s.find("..."), std::string::npos);
  EXPECT_NE(s.find("shape=(2000,), dtype=int64"), std::string::npos);
}

TEST(Print, WritesLabelAndDataToTheSink) {
  PrintCapture capture;
  print("x =", constant({1, 2, 3}));
  print("two:", constant(1.5f), constant({true, false}));
  print("just a label");
  print("", constant(4));
  std::string label = "from std::string";
  print(label, constant({{1.f, 2.f}}));
  Variable v(constant({7, 8}), "v");
  print("var", v);
  ASSERT_EQ(capture.lines.size(), 6u);
  EXPECT_EQ(capture.lines[0], "x = [1 2 3]");
  EXPECT_EQ(capture.lines[1], "two: 1.5 [ True False]");
  EXPECT_EQ(capture.lines[2], "just a label");
  EXPECT_EQ(capture.lines[3], "4");
  EXPECT_EQ(capture.lines[4], "from std::string [[1. 2.]]");
  EXPECT_EQ(capture.lines[5], "var [7 8]");
}

TEST(Print, NullSinkRestoresStdout) {
  {
    PrintCapture capture; // installs a sink, then restores the default
    print("captured", constant(1));
    EXPECT_EQ(capture.lines.size(), 1u);
  }
  ::testing::internal::CaptureStdout();
  print("to stdout", constant({1, 2}));
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "to stdout [1 2]\n");
}

TEST(Print, UndefinedTensorIsAnError) {
  PrintCapture capture;
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([] { print("x", Tensor()); },
                                               {"print", "undefined"}));
  EXPECT_TRUE(capture.lines.empty());
}

} // namespace
