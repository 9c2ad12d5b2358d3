//===- Tensor.h - The runtime tensor value type -----------------*- C++ -*-===//
//
// tfc::Tensor is a cheap refcounted handle to an immutable, dense, row-major
// value. A tensor is either concrete (owns 64-byte-aligned storage from the
// caching allocator) or symbolic (created while tracing: dtype and shape only,
// plus an opaque SymbolicValue the frontend attaches). MLIR-free.
//
// Thread-safety: handles may be copied across threads (atomic refcounts); the
// data of a tensor is never mutated once it has been handed to a user.
//
// Placement: a tensor's memory is on the CPU or on a CUDA device (CUDA managed
// memory, which the host can read too); `Tensor::to(Device)` copies between
// them (docs/gpu.md, "Memory model").
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_TENSOR_H
#define TFC_RUNTIME_TENSOR_H

#include "tfc/runtime/DType.h"
#include "tfc/runtime/Error.h"

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

namespace tfc {

/// Where a tensor's memory lives (PyTorch's torch.device, TensorFlow's
/// device names).
enum class DeviceKind : uint8_t { CPU, CUDA };

/// A device: a kind and an ordinal. Printed "CPU:0" / "CUDA:0", the last
/// part of TensorFlow's "/device:GPU:0". A cheap value type.
class Device {
public:
  /// The CPU (host memory); also what a default-constructed Device is.
  constexpr Device() = default;
  static constexpr Device cpu() { return Device(); }
  /// CUDA device `index` (>= 0, else InvalidArgumentError). Constructing one
  /// needs no driver; putting memory there does (Tensor::to). The runtime
  /// uses device 0 only.
  static Device cuda(int index = 0);

  constexpr DeviceKind kind() const { return kind_; }
  constexpr int index() const { return index_; }
  constexpr bool is_cpu() const { return kind_ == DeviceKind::CPU; }
  constexpr bool is_cuda() const { return kind_ == DeviceKind::CUDA; }
  /// "CPU:0", "CUDA:0".
  std::string str() const;

  friend constexpr bool operator==(Device, Device) = default;

private:
  constexpr Device(DeviceKind kind, int16_t index)
      : kind_(kind), index_(index) {}
  DeviceKind kind_ = DeviceKind::CPU;
  int16_t index_ = 0;
};

std::ostream &operator<<(std::ostream &, Device);

/// What a tracing frontend attaches to a symbolic tensor (e.g. an mlir::Value).
/// The runtime only needs to describe it when printing.
struct SymbolicValue {
  virtual ~SymbolicValue();
  /// E.g. "traced tfc.add": printed as tfc.Tensor(<traced tfc.add>, ...).
  virtual std::string describe() const = 0;
};

/// Per-tensor autograd state; defined by the frontend, opaque to the runtime.
struct AutogradMeta;

/// Refcounted raw storage. By default it comes from (and returns to) the
/// caching allocator; `adopt` wraps memory owned elsewhere (e.g. buffers
/// allocated by JIT-compiled code through the runtime's own allocator).
class Storage {
public:
  using Deleter = void (*)(void *ctx, void *ptr, size_t bytes);
  /// 64-byte-aligned uninitialised storage from the caching allocator.
  static Storage *allocate(size_t bytes);
  /// Wraps foreign memory on `device`; `deleter(ctx, ptr, bytes)` runs on
  /// last release.
  static Storage *adopt(void *ptr, size_t bytes, Deleter deleter, void *ctx,
                        Device device = Device::cpu());
  /// Wraps a block from tfc_rt_alloc (e.g. a result buffer allocated by
  /// JIT-compiled code) without copying; the block returns to the caching
  /// allocator on last release. Throws InvalidArgumentError when `ptr` is not
  /// a live block of the runtime allocator, `bytes` exceeds its capacity, or
  /// the block already backs a Storage.
  static Storage *adopt_allocated(void *ptr, size_t bytes);

  void retain() { refcount.fetch_add(1, std::memory_order_relaxed); }
  void release();
  void *data() const { return ptr; }
  size_t size() const { return bytes; }
  Device device() const { return where; }

private:
  Storage() = default;
  std::atomic<int32_t> refcount{1};
  Device where; ///< Fills the padding after refcount (header slot is tight).
  void *ptr = nullptr;
  size_t bytes = 0;
  Deleter deleter = nullptr;
  void *ctx = nullptr;
};

namespace detail {
struct TensorAccess;
/// The shared state behind a Tensor handle. Intrusively refcounted so a
/// handle is one pointer.
struct TensorImpl {
  std::atomic<int32_t> refcount{1};
  DType dtype = DType::Float32;
  int64_t numel = 0;
  std::vector<int64_t> shape;
  void *data = nullptr;       ///< Row-major elements (null when symbolic).
  Storage *storage = nullptr; ///< Owns `data`; may be shared (reshape views).
  std::shared_ptr<SymbolicValue> symbolic;
  std::shared_ptr<AutogradMeta> autograd;

  static TensorImpl *create(); ///< Pooled allocation.
  void retain() { refcount.fetch_add(1, std::memory_order_relaxed); }
  void release();
};
} // namespace detail

class Tensor {
public:
  Tensor() = default;
  Tensor(const Tensor &o) : impl(o.impl) {
    if (impl)
      impl->retain();
  }
  Tensor(Tensor &&o) noexcept : impl(o.impl) { o.impl = nullptr; }
  Tensor &operator=(const Tensor &o) {
    detail::TensorImpl *p = o.impl; // read first: `o` may be *this
    if (p)
      p->retain();
    reset();
    impl = p;
    return *this;
  }
  Tensor &operator=(Tensor &&o) noexcept {
    if (this != &o) {
      reset();
      impl = o.impl;
      o.impl = nullptr;
    }
    return *this;
  }
  ~Tensor() { reset(); }

  // --- docs/api.md: Values --------------------------------------------------
  bool defined() const { return impl != nullptr; }
  DType dtype() const;
  const std::vector<int64_t> &shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }
  int64_t numel() const;
  /// Exactly one element and T matches dtype, else InvalidArgumentError.
  template <class T> T item() const;
  /// Row-major copy; T must match dtype, else InvalidArgumentError.
  template <class T> std::vector<T> to_vector() const;
  /// Same text as operator<<.
  std::string str() const;
  /// Where the data lives: CUDA:0 for results of Target::CUDA calls and
  /// tensors moved there; CPU otherwise (also for symbolic tensors).
  Device device() const;
  /// A copy on `device` (the same tensor when already there). Moving to
  /// CUDA needs the driver (RuntimeError saying it was not found, and
  /// nothing allocated, otherwise); symbolic tensors cannot move
  /// (InvalidArgumentError). Not recorded by gradient tapes.
  Tensor to(Device device) const;

  // --- Runtime extensions ---------------------------------------------------
  /// Uninitialised concrete tensor from the caching allocator.
  static Tensor empty(DType dtype, std::vector<int64_t> shape);
  /// Concrete tensor sharing `storage` (retained) with `data` inside it.
  static Tensor from_storage(DType dtype, std::vector<int64_t> shape,
                             Storage *storage, void *data);
  /// A data-less tensor created while tracing.
  static Tensor symbolic(DType dtype, std::vector<int64_t> shape,
                         std::shared_ptr<SymbolicValue> value);

  bool is_symbolic() const { return impl && impl->symbolic != nullptr; }
  SymbolicValue *symbolic_value() const {
    return impl ? impl->symbolic.get() : nullptr;
  }
  /// Raw element pointer; throws if undefined or symbolic.
  void *raw_data() const;
  template <class T> T *data() const { return static_cast<T *>(raw_data()); }
  size_t nbytes() const {
    return static_cast<size_t>(numel()) * dtype_size(dtype());
  }
  Storage *storage() const { return impl ? impl->storage : nullptr; }
  /// Identity of the underlying value (stable while any handle lives).
  const void *id() const { return impl; }
  detail::TensorImpl *unsafe_impl() const { return impl; }

private:
  friend struct detail::TensorAccess;
  explicit Tensor(detail::TensorImpl *i) : impl(i) {}
  void reset() {
    if (impl)
      impl->release();
    impl = nullptr;
  }
  detail::TensorImpl *impl = nullptr;
};

std::ostream &operator<<(std::ostream &, const Tensor &);

/// "(2, 3)" / "()" / "(4,)" -- Python tuple spelling used in every message.
/// Numbers are printed as given (-1 stays -1).
std::string shape_to_string(const std::vector<int64_t> &shape);
/// Product of dims (1 for rank 0; -1 if a dim is negative, i.e. dynamic).
/// Throws InvalidArgumentError when the product overflows int64.
int64_t shape_numel(const std::vector<int64_t> &shape);

} // namespace tfc

#endif // TFC_RUNTIME_TENSOR_H
