//===- Tensor.cpp - Storage, pooled TensorImpl and Tensor -----------------===//
//
// The eager hot path creates one tensor per op: a TensorImpl popped from a
// per-thread pool (its shape vector keeps its capacity) and a Storage that
// lives inside the header of its allocator block (one allocation, usually a
// per-thread cache hit). Releasing a uniquely owned handle skips the atomic
// read-modify-write.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Tensor.h"

#include "AllocatorInternal.h"
#include "External.h"
#include "Internal.h"
#include "tfc/runtime/Allocator.h"
#include "tfc/runtime/Interop.h"
#include "tfc/runtime/Print.h"

#include <algorithm>
#include <cstdio>
#include <new>
#include <ostream>

using namespace tfc;
using namespace tfc::detail;
namespace ad = tfc::allocator::detail;

SymbolicValue::~SymbolicValue() = default;

//===----------------------------------------------------------------------===//
// Storage
//===----------------------------------------------------------------------===//

namespace {
/// Marks a Storage that lives in the header of its own allocator block.
void allocatorBlockDeleter(void *, void *, size_t) {}
void noopDeleter(void *, void *, size_t) {}
} // namespace

static_assert(sizeof(Storage) <= ad::kStorageSlotBytes,
              "Storage must fit in an allocator block header");

Storage *Storage::allocate(size_t bytes) {
  void *p = allocator::allocate(bytes);
  ad::BlockHeader *h = ad::header_of(p);
  auto *s = new (h->storageSlot) Storage();
  s->ptr = p;
  s->bytes = bytes;
  s->deleter = &allocatorBlockDeleter;
  h->flags |= ad::kHasStorage;
  return s;
}

Storage *Storage::adopt(void *ptr, size_t bytes, Deleter deleter, void *ctx,
                        Device device) {
  auto *s = new Storage();
  s->where = device;
  s->ptr = ptr;
  s->bytes = bytes;
  s->deleter = deleter ? deleter : &noopDeleter;
  s->ctx = ctx;
  return s;
}

Storage *Storage::adopt_allocated(void *ptr, size_t bytes) {
  if (!allocator::owns(ptr))
    fail("adopt_allocated", "pointer was not allocated by tfc_rt_alloc");
  ad::BlockHeader *h = ad::header_of(ptr);
  if (bytes > h->capacity)
    fail("adopt_allocated", bytes, " bytes exceed the block's capacity of ",
         h->capacity);
  if (h->flags & ad::kHasStorage)
    fail("adopt_allocated", "block already backs a tensor");
  auto *s = new (h->storageSlot) Storage();
  s->ptr = ptr;
  s->bytes = bytes;
  s->deleter = &allocatorBlockDeleter;
  h->flags |= ad::kHasStorage;
  return s;
}

void Storage::release() {
  // A sole owner needs no atomic read-modify-write: nobody else can retain.
  if (refcount.load(std::memory_order_acquire) != 1 &&
      refcount.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  if (deleter == &allocatorBlockDeleter) {
    void *p = ptr; // `this` lives in p's header: read everything first.
    ad::header_of(p)->flags &= ~ad::kHasStorage;
    allocator::deallocate(p);
    return;
  }
  deleter(ctx, ptr, bytes);
  delete this;
}

//===----------------------------------------------------------------------===//
// TensorImpl pool
//===----------------------------------------------------------------------===//

namespace {
constexpr uint32_t kPoolMax = 4096;

/// Freed impls, linked through their `data` field.
struct ImplPool {
  TensorImpl *head = nullptr;
  uint32_t count = 0;
};

// Initial-exec: read on every tensor create/release. In libtfc.so the default
// (general-dynamic) model makes each read a call to __tls_get_addr; a static
// TLS slot of 8 bytes makes it one %fs-relative load.
[[gnu::tls_model("initial-exec")]] thread_local ImplPool *tlPool = nullptr;
thread_local bool tlPoolDead = false;

struct ImplPoolOwner {
  ImplPool pool;
  ~ImplPoolOwner() {
    tlPool = nullptr;
    tlPoolDead = true;
    while (TensorImpl *i = pool.head) {
      pool.head = static_cast<TensorImpl *>(i->data);
      delete i;
    }
  }
};

[[gnu::noinline]] ImplPool *initPool() {
  if (tlPoolDead)
    return nullptr;
  thread_local ImplPoolOwner owner;
  tlPool = &owner.pool;
  return tlPool;
}

inline ImplPool *implPool() {
  if (ImplPool *p = tlPool) [[likely]]
    return p;
  return initPool();
}
} // namespace

TensorImpl *TensorImpl::create() {
  if (ImplPool *pool = implPool()) [[likely]] {
    if (TensorImpl *i = pool->head) {
      pool->head = static_cast<TensorImpl *>(i->data);
      --pool->count;
      i->data = nullptr;
      return i;
    }
  }
  return new TensorImpl();
}

void TensorImpl::release() {
  if (refcount.load(std::memory_order_acquire) != 1 &&
      refcount.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  Storage *s = storage;
  storage = nullptr;
  data = nullptr;
  // These may run frontend destructors that release other tensors.
  if (symbolic)
    symbolic.reset();
  if (autograd)
    autograd.reset();
  if (s)
    s->release();
  shape.clear();
  numel = 0;
  refcount.store(1, std::memory_order_relaxed);
  ImplPool *pool = implPool();
  if (pool && pool->count < kPoolMax) [[likely]] {
    data = pool->head;
    pool->head = this;
    ++pool->count;
    return;
  }
  delete this;
}

//===----------------------------------------------------------------------===//
// Internal helpers
//===----------------------------------------------------------------------===//

static std::string hexAddress(uintptr_t addr) {
  char buf[2 + 2 * sizeof(uintptr_t) + 1];
  std::snprintf(buf, sizeof buf, "0x%jx", static_cast<uintmax_t>(addr));
  return buf;
}

namespace tfc::detail {

Tensor make_tensor(DType dtype, const int64_t *dims, size_t rank,
                   int64_t numel) {
  Tensor t = TensorAccess::wrap(TensorImpl::create());
  TensorImpl *impl = t.unsafe_impl();
  impl->shape.assign(dims, dims + rank);
  impl->dtype = dtype;
  impl->numel = numel;
  impl->storage =
      Storage::allocate(static_cast<size_t>(numel) * dtype_size(dtype));
  impl->data = impl->storage->data();
  return t;
}

Tensor alias(const Tensor &x, const int64_t *dims, size_t rank) {
  Tensor t = TensorAccess::wrap(TensorImpl::create());
  TensorImpl *impl = t.unsafe_impl();
  TensorImpl *src = x.unsafe_impl();
  impl->shape.assign(dims, dims + rank);
  impl->dtype = src->dtype;
  impl->numel = src->numel;
  impl->data = src->data;
  impl->storage = src->storage;
  if (impl->storage)
    impl->storage->retain();
  return t;
}

int64_t checked_numel(std::string_view op, const std::vector<int64_t> &shape,
                      DType dtype) {
  // Keep byte counts far below what the allocator or size_t could overflow.
  constexpr int64_t kMaxBytes = int64_t(1) << 48;
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : shape) {
    if (d < 0)
      fail(op, "invalid shape ", shape, ": dimensions must be >= 0");
    if (!overflow && __builtin_mul_overflow(n, d, &n))
      overflow = true;
  }
  int64_t bytes = 0;
  if (overflow ||
      __builtin_mul_overflow(n, static_cast<int64_t>(dtype_size(dtype)),
                             &bytes) ||
      bytes > kMaxBytes)
    fail(op, "shape ", shape, " of dtype ", dtype, " is too large");
  return n;
}

int64_t check_external(std::string_view op, const void *ptr,
                       const std::vector<int64_t> &shape, DType dtype) {
  int64_t n = checked_numel(op, shape, dtype);
  if (n > 0 && !ptr)
    fail(op, "null data pointer for shape ", shape, " of dtype ", dtype, " (",
         n, " elements)");
  // Compiled code and the eager kernels load whole elements at their natural
  // alignment (LLVM's vectorized loads keep it); nothing assumes the 64 bytes
  // the runtime's own allocator gives.
  size_t align = dtype_size(dtype);
  if (auto addr = reinterpret_cast<uintptr_t>(ptr); addr % align)
    fail(op, "data pointer ", hexAddress(addr), " of the ", dtype,
         " tensor of shape ", shape, " is not aligned to ", align,
         " bytes (the size of one element)");
  return n;
}

Tensor wrap_external(void *ptr, std::vector<int64_t> shape, DType dtype,
                     int64_t numel, Storage::Deleter deleter, void *ctx,
                     Device device) {
  size_t bytes = static_cast<size_t>(numel) * dtype_size(dtype);
  Tensor t = TensorAccess::wrap(TensorImpl::create());
  TensorImpl *impl = t.unsafe_impl();
  impl->shape = std::move(shape);
  impl->dtype = dtype;
  impl->numel = numel;
  impl->storage = Storage::adopt(ptr, bytes, deleter, ctx, device);
  impl->data = ptr;
  return t;
}

void fail_not_concrete(std::string_view op, const Tensor &t) {
  if (!t.defined())
    fail(op, "operand is an undefined tensor");
  fail(op, "operand of shape ", t.shape(), " and dtype ", t.dtype(),
       " is a symbolic tensor (created while tracing); its value is only "
       "available at run time");
}

int64_t normalize_axis(std::string_view op, int64_t axis,
                       const std::vector<int64_t> &shape) {
  int64_t rank = static_cast<int64_t>(shape.size());
  if (axis < -rank || axis >= rank)
    fail(op, "axis ", axis, " out of range for rank ", rank,
         " tensor of shape ", shape);
  return axis < 0 ? axis + rank : axis;
}

} // namespace tfc::detail

//===----------------------------------------------------------------------===//
// Tensor
//===----------------------------------------------------------------------===//

namespace {
[[noreturn]] [[gnu::cold]] void failUndefined(std::string_view what) {
  throw InvalidArgumentError(std::string(what) +
                             ": the tensor is undefined (default-constructed)");
}

/// Throws the item/to_vector errors for undefined, symbolic or mistyped
/// tensors.
void checkReadable(const Tensor &t, std::string_view what, DType want) {
  if (!t.defined())
    failUndefined(what);
  if (t.is_symbolic())
    fail(what, "tensor of shape ", t.shape(), " and dtype ", t.dtype(),
         " is a symbolic tensor (created while tracing); its value is only "
         "available at run time");
  if (t.dtype() != want)
    fail(what, "requested ", want, " but the tensor of shape ", t.shape(),
         " has dtype ", t.dtype());
}
} // namespace

DType Tensor::dtype() const {
  if (!impl) [[unlikely]]
    failUndefined("dtype");
  return impl->dtype;
}

const std::vector<int64_t> &Tensor::shape() const {
  if (!impl) [[unlikely]]
    failUndefined("shape");
  return impl->shape;
}

int64_t Tensor::numel() const {
  if (!impl) [[unlikely]]
    failUndefined("numel");
  return impl->numel;
}

template <class T> T Tensor::item() const {
  checkReadable(*this, "item", dtype_of<T>);
  wait_for_device(*this, "item");
  if (impl->numel != 1)
    fail("item", "expected exactly one element, but the ", impl->dtype,
         " tensor has shape ", impl->shape, " (", impl->numel, " elements)");
  if constexpr (std::is_same_v<T, bool>)
    return *static_cast<const uint8_t *>(impl->data) != 0;
  else
    return *static_cast<const T *>(impl->data);
}

template <class T> std::vector<T> Tensor::to_vector() const {
  checkReadable(*this, "to_vector", dtype_of<T>);
  wait_for_device(*this, "to_vector");
  size_t n = static_cast<size_t>(impl->numel);
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<bool> out(n);
    auto *p = static_cast<const uint8_t *>(impl->data);
    for (size_t i = 0; i < n; ++i)
      out[i] = p[i] != 0;
    return out;
  } else {
    auto *p = static_cast<const T *>(impl->data);
    return std::vector<T>(p, p + n);
  }
}

#define TFC_INSTANTIATE(T)                                                     \
  template T Tensor::item<T>() const;                                          \
  template std::vector<T> Tensor::to_vector<T>() const;
TFC_INSTANTIATE(bool)
TFC_INSTANTIATE(int32_t)
TFC_INSTANTIATE(int64_t)
TFC_INSTANTIATE(float)
TFC_INSTANTIATE(double)
#undef TFC_INSTANTIATE

std::string Tensor::str() const { return format_tensor(*this); }

Tensor Tensor::empty(DType dtype, std::vector<int64_t> shape) {
  int64_t n = checked_numel("empty", shape, dtype);
  Tensor t(TensorImpl::create());
  t.impl->shape = std::move(shape);
  t.impl->dtype = dtype;
  t.impl->numel = n;
  t.impl->storage =
      Storage::allocate(static_cast<size_t>(n) * dtype_size(dtype));
  t.impl->data = t.impl->storage->data();
  return t;
}

Tensor Tensor::from_storage(DType dtype, std::vector<int64_t> shape,
                            Storage *storage, void *data) {
  int64_t n = checked_numel("from_storage", shape, dtype);
  if (!storage)
    fail("from_storage", "null storage");
  size_t need = static_cast<size_t>(n) * dtype_size(dtype);
  auto *begin = static_cast<char *>(storage->data());
  auto *p = static_cast<char *>(data);
  if (need > 0 && (!p || p < begin || p > begin + storage->size() ||
                   static_cast<size_t>(begin + storage->size() - p) < need))
    fail("from_storage", "data for shape ", shape, " of dtype ", dtype, " (",
         need, " bytes) does not lie inside the storage (", storage->size(),
         " bytes)");
  Tensor t(TensorImpl::create());
  t.impl->shape = std::move(shape);
  t.impl->dtype = dtype;
  t.impl->numel = n;
  storage->retain();
  t.impl->storage = storage;
  t.impl->data = data;
  return t;
}

Tensor Tensor::symbolic(DType dtype, std::vector<int64_t> shape,
                        std::shared_ptr<SymbolicValue> value) {
  if (!value)
    fail("symbolic", "null SymbolicValue");
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < -1)
      fail("symbolic", "invalid shape ", shape,
           ": dimensions must be >= 0 (or -1 for dynamic)");
    if (d < 0 || n < 0)
      n = -1;
    else if (__builtin_mul_overflow(n, d, &n))
      fail("symbolic", "shape ", shape, " is too large");
  }
  Tensor t(TensorImpl::create());
  t.impl->shape = std::move(shape);
  t.impl->dtype = dtype;
  t.impl->numel = n;
  t.impl->symbolic = std::move(value);
  return t;
}

void *Tensor::raw_data() const {
  if (!impl)
    failUndefined("raw_data");
  if (impl->symbolic)
    fail("raw_data", "tensor of shape ", impl->shape, " and dtype ",
         impl->dtype,
         " is a symbolic tensor (created while tracing); its value is only "
         "available at run time");
  return impl->data;
}

Tensor tfc::from_blob(void *ptr, std::vector<int64_t> shape, DType dtype,
                      std::function<void(void *)> deleter) {
  int64_t n = check_external("from_blob", ptr, shape, dtype);
  if (!deleter)
    return wrap_external(ptr, std::move(shape), dtype, n, nullptr, nullptr,
                         Device::cpu());
  // The std::function lives on the heap until the Storage's last release.
  auto *owned = new std::function<void(void *)>(std::move(deleter));
  try {
    return wrap_external(
        ptr, std::move(shape), dtype, n,
        [](void *ctx, void *p, size_t) {
          std::unique_ptr<std::function<void(void *)>> f(
              static_cast<std::function<void(void *)> *>(ctx));
          (*f)(p);
        },
        owned, Device::cpu());
  } catch (...) { // std::bad_alloc: the caller still owns `ptr`
    delete owned;
    throw;
  }
}

std::ostream &tfc::operator<<(std::ostream &os, const Tensor &t) {
  return os << format_tensor(t);
}

std::string tfc::shape_to_string(const std::vector<int64_t> &shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1)
    s += ",";
  s += ")";
  return s;
}

int64_t tfc::shape_numel(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : shape) {
    if (d < 0)
      return -1;
    overflow = overflow || __builtin_mul_overflow(n, d, &n);
  }
  // A zero dim makes the product 0 even after an overflow.
  if (overflow && std::find(shape.begin(), shape.end(), 0) == shape.end())
    throw InvalidArgumentError("shape " + shape_to_string(shape) +
                               " has more elements than an int64 can count");
  return overflow ? 0 : n;
}
