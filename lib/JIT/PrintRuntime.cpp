//===- PrintRuntime.cpp - tfc.print in compiled code ------------*- C++ -*-===//
//
// `tfc.print "label" %a, %b` lowers to one call per tensor:
//   tfc_rt_print_tensor_<elt>(label, index, count, dtype, rank, descriptor)
// The pieces of one print are collected per thread and written as one line
// (label, then each tensor's data in NumPy layout) when the last arrives.
//
//===----------------------------------------------------------------------===//

#include "RuntimeSymbols.h"
#include "tfc/runtime/Print.h"
#include "tfc/runtime/PrintSink.h"
#include "tfc/runtime/Tensor.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <cstring>
#include <string>

using namespace tfc;

namespace {
thread_local std::string pendingLine;

void printPiece(const char *label, int32_t index, int32_t count, int32_t dtype,
                int64_t rank, void *descriptor) {
  if (index == 0)
    pendingLine = label ? label : "";
  // Descriptor: {allocated, aligned, offset, sizes[rank], strides[rank]}.
  auto *words = static_cast<int64_t *>(descriptor);
  auto *aligned = reinterpret_cast<const char *>(words[1]);
  int64_t offset = words[2];
  std::vector<int64_t> shape(words + 3, words + 3 + rank);
  const int64_t *strides = words + 3 + rank;
  auto dt = static_cast<DType>(dtype);
  size_t elt = dtype_size(dt);
  Tensor t = Tensor::empty(dt, shape);
  // Gather (strides may be non-contiguous) into a dense copy.
  int64_t n = t.numel();
  std::vector<int64_t> idx(rank, 0);
  char *out = static_cast<char *>(n ? t.raw_data() : nullptr);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = offset;
    for (int64_t d = 0; d < rank; ++d)
      off += idx[d] * strides[d];
    std::memcpy(out + i * elt, aligned + off * elt, elt);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < shape[d])
        break;
      idx[d] = 0;
    }
  }
  if (!pendingLine.empty())
    pendingLine += ' ';
  pendingLine += format_data(t);
  if (index + 1 == count) {
    print_line(pendingLine);
    pendingLine.clear();
  }
}

extern "C" void printLabelOnly(const char *label, int32_t, int32_t, int32_t) {
  print_line(label ? label : "");
}
} // namespace

namespace tfc::jit::detail {
void registerPrintSymbols(llvm::orc::SymbolMap &map,
                          llvm::orc::MangleAndInterner &interner) {
  auto add = [&](const char *name, void *fn) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                           llvm::JITSymbolFlags::Exported};
  };
  // One entry point per element type: the lowering names them by type.
  for (const char *name : {"tfc_rt_print_tensor_i1", "tfc_rt_print_tensor_i32",
                           "tfc_rt_print_tensor_i64", "tfc_rt_print_tensor_f32",
                           "tfc_rt_print_tensor_f64"})
    add(name, reinterpret_cast<void *>(&printPiece));
  add("tfc_rt_print_label", reinterpret_cast<void *>(&printLabelOnly));
}
} // namespace tfc::jit::detail
