//===- DispatchTest.cpp - The funnel: trace hook and op observers ---------===//
//
// Tracing and GradientTape plug into detail::dispatch. These tests install a
// recording TraceHook / OpObserver and check that every public entry point
// reaches them with normalised attributes and the caller's location.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include <memory>

using namespace tfc;
using namespace tfc::detail;
using namespace tfc::testing;

namespace {

struct FakeSymbol : SymbolicValue {
  explicit FakeSymbol(std::string what) : what(std::move(what)) {}
  std::string describe() const override { return "traced " + what; }
  std::string what;
};

Tensor symbolic(DType dtype, std::vector<int64_t> shape,
                std::string what = "arg") {
  return Tensor::symbolic(dtype, std::move(shape),
                          std::make_shared<FakeSymbol>(std::move(what)));
}

/// Records what reaches it; returns symbolic tensors with a plausible type.
struct RecordingHook : TraceHook {
  struct OpCall {
    OpKind kind;
    size_t numInputs;
    OpAttrs attrs;
    unsigned line;
    std::vector<Tensor> inputs;
  };
  std::vector<OpCall> ops;
  std::vector<std::pair<uint64_t, AssignKind>> assigns;
  std::vector<Tensor> assignedValues;
  int reads = 0, created = 0, conds = 0, loops = 0;
  std::vector<std::string> prints, asserts;

  Tensor op(OpKind kind, const Tensor *inputs, size_t n, const OpAttrs &attrs,
            const std::source_location &loc) override {
    ops.push_back(
        {kind, n, attrs, loc.line(), std::vector<Tensor>(inputs, inputs + n)});
    DType dtype = kind == OpKind::Cmp ? DType::Bool : inputs[0].dtype();
    std::vector<int64_t> shape =
        kind == OpKind::BroadcastTo ? attrs.shape : inputs[0].shape();
    return symbolic(dtype, shape, "tfc." + std::string(op_name(kind)));
  }
  Tensor constant(const Tensor &value) override { return value; }
  Tensor var_read(const std::shared_ptr<VariableState> &var) override {
    ++reads;
    return symbolic(var->value.dtype(), var->value.shape(), "read");
  }
  void var_assign(const std::shared_ptr<VariableState> &var, AssignKind how,
                  const Tensor &value) override {
    assigns.emplace_back(var->id, how);
    assignedValues.push_back(value);
  }
  void variable_created(const std::shared_ptr<VariableState> &) override {
    ++created;
  }
  void print(std::string_view label, const std::vector<Tensor> &ts) override {
    prints.push_back(std::string(label) + "/" + std::to_string(ts.size()));
  }
  void assert_true(const Tensor &, std::string_view message,
                   const std::source_location &) override {
    asserts.emplace_back(message);
  }
  std::vector<Tensor> cond(const Tensor &,
                           const std::function<std::vector<Tensor>()> &thenFn,
                           const std::function<std::vector<Tensor>()> &elseFn,
                           const std::source_location &) override {
    ++conds;
    std::vector<Tensor> thenResults = thenFn();
    elseFn();
    return thenResults;
  }
  std::vector<Tensor> while_loop(
      const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
      const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
          &bodyFn,
      const std::vector<Tensor> &vars, int64_t,
      const std::source_location &) override {
    ++loops;
    condFn(vars);
    return bodyFn(vars);
  }
};

/// Installs a hook for one scope.
struct HookScope {
  explicit HookScope(TraceHook *hook) : previous(set_active_trace_hook(hook)) {}
  ~HookScope() { set_active_trace_hook(previous); }
  TraceHook *previous;
};

TEST(TraceHook, OpsReachTheHookWithNormalisedAttributes) {
  RecordingHook hook;
  HookScope scope(&hook);
  Tensor x = symbolic(DType::Float32, {2, 3});
  ASSERT_EQ(active_trace_hook(), &hook);

  reduce_sum(x, {-1, 0}, true);
  ASSERT_EQ(hook.ops.size(), 1u);
  EXPECT_EQ(hook.ops[0].kind, OpKind::ReduceSum);
  EXPECT_EQ(hook.ops[0].attrs.axes, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(hook.ops[0].attrs.keepdims);

  const unsigned line = __LINE__ + 1;
  reduce_mean(x);
  EXPECT_EQ(hook.ops.back().attrs.axes, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(hook.ops.back().line, line);

  transpose(x);
  EXPECT_EQ(hook.ops.back().kind, OpKind::Transpose);
  EXPECT_EQ(hook.ops.back().attrs.axes, (std::vector<int64_t>{1, 0}));
  transpose(x, {-1, 0});
  EXPECT_EQ(hook.ops.back().attrs.axes, (std::vector<int64_t>{1, 0}));

  squeeze(symbolic(DType::Int32, {1, 3, 1}));
  EXPECT_EQ(hook.ops.back().attrs.axes, (std::vector<int64_t>{0, 2}));
  expand_dims(x, -1);
  EXPECT_EQ(hook.ops.back().attrs.axis, 2);
  slice(x, {0, 1}, {-1, -1});
  EXPECT_EQ(hook.ops.back().attrs.begin, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(hook.ops.back().attrs.shape, (std::vector<int64_t>{2, 2}));
  concat({x, x}, -1);
  EXPECT_EQ(hook.ops.back().kind, OpKind::Concat);
  EXPECT_EQ(hook.ops.back().numInputs, 2u);
  EXPECT_EQ(hook.ops.back().attrs.axis, 1);
  argmax(x, -1);
  EXPECT_EQ(hook.ops.back().attrs.axis, 1);
  softmax(x);
  EXPECT_EQ(hook.ops.back().attrs.axis, 1);
  one_hot(symbolic(DType::Int32, {4}), 5, DType::Float64);
  EXPECT_EQ(hook.ops.back().attrs.depth, 5);
  EXPECT_EQ(hook.ops.back().attrs.dtype, DType::Float64);
  cast(x, DType::Int64);
  EXPECT_EQ(hook.ops.back().attrs.dtype, DType::Int64);

  Tensor y = x >= 1;
  EXPECT_EQ(hook.ops.back().kind, OpKind::Cmp);
  EXPECT_EQ(hook.ops.back().attrs.predicate, kernels::CmpPredicate::GE);
  EXPECT_EQ(hook.ops.back().line, 0u); // operators carry no location
  // The scalar became a concrete float32 scalar input, for the hook to lift.
  const Tensor &scalar = hook.ops.back().inputs[1];
  EXPECT_FALSE(scalar.is_symbolic());
  EXPECT_TRUE(tensorIs(scalar, DType::Float32, {}, {1}));
  EXPECT_TRUE(y.is_symbolic());
  EXPECT_EQ(y.dtype(), DType::Bool);

  where(y, x, 0.f);
  EXPECT_EQ(hook.ops.back().kind, OpKind::Select);
  EXPECT_EQ(hook.ops.back().numInputs, 3u);
}

TEST(TraceHook, AxisErrorsAreRaisedBeforeTheHook) {
  RecordingHook hook;
  HookScope scope(&hook);
  Tensor x = symbolic(DType::Float32, {2, 3});
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { reduce_sum(x, {2}); }, {"reduce_sum", "axis 2", "(2, 3)"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { add(x, Tensor()); }, {"add", "input 1", "undefined"}));
  EXPECT_TRUE(hook.ops.empty());
}

TEST(TraceHook, VariablesPrintAssertGoThroughTheHook) {
  Variable v(zeros({3}), "v");
  RecordingHook hook;
  {
    HookScope scope(&hook);
    Tensor r = v.value();
    EXPECT_TRUE(r.is_symbolic());
    Tensor r2 = v * 2; // implicit read
    EXPECT_EQ(hook.reads, 2);
    v.assign(symbolic(DType::Float32, {3}));
    v.assign_add(1); // broadcast in the trace, then an Add assignment
    v.assign_sub(ones({3}));
    ASSERT_EQ(hook.assigns.size(), 3u);
    EXPECT_EQ(hook.assigns[0], std::pair(v.id(), AssignKind::Assign));
    EXPECT_EQ(hook.assigns[1], std::pair(v.id(), AssignKind::Add));
    EXPECT_EQ(hook.assigns[2], std::pair(v.id(), AssignKind::Sub));
    EXPECT_EQ(hook.assignedValues[1].shape(), (std::vector<int64_t>{3}));
    EXPECT_EQ(hook.ops.back().kind, OpKind::BroadcastTo);
    // Shape checks still happen while tracing.
    EXPECT_TRUE(throwsWith<InvalidArgumentError>(
        [&] { v.assign(symbolic(DType::Float32, {4})); },
        {"assign", "'v'", "(3,)", "(4,)"}));
    EXPECT_EQ(hook.assigns.size(), 3u);

    Variable created(ones({2}), "new");
    EXPECT_EQ(hook.created, 1);

    PrintCapture capture;
    print("label", r, r2);
    EXPECT_EQ(hook.prints, (std::vector<std::string>{"label/2"}));
    EXPECT_TRUE(capture.lines.empty()); // printed by the compiled code later
    assert_true(symbolic(DType::Bool, {}), "checked at run time");
    EXPECT_EQ(hook.asserts, (std::vector<std::string>{"checked at run time"}));
  }
  // Back to eager: the variable was never written.
  EXPECT_TRUE(tensorIs(v.value(), DType::Float32, {3}, {0, 0, 0}));
}

TEST(TraceHook, ControlFlowGoesThroughTheHook) {
  RecordingHook hook;
  HookScope scope(&hook);
  Tensor p = symbolic(DType::Bool, {});
  int thenRuns = 0, elseRuns = 0;
  auto [a, b] = cond(
      p,
      [&] {
        ++thenRuns;
        return std::pair{constant(1),
                         std::vector<Tensor>{constant(2), constant(3)}};
      },
      [&] {
        ++elseRuns;
        return std::pair{constant(4),
                         std::vector<Tensor>{constant(5), constant(6)}};
      });
  EXPECT_EQ(hook.conds, 1);
  EXPECT_EQ(thenRuns, 1);
  EXPECT_EQ(elseRuns, 1);
  EXPECT_EQ(a.item<int32_t>(), 1);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].item<int32_t>(), 3);

  cond(
      p, [] {}, [] {});
  EXPECT_EQ(hook.conds, 2);

  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] {
        cond(
            p, [] { return std::vector<Tensor>{constant(1)}; },
            [] {
              return std::vector<Tensor>{constant(1), constant(2)};
            });
      },
      {"cond", "[1] and [2]"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] {
        cond(
            symbolic(DType::Int32, {}), [] {}, [] {});
      },
      {"cond", "bool scalar", "int32"}));

  std::vector<Tensor> r =
      while_loop([](const std::vector<Tensor> &v) { return v[0] < 3; },
                 [](const std::vector<Tensor> &v) {
                   return std::vector<Tensor>{v[0] + 1};
                 },
                 {symbolic(DType::Int32, {})});
  EXPECT_EQ(hook.loops, 1);
  ASSERT_EQ(r.size(), 1u);
  EXPECT_TRUE(r[0].is_symbolic());
}

TEST(TraceHook, SymbolicTensorsCannotRunEagerly) {
  Tensor x = symbolic(DType::Float32, {2});
  EXPECT_EQ(active_trace_hook(), nullptr);
  EXPECT_TRUE(throwsWith<InvalidArgumentError>([&] { exp(x); },
                                               {"exp", "input 0", "symbolic"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] {
        cond(
            symbolic(DType::Bool, {}), [] {}, [] {});
      },
      {"cond", "symbolic"}));
  EXPECT_TRUE(throwsWith<InvalidArgumentError>(
      [&] { Variable v(x, "s"); }, {"Variable", "'s'", "symbolic"}));
}

/// Records eager ops and variable reads.
struct RecordingObserver : OpObserver {
  std::vector<OpKind> kinds;
  std::vector<Tensor> outputs;
  std::vector<size_t> numInputs;
  std::vector<uint64_t> varReads;
  void recorded(OpKind kind, const Tensor *, size_t n, const OpAttrs &,
                const Tensor &output) override {
    kinds.push_back(kind);
    numInputs.push_back(n);
    outputs.push_back(output);
  }
  void variable_read(const VariableState &var, const Tensor &) override {
    varReads.push_back(var.id);
  }
};

TEST(OpObserver, SeesEagerOpsAfterTheyRan) {
  RecordingObserver outer, inner;
  EXPECT_FALSE(has_op_observers());
  push_op_observer(&outer);
  EXPECT_TRUE(has_op_observers());
  Tensor a = constant({1.f, 2.f});
  Tensor s = a + a;
  push_op_observer(&inner);
  Tensor m = reduce_sum(s * 2);
  pop_op_observer(&inner);
  Tensor after = exp(a);
  pop_op_observer(&outer);
  EXPECT_FALSE(has_op_observers());
  Tensor unseen = a - a;

  EXPECT_EQ(outer.kinds, (std::vector<OpKind>{OpKind::Add, OpKind::Mul,
                                              OpKind::ReduceSum, OpKind::Exp}));
  EXPECT_EQ(outer.numInputs, (std::vector<size_t>{2, 2, 1, 1}));
  EXPECT_EQ(inner.kinds, (std::vector<OpKind>{OpKind::Mul, OpKind::ReduceSum}));
  EXPECT_EQ(outer.outputs[0].id(), s.id());
  EXPECT_TRUE(tensorIs(outer.outputs[2], DType::Float32, {}, {12}));
}

TEST(OpObserver, SeesTrainableVariableReads) {
  Variable w(ones({2}), "w");
  Variable frozen(ones({2}), "frozen", /*trainable=*/false);
  RecordingObserver obs;
  push_op_observer(&obs);
  Tensor y = w * frozen;
  pop_op_observer(&obs);
  EXPECT_EQ(obs.varReads, (std::vector<uint64_t>{w.id()}));
  EXPECT_EQ(obs.kinds, (std::vector<OpKind>{OpKind::Mul}));
  // A failing op is not recorded.
  push_op_observer(&obs);
  EXPECT_THROW(add(ones({2}), ones({3})), InvalidArgumentError);
  pop_op_observer(&obs);
  EXPECT_EQ(obs.kinds.size(), 1u);
}

} // namespace
