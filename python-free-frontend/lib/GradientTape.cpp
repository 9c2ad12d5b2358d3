//===- GradientTape.cpp - Tapes: recording and the backward pass ----------===//
//
// How recording works:
//  - Eagerly, every op ends in detail::dispatch, which tells the OpObservers
//    what ran. One observer per thread (registered while an eager tape is
//    alive) hands each op to the tapes.
//  - While a tfc::function is traced, ops go to the trace hook instead. The
//    first tape created inside a trace installs a TapeTraceHook that wraps
//    the tracer's hook: it forwards everything to it and hands the traced ops
//    to the tapes. Traced `cond`/`while_loop` come through the hook too: each
//    branch body is logged into a Program while it is traced (the values it
//    computes live inside the region and cannot be used outside it), and the
//    whole `cond`/`while_loop` is recorded as one node holding those Programs.
//    Its gradient replays a Program (re-emitting its ops) inside a new
//    `cond`/`while_loop` built by the backward pass.
//
// A tape records an op only when one of its inputs depends on something the
// tape watches, identifies tensors by identity (Tensor::id()), and holds the
// tensors it recorded so that identities are never reused while it lives.
//
// The backward pass applies the gradient rules (GradientRules.cpp) with the
// public ops, so it runs eagerly or is traced like any other code, and the
// tapes that are still recording record it: that is how nested tapes give
// higher derivatives, eagerly and compiled.
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

struct Program;

/// One recorded step: a tape node, or an entry of a traced branch's log.
struct Event {
  enum class Kind {
    Op,        ///< `outputs[0] = op(inputs..., attrs)`.
    VarRead,   ///< `outputs[0]` was read from `var`.
    VarAssign, ///< `var` was written (only logged inside traced branches).
    Effect,    ///< print / assert_true (logged; skipped when replaying).
    Cond,      ///< A traced cond: `first`/`second` are the branches.
    While,     ///< A traced while_loop: `first` is the condition, `second`
               ///< the body; the first `numLoopVars` inputs are the inits.
    Custom,    ///< custom_gradient: `backward` is the user's function.
  };
  Kind kind = Kind::Op;
  OpKind op = OpKind::Add;
  OpAttrs attrs;
  /// Op: operands. Custom: the inputs. Cond: the predicate while logged;
  /// every tensor the branches use from outside once recorded on a tape.
  /// While: the initial loop variables, then (on a tape) the tensors the
  /// condition and body use from outside.
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
  std::shared_ptr<VariableState> var;
  std::shared_ptr<Program> first, second;
  Tensor pred;                    ///< Cond: the predicate.
  size_t numLoopVars = 0;         ///< While.
  int64_t maximumIterations = -1; ///< While.
  CustomBackward backward;        ///< Custom with one output.
  /// Custom with several outputs (a compiled call): one gradient per input
  /// from one dy per output (undefined where none reached it).
  MultiBackward backwardMulti;
  /// Cond/While on a tape: trainable variables read inside the bodies, with
  /// the read of each made right after the op (the value the bodies saw,
  /// since they do not assign it), which the tape watches.
  std::vector<std::pair<std::shared_ptr<VariableState>, Tensor>> hoisted;
};

/// What a traced branch (or loop condition/body) computed, in order.
struct Program {
  std::vector<Tensor> args; ///< Block arguments (loop condition and body).
  std::vector<Event> events;
  std::vector<Tensor> results; ///< What the region yields.
};

std::string describeTensor(const Tensor &t) {
  return std::string(to_string(t.dtype())) + " " + shape_to_string(t.shape());
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
  /// One empty stack per loop variable `saved[i]` of `body`, for the O(N)
  /// gradient of a traced while_loop; none where it cannot be used.
  std::optional<std::vector<TracedStack>>
  newStacks(const Program &body, const std::vector<size_t> &saved) const;

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
  /// The logs of those bodies, innermost last.
  std::vector<Program *> logs;
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

  void log(Event event) {
    if (!logs.empty())
      logs.back()->events.push_back(std::move(event));
  }

  Tensor op(OpKind kind, const Tensor *inputs, size_t numInputs,
            const OpAttrs &attrs, const std::source_location &loc) override {
    Tensor out = inner->op(kind, inputs, numInputs, attrs, loc);
    if (!logs.empty()) {
      Event e;
      e.kind = Event::Kind::Op;
      e.op = kind;
      e.attrs = attrs;
      e.inputs.assign(inputs, inputs + numInputs);
      e.outputs = {out};
      log(std::move(e));
    }
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
    if (!logs.empty()) {
      Event e;
      e.kind = Event::Kind::VarRead;
      e.var = var;
      e.outputs = {out};
      log(std::move(e));
    }
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
    Event e;
    e.kind = Event::Kind::VarAssign;
    e.var = var;
    log(std::move(e));
  }

  void variable_created(const std::shared_ptr<VariableState> &var) override {
    inner->variable_created(var);
  }

  void print(std::string_view label,
             const std::vector<Tensor> &tensors) override {
    inner->print(label, tensors);
    Event e;
    e.kind = Event::Kind::Effect;
    e.inputs = tensors;
    log(std::move(e));
  }

  void assert_true(const Tensor &pred, std::string_view message,
                   const std::source_location &loc) override {
    inner->assert_true(pred, message, loc);
    Event e;
    e.kind = Event::Kind::Effect;
    e.inputs = {pred};
    log(std::move(e));
  }

  /// Makes the ops traced while alive go to `program`'s log.
  struct BodyScope {
    BodyScope(TapeTraceHook &hook, Program &program) : hook(hook) {
      ++hook.depth;
      hook.logs.push_back(&program);
    }
    ~BodyScope() {
      hook.logs.pop_back();
      --hook.depth;
    }
    TapeTraceHook &hook;
  };

  std::vector<Tensor> cond(const Tensor &pred,
                           const std::function<std::vector<Tensor>()> &thenFn,
                           const std::function<std::vector<Tensor>()> &elseFn,
                           const std::source_location &loc) override {
    // A known predicate: the tracer runs the one branch inline, so its ops
    // are recorded like any others. (As a node, a branch yielding an outer
    // tensor unchanged made the node's output its own input, counted twice.)
    if (!pred.is_symbolic())
      return pred.item<bool>() ? thenFn() : elseFn();
    std::shared_ptr<TapeTraceHook> self = shared_from_this();
    auto thenProgram = std::make_shared<Program>();
    auto elseProgram = std::make_shared<Program>();
    auto traceBranch = [&](const std::function<std::vector<Tensor>()> &fn,
                           Program &program) {
      BodyScope scope(*this, program);
      program.results = fn();
      return program.results;
    };
    std::vector<Tensor> outs = inner->cond(
        pred, [&] { return traceBranch(thenFn, *thenProgram); },
        [&] { return traceBranch(elseFn, *elseProgram); }, loc);
    Event e;
    e.kind = Event::Kind::Cond;
    e.pred = pred;
    e.inputs = {pred};
    e.outputs = outs;
    e.first = std::move(thenProgram);
    e.second = std::move(elseProgram);
    finishControlFlow(std::move(e));
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
    auto condProgram = std::make_shared<Program>();
    auto bodyProgram = std::make_shared<Program>();
    std::vector<Tensor> outs = inner->while_loop(
        [&](const std::vector<Tensor> &vars) -> Tensor {
          BodyScope scope(*this, *condProgram);
          condProgram->args = vars;
          Tensor c = condFn(vars);
          condProgram->results = {c};
          return c;
        },
        [&](const std::vector<Tensor> &vars) -> std::vector<Tensor> {
          BodyScope scope(*this, *bodyProgram);
          bodyProgram->args = vars;
          bodyProgram->results = bodyFn(vars);
          return bodyProgram->results;
        },
        loopVars, maximumIterations, loc);
    Event e;
    e.kind = Event::Kind::While;
    e.inputs = loopVars;
    e.numLoopVars = loopVars.size();
    e.maximumIterations = maximumIterations;
    e.outputs = outs;
    e.first = std::move(condProgram);
    e.second = std::move(bodyProgram);
    finishControlFlow(std::move(e));
    maybeUninstall();
    return outs;
  }

private:
  void finishControlFlow(Event e);
};

// --- Bodies: what they use from outside, and replaying them ------------------

/// What the bodies of a Cond/While use from outside themselves.
struct BodyUses {
  std::vector<Tensor> externals;
  std::vector<std::shared_ptr<VariableState>> variablesRead;
};

class UseCollector {
public:
  explicit UseCollector(BodyUses &uses) : uses(uses) {}

  void program(const Program &p) {
    for (const Tensor &a : p.args)
      defined.insert(a.id());
    for (const Event &e : p.events) {
      for (const Tensor &t : e.inputs)
        use(t);
      if (e.kind == Event::Kind::Cond)
        use(e.pred);
      if (e.first)
        program(*e.first);
      if (e.second)
        program(*e.second);
      for (const Tensor &o : e.outputs)
        defined.insert(o.id());
      if (e.kind == Event::Kind::VarRead)
        addVar(uses.variablesRead, e.var);
    }
    for (const Tensor &r : p.results)
      use(r);
  }

private:
  void use(const Tensor &t) {
    if (!t.defined() || defined.count(t.id()) || !seen.insert(t.id()).second)
      return;
    uses.externals.push_back(t);
  }
  static void addVar(std::vector<std::shared_ptr<VariableState>> &vars,
                     const std::shared_ptr<VariableState> &var) {
    if (std::find(vars.begin(), vars.end(), var) == vars.end())
      vars.push_back(var);
  }
  BodyUses &uses;
  std::unordered_set<TensorId> defined, seen;
};

/// Which tensors of recorded bodies get an adjoint in the backward pass. A
/// tensor none of whose uses reaches a seeded result gets none, so the
/// backward pass gives it no gradient at all: an explicit zero would flow
/// through the rules of what computed it (sqrt at 0: 0 * inf = NaN) where
/// the true gradient has no term. Conservative: an op with a rule passes an
/// adjoint to each float input.
struct Activity {
  std::unordered_set<TensorId> tensors;
  std::unordered_set<const VariableState *> variables; ///< Reads active.

  bool has(const Tensor &t) const {
    return t.defined() && tensors.count(t.id()) != 0;
  }
  void add(const Tensor &t) {
    if (t.defined() && is_floating(t.dtype()))
      tensors.insert(t.id());
  }

  /// Marks what `p`'s events pass adjoints to, given its active tensors
  /// (results, values from outside and inner values share ids).
  void program(const Program &p) {
    for (auto it = p.events.rbegin(); it != p.events.rend(); ++it)
      event(*it);
  }

  /// The float loop variables of a While whose adjoints are carried,
  /// starting from those whose outputs are active: a variable is also active
  /// when its value entering the body reaches an active one.
  std::vector<size_t> loopVariables(const Event &e) {
    const Program &body = *e.second;
    std::vector<bool> in(e.numLoopVars, false);
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t k = 0; k < e.numLoopVars; ++k)
        if (!in[k] && is_floating(e.outputs[k].dtype()) &&
            (has(e.outputs[k]) ||
             (k < body.args.size() && has(body.args[k])))) {
          in[k] = changed = true;
          if (k < body.results.size())
            add(body.results[k]);
        }
      if (changed)
        program(body);
    }
    std::vector<size_t> active;
    for (size_t k = 0; k < e.numLoopVars; ++k)
      if (in[k])
        active.push_back(k);
    return active;
  }

private:
  void event(const Event &e) {
    switch (e.kind) {
    case Event::Kind::Op:
      if (has(e.outputs[0]) && gradient_rule(e.op))
        for (const Tensor &t : e.inputs)
          add(t);
      return;
    case Event::Kind::Custom:
      for (const Tensor &o : e.outputs)
        if (has(o)) {
          for (const Tensor &t : e.inputs)
            add(t);
          return;
        }
      return;
    case Event::Kind::VarRead:
      if (has(e.outputs[0]))
        variables.insert(e.var.get());
      return;
    case Event::Kind::Cond: {
      bool any = false;
      for (size_t k = 0; k < e.outputs.size(); ++k)
        if (has(e.outputs[k])) {
          any = true;
          for (const Program *branch : {e.first.get(), e.second.get()})
            if (k < branch->results.size())
              add(branch->results[k]);
        }
      if (any) {
        program(*e.first);
        program(*e.second);
      }
      return;
    }
    case Event::Kind::While:
      for (size_t k : loopVariables(e))
        add(e.inputs[k]);
      return;
    case Event::Kind::VarAssign:
    case Event::Kind::Effect:
      return;
    }
  }
};

/// Whether input `j` of a recorded Cond/While node gets an adjoint.
bool activeInput(const Event &node, size_t j, const Activity &activity) {
  const Tensor &t = node.inputs[j];
  if (activity.has(t))
    return true;
  for (const auto &[var, value] : node.hoisted)
    if (value.id() == t.id() && activity.variables.count(var.get()))
      return true;
  return false;
}

/// Adds the ids of every tensor `p` (and the bodies nested in it) reads.
void collectReads(const Program &p, std::unordered_set<TensorId> &read) {
  for (const Event &e : p.events) {
    for (const Tensor &t : e.inputs)
      if (t.defined())
        read.insert(t.id());
    if (e.pred.defined())
      read.insert(e.pred.id());
    if (e.first)
      collectReads(*e.first, read);
    if (e.second)
      collectReads(*e.second, read);
  }
  for (const Tensor &t : p.results)
    if (t.defined())
      read.insert(t.id());
}

/// The tensors `body` needs to compute its results `wanted` (and those):
/// what the backward pass of a While recomputes from the saved state.
std::unordered_set<TensorId> sliceOf(const Program &body,
                                     const std::vector<size_t> &wanted) {
  std::unordered_set<TensorId> needed;
  for (size_t k : wanted)
    if (k < body.results.size())
      needed.insert(body.results[k].id());
  for (auto it = body.events.rbegin(); it != body.events.rend(); ++it) {
    bool any = false;
    for (const Tensor &o : it->outputs)
      any |= needed.count(o.id()) != 0;
    if (!any)
      continue;
    for (const Tensor &t : it->inputs)
      if (t.defined())
        needed.insert(t.id());
    if (it->pred.defined())
      needed.insert(it->pred.id());
    if (it->first)
      collectReads(*it->first, needed);
    if (it->second)
      collectReads(*it->second, needed);
  }
  return needed;
}

std::string describeVariable(const VariableState &var) {
  return var.name.empty() ? "variable #" + std::to_string(var.id)
                          : "variable '" + var.name + "'";
}

/// Re-emits recorded events at the current insertion point, mapping the
/// tensors they computed to the new ones.
class Replayer {
public:
  Tensor get(const Tensor &t) const {
    auto it = map.find(t.id());
    return it == map.end() ? t : it->second;
  }
  std::vector<Tensor> get(const std::vector<Tensor> &ts) const {
    std::vector<Tensor> out;
    out.reserve(ts.size());
    for (const Tensor &t : ts)
      out.push_back(get(t));
    return out;
  }
  void bind(const std::vector<Tensor> &from, const std::vector<Tensor> &to) {
    for (size_t i = 0; i < from.size() && i < to.size(); ++i)
      map[from[i].id()] = to[i];
  }
  void setVariableValue(const VariableState *var, const Tensor &value) {
    variableValues[var] = value;
  }
  /// Replays only the events computing something in `needed` (and those
  /// that must fail: variable assignments, custom gradients).
  void keepOnly(const std::unordered_set<TensorId> *needed) { keep = needed; }

  void program(const Program &p) {
    for (const Event &e : p.events)
      event(e);
  }

private:
  bool skipped(const Event &e) const {
    if (!keep || e.kind == Event::Kind::VarAssign ||
        e.kind == Event::Kind::Custom)
      return false;
    for (const Tensor &o : e.outputs)
      if (keep->count(o.id()))
        return false;
    return true;
  }

  void event(const Event &e) {
    if (skipped(e))
      return;
    switch (e.kind) {
    case Event::Kind::Op: {
      std::vector<Tensor> inputs = get(e.inputs);
      map[e.outputs[0].id()] =
          dispatch(e.op, inputs.data(), inputs.size(), e.attrs);
      return;
    }
    case Event::Kind::VarRead: {
      auto it = variableValues.find(e.var.get());
      Tensor value;
      if (it != variableValues.end())
        value = it->second;
      else if (TraceHook *hook = active_trace_hook())
        value = hook->var_read(e.var);
      else
        value = e.var->value;
      map[e.outputs[0].id()] = value;
      return;
    }
    case Event::Kind::VarAssign:
      throw InvalidArgumentError(
          "GradientTape.gradient: cannot differentiate a traced cond or "
          "while_loop whose body assigns " +
          describeVariable(*e.var) +
          " (assign it outside the cond/while_loop)");
    case Event::Kind::Effect:
      return;
    case Event::Kind::Custom:
      throw InvalidArgumentError(
          "GradientTape.gradient: cannot differentiate a traced cond or "
          "while_loop whose body calls a custom_gradient function (call it "
          "outside the cond/while_loop)");
    case Event::Kind::Cond: {
      const Program &thenP = *e.first, &elseP = *e.second;
      std::vector<Tensor> outs = tfc::cond(
          get(e.pred),
          [&] {
            program(thenP);
            return get(thenP.results);
          },
          [&] {
            program(elseP);
            return get(elseP.results);
          });
      bind(e.outputs, outs);
      return;
    }
    case Event::Kind::While: {
      const Program &condP = *e.first, &bodyP = *e.second;
      std::vector<Tensor> inits(e.inputs.begin(),
                                e.inputs.begin() + e.numLoopVars);
      std::vector<Tensor> outs = tfc::while_loop(
          [&](const std::vector<Tensor> &vars) -> Tensor {
            bind(condP.args, vars);
            program(condP);
            return get(condP.results[0]);
          },
          [&](const std::vector<Tensor> &vars) -> std::vector<Tensor> {
            bind(bodyP.args, vars);
            program(bodyP);
            return get(bodyP.results);
          },
          get(inits), e.maximumIterations);
      bind(e.outputs, outs);
      return;
    }
    }
  }

  std::unordered_map<TensorId, Tensor> map;
  std::unordered_map<const VariableState *, Tensor> variableValues;
  const std::unordered_set<TensorId> *keep = nullptr;
};

void TapeTraceHook::finishControlFlow(Event e) {
  log(e);
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  bool anyTape = false;
  for (TapeImpl *tape : reg.tapes)
    anyTape |= tape->inScope(this, depth) && tape->isRecording();
  if (!anyTape)
    return;
  // The node's inputs: every tensor its bodies use from outside, and the
  // (hoisted) reads of the trainable variables they read.
  BodyUses uses;
  UseCollector collector(uses);
  if (e.kind == Event::Kind::While)
    for (size_t i = 0; i < e.numLoopVars; ++i)
      uses.externals.push_back(e.inputs[i]);
  collector.program(*e.first);
  collector.program(*e.second);
  std::vector<Tensor> inputs = std::move(uses.externals);
  for (const auto &var : uses.variablesRead) {
    if (!var->trainable)
      continue;
    Tensor value = var_read(var); // watched by the tapes, like any read
    e.hoisted.emplace_back(var, value);
    inputs.push_back(value);
  }
  e.inputs = std::move(inputs);
  for (TapeImpl *tape : reg.tapes)
    if (tape->inScope(this, depth) && tape->isRecording())
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

std::optional<std::vector<TracedStack>>
TapeImpl::newStacks(const Program &body,
                    const std::vector<size_t> &saved) const {
  bool tracing = false;
  TapeTraceHook *wrapper = currentWrapper(tracing);
  if (!wrapper || wrapper != scope.get())
    return std::nullopt;
  // A tape that may record this backward pass (now, or later through the
  // logged body of a cond/while_loop it records) may differentiate it again
  // (second derivatives). A popped value is defined by no recorded op, so
  // replaying such a record would use it outside its loop: those keep the
  // O(N^2) scheme, built from cond/while_loop alone, whose second
  // derivatives work (WhileGradient.SecondDerivativeThroughTheLoop).
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  for (const TapeImpl *t : reg.tapes) {
    if (t->scope != scope)
      continue;
    if (t->depth < wrapper->depth
            ? !t->stopped
            : t->depth == wrapper->depth && t->isRecording())
      return std::nullopt;
  }
  // Stack entries have a static shape.
  for (size_t k : saved)
    for (int64_t d : body.args[k].shape())
      if (d < 0)
        return std::nullopt;
  std::vector<TracedStack> stacks;
  for (size_t k : saved) {
    std::optional<TracedStack> stack = trace_stack_new(
        wrapper->inner, body.args[k].dtype(), body.args[k].shape());
    if (!stack) {
      if (stacks.empty())
        return std::nullopt; // not a tfc::function trace: nothing built
      throw InvalidArgumentError("GradientTape.gradient: internal error: "
                                 "could not create a stack for a loop "
                                 "variable of a traced while_loop");
    }
    stacks.push_back(*stack);
  }
  return stacks;
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

  case Event::Kind::Cond: {
    // d(inputs) = cond(pred, then: vjp(then body), else: vjp(else body)),
    // each branch replaying its body under a tape of its own. Only the
    // outputs with an adjoint are seeded, and only the inputs they reach in
    // either branch get a gradient (zeros in a branch that does not use one).
    std::vector<size_t> outs;
    std::vector<Tensor> outGrads;
    Activity activity;
    for (size_t k = 0; k < node.outputs.size(); ++k) {
      if (!is_floating(node.outputs[k].dtype()) || !dys[k].defined())
        continue;
      outs.push_back(k);
      outGrads.push_back(dys[k]);
      for (const Program *branch : {node.first.get(), node.second.get()})
        activity.add(branch->results[k]);
    }
    activity.program(*node.first);
    activity.program(*node.second);
    std::vector<size_t> wanted;
    for (size_t j = 0; j < node.inputs.size(); ++j)
      if (needed[j] && activeInput(node, j, activity))
        wanted.push_back(j);
    std::vector<Tensor> result(node.inputs.size());
    if (wanted.empty())
      return result;
    auto branch = [&](const Program &body) {
      TapeImpl tape(/*persistent=*/false);
      std::vector<Tensor> sources;
      for (size_t j : wanted) {
        tape.watchTensor(node.inputs[j]);
        sources.push_back(node.inputs[j]);
      }
      Replayer replay;
      for (const auto &[var, value] : node.hoisted)
        replay.setVariableValue(var.get(), value);
      replay.program(body);
      std::vector<Tensor> targets;
      for (size_t k : outs)
        targets.push_back(replay.get(body.results[k]));
      return tape.gradient(targets, outGrads, sources);
    };
    std::vector<Tensor> grads = tfc::cond(
        node.pred, [&] { return branch(*node.first); },
        [&] { return branch(*node.second); });
    for (size_t i = 0; i < wanted.size(); ++i)
      result[wanted[i]] = grads[i];
    return result;
  }

  case Event::Kind::While: {
    // Reverse mode through a loop with a data-dependent trip count. Usually
    // (whileWithStacks): one replay of the loop pushes the loop variables
    // entering each iteration onto tfc stacks and counts the iterations N;
    // the backward loop pops them and applies the body's gradient: O(N).
    // Where stacks cannot be used (see stacksUsable), the old scheme using
    // only cond/while_loop: count N by replaying the loop, then for
    // j = N-1 .. 0 recompute the loop variables entering iteration j
    // (replaying j iterations from the initial values) and apply the body's
    // gradient there: O(N^2) recomputation, O(1) extra memory.
    const Program &condP = *node.first, &bodyP = *node.second;
    const size_t n = node.numLoopVars;
    std::vector<Tensor> inits(node.inputs.begin(), node.inputs.begin() + n);
    // Only the loop variables whose adjoints reach the outputs with one are
    // carried, and only the outside tensors the body passes them to get a
    // gradient (the condition passes none).
    Activity activity;
    for (size_t k = 0; k < n; ++k)
      if (dys[k].defined())
        activity.add(node.outputs[k]);
    std::vector<size_t> vars = activity.loopVariables(node), externals;
    for (size_t j = n; j < node.inputs.size(); ++j)
      if (needed[j] && activeInput(node, j, activity))
        externals.push_back(j);
    std::vector<Tensor> result(node.inputs.size());
    if (vars.empty())
      return result;
    auto bindHoisted = [&](Replayer &replay) {
      for (const auto &[var, value] : node.hoisted)
        replay.setVariableValue(var.get(), value);
    };
    auto bodyStep = [&](const std::vector<Tensor> &state,
                        const std::unordered_set<TensorId> *only = nullptr) {
      Replayer replay;
      replay.keepOnly(only);
      bindHoisted(replay);
      replay.bind(bodyP.args, state);
      replay.program(bodyP);
      return replay.get(bodyP.results);
    };
    auto condStep = [&](const std::vector<Tensor> &state) -> Tensor {
      Replayer replay;
      bindHoisted(replay);
      replay.bind(condP.args, state);
      replay.program(condP);
      return replay.get(condP.results[0]);
    };
    Tensor zero = from_vector<int64_t>({0}, {});
    const size_t nv = vars.size();
    // The body's gradient at the loop variables `x` entering an iteration,
    // given the adjoints `s[1..nv]` of its results and the sums
    // `s[1+nv..]` so far: the next backward state after `s[0]`.
    auto bodyGradient = [&](const std::vector<Tensor> &x,
                            const std::vector<Tensor> &s,
                            const std::unordered_set<TensorId> *only) {
      TapeImpl tape(/*persistent=*/false);
      std::vector<Tensor> sources;
      for (size_t k : vars) {
        tape.watchTensor(x[k]);
        sources.push_back(x[k]);
      }
      for (size_t e : externals) {
        tape.watchTensor(node.inputs[e]);
        sources.push_back(node.inputs[e]);
      }
      std::vector<Tensor> y = bodyStep(x, only);
      std::vector<Tensor> targets, outGrads;
      for (size_t i = 0; i < nv; ++i) {
        targets.push_back(y[vars[i]]);
        outGrads.push_back(s[1 + i]);
      }
      std::vector<Tensor> g = tape.gradient(targets, outGrads, sources);
      std::vector<Tensor> next;
      for (size_t i = 0; i < nv; ++i)
        next.push_back(g[i]);
      for (size_t i = 0; i < externals.size(); ++i)
        next.push_back(s[1 + nv + i] + g[nv + i]);
      return next;
    };
    // The backward state: {counter, d(vars)..., d(externals)...}.
    auto backwardInit = [&](const Tensor &counter) {
      std::vector<Tensor> state{counter};
      for (size_t k : vars)
        state.push_back(dys[k].defined() ? dys[k] : zerosLike(node.outputs[k]));
      for (size_t j : externals)
        state.push_back(zerosLike(node.inputs[j]));
      return state;
    };
    auto finish = [&](const std::vector<Tensor> &final) {
      for (size_t i = 0; i < nv; ++i)
        result[vars[i]] = final[1 + i];
      for (size_t i = 0; i < externals.size(); ++i)
        result[externals[i]] = final[1 + nv + i];
      return result;
    };

    // The backward loop recomputes only what the carried results need:
    // the loop variables that slice reads (and the carried ones, whose
    // adjoints are taken with respect to them) are saved.
    std::unordered_set<TensorId> slice = sliceOf(bodyP, vars);
    std::vector<size_t> saved;
    for (size_t k = 0; k < n && k < bodyP.args.size(); ++k)
      if (slice.count(bodyP.args[k].id()) ||
          std::find(vars.begin(), vars.end(), k) != vars.end())
        saved.push_back(k);
    if (std::optional<std::vector<TracedStack>> stacks =
            newStacks(bodyP, saved)) {
      // 1. Replay the loop once, saving the state entering each iteration.
      std::vector<Tensor> forwardInit = inits;
      forwardInit.push_back(zero);
      std::vector<Tensor> counted = tfc::while_loop(
          [&](const std::vector<Tensor> &state) { return condStep(state); },
          [&](const std::vector<Tensor> &state) {
            for (size_t i = 0; i < saved.size(); ++i)
              trace_stack_push((*stacks)[i], state[saved[i]]);
            std::vector<Tensor> next = bodyStep(state);
            next.push_back(state[n] + 1);
            return next;
          },
          forwardInit, node.maximumIterations);
      // 2. The backward loop: pop the state, apply the body's gradient.
      std::vector<Tensor> final = tfc::while_loop(
          [&](const std::vector<Tensor> &s) -> Tensor {
            return greater(s[0], zero);
          },
          [&](const std::vector<Tensor> &s) {
            // The slice reads no other variable: those are never looked at.
            std::vector<Tensor> x = inits;
            for (size_t i = 0; i < saved.size(); ++i)
              x[saved[i]] = trace_stack_pop((*stacks)[i]);
            std::vector<Tensor> next{s[0] - 1};
            std::vector<Tensor> g = bodyGradient(x, s, &slice);
            next.insert(next.end(), g.begin(), g.end());
            return next;
          },
          backwardInit(counted[n]));
      for (const TracedStack &stack : *stacks)
        trace_stack_free(stack);
      return finish(final);
    }

    // 1. The trip count.
    std::vector<Tensor> countInit = inits;
    countInit.push_back(zero);
    std::vector<Tensor> counted = tfc::while_loop(
        [&](const std::vector<Tensor> &state) { return condStep(state); },
        [&](const std::vector<Tensor> &state) {
          std::vector<Tensor> next = bodyStep(state);
          next.push_back(state[n] + 1);
          return next;
        },
        countInit, node.maximumIterations);
    Tensor tripCount = counted[n];

    // 2. The backward loop: s[0] = k counts up, j = N-1-k.
    std::vector<Tensor> final = tfc::while_loop(
        [&](const std::vector<Tensor> &s) -> Tensor {
          return less(s[0], tripCount);
        },
        [&](const std::vector<Tensor> &s) {
          Tensor j = tripCount - 1 - s[0];
          std::vector<Tensor> init = inits;
          init.push_back(zero);
          std::vector<Tensor> x = tfc::while_loop(
              [&](const std::vector<Tensor> &r) -> Tensor {
                return less(r[n], j);
              },
              [&](const std::vector<Tensor> &r) {
                std::vector<Tensor> next = bodyStep(r);
                next.push_back(r[n] + 1);
                return next;
              },
              init);
          x.resize(n);
          std::vector<Tensor> next{s[0] + 1};
          std::vector<Tensor> g = bodyGradient(x, s, nullptr);
          next.insert(next.end(), g.begin(), g.end());
          return next;
        },
        backwardInit(zero));
    return finish(final);
  }

  case Event::Kind::VarRead:
  case Event::Kind::VarAssign:
  case Event::Kind::Effect:
    break;
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
  Registry &reg = registry();
  RegistryLock lock(reg.mutex);
  if ((tracing && !wrapper) || reg.tapes.empty())
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
  if (wrapper)
    wrapper->log(node);
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
