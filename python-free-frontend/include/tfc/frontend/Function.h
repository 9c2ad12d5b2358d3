//===- Function.h - tfc::function: trace, compile, cache --------*- C++ -*-===//
//
// `tfc::function(f)` is `@tf.function` for C++. The first call with a new
// signature (each tensor's dtype and shape, each scalar's value, each
// variable's identity) traces `f` with symbolic tensors into the tfc dialect,
// compiles it with the JIT and caches it; later calls with that signature run
// the compiled code. Variables passed in or captured are read and written by
// the compiled code; their new values are committed when the call completes.
//
// Thread-safety: one Function object may be called from several threads; a
// trace holds the object's lock, cached calls do not mutate it.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_FUNCTION_H
#define TFC_FRONTEND_FUNCTION_H

#include "tfc/JIT/CompiledModule.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/frontend/Variable.h"
#include "tfc/runtime/Tensor.h"

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace tfc {

struct FunctionOptions {
  Target target = Target::CPU; ///< Target::CPU or Target::CUDA.
  int opt_level = 2;           ///< LLVM optimisation level, 0..3.
  /// Generalise to dynamic dims instead of retracing for every new shape
  /// (TensorFlow's relaxation): once a function has been traced for one
  /// shape, a call whose tensors differ only in some dims (same dtypes and
  /// ranks, same scalars and variables) traces once more with those dims
  /// dynamic, and that compiled function serves every later call that fits.
  /// If the dynamic-shape trace fails to trace or compile (a pattern the
  /// lowering cannot express with dynamic dims), the function falls back to
  /// one trace per shape.
  bool reduce_retracing = false;
  /// Name of the traced function in the IR, in TFC_DUMP_DIR file names and
  /// in log lines. Empty: derived from the callable (docs/environment.md,
  /// "Function names"): a named function or functor type gives its
  /// demangled name ("train_step", "app_Model"), a lambda its enclosing
  /// function and number ("main_lambda1"), anything else "fn_<N>".
  std::string name;
  /// Fuse elementwise ops (on by default; off is for comparisons).
  bool fuse = true;
  /// Under a GradientTape, a call keeps the values its backward reads
  /// (residuals) from the forward, so the backward does not recompute it.
  /// True trades time for memory (tf.recompute_grad, jax.checkpoint): the
  /// call keeps only its arguments and the backward runs the forward again.
  bool recompute_gradient = false;
  /// Run the compiled code with subnormal floats flushed to zero (FTZ and
  /// DAZ on x86-64 CPUs), as TensorFlow and XLA run their CPU kernels: a
  /// subnormal result becomes 0 and a subnormal operand reads as 0. The
  /// caller's floating-point mode is restored after each call (~10 ns).
  /// Keras's compiled steps set it: Adam's moments of rarely-updated weights
  /// decay into the subnormal range, where this CPU's sqrt and divide are
  /// slow (docs/performance.md, section 15).
  bool flush_denormals = false;
};

namespace detail {

/// One traced-and-compiled signature; opaque outside Tracing.cpp.
struct ConcreteFunction;
class TraceSession;
/// Deletes a TraceSession (defined where the type is complete).
struct TraceSessionDeleter {
  void operator()(TraceSession *session) const;
};
using TraceSessionPtr = std::unique_ptr<TraceSession, TraceSessionDeleter>;

/// A vector of trivially copyable T keeping its first N elements inline, so
/// the per-call buffers of a traced call do not touch the heap.
template <class T, size_t N> class InlineVector {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  InlineVector() = default;
  InlineVector(const InlineVector &) = delete;
  InlineVector &operator=(const InlineVector &) = delete;

  void push_back(T v) {
    if (size_ == capacity_) [[unlikely]]
      grow();
    data_[size_++] = v;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T *data() const { return data_; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
  const T &operator[](size_t i) const { return data_[i]; }

private:
  void grow() {
    auto bigger = std::make_unique<T[]>(capacity_ * 2);
    std::memcpy(bigger.get(), data_, size_ * sizeof(T));
    heap_ = std::move(bigger);
    data_ = heap_.get();
    capacity_ *= 2;
  }
  T inline_[N];
  T *data_ = inline_;
  size_t size_ = 0, capacity_ = N;
  std::unique_ptr<T[]> heap_;
};

/// The arguments of one call, flattened: the cache key (words describing
/// each argument) and pointers to the tensor arguments (alive for the whole
/// call). Built without heap allocation for up to 16 tensors.
struct CallArgs {
  InlineVector<uint64_t, 64> key;
  InlineVector<const Tensor *, 16> tensors;

  void add(const Tensor &t) {
    // Read the handle's fields directly: this runs for every argument of
    // every call.
    const TensorImpl *impl = t.unsafe_impl();
    if (!impl) [[unlikely]]
      undefined_argument();
    key.push_back(uint64_t('t') << 56 | uint64_t(impl->dtype) << 32 |
                  impl->shape.size());
    for (int64_t d : impl->shape)
      key.push_back(static_cast<uint64_t>(d));
    tensors.push_back(&t);
  }
  void add(const Variable &v) {
    key.push_back(uint64_t('v') << 56);
    key.push_back(v.id());
  }
  /// Tag flags of a scalar: the value's kind, so that int -1 and unsigned
  /// 4294967295 (same bits) are different signatures and the retrace log
  /// can print the value.
  static constexpr uint64_t kFloat = 1, kSigned = 2, kBool = 4;
  template <class S>
  requires std::is_arithmetic_v<S>
  void add(S s) {
    static_assert(sizeof(S) <= sizeof(uint64_t),
                  "tfc::function: long double arguments are not supported "
                  "(pass a double)");
    uint64_t bits = 0;
    std::memcpy(&bits, &s, sizeof(S));
    key.push_back(uint64_t('s') << 56 | uint64_t(sizeof(S)) << 8 |
                  (std::is_floating_point_v<S> ? kFloat : 0) |
                  (std::is_signed_v<S> ? kSigned : 0) |
                  (std::is_same_v<S, bool> ? kBool : 0));
    key.push_back(bits);
  }
  /// Throws InvalidArgumentError for an undefined tensor argument.
  [[noreturn]] void undefined_argument() const;
};

/// Results of one call: up to 8 inline (the usual case), more on the heap.
class CallResults {
public:
  CallResults() = default;
  CallResults(const CallResults &) = delete;
  CallResults &operator=(const CallResults &) = delete;
  /// Makes room for `n` (empty) results.
  void resize(size_t n) {
    if (n > kInline) {
      heap.resize(n);
      ptr = heap.data();
    }
    count = n;
  }
  Tensor *data() { return ptr; }
  size_t size() const { return count; }

private:
  static constexpr size_t kInline = 8;
  Tensor inlineResults[kInline];
  std::vector<Tensor> heap;
  Tensor *ptr = inlineResults;
  size_t count = 0;
};

/// The state shared by every copy of one tfc::function object.
class FunctionCore {
public:
  explicit FunctionCore(FunctionOptions options);
  ~FunctionCore();

  /// The compiled function for `args`, or null (then the caller traces).
  ConcreteFunction *lookup(const CallArgs &args);
  /// Starts a trace for `args`; installs the trace hook on this thread.
  /// Traces are serialised: null when another thread's trace of the same
  /// signature finished while this one waited (then lookup() finds it).
  TraceSessionPtr begin_trace(const CallArgs &args);
  /// The symbolic tensor standing for tensor argument `index`.
  Tensor traced_argument(TraceSession &session, size_t index);
  /// Ends a trace with `outputs` (flattened), compiles and caches it. Null
  /// when a dynamic-shape (reduce_retracing) trace did not compile: the
  /// caller traces again, with the call's own shapes.
  ConcreteFunction *finish_trace(TraceSessionPtr session, const CallArgs &args,
                                 const std::vector<Tensor> &outputs);
  /// Ends a trace that threw. True when it was a dynamic-shape trace: the
  /// caller traces again with the call's own shapes instead of rethrowing.
  bool abort_trace(TraceSessionPtr session, const CallArgs &args);
  /// Runs compiled code into `results`; commits variable writes on success.
  void run(ConcreteFunction &fn, const CallArgs &args, CallResults &results);

  int tracing_count() const;
  std::string ir(std::string_view stage) const;
  const FunctionOptions &options() const;

private:
  /// TFC_LOG=retrace and the too-many-traces warning (trace path only).
  void reportRetrace(const CallArgs &args,
                     const std::vector<std::vector<int64_t>> &relaxed,
                     bool relaxFailed, const std::string &why);
  struct Impl;
  std::unique_ptr<Impl> impl;
};

// --- Flattening results ------------------------------------------------------
template <class T> struct Flatten;
template <> struct Flatten<Tensor> {
  static void flatten(const Tensor &t, std::vector<Tensor> &out) {
    out.push_back(t);
  }
  static Tensor unflatten(Tensor *in, size_t, size_t &i) {
    return std::move(in[i++]);
  }
};
template <> struct Flatten<std::vector<Tensor>> {
  static void flatten(const std::vector<Tensor> &v, std::vector<Tensor> &out) {
    out.insert(out.end(), v.begin(), v.end());
  }
  static std::vector<Tensor> unflatten(Tensor *in, size_t n, size_t &i) {
    // A vector result is the whole flattened list (the only variadic shape
    // supported at top level).
    std::vector<Tensor> out(std::make_move_iterator(in + i),
                            std::make_move_iterator(in + n));
    i = n;
    return out;
  }
};
template <class... Ts> struct Flatten<std::tuple<Ts...>> {
  static void flatten(const std::tuple<Ts...> &t, std::vector<Tensor> &out) {
    std::apply([&](const auto &...e) { (out.push_back(Tensor(e)), ...); }, t);
  }
  static std::tuple<Ts...> unflatten(Tensor *in, size_t, size_t &i) {
    return std::tuple<Ts...>{Ts(std::move(in[i++]))...};
  }
};
template <class A, class B> struct Flatten<std::pair<A, B>> {
  static void flatten(const std::pair<A, B> &p, std::vector<Tensor> &out) {
    out.push_back(Tensor(p.first));
    out.push_back(Tensor(p.second));
  }
  static std::pair<A, B> unflatten(Tensor *in, size_t, size_t &i) {
    A a(std::move(in[i++]));
    B b(std::move(in[i++]));
    return {std::move(a), std::move(b)};
  }
};

/// What the traced callable receives for an argument of type A.
template <class A> struct TracedArg {
  static const A &get(const A &a, FunctionCore &, TraceSession &, size_t &) {
    return a;
  }
};
template <> struct TracedArg<Tensor> {
  static Tensor get(const Tensor &, FunctionCore &core, TraceSession &s,
                    size_t &i) {
    return core.traced_argument(s, i++);
  }
};

/// Restores the eager state if a trace throws.
void abort_trace(TraceSessionPtr session);

/// The IR name of a callable (FunctionOptions::name's rule). `type_name`
/// is typeid(F).name() (null without RTTI); `function` the address when
/// the callable is a function pointer (named through the dynamic symbol
/// table), else null; `type_key` an address unique to F, so the fallback
/// "fn_<N>" is the same each time for one callable.
std::string callable_name(const char *type_name, const void *function,
                          const void *type_key);

template <class F> struct TypeKey { static constexpr char id = 0; };
template <class F> const char *type_name_of() {
#if defined(__GXX_RTTI) || defined(__cpp_rtti) || defined(_CPPRTTI)
  return typeid(F).name();
#else
  return nullptr;
#endif
}

template <class T> struct IsStdFunction : std::false_type {};
template <class R, class... A>
struct IsStdFunction<std::function<R(A...)>> : std::true_type {
  using Pointer = R (*)(A...);
};

template <class F> std::string default_name(const F &f) {
  if constexpr (std::is_pointer_v<F> &&
                std::is_function_v<std::remove_pointer_t<F>>) {
    return callable_name(nullptr, reinterpret_cast<const void *>(f),
                         &TypeKey<F>::id);
  } else if constexpr (IsStdFunction<F>::value) {
    // Name what the std::function holds.
    using Pointer = typename IsStdFunction<F>::Pointer;
    if (const Pointer *p = f.template target<Pointer>())
      return callable_name(nullptr, reinterpret_cast<const void *>(*p),
                           &TypeKey<Pointer>::id);
#if defined(__GXX_RTTI) || defined(__cpp_rtti) || defined(_CPPRTTI)
    return callable_name(f.target_type().name(), nullptr, &f.target_type());
#else
    return callable_name(nullptr, nullptr, &TypeKey<F>::id);
#endif
  } else {
    return callable_name(type_name_of<F>(), nullptr, &TypeKey<F>::id);
  }
}

} // namespace detail

/// A traced function; see tfc::function.
template <class F> class Function {
public:
  Function(F f, FunctionOptions options) : fn(std::move(f)) {
    if (options.name.empty())
      options.name = detail::default_name(fn);
    core = std::make_shared<detail::FunctionCore>(std::move(options));
  }

  /// Const, like calling a tf.function: copies share one cache, and
  /// grad(f) / value_and_grad(f) take a Function like any callable.
  template <class... Args> auto operator()(const Args &...args) const {
    using Result = std::invoke_result_t<F &, const Args &...>;
    // Called while another function is being traced: trace inline into it.
    if (detail::active_trace_hook())
      return std::invoke(fn, args...);
    detail::CallArgs call;
    (call.add(args), ...);
    detail::ConcreteFunction *concrete = core->lookup(call);
    // Null after a dynamic-shape trace that failed: trace again, statically.
    while (!concrete) {
      auto session = core->begin_trace(call);
      if (!session) { // traced meanwhile by another thread
        concrete = core->lookup(call);
        continue;
      }
      std::vector<Tensor> flat;
      try {
        size_t next = 0;
        // Braced initialisation evaluates left to right, so tensor
        // arguments get symbolic tensors 0, 1, 2, ... in order.
        std::tuple<decltype(detail::TracedArg<Args>::get(args, *core, *session,
                                                         next))...>
            traced{
                detail::TracedArg<Args>::get(args, *core, *session, next)...};
        Result out = std::apply(fn, traced);
        detail::Flatten<Result>::flatten(out, flat);
      } catch (...) {
        if (core->abort_trace(std::move(session), call))
          continue;
        throw;
      }
      concrete = core->finish_trace(std::move(session), call, flat);
    }
    detail::CallResults results;
    core->run(*concrete, call, results);
    size_t i = 0;
    return detail::Flatten<Result>::unflatten(results.data(), results.size(),
                                              i);
  }

  /// How many times `f` was traced (one per new signature).
  int tracing_count() const { return core->tracing_count(); }
  /// MLIR text of the latest trace: "tfc" (as traced), "optimized" (lowered
  /// to linalg on tensors after fusion), "llvm-dialect" or "llvm" (LLVM IR).
  std::string ir(std::string_view stage = "tfc") const {
    return core->ir(stage);
  }

  /// The traced callable and the options it was made with (what
  /// custom_gradient(tfc::function(f)) rewraps).
  const F &callable() const { return fn; }
  const FunctionOptions &options() const { return core->options(); }

private:
  /// Mutable: a `mutable` lambda may be traced too (its state changes only
  /// while tracing, which the core serialises).
  mutable F fn;
  std::shared_ptr<detail::FunctionCore> core;
};

/// Like @tf.function: returns a callable that traces `f` per signature into
/// the tfc dialect and runs JIT-compiled code.
template <class F> auto function(F f, FunctionOptions options = {}) {
  return Function<F>(std::move(f), std::move(options));
}

/// custom_gradient of a tfc::function: the same function compiled with its
/// custom gradient, i.e. tfc::function(custom_gradient(f)) with the
/// function's options. Its body returns {value, backward} as for
/// custom_gradient (Gradients.h); the trace holds both (tfc.custom_gradient),
/// so a tape around a call gets the rule from the compiled VJP.
template <class F> auto custom_gradient(Function<F> f) {
  return function(custom_gradient(F(f.callable())), f.options());
}

} // namespace tfc

#endif // TFC_FRONTEND_FUNCTION_H
