//===- TestUtil.h - Helpers for the runtime unit tests ----------*- C++ -*-===//
#ifndef TFC_UNITTESTS_RUNTIME_TESTUTIL_H
#define TFC_UNITTESTS_RUNTIME_TESTUTIL_H

#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/Ops.h"
#include "tfc/runtime/Print.h"
#include "tfc/runtime/Tensor.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace tfc::test {

/// A concrete tensor holding `vals` (row-major) of `shape`.
template <class T>
Tensor make(const std::vector<T> &vals, std::vector<int64_t> shape) {
  Tensor t = Tensor::empty(dtype_of<T>, std::move(shape));
  EXPECT_EQ(static_cast<size_t>(t.numel()), vals.size());
  T *p = t.data<T>();
  for (size_t i = 0; i < vals.size(); ++i)
    p[i] = vals[i];
  return t;
}
template <class T> Tensor scalar(T v) { return make<T>({v}, {}); }

/// Exact dtype, shape and values.
template <class T>
void expectEq(const Tensor &t, const std::vector<int64_t> &shape,
              const std::vector<T> &vals) {
  ASSERT_TRUE(t.defined());
  ASSERT_EQ(t.dtype(), dtype_of<T>) << to_string(t.dtype());
  ASSERT_EQ(t.shape(), shape) << shape_to_string(t.shape());
  std::vector<T> got = t.to_vector<T>();
  ASSERT_EQ(got.size(), vals.size());
  for (size_t i = 0; i < vals.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(vals[i])) {
        EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
        continue;
      }
    }
    EXPECT_EQ(got[i], vals[i]) << "at " << i;
  }
}

/// Floating values within a relative/absolute tolerance.
template <class T>
void expectNear(const Tensor &t, const std::vector<int64_t> &shape,
                const std::vector<double> &vals, double tol = 1e-6) {
  ASSERT_TRUE(t.defined());
  ASSERT_EQ(t.dtype(), dtype_of<T>) << to_string(t.dtype());
  ASSERT_EQ(t.shape(), shape) << shape_to_string(t.shape());
  std::vector<T> got = t.to_vector<T>();
  ASSERT_EQ(got.size(), vals.size());
  for (size_t i = 0; i < vals.size(); ++i) {
    if (std::isnan(vals[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
      continue;
    }
    EXPECT_NEAR(static_cast<double>(got[i]), vals[i],
                tol * std::max(1.0, std::fabs(vals[i])))
        << "at " << i;
  }
}

/// Runs f, expecting an exception of type E whose message contains every
/// one of `parts`.
template <class E, class F>
void expectError(F &&f, const std::vector<std::string> &parts) {
  try {
    f();
    ADD_FAILURE() << "expected an exception containing '"
                  << (parts.empty() ? "" : parts[0]) << "'";
  } catch (const E &e) {
    std::string msg = e.what();
    for (const auto &p : parts)
      EXPECT_NE(msg.find(p), std::string::npos)
          << "message '" << msg << "' lacks '" << p << "'";
  } catch (const std::exception &e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

} // namespace tfc::test

#endif // TFC_UNITTESTS_RUNTIME_TESTUTIL_H
