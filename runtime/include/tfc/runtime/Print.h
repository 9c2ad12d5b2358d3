//===- Print.h - TensorFlow-style tensor formatting -------------*- C++ -*-===//
#ifndef TFC_RUNTIME_PRINT_H
#define TFC_RUNTIME_PRINT_H

#include "tfc/runtime/Tensor.h"

#include <string>

namespace tfc {
/// The data only, in NumPy's layout: "[[1. 2.]\n [3. 4.]]"; summarised with
/// "..." past 1000 elements (3 items each side per dim, as NumPy).
std::string format_data(const Tensor &t);
/// Full repr: tfc.Tensor(<data>, shape=(2, 2), dtype=float32).
std::string format_tensor(const Tensor &t);
} // namespace tfc

#endif // TFC_RUNTIME_PRINT_H
