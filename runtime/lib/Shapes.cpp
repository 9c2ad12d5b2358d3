//===- Shapes.cpp - Shape arithmetic shared with the compiler -------------===//
//
// NumPy broadcasting of two shapes. Apart from the kernels (ShapeKernels.cpp)
// because the tracer and the bridge compute result types with it: a program
// that only builds IR links this, not the shape kernels.
//
//===----------------------------------------------------------------------===//

#include "Broadcast.h"
#include "Internal.h"
#include "tfc/runtime/Kernels.h"

using namespace tfc;
using namespace tfc::detail;

namespace tfc::kernels {

std::vector<int64_t> broadcast_shapes(std::string_view op,
                                      const std::vector<int64_t> &a,
                                      const std::vector<int64_t> &b) {
  SmallVec<int64_t> out;
  if (!broadcast_into(a, b, out))
    fail(op, "incompatible shapes ", a, " and ", b);
  return std::vector<int64_t>(out.data(), out.data() + out.size());
}

} // namespace tfc::kernels
