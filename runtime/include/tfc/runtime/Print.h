//===- Print.h - TensorFlow-style tensor formatting -------------*- C++ -*-===//
#ifndef TFC_RUNTIME_PRINT_H
#define TFC_RUNTIME_PRINT_H

#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <string>

namespace tfc {
/// How format_data / format_tensor lay out large tensors (NumPy's
/// set_printoptions).
struct PrintOptions {
  /// Past this many elements the data is summarised: `edge_items` items at
  /// each end of every dim, "..." between. The largest int64 never
  /// summarises (print everything).
  int64_t threshold = 1000;
  /// Items kept at each end of a summarised dim (>= 1).
  int64_t edge_items = 3;
};

/// The data only, in NumPy's layout: "[[1. 2.]\n [3. 4.]]"; summarised with
/// "..." past 1000 elements (3 items each side per dim, as NumPy).
std::string format_data(const Tensor &t);
/// Full repr: tfc.Tensor(<data>, shape=(2, 2), dtype=float32).
std::string format_tensor(const Tensor &t);
/// The same with `options` (the defaults above give the same text).
/// InvalidArgumentError when threshold < 0 or edge_items < 1.
std::string format_data(const Tensor &t, const PrintOptions &options);
std::string format_tensor(const Tensor &t, const PrintOptions &options);
} // namespace tfc

#endif // TFC_RUNTIME_PRINT_H
