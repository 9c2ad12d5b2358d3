//===- Internal.h - Helpers shared by the runtime's kernels -----*- C++ -*-===//
#ifndef TFC_RUNTIME_LIB_INTERNAL_H
#define TFC_RUNTIME_LIB_INTERNAL_H

#include "tfc/runtime/Tensor.h"

#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::detail {

/// Builds tensors from the private TensorImpl (friend of Tensor).
struct TensorAccess {
  static Tensor wrap(TensorImpl *impl) { return Tensor(impl); }
};

/// A fresh concrete tensor with uninitialised data. `numel` must equal the
/// product of `dims` (all >= 0). Reuses the pooled TensorImpl's shape
/// capacity, so the hot path allocates nothing on the heap.
Tensor make_tensor(DType dtype, const int64_t *dims, size_t rank,
                   int64_t numel);
inline Tensor make_tensor(DType dtype, const std::vector<int64_t> &shape,
                          int64_t numel) {
  return make_tensor(dtype, shape.data(), shape.size(), numel);
}
/// A new TensorImpl sharing x's storage and data with a new shape of the same
/// element count. Every kernel returns a fresh impl (the frontend attaches
/// autograd state to outputs), never the input's.
Tensor alias(const Tensor &x, const int64_t *dims, size_t rank);
inline Tensor alias(const Tensor &x, const std::vector<int64_t> &shape) {
  return alias(x, shape.data(), shape.size());
}
/// Product of dims, or throws InvalidArgumentError naming `op` when a dim is
/// negative or the tensor would be too large to address.
int64_t checked_numel(std::string_view op, const std::vector<int64_t> &shape,
                      DType dtype);

// --- Messages ----------------------------------------------------------------
inline void append(std::string &s, std::string_view v) { s.append(v); }
inline void append(std::string &s, const char *v) { s.append(v); }
inline void append(std::string &s, const std::string &v) { s.append(v); }
inline void append(std::string &s, char c) { s.push_back(c); }
inline void append(std::string &s, DType t) { s.append(to_string(t)); }
inline void append(std::string &s, const std::vector<int64_t> &shape) {
  s.append(shape_to_string(shape));
}
template <class I>
requires std::is_integral_v<I>
inline void append(std::string &s, I v) { s.append(std::to_string(v)); }
template <class... A> std::string concat_str(const A &...a) {
  std::string s;
  (append(s, a), ...);
  return s;
}
/// Throws InvalidArgumentError("<op>: <parts...>").
template <class... A>
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void fail(std::string_view op,
                                                       const A &...a) {
  throw InvalidArgumentError(concat_str(op, ": ", a...));
}

/// Throws unless `t` is defined and concrete.
[[gnu::cold]] [[noreturn]] void fail_not_concrete(std::string_view op,
                                                  const Tensor &t);
inline void require_concrete(std::string_view op, const Tensor &t) {
  if (!t.defined() || t.is_symbolic()) [[unlikely]]
    fail_not_concrete(op, t);
}

/// Before the host reads a CUDA tensor's memory: waits for the device
/// (RuntimeError naming `what` if that fails). No-op for CPU tensors.
void wait_for_device(const Tensor &t, std::string_view what);

/// Normalises `axis` in [-rank, rank) or throws naming op and shape.
int64_t normalize_axis(std::string_view op, int64_t axis,
                       const std::vector<int64_t> &shape);

// --- A small inline vector for shape work without heap traffic ---------------
template <class T, size_t N = 8> class SmallVec {
public:
  SmallVec() = default;
  explicit SmallVec(size_t n, T v = T()) { resize(n, v); }
  SmallVec(const SmallVec &) = delete;
  SmallVec &operator=(const SmallVec &) = delete;
  void resize(size_t n, T v = T()) {
    if (n > N) {
      heap.assign(n, v);
      ptr = heap.data();
    } else {
      ptr = inline_;
      for (size_t i = 0; i < n; ++i)
        inline_[i] = v;
    }
    len = n;
  }
  void push_back(T v) {
    if (len < N && ptr == inline_) {
      inline_[len++] = v;
      return;
    }
    if (ptr == inline_)
      heap.assign(inline_, inline_ + len);
    heap.push_back(v);
    ptr = heap.data();
    ++len;
  }
  size_t size() const { return len; }
  bool empty() const { return len == 0; }
  T *data() { return ptr; }
  const T *data() const { return ptr; }
  T &operator[](size_t i) { return ptr[i]; }
  const T &operator[](size_t i) const { return ptr[i]; }
  T &back() { return ptr[len - 1]; }

private:
  T inline_[N];
  std::vector<T> heap;
  T *ptr = inline_;
  size_t len = 0;
};

// --- Element storage types ---------------------------------------------------
/// Kernels treat bool data as bytes (0/1) to avoid touching invalid bools.
template <class T> struct Elem { using type = T; };
template <> struct Elem<bool> { using type = uint8_t; };
template <class T> using elem_t = typename Elem<T>::type;

} // namespace tfc::detail
#pragma GCC visibility pop

#endif // TFC_RUNTIME_LIB_INTERNAL_H
