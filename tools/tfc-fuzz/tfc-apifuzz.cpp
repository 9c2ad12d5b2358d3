//===- tfc-apifuzz.cpp - Random API calls, eager vs compiled --------------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
//   tfc-apifuzz [--count=N] [--seed=S] [--verbose]
//
// The API cases of the reliability fuzz set (docs/testing.md): each case is
// one public op called with random tensors (every dtype, rank 0-3, dims 0-4,
// zeros among integer values) and random attributes, many of them invalid
// (axes out of range, wrong shapes, bad perms, negative sizes, conv and
// pooling windows that do not fit or strides below 1). The call runs
// eagerly, then inside tfc::function (static shapes) and inside a
// reduce_retracing function that was first traced with other dims (dynamic
// shapes). Each must either return or throw a tfc::Error, and all three must
// agree on which: a one-sided result (one computes, another throws) or
// different values is a finding. Anything else (another exception, a crash)
// ends the process, which the caller sees. Prints
//   N cases, N agreed (N computed, N errored everywhere), N findings
// and exits 1 when there is a finding.
//
//===----------------------------------------------------------------------===//

#include "tfc/tfc.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace tfc;

namespace {

using Op = std::function<Tensor(const std::vector<Tensor> &)>;

struct Case {
  std::string what;         ///< The call, for the report.
  std::vector<Tensor> args; ///< Tensor arguments.
  Op op;
};

class Gen {
public:
  explicit Gen(uint64_t seed) : rng(seed) {}
  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng); }

  DType dtype() {
    static const DType all[] = {DType::Bool, DType::Int32, DType::Int64,
                                DType::Float32, DType::Float64};
    return all[pick(0, 4)];
  }
  DType floating() { return coin() ? DType::Float32 : DType::Float64; }
  std::vector<int64_t> shape(int64_t maxRank = 3) {
    std::vector<int64_t> s(pick(0, maxRank));
    for (auto &d : s)
      d = coin(0.1) ? 0 : pick(1, 4);
    return s;
  }
  Tensor tensor(DType t, const std::vector<int64_t> &s) {
    int64_t n = 1;
    for (int64_t d : s)
      n *= d;
    switch (t) {
    case DType::Bool: {
      std::vector<bool> v(n);
      for (int64_t i = 0; i < n; ++i)
        v[i] = coin();
      return from_vector<bool>(v, s);
    }
    case DType::Int32: {
      std::vector<int32_t> v(n);
      for (auto &x : v)
        x = int32_t(pick(-3, 3));
      return from_vector<int32_t>(v, s);
    }
    case DType::Int64: {
      std::vector<int64_t> v(n);
      for (auto &x : v)
        x = pick(-3, 3);
      return from_vector<int64_t>(v, s);
    }
    case DType::Float32: {
      std::vector<float> v(n);
      for (auto &x : v)
        x = float(pick(-20, 20)) / 8;
      return from_vector<float>(v, s);
    }
    case DType::Float64: {
      std::vector<double> v(n);
      for (auto &x : v)
        x = double(pick(-20, 20)) / 8;
      return from_vector<double>(v, s);
    }
    }
    return {};
  }
  Tensor tensor() {
    DType t = dtype();
    return tensor(t, shape());
  }
  /// A shape like `s` with one dim changed now and then (mismatches).
  std::vector<int64_t> near(std::vector<int64_t> s) {
    if (!s.empty() && coin(0.3))
      s[pick(0, int64_t(s.size()) - 1)] = pick(0, 4);
    if (coin(0.1))
      s.push_back(pick(1, 3));
    return s;
  }
  int64_t axis(int64_t rank) { return pick(-rank - 1, rank); }
  /// Strides or dilations of a conv: 1-2, now and then below 1.
  std::array<int64_t, 2> window() {
    std::array<int64_t, 2> w{pick(1, 2), pick(1, 2)};
    if (coin(0.05))
      w[pick(0, 1)] = pick(-1, 0);
    return w;
  }
  std::vector<int64_t> axes(int64_t rank) {
    std::vector<int64_t> a(pick(0, std::max<int64_t>(rank, 1)));
    for (auto &x : a)
      x = axis(rank);
    return a;
  }

  Case next();

private:
  std::mt19937_64 rng;
};

std::string vec(const std::vector<int64_t> &v) {
  std::string s = "{";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

std::string vec(const std::array<int64_t, 2> &v) {
  return vec(std::vector<int64_t>(v.begin(), v.end()));
}

Case Gen::next() {
  using V = const std::vector<Tensor> &;
  switch (pick(0, 25)) {
  case 0: { // unary math
    static const std::pair<const char *,
                           Tensor (*)(const Tensor &, std::source_location)>
        ops[] = {
            {"abs", abs},    {"exp", exp},     {"log", log},
            {"sqrt", sqrt},  {"tanh", tanh},   {"sigmoid", sigmoid},
            {"relu", relu},  {"neg", neg},     {"square", square},
            {"sin", sin},    {"log1p", log1p}, {"logical_not", logical_not},
            {"floor", floor}};
    auto [name, fn] = ops[pick(0, 12)];
    return {name, {tensor()}, [fn](V a) { return fn(a[0], {}); }};
  }
  case 1:
  case 2: { // binary, broadcasting, same or mixed dtypes
    static const std::pair<const char *,
                           Tensor (*)(const Tensor &, const Tensor &,
                                      std::source_location)>
        ops[] = {{"add", add},         {"sub", sub},
                 {"mul", mul},         {"div", div},
                 {"pow", pow},         {"maximum", maximum},
                 {"minimum", minimum}, {"floor_div", floor_div},
                 {"mod", mod},         {"less", less},
                 {"equal", equal},     {"logical_and", logical_and}};
    auto [name, fn] = ops[pick(0, 11)];
    DType t = dtype();
    auto s = shape();
    Tensor b = coin(0.9) ? tensor(t, near(s)) : tensor();
    return {name, {tensor(t, s), b}, [fn](V a) { return fn(a[0], a[1], {}); }};
  }
  case 3: {
    DType t = dtype();
    auto s = shape();
    return {"where",
            {tensor(DType::Bool, near(s)), tensor(t, s), tensor(t, near(s))},
            [](V a) { return where(a[0], a[1], a[2]); }};
  }
  case 4: {
    DType to = dtype();
    return {"cast to " + std::string(to_string(to)), {tensor()}, [to](V a) {
              return cast(a[0], to);
            }};
  }
  case 5: {
    Tensor x = tensor();
    std::vector<int64_t> s = shape();
    if (coin(0.3) && !s.empty())
      s[pick(0, int64_t(s.size()) - 1)] = -1;
    return {"reshape " + vec(s), {x}, [s](V a) { return reshape(a[0], s); }};
  }
  case 6: {
    Tensor x = tensor();
    std::vector<int64_t> p(x.rank());
    for (size_t i = 0; i < p.size(); ++i)
      p[i] = int64_t(i);
    std::shuffle(p.begin(), p.end(), rng);
    if (coin(0.2) && !p.empty())
      p[0] = axis(x.rank());
    if (coin(0.1))
      p.push_back(0);
    return {
        "transpose " + vec(p), {x}, [p](V a) { return transpose(a[0], p); }};
  }
  case 7: {
    Tensor x = tensor();
    int64_t ax = axis(x.rank() + 1);
    std::vector<int64_t> sq = axes(x.rank());
    if (coin())
      return {"expand_dims " + std::to_string(ax), {x}, [ax](V a) {
                return expand_dims(a[0], ax);
              }};
    return {"squeeze " + vec(sq), {x}, [sq](V a) { return squeeze(a[0], sq); }};
  }
  case 8: {
    Tensor x = tensor();
    std::vector<int64_t> s = near(x.shape());
    if (coin())
      s.insert(s.begin(), pick(0, 3));
    return {"broadcast_to " + vec(s), {x}, [s](V a) {
              return broadcast_to(a[0], s);
            }};
  }
  case 9: {
    DType t = dtype();
    auto s = shape();
    int64_t ax = axis(int64_t(s.size()));
    return {"concat axis " + std::to_string(ax),
            {tensor(t, s), tensor(t, near(s))},
            [ax](V a) {
              return concat({a[0], a[1]}, ax);
            }};
  }
  case 10: {
    Tensor x = tensor();
    std::vector<int64_t> b(x.rank()), z(x.rank());
    for (int64_t i = 0; i < x.rank(); ++i) {
      b[i] = pick(-1, x.shape()[i] + 1);
      z[i] = pick(-2, x.shape()[i] + 1);
    }
    if (coin(0.1))
      b.push_back(0);
    return {"slice " + vec(b) + " " + vec(z), {x}, [b, z](V a) {
              return slice(a[0], b, z);
            }};
  }
  case 11: {
    DType t = coin(0.8) ? floating() : dtype();
    int64_t m = pick(0, 4), k = pick(0, 4), n = pick(0, 4);
    std::vector<int64_t> sa{m, k}, sb{coin(0.8) ? k : pick(0, 4), n};
    if (coin(0.3)) {
      int64_t batch = pick(1, 3);
      sa.insert(sa.begin(), batch);
      sb.insert(sb.begin(), coin(0.8) ? batch : pick(1, 3));
    }
    return {"matmul", {tensor(t, sa), tensor(t, sb)}, [](V a) {
              return matmul(a[0], a[1]);
            }};
  }
  case 12: {
    static const std::pair<const char *,
                           Tensor (*)(const Tensor &, std::vector<int64_t>,
                                      bool, std::source_location)>
        ops[] = {{"reduce_sum", reduce_sum},
                 {"reduce_mean", reduce_mean},
                 {"reduce_max", reduce_max},
                 {"reduce_min", reduce_min},
                 {"reduce_prod", reduce_prod}};
    auto [name, fn] = ops[pick(0, 4)];
    Tensor x = tensor();
    std::vector<int64_t> ax = axes(x.rank());
    bool keep = coin();
    return {std::string(name) + " " + vec(ax) + (keep ? " keepdims" : ""),
            {x},
            [fn, ax, keep](V a) { return fn(a[0], ax, keep, {}); }};
  }
  case 13: {
    Tensor x = tensor();
    int64_t ax = axis(x.rank());
    switch (pick(0, 2)) {
    case 0:
      return {"argmax " + std::to_string(ax), {x}, [ax](V a) {
                return argmax(a[0], ax);
              }};
    case 1:
      return {"softmax " + std::to_string(ax), {x}, [ax](V a) {
                return softmax(a[0], ax);
              }};
    default:
      return {"log_softmax " + std::to_string(ax), {x}, [ax](V a) {
                return log_softmax(a[0], ax);
              }};
    }
  }
  case 14: {
    DType t = coin(0.8) ? floating() : dtype();
    auto s = shape();
    return {"softmax_cross_entropy_with_logits",
            {tensor(t, near(s)), tensor(t, s)},
            [](V a) { return softmax_cross_entropy_with_logits(a[0], a[1]); }};
  }
  case 15:
  case 16: { // conv2d and its gradients
    // Small NHWC inputs and HWIO filters (a batch of 0 now and then),
    // sometimes of another shape, rank or dtype.
    DType t = coin(0.9) ? floating() : dtype();
    std::vector<int64_t> x{coin(0.1) ? 0 : pick(1, 2), pick(1, 6), pick(1, 6),
                           pick(1, 3)};
    std::vector<int64_t> f{pick(1, 3), pick(1, 3), x[3], pick(1, 3)};
    if (coin(0.1))
      x = coin() ? near(x) : shape();
    if (coin(0.1))
      f = near(f);
    std::array<int64_t, 2> st = window(), dl = window();
    Padding pad = coin() ? Padding::Same : Padding::Valid;
    // VALID windows mostly fit; the rest must fail everywhere.
    if (pad == Padding::Valid && x.size() == 4 && f.size() == 4 && coin(0.8))
      for (int d = 0; d < 2; ++d)
        if (dl[d] >= 1 && f[d] >= 1 && (f[d] - 1) * dl[d] + 1 > x[1 + d]) {
          dl[d] = 1;
          f[d] = std::min(f[d], x[1 + d]);
        }
    std::string attrs = " strides " + vec(st) + " dilations " + vec(dl) +
                        (pad == Padding::Same ? " SAME" : " VALID");
    if (coin(0.5))
      return {"conv2d" + attrs,
              {tensor(t, x), tensor(t, f)},
              [st, pad, dl](V a) { return conv2d(a[0], a[1], st, pad, dl); }};
    // dy of the convolution's result shape (TensorFlow's geometry), or of
    // a nearby shape when the window is invalid or by chance.
    std::vector<int64_t> dy = x;
    if (x.size() == 4 && f.size() == 4) {
      dy = {x[0], 1, 1, f[3]};
      for (int d = 0; d < 2; ++d)
        if (auto w = kernels::window_dim(x[1 + d], f[d], st[d], dl[d],
                                         pad == Padding::Same))
          dy[1 + d] = w->out;
    }
    if (coin(0.1))
      dy = near(dy);
    if (coin())
      return {"conv2d_backprop_input " + vec(x) + attrs,
              {tensor(t, f), tensor(t, dy)},
              [x, st, pad, dl](V a) {
                return conv2d_backprop_input(x, a[0], a[1], st, pad, dl);
              }};
    return {"conv2d_backprop_filter " + vec(f) + attrs,
            {tensor(t, x), tensor(t, dy)},
            [f, st, pad, dl](V a) {
              return conv2d_backprop_filter(a[0], f, a[1], st, pad, dl);
            }};
  }
  case 17:
  case 18: { // max_pool2d, avg_pool2d and their gradients
    // Small NHWC inputs (a batch of 0 now and then), sometimes of another
    // shape, rank or dtype; windows of 1-3, now and then below 1 or (VALID)
    // longer than the input; strides 1-3, now and then below 1.
    DType t = coin(0.9) ? floating() : dtype();
    std::vector<int64_t> x{coin(0.1) ? 0 : pick(1, 2), pick(1, 6), pick(1, 6),
                           pick(1, 3)};
    if (coin(0.1))
      x = coin() ? near(x) : shape();
    std::array<int64_t, 2> k{pick(1, 3), pick(1, 3)}, st = window();
    if (coin(0.05))
      k[pick(0, 1)] = pick(-1, 0);
    if (coin(0.2))
      st[pick(0, 1)] = 3;
    Padding pad = coin() ? Padding::Same : Padding::Valid;
    // VALID windows mostly fit; the rest must fail everywhere.
    if (pad == Padding::Valid && x.size() == 4 && coin(0.8))
      for (int d = 0; d < 2; ++d)
        if (x[1 + d] >= 1)
          k[d] = std::min(k[d], x[1 + d]);
    std::string attrs = " ksize " + vec(k) + " strides " + vec(st) +
                        (pad == Padding::Same ? " SAME" : " VALID");
    // dy of the pooling's result shape, or of a nearby shape when the
    // window is invalid or by chance.
    std::vector<int64_t> dy = x;
    if (x.size() == 4)
      for (int d = 0; d < 2; ++d)
        if (auto w = kernels::window_dim(x[1 + d], k[d], st[d], 1,
                                         pad == Padding::Same))
          dy[1 + d] = w->out;
    if (coin(0.1))
      dy = near(dy);
    switch (pick(0, 5)) {
    case 0:
    case 1:
      return {"max_pool2d" + attrs, {tensor(t, x)}, [k, st, pad](V a) {
                return max_pool2d(a[0], k, st, pad);
              }};
    case 2:
      return {"avg_pool2d" + attrs, {tensor(t, x)}, [k, st, pad](V a) {
                return avg_pool2d(a[0], k, st, pad);
              }};
    case 3:
      return {"max_pool2d_grad" + attrs,
              {tensor(t, x), tensor(coin(0.95) ? t : dtype(), dy)},
              [k, st, pad](V a) {
                return max_pool2d_grad(a[0], a[1], k, st, pad);
              }};
    case 4: {
      // grad shaped like the input, or of a nearby shape.
      std::vector<int64_t> g = coin(0.9) ? x : near(x);
      return {"max_pool2d_grad_grad" + attrs,
              {tensor(t, x), tensor(coin(0.95) ? t : dtype(), g)},
              [k, st, pad](V a) {
                return max_pool2d_grad_grad(a[0], a[1], k, st, pad);
              }};
    }
    default:
      return {"avg_pool2d_grad " + vec(x) + attrs,
              {tensor(t, dy)},
              [x, k, st, pad](V a) {
                return avg_pool2d_grad(x, a[0], k, st, pad);
              }};
    }
  }
  case 20: { // gather: indices in [-3, 3], so some out of range
    Tensor p = tensor();
    DType it = coin(0.9) ? (coin() ? DType::Int32 : DType::Int64) : dtype();
    int64_t ax = axis(p.rank());
    return {"gather axis " + std::to_string(ax),
            {p, tensor(it, shape(2))},
            [ax](V a) { return gather(a[0], a[1], ax); }};
  }
  case 21: { // unsorted_segment_sum: ids of a prefix of data's shape
    DType t = coin(0.8) ? floating() : dtype();
    std::vector<int64_t> s = shape();
    std::vector<int64_t> ids(s.begin(), s.begin() + pick(0, int64_t(s.size())));
    if (coin(0.1))
      ids = near(ids);
    int64_t n = pick(-1, 4);
    return {"unsorted_segment_sum num_segments " + std::to_string(n),
            {tensor(t, s), tensor(coin(0.9) ? DType::Int32 : dtype(), ids)},
            [n](V a) { return unsorted_segment_sum(a[0], a[1], n); }};
  }
  case 22: {
    Tensor x = tensor();
    int64_t ax = axis(x.rank());
    bool exclusive = coin(), rev = coin();
    return {
        "cumsum axis " + std::to_string(ax) + (exclusive ? " exclusive" : "") +
            (rev ? " reverse" : ""),
        {x},
        [ax, exclusive, rev](V a) { return cumsum(a[0], ax, exclusive, rev); }};
  }
  case 23: {
    Tensor x = tensor();
    int64_t k = pick(-1, 4);
    bool values = coin();
    return {std::string("top_k ") + (values ? "values" : "indices") + " k " +
                std::to_string(k),
            {x},
            [k, values](V a) {
              auto r = top_k(a[0], k);
              return values ? r.first : r.second;
            }};
  }
  case 24: { // labels in [-3, 3]: some outside the classes
    DType t = coin(0.9) ? floating() : dtype();
    std::vector<int64_t> s = shape();
    if (s.empty())
      s.push_back(pick(1, 4));
    std::vector<int64_t> l(s.begin(), s.end() - 1);
    if (coin(0.1))
      l = near(l);
    return {"sparse_softmax_cross_entropy_with_logits",
            {tensor(coin(0.9) ? DType::Int32 : dtype(), l), tensor(t, s)},
            [](V a) {
              return sparse_softmax_cross_entropy_with_logits(a[0], a[1]);
            }};
  }
  case 25: {
    Tensor x = tensor();
    switch (pick(0, 2)) {
    case 0:
      return {"erf", {x}, [](V a) { return erf(a[0]); }};
    case 1: {
      bool approx = coin();
      return {std::string("gelu") + (approx ? " approximate" : ""),
              {x},
              [approx](V a) { return gelu(a[0], approx); }};
    }
    default: {
      std::vector<int64_t> ax = axes(x.rank());
      return {
          "reverse " + vec(ax), {x}, [ax](V a) { return reverse(a[0], ax); }};
    }
    }
  }
  default: {
    DType it = coin(0.8) ? DType::Int32 : dtype();
    int64_t depth = pick(-1, 5);
    return {"one_hot depth " + std::to_string(depth),
            {tensor(it, shape(2))},
            [depth](V a) { return one_hot(a[0], depth); }};
  }
  }
}

/// What a run gave: a value, or the error's message.
struct Outcome {
  bool ok = false;
  Tensor value;
  std::string error;
};

template <class F> Outcome attempt(F f) {
  Outcome o;
  try {
    o.value = f();
    o.ok = true;
  } catch (const Error &e) {
    o.error = e.what();
  }
  return o;
}

bool same(const Tensor &a, const Tensor &b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    return false;
  Tensor x = cast(a, DType::Float64), y = cast(b, DType::Float64);
  std::vector<double> u = x.to_vector<double>(), v = y.to_vector<double>();
  for (size_t i = 0; i < u.size(); ++i) {
    if (std::isnan(u[i]) && std::isnan(v[i]))
      continue;
    if (u[i] == v[i])
      continue;
    double tol = a.dtype() == DType::Float32 ? 1e-5 : 1e-12;
    if (std::fabs(u[i] - v[i]) > tol * (1 + std::fabs(u[i])))
      return false;
  }
  return true;
}

/// A tensor with the same dtype and rank but other dims (for the first
/// trace of a reduce_retracing function), or a copy when it is rank 0.
Tensor otherDims(Gen &g, const Tensor &t) {
  std::vector<int64_t> s = t.shape();
  for (auto &d : s)
    d = d == 2 ? 3 : 2;
  return g.tensor(t.dtype(), s);
}

} // namespace

int main(int argc, char **argv) {
  int64_t count = 200;
  uint64_t seed = 1;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--count=", 0) == 0)
      count = std::stoll(a.substr(8));
    else if (a.rfind("--seed=", 0) == 0)
      seed = std::stoull(a.substr(7));
    else if (a == "--verbose")
      verbose = true;
    else {
      std::cerr << "usage: tfc-apifuzz [--count=N] [--seed=S] [--verbose]\n";
      return 2;
    }
  }
  // Warnings about retracing are expected here: every case is a new function.
  setenv("TFC_LOG", "none", 0);
  int64_t computed = 0, errored = 0, findings = 0;
  for (int64_t i = 0; i < count; ++i) {
    Gen g(seed * 1000003 + uint64_t(i));
    Case c = g.next();
    std::vector<Tensor> args = c.args;
    if (verbose) { // before running: a crash is then attributable
      std::cout << i << ": " << c.what << " on";
      for (const Tensor &t : c.args)
        std::cout << " " << to_string(t.dtype()) << shape_to_string(t.shape());
      std::cout << std::endl;
    }
    auto call = [&](auto &fn) -> Tensor {
      switch (args.size()) {
      case 1:
        return fn(args[0]);
      case 2:
        return fn(args[0], args[1]);
      default:
        return fn(args[0], args[1], args[2]);
      }
    };
    Outcome eager = attempt([&] { return c.op(args); });
    // Generic, so one body serves 1, 2 or 3 tensor arguments.
    auto body = [&](const auto &...a) { return c.op({Tensor(a)...}); };
    auto fs = function(body, {.name = "case"});
    Outcome compiled = attempt([&] { return call(fs); });
    auto fd = function(body, {.reduce_retracing = true, .name = "case_dyn"});
    // First traced with other dims, so the call below runs the
    // dynamic-shape trace (where the dims are known only at run time).
    std::vector<Tensor> saved = args;
    for (auto &t : args)
      t = otherDims(g, t);
    attempt([&] { return call(fd); });
    args = saved;
    Outcome dynamic = attempt([&] { return call(fd); });

    std::string problem;
    for (auto [name, o] :
         {std::pair<const char *, Outcome *>{"compiled", &compiled},
          {"reduce_retracing", &dynamic}}) {
      if (o->ok != eager.ok)
        problem += std::string(" one-sided: eager ") +
                   (eager.ok ? "computed" : "threw '" + eager.error + "'") +
                   ", " + name + " " +
                   (o->ok ? "computed " + o->value.str()
                          : "threw '" + o->error + "'") +
                   ";";
      else if (o->ok && !same(eager.value, o->value))
        problem += std::string(" values differ: eager ") + eager.value.str() +
                   ", " + name + " " + o->value.str() + ";";
    }
    if (!problem.empty()) {
      ++findings;
      std::cout << "FINDING case " << i << " (seed " << seed << "): " << c.what
                << " on";
      for (const Tensor &t : c.args)
        std::cout << " " << t.str();
      std::cout << "\n " << problem << "\n";
    } else if (eager.ok) {
      ++computed;
    } else {
      ++errored;
    }
    if (verbose)
      std::cout << i << ": " << c.what << ": "
                << (eager.ok ? "computed" : "error: " + eager.error) << "\n";
  }
  std::cout << count << " cases, " << computed + errored << " agreed ("
            << computed << " computed, " << errored << " errored everywhere), "
            << findings << " findings\n";
  return findings ? 1 : 0;
}
