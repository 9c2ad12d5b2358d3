//===- StackRuntime.cpp - !tfc.stack in compiled code -----------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The runtime side of the stack ops that tfc-autodiff emits for tfc.while
// (lowered by lib/Conversion/TfcStackToRuntime.cpp). A handle is the address
// of a Stack, passed as i64. Entries have one size (the element type is
// statically shaped) and are stored back to back. Popping only lowers the
// count and returns the entry's index; its bytes stay valid until a later
// push reuses the slot, so the compiled code reads the popped tensor
// element by element after the pop (tfc_rt_stack_read_<elt>).
//
//===----------------------------------------------------------------------===//

#include "RuntimeSymbols.h"

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

struct Stack {
  std::vector<char> bytes;
  int64_t entryBytes = -1;
  int64_t count = 0;
};

Stack *stackOf(int64_t handle) { return reinterpret_cast<Stack *>(handle); }

int64_t stackNew() { return reinterpret_cast<int64_t>(new Stack()); }

/// Copies the tensor (an unranked memref descriptor: {allocated, aligned,
/// offset, sizes[rank], strides[rank]}) densely onto the top of the stack.
void stackPush(int64_t handle, int64_t elemBytes, int64_t rank,
               void *descriptor) {
  Stack *s = stackOf(handle);
  auto *words = static_cast<int64_t *>(descriptor);
  auto *aligned = reinterpret_cast<const char *>(words[1]);
  int64_t offset = words[2];
  const int64_t *sizes = words + 3;
  const int64_t *strides = words + 3 + rank;
  int64_t n = 1;
  for (int64_t d = 0; d < rank; ++d)
    n *= sizes[d];
  s->entryBytes = n * elemBytes;
  size_t base = static_cast<size_t>(s->count * s->entryBytes);
  if (s->bytes.size() < base + s->entryBytes)
    s->bytes.resize(std::max(base + s->entryBytes, 2 * s->bytes.size()));
  char *out = s->bytes.data() + base;
  std::vector<int64_t> idx(static_cast<size_t>(rank), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = offset;
    for (int64_t d = 0; d < rank; ++d)
      off += idx[d] * strides[d];
    std::memcpy(out + i * elemBytes, aligned + off * elemBytes,
                static_cast<size_t>(elemBytes));
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++idx[d] < sizes[d])
        break;
      idx[d] = 0;
    }
  }
  ++s->count;
}

/// The index of the entry popped, or -1 when the stack is empty (the
/// compiled code reports that through tfc_rt_assert).
int64_t stackPop(int64_t handle) {
  Stack *s = stackOf(handle);
  return s->count == 0 ? -1 : --s->count;
}

int64_t stackSize(int64_t handle) { return stackOf(handle)->count; }

void stackFree(int64_t handle) { delete stackOf(handle); }

template <typename T> T stackRead(int64_t handle, int64_t entry, int64_t i) {
  Stack *s = stackOf(handle);
  if (entry < 0)
    return T();
  T value;
  std::memcpy(&value,
              s->bytes.data() + entry * s->entryBytes +
                  i * static_cast<int64_t>(sizeof(T)),
              sizeof(T));
  return value;
}

} // namespace

namespace tfc::jit::detail {
void registerStackSymbols(llvm::orc::SymbolMap &map,
                          llvm::orc::MangleAndInterner &interner) {
  auto add = [&](const char *name, void *fn) {
    map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(fn),
                           llvm::JITSymbolFlags::Exported};
  };
  add("tfc_rt_stack_new", reinterpret_cast<void *>(&stackNew));
  for (const char *name : {"tfc_rt_stack_push_i1", "tfc_rt_stack_push_i32",
                           "tfc_rt_stack_push_i64", "tfc_rt_stack_push_f32",
                           "tfc_rt_stack_push_f64"})
    add(name, reinterpret_cast<void *>(&stackPush));
  add("tfc_rt_stack_pop", reinterpret_cast<void *>(&stackPop));
  add("tfc_rt_stack_size", reinterpret_cast<void *>(&stackSize));
  add("tfc_rt_stack_free", reinterpret_cast<void *>(&stackFree));
  // i1 is one byte in memory.
  add("tfc_rt_stack_read_i1", reinterpret_cast<void *>(&stackRead<bool>));
  add("tfc_rt_stack_read_i32", reinterpret_cast<void *>(&stackRead<int32_t>));
  add("tfc_rt_stack_read_i64", reinterpret_cast<void *>(&stackRead<int64_t>));
  add("tfc_rt_stack_read_f32", reinterpret_cast<void *>(&stackRead<float>));
  add("tfc_rt_stack_read_f64", reinterpret_cast<void *>(&stackRead<double>));
}
} // namespace tfc::jit::detail
