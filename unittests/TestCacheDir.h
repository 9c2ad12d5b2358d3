//===- TestCacheDir.h - Unit tests keep out of the user's compile cache ---===//
//
// A GoogleTest environment that points TFC_CACHE_DIR at a fresh temporary
// directory (removed at the end) when a test binary that compiles code is
// run by hand; lit sets TFC_CACHE_DIR to the build tree, which wins.
//   TFC_TEST_PRIVATE_CACHE_DIR("tfc-function-tests");   // at namespace scope
//
//===----------------------------------------------------------------------===//
#ifndef TFC_UNITTESTS_TESTCACHEDIR_H
#define TFC_UNITTESTS_TESTCACHEDIR_H

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace tfc::test_support {

class CacheDirEnvironment : public ::testing::Environment {
public:
  explicit CacheDirEnvironment(std::string prefix)
      : prefix(std::move(prefix)) {}
  void SetUp() override {
    if (std::getenv("TFC_CACHE_DIR"))
      return;
    std::string tmpl = "/tmp/" + prefix + "-cache-XXXXXX";
    if (mkdtemp(tmpl.data())) {
      owned = tmpl;
      setenv("TFC_CACHE_DIR", owned.c_str(), 1);
    }
  }
  void TearDown() override {
    std::error_code ec;
    if (!owned.empty())
      std::filesystem::remove_all(owned, ec);
  }

private:
  std::string prefix, owned;
};

} // namespace tfc::test_support

#define TFC_TEST_PRIVATE_CACHE_DIR(prefix)                                     \
  [[maybe_unused]] static auto *tfcTestCacheEnvironment =                      \
      ::testing::AddGlobalTestEnvironment(                                     \
          new ::tfc::test_support::CacheDirEnvironment(prefix))

#endif // TFC_UNITTESTS_TESTCACHEDIR_H
