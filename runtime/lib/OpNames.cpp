//===- OpNames.cpp - Op names and the eager executor's registration -------===//
//
// Kept apart from the op table (Ops.cpp) so that a program that only names
// ops or builds IR from them (tfc-opt) links no kernel.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Ops.h"

#include "tfc/runtime/Error.h"

#include <string>

using namespace tfc;

namespace {
constexpr std::string_view kNames[] = {
#define TFC_OP_NAME(e, name) #name,
    TFC_FOR_EACH_OP(TFC_OP_NAME)
#undef TFC_OP_NAME
};
constexpr size_t kNumOps = sizeof(kNames) / sizeof(kNames[0]);

[[noreturn]] Tensor noKernels(OpKind kind, const Tensor *, size_t,
                              const OpAttrs &) {
  throw RuntimeError(std::string(op_name(kind)) +
                     ": this program has no runtime kernels linked (link "
                     "libtfc or tfc_runtime's op table to run ops eagerly)");
}
} // namespace

constinit detail::EagerExecutor detail::eager_executor = &noKernels;

void detail::set_eager_executor(EagerExecutor executor) {
  eager_executor = executor ? executor : &noKernels;
}

std::string_view tfc::op_name(OpKind kind) {
  auto i = static_cast<size_t>(kind);
  return i < kNumOps ? kNames[i] : std::string_view("<invalid op>");
}

std::optional<OpKind> tfc::op_kind_from_name(std::string_view name) {
  for (size_t i = 0; i < kNumOps; ++i)
    if (kNames[i] == name)
      return static_cast<OpKind>(i);
  return std::nullopt;
}
