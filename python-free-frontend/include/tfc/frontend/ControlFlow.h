//===- ControlFlow.h - cond, while_loop, print, assert_true -----*- C++ -*-===//
//
// Control flow and run-time side effects that work the same eagerly and in a
// traced `tfc::function`. Eagerly, `cond` runs one branch and `while_loop` is
// an ordinary loop; while tracing they hand their bodies to the trace hook
// (through detail::traced_cond / detail::traced_while_loop), which traces
// them into `tfc.if` / `tfc.while`. Plain C++ `if`/`while` on
// `t.item<bool>()` also works eagerly, but is fixed at trace time inside a
// traced function.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_FRONTEND_CONTROLFLOW_H
#define TFC_FRONTEND_CONTROLFLOW_H

#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Tensor.h"

#include <concepts>
#include <cstddef>
#include <functional>
#include <optional>
#include <source_location>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tfc {

namespace detail {

/// How a branch result (Tensor, std::vector<Tensor>, and std::pair /
/// std::tuple of those) is flattened into tensors for the tracer and rebuilt
/// afterwards. `shape` records the size of every vector met, so that both
/// branches can be checked to have the same structure.
template <class T> struct BranchResult {
  static_assert(sizeof(T) == 0,
                "tfc::cond: a branch must return Tensor, std::vector<Tensor>, "
                "or a std::pair / std::tuple of those (or nothing)");
};
template <> struct BranchResult<Tensor> {
  static void flatten(const Tensor &t, std::vector<Tensor> &out,
                      std::vector<size_t> &) {
    out.push_back(t);
  }
  static Tensor rebuild(const Tensor &, const std::vector<Tensor> &flat,
                        size_t &next) {
    return flat[next++];
  }
};
template <> struct BranchResult<std::vector<Tensor>> {
  static void flatten(const std::vector<Tensor> &ts, std::vector<Tensor> &out,
                      std::vector<size_t> &structure) {
    structure.push_back(ts.size());
    out.insert(out.end(), ts.begin(), ts.end());
  }
  static std::vector<Tensor> rebuild(const std::vector<Tensor> &proto,
                                     const std::vector<Tensor> &flat,
                                     size_t &next) {
    std::vector<Tensor> result(flat.begin() + next,
                               flat.begin() + next + proto.size());
    next += proto.size();
    return result;
  }
};
template <class... Ts> struct BranchResult<std::tuple<Ts...>> {
  static void flatten(const std::tuple<Ts...> &t, std::vector<Tensor> &out,
                      std::vector<size_t> &structure) {
    std::apply(
        [&](const auto &...elems) {
          (BranchResult<std::decay_t<decltype(elems)>>::flatten(elems, out,
                                                                structure),
           ...);
        },
        t);
  }
  static std::tuple<Ts...> rebuild(const std::tuple<Ts...> &proto,
                                   const std::vector<Tensor> &flat,
                                   size_t &next) {
    // Braced initialisation evaluates left to right, as `next` requires.
    return std::apply(
        [&](const auto &...elems) {
          return std::tuple<Ts...>{
              BranchResult<std::decay_t<decltype(elems)>>::rebuild(elems, flat,
                                                                   next)...};
        },
        proto);
  }
};
template <class A, class B> struct BranchResult<std::pair<A, B>> {
  static void flatten(const std::pair<A, B> &p, std::vector<Tensor> &out,
                      std::vector<size_t> &structure) {
    BranchResult<A>::flatten(p.first, out, structure);
    BranchResult<B>::flatten(p.second, out, structure);
  }
  static std::pair<A, B> rebuild(const std::pair<A, B> &proto,
                                 const std::vector<Tensor> &flat,
                                 size_t &next) {
    A first = BranchResult<A>::rebuild(proto.first, flat, next);
    B second = BranchResult<B>::rebuild(proto.second, flat, next);
    return {std::move(first), std::move(second)};
  }
};

/// Throws InvalidArgumentError: the two branches of a traced cond returned
/// differently sized vectors.
[[noreturn]] void
throw_cond_structure_mismatch(const std::vector<size_t> &thenStructure,
                              const std::vector<size_t> &elseStructure,
                              const std::source_location &loc);

/// Labels `tfc::print`: converts from anything string-like and records the
/// caller's location (a default argument cannot follow a parameter pack).
struct PrintLabel {
  template <class S>
  requires std::convertible_to<const S &, std::string_view>
  PrintLabel(const S &text,
             std::source_location loc = std::source_location::current())
      : text(text), loc(loc) {}
  std::string_view text;
  std::source_location loc;
};
void print_tensors(std::string_view label, const std::vector<Tensor> &tensors,
                   const std::source_location &loc);
/// The line `tfc::print` writes (without its newline): label, then each
/// tensor's data in NumPy layout, separated by spaces.
std::string format_print_line(std::string_view label,
                              const std::vector<Tensor> &tensors);
/// Sends one line (without its newline) to the print sink, which the runtime
/// shares with compiled code's `tfc.print`.
void emit_print(std::string_view line);

} // namespace detail

/// Runs `then_fn()` if the Bool scalar `pred` is true, else `else_fn()`, and
/// returns what it returns. Both branches must return the same type: nothing,
/// a Tensor, a std::vector<Tensor>, or a std::pair / std::tuple of those.
/// Inside a traced function both branches are traced into one `tfc.if`.
///
///   Tensor y = cond(x > 0, [&] { return x; }, [&] { return -x; });
///
/// Throws InvalidArgumentError (naming dtype and shape) if `pred` is not a
/// Bool scalar.
template <class Then, class Else>
auto cond(const Tensor &pred, Then then_fn, Else else_fn,
          std::source_location loc = std::source_location::current()) {
  static_assert(std::is_invocable_v<Then &> && std::is_invocable_v<Else &>,
                "tfc::cond: then_fn and else_fn take no arguments");
  using R = std::decay_t<std::invoke_result_t<Then &>>;
  static_assert(std::is_same_v<R, std::decay_t<std::invoke_result_t<Else &>>>,
                "tfc::cond: then_fn and else_fn must return the same type");
  if (detail::active_trace_hook()) {
    detail::check_bool_scalar("cond", pred, loc);
    if constexpr (std::is_void_v<R>) {
      detail::traced_cond(
          pred,
          [&] {
            then_fn();
            return std::vector<Tensor>{};
          },
          [&] {
            else_fn();
            return std::vector<Tensor>{};
          },
          loc);
      return;
    } else {
      // The first traced branch's result is the prototype for rebuilding the
      // structure; the second one must match it.
      std::optional<R> proto;
      std::optional<std::vector<size_t>> protoStructure;
      auto traceBranch = [&](auto &fn) {
        R result = fn();
        std::vector<Tensor> flat;
        std::vector<size_t> structure;
        detail::BranchResult<R>::flatten(result, flat, structure);
        if (!proto) {
          proto.emplace(std::move(result));
          protoStructure.emplace(std::move(structure));
        } else if (structure != *protoStructure) {
          detail::throw_cond_structure_mismatch(*protoStructure, structure,
                                                loc);
        }
        return flat;
      };
      std::vector<Tensor> flat = detail::traced_cond(
          pred, [&] { return traceBranch(then_fn); },
          [&] { return traceBranch(else_fn); }, loc);
      size_t next = 0;
      return detail::BranchResult<R>::rebuild(*proto, flat, next);
    }
  } else {
    detail::check_bool_scalar("cond", pred, loc);
    if (pred.item<bool>())
      return static_cast<R>(then_fn());
    return static_cast<R>(else_fn());
  }
}

/// Runs `body_fn` while `cond_fn` gives true (and at most
/// `maximum_iterations` times when that is >= 0); returns the final loop
/// variables. `cond_fn(const std::vector<Tensor> &)` returns a Bool scalar;
/// `body_fn(const std::vector<Tensor> &)` returns the next loop variables,
/// as many as before and with the same dtypes and shapes, else
/// InvalidArgumentError: "loop variable 0 has shape (1) before the loop, but
/// shape (2) after one iteration". Traced into one `tfc.while`.
///
///   auto r = while_loop([](auto &v) { return v[0] < 10; },
///                       [](auto &v) { return std::vector{v[0] + 1}; },
///                       {constant(0)});
template <class Cond, class Body>
std::vector<Tensor>
while_loop(Cond cond_fn, Body body_fn, std::vector<Tensor> loop_vars,
           int64_t maximum_iterations = -1,
           std::source_location loc = std::source_location::current()) {
  static_assert(
      std::is_convertible_v<
          std::invoke_result_t<Cond &, const std::vector<Tensor> &>, Tensor>,
      "tfc::while_loop: cond_fn(const std::vector<Tensor>&) must return a "
      "Tensor (a Bool scalar)");
  static_assert(
      std::is_convertible_v<
          std::invoke_result_t<Body &, const std::vector<Tensor> &>,
          std::vector<Tensor>>,
      "tfc::while_loop: body_fn(const std::vector<Tensor>&) must return a "
      "std::vector<Tensor>");
  if (detail::active_trace_hook()) {
    return detail::traced_while_loop(
        [&](const std::vector<Tensor> &vars) -> Tensor {
          return cond_fn(vars);
        },
        [&](const std::vector<Tensor> &vars) -> std::vector<Tensor> {
          return body_fn(vars);
        },
        std::move(loop_vars), maximum_iterations, loc);
  }
  detail::check_loop_vars(loop_vars, loop_vars, loc); // all defined
  for (int64_t i = 0; maximum_iterations < 0 || i < maximum_iterations; ++i) {
    Tensor keepGoing = cond_fn(std::as_const(loop_vars));
    detail::check_bool_scalar("while_loop", keepGoing, loc);
    if (!keepGoing.item<bool>())
      break;
    std::vector<Tensor> next = body_fn(std::as_const(loop_vars));
    detail::check_loop_vars(loop_vars, next, loc);
    loop_vars = std::move(next);
  }
  return loop_vars;
}

/// Prints `label` and then the data of each tensor (NumPy layout, separated
/// by spaces) and a newline, like tf.print: `print("x =", x)` writes
/// "x = [1 2 3]\n". Eagerly it prints now; inside a traced function it prints
/// every time the compiled function runs. Output goes to the print sink.
template <class... Ts>
requires(std::convertible_to<const Ts &, Tensor> &&...) void print(
    detail::PrintLabel label, const Ts &...tensors) {
  detail::print_tensors(label.text, std::vector<Tensor>{Tensor(tensors)...},
                        label.loc);
}

/// Redirects `tfc::print` (eager and compiled) to `sink`, which receives each
/// printed line without its trailing newline. nullptr restores the default
/// (stdout, one line per print). The sink is process-wide and called under a
/// lock, so it must not itself call `tfc::print`.
void set_print_sink(std::function<void(std::string_view)> sink);

/// Checks at run time (also in compiled code) that every element of the Bool
/// tensor `pred` is true; otherwise throws RuntimeError whose message contains
/// `message`. A non-Bool `pred` is an InvalidArgumentError.
void assert_true(const Tensor &pred, std::string_view message,
                 std::source_location loc = std::source_location::current());

} // namespace tfc

#endif // TFC_FRONTEND_CONTROLFLOW_H
