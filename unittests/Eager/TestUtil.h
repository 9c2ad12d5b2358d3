//===- TestUtil.h - Helpers for the eager API tests -------------*- C++ -*-===//
#ifndef TFC_UNITTESTS_EAGER_TESTUTIL_H
#define TFC_UNITTESTS_EAGER_TESTUTIL_H

#include "tfc/tfc.h"

#include "gtest/gtest.h"

#include <cmath>
#include <functional>
#include <string>
#include <typeinfo>
#include <vector>

namespace tfc::testing {

/// Every element of `t` as double (bool as 0/1).
inline std::vector<double> asDoubles(const Tensor &t) {
  std::vector<double> out(static_cast<size_t>(t.numel()));
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *data = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i)
      out[i] = static_cast<double>(data[i]);
  });
  return out;
}

/// `t` has exactly `dtype` and `shape`, and its elements equal `expected`
/// (within a relative tolerance `tol` for floating dtypes; NaN matches NaN).
inline ::testing::AssertionResult tensorIs(const Tensor &t, DType dtype,
                                           const std::vector<int64_t> &shape,
                                           const std::vector<double> &expected,
                                           double tol = 1e-6) {
  if (!t.defined())
    return ::testing::AssertionFailure() << "tensor is undefined";
  if (t.dtype() != dtype)
    return ::testing::AssertionFailure() << "dtype " << to_string(t.dtype())
                                         << ", expected " << to_string(dtype);
  if (t.shape() != shape)
    return ::testing::AssertionFailure()
           << "shape " << shape_to_string(t.shape()) << ", expected "
           << shape_to_string(shape);
  std::vector<double> got = asDoubles(t);
  if (got.size() != expected.size())
    return ::testing::AssertionFailure()
           << got.size() << " elements, expected " << expected.size();
  for (size_t i = 0; i < got.size(); ++i) {
    double g = got[i], e = expected[i];
    bool same;
    if (std::isnan(e))
      same = std::isnan(g);
    else if (is_floating(dtype))
      same = g == e || std::fabs(g - e) <= tol * std::max(1.0, std::fabs(e));
    else
      same = g == e;
    if (!same)
      return ::testing::AssertionFailure()
             << "element " << i << " is " << g << ", expected " << e
             << "; tensor: " << t;
  }
  return ::testing::AssertionSuccess();
}

/// `fn()` throws exactly the class `E` (not a subclass) with a message
/// containing each of `substrings`.
template <class E>
::testing::AssertionResult
throwsWith(const std::function<void()> &fn,
           const std::vector<std::string> &substrings) {
  try {
    fn();
  } catch (const E &e) {
    if (typeid(e) != typeid(E))
      return ::testing::AssertionFailure()
             << "threw a subclass " << typeid(e).name() << ": " << e.what();
    std::string msg = e.what();
    for (const std::string &s : substrings)
      if (msg.find(s) == std::string::npos)
        return ::testing::AssertionFailure()
               << "message \"" << msg << "\" lacks \"" << s << "\"";
    return ::testing::AssertionSuccess();
  } catch (const std::exception &e) {
    return ::testing::AssertionFailure()
           << "threw another class: " << typeid(e).name() << ": " << e.what();
  }
  return ::testing::AssertionFailure() << "did not throw";
}

/// The four numeric dtypes, for tests that run an op on each.
inline const std::vector<DType> &numericDTypes() {
  static const std::vector<DType> types{DType::Int32, DType::Int64,
                                        DType::Float32, DType::Float64};
  return types;
}
inline const std::vector<DType> &floatDTypes() {
  static const std::vector<DType> types{DType::Float32, DType::Float64};
  return types;
}

/// Captures tfc::print output for the life of the object.
class PrintCapture {
public:
  PrintCapture() {
    set_print_sink([this](std::string_view line) { lines.emplace_back(line); });
  }
  ~PrintCapture() { set_print_sink(nullptr); }
  std::vector<std::string> lines;
};

} // namespace tfc::testing

#endif // TFC_UNITTESTS_EAGER_TESTUTIL_H
