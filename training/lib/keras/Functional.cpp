//===- Functional.cpp - Input, functional(): recorded graphs of layers ----===//
//
// While any Input of this thread is not yet part of a model, an OpObserver
// records each eager op that reads a placeholder (Keras does the same with
// TensorFlow ops on KerasTensors); Layer::operator() records layer calls on
// placeholders and turns op recording off inside them. functional() keeps
// the nodes that lead from the inputs to the outputs, in recording order,
// and replays them: layers through Layer::operator(), ops through the
// dispatch funnel with their recorded attributes.
//
//===----------------------------------------------------------------------===//

#include "Functional.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/keras/Model.h"
#include "tfc/runtime/Error.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace tfc::keras {

namespace {

struct Node {
  enum Kind { Input, LayerCall, Op } kind;
  Layer layer;             // LayerCall
  OpKind op{};             // Op
  OpAttrs attrs;           // Op
  std::vector<int> inputs; // node ids; -1: the next of `constants`
  std::vector<Tensor> constants;
  Tensor value; // the placeholder value (keeps its id alive)
};

/// This thread's recorded graph.
struct Graph : tfc::detail::OpObserver {
  std::vector<Node> nodes;
  std::unordered_map<const void *, int> byId;
  int suppress = 0;   // inside a layer call on a placeholder
  int openInputs = 0; // Inputs not yet in a model: the observer is pushed
  std::set<int> consumed;

  int idOf(const Tensor &t) const {
    if (!t.defined())
      return -1;
    auto it = byId.find(t.id());
    return it == byId.end() ? -1 : it->second;
  }
  int add(Node n) {
    int id = int(nodes.size());
    byId[n.value.id()] = id;
    nodes.push_back(std::move(n));
    return id;
  }
  void recorded(OpKind kind, const Tensor *ins, size_t n, const OpAttrs &attrs,
                const Tensor &output) override {
    if (suppress)
      return;
    Node node{Node::Op, Layer(), kind, attrs, {}, {}, output};
    bool symbolic = false;
    for (size_t i = 0; i < n; ++i) {
      int id = idOf(ins[i]);
      symbolic |= id >= 0;
      node.inputs.push_back(id);
      if (id < 0)
        node.constants.push_back(ins[i]);
    }
    if (symbolic)
      add(std::move(node));
  }
};

Graph &graph() {
  thread_local Graph g;
  return g;
}

std::string shapeStr(const Shape &s) { return shape_to_string(s); }

[[noreturn]] void fail(const std::string &what) {
  throw InvalidArgumentError("functional: " + what);
}

/// The network functional() builds: the kept nodes, renumbered.
class FunctionalNetwork : public LayerBase {
public:
  FunctionalNetwork(std::vector<Node> nodes, std::vector<int> inputs,
                    std::vector<int> outputs, std::string name)
      : LayerBase(std::move(name)), nodes(std::move(nodes)),
        inputs(std::move(inputs)), outputs(std::move(outputs)) {
    std::set<const LayerBase *> tracked;
    for (const Node &n : this->nodes)
      if (n.kind == Node::LayerCall && tracked.insert(n.layer.get()).second)
        track(n.layer);
    set_built(); // its layers were built on the placeholders
  }
  std::string class_name() const override { return "Functional"; }
  size_t num_inputs() const override { return inputs.size(); }
  size_t num_outputs() const override { return outputs.size(); }

  Tensor call(const Tensor &x, bool training) override {
    if (inputs.size() != 1 || outputs.size() != 1)
      throw InvalidArgumentError(
          "Model " + name() + ": has " + std::to_string(inputs.size()) +
          " inputs and " + std::to_string(outputs.size()) +
          " outputs; call it with a vector of inputs");
    return run({x}, training)[0];
  }
  std::vector<Tensor> call_multi(const std::vector<Tensor> &xs,
                                 bool training) override {
    return run(xs, training);
  }
  Shape compute_output_shape(const Shape &) override {
    Shape s = nodes[size_t(outputs[0])].value.shape();
    if (!s.empty())
      s[0] = -1;
    return s;
  }

private:
  std::vector<Tensor> run(const std::vector<Tensor> &xs, bool training) {
    if (xs.size() != inputs.size())
      throw InvalidArgumentError("Model " + name() + ": takes " +
                                 std::to_string(inputs.size()) +
                                 " inputs, got " + std::to_string(xs.size()));
    std::vector<Tensor> env(nodes.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Shape &want = nodes[size_t(inputs[i])].value.shape();
      const Tensor &x = xs[i];
      bool ok = x.defined() && x.rank() == int64_t(want.size()) &&
                x.dtype() == nodes[size_t(inputs[i])].value.dtype();
      for (size_t d = 1; ok && d < want.size(); ++d)
        ok = x.shape()[d] == want[d];
      if (!ok) {
        Shape w = want;
        w[0] = -1;
        throw InvalidArgumentError(
            "Model " + name() + ": input " + std::to_string(i) + " must be " +
            std::string(to_string(nodes[size_t(inputs[i])].value.dtype())) +
            " of shape " + shapeStr(w) + " (-1: any batch), got " +
            (x.defined()
                 ? std::string(to_string(x.dtype())) + " " + shapeStr(x.shape())
                 : std::string("an undefined tensor")));
      }
      env[size_t(inputs[i])] = x;
    }
    for (size_t id = 0; id < nodes.size(); ++id) {
      const Node &n = nodes[id];
      if (n.kind == Node::Input)
        continue;
      std::vector<Tensor> args;
      size_t c = 0;
      for (int in : n.inputs)
        args.push_back(in >= 0 ? env[size_t(in)] : n.constants[c++]);
      env[id] =
          n.kind == Node::LayerCall
              ? n.layer(args[0], training)
              : tfc::detail::dispatch(n.op, args.data(), args.size(), n.attrs);
    }
    std::vector<Tensor> out;
    for (int o : outputs)
      out.push_back(env[size_t(o)]);
    return out;
  }

  std::vector<Node> nodes;
  std::vector<int> inputs, outputs;
};

} // namespace

namespace recorder {

bool is_symbolic(const Tensor &x) {
  Graph &g = graph();
  return !g.nodes.empty() && g.idOf(x) >= 0;
}

Tensor record_layer_call(const Layer &layer, const Tensor &x, bool,
                         const std::function<Tensor()> &run) {
  Graph &g = graph();
  int in = g.idOf(x);
  ++g.suppress;
  Tensor y;
  try {
    y = run();
  } catch (...) {
    --g.suppress;
    throw;
  }
  --g.suppress;
  Node node{Node::LayerCall, layer, {}, {}, {in}, {}, y};
  // A layer that returns its input (Dropout in inference) still gets a
  // node of its own: a new handle to the same value.
  if (g.idOf(y) >= 0)
    node.value = y = reshape(y, y.shape());
  g.add(std::move(node));
  return y;
}

} // namespace recorder

Tensor Input(Shape shape, DType dtype) {
  for (int64_t d : shape)
    if (d < 0)
      fail("Input: dims must be known (the batch dim is implied), got " +
           shapeStr(shape));
  Shape full{1};
  full.insert(full.end(), shape.begin(), shape.end());
  Graph &g = graph();
  Node node{Node::Input, Layer(), {}, {}, {}, {}, zeros(full, dtype)};
  Tensor value = node.value;
  g.add(std::move(node));
  if (g.openInputs++ == 0)
    tfc::detail::push_op_observer(&g);
  return value;
}

Model functional(std::vector<Tensor> inputs, std::vector<Tensor> outputs,
                 std::string name) {
  Graph &g = graph();
  if (inputs.empty() || outputs.empty())
    fail("needs at least one input and one output");
  std::vector<int> in, out;
  for (size_t i = 0; i < inputs.size(); ++i) {
    int id = g.idOf(inputs[i]);
    if (id < 0 || g.nodes[size_t(id)].kind != Node::Input)
      fail("inputs[" + std::to_string(i) + "] is not a keras::Input");
    in.push_back(id);
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    int id = g.idOf(outputs[i]);
    if (id < 0)
      fail("outputs[" + std::to_string(i) +
           "] was not computed from a keras::Input (by layers or tfc ops)");
    out.push_back(id);
  }
  // The nodes the outputs need, found backwards; every Input they reach
  // must be one of `inputs`.
  std::set<int> needed;
  std::vector<int> stack = out;
  while (!stack.empty()) {
    int id = stack.back();
    stack.pop_back();
    if (!needed.insert(id).second)
      continue;
    const Node &n = g.nodes[size_t(id)];
    if (n.kind == Node::Input &&
        std::find(in.begin(), in.end(), id) == in.end())
      fail("an output depends on an Input of shape " +
           shapeStr(n.value.shape()) + " that is not among the inputs");
    for (int p : n.inputs)
      if (p >= 0)
        stack.push_back(p);
  }
  std::map<int, int> renumber;
  std::vector<Node> kept;
  for (int id : needed) { // std::set: recording order
    renumber[id] = int(kept.size());
    kept.push_back(g.nodes[size_t(id)]);
  }
  for (Node &n : kept)
    for (int &p : n.inputs)
      if (p >= 0)
        p = renumber.at(p);
  std::vector<int> newIn, newOut;
  for (int id : in) {
    if (!renumber.count(id))
      fail("an input is not used by any output");
    newIn.push_back(renumber.at(id));
  }
  for (int id : out)
    newOut.push_back(renumber.at(id));
  for (int id : in)
    if (g.consumed.insert(id).second && --g.openInputs == 0)
      tfc::detail::pop_op_observer(&g);
  return Model(make_layer<FunctionalNetwork>(
      std::move(kept), std::move(newIn), std::move(newOut), std::move(name)));
}

} // namespace tfc::keras
