//===- CollectiveKernels.cpp - The all_reduce kernel ----------------------===//
//
// Apart from Collectives.cpp: the communicator is reached without the
// kernels (tfc-opt links the gradient rules, which name all_reduce's
// public op, but no kernel).
//
//===----------------------------------------------------------------------===//

#include "DTypeMask.h"
#include "Internal.h"
#include "tfc/runtime/Collectives.h"
#include "tfc/runtime/Kernels.h"

#include <cstring>

namespace tfc::kernels {

using namespace tfc::detail;

Tensor all_reduce(const Tensor &x, distribute::ReduceOp op) {
  constexpr std::string_view name = "all_reduce";
  require_concrete(name, x);
  require_dtype(name, kMaskNumeric, x.dtype());
  wait_for_device(x, name);
  Tensor out = make_tensor(x.dtype(), x.shape(), x.numel());
  // Out of place: the library reads x and writes out (no copy first).
  distribute::all_reduce(x.unsafe_impl()->data, out.unsafe_impl()->data,
                         x.numel(), x.dtype(), op);
  return out;
}

} // namespace tfc::kernels
