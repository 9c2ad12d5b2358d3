//===- PrintTest.cpp - TensorFlow repr with NumPy's array layout ----------===//
//
// Expected strings are what TensorFlow 2 / NumPy (>= 1.14, default print
// options) print for the same values.
//
//===----------------------------------------------------------------------===//

#include "TestUtil.h"

#include <atomic>
#include <cctype>
#include <limits>
#include <sstream>
#include <thread>

using namespace tfc;
using namespace tfc::test;
namespace k = tfc::kernels;

namespace {

std::string data(const Tensor &t) { return format_data(t); }

TEST(Print, ReprExamples) {
  EXPECT_EQ(make<float>({4}, {1, 1}).str(),
            "tfc.Tensor([[4.]], shape=(1, 1), dtype=float32)");
  EXPECT_EQ(scalar<int32_t>(6).str(), "tfc.Tensor(6, shape=(), dtype=int32)");
  EXPECT_EQ(make<bool>({true, false}, {2}).str(),
            "tfc.Tensor([ True False], shape=(2,), dtype=bool)");
  EXPECT_EQ(make<float>({1.5f, 2.f}, {2}).str(),
            "tfc.Tensor([1.5 2. ], shape=(2,), dtype=float32)");
  EXPECT_EQ(make<float>({}, {0}).str(),
            "tfc.Tensor([], shape=(0,), dtype=float32)");
  EXPECT_EQ(make<double>({}, {2, 0}).str(),
            "tfc.Tensor([], shape=(2, 0), dtype=float64)");
  // Multi-line data starts on its own line, as TensorFlow prints it.
  EXPECT_EQ(make<int32_t>({1, 2, 3, 4}, {2, 2}).str(),
            "tfc.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)");
  std::ostringstream os;
  os << scalar<int64_t>(-5);
  EXPECT_EQ(os.str(), "tfc.Tensor(-5, shape=(), dtype=int64)");
  EXPECT_EQ(Tensor().str(), "tfc.Tensor(<undefined>)");
}

TEST(Print, Scalars) {
  EXPECT_EQ(data(scalar(4.f)), "4.0");
  EXPECT_EQ(data(scalar(0.1f)), "0.1"); // float32's own shortest repr
  EXPECT_EQ(data(scalar(0.1)), "0.1");
  EXPECT_EQ(data(scalar(1.f / 3.f)), "0.33333334");
  EXPECT_EQ(data(scalar(1.0 / 3.0)), "0.3333333333333333");
  EXPECT_EQ(data(scalar(1e16)), "1e+16");
  EXPECT_EQ(data(scalar(1.5e-5)), "1.5e-05");
  EXPECT_EQ(data(scalar(123456.789)), "123456.789");
  EXPECT_EQ(data(scalar(1e10f)), "10000000000.0");
  EXPECT_EQ(data(scalar(-0.f)), "-0.0");
  EXPECT_EQ(data(scalar(std::numeric_limits<float>::quiet_NaN())), "nan");
  EXPECT_EQ(data(scalar(-std::numeric_limits<double>::infinity())), "-inf");
  EXPECT_EQ(data(scalar(true)), "True");
  EXPECT_EQ(data(scalar(false)), "False");
  EXPECT_EQ(data(scalar<int32_t>(-2147483647 - 1)), "-2147483648");
}

TEST(Print, IntsAndBools) {
  EXPECT_EQ(data(make<int32_t>({-1, 10, 100}, {3})), "[ -1  10 100]");
  EXPECT_EQ(data(make<int64_t>({5}, {1})), "[5]");
  EXPECT_EQ(data(make<bool>({true, true}, {2})), "[ True  True]");
  EXPECT_EQ(data(make<bool>({true, false, false, true}, {2, 2})),
            "[[ True False]\n [False  True]]");
  std::vector<int32_t> v(8);
  for (int i = 0; i < 8; ++i)
    v[i] = i;
  EXPECT_EQ(data(make<int32_t>(v, {2, 2, 2})),
            "[[[0 1]\n  [2 3]]\n\n [[4 5]\n  [6 7]]]");
}

TEST(Print, Floats) {
  EXPECT_EQ(data(make<double>({-1.5, 2.25, 3.}, {3})), "[-1.5   2.25  3.  ]");
  EXPECT_EQ(data(make<float>({0.1f, 0.25f}, {2})), "[0.1  0.25]");
  EXPECT_EQ(data(make<double>({0.1, 0.2, 0.1 + 0.2}, {3})), "[0.1 0.2 0.3]");
  EXPECT_EQ(data(make<double>({1.0 / 3, 2.0 / 3}, {2})),
            "[0.33333333 0.66666667]");
  EXPECT_EQ(data(make<float>({1.f / 3, 2.f / 3}, {2})),
            "[0.33333334 0.6666667 ]");
  EXPECT_EQ(data(make<double>({-0.0, 1.0}, {2})), "[-0.  1.]");
  EXPECT_EQ(data(make<float>({1, 2, 3, 4}, {2, 2})), "[[1. 2.]\n [3. 4.]]");
}

TEST(Print, ScientificNotation) {
  EXPECT_EQ(data(make<float>({1e-5f, 1.f}, {2})), "[1.e-05 1.e+00]");
  EXPECT_EQ(data(make<double>({1.234e-5, 1.0}, {2})), "[1.234e-05 1.000e+00]");
  EXPECT_EQ(data(make<double>({1e8, 1.0}, {2})), "[1.e+08 1.e+00]");
  EXPECT_EQ(data(make<double>({1e100, 1.0}, {2})), "[1.e+100 1.e+000]");
  EXPECT_EQ(data(make<double>({-1e-5, 1.0}, {2})), "[-1.e-05  1.e+00]");
  // max / min > 1000 switches too.
  EXPECT_EQ(data(make<double>({0.5, 1000.0}, {2})), "[5.e-01 1.e+03]");
  EXPECT_EQ(data(make<double>({1.0, 1000.0}, {2})), "[   1. 1000.]");
}

TEST(Print, NonFinite) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(data(make<double>({nan, 1.0, -inf}, {3})), "[ nan   1. -inf]");
  EXPECT_EQ(data(make<double>({nan, inf}, {2})), "[nan inf]");
  EXPECT_EQ(data(make<float>({1.5f, float(inf)}, {2})), "[1.5 inf]");
}

TEST(Print, LineWrapping) {
  EXPECT_EQ(data(k::range(0, 30, 1, DType::Float32)),
            "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. "
            "16. 17.\n"
            " 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]");
  EXPECT_EQ(data(k::reshape(k::range(0, 40, 1, DType::Float64), {2, 20})),
            "[[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. "
            "16. 17.\n"
            "  18. 19.]\n"
            " [20. 21. 22. 23. 24. 25. 26. 27. 28. 29. 30. 31. 32. 33. 34. 35. "
            "36. 37.\n"
            "  38. 39.]]");
}

TEST(Print, Summarized) {
  EXPECT_EQ(data(k::range(0, 2000, 1, DType::Int64)),
            "[   0    1    2 ... 1997 1998 1999]");
  EXPECT_EQ(data(k::range(0, 1001, 1, DType::Float32)),
            "[   0.    1.    2. ...  998.  999. 1000.]");
  // Exactly 1000 elements: printed in full (15 values per line).
  std::string full = data(k::range(0, 1000, 1, DType::Int32));
  EXPECT_EQ(full.find("..."), std::string::npos);
  EXPECT_EQ(full.substr(0, 20), "[  0   1   2   3   4");
  EXPECT_EQ(data(k::reshape(k::range(0, 2000, 1, DType::Int64), {40, 50})),
            "[[   0    1    2 ...   47   48   49]\n"
            " [  50   51   52 ...   97   98   99]\n"
            " [ 100  101  102 ...  147  148  149]\n"
            " ...\n"
            " [1850 1851 1852 ... 1897 1898 1899]\n"
            " [1900 1901 1902 ... 1947 1948 1949]\n"
            " [1950 1951 1952 ... 1997 1998 1999]]");
  // Only the displayed values decide the format: 1999 is shown, 1e9 is not.
  std::vector<double> v(2000, 1.0);
  v[1000] = 1e9;
  EXPECT_EQ(data(make<double>(v, {2000})), "[1. 1. 1. ... 1. 1. 1.]");
}

TEST(Print, Options) {
  Tensor big = k::range(0, 2000, 1, DType::Int64);
  // The defaults are the plain overloads' output.
  EXPECT_EQ(format_data(big, PrintOptions()), format_data(big));
  EXPECT_EQ(format_tensor(big, PrintOptions()), format_tensor(big));
  // No summarisation: every element, in order, and no "...".
  PrintOptions full;
  full.threshold = std::numeric_limits<int64_t>::max();
  std::string all = format_data(big, full);
  EXPECT_EQ(all.find("..."), std::string::npos);
  std::istringstream words(all.substr(1, all.size() - 2));
  int64_t expect = 0, word;
  while (words >> word)
    EXPECT_EQ(word, expect++);
  EXPECT_EQ(expect, 2000);
  // NumPy's threshold and edgeitems.
  PrintOptions small;
  small.threshold = 5;
  small.edgeitems = 2;
  EXPECT_EQ(format_data(k::range(0, 6, 1, DType::Int32), small),
            "[0 1 ... 4 5]");
  EXPECT_EQ(format_data(k::range(0, 5, 1, DType::Int32), small), "[0 1 2 3 4]");
  // A dim of at most 2 * edgeitems is shown whole even when summarising.
  EXPECT_EQ(
      format_data(k::reshape(k::range(0, 8, 1, DType::Int32), {2, 4}), small),
      "[[0 1 2 3]\n [4 5 6 7]]");
  PrintOptions bad;
  bad.edgeitems = 0;
  EXPECT_THROW(format_data(big, bad), InvalidArgumentError);
  bad = PrintOptions();
  bad.threshold = -1;
  EXPECT_THROW(format_tensor(big, bad), InvalidArgumentError);
}

struct FakeSymbolic : SymbolicValue {
  std::string describe() const override { return "traced tfc.add"; }
};

TEST(Print, Symbolic) {
  Tensor s = Tensor::symbolic(DType::Float32, {2, 2},
                              std::make_shared<FakeSymbolic>());
  EXPECT_EQ(s.str(),
            "tfc.Tensor(<traced tfc.add>, shape=(2, 2), dtype=float32)");
  Tensor d =
      Tensor::symbolic(DType::Int64, {-1, 3}, std::make_shared<FakeSymbolic>());
  EXPECT_EQ(d.str(),
            "tfc.Tensor(<traced tfc.add>, shape=(None, 3), dtype=int64)");
}

TEST(Print, ShapeStrings) {
  EXPECT_EQ(shape_to_string({}), "()");
  EXPECT_EQ(shape_to_string({4}), "(4,)");
  EXPECT_EQ(shape_to_string({2, 3}), "(2, 3)");
}

//===----------------------------------------------------------------------===//
// Print options (NumPy's np.set_printoptions). Expected strings are what
// NumPy prints for the same values and options.
//===----------------------------------------------------------------------===//

/// Each test leaves the process-wide options as it found them.
class PrintOptionsTest : public ::testing::Test {
protected:
  void TearDown() override { set_print_options(PrintOptions{}); }
};

TEST_F(PrintOptionsTest, DefaultsAreNumPys) {
  PrintOptions o = get_print_options();
  EXPECT_EQ(o.precision, 8);
  EXPECT_EQ(o.threshold, 1000);
  EXPECT_EQ(o.edgeitems, 3);
  EXPECT_EQ(o.linewidth, 75);
  EXPECT_FALSE(o.sci_mode.has_value());
}

TEST_F(PrintOptionsTest, Precision) {
  set_print_options({.precision = 3});
  EXPECT_EQ(get_print_options().precision, 3);
  EXPECT_EQ(data(make<double>({1.0 / 3, 2.0 / 3}, {2})), "[0.333 0.667]");
  EXPECT_EQ(data(make<float>({1.f / 3, 1.f}, {2})), "[0.333 1.   ]");
  // Fewer digits when fewer are exact, as maxprec.
  EXPECT_EQ(data(make<double>({0.5, 0.25}, {2})), "[0.5  0.25]");
  EXPECT_EQ(data(make<double>({1.234567e-5, 1.0}, {2})),
            "[1.235e-05 1.000e+00]");
  set_print_options({.precision = 0});
  EXPECT_EQ(data(make<double>({1.4, 2.6}, {2})), "[1. 3.]");
  // 0-d tensors print like NumPy scalars: the options do not apply.
  set_print_options({.precision = 3});
  EXPECT_EQ(data(scalar(1.0 / 3)), "0.3333333333333333");
}

TEST_F(PrintOptionsTest, ThresholdAndEdgeItems) {
  Tensor ten = k::range(0, 10, 1, DType::Int32);
  set_print_options({.threshold = 5});
  EXPECT_EQ(data(ten), "[0 1 2 ... 7 8 9]");
  set_print_options({.threshold = 5, .edgeitems = 2});
  EXPECT_EQ(data(ten), "[0 1 ... 8 9]");
  set_print_options({.threshold = 10});
  EXPECT_EQ(data(ten), "[0 1 2 3 4 5 6 7 8 9]"); // size > threshold only
  set_print_options({.threshold = 5, .edgeitems = 5});
  EXPECT_EQ(data(ten), "[0 1 2 3 4 5 6 7 8 9]"); // 2 * edgeitems >= size
  set_print_options({.threshold = 10, .edgeitems = 1});
  EXPECT_EQ(data(k::reshape(k::range(0, 36, 1, DType::Int64), {6, 6})),
            "[[ 0 ...  5]\n ...\n [30 ... 35]]");
  // Only the shown values set the width, as NumPy.
  EXPECT_EQ(data(k::range(0, 1000, 1, DType::Int32)), "[  0 ... 999]");
  set_print_options({.threshold = 5});
  EXPECT_EQ(k::range(0, 10, 1, DType::Float32).str(),
            "tfc.Tensor([0. 1. 2. ... 7. 8. 9.], shape=(10,), dtype=float32)");
}

TEST_F(PrintOptionsTest, HugeThresholdNeverSummarises) {
  set_print_options({.threshold = std::numeric_limits<int64_t>::max()});
  std::string s = data(k::range(0, 2000, 1, DType::Int64));
  EXPECT_EQ(s.find("..."), std::string::npos);
  EXPECT_EQ(s.substr(0, 10), "[   0    1");
  EXPECT_EQ(s.substr(s.size() - 10), "1998 1999]");
  // Every value is there: 2000 numbers.
  size_t numbers = 0;
  for (size_t i = 0; i < s.size(); ++i)
    numbers += std::isdigit(static_cast<unsigned char>(s[i])) &&
               (i + 1 == s.size() ||
                !std::isdigit(static_cast<unsigned char>(s[i + 1])));
  EXPECT_EQ(numbers, 2000u);
}

TEST_F(PrintOptionsTest, LineWidth) {
  Tensor ten = k::range(0, 10, 1, DType::Int32);
  set_print_options({.linewidth = 10});
  EXPECT_EQ(data(ten), "[0 1 2 3\n 4 5 6 7\n 8 9]");
  set_print_options({.linewidth = 1000});
  EXPECT_EQ(data(k::range(0, 30, 1, DType::Float32)),
            "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. "
            "16. 17. 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]");
  // Each nesting level takes one column: rows of 2-d data wrap earlier.
  set_print_options({.linewidth = 13});
  EXPECT_EQ(data(k::reshape(ten, {2, 5})), "[[0 1 2 3 4]\n [5 6 7 8 9]]");
  set_print_options({.linewidth = 12});
  EXPECT_EQ(data(k::reshape(ten, {2, 5})), "[[0 1 2 3\n  4]\n [5 6 7 8\n  9]]");
}

TEST_F(PrintOptionsTest, SciMode) {
  set_print_options({.sci_mode = true});
  EXPECT_EQ(data(make<double>({1.5, 2.0}, {2})), "[1.5e+00 2.0e+00]");
  EXPECT_EQ(data(make<float>({0.f, 250.f}, {2})), "[0.0e+00 2.5e+02]");
  set_print_options({.sci_mode = false});
  EXPECT_EQ(data(make<double>({1e-5, 1.0}, {2})), "[0.00001 1.     ]");
  EXPECT_EQ(data(make<double>({1e10, 1.0}, {2})),
            "[10000000000.           1.]");
  // Below the precision: rounds to zero, as NumPy's suppress=True.
  EXPECT_EQ(data(make<double>({1e-10, 1.0}, {2})), "[0. 1.]");
  set_print_options({.precision = 2, .sci_mode = true});
  EXPECT_EQ(data(make<double>({1.0 / 3, 1.0}, {2})), "[3.33e-01 1.00e+00]");
}

TEST_F(PrintOptionsTest, GuardRestores) {
  Tensor t = make<double>({1.0 / 3}, {1});
  {
    PrintOptionsGuard g({.precision = 2});
    EXPECT_EQ(data(t), "[0.33]");
    {
      PrintOptionsGuard inner({.precision = 4, .linewidth = 20});
      EXPECT_EQ(data(t), "[0.3333]");
    }
    EXPECT_EQ(data(t), "[0.33]");
    EXPECT_EQ(get_print_options().linewidth, 75);
  }
  EXPECT_EQ(data(t), "[0.33333333]");
}

TEST_F(PrintOptionsTest, BadValuesAreErrorsAndChangeNothing) {
  set_print_options({.precision = 4});
  auto expectRejected = [](PrintOptions o, const char *field) {
    try {
      set_print_options(o);
      ADD_FAILURE() << "expected InvalidArgumentError for " << field;
    } catch (const InvalidArgumentError &e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find("set_print_options"), std::string::npos) << msg;
      EXPECT_NE(msg.find(field), std::string::npos) << msg;
    }
  };
  expectRejected({.precision = -1}, "precision");
  expectRejected({.precision = 101}, "precision");
  expectRejected({.threshold = -1}, "threshold");
  expectRejected({.edgeitems = 0}, "edgeitems");
  expectRejected({.linewidth = 0}, "linewidth");
  EXPECT_EQ(get_print_options().precision, 4);
  EXPECT_EQ(get_print_options().threshold, 1000);
}

TEST_F(PrintOptionsTest, ConcurrentSetAndPrint) {
  // Process-wide options: a print racing with a change uses one set or the
  // other, never a mix (each print takes a snapshot).
  Tensor t = make<double>({1.0 / 3, 2.0 / 3}, {2});
  std::atomic<bool> stop{false};
  std::thread setter([&] {
    for (int i = 0; i < 2000; ++i)
      set_print_options({.precision = i % 2 ? 3 : 8});
    stop = true;
  });
  int bad = 0;
  while (!stop) {
    std::string s = data(t);
    bad += s != "[0.333 0.667]" && s != "[0.33333333 0.66666667]";
  }
  setter.join();
  EXPECT_EQ(bad, 0);
}

} // namespace
