//===- Distribute.cpp - all_reduce, broadcast, barrier --------------------===//

#include "tfc/frontend/Distribute.h"

#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Ops.h"

#include <cstring>
#include <string>

using namespace tfc;

namespace {

/// Eager tensors only: a broadcast changes values outside any trace.
void requireEager(const char *what, const Tensor &t,
                  const std::source_location &loc) {
  if (!t.defined())
    detail::throw_invalid_argument(std::string(what) + ": undefined tensor",
                                   loc);
  if (t.is_symbolic() || detail::active_trace_hook())
    detail::throw_invalid_argument(
        std::string(what) +
            ": runs eagerly only (call it outside tfc::function)",
        loc);
}

std::shared_ptr<distribute::Communicator>
checkedComm(const char *what, int root, const std::source_location &loc) {
  auto c = distribute::communicator();
  int n = c ? c->size() : 1;
  if (root < 0 || root >= n)
    detail::throw_invalid_argument(
        std::string(what) + ": root " + std::to_string(root) +
            " is not a replica (size " + std::to_string(n) + ")",
        loc);
  return c;
}

} // namespace

int distribute::rank() { return replica_rank(); }
int distribute::size() { return num_replicas(); }

Tensor distribute::all_reduce(const Tensor &x, ReduceOp op,
                              std::source_location loc) {
  OpAttrs attrs;
  attrs.reduce_op = op;
  return detail::dispatch(OpKind::AllReduce, &x, 1, attrs, loc);
}

Tensor distribute::broadcast(const Tensor &x, int root,
                             std::source_location loc) {
  requireEager("broadcast", x, loc);
  auto c = checkedComm("broadcast", root, loc);
  // A fresh tensor: x may share storage with others.
  Tensor out = Tensor::empty(x.dtype(), x.shape());
  int64_t bytes = x.numel() * int64_t(dtype_size(x.dtype()));
  if (bytes)
    std::memcpy(out.raw_data(), x.raw_data(), size_t(bytes));
  if (c && c->size() > 1 && bytes)
    c->broadcast(out.raw_data(), bytes, root);
  return out;
}

void distribute::broadcast(const std::vector<Variable> &vars, int root,
                           std::source_location loc) {
  checkedComm("broadcast", root, loc);
  for (const Variable &v : vars) {
    Tensor value = v.value();
    requireEager("broadcast", value, loc);
    Variable target = v; // a handle: assigns the shared state
    target.assign(broadcast(value, root, loc), loc);
  }
}

void distribute::barrier() {
  if (auto c = communicator(); c && c->size() > 1)
    c->barrier();
}
