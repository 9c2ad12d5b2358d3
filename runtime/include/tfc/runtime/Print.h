//===- Print.h - TensorFlow-style tensor formatting -------------*- C++ -*-===//
#ifndef TFC_RUNTIME_PRINT_H
#define TFC_RUNTIME_PRINT_H

#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tfc {

/// How tensors print, as NumPy's np.set_printoptions (defaults are NumPy's).
/// Applies to tensors of rank >= 1; 0-d tensors print like NumPy scalars
/// (shortest round-trip digits), which NumPy's options do not change either.
struct PrintOptions {
  /// Most fractional digits of a float (mantissa digits in scientific
  /// notation); fewer when fewer give the shortest round-trip repr. [0, 100].
  int precision = 8;
  /// Summarise ("...") tensors of more than this many elements. To never
  /// summarise: std::numeric_limits<int64_t>::max().
  int64_t threshold = 1000;
  /// Items shown at each end of each summarised dim (>= 1).
  int64_t edgeitems = 3;
  /// Characters per line before wrapping (>= 1).
  int64_t linewidth = 75;
  /// Float notation (PyTorch's option; NumPy decides alone): unset: NumPy's
  /// rule (scientific when the largest |x| >= 1e8, the smallest nonzero
  /// < 1e-4 or their ratio > 1000); true: always scientific; false: never.
  std::optional<bool> sci_mode;
};

/// Sets the options for every later print in the process (all threads, as
/// NumPy's global options). Out-of-range fields: InvalidArgumentError, and
/// nothing changes. Safe to call while other threads print: each print uses
/// the options in force when it starts.
void set_print_options(const PrintOptions &options);
PrintOptions get_print_options();

/// Sets options for a scope and restores the previous ones on exit (still
/// process-wide: prints on other threads see them meanwhile).
///   { PrintOptionsGuard g({.precision = 3}); std::cout << t; }
class PrintOptionsGuard {
public:
  explicit PrintOptionsGuard(const PrintOptions &options);
  ~PrintOptionsGuard();
  PrintOptionsGuard(const PrintOptionsGuard &) = delete;
  PrintOptionsGuard &operator=(const PrintOptionsGuard &) = delete;

private:
  PrintOptions saved_;
};

/// The data only, in NumPy's layout: "[[1. 2.]\n [3. 4.]]"; summarised with
/// "..." past `threshold` elements (`edgeitems` each side per dim), as NumPy.
std::string format_data(const Tensor &t);
/// Full repr: tfc.Tensor(<data>, shape=(2, 2), dtype=float32).
std::string format_tensor(const Tensor &t);
/// The same with `options` instead of the process-wide ones (the same
/// checks as set_print_options).
std::string format_data(const Tensor &t, const PrintOptions &options);
std::string format_tensor(const Tensor &t, const PrintOptions &options);
} // namespace tfc

#endif // TFC_RUNTIME_PRINT_H
