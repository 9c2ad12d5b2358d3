//===- GradientTape.cpp - Tapes: recording and the backward pass ----------===//
//
// How recording works:
//  - Eagerly, every op ends in detail::dispatch, which tells the OpObservers
//    what ran. One observer per thread (registered while an eager tape is
//    alive) hands each op to the tapes.
//  - While a tfc::function is traced, ops go to the trace hook instead. The
//    first tape created inside a trace installs a TapeTraceHook that wraps
//    the tracer's hook: it forwards everything to it and hands the traced ops
//    to the tapes. A traced `cond`/`while_loop` (a `tfc.if`/`tfc.while`) is
//    recorded as one node; its gradient is a `tfc.grad` of an outlined copy
//    of it (traced_node_vjp, Tracing.cpp), which the tfc-autodiff pass
//    differentiates when the trace is compiled. The tape has no activity
//    analysis, if adjoint or loop stack of its own (docs/autodiff.md).
//
// A tape records an op only when one of its inputs depends on something the
// tape watches, identifies tensors by identity (Tensor::id()), and holds the
// tensors it recorded so that identities are never reused while it lives.
//
// The backward pass applies the gradient rules (GradientRules.cpp) with the
// public ops, so it runs eagerly or is traced like any other code, and the
// tapes that are still recording record it: that is how nested tapes give
// higher derivatives, eagerly and compiled (a node's `tfc.grad` is recorded
// as a node too).
//
//===----------------------------------------------------------------------===//
#include "tfc/frontend/Gradients.h"

#include "tfc/frontend/ControlFlow.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Ops.h"
#include "tfc/runtime/Error.h"

#include "Internal.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>

using namespace tfc;
using namespace tfc::detail;

namespace {

using TensorId = const void *;

/// One recorded step of a tape.
struct Event {
  enum class Kind {
    Op,     ///< `outputs[0] = op(inputs..., attrs)`.
    Custom, ///< custom_gradient or a compiled call: `backward(Multi)`.
    Traced, ///< A traced cond/while_loop or tfc.grad: `traced`.
  };
  Kind kind = Kind::Op;
  OpKind op = OpKind::Add;
  OpAttrs attrs;
  /// Op: operands. Custom: the inputs. Traced: what the op reads from
  /// outside (TracedNode::externals, under the tapes' identities), then
  /// the reads of the variables its regions read, made right after it.
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  CustomBackward backward; ///< Custom with one output.
  /// Custom with several outputs (a compiled call): one gradient per input
  /// from one dy per output (undefined where none reached it).
  MultiBackward backwardMulti;
  std::optional<TracedNode> traced;
  /// Traced: a custom_gradient ran inside its regions (whose gradient the
  /// pass, differentiating the forward ops, would not use).
  bool customInside = false;
};

std::string describeTensor(const Tensor &t) {
  return std::string(to_string(t.dtype())) + " " + shape_to_string(t.shape());
}

std::string describeVariable(const VariableState &var) {
  return var.name.empty() ? "variable #" + std::to_string(var.id)
                          : "variable '" + var.name + "'";
}

Tensor onesLike(const Tensor &t) { return ones(t.shape(), t.dtype()); }
Tensor zerosLike(const Tensor &t) { return zeros(t.shape(), t.dtype()); }

class TapeTraceHook;
struct Registry;

} // namespace

namespace tfc::detail {

/// The state of one GradientTape (also used for the internal tapes of the
/// backward pass of traced control flow).
class __attribute__((visibility("hidden"))) TapeImpl {
public:
  explicit TapeImpl(bool persistent);
  ~TapeImpl();
  TapeImpl(const TapeImpl &) = delete;
  TapeImpl &operator=(const TapeImpl &) = delete;

  /// True when this tape takes ops recorded at the current point.
  bool isRecording() const;
  bool inScope(const TapeTraceHook *hook, int depth) const {
    return scope.get() == hook && this->depth == depth;
  }

  void watchTensor(const Tensor &t) {
    if (tracked.insert(t.id()).second)
      holds.push_back(t);
  }
  bool isTracked(const Tensor &t) const { return tracked.count(t.id()) != 0; }
  /// Calls `fn` on the tensors this tape watches or recorded as outputs.
  template <typename Fn> void forEachTracked(Fn &&fn) const {
    for (const Tensor &t : holds)
      fn(t);
    for (const Event &e : nodes)
      for (const Tensor &t : e.outputs)
        fn(t);
  }

  void recordOp(OpKind kind, const Tensor *inputs, size_t n,
                const OpAttrs &attrs, const Tensor &output);
  void recordVarRead(uint64_t varId, const Tensor &value);
  /// Records a Cond/While/Custom node whose inputs are final.
  void recordNode(const Event &node);

  std::vector<Tensor> gradient(const std::vector<Tensor> &targets,
                               const std::vector<Tensor> &outputGrads,
                               const std::vector<Tensor> &sources);
  /// The tensors read from variable `id` while recording (maybe none).
  const std::vector<Tensor> &variableReads(uint64_t id) { return varReads[id]; }
  void addVariableRead(uint64_t id, const Tensor &value) {
    std::vector<Tensor> &reads = varReads[id];
    for (const Tensor &r : reads)
      if (r.id() == value.id())
        return;
    reads.push_back(value);
  }
  void reset() {
    nodes.clear();
    tracked.clear();
    holds.clear();
    varReads.clear();
    used = false;
    stopped = false;
  }

  const bool persistent;
  /// stop_recording() guards alive; shared with them, since a guard may
  /// outlive its tape.
  const std::shared_ptr<int> pauses = std::make_shared<int>(0);

private:
  std::vector<Tensor> backwardOf(const Event &node,
                                 const std::vector<Tensor> &outputGrads,
                                 const std::vector<bool> &needed);
  /// The Registry of the thread that created this tape (see Registry).
  const std::shared_ptr<Registry> home;
  std::shared_ptr<TapeTraceHook> scope; ///< Null for an eager tape.
  int depth = 0;        ///< Branch depth of `scope` at creation.
  int suspendLevel = 0; ///< SuspendRecording depth at creation.
  bool used = false;    ///< gradient() was called.
  bool stopped = false; ///< A non-persistent tape after gradient().
  std::vector<Event> nodes;
  std::unordered_set<TensorId> tracked;
  std::vector<Tensor> holds; ///< Keeps watched tensors (and their ids) alive.
  std::unordered_map<uint64_t, std::vector<Tensor>> varReads;
};

} // namespace tfc::detail

namespace {

/// Hands eagerly executed ops to the eager tapes of this thread.
struct EagerObserver final : OpObserver {
  void recorded(OpKind kind, const Tensor *inputs, size_t numInputs,
                const OpAttrs &attrs, const Tensor &output) override;
  void variable_read(const VariableState &var, const Tensor &value) override;
};

/// Per-thread tape bookkeeping. A tape records the ops of the thread that
/// created it (its home) but may be destroyed on any thread: so each tape
/// holds its home Registry (which outlives the thread if need be), and
/// `tapes` / `eagerTapes` change and are iterated under `mutex`.
struct Registry {
  std::recursive_mutex mutex;
  std::vector<TapeImpl *> tapes;
  size_t eagerTapes = 0;
  const std::thread::id owner = std::this_thread::get_id();
  // The rest is only touched on the owner thread.
  int suspended = 0;
  /// `observer` is in this thread's op-observer list. It stays there after
  /// another thread destroyed the last eager tape, until the next op.
  bool observing = false;
  EagerObserver observer;
  /// The wrapper installed over the tracer's hook, if any.
  std::shared_ptr<TapeTraceHook> hook;
};

const std::shared_ptr<Registry> &registryPtr() {
  thread_local const std::shared_ptr<Registry> reg =
      std::make_shared<Registry>();
  return reg;
}
Registry &registry() { return *registryPtr(); }
using RegistryLock = std::lock_guard<std::recursive_mutex>;

/// Wraps the tracer's hook while tapes live inside a trace; see the file
/// comment.
class TapeTraceHook final : public TraceHook,
                            public std::enable_shared_from_this<TapeTraceHook> {
public:
  explicit TapeTraceHook(TraceHook *inner) : inner(inner) {}

  TraceHook *const inner;
  /// How many cond/while bodies are being traced right now.
  int depth = 0;
  size_t tapeCount = 0;

  /// Puts the tracer's own hook back when no tape needs this one.
  void maybeUninstall() {
    if (tapeCount != 0 || depth != 0 || active_trace_hook() != this)
      return;
    set_active_trace_hook(inner);
    Registry &reg = registry();
    if (reg.hook.get() == this)
      reg.hook.reset();
  }

  /// A custom_gradient was traced: the bodies being traced contain one.
  void markCustomGradient() {
    std::fill(customInBody.begin(), customInBody.end(), true);
  }

  /// Records the traced op whose results are `outputs` (a tfc.if,
  /// tfc.while or tfc.grad) as one node on the tapes recording here.
  void recordTracedOp(const std::vector<Tensor> &outputs, bool customInside);

  Tensor op(OpKind kind, const Tensor *inputs, size_t numInputs,
            const OpAttrs &attrs, const std::source_location &loc) override {
    Tensor out = inner->op(kind, inputs, numInputs, attrs, loc);
    Registry &reg = registry();
    RegistryLock lock(reg.mutex);
    for (TapeImpl *tape : reg.tapes)
      if (tape->inScope(this, depth) && tape->isRecording())
        tape->recordOp(kind, inputs, numInputs, attrs, out);
    return out;
  }

  Tensor constant(const Tensor &value) override {
    return inner->constant(value);
  }

  Tensor var_read(const std::shared_ptr<VariableState> &var) override {
    Tensor out = inner->var_read(var);
    Registry &reg = registry();
    RegistryLock lock(reg.mutex);
    if (var->trainable)
      for (TapeImpl *tape : reg.tapes)
        if (tape->inScope(this, depth) && tape->isRecording())
          tape->recordVarRead(var->id, out);
    return out;
  }

  void var_assign(const std::shared_ptr<VariableState> &var, AssignKind how,
                  const Tensor &value) override {
    inner->var_assign(var, how, value);
  }

  void variable_created(const std::shared_ptr<VariableState> &var) override {
    inner->variable_created(var);
  }

  void print(std::string_view label,
             const std::vector<Tensor> &tensors) override {
    inner->print(label, tensors);
  }

  void assert_true(const Tensor &pred, std::string_view message,
                   const std::source_location &loc) override {
    inner->assert_true(pred, message, loc);
  }

  /// Counts a body being traced (ops in it are recorded only by tapes
  /// created inside it) and whether it traces a custom_gradient.
  struct BodyScope {
    explicit BodyScope(TapeTraceHook &hook) : hook(hook) {
      ++hook.depth;
      hook.customInBody.push_back(false);
    }
    ~BodyScope() {
      bool custom = hook.customInBody.back();
      hook.customInBody.pop_back();
      --hook.depth;
      hook.customInLastBody = custom;
    }
    TapeTraceHook &hook;
  };

  std::vector<Tensor> cond(const Tensor &pred,
                           const std::function<std::vector<Tensor>()> &thenFn,
                           const std::function<std::vector<Tensor>()> &elseFn,
                           const std::source_location &loc) override {
    // A known predicate: the tracer runs the one branch inline, so its ops
    // are recorded like any others.
    if (!pred.is_symbolic())
      return pred.item<bool>() ? thenFn() : elseFn();
    std::shared_ptr<TapeTraceHook> self = shared_from_this();
    bool custom = false;
    auto traceBranch = [&](const std::function<std::vector<Tensor>()> &fn) {
      std::vector<Tensor> results;
      {
        BodyScope scope(*this);
        results = fn();
      }
      custom |= customInLastBody;
      return results;
    };
    std::vector<Tensor> outs = inner->cond(
        pred, [&] { return traceBranch(thenFn); },
        [&] { return traceBranch(elseFn); }, loc);
    recordTracedOp(outs, custom);
    maybeUninstall();
    return outs;
  }

  std::vector<Tensor> while_loop(
      const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
      const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
          &bodyFn,
      const std::vector<Tensor> &loopVars, int64_t maximumIterations,
      const std::source_location &loc) override {
    std::shared_ptr<TapeTraceHook> self = shared_from_this();
    bool custom = false;
    std::vector<Tensor> outs = inner->while_loop(
        [&](const std::vector<Tensor> &vars) -> Tensor {
          Tensor c;
          {
            BodyScope scope(*this);
            c = condFn(vars);
          }
          custom |= customInLastBody;
          return c;
        },
        [&](const std::vector<Tensor> &vars) -> std::vector<Tensor> {
          std::vector<Tensor> results;
          {
            BodyScope scope(*this);
            results = bodyFn(vars);
          }
          custom |= customInLastBody;
          return results;
        },
        loopVars, maximumIterations, loc);
    recordTracedOp(outs, custom);
    maybeUninstall();
    return outs;
  }

private:
  std::vector<bool> customInBody;
  bool customInLastBody = false;
};

void TapeTraceHook::recordTracedOp(const std::vector<Tensor> &outputs,
                                   bool customInside) {
  if (depth > 0 && customInside)
    markCustomGradient(); // the enclosing bodies contain it too
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  std::vector<TapeImpl *> recording;
  for (TapeImpl *tape : reg.tapes)
    if (tape->inScope(this, depth) && tape->isRecording())
      recording.push_back(tape);
  if (recording.empty())
    return;
  std::optional<TracedNode> node = traced_node(outputs);
  if (!node) {
    for (const Tensor &o : outputs)
      if (is_floating(o.dtype()))
        throw InvalidArgumentError(
            "GradientTape: internal error: a traced cond/while_loop result "
            "is not the result of its op");
    return;
  }
  // The node's inputs under the identities the tapes know them by: a
  // fresh handle of a value the tapes track would get no gradient.
  std::unordered_map<const void *, Tensor> known;
  for (TapeImpl *tape : recording)
    tape->forEachTracked([&](const Tensor &t) {
      if (const void *key = traced_value_key(t))
        known.try_emplace(key, t);
    });
  Event e;
  e.kind = Event::Kind::Traced;
  for (const Tensor &x : node->externals) {
    auto it = known.find(traced_value_key(x));
    e.inputs.push_back(it != known.end() ? it->second : x);
  }
  // The variables the regions read: read again right after the op (the
  // value they saw, as they may not assign it) and watched like any read.
  for (const std::shared_ptr<VariableState> &var : node->variables)
    e.inputs.push_back(var_read(var));
  e.outputs = outputs;
  e.traced = std::move(node);
  e.customInside = customInside;
  for (TapeImpl *tape : recording)
    tape->recordNode(e);
}

void EagerObserver::recorded(OpKind kind, const Tensor *inputs,
                             size_t numInputs, const OpAttrs &attrs,
                             const Tensor &output) {
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  if (reg.eagerTapes == 0) {
    // Another thread destroyed this thread's last eager tape.
    reg.observing = false;
    pop_op_observer(&reg.observer);
    return;
  }
  for (TapeImpl *tape : reg.tapes)
    if (tape->inScope(nullptr, 0) && tape->isRecording())
      tape->recordOp(kind, inputs, numInputs, attrs, output);
}

void EagerObserver::variable_read(const VariableState &var,
                                  const Tensor &value) {
  if (!var.trainable)
    return;
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  for (TapeImpl *tape : reg.tapes)
    if (tape->inScope(nullptr, 0) && tape->isRecording())
      tape->recordVarRead(var.id, value);
}

/// The hook (and depth) that ops run through right now: our wrapper, or
/// null eagerly. `tracing` is set when some other trace hook is active (a
/// trace with no tape in it).
TapeTraceHook *currentWrapper(bool &tracing) {
  TraceHook *active = active_trace_hook();
  tracing = active != nullptr;
  Registry &reg = registry();
  if (active && reg.hook && active == reg.hook.get())
    return reg.hook.get();
  return nullptr;
}

} // namespace

// --- TapeImpl ----------------------------------------------------------------

TapeImpl::TapeImpl(bool persistent)
    : persistent(persistent), home(registryPtr()) {
  Registry &reg = *home;
  RegistryLock lock(reg.mutex);
  TraceHook *active = active_trace_hook();
  if (!active) {
    if (reg.eagerTapes++ == 0 && !reg.observing) {
      push_op_observer(&reg.observer);
      reg.observing = true;
    }
  } else {
    if (reg.hook && active == reg.hook.get()) {
      scope = reg.hook;
    } else {
      scope = std::make_shared<TapeTraceHook>(active);
      set_active_trace_hook(scope.get());
      reg.hook = scope;
    }
    depth = scope->depth;
    ++scope->tapeCount;
  }
  suspendLevel = reg.suspended;
  reg.tapes.push_back(this);
}

TapeImpl::~TapeImpl() {
  Registry &reg = *home;
  RegistryLock lock(reg.mutex);
  auto it = std::find(reg.tapes.begin(), reg.tapes.end(), this);
  if (it != reg.tapes.end())
    reg.tapes.erase(it);
  // On another thread than the tape's home, only the shared lists may be
  // touched: the home thread drops its observer at its next op, and a
  // trace's hook stays installed until the trace ends (it only forwards).
  const bool atHome = std::this_thread::get_id() == reg.owner;
  if (!scope) {
    if (--reg.eagerTapes == 0 && atHome && reg.observing) {
      reg.observing = false;
      pop_op_observer(&reg.observer);
    }
    return;
  }
  if (!atHome)
    return;
  --scope->tapeCount;
  scope->maybeUninstall();
}

bool TapeImpl::isRecording() const {
  return !stopped && *pauses == 0 && registry().suspended <= suspendLevel;
}

void TapeImpl::recordOp(OpKind kind, const Tensor *inputs, size_t n,
                        const OpAttrs &attrs, const Tensor &output) {
  if (!is_floating(output.dtype()) || !gradient_rule(kind))
    return;
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    if (inputs[i].id() == output.id())
      return; // the op returned its input: nothing to differentiate
    any |= tracked.count(inputs[i].id()) != 0;
  }
  if (!any)
    return;
  Event node;
  node.kind = Event::Kind::Op;
  node.op = kind;
  node.attrs = attrs;
  node.inputs.assign(inputs, inputs + n);
  node.outputs = {output};
  nodes.push_back(std::move(node));
  tracked.insert(output.id());
}

void TapeImpl::recordVarRead(uint64_t varId, const Tensor &value) {
  if (!is_floating(value.dtype()))
    return;
  watchTensor(value);
  addVariableRead(varId, value);
}

void TapeImpl::recordNode(const Event &node) {
  bool any = false;
  for (const Tensor &t : node.inputs)
    any |= isTracked(t);
  if (!any)
    return;
  nodes.push_back(node);
  for (const Tensor &o : node.outputs) {
    if (is_floating(o.dtype()))
      tracked.insert(o.id());
  }
}

std::vector<Tensor> TapeImpl::gradient(const std::vector<Tensor> &targets,
                                       const std::vector<Tensor> &outputGrads,
                                       const std::vector<Tensor> &sources) {
  const char *api = "GradientTape.gradient";
  if (!persistent && used)
    throw InvalidArgumentError(
        std::string(api) +
        ": gradient() can be called only once on a non-persistent "
        "GradientTape; create it with GradientTape(/*persistent=*/true) to "
        "compute several gradients");
  if (!outputGrads.empty() && outputGrads.size() != targets.size())
    throw InvalidArgumentError(
        std::string(api) + ": got " + std::to_string(outputGrads.size()) +
        " output_gradients for " + std::to_string(targets.size()) + " targets");
  for (size_t i = 0; i < sources.size(); ++i) {
    const Tensor &s = sources[i];
    if (!s.defined())
      throw InvalidArgumentError(std::string(api) + ": source " +
                                 std::to_string(i) + " is an undefined tensor");
    if (!is_floating(s.dtype()))
      throw InvalidArgumentError(
          std::string(api) + ": source " + std::to_string(i) + " has dtype " +
          std::string(to_string(s.dtype())) + " and shape " +
          shape_to_string(s.shape()) +
          "; gradients are defined only with respect to float32 and float64 "
          "tensors (cast the integer tensor to a floating dtype before "
          "computing with it)");
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const Tensor &t = targets[i];
    if (!t.defined())
      throw InvalidArgumentError(std::string(api) + ": target " +
                                 std::to_string(i) + " is an undefined tensor");
    if (!is_floating(t.dtype()))
      throw InvalidArgumentError(
          std::string(api) + ": the target has dtype " +
          std::string(to_string(t.dtype())) + " and shape " +
          shape_to_string(t.shape()) +
          "; gradients are defined only for float32 and float64 targets "
          "(cast it to a floating dtype)");
    if (i < outputGrads.size() && outputGrads[i].defined() &&
        (outputGrads[i].shape() != t.shape() ||
         outputGrads[i].dtype() != t.dtype()))
      throw InvalidArgumentError(
          std::string(api) + ": output_gradients[" + std::to_string(i) +
          "] is " + describeTensor(outputGrads[i]) + " but target " +
          std::to_string(i) + " is " + describeTensor(t));
  }
  used = true;
  if (!persistent)
    stopped = true; // like TensorFlow: the tape stops recording here

  // The nodes (and tensors) on a path from a source.
  std::unordered_set<TensorId> relevant, sourceIds;
  for (const Tensor &s : sources) {
    relevant.insert(s.id());
    sourceIds.insert(s.id());
  }
  const size_t numNodes = nodes.size(); // a persistent tape may grow below
  std::vector<bool> nodeRelevant(numNodes, false);
  for (size_t i = 0; i < numNodes; ++i) {
    for (const Tensor &t : nodes[i].inputs)
      if (relevant.count(t.id())) {
        nodeRelevant[i] = true;
        break;
      }
    if (nodeRelevant[i])
      for (const Tensor &o : nodes[i].outputs)
        relevant.insert(o.id());
  }

  std::unordered_map<TensorId, Tensor> grads;
  auto accumulate = [&](const Tensor &t, Tensor g) {
    auto [it, inserted] = grads.try_emplace(t.id(), g);
    if (!inserted)
      it->second = add(it->second, g);
  };
  for (size_t i = 0; i < targets.size(); ++i) {
    const Tensor &t = targets[i];
    if (!relevant.count(t.id()))
      continue;
    bool given = i < outputGrads.size() && outputGrads[i].defined();
    accumulate(t, given ? outputGrads[i] : onesLike(t));
  }

  for (size_t i = numNodes; i-- > 0;) {
    if (!nodeRelevant[i])
      continue;
    // A persistent tape keeps recording (the backward pass too, as in
    // TensorFlow), which may reallocate `nodes`: work on a copy then.
    std::optional<Event> copy;
    if (persistent)
      copy.emplace(nodes[i]);
    const Event &node = persistent ? *copy : nodes[i];
    std::vector<Tensor> dys(node.outputs.size());
    bool any = false;
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      auto it = grads.find(node.outputs[k].id());
      if (it != grads.end()) {
        dys[k] = it->second;
        any = true;
      }
    }
    if (!any)
      continue;
    std::vector<bool> needed(node.inputs.size());
    for (size_t j = 0; j < node.inputs.size(); ++j)
      needed[j] = is_floating(node.inputs[j].dtype()) &&
                  relevant.count(node.inputs[j].id());
    std::vector<Tensor> inputGrads = backwardOf(node, dys, needed);
    for (size_t j = 0; j < node.inputs.size(); ++j)
      if (needed[j] && inputGrads[j].defined())
        accumulate(node.inputs[j], inputGrads[j]);
    for (const Tensor &o : node.outputs)
      if (!sourceIds.count(o.id()))
        grads.erase(o.id());
  }

  std::vector<Tensor> result;
  result.reserve(sources.size());
  for (const Tensor &s : sources) {
    auto it = grads.find(s.id());
    result.push_back(it != grads.end() ? it->second : zerosLike(s));
  }
  if (!persistent) {
    // Used up: release what the record kept alive.
    std::vector<Event>().swap(nodes);
    tracked.clear();
    holds.clear();
  }
  return result;
}

std::vector<Tensor> TapeImpl::backwardOf(const Event &node,
                                         const std::vector<Tensor> &dys,
                                         const std::vector<bool> &needed) {
  switch (node.kind) {
  case Event::Kind::Op:
    return apply_gradient_rule(node.op, node.attrs, node.inputs.data(),
                               node.inputs.size(), node.outputs[0], dys[0]);

  case Event::Kind::Custom: {
    std::vector<Tensor> grads = node.backwardMulti
                                    ? node.backwardMulti(dys, needed)
                                    : node.backward(dys[0]);
    if (grads.size() != node.inputs.size())
      throw InvalidArgumentError(
          "custom_gradient: the backward function returned " +
          std::to_string(grads.size()) + " gradients for " +
          std::to_string(node.inputs.size()) + " inputs");
    for (size_t i = 0; i < grads.size(); ++i) {
      if (!grads[i].defined())
        continue;
      const Tensor &x = node.inputs[i];
      if (grads[i].shape() != x.shape() || grads[i].dtype() != x.dtype())
        throw InvalidArgumentError(
            "custom_gradient: the backward function returned a gradient of "
            "shape " +
            shape_to_string(grads[i].shape()) + " and dtype " +
            std::string(to_string(grads[i].dtype())) + " for input " +
            std::to_string(i) + ", which has shape " +
            shape_to_string(x.shape()) + " and dtype " +
            std::string(to_string(x.dtype())));
    }
    return grads;
  }

  case Event::Kind::Traced: {
    if (node.customInside)
      throw InvalidArgumentError(
          "GradientTape.gradient: cannot differentiate a traced cond or "
          "while_loop whose body calls a custom_gradient function (call it "
          "outside the cond/while_loop)");
    bool tracing = false;
    TapeTraceHook *wrapper = currentWrapper(tracing);
    if (!wrapper || wrapper != scope.get())
      throw InvalidArgumentError(
          "GradientTape.gradient: the tape recorded a traced cond or "
          "while_loop; compute its gradient inside the same tfc::function "
          "trace");
    std::vector<Tensor> grads =
        traced_node_vjp(*node.traced, node.inputs, dys, needed);
    // The tfc.grad just emitted is a node for the tapes recording it
    // (higher orders).
    std::vector<Tensor> outs;
    for (const Tensor &g : grads)
      if (g.defined())
        outs.push_back(g);
    if (!outs.empty())
      wrapper->recordTracedOp(outs, false);
    return grads;
  }
  }
  return std::vector<Tensor>(node.inputs.size());
}

// --- Custom gradients, suspension --------------------------------------------

SuspendRecording::SuspendRecording() { ++registry().suspended; }
SuspendRecording::~SuspendRecording() { --registry().suspended; }

Tensor tfc::detail::record_custom_gradient(const std::vector<Tensor> &inputs,
                                           Tensor value,
                                           CustomBackward backward) {
  if (!value.defined())
    throw InvalidArgumentError(
        "custom_gradient: the function returned an undefined tensor as its "
        "value");
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i].defined())
      throw InvalidArgumentError("custom_gradient: input " + std::to_string(i) +
                                 " is an undefined tensor");
  bool tracing = false;
  TapeTraceHook *wrapper = currentWrapper(tracing);
  // Traced with no tape in the trace: the rule goes into the IR
  // (tfc.custom_gradient), for a tape around a call of the compiled code.
  if (tracing && !wrapper)
    return active_trace_hook()->custom_gradient(inputs, value, backward);
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  if (reg.tapes.empty())
    return value;
  {
    // The node gets an output of its own: `value` may be an input, or the
    // result of a forward op the tapes recorded (the forward is recorded
    // for higher orders), whose gradient the node replaces.
    SuspendRecording suspend;
    value = stop_gradient(value);
  }
  Event node;
  node.kind = Event::Kind::Custom;
  node.inputs = inputs;
  node.outputs = {value};
  node.backward = std::move(backward);
  if (wrapper && wrapper->depth > 0)
    wrapper->markCustomGradient();
  const int depth = wrapper ? wrapper->depth : 0;
  if (is_floating(value.dtype()))
    for (TapeImpl *tape : reg.tapes)
      if (tape->inScope(wrapper, depth) && tape->isRecording())
        tape->recordNode(node);
  return value;
}

std::vector<Tensor>
tfc::detail::record_multi_output_gradient(const std::vector<Tensor> &inputs,
                                          std::vector<Tensor> values,
                                          MultiBackward backward) {
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  if (reg.tapes.empty())
    return values;
  Event node;
  node.kind = Event::Kind::Custom;
  node.inputs = inputs;
  {
    // Outputs of the node's own (see record_custom_gradient).
    SuspendRecording suspend;
    for (Tensor &v : values)
      v = stop_gradient(v);
  }
  node.outputs = values;
  node.backwardMulti = std::move(backward);
  for (TapeImpl *tape : reg.tapes)
    if (tape->inScope(nullptr, 0) && tape->isRecording())
      tape->recordNode(node);
  return values;
}

bool tfc::detail::any_tape_records(const std::vector<Tensor> &inputs) {
  bool tracing = false;
  TapeTraceHook *wrapper = currentWrapper(tracing);
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  if ((tracing && !wrapper) || reg.tapes.empty())
    return false;
  const int depth = wrapper ? wrapper->depth : 0;
  for (TapeImpl *tape : reg.tapes)
    if (tape->inScope(wrapper, depth) && tape->isRecording())
      for (const Tensor &x : inputs)
        if (tape->isTracked(x))
          return true;
  return false;
}

VariableWatcher::VariableWatcher() {
  push_op_observer(this);
  if ((inner = active_trace_hook()))
    set_active_trace_hook(this);
}

VariableWatcher::~VariableWatcher() {
  if (inner)
    set_active_trace_hook(inner);
  pop_op_observer(this);
}

void VariableWatcher::add(const VariableState &var, const Tensor &value) {
  if (!var.trainable)
    return;
  for (const Variable &v : variables)
    if (v.id() == var.id)
      return;
  // The state is owned by shared_ptrs: recover one to hand out a Variable.
  variables.emplace_back(
      std::const_pointer_cast<VariableState>(var.shared_from_this()));
  values.push_back(value);
}

void VariableWatcher::variable_read(const VariableState &var,
                                    const Tensor &value) {
  add(var, value);
}

Tensor VariableWatcher::op(OpKind kind, const Tensor *inputs, size_t n,
                           const OpAttrs &attrs,
                           const std::source_location &loc) {
  return inner->op(kind, inputs, n, attrs, loc);
}
Tensor VariableWatcher::constant(const Tensor &value) {
  return inner->constant(value);
}
Tensor VariableWatcher::custom_gradient(
    const std::vector<Tensor> &inputs, const Tensor &value,
    const std::function<std::vector<Tensor>(const Tensor &)> &backward) {
  return inner->custom_gradient(inputs, value, backward);
}
Tensor VariableWatcher::var_read(const std::shared_ptr<VariableState> &var) {
  Tensor value = inner->var_read(var);
  add(*var, value);
  return value;
}
void VariableWatcher::var_assign(const std::shared_ptr<VariableState> &var,
                                 AssignKind how, const Tensor &value) {
  inner->var_assign(var, how, value);
}
void VariableWatcher::variable_created(
    const std::shared_ptr<VariableState> &var) {
  inner->variable_created(var);
}
void VariableWatcher::print(std::string_view label,
                            const std::vector<Tensor> &tensors) {
  inner->print(label, tensors);
}
void VariableWatcher::assert_true(const Tensor &pred, std::string_view message,
                                  const std::source_location &loc) {
  inner->assert_true(pred, message, loc);
}
std::vector<Tensor>
VariableWatcher::cond(const Tensor &pred,
                      const std::function<std::vector<Tensor>()> &thenFn,
                      const std::function<std::vector<Tensor>()> &elseFn,
                      const std::source_location &loc) {
  return inner->cond(pred, thenFn, elseFn, loc);
}
std::vector<Tensor> VariableWatcher::while_loop(
    const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
    const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
        &bodyFn,
    const std::vector<Tensor> &loopVars, int64_t maximumIterations,
    const std::source_location &loc) {
  return inner->while_loop(condFn, bodyFn, loopVars, maximumIterations, loc);
}

void tfc::detail::custom_gradient_needs_variables(
    const std::vector<Variable> &variables) {
  std::string names;
  for (const Variable &v : variables)
    names += (names.empty() ? "'" : ", '") +
             (v.name().empty() ? std::string("<unnamed>") : v.name()) + "'";
  throw InvalidArgumentError(
      "custom_gradient: the function read the trainable Variable" +
      std::string(variables.size() > 1 ? "s " : " ") + names +
      ", but its backward function does not take them, so their gradients "
      "would be lost; give it a second parameter (const "
      "std::vector<tfc::Variable> &variables) and return std::pair{input "
      "gradients, std::vector<Tensor> variable gradients} (as "
      "tf.custom_gradient's grad_fn(dy, variables=...))");
}

std::vector<Tensor>
tfc::detail::check_variable_gradients(std::vector<Tensor> grads,
                                      size_t numVariables) {
  if (grads.size() != numVariables)
    throw InvalidArgumentError(
        "custom_gradient: the backward function returned " +
        std::to_string(grads.size()) + " variable gradients for " +
        std::to_string(numVariables) + " variables");
  return grads;
}

// --- GradientTape ------------------------------------------------------------

GradientTape::GradientTape(bool persistent)
    : impl(std::make_unique<TapeImpl>(persistent)) {}
GradientTape::~GradientTape() = default;
GradientTape::GradientTape(GradientTape &&) noexcept = default;
GradientTape &GradientTape::operator=(GradientTape &&) noexcept = default;

namespace {
TapeImpl &checked(const std::unique_ptr<TapeImpl> &impl) {
  if (!impl)
    throw InvalidArgumentError(
        "GradientTape: this tape was moved from and can no longer be used");
  return *impl;
}
} // namespace

void GradientTape::watch(const Tensor &t) {
  TapeImpl &tape = checked(impl);
  if (!t.defined())
    throw InvalidArgumentError(
        "GradientTape.watch: got an undefined tensor (a default-constructed "
        "tfc::Tensor)");
  tape.watchTensor(t);
}

void GradientTape::watch(const std::vector<Tensor> &ts) {
  for (const Tensor &t : ts)
    watch(t);
}

void GradientTape::watch(const Variable &v) {
  TapeImpl &tape = checked(impl);
  Tensor value = v.value();
  tape.watchTensor(value);
  tape.addVariableRead(v.id(), value);
}

Tensor GradientTape::gradient(const Tensor &target, const Tensor &source) {
  return checked(impl).gradient({target}, {}, {source})[0];
}

std::vector<Tensor> GradientTape::gradient(const Tensor &target,
                                           const std::vector<Tensor> &sources) {
  return checked(impl).gradient({target}, {}, sources);
}

std::vector<Tensor>
GradientTape::gradient(const Tensor &target,
                       std::initializer_list<Tensor> sources) {
  return gradient(target, std::vector<Tensor>(sources));
}

std::vector<Tensor>
GradientTape::gradient(const std::vector<Tensor> &targets,
                       const std::vector<Tensor> &sources,
                       const std::vector<Tensor> &output_gradients) {
  return checked(impl).gradient(targets, output_gradients, sources);
}

Tensor GradientTape::gradient(const Tensor &target, const Variable &source) {
  return gradient(target, std::vector<Variable>{source})[0];
}

std::vector<Tensor>
GradientTape::gradient(const Tensor &target,
                       std::initializer_list<Variable> sources) {
  return gradient(target, std::vector<Variable>(sources));
}

std::vector<Tensor>
GradientTape::gradient(const Tensor &target,
                       const std::vector<Variable> &sources) {
  TapeImpl &tape = checked(impl);
  // Every read of every variable is a source; a variable's gradient is the
  // sum over its reads.
  std::vector<Tensor> reads;
  std::vector<std::pair<size_t, size_t>> ranges;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Variable &v = sources[i];
    if (!is_floating(v.dtype()))
      throw InvalidArgumentError(
          "GradientTape.gradient: source " + std::to_string(i) + " (" +
          describeVariable(*v.state()) + ") has dtype " +
          std::string(to_string(v.dtype())) + " and shape " +
          shape_to_string(v.shape()) +
          "; gradients are defined only with respect to float32 and float64 "
          "variables");
    const std::vector<Tensor> &r = tape.variableReads(v.id());
    ranges.emplace_back(reads.size(), reads.size() + r.size());
    reads.insert(reads.end(), r.begin(), r.end());
  }
  std::vector<Tensor> grads = tape.gradient({target}, {}, reads);
  std::vector<Tensor> result;
  for (size_t i = 0; i < sources.size(); ++i) {
    auto [begin, end] = ranges[i];
    if (begin == end) {
      result.push_back(zeros(sources[i].shape(), sources[i].dtype()));
      continue;
    }
    Tensor sum = grads[begin];
    for (size_t k = begin + 1; k < end; ++k)
      sum = add(sum, grads[k]);
    result.push_back(sum);
  }
  return result;
}

GradientTape::StopRecording::StopRecording(TapeImpl *tape)
    : pauses(tape->pauses) {
  ++*pauses;
}
GradientTape::StopRecording::StopRecording(StopRecording &&other) noexcept
    : pauses(std::move(other.pauses)) {}
GradientTape::StopRecording::~StopRecording() {
  if (pauses)
    --*pauses;
}

GradientTape::StopRecording GradientTape::stop_recording() {
  return StopRecording(&checked(impl));
}

void GradientTape::reset() { checked(impl).reset(); }

bool GradientTape::persistent() const { return checked(impl).persistent; }
