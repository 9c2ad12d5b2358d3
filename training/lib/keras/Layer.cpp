//===- Layer.cpp - Layer handles, building, weights, naming ---------------===//

#include "tfc/keras/Layer.h"

#include "Functional.h"

#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Error.h"

#include <cxxabi.h>

#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <typeinfo>

namespace tfc::keras {

namespace {

/// Keras's naming.to_snake_case: "MaxPooling2D" -> "max_pooling2d".
std::string snakeCase(const std::string &name) {
  static const std::regex upperWord("(.)([A-Z][a-z]+)");
  static const std::regex lowerUpper("([a-z])([A-Z])");
  std::string s = std::regex_replace(name, upperWord, "$1_$2");
  s = std::regex_replace(s, lowerUpper, "$1_$2");
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// "dense", then "dense_1", "dense_2", ... per process (Keras's
/// backend.unique_object_name).
std::string uniqueName(const std::string &base) {
  static std::mutex mu;
  static std::map<std::string, int> counts;
  std::lock_guard<std::mutex> lock(mu);
  int n = counts[base]++;
  return n == 0 ? base : base + "_" + std::to_string(n);
}

const std::shared_ptr<LayerBase> &require(const std::shared_ptr<LayerBase> &p,
                                          const char *what) {
  if (!p)
    throw InvalidArgumentError(std::string("Layer::") + what +
                               ": empty layer handle");
  return p;
}

std::string shapeStr(const Shape &s) {
  std::string r = "(";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + (s.size() == 1 ? ",)" : ")");
}

} // namespace

//===----------------------------------------------------------------------===//
// LayerBase
//===----------------------------------------------------------------------===//

LayerBase::LayerBase(std::string name) : name_(std::move(name)) {}
LayerBase::~LayerBase() = default;

void LayerBase::build(const Shape &) {}

std::string LayerBase::class_name() const {
  const char *mangled = typeid(*this).name();
  int status = 0;
  char *demangled = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && demangled ? demangled : mangled;
  std::free(demangled);
  // The unqualified name, without template arguments.
  if (auto lt = name.find('<'); lt != std::string::npos)
    name.resize(lt);
  if (auto colon = name.rfind("::"); colon != std::string::npos)
    name = name.substr(colon + 2);
  return name;
}

const std::string &LayerBase::name() const {
  if (name_.empty())
    name_ = uniqueName(snakeCase(class_name()));
  return name_;
}

Shape LayerBase::compute_output_shape(const Shape &input_shape) {
  Shape concrete = input_shape;
  for (int64_t &d : concrete)
    if (d < 0)
      d = 1;
  ensure_built(concrete);
  Tensor y = call(zeros(concrete, DType::Float32), false);
  Shape out = y.shape();
  if (!out.empty() && !input_shape.empty() && input_shape[0] < 0)
    out[0] = input_shape[0];
  return out;
}

std::vector<Tensor> LayerBase::call_multi(const std::vector<Tensor> &xs,
                                          bool training) {
  if (xs.size() != 1)
    throw InvalidArgumentError("Layer " + name() + " (" + class_name() +
                               "): takes 1 input, got " +
                               std::to_string(xs.size()));
  if (!xs[0].defined())
    throw InvalidArgumentError("Layer " + name() + ": undefined input");
  ensure_built(xs[0].shape());
  return {call(xs[0], training)};
}

void LayerBase::ensure_built(const Shape &input_shape) {
  if (built_)
    return;
  if (tfc::detail::active_trace_hook())
    throw InvalidArgumentError(
        "Layer " + name() + " (" + class_name() +
        "): first called inside a tfc::function; call it once eagerly (or "
        "build the model) so its weights exist before tracing (input shape " +
        shapeStr(input_shape) + ")");
  build(input_shape);
  built_ = true;
}

Variable LayerBase::add_weight(const std::string &name, Shape shape,
                               const Initializer &init, bool trainable,
                               DType dtype) {
  for (const Weight &w : weights_)
    if (w.name == name)
      throw InvalidArgumentError("Layer " + this->name() +
                                 ": add_weight: a weight named '" + name +
                                 "' exists already");
  Variable v(init(shape, dtype), this->name() + "/" + name, trainable);
  weights_.push_back({name, v, trainable});
  return v;
}

Layer LayerBase::track(Layer sublayer) {
  if (!sublayer)
    throw InvalidArgumentError("Layer " + name() +
                               ": track: empty layer handle");
  if (sublayer.get() == this)
    throw InvalidArgumentError("Layer " + name() +
                               ": track: a layer cannot "
                               "track itself");
  sublayers_.push_back(sublayer);
  return sublayer;
}

//===----------------------------------------------------------------------===//
// Layer
//===----------------------------------------------------------------------===//

Layer::Layer(std::shared_ptr<LayerBase> impl) : impl_(std::move(impl)) {}

Tensor Layer::operator()(const Tensor &x, bool training) const {
  const auto &impl = require(impl_, "operator()");
  if (!x.defined())
    throw InvalidArgumentError("Layer " + impl->name() + " (" +
                               impl->class_name() + "): undefined input");
  auto run = [&] {
    impl->ensure_built(x.shape());
    Tensor y = impl->call(x, training);
    if (y.defined())
      impl->last_output_shape_ = y.shape();
    return y;
  };
  // On a symbolic Input: record the call into the functional graph.
  if (recorder::is_symbolic(x))
    return recorder::record_layer_call(*this, x, training, run);
  return run();
}

void LayerBase::collect(const std::string &prefix,
                        std::set<const LayerBase *> &seen,
                        std::vector<Named> &out) const {
  if (!seen.insert(this).second)
    return;
  for (const Weight &w : weights_)
    out.push_back({prefix + w.name, w.var, w.trainable});
  std::map<std::string, int> keys;
  for (const Layer &sub : sublayers_) {
    std::string base = snakeCase(sub.get()->class_name());
    int n = keys[base]++;
    std::string key = n == 0 ? base : base + "_" + std::to_string(n);
    sub.get()->collect(prefix + key + "/", seen, out);
  }
}

template <class F> void Layer::forEachWeight(const char *what, F &&f) const {
  std::set<const LayerBase *> seen;
  std::vector<LayerBase::Named> out;
  require(impl_, what)->collect("", seen, out);
  for (const LayerBase::Named &n : out)
    f(n.path, n.var, n.trainable);
}

std::vector<Variable> Layer::trainable_variables() const {
  std::vector<Variable> r;
  forEachWeight("trainable_variables",
                [&](const std::string &, const Variable &v, bool trainable) {
                  if (trainable)
                    r.push_back(v);
                });
  return r;
}

std::vector<Variable> Layer::non_trainable_variables() const {
  std::vector<Variable> r;
  forEachWeight("non_trainable_variables",
                [&](const std::string &, const Variable &v, bool trainable) {
                  if (!trainable)
                    r.push_back(v);
                });
  return r;
}

std::vector<Variable> Layer::variables() const {
  std::vector<Variable> r;
  forEachWeight("variables", [&](const std::string &, const Variable &v, bool) {
    r.push_back(v);
  });
  return r;
}

std::vector<std::pair<std::string, Variable>> Layer::named_variables() const {
  std::vector<std::pair<std::string, Variable>> r;
  forEachWeight("named_variables",
                [&](const std::string &path, const Variable &v, bool) {
                  r.emplace_back(path, v);
                });
  return r;
}

int64_t Layer::count_params() const {
  int64_t total = 0;
  forEachWeight("count_params",
                [&](const std::string &, const Variable &v, bool) {
                  int64_t e = 1;
                  for (int64_t d : v.shape())
                    e *= d;
                  total += e;
                });
  return total;
}

const std::string &Layer::name() const {
  return require(impl_, "name")->name();
}

std::string Layer::class_name() const {
  return require(impl_, "class_name")->class_name();
}

bool Layer::built() const { return require(impl_, "built")->built(); }

std::vector<Layer> Layer::layers() const {
  return require(impl_, "layers")->sublayers_;
}

} // namespace tfc::keras
