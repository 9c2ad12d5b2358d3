//===- TestTempDir.h - A fresh directory per test, removed after ----------===//
//
//   test_support::TempDir dir;   // $TMPDIR/tfc-test-XXXXXX
//   save(dir.file("a.safetensors")); EXPECT_EQ(dir.entries(), ...);
//
//===----------------------------------------------------------------------===//
#ifndef TFC_UNITTESTS_TESTTEMPDIR_H
#define TFC_UNITTESTS_TESTTEMPDIR_H

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <stdlib.h>

namespace tfc::test_support {

/// A fresh directory under the system's temp dir, named `prefix-XXXXXX`,
/// removed with everything in it at the end.
class TempDir {
public:
  explicit TempDir(const std::string &prefix = "tfc-test") {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX"))
            .string();
    if (!::mkdtemp(tmpl.data()))
      throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  std::string file(const std::string &name) const {
    return (path / name).string();
  }
  /// The names in `sub` (default: the directory itself), sorted.
  std::vector<std::string> entries(const std::string &sub = "") const {
    std::vector<std::string> out;
    for (const auto &e : std::filesystem::directory_iterator(path / sub))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  std::filesystem::path path;
};

} // namespace tfc::test_support

#endif // TFC_UNITTESTS_TESTTEMPDIR_H
