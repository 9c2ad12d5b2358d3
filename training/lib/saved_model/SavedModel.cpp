//===- SavedModel.cpp - save and load inference functions -----------------===//
//
// The serving function reads every weight first, in the model's variable
// order, so the traced function's variable arguments come in that order
// (the tracer adds one on a variable's first read) and the weights file
// lists them in the same order.
//
// The batch dim: save() traces with a dynamic batch (every built-in layer
// traces so: biases are broadcast `like` their activations, recurrent
// states like a column of the input). Where a model's dynamic-batch trace
// fails (TFC_LOG=retrace says why), it saves two specialisations instead,
// for batches of kChunk rows and of one row, and load() serves any batch
// with them in chunks -- exact for models whose inference treats rows
// independently, which save() checks on a sample before it returns.
//
//===----------------------------------------------------------------------===//

#include "tfc/saved_model/SavedModel.h"

#include "tfc/JIT/CompiledModule.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Function.h"
#include "tfc/frontend/Ops.h"
#include "tfc/frontend/Random.h"
#include "tfc/runtime/Error.h"
#include "tfc/train/SafeTensors.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace fs = std::filesystem;

namespace tfc::saved_model {

namespace {

constexpr const char *kSignature = "serving_default";
constexpr const char *kFormat = "tfc.saved_model";
/// The larger fixed batch of a saved model without a dynamic batch dim.
constexpr int64_t kChunk = 32;

std::string shapeStr(const keras::Shape &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i)
      r += ',';
    r += std::to_string(s[i]);
  }
  return r + "]";
}

keras::Shape parseShape(const std::string &text, const std::string &file) {
  keras::Shape s;
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    throw Error("saved_model: " + file + ": bad input_shape '" + text + "'");
  std::stringstream in(text.substr(1, text.size() - 2));
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t used = 0;
    long long v = -1;
    try {
      v = std::stoll(item, &used);
    } catch (const std::exception &) {
      used = 0;
    }
    if (used != item.size() || v < 0)
      throw Error("saved_model: " + file + ": bad input_shape '" + text + "'");
    s.push_back(v);
  }
  return s;
}

DType parseDType(const std::string &name, const std::string &file) {
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                  DType::Float64})
    if (to_string(t) == name)
      return t;
  throw Error("saved_model: " + file + ": unknown input dtype '" + name + "'");
}

/// "name:batch,name:batch" (batch -1: dynamic), as save() writes it.
std::vector<std::pair<std::string, int64_t>>
parseFunctions(const std::string &text, const std::string &file) {
  std::vector<std::pair<std::string, int64_t>> r;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t colon = item.rfind(':');
    long long batch = 0;
    size_t used = 0;
    if (colon != std::string::npos && colon > 0) {
      try {
        batch = std::stoll(item.substr(colon + 1), &used);
      } catch (const std::exception &) {
        used = 0;
      }
    }
    if (colon == std::string::npos || used != item.size() - colon - 1 ||
        !(batch == -1 || batch >= 1))
      throw Error("saved_model: " + file + ": bad functions entry '" + item +
                  "'");
    r.emplace_back(item.substr(0, colon), batch);
  }
  bool dynamic = r.size() == 1 && r[0].second == -1;
  bool fixed = !r.empty() && r.back().second == 1;
  if (!dynamic && !fixed)
    throw Error("saved_model: " + file + ": functions '" + text +
                "' serve no batch size");
  return r;
}

void writeFile(const fs::path &path, const std::string &bytes) {
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out)
      throw Error("saved_model::save: cannot write " + tmp.string());
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error("saved_model::save: cannot write " + path.string());
  }
}

std::string readFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("saved_model::load: cannot read " + path.string() +
                " (not a saved model directory?)");
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

double maxAbsDiff(const Tensor &a, const Tensor &b) {
  return reduce_max(abs(cast(a, DType::Float64) - cast(b, DType::Float64)))
      .item<double>();
}

} // namespace

struct Loaded::Impl {
  jit::CompiledModule module;
  /// (function, batch) pairs; one with batch -1 when the batch is dynamic,
  /// else the larger fixed batch first.
  std::vector<std::pair<std::string, int64_t>> functions;
  keras::Shape inputShape; // without the batch dim
  DType inputDType;
  std::vector<Tensor> weights;

  Tensor run(const std::string &fn, const Tensor &x) const {
    std::vector<Tensor> all{x};
    all.insert(all.end(), weights.begin(), weights.end());
    std::vector<Tensor> out = module.call(fn, all);
    if (out.size() != 1)
      throw RuntimeError("saved_model: the function returned " +
                         std::to_string(out.size()) + " results, expected 1");
    return out[0];
  }
};

Loaded::Loaded(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

std::vector<std::string> Loaded::signatures() const { return {kSignature}; }

std::vector<Tensor> Loaded::call(std::string_view signature,
                                 const std::vector<Tensor> &args) const {
  if (signature != kSignature)
    throw InvalidArgumentError("saved_model: unknown signature '" +
                               std::string(signature) + "' (this model has '" +
                               kSignature + "')");
  if (args.size() != 1)
    throw InvalidArgumentError(std::string("saved_model: ") + kSignature +
                               " takes 1 argument, got " +
                               std::to_string(args.size()));
  const Tensor &x = args[0];
  keras::Shape want{-1};
  want.insert(want.end(), impl_->inputShape.begin(), impl_->inputShape.end());
  bool ok = x.defined() && x.dtype() == impl_->inputDType &&
            x.rank() == int64_t(want.size());
  for (size_t i = 1; ok && i < want.size(); ++i)
    ok = x.shape()[i] == want[i];
  if (!ok)
    throw InvalidArgumentError(
        std::string("saved_model: ") + kSignature + " expects " +
        std::string(to_string(impl_->inputDType)) + " of shape " +
        shapeStr(want) + " (-1: any batch), got " +
        (x.defined() ? std::string(to_string(x.dtype())) + " of shape " +
                           shapeStr(x.shape())
                     : std::string("an undefined tensor")));
  const auto &fns = impl_->functions;
  if (fns.size() == 1 && fns[0].second < 0)
    return {impl_->run(fns[0].first, x)};
  // Fixed batches: full chunks, then single rows.
  const int64_t n = x.shape()[0];
  std::vector<Tensor> parts;
  int64_t at = 0;
  for (const auto &[fn, batch] : fns)
    for (; n - at >= batch; at += batch) {
      std::vector<int64_t> begin(size_t(x.rank()), 0), size = x.shape();
      begin[0] = at, size[0] = batch;
      parts.push_back(impl_->run(fn, slice(x, begin, size)));
    }
  if (parts.empty()) // a batch of 0 rows
    throw InvalidArgumentError(std::string("saved_model: ") + kSignature +
                               " needs at least one row");
  return {parts.size() == 1 ? parts[0] : concat(parts, 0)};
}

void save(const keras::Model &model, const std::string &dir,
          keras::Shape input_shape, DType dtype) {
  if (!model)
    throw InvalidArgumentError("saved_model::save: empty model");
  for (int64_t d : input_shape)
    if (d < 1)
      throw InvalidArgumentError(
          "saved_model::save: input_shape (without the batch dim) must be "
          "positive, got " +
          shapeStr(input_shape));
  keras::Model m = model;
  auto sample = [&](int64_t batch) {
    keras::Shape s{batch};
    s.insert(s.end(), input_shape.begin(), input_shape.end());
    return cast(random::Generator::from_seed(7).normal(s), dtype);
  };
  if (!m.built())
    (void)m(sample(1), false);
  std::vector<std::pair<std::string, Variable>> named = m.named_variables();
  std::vector<Variable> vars;
  for (auto &[path, v] : named)
    vars.push_back(v);
  auto reader = [m, vars](const Tensor &x) {
    // Every weight read first, in order: the traced arguments' order.
    for (const Variable &v : vars)
      (void)v.value();
    return m(x, false);
  };
  Tensor x3 = sample(3);
  Tensor y3 = m(x3, false);
  std::string text, functions;
  {
    // Two batch sizes: the second trace makes the batch dim dynamic (a dim
    // of 1 is never relaxed: it may be a broadcast).
    auto serve =
        function(reader, {.reduce_retracing = true, .name = kSignature});
    (void)serve(sample(2));
    (void)serve(x3);
    text = serve.ir("tfc");
    functions = std::string(kSignature) + ":-1";
  }
  if (text.find("(%arg0: tensor<?x") == std::string::npos) {
    // Fixed batches, both functions in one module.
    auto big = function(reader, {.name = std::string(kSignature) + "_" +
                                         std::to_string(kChunk)});
    auto one = function(reader, {.name = std::string(kSignature) + "_1"});
    (void)big(sample(kChunk));
    (void)one(sample(1));
    std::string a = big.ir("tfc"), b = one.ir("tfc");
    // Printed modules are "module {\n" ... "}\n": splice b's body into a.
    const std::string head = "module {\n";
    size_t aEnd = a.rfind('}'), bEnd = b.rfind('}');
    if (a.rfind(head, 0) != 0 || b.rfind(head, 0) != 0 ||
        aEnd == std::string::npos || bEnd == std::string::npos)
      throw RuntimeError("saved_model::save: unexpected module text");
    text =
        a.substr(0, aEnd) + b.substr(head.size(), bEnd - head.size()) + "}\n";
    functions = std::string(kSignature) + "_" + std::to_string(kChunk) + ":" +
                std::to_string(kChunk) + "," + kSignature + "_1:1";
  }

  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw Error("saved_model::save: cannot create " + dir + ": " +
                ec.message());
  std::vector<std::pair<std::string, Tensor>> weights;
  std::string names;
  for (size_t i = 0; i < named.size(); ++i) {
    weights.emplace_back(named[i].first, named[i].second.value());
    names += (i ? "," : "") + named[i].first;
  }
  writeFile(fs::path(dir) / kModuleFile, jit::to_bytecode(text));
  train::save_safetensors((fs::path(dir) / kVariablesFile).string(), weights,
                          {{"format", kFormat},
                           {"signature", kSignature},
                           {"functions", functions},
                           {"input_shape", shapeStr(input_shape)},
                           {"input_dtype", std::string(to_string(dtype))},
                           {"variables", names}});
  // Never a silently different model: the loaded function must agree
  // (3 rows: served row by row when the batch is fixed).
  Tensor got = load(dir).call(kSignature, {x3})[0];
  double scale = 1 + reduce_max(abs(cast(y3, DType::Float64))).item<double>();
  if (got.shape() != y3.shape() || !(maxAbsDiff(got, y3) <= 1e-5 * scale))
    throw RuntimeError(
        "saved_model::save: the saved function disagrees with the model on a "
        "sample input (a model whose inference mixes rows of a batch cannot "
        "be saved until the batch dim can stay dynamic)");
}

Loaded load(const std::string &dir) {
  fs::path vpath = fs::path(dir) / kVariablesFile;
  if (!fs::is_directory(dir))
    throw Error("saved_model::load: " + dir + " is not a directory");
  train::SafeTensorsFile file = train::load_safetensors(vpath.string());
  auto meta = [&](const char *key) {
    auto it = file.metadata.find(key);
    if (it == file.metadata.end())
      throw Error("saved_model::load: " + vpath.string() +
                  ": no metadata entry '" + key + "' (not a tfc saved model)");
    return it->second;
  };
  if (meta("format") != kFormat)
    throw Error("saved_model::load: " + vpath.string() + ": format '" +
                meta("format") + "', expected '" + kFormat + "'");
  auto impl = std::make_shared<Loaded::Impl>(Loaded::Impl{
      jit::CompiledModule::from_source(readFile(fs::path(dir) / kModuleFile)),
      parseFunctions(meta("functions"), vpath.string()),
      parseShape(meta("input_shape"), vpath.string()),
      parseDType(meta("input_dtype"), vpath.string()),
      {}});
  auto fns = impl->module.functions();
  for (const auto &[name, batch] : impl->functions)
    if (std::find(fns.begin(), fns.end(), name) == fns.end())
      throw Error("saved_model::load: the module has no function '" + name +
                  "'");
  // The file keeps its tensors sorted by name; the function takes them in
  // the model's variable order, which the metadata lists.
  std::map<std::string, Tensor> byName(file.tensors.begin(),
                                       file.tensors.end());
  std::stringstream names(meta("variables"));
  std::string name;
  while (std::getline(names, name, ',')) {
    auto it = byName.find(name);
    if (it == byName.end())
      throw Error("saved_model::load: " + vpath.string() + ": no tensor '" +
                  name + "'");
    impl->weights.push_back(it->second);
    byName.erase(it);
  }
  if (!byName.empty())
    throw Error("saved_model::load: " + vpath.string() + ": tensor '" +
                byName.begin()->first + "' is not a variable of the model");
  return Loaded(std::move(impl));
}

} // namespace tfc::saved_model
