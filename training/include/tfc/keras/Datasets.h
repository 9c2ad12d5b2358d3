//===- Datasets.h - keras.datasets: ready-made data sets --------*- C++ -*-===//
//
// keras.datasets.fashion_mnist.load_data, reading the files the Debian
// package dataset-fashion-mnist installs (docs/data.md):
//
//   auto [train, test] = keras::datasets::fashion_mnist::load_data();
//   auto [x_train, y_train] = train;   // (60000, 28, 28) and (60000,)
//
//===----------------------------------------------------------------------===//
#ifndef TFC_KERAS_DATASETS_H
#define TFC_KERAS_DATASETS_H

#include "tfc/runtime/Tensor.h"

#include <string>
#include <utility>

namespace tfc::keras::datasets::fashion_mnist {

/// Where load_data looks when given no directory.
inline constexpr const char *kDefaultDir = "/usr/share/datasets/fashion-mnist";

/// ((x_train, y_train), (x_test, y_test)): images (N, 28, 28) Int32 in
/// [0, 255], labels (N,) Int32 in [0, 9] (0 "T-shirt/top" ... 9 "Ankle
/// boot"). Reads train-images-idx3-ubyte, train-labels-idx1-ubyte,
/// t10k-images-idx3-ubyte and t10k-labels-idx1-ubyte, each gzipped (.gz) or
/// not, from `dir` (empty: kDefaultDir). Throws tfc::Error when a file is
/// missing (the message says how to install the package), damaged, or not
/// shaped as Fashion-MNIST is.
std::pair<std::pair<Tensor, Tensor>, std::pair<Tensor, Tensor>>
load_data(const std::string &dir = "");

} // namespace tfc::keras::datasets::fashion_mnist

#endif // TFC_KERAS_DATASETS_H
