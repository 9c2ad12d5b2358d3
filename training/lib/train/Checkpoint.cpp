//===- Checkpoint.cpp - Object-based checkpoints, CheckpointManager -------===//
//
// Every restore reads and checks the whole file, matches it key by key
// against the objects' variables, and assigns only once nothing is left to
// fail.
//
//===----------------------------------------------------------------------===//

#include "tfc/train/Checkpoint.h"

#include "tfc/runtime/Error.h"
#include "tfc/train/SafeTensors.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>
#include <set>

using namespace tfc;
using namespace tfc::train;
namespace fs = std::filesystem;

namespace {

using NamedVariables = std::vector<std::pair<std::string, Variable>>;

/// Keys of a variable list that disagree with a file.
struct Mismatch {
  std::vector<std::string> missing, unexpected, mismatched;
  bool empty() const {
    return missing.empty() && unexpected.empty() && mismatched.empty();
  }
  /// "missing: a, b; unexpected: c (and 3 more)": the first few of each.
  std::string describe() const {
    std::string out;
    auto list = [&](const char *what, const std::vector<std::string> &keys) {
      if (keys.empty())
        return;
      constexpr size_t kShown = 5;
      out += (out.empty() ? "" : "; ") + std::string(what) + ": ";
      for (size_t i = 0; i < keys.size() && i < kShown; ++i)
        out += (i ? ", " : "") + keys[i];
      if (keys.size() > kShown)
        out += " (and " + std::to_string(keys.size() - kShown) + " more)";
    };
    list("missing", missing);
    list("unexpected", unexpected);
    list("mismatched", mismatched);
    return out;
  }
};

std::string describe(DType t, const std::vector<int64_t> &shape) {
  return std::string(to_string(t)) + " " + shape_to_string(shape);
}

/// Matches `vars` against `file`; fills `found` with the file's tensor for
/// each variable. Unexpected keys listed in `ignore` are not reported.
Mismatch match(const SafeTensorsFile &file, const NamedVariables &vars,
               std::vector<const Tensor *> &found,
               const std::set<std::string> &ignore = {}) {
  std::map<std::string, const Tensor *> byName;
  for (const auto &[name, t] : file.tensors)
    byName[name] = &t;
  Mismatch m;
  found.clear();
  std::set<std::string> keys;
  for (const auto &[key, var] : vars) {
    keys.insert(key);
    auto it = byName.find(key);
    found.push_back(it == byName.end() ? nullptr : it->second);
    if (it == byName.end()) {
      m.missing.push_back(key);
      continue;
    }
    const Tensor &t = *it->second;
    if (t.dtype() != var.dtype() || t.shape() != var.shape())
      m.mismatched.push_back(
          key + " (file: " + describe(t.dtype(), t.shape()) +
          ", variable: " + describe(var.dtype(), var.shape()) + ")");
  }
  for (const auto &[name, t] : file.tensors)
    if (!keys.count(name) && !ignore.count(name))
      m.unexpected.push_back(name);
  return m;
}

void requireUniqueKeys(const NamedVariables &vars, const std::string &fn) {
  std::set<std::string> keys;
  for (const auto &[key, var] : vars)
    if (!keys.insert(key).second)
      throw InvalidArgumentError(fn + ": two variables have the key '" + key +
                                 "'");
}

/// Assigns each variable its tensor; every check has passed before.
void assignAll(const NamedVariables &vars,
               const std::vector<const Tensor *> &found) {
  for (size_t i = 0; i < vars.size(); ++i) {
    Variable v = vars[i].second;
    v.assign(*found[i]);
  }
}

[[noreturn]] void failMatch(const std::string &fn, const std::string &path,
                            const Mismatch &m) {
  throw InvalidArgumentError(fn + ": '" + path +
                             "' does not match the variables (nothing was "
                             "restored): " +
                             m.describe());
}

void saveNamed(const std::string &path, const NamedVariables &vars,
               const std::map<std::string, std::string> &metadata) {
  std::vector<std::pair<std::string, Tensor>> tensors;
  tensors.reserve(vars.size());
  for (const auto &[key, var] : vars)
    tensors.emplace_back(key, var.value());
  save_safetensors(path, tensors, metadata);
}

constexpr const char *kFormat = "tfc.train.Checkpoint";

} // namespace

//===----------------------------------------------------------------------===//
// save_variables / load_variables
//===----------------------------------------------------------------------===//

void tfc::train::save_variables(const std::string &path,
                                const NamedVariables &vars) {
  requireUniqueKeys(vars, "save_variables");
  saveNamed(path, vars, {});
}

void tfc::train::load_variables(const std::string &path,
                                const NamedVariables &vars) {
  requireUniqueKeys(vars, "load_variables");
  SafeTensorsFile file = load_safetensors(path);
  std::vector<const Tensor *> found;
  Mismatch m = match(file, vars, found);
  if (!m.empty())
    failMatch("load_variables", path, m);
  assignAll(vars, found);
}

//===----------------------------------------------------------------------===//
// Checkpoint
//===----------------------------------------------------------------------===//

struct Checkpoint::State {
  std::vector<std::pair<std::string, CheckpointObject>> objects;
  int64_t counter = 0;
};

namespace {

/// The variables a checkpoint saves, with their keys.
struct Keyed {
  NamedVariables vars;
  /// Keys of the layers' and plain variables (what slots refer to).
  std::map<std::string, Variable> plain;
};

Keyed keyVariables(const Checkpoint::State &s, const std::string &fn) {
  Keyed k;
  std::set<uint64_t> seen;
  std::map<uint64_t, std::string> keyOf;
  auto add = [&](const std::string &key, const Variable &v, bool plain) {
    if (!seen.insert(v.id()).second)
      return; // reached twice: the first key wins
    k.vars.emplace_back(key, v);
    if (plain) {
      keyOf[v.id()] = key;
      k.plain.emplace(key, v);
    }
  };
  for (const auto &[name, obj] : s.objects) {
    if (const auto *layer = std::get_if<keras::Layer>(&obj)) {
      if (!layer->built())
        throw InvalidArgumentError(
            fn + ": layer '" + name + "' (" + layer->name() +
            ") is not built yet, so its variables do not exist: call it on "
            "an input (or build the model) first");
      for (const auto &[path, v] : layer->named_variables())
        add(name + "/" + path, v, true);
    } else if (const auto *var = std::get_if<Variable>(&obj)) {
      add(name, *var, true);
    }
  }
  // Optimizers last: their slots are named after the other objects' keys.
  for (const auto &[name, obj] : s.objects) {
    const auto *opt = std::get_if<keras::Optimizer>(&obj);
    if (!opt)
      continue;
    add(name + "/iterations", opt->iterations(), false);
    std::map<uint64_t, size_t> unnamed;
    for (const keras::SlotVariable &slot : opt->slot_variables()) {
      std::string of;
      if (auto it = keyOf.find(slot.of.id()); it != keyOf.end()) {
        of = it->second;
      } else {
        auto [u, inserted] = unnamed.emplace(slot.of.id(), unnamed.size());
        of = "unnamed_" + std::to_string(u->second);
      }
      add(name + "/" + slot.slot + "/" + of, slot.value, false);
    }
  }
  requireUniqueKeys(k.vars, fn);
  return k;
}

/// The save counter from a checkpoint's metadata, if it has one.
std::optional<int64_t>
counterFromMetadata(const std::map<std::string, std::string> &metadata,
                    const std::string &path) {
  auto it = metadata.find("save_counter");
  if (it == metadata.end())
    return std::nullopt;
  const std::string &text = it->second;
  int64_t n = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0 ||
      text.empty() || text[0] == '+')
    throw InvalidArgumentError("Checkpoint::restore: '" + path +
                               "': metadata save_counter '" + text +
                               "' is not a non-negative integer");
  return n;
}

} // namespace

Checkpoint::Checkpoint(
    std::vector<std::pair<std::string, CheckpointObject>> objects)
    : state_(std::make_shared<State>()) {
  std::set<std::string> names;
  for (const auto &[name, obj] : objects) {
    if (name.empty())
      throw InvalidArgumentError("Checkpoint: an object has an empty name");
    if (name == "__metadata__")
      throw InvalidArgumentError(
          "Checkpoint: the name '__metadata__' is reserved");
    if (!names.insert(name).second)
      throw InvalidArgumentError("Checkpoint: two objects are named '" + name +
                                 "'");
    bool empty = std::visit(
        [](const auto &o) {
          if constexpr (std::is_same_v<std::decay_t<decltype(o)>, Variable>)
            return !o.state();
          else
            return !o;
        },
        obj);
    if (empty)
      throw InvalidArgumentError("Checkpoint: object '" + name +
                                 "' is an empty handle");
  }
  state_->objects = std::move(objects);
}

int64_t Checkpoint::save_counter() const { return state_->counter; }

NamedVariables Checkpoint::named_variables() const {
  return keyVariables(*state_, "Checkpoint::named_variables").vars;
}

void Checkpoint::write(const std::string &path, int64_t n) const {
  Keyed k = keyVariables(*state_, "Checkpoint::save");
  saveNamed(path, k.vars,
            {{"format", kFormat}, {"save_counter", std::to_string(n)}});
}

std::string Checkpoint::save(const std::string &prefix) {
  if (prefix.empty())
    throw InvalidArgumentError("Checkpoint::save: empty prefix");
  int64_t n = state_->counter + 1;
  std::string path = prefix + "-" + std::to_string(n) + ".safetensors";
  fs::path dir = fs::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty() && (fs::create_directories(dir, ec), ec))
    throw InvalidArgumentError("Checkpoint::save: cannot create directory '" +
                               dir.string() + "': " + ec.message());
  write(path, n);
  state_->counter = n;
  return path;
}

void Checkpoint::restore(const std::string &path) {
  const std::string fn = "Checkpoint::restore";
  SafeTensorsFile file = load_safetensors(path);
  std::optional<int64_t> counter = counterFromMetadata(file.metadata, path);
  Keyed k = keyVariables(*state_, fn);
  std::vector<const Tensor *> found;
  Mismatch m = match(file, k.vars, found);

  // Deferred slots: unexpected `<optimizer>/<slot>/<key>` entries for a
  // variable the optimizer has no slots for yet are created by building it
  // -- but only once everything else matches.
  std::map<size_t, std::set<std::string>> targets; // object index -> keys
  std::set<std::string> slotKeys;
  for (const std::string &key : m.unexpected) {
    for (size_t i = 0; i < state_->objects.size(); ++i) {
      const auto &[name, obj] = state_->objects[i];
      const auto *opt = std::get_if<keras::Optimizer>(&obj);
      if (!opt || key.compare(0, name.size() + 1, name + "/") != 0)
        continue;
      std::string rest = key.substr(name.size() + 1);
      size_t slash = rest.find('/');
      if (slash == std::string::npos)
        continue;
      auto target = k.plain.find(rest.substr(slash + 1));
      if (target == k.plain.end())
        continue;
      bool hasSlot = false;
      for (const keras::SlotVariable &s : opt->slot_variables())
        hasSlot = hasSlot || s.of.id() == target->second.id();
      if (hasSlot)
        continue;
      targets[i].insert(target->first);
      slotKeys.insert(key);
    }
  }
  if (!targets.empty()) {
    Mismatch rest = match(file, k.vars, found, slotKeys);
    if (!rest.empty())
      failMatch(fn, path, rest);
    for (const auto &[i, keys] : targets) {
      std::vector<Variable> vars; // in key order, as fit() would build
      for (const auto &[key, v] : k.vars)
        if (keys.count(key))
          vars.push_back(v);
      std::get<keras::Optimizer>(state_->objects[i].second).build(vars);
    }
    k = keyVariables(*state_, fn);
    m = match(file, k.vars, found);
  }
  if (!m.empty())
    failMatch(fn, path, m);
  assignAll(k.vars, found);
  if (counter)
    state_->counter = *counter;
}

//===----------------------------------------------------------------------===//
// CheckpointManager
//===----------------------------------------------------------------------===//

struct CheckpointManager::State {
  Checkpoint checkpoint;
  std::string directory;
  int maxToKeep;
  std::vector<std::pair<int64_t, std::string>> kept; ///< Oldest first.
};

namespace {

/// n for a file named "ckpt-<n>.safetensors" (n >= 1, no leading zeros).
std::optional<int64_t> checkpointNumber(const std::string &name) {
  const std::string head = "ckpt-", tail = ".safetensors";
  if (name.size() <= head.size() + tail.size() ||
      name.compare(0, head.size(), head) != 0 ||
      name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
    return std::nullopt;
  std::string digits =
      name.substr(head.size(), name.size() - head.size() - tail.size());
  if (digits[0] < '1' || digits[0] > '9')
    return std::nullopt;
  int64_t n = 0;
  auto [end, ec] =
      std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || end != digits.data() + digits.size())
    return std::nullopt;
  return n;
}

} // namespace

CheckpointManager::CheckpointManager(Checkpoint checkpoint,
                                     std::string directory, int max_to_keep)
    : state_(std::make_shared<State>(State{
          std::move(checkpoint), std::move(directory), max_to_keep, {}})) {
  const std::string &dir = state_->directory;
  if (dir.empty())
    throw InvalidArgumentError("CheckpointManager: empty directory");
  if (max_to_keep < 1)
    throw InvalidArgumentError("CheckpointManager: max_to_keep must be "
                               "positive, not " +
                               std::to_string(max_to_keep));
  std::error_code ec;
  if (!fs::exists(dir, ec))
    return;
  if (!fs::is_directory(dir, ec))
    throw InvalidArgumentError("CheckpointManager: '" + dir +
                               "' is not a directory");
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    std::optional<int64_t> n = checkpointNumber(it->path().filename().string());
    std::error_code typeEc;
    if (n && it->is_regular_file(typeEc))
      state_->kept.emplace_back(*n, it->path().string());
  }
  if (ec)
    throw InvalidArgumentError("CheckpointManager: cannot read directory '" +
                               dir + "': " + ec.message());
  std::sort(state_->kept.begin(), state_->kept.end());
}

std::string CheckpointManager::save() {
  State &s = *state_;
  int64_t highest = s.kept.empty() ? 0 : s.kept.back().first;
  int64_t n = std::max(highest, s.checkpoint.save_counter()) + 1;
  std::error_code ec;
  fs::create_directories(s.directory, ec);
  if (ec)
    throw InvalidArgumentError("CheckpointManager::save: cannot create "
                               "directory '" +
                               s.directory + "': " + ec.message());
  std::string path =
      (fs::path(s.directory) / ("ckpt-" + std::to_string(n) + ".safetensors"))
          .string();
  s.checkpoint.write(path, n);
  s.checkpoint.state_->counter = n;
  s.kept.emplace_back(n, path);
  while (s.kept.size() > size_t(s.maxToKeep)) {
    std::string old = s.kept.front().second;
    if (!fs::remove(old, ec) && ec)
      throw InvalidArgumentError("CheckpointManager::save: saved '" + path +
                                 "' but cannot delete the old checkpoint '" +
                                 old + "': " + ec.message());
    s.kept.erase(s.kept.begin());
  }
  return path;
}

std::optional<std::string> CheckpointManager::latest_checkpoint() const {
  if (state_->kept.empty())
    return std::nullopt;
  return state_->kept.back().second;
}

std::vector<std::string> CheckpointManager::checkpoints() const {
  std::vector<std::string> out;
  for (const auto &[n, path] : state_->kept)
    out.push_back(path);
  return out;
}

const std::string &CheckpointManager::directory() const {
  return state_->directory;
}
