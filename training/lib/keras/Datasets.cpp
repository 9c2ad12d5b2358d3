//===- Datasets.cpp - Fashion-MNIST from its IDX files --------------------===//

#include "tfc/keras/Datasets.h"

#include "tfc/data/Readers.h"
#include "tfc/runtime/Error.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

namespace tfc::keras::datasets::fashion_mnist {

namespace {

template <class... A> [[noreturn]] void fail(A &&...args) {
  std::ostringstream os;
  os << "fashion_mnist.load_data: ";
  (os << ... << args);
  throw Error(os.str());
}

constexpr const char *kInstallHint =
    "; install the Debian package dataset-fashion-mnist (apt-get install "
    "dataset-fashion-mnist), or pass the directory holding the files";

/// `dir`/`name`.gz, else `dir`/`name`.
std::string locate(const std::filesystem::path &dir, const std::string &name) {
  std::error_code ec;
  for (std::string candidate : {name + ".gz", name})
    if (std::filesystem::is_regular_file(dir / candidate, ec))
      return (dir / candidate).string();
  fail("no ", name, ".gz (or ", name, ") in ", dir.string(), kInstallHint);
}

/// Whether every value of the Int32 tensor `t` lies in [lo, hi].
bool within(const Tensor &t, int32_t lo, int32_t hi) {
  const int32_t *p = t.data<int32_t>();
  auto [min, max] = std::minmax_element(p, p + t.numel());
  return t.numel() == 0 || (*min >= lo && *max <= hi);
}

/// Images of `name`: (N, 28, 28) in [0, 255].
Tensor readImages(const std::filesystem::path &dir, const std::string &name) {
  std::string path = locate(dir, name);
  Tensor x = data::read_idx(path);
  const std::vector<int64_t> &s = x.shape();
  if (x.dtype() != DType::Int32 || s.size() != 3 || s[1] != 28 || s[2] != 28)
    fail(path, ": expected (N, 28, 28) integer images, got shape ",
         shape_to_string(s), " ", to_string(x.dtype()));
  if (!within(x, 0, 255))
    fail(path, ": pixel values outside [0, 255]");
  return x;
}

/// Labels of `name`: (count,) in [0, 9].
Tensor readLabels(const std::filesystem::path &dir, const std::string &name,
                  int64_t count) {
  std::string path = locate(dir, name);
  Tensor y = data::read_idx(path);
  if (y.dtype() != DType::Int32 || y.rank() != 1 || y.shape()[0] != count)
    fail(path, ": expected ", count,
         " integer labels (one per image), got "
         "shape ",
         shape_to_string(y.shape()), " ", to_string(y.dtype()));
  if (!within(y, 0, 9))
    fail(path, ": labels outside [0, 9]");
  return y;
}

} // namespace

std::pair<std::pair<Tensor, Tensor>, std::pair<Tensor, Tensor>>
load_data(const std::string &dir) {
  std::filesystem::path root = dir.empty() ? kDefaultDir : dir;
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec))
    fail("the directory ", root.string(), " does not exist", kInstallHint);
  Tensor xTrain = readImages(root, "train-images-idx3-ubyte");
  Tensor yTrain =
      readLabels(root, "train-labels-idx1-ubyte", xTrain.shape()[0]);
  Tensor xTest = readImages(root, "t10k-images-idx3-ubyte");
  Tensor yTest = readLabels(root, "t10k-labels-idx1-ubyte", xTest.shape()[0]);
  return {{xTrain, yTrain}, {xTest, yTest}};
}

} // namespace tfc::keras::datasets::fashion_mnist
