//===- Gradients.h - GradientTape, grad, custom_gradient --------*- C++ -*-===//
//
// Reverse-mode automatic differentiation, as in TensorFlow 2:
//
//   Tensor x = constant(3.0);
//   GradientTape tape;
//   tape.watch(x);
//   Tensor y = x * x;
//   Tensor dy_dx = tape.gradient(y, x);      // 6
//
//   grad([](const Tensor &x) { return x * x; })(3.0);           // 6
//   grad(grad([](const Tensor &x) { return x * x; }))(3.0);     // 2
//
// A tape records the ops that run while it is alive and whose inputs depend on
// a watched tensor (or on a trainable Variable read while it is alive); its
// `gradient` walks that record backwards, applying one gradient rule per op.
// The rules (GradientRules.cpp) are written once, against the public tfc ops,
// so the same rule runs kernels eagerly and builds IR when the tape lives
// inside a `tfc::function` trace: `grad` inside a traced function gives a
// compiled gradient. The backward pass itself runs through those ops, so an
// outer tape records it, and nested tapes give higher-order derivatives.
//
// Inside a traced function, `cond` and `while_loop` are recorded as one node
// each, whose gradient is a `tfc.grad` of a copy of the traced `tfc.if` /
// `tfc.while`: the tfc-autodiff pass differentiates it when the function is
// compiled (the backward of a loop pops the values each iteration pushed, so
// data-dependent trip counts work in O(N)). A call of a compiled function
// under a tape is one node too, whose gradient is its compiled VJP.
// Eagerly, `cond` and `while_loop` run ordinary C++ control flow and the tape
// simply records the ops that ran.
//
// Cost: with no tape alive, nothing is recorded and the eager fast path of
// detail::dispatch is unchanged.
//
// Thread-safety: a tape records the ops of the thread that created it, like
// TensorFlow's tapes; use a tape from one thread only.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_GRADIENTS_H
#define TFC_FRONTEND_GRADIENTS_H

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Variable.h"
#include "tfc/runtime/Ops.h"
#include "tfc/runtime/Tensor.h"

#include <array>
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <source_location>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tfc {

namespace detail {
class TapeImpl;
} // namespace detail

/// Records operations for automatic differentiation (tf.GradientTape).
///
/// Ops whose inputs depend on a watched tensor are recorded while the tape is
/// alive. Trainable Variables read while it is alive are watched
/// automatically. `gradient` may be called once on a non-persistent tape
/// (a second call throws InvalidArgumentError) and any number of times on a
/// persistent one. A tape is not copyable; it is movable.
class GradientTape {
public:
  explicit GradientTape(bool persistent = false);
  ~GradientTape();
  GradientTape(GradientTape &&) noexcept;
  GradientTape &operator=(GradientTape &&) noexcept;
  GradientTape(const GradientTape &) = delete;
  GradientTape &operator=(const GradientTape &) = delete;

  /// Ensures `t` is traced by this tape: ops on it are recorded from now on.
  void watch(const Tensor &t);
  /// Watches each tensor.
  void watch(const std::vector<Tensor> &ts);
  /// Watches the variable's current value (also for a non-trainable one).
  void watch(const Variable &v);

  /// d(sum(target)) / d(source). A source the target does not depend on gets
  /// zeros of its shape. Sources must be float32 or float64 (an integer
  /// source throws InvalidArgumentError), and so must the target.
  Tensor gradient(const Tensor &target, const Tensor &source);
  /// One gradient per source, in order.
  std::vector<Tensor> gradient(const Tensor &target,
                               const std::vector<Tensor> &sources);
  std::vector<Tensor> gradient(const Tensor &target,
                               std::initializer_list<Tensor> sources);
  /// d(sum(target)) / d(variable): the sum over every read of the variable
  /// while this tape was alive (zeros if it was never read).
  Tensor gradient(const Tensor &target, const Variable &source);
  /// One gradient per variable, in order.
  std::vector<Tensor> gradient(const Tensor &target,
                               const std::vector<Variable> &sources);
  std::vector<Tensor> gradient(const Tensor &target,
                               std::initializer_list<Variable> sources);
  /// The general form: the gradient of sum_i(sum(targets[i] *
  /// output_gradients[i])) with respect to each source. `output_gradients`
  /// is empty (ones for every target) or has one entry per target with the
  /// target's shape and dtype; an undefined entry also means ones.
  std::vector<Tensor> gradient(const std::vector<Tensor> &targets,
                               const std::vector<Tensor> &sources,
                               const std::vector<Tensor> &output_gradients);

  /// While the returned object is alive, this tape records nothing
  /// (tf.GradientTape.stop_recording).
  class StopRecording {
  public:
    StopRecording(StopRecording &&other) noexcept;
    StopRecording(const StopRecording &) = delete;
    StopRecording &operator=(const StopRecording &) = delete;
    StopRecording &operator=(StopRecording &&) = delete;
    ~StopRecording();

  private:
    friend class GradientTape;
    explicit StopRecording(detail::TapeImpl *tape);
    /// The tape's pause count, shared: the guard may outlive the tape.
    std::shared_ptr<int> pauses;
  };
  [[nodiscard]] StopRecording stop_recording();

  /// Forgets everything recorded and watched so far (tf.GradientTape.reset);
  /// a non-persistent tape may compute a gradient again afterwards.
  void reset();

  bool persistent() const;

private:
  std::unique_ptr<detail::TapeImpl> impl;
};

namespace detail {

// --- Gradient rules ----------------------------------------------------------

/// What a gradient rule sees of the op it differentiates: the op, its
/// attributes (normalised by the frontend, see Dispatch.h), its inputs and
/// its output, all as recorded by the tape (concrete eagerly, symbolic while
/// tracing).
struct GradientContext {
  OpKind kind;
  const OpAttrs &attrs;
  const Tensor *inputs;
  size_t numInputs;
  const Tensor &output;
};

/// A gradient rule: given `dy` (shaped like the output), returns one tensor
/// per input: the gradient of the input, shaped like it, or an undefined
/// tensor where no gradient flows. Rules are written with the public tfc ops,
/// so they run eagerly or build IR depending on where they are called.
using GradientRule = std::vector<Tensor> (*)(const GradientContext &ctx,
                                             const Tensor &dy);

/// The rule of `kind`, or nullptr for an op that is not differentiable
/// (comparisons, logical ops, argmax, one_hot, floor_div, mod) or that stops
/// gradients (stop_gradient): no gradient flows through it, which a tape
/// reports as zeros, as TensorFlow does. `cast` has a rule; it gives a
/// gradient only from a floating dtype to a floating dtype.
GradientRule gradient_rule(OpKind kind);

/// Runs the rule of `kind` and checks what it returned (one entry per input,
/// each undefined or with its input's shape and dtype). Returns undefined
/// tensors for an op without a rule.
std::vector<Tensor> apply_gradient_rule(OpKind kind, const OpAttrs &attrs,
                                        const Tensor *inputs, size_t numInputs,
                                        const Tensor &output, const Tensor &dy);

/// Sums `grad` over the dims that NumPy broadcasting added to reach its shape
/// from `shape`, and reshapes the result to `shape`: the gradient of
/// `broadcast_to(x, grad.shape())` with respect to `x` of shape `shape`.
Tensor unbroadcast(const Tensor &grad, const std::vector<int64_t> &shape);

// --- Plumbing for grad / custom_gradient -------------------------------------

/// While alive, no tape on this thread records (the forward function of a
/// custom gradient runs under one, as with tf.custom_gradient).
class SuspendRecording {
public:
  SuspendRecording();
  ~SuspendRecording();
  SuspendRecording(const SuspendRecording &) = delete;
  SuspendRecording &operator=(const SuspendRecording &) = delete;
};

/// While alive, collects the trainable Variables read on this thread and
/// the values they gave (tf.custom_gradient's VariableWatcher): eager reads
/// through the op observers, traced reads by standing in front of the
/// active trace hook, to which it forwards everything.
class VariableWatcher final : public OpObserver, public TraceHook {
public:
  VariableWatcher();
  ~VariableWatcher() override;
  VariableWatcher(const VariableWatcher &) = delete;
  VariableWatcher &operator=(const VariableWatcher &) = delete;

  std::vector<Variable> variables;
  std::vector<Tensor> values;

  // OpObserver
  void recorded(OpKind, const Tensor *, size_t, const OpAttrs &,
                const Tensor &) override {}
  void variable_read(const VariableState &var, const Tensor &value) override;
  // TraceHook: forwarded to the hook that was active.
  Tensor op(OpKind kind, const Tensor *inputs, size_t numInputs,
            const OpAttrs &attrs, const std::source_location &loc) override;
  Tensor constant(const Tensor &value) override;
  Tensor var_read(const std::shared_ptr<VariableState> &var) override;
  void var_assign(const std::shared_ptr<VariableState> &var, AssignKind how,
                  const Tensor &value) override;
  void variable_created(const std::shared_ptr<VariableState> &var) override;
  void print(std::string_view label,
             const std::vector<Tensor> &tensors) override;
  void assert_true(const Tensor &pred, std::string_view message,
                   const std::source_location &loc) override;
  std::vector<Tensor> cond(const Tensor &pred,
                           const std::function<std::vector<Tensor>()> &thenFn,
                           const std::function<std::vector<Tensor>()> &elseFn,
                           const std::source_location &loc) override;
  Tensor
  custom_gradient(const std::vector<Tensor> &inputs, const Tensor &value,
                  const std::function<std::vector<Tensor>(const Tensor &)>
                      &backward) override;
  std::vector<Tensor> while_loop(
      const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
      const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
          &bodyFn,
      const std::vector<Tensor> &loopVars, int64_t maximumIterations,
      const std::source_location &loc) override;

private:
  void add(const VariableState &var, const Tensor &value);
  TraceHook *inner = nullptr; ///< The hook it stands in front of, if any.
};

/// Throws InvalidArgumentError: the forward function of a custom gradient
/// read trainable `variables` but its backward does not take them.
[[noreturn]] void
custom_gradient_needs_variables(const std::vector<Variable> &variables);

/// The variable gradients a custom gradient's backward returned, checked
/// against the variables it was given.
std::vector<Tensor> check_variable_gradients(std::vector<Tensor> grads,
                                             size_t numVariables);

/// The user's backward function of a custom gradient: dy -> one gradient per
/// input.
using CustomBackward = std::function<std::vector<Tensor>(const Tensor &dy)>;

/// What a custom gradient's backward function returned, as one gradient per
/// input.
inline std::vector<Tensor> as_gradient_list(Tensor grad) {
  return {std::move(grad)};
}
inline std::vector<Tensor> as_gradient_list(std::vector<Tensor> grads) {
  return grads;
}

/// Records `value = f(inputs...)` as one node whose gradient is `backward`
/// on every tape that is recording and watches one of `inputs`. Returns the
/// tensor to hand to the user (`value`, or a fresh handle of it when `value`
/// is one of the inputs).
Tensor record_custom_gradient(const std::vector<Tensor> &inputs, Tensor value,
                              CustomBackward backward);

/// A grad/custom_gradient argument as a tensor: a Tensor as is, a Variable's
/// value, a C++ floating scalar as a rank-0 tensor (float32 for float,
/// float64 for double), a C++ integer as an int32/int64 scalar (whose
/// gradient then throws, as for any integer tensor).
inline Tensor grad_argument(const Tensor &t) { return t; }
inline Tensor grad_argument(const Variable &v) { return v.value(); }
template <class S>
requires std::is_arithmetic_v<S> Tensor grad_argument(S value) {
  if constexpr (std::is_same_v<S, bool>)
    return from_vector<bool>({value}, {});
  else if constexpr (std::is_same_v<S, float>)
    return from_vector<float>({value}, {});
  else if constexpr (std::is_floating_point_v<S>)
    return from_vector<double>({static_cast<double>(value)}, {});
  else if constexpr (sizeof(S) <= 4 && std::is_signed_v<S>)
    return from_vector<int32_t>({static_cast<int32_t>(value)}, {});
  else
    return from_vector<int64_t>({static_cast<int64_t>(value)}, {});
}

/// Calls `f(x, rest...)`, or `f(x, rest..., std::source_location)` for a
/// tfc op passed by name (`grad(tfc::tanh)`), whose location parameter has a
/// default that a function pointer does not carry.
template <class F, class X, class... Rest>
decltype(auto) invoke_differentiated(F &f, const X &x, const Rest &...rest) {
  if constexpr (std::is_invocable_v<F &, const X &, const Rest &...>)
    return std::invoke(f, x, rest...);
  else if constexpr (std::is_invocable_v<F &, const X &, const Rest &...,
                                         std::source_location>)
    return std::invoke(f, x, rest..., std::source_location::current());
  else
    static_assert(sizeof(F) == 0,
                  "tfc::grad: f cannot be called with the given arguments");
}

} // namespace detail

/// The gradient of `f` with respect to its first argument (jax.grad): a
/// callable taking f's arguments and returning d(sum(f(x, ...))) / dx. The
/// first argument may be a Tensor, a Variable or a C++ floating scalar (3.0
/// is a float64 scalar). `grad(grad(f))` gives the second derivative.
template <class F> auto grad(F f) {
  return [f = std::move(f)](const auto &x, const auto &...rest) -> Tensor {
    GradientTape tape;
    using X = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<X, Variable>) {
      tape.watch(x);
      Tensor y(detail::invoke_differentiated(f, x, rest...));
      return tape.gradient(y, x);
    } else {
      Tensor xt = detail::grad_argument(x);
      tape.watch(xt);
      Tensor y(detail::invoke_differentiated(f, xt, rest...));
      return tape.gradient(y, xt);
    }
  };
}

/// Like grad, but returns {f(x, ...), gradient}.
template <class F> auto value_and_grad(F f) {
  return [f = std::move(f)](const auto &x,
                            const auto &...rest) -> std::pair<Tensor, Tensor> {
    GradientTape tape;
    using X = std::decay_t<decltype(x)>;
    if constexpr (std::is_same_v<X, Variable>) {
      tape.watch(x);
      Tensor y(detail::invoke_differentiated(f, x, rest...));
      Tensor g = tape.gradient(y, x);
      return {std::move(y), std::move(g)};
    } else {
      Tensor xt = detail::grad_argument(x);
      tape.watch(xt);
      Tensor y(detail::invoke_differentiated(f, xt, rest...));
      Tensor g = tape.gradient(y, xt);
      return {std::move(y), std::move(g)};
    }
  };
}

/// A function with a user-defined gradient (tf.custom_gradient). `f` takes
/// tensors and returns a pair {value, backward}, where `backward(dy)` returns
/// the gradient of each input: a Tensor for a one-input `f`, or a
/// std::vector<Tensor> with one entry per input. Tapes record one node whose
/// gradient is `backward`; the forward's own ops are recorded too, so that a
/// tape differentiating the gradient sees how what `backward` captured
/// depends on the inputs (second derivatives, as in TensorFlow). If `f`
/// reads trainable Variables, `backward` must take them,
/// `backward(dy, const std::vector<Variable> &variables)`, and return
/// `std::pair{input gradients, std::vector<Tensor> variable gradients}`;
/// otherwise the call throws InvalidArgumentError naming the variables. A
/// gradient of the wrong shape or dtype throws InvalidArgumentError when the
/// tape computes gradients.
///
///   auto log1pexp = custom_gradient([](const Tensor &x) {
///     Tensor e = exp(x);
///     return std::pair{log(1 + e),
///                      [e](const Tensor &dy) { return dy * (1 - 1 / (1 + e));
///                      }};
///   });
template <class F> auto custom_gradient(F f) {
  return [f = std::move(f)](const auto &...args) -> Tensor {
    constexpr size_t n = sizeof...(args);
    std::array<Tensor, n> inputs{detail::grad_argument(args)...};
    auto call = [&]<size_t... I>(std::index_sequence<I...>) {
      return std::invoke(f, inputs[I]...);
    };
    using R = decltype(call(std::make_index_sequence<n>{}));
    std::optional<R> result;
    std::vector<Variable> variables;
    std::vector<Tensor> nodeInputs(inputs.begin(), inputs.end());
    {
      detail::VariableWatcher watcher;
      result.emplace(call(std::make_index_sequence<n>{}));
      variables = std::move(watcher.variables);
      nodeInputs.insert(nodeInputs.end(), watcher.values.begin(),
                        watcher.values.end());
    }
    Tensor value(std::get<0>(*result));
    using B = std::decay_t<decltype(std::get<1>(*result))>;
    detail::CustomBackward backward;
    if constexpr (std::is_invocable_v<B &, const Tensor &,
                                      const std::vector<Variable> &>) {
      backward = [bwd = B(std::move(std::get<1>(*result))),
                  variables](const Tensor &dy) mutable -> std::vector<Tensor> {
        auto [dx, dvars] = bwd(dy, variables);
        std::vector<Tensor> grads = detail::as_gradient_list(std::move(dx));
        for (Tensor &g : detail::check_variable_gradients(
                 std::vector<Tensor>(std::move(dvars)), variables.size()))
          grads.push_back(std::move(g));
        return grads;
      };
    } else {
      if (!variables.empty())
        detail::custom_gradient_needs_variables(variables);
      backward = [bwd = B(std::move(std::get<1>(*result)))](
                     const Tensor &dy) mutable -> std::vector<Tensor> {
        return detail::as_gradient_list(bwd(dy));
      };
    }
    return detail::record_custom_gradient(nodeInputs, std::move(value),
                                          std::move(backward));
  };
}

} // namespace tfc

#endif // TFC_FRONTEND_GRADIENTS_H
