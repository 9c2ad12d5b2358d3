//===- LinalgWork.h - Static work of a linalg op ----------------*- C++ -*-===//
//
// The size estimate that tfc-linalg-to-blas (LinalgToBlas.cpp) and
// tfc-linalg-to-loops (LinalgToLoops.cpp) both decide by: library call,
// serial or parallel loops.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_CONVERSION_LINALGWORK_H
#define TFC_CONVERSION_LINALGWORK_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <limits>

namespace mlir::tfc {

/// The product of static loop ranges, saturated at INT64_MAX: large static
/// dims (each tensor fitting in memory) can multiply past int64. It only
/// chooses between library call, serial and parallel code.
inline int64_t staticWork(llvm::ArrayRef<int64_t> ranges) {
  int64_t work = 1;
  for (int64_t r : ranges)
    if (__builtin_mul_overflow(work, r, &work))
      return std::numeric_limits<int64_t>::max();
  return work;
}

} // namespace mlir::tfc

#endif // TFC_CONVERSION_LINALGWORK_H
