//===- Tracing.cpp - tfc::function: tracing into the tfc dialect -*- C++
//-*-===//
//
// A TraceSession is the TraceHook installed while a tfc::function runs its
// C++ callable on symbolic tensors. Every op appends a tfc op through an
// OpBuilder, located at the user's source line; cond/while_loop trace their
// bodies into the regions of tfc.if/tfc.while; variables become `!tfc.var`
// arguments read and written with tfc.var_* ops. The finished module is
// compiled by the JIT and cached under the call's signature.
//
//===----------------------------------------------------------------------===//

#include "tfc/Bridge/IRTrace.h"
#include "tfc/Bridge/Types.h"
#include "tfc/Dialect/Tfc/IR/TfcOps.h"
#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"
#include "tfc/JIT/JIT.h"
#include "tfc/SharedContext.h"
#include "tfc/frontend/Function.h"
#include "tfc/runtime/Kernels.h"
#include "tfc/runtime/Log.h"
#include "tfc/runtime/Ops.h"

#include "Internal.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cxxabi.h>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <unordered_map>

using namespace tfc;
using namespace tfc::detail;

namespace {

using ::tfc::contextMutex;

std::string typeString(mlir::Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

} // namespace

namespace tfc::detail {

// ConcreteFunction and TraceSession appear (as incomplete types) in the
// signatures of FunctionCore's exported members, which <tfc/frontend/
// Function.h>'s inline code calls; they keep default visibility though
// their members are the compiler's hidden types, which GCC warns about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"

/// Everything about one compiled signature.
struct ConcreteFunction {
  std::shared_ptr<jit::CompiledModule::Impl> module;
  const jit::FunctionSignature *signature = nullptr;
  size_t numTensorArgs = 0;
  size_t numUserResults = 0;
  /// Variables in the order of their `!tfc.var` arguments.
  std::vector<std::shared_ptr<VariableState>> variables;
  /// What a GradientTape around a call differentiates.
  std::shared_ptr<DifferentiableFunction> differentiable;
};

class TraceSession : public bridge::IRTrace {
public:
  /// Traces for `args`; with `relaxedShapes` (reduce_retracing) the tensor
  /// arguments get those shapes instead, -1 marking a dynamic dim.
  TraceSession(const CallArgs &args, bool firstTrace, std::string name,
               std::vector<std::vector<int64_t>> relaxedShapes = {})
      : IRTrace(&::tfc::sharedContext()), firstTrace(firstTrace),
        relaxedShapes(std::move(relaxedShapes)) {
    module = mlir::ModuleOp::create(builder.getUnknownLoc());
    builder.setInsertionPointToEnd(module->getBody());
    llvm::SmallVector<mlir::Type> inputs;
    for (size_t i = 0; i < args.tensors.size(); ++i)
      inputs.push_back(bridge::tensorType(ctx, args.tensors[i]->dtype(),
                                          this->relaxedShapes.empty()
                                              ? args.tensors[i]->shape()
                                              : this->relaxedShapes[i]));
    func = mlir::func::FuncOp::create(builder, builder.getUnknownLoc(), name,
                                      builder.getFunctionType(inputs, {}));
    mlir::Block *entry = func.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    for (size_t i = 0; i < args.tensors.size(); ++i)
      arguments.push_back(symbolic(entry->getArgument(i)));
    install();
  }

  // --- TraceHook (op building is IRTrace's) ------------------------------

  Tensor op(OpKind kind, const Tensor *inputs, size_t n, const OpAttrs &attrs,
            const std::source_location &loc) override {
    bool anySymbolic = false;
    for (size_t i = 0; i < n; ++i)
      anySymbolic |= inputs[i].is_symbolic();
    // Pure ops on captured values fold at trace time (like constant
    // folding); only work that depends on arguments or variables is traced.
    if (!anySymbolic) {
      try {
        return execute(kind, inputs, n, attrs);
      } catch (...) {
        rethrow_with_location(loc);
      }
    }
    return IRTrace::op(kind, inputs, n, attrs, loc);
  }

  Tensor var_read(const std::shared_ptr<VariableState> &var) override {
    mlir::Value handle = variableHandle(var);
    auto op = mlir::tfc::VarReadOp::create(builder, handle.getLoc(), handle);
    return symbolic(op.getResult());
  }

  void var_assign(const std::shared_ptr<VariableState> &var, AssignKind how,
                  const Tensor &value) override {
    mlir::Value handle = variableHandle(var);
    mlir::Value v = toValue(value, "assign");
    mlir::Location loc = handle.getLoc();
    switch (how) {
    case AssignKind::Assign:
      mlir::tfc::VarAssignOp::create(builder, loc, handle, v);
      break;
    case AssignKind::Add:
      mlir::tfc::VarAssignAddOp::create(builder, loc, handle, v);
      break;
    case AssignKind::Sub:
      mlir::tfc::VarAssignSubOp::create(builder, loc, handle, v);
      break;
    }
  }

  void variable_created(const std::shared_ptr<VariableState> &var) override {
    if (!firstTrace)
      throw InvalidArgumentError(
          "tfc::function '" + func.getName().str() +
          "' tried to create variables on non-first call (a new signature "
          "retraced it and the callable created a tfc::Variable again). "
          "Create variables once, outside the function or on its first "
          "call only (e.g. a member initialised when empty).");
    if (var->value.is_symbolic())
      throw InvalidArgumentError(
          "Variable created inside a tfc::function must be initialised from "
          "values that do not depend on the function's arguments or "
          "variables; its initial value is computed eagerly when it is "
          "created");
  }

  // --- Finishing -----------------------------------------------------------

  /// Adds the return and fixes the function type. Returns the module.
  mlir::OwningOpRef<mlir::ModuleOp> finish(const std::vector<Tensor> &outputs) {
    restoreHook();
    llvm::SmallVector<mlir::Value> values;
    for (const Tensor &t : outputs)
      values.push_back(toValue(t, "return"));
    mlir::func::ReturnOp::create(builder, builder.getUnknownLoc(), values);
    llvm::SmallVector<mlir::Type> results;
    for (mlir::Value v : values)
      results.push_back(v.getType());
    func.setFunctionType(builder.getFunctionType(
        func.getBody().front().getArgumentTypes(), results));
    return std::move(module);
  }

  std::vector<Tensor> arguments;
  std::vector<std::shared_ptr<VariableState>> variables;

  // --- Tape nodes differentiated by tfc-autodiff (Internal.h) -----------
  std::optional<TracedNode> tracedNode(const std::vector<Tensor> &outputs);
  std::vector<Tensor> nodeVJP(const TracedNode &node,
                              const std::vector<Tensor> &inputs,
                              const std::vector<Tensor> &dys,
                              const std::vector<bool> &needed);

private:
  mlir::Value variableHandle(const std::shared_ptr<VariableState> &var) {
    for (size_t i = 0; i < variables.size(); ++i)
      if (variables[i] == var)
        return varArgs[i];
    mlir::Block &entry = func.getBody().front();
    auto valueType =
        bridge::tensorType(ctx, var->value.dtype(), var->value.shape());
    mlir::Location loc = var->name.empty()
                             ? builder.getUnknownLoc()
                             : mlir::Location(mlir::NameLoc::get(
                                   builder.getStringAttr(var->name)));
    mlir::Value handle =
        entry.addArgument(mlir::tfc::VarType::get(ctx, valueType), loc);
    variables.push_back(var);
    varArgs.push_back(handle);
    return handle;
  }

  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::func::FuncOp func;
  std::vector<mlir::Value> varArgs;
  bool firstTrace;
  size_t tapeGradients = 0; ///< Functions nodeVJP outlined.

public:
  /// When the trace began (TFC_TIMING's "trace" figure).
  std::chrono::steady_clock::time_point started =
      std::chrono::steady_clock::now();
  /// Non-empty for a reduce_retracing trace with generalised shapes.
  std::vector<std::vector<int64_t>> relaxedShapes;
};
#pragma GCC diagnostic pop

//===----------------------------------------------------------------------===//
// CallArgs
//===----------------------------------------------------------------------===//

void CallArgs::undefined_argument() const {
  throw InvalidArgumentError("tfc::function: argument " +
                             std::to_string(tensors.size()) +
                             " is an undefined tensor");
}

//===----------------------------------------------------------------------===//
// FunctionCore
//===----------------------------------------------------------------------===//

namespace {
/// One signature in a function's cache. Immutable once inserted (and never
/// erased), so a pointer to it may be read without the lock.
struct CacheEntry {
  std::vector<uint64_t> key;
  ConcreteFunction *fn;

  static uint64_t hash(const uint64_t *words, size_t n) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i) {
      h = (h ^ words[i]) * 0x100000001b3ull;
      h ^= h >> 32;
    }
    return h;
  }

  bool matches(const CallArgs &args) const {
    return key.size() == args.key.size() &&
           std::memcmp(key.data(), args.key.data(),
                       key.size() * sizeof(uint64_t)) == 0;
  }
};
} // namespace

struct FunctionCore::Impl {
  FunctionOptions options;
  std::mutex mutex;
  /// Keyed by CacheEntry::hash of the key; node-based, so entries never
  /// move.
  std::unordered_multimap<uint64_t, CacheEntry> cache;
  std::vector<std::unique_ptr<ConcreteFunction>> functions;
  /// The entry of the latest hit: a call repeating the previous signature
  /// (the common case) is found without the lock or a hash lookup.
  std::atomic<const CacheEntry *> last{nullptr};
  std::atomic<int> tracingCount{0};
  std::shared_ptr<jit::CompiledModule::Impl> latest;
  /// The signature key of each successful trace, in order: what the
  /// retrace log compares a new signature with (trace path only).
  std::vector<std::vector<uint64_t>> tracedKeys;
  /// The trace number the too-many-traces warning last fired at.
  int warnedAt = 0;

  /// reduce_retracing: signatures that differ only in tensor dims form a
  /// family (keyed by the signature key with every dim zeroed).
  struct Family {
    /// The most general shapes traced so far; -1 is a dynamic dim.
    std::vector<std::vector<int64_t>> shapes;
    /// Compiled for `shapes` once they have a dynamic dim.
    ConcreteFunction *relaxed = nullptr;
    /// A generalised trace failed (to trace or to compile): this family
    /// traces per shape from now on. `why` is the error, for TFC_LOG=retrace.
    bool relaxFailed = false;
    std::string why;
  };
  std::map<std::vector<uint64_t>, Family> families;
};

namespace {
/// The signature key with every tensor dim zeroed: one key per family of
/// signatures that differ only in their dims.
std::vector<uint64_t> familyKey(const CallArgs &args) {
  std::vector<uint64_t> key(args.key.begin(), args.key.end());
  for (size_t i = 0; i < key.size();) {
    uint64_t tag = key[i] >> 56;
    size_t extra = tag == 't' ? (key[i] & 0xffffffffu) : 1;
    if (tag == 't')
      std::fill(key.begin() + i + 1, key.begin() + i + 1 + extra, 0);
    i += 1 + extra;
  }
  return key;
}

/// True when every tensor of `args` fits `shapes` (-1 matches any size).
bool fits(const std::vector<std::vector<int64_t>> &shapes,
          const CallArgs &args) {
  for (size_t i = 0; i < shapes.size(); ++i) {
    const std::vector<int64_t> &actual = args.tensors[i]->shape();
    for (size_t d = 0; d < shapes[i].size(); ++d) {
      if (shapes[i][d] >= 0 && shapes[i][d] != actual[d])
        return false;
      // A dim of 1 broadcasts, which a trace with the dim dynamic did not
      // do (it assumed the dynamic dims of elementwise operands equal).
      if (shapes[i][d] < 0 && actual[d] == 1)
        return false;
    }
  }
  return true;
}

std::vector<std::vector<int64_t>> shapesOf(const CallArgs &args) {
  std::vector<std::vector<int64_t>> out;
  for (const Tensor *t : args.tensors)
    out.push_back(t->shape());
  return out;
}
} // namespace

//===----------------------------------------------------------------------===//
// Function names (FunctionOptions::name left empty)
//===----------------------------------------------------------------------===//

namespace {
std::string demangle(const char *mangled) {
  int status = 0;
  char *out = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  if (status != 0 || !out)
    return mangled;
  std::string result(out);
  std::free(out);
  return result;
}

bool isOpen(char c) { return c == '(' || c == '<' || c == '[' || c == '{'; }
bool isClose(char c) { return c == ')' || c == '>' || c == ']' || c == '}'; }

/// Index just past the group opening at `i` (brackets balanced).
size_t groupEnd(const std::string &s, size_t i) {
  int depth = 0;
  for (; i < s.size(); ++i) {
    if (isOpen(s[i]))
      ++depth;
    else if (isClose(s[i]) && --depth == 0)
      return i + 1;
  }
  return s.size();
}

/// A demangled C++ name made an MLIR bare identifier: lambdas
/// ("{lambda(...)#2}") become "lambda2", parameter and template argument
/// lists and "(anonymous namespace)" go, qualifiers join with '_', a return
/// type (function templates) is dropped, anything else not [A-Za-z0-9_]
/// becomes '_'. Empty when nothing readable is left or the name is a
/// standard-library type (std::function without a target, std::bind...).
std::string readableName(const std::string &demangled) {
  std::string flat;
  for (size_t i = 0; i < demangled.size();) {
    char c = demangled[i];
    if (!isOpen(c)) {
      flat += c;
      ++i;
      continue;
    }
    size_t end = groupEnd(demangled, i);
    if (c == '{') {
      // GCC: {lambda(args)#N}, {unnamed type#N}.
      std::string group = demangled.substr(i, end - i);
      size_t hash = group.rfind('#');
      std::string number =
          hash == std::string::npos ? "" : group.substr(hash + 1);
      while (!number.empty() && !std::isdigit((unsigned char)number.back()))
        number.pop_back();
      if (group.rfind("{lambda", 0) == 0)
        flat += "lambda" + number;
      else if (group.rfind("{unnamed", 0) == 0)
        flat += "unnamed" + number;
    }
    i = end;
  }
  // Split at "::"; a space inside a component means what came before was a
  // return type.
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= flat.size()) {
    size_t sep = flat.find("::", start);
    std::string part = flat.substr(
        start, sep == std::string::npos ? std::string::npos : sep - start);
    start = sep == std::string::npos ? flat.size() + 1 : sep + 2;
    // Trailing qualifiers of a member function ("bar() const").
    for (bool again = true; again;) {
      again = false;
      while (!part.empty() && (part.back() == ' ' || part.back() == '&'))
        part.pop_back();
      for (const char *q : {" const", " volatile", " noexcept"}) {
        size_t n = std::strlen(q);
        if (part.size() >= n && part.compare(part.size() - n, n, q) == 0) {
          part.resize(part.size() - n);
          again = true;
        }
      }
    }
    while (!part.empty() && part.front() == ' ')
      part.erase(part.begin());
    if (size_t space = part.rfind(' '); space != std::string::npos) {
      parts.clear();
      part = part.substr(space + 1);
    }
    if (!part.empty())
      parts.push_back(part);
  }
  if (parts.empty() || parts.front() == "std" || parts.front() == "__gnu_cxx")
    return "";
  // Long names keep their innermost components.
  constexpr size_t kMaxLength = 64;
  size_t first = parts.size() - 1, length = parts.back().size();
  while (first > 0 && length + 1 + parts[first - 1].size() <= kMaxLength)
    length += 1 + parts[--first].size();
  std::string name;
  for (size_t i = first; i < parts.size(); ++i) {
    for (char c : parts[i]) {
      char ok = std::isalnum((unsigned char)c) ? c : '_';
      if (ok == '_' && (name.empty() || name.back() == '_'))
        continue;
      name += ok;
    }
    if (!name.empty() && name.back() != '_')
      name += '_';
  }
  while (!name.empty() && name.back() == '_')
    name.pop_back();
  if (name.size() > kMaxLength)
    name.erase(0, name.size() - kMaxLength);
  if (!name.empty() && std::isdigit((unsigned char)name.front()))
    name.insert(name.begin(), '_');
  return name;
}
} // namespace

std::string callable_name(const char *type_name, const void *function,
                          const void *type_key) {
  std::string name;
  if (function) {
    // Only an exact symbol: dladdr otherwise returns the nearest exported
    // symbol below the address, another function's name.
    Dl_info info{};
    if (dladdr(function, &info) && info.dli_sname && info.dli_saddr == function)
      name = readableName(demangle(info.dli_sname));
  } else if (type_name) {
    name = readableName(demangle(type_name));
  }
  // A C symbol of that name ("log", "exp") would be shadowed inside the
  // compiled module by the traced function: code lowered to a libm call
  // would call it instead. C++ functions have mangled symbols, so only a
  // clash finds one.
  if (!name.empty())
    if (void *symbol = dlsym(RTLD_DEFAULT, name.c_str());
        symbol && symbol != function)
      name += "_fn";
  if (name.empty()) {
    // One number per callable (type and address), so a function object
    // made again for the same callable gets the same name and its compiles
    // hit the compile cache.
    static std::mutex mutex;
    static std::map<std::pair<const void *, const void *>, unsigned> numbers;
    std::lock_guard<std::mutex> lock(mutex);
    auto it = numbers.try_emplace({type_key, function}, numbers.size()).first;
    name = "fn_" + std::to_string(it->second);
  }
  return name;
}

//===----------------------------------------------------------------------===//
// Retrace log and warning (TFC_LOG=retrace, warnings)
//===----------------------------------------------------------------------===//

namespace {
/// One argument's words in a signature key (CallArgs::add): the tag word
/// and the words after it.
struct KeyArg {
  uint64_t tag;
  const uint64_t *words;
  size_t count;
  char kind() const { return static_cast<char>(tag >> 56); }
  bool operator==(const KeyArg &o) const {
    return tag == o.tag && count == o.count &&
           std::equal(words, words + count, o.words);
  }
};

std::vector<KeyArg> splitKey(const uint64_t *key, size_t n) {
  std::vector<KeyArg> args;
  for (size_t i = 0; i < n;) {
    uint64_t tag = key[i];
    size_t extra = (tag >> 56) == 't' ? (tag & 0xffffffffu) : 1;
    extra = std::min(extra, n - i - 1);
    args.push_back({tag, key + i + 1, extra});
    i += 1 + extra;
  }
  return args;
}

std::string tensorShape(const KeyArg &a) {
  std::vector<int64_t> shape;
  for (size_t i = 0; i < a.count; ++i)
    shape.push_back(static_cast<int64_t>(a.words[i]));
  return shape_to_string(shape);
}

std::string tensorDType(const KeyArg &a) {
  return std::string(to_string(static_cast<DType>((a.tag >> 32) & 0xff)));
}

std::string scalarType(const KeyArg &a) {
  uint64_t flags = a.tag & 0xff, bytes = (a.tag >> 8) & 0xff;
  if (flags & CallArgs::kBool)
    return "bool";
  std::string base = flags & CallArgs::kFloat    ? "float"
                     : flags & CallArgs::kSigned ? "int"
                                                 : "uint";
  return base + std::to_string(bytes * 8);
}

std::string scalarValue(const KeyArg &a) {
  uint64_t flags = a.tag & 0xff, bytes = (a.tag >> 8) & 0xff;
  uint64_t bits = a.count ? a.words[0] : 0;
  char buf[64];
  char *end = buf;
  if (flags & CallArgs::kBool)
    return bits & 0xff ? "true" : "false";
  if (flags & CallArgs::kFloat) {
    if (bytes == sizeof(float)) {
      float f;
      std::memcpy(&f, &bits, sizeof f);
      end = std::to_chars(buf, buf + sizeof buf, f).ptr;
    } else {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      end = std::to_chars(buf, buf + sizeof buf, d).ptr;
    }
    return std::string(buf, end);
  }
  if (bytes < 8)
    bits &= (uint64_t(1) << (bytes * 8)) - 1;
  if (flags & CallArgs::kSigned) {
    int64_t v = static_cast<int64_t>(bits);
    if (bytes < 8 && (bits >> (bytes * 8 - 1)) & 1)
      v = static_cast<int64_t>(bits | ~((uint64_t(1) << (bytes * 8)) - 1));
    return std::to_string(v);
  }
  return std::to_string(bits);
}

std::string describeArg(const KeyArg &a) {
  switch (a.kind()) {
  case 't':
    return "tensor " + tensorDType(a) + " " + tensorShape(a);
  case 'v':
    return "variable #" + std::to_string(a.count ? a.words[0] : 0);
  case 's':
    return "scalar " + scalarType(a) + " " + scalarValue(a);
  }
  return "argument";
}

/// "argument 0 shape (32, 784) -> (16, 784)" and the like.
std::string describeChange(size_t i, const KeyArg &before,
                           const KeyArg &after) {
  std::string head = "argument " + std::to_string(i);
  if (before.kind() != after.kind())
    return head + " " + describeArg(before) + " -> " + describeArg(after);
  switch (after.kind()) {
  case 't': {
    std::string out;
    std::string b = tensorDType(before), a = tensorDType(after);
    if (b != a)
      out = head + " dtype " + b + " -> " + a;
    std::string bs = tensorShape(before), as = tensorShape(after);
    if (bs != as)
      out += (out.empty() ? head : std::string(",")) + " shape " + bs + " -> " +
             as;
    return out;
  }
  case 'v':
    return head + " " + describeArg(before) + " -> " + describeArg(after) +
           " (another tfc::Variable)";
  case 's':
    if (scalarType(before) == scalarType(after))
      return head + " value " + scalarValue(before) + " -> " +
             scalarValue(after);
    return head + " scalar " + scalarType(before) + " " + scalarValue(before) +
           " -> " + scalarType(after) + " " + scalarValue(after);
  }
  return head + " changed";
}

/// What differs between the new signature and the closest earlier trace
/// (fewest differing arguments; the latest among equals). `closest` gets
/// that trace's number (1-based).
std::string describeRetrace(const std::vector<std::vector<uint64_t>> &traced,
                            const CallArgs &args, size_t &closest) {
  std::vector<KeyArg> now = splitKey(args.key.data(), args.key.size());
  size_t best = 0, bestScore = SIZE_MAX;
  for (size_t t = 0; t < traced.size(); ++t) {
    std::vector<KeyArg> old = splitKey(traced[t].data(), traced[t].size());
    size_t score =
        std::max(old.size(), now.size()) - std::min(old.size(), now.size());
    for (size_t i = 0; i < std::min(old.size(), now.size()); ++i)
      score += !(old[i] == now[i]);
    if (score <= bestScore) {
      bestScore = score;
      best = t;
    }
  }
  closest = best + 1;
  if (traced.empty())
    return "";
  std::vector<KeyArg> old = splitKey(traced[best].data(), traced[best].size());
  std::vector<std::string> changes;
  if (old.size() != now.size())
    changes.push_back(std::to_string(old.size()) + " arguments -> " +
                      std::to_string(now.size()));
  for (size_t i = 0; i < std::min(old.size(), now.size()); ++i)
    if (!(old[i] == now[i]))
      changes.push_back(describeChange(i, old[i], now[i]));
  constexpr size_t kShown = 4;
  std::string out;
  for (size_t i = 0; i < changes.size() && i < kShown; ++i)
    out += (i ? "; " : "") + changes[i];
  if (changes.size() > kShown)
    out += "; and " + std::to_string(changes.size() - kShown) + " more";
  return out.empty() ? "same signature as trace " + std::to_string(closest)
                     : out;
}

std::string ordinal(int n) {
  const char *suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1)
      suffix = "st";
    else if (n % 10 == 2)
      suffix = "nd";
    else if (n % 10 == 3)
      suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

/// The warning fires on a function's 6th trace, then on its 12th, 24th,
/// 48th, ... (TensorFlow warns after 5 retraces in a short window).
constexpr int kWarnTraces = 6;
bool warnsAt(int trace) {
  if (trace < kWarnTraces || trace % kWarnTraces)
    return false;
  int m = trace / kWarnTraces;
  return (m & (m - 1)) == 0;
}
} // namespace

FunctionCore::FunctionCore(FunctionOptions options) : impl(new Impl) {
  impl->options = std::move(options);
  if (impl->options.name.empty())
    impl->options.name = callable_name(nullptr, nullptr, nullptr);
}
FunctionCore::~FunctionCore() = default;

const FunctionOptions &FunctionCore::options() const { return impl->options; }

ConcreteFunction *FunctionCore::lookup(const CallArgs &args) {
  const CacheEntry *last = impl->last.load(std::memory_order_acquire);
  if (last && last->matches(args))
    return last->fn;
  std::lock_guard<std::mutex> lock(impl->mutex);
  auto [begin, end] = impl->cache.equal_range(
      CacheEntry::hash(args.key.data(), args.key.size()));
  for (auto it = begin; it != end; ++it)
    if (it->second.matches(args)) {
      impl->last.store(&it->second, std::memory_order_release);
      return it->second.fn;
    }
  if (!impl->options.reduce_retracing)
    return nullptr;
  // A new shape that the family's dynamic-shape function serves: remember
  // this signature for it, so the next call takes the fast path.
  auto family = impl->families.find(familyKey(args));
  if (family == impl->families.end() || !family->second.relaxed ||
      !fits(family->second.shapes, args))
    return nullptr;
  ConcreteFunction *fn = family->second.relaxed;
  auto it = impl->cache.emplace(
      CacheEntry::hash(args.key.data(), args.key.size()),
      CacheEntry{std::vector<uint64_t>(args.key.begin(), args.key.end()), fn});
  impl->last.store(&it->second, std::memory_order_release);
  return fn;
}

TraceSessionPtr FunctionCore::begin_trace(const CallArgs &args) {
  // Held until the trace is compiled and cached (or aborted): concurrent
  // first calls of one signature wait here, then find it in the cache.
  contextMutex().lock();
  try {
    if (lookup(args)) {
      contextMutex().unlock();
      return nullptr;
    }
    // reduce_retracing (TensorFlow's relaxation): a second shape in a
    // family traces once with the dims that differ made dynamic.
    std::vector<std::vector<int64_t>> relaxed;
    bool relaxFailed = false;
    std::string why;
    if (impl->options.reduce_retracing) {
      std::lock_guard<std::mutex> lock(impl->mutex);
      auto family = impl->families.find(familyKey(args));
      relaxFailed =
          family != impl->families.end() && family->second.relaxFailed;
      if (relaxFailed)
        why = family->second.why;
      if (family != impl->families.end() && !family->second.relaxFailed) {
        relaxed = family->second.shapes;
        bool dynamic = false, broadcasts = false;
        for (size_t i = 0; i < relaxed.size(); ++i)
          for (size_t d = 0; d < relaxed[i].size(); ++d) {
            int64_t actual = args.tensors[i]->shape()[d];
            if (relaxed[i][d] != actual)
              relaxed[i][d] = -1;
            dynamic |= relaxed[i][d] < 0;
            // This call's dim of 1 may broadcast: trace it with its own
            // shapes (see fits).
            broadcasts |= relaxed[i][d] < 0 && actual == 1;
          }
        if (!dynamic || broadcasts)
          relaxed.clear();
      }
    }
    reportRetrace(args, relaxed, relaxFailed, why);
    return TraceSessionPtr(new TraceSession(
        args, impl->tracingCount == 0, impl->options.name, std::move(relaxed)));
  } catch (...) {
    contextMutex().unlock();
    throw;
  }
}

void FunctionCore::reportRetrace(
    const CallArgs &args, const std::vector<std::vector<int64_t>> &relaxed,
    bool relaxFailed, const std::string &why) {
  int trace = impl->tracingCount + 1;
  if (trace == 1)
    return;
  bool logIt = logging::enabled(logging::Category::Retrace);
  bool warn = false;
  std::string change;
  size_t closest = 0;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    warn = warnsAt(trace) && impl->warnedAt != trace &&
           logging::enabled(logging::Category::Warnings);
    if (warn)
      impl->warnedAt = trace;
    if (!logIt && !warn)
      return;
    change = describeRetrace(impl->tracedKeys, args, closest);
  }
  const std::string &name = impl->options.name;
  if (logIt) {
    std::string line =
        "tfc: retracing '" + name + "' (trace " + std::to_string(trace);
    if (closest != static_cast<size_t>(trace - 1))
      line += ", closest to trace " + std::to_string(closest);
    line += "): " + change;
    if (!relaxed.empty()) {
      line += "; reduce_retracing: tracing once with dynamic dims:";
      std::vector<size_t> position; // argument index of each tensor
      std::vector<KeyArg> all = splitKey(args.key.data(), args.key.size());
      for (size_t i = 0; i < all.size(); ++i)
        if (all[i].kind() == 't')
          position.push_back(i);
      for (size_t i = 0; i < relaxed.size() && i < position.size(); ++i) {
        line += i ? ", argument " : " argument ";
        line += std::to_string(position[i]);
        line += " (";
        for (size_t d = 0; d < relaxed[i].size(); ++d) {
          if (d)
            line += ", ";
          line += relaxed[i][d] < 0 ? "?" : std::to_string(relaxed[i][d]);
        }
        line += relaxed[i].size() == 1 ? ",)" : ")";
      }
    } else if (relaxFailed) {
      line += "; reduce_retracing: the dynamic-shape trace failed (" + why +
              "), so this shape is traced as it is";
    }
    logging::emit(line);
  }
  if (warn)
    logging::emit(
        "tfc: warning: tfc::function '" + name + "' is being traced for the " +
        ordinal(trace) + " time (" + change +
        "). Each trace compiles anew, which is expensive. Tensor shapes that "
        "vary: set FunctionOptions::reduce_retracing = true; scalars that "
        "vary: pass them as tensors; new tfc::Variables: create them once, "
        "outside the function. TFC_LOG=retrace logs every retrace; "
        "TFC_LOG=-warnings silences this warning.");
}

Tensor FunctionCore::traced_argument(TraceSession &session, size_t index) {
  return session.arguments.at(index);
}

void TraceSessionDeleter::operator()(TraceSession *session) const {
  delete session;
}

void abort_trace(TraceSessionPtr session) {
  session.reset();
  contextMutex().unlock();
}

bool FunctionCore::abort_trace(TraceSessionPtr session, const CallArgs &args) {
  bool relaxed = session && !session->relaxedShapes.empty();
  ::tfc::detail::abort_trace(std::move(session));
  if (relaxed) {
    // Called from the tracing call's catch block: name what it caught.
    std::string why = "an exception";
    try {
      if (auto e = std::current_exception())
        std::rethrow_exception(e);
    } catch (const std::exception &e) {
      why = e.what();
    } catch (...) {
    }
    std::lock_guard<std::mutex> lock(impl->mutex);
    Impl::Family &family = impl->families[familyKey(args)];
    family.relaxFailed = true;
    family.why = std::move(why);
  }
  return relaxed;
}

ConcreteFunction *
FunctionCore::finish_trace(TraceSessionPtr session, const CallArgs &args,
                           const std::vector<Tensor> &outputs) {
  auto concrete = std::make_unique<ConcreteFunction>();
  std::vector<std::vector<int64_t>> relaxedShapes = session->relaxedShapes;
  try {
    auto module = session->finish(outputs);
    concrete->variables = session->variables;
    concrete->numTensorArgs = args.tensors.size();
    concrete->numUserResults = outputs.size();
    const std::string &fnName = impl->options.name;
    jit::TraceInfo traceInfo;
    traceInfo.trace = impl->tracingCount + 1;
    traceInfo.traceMs = std::chrono::duration<double, std::milli>(
                            std::chrono::steady_clock::now() - session->started)
                            .count();
    session.reset();
    jit::CompileOptions compileOptions;
    compileOptions.target = impl->options.target;
    compileOptions.opt_level = impl->options.opt_level;
    compileOptions.fuse = impl->options.fuse;
    compileOptions.flush_denormals = impl->options.flush_denormals;
    // The traced IR, for a tape that differentiates a call later (parsed
    // again then; kept as text so the trace's module can be lowered).
    auto differentiable = std::make_shared<DifferentiableFunction>();
    {
      llvm::raw_string_ostream os(differentiable->ir);
      module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
    }
    concrete->module =
        jit::CompiledModule::Impl::compile(*module, compileOptions, traceInfo);
    concrete->signature = concrete->module->lookup(fnName);
    differentiable->name = fnName;
    differentiable->options = compileOptions;
    differentiable->recompute = impl->options.recompute_gradient;
    differentiable->module = concrete->module;
    differentiable->signature = concrete->signature;
    concrete->differentiable = std::move(differentiable);
  } catch (const Error &e) {
    session.reset();
    contextMutex().unlock();
    if (relaxedShapes.empty())
      throw;
    // The dynamic-shape version did not compile: trace per shape instead
    // (the caller retraces with this call's own shapes).
    std::lock_guard<std::mutex> lock(impl->mutex);
    Impl::Family &family = impl->families[familyKey(args)];
    family.relaxFailed = true;
    family.why = e.what();
    return nullptr;
  } catch (...) {
    session.reset();
    contextMutex().unlock();
    throw;
  }
  // Cached before the context lock is released (see begin_trace).
  std::unique_lock<std::mutex> lock(impl->mutex);
  ++impl->tracingCount;
  impl->tracedKeys.emplace_back(args.key.begin(), args.key.end());
  if (impl->options.reduce_retracing) {
    Impl::Family &family = impl->families[familyKey(args)];
    if (!relaxedShapes.empty()) {
      family.shapes = std::move(relaxedShapes);
      family.relaxed = concrete.get();
    } else if (family.shapes.empty()) {
      family.shapes = shapesOf(args);
    }
  }
  impl->latest = concrete->module;
  ConcreteFunction *raw = concrete.get();
  impl->functions.push_back(std::move(concrete));
  auto it = impl->cache.emplace(
      CacheEntry::hash(args.key.data(), args.key.size()),
      CacheEntry{std::vector<uint64_t>(args.key.begin(), args.key.end()), raw});
  impl->last.store(&it->second, std::memory_order_release);
  lock.unlock();
  contextMutex().unlock();
  return raw;
}

namespace {
/// Runs compiled code into `results`; commits variable writes on success.
void runCompiled(ConcreteFunction &fn, const CallArgs &args,
                 CallResults &results) {
  const jit::FunctionSignature &sig = *fn.signature;
  llvm::SmallVector<const Tensor *, 32> inputs(args.tensors.begin(),
                                               args.tensors.end());
  for (const auto &var : fn.variables)
    inputs.push_back(&var->value);
  results.resize(sig.results.size());
  fn.module->callInto(sig, inputs.data(), inputs.size(), results.data(),
                      /*validated=*/true); // the cache key checked them
  // Commit variable writes only now that the call has succeeded.
  Tensor *out = results.data();
  for (size_t i = 0; i < sig.writtenVars.size(); ++i) {
    size_t varIndex =
        static_cast<size_t>(sig.writtenVars[i]) - fn.numTensorArgs;
    fn.variables[varIndex]->value = std::move(out[fn.numUserResults + i]);
  }
  results.resize(fn.numUserResults);
}

/// runCompiled under a recording tape (CompiledCallGradient.cpp): each
/// floating result is recorded with the function's compiled VJP as its
/// gradient, which reaches the tensor arguments and the trainable
/// Variables the code read (their values from before its writes).
[[gnu::noinline, gnu::cold]] void
runUnderTape(ConcreteFunction &fn, const CallArgs &args, CallResults &results) {
  std::vector<Tensor> inputs;
  for (const Tensor *t : args.tensors)
    inputs.push_back(*t);
  for (const auto &var : fn.variables) {
    // Tapes watch trainable variables on their first read; the compiled
    // code read this one.
    if (var->trainable && is_floating(var->value.dtype()))
      notify_variable_read(*var, var->value);
    inputs.push_back(var->value);
  }
  std::vector<Tensor> outputs =
      call_differentiable(fn.differentiable, inputs, fn.numUserResults);
  const jit::FunctionSignature &sig = *fn.signature;
  for (size_t i = 0; i < sig.writtenVars.size(); ++i) {
    size_t varIndex =
        static_cast<size_t>(sig.writtenVars[i]) - fn.numTensorArgs;
    fn.variables[varIndex]->value = std::move(outputs[fn.numUserResults + i]);
  }
  results.resize(fn.numUserResults);
  for (size_t i = 0; i < fn.numUserResults; ++i)
    results.data()[i] = std::move(outputs[i]);
}
} // namespace

void FunctionCore::run(ConcreteFunction &fn, const CallArgs &args,
                       CallResults &results) {
  if (has_op_observers()) [[unlikely]]
    return runUnderTape(fn, args, results);
  runCompiled(fn, args, results);
}

int FunctionCore::tracing_count() const { return impl->tracingCount; }

std::string FunctionCore::ir(std::string_view stage) const {
  std::shared_ptr<jit::CompiledModule::Impl> latest;
  {
    std::lock_guard<std::mutex> lock(impl->mutex);
    latest = impl->latest;
  }
  if (!latest)
    throw InvalidArgumentError(
        "tfc::function::ir: the function has not been traced yet");
  auto it = latest->stages.find(stage);
  if (it == latest->stages.end())
    throw InvalidArgumentError("tfc::function::ir: unknown stage '" +
                               std::string(stage) +
                               "' (expected tfc, optimized, llvm-dialect or "
                               "llvm)");
  return it->second;
}

//===----------------------------------------------------------------------===//
// Tape nodes differentiated by tfc-autodiff (GradientTape.cpp)
//===----------------------------------------------------------------------===//

namespace {

/// What `op` reads from outside: tensors (its operands, then the values its
/// regions use from above) and `!tfc.var` handles.
void externalValues(mlir::Operation *op,
                    llvm::SmallVectorImpl<mlir::Value> &tensors,
                    llvm::SmallVectorImpl<mlir::Value> &handles) {
  llvm::SetVector<mlir::Value> used(op->getOperands().begin(),
                                    op->getOperands().end());
  mlir::getUsedValuesDefinedAbove(op->getRegions(), used);
  for (mlir::Value v : used)
    (mlir::isa<mlir::tfc::VarType>(v.getType()) ? handles : tensors)
        .push_back(v);
}

bool isFloat(mlir::Type t) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(t);
  return tensor && mlir::isa<mlir::FloatType>(tensor.getElementType());
}

} // namespace

std::optional<TracedNode>
TraceSession::tracedNode(const std::vector<Tensor> &outputs) {
  mlir::Operation *op = nullptr;
  for (size_t i = 0; i < outputs.size(); ++i) {
    auto [trace, value] = bridge::IRTrace::traced(outputs[i]);
    auto result = mlir::dyn_cast_or_null<mlir::OpResult>(value);
    if (trace != this || !result || result.getResultNumber() != i ||
        (op && result.getOwner() != op))
      return std::nullopt;
    op = result.getOwner();
  }
  // A while_loop with maximum_iterations has a hidden counter result last.
  if (!op || op->getNumResults() < outputs.size() ||
      !mlir::isa<mlir::tfc::IfOp, mlir::tfc::WhileOp, mlir::tfc::GradOp>(op))
    return std::nullopt;
  TracedNode node;
  node.session = this;
  node.op = op;
  llvm::SmallVector<mlir::Value> tensors, handles;
  externalValues(op, tensors, handles);
  for (mlir::Value v : tensors)
    node.externals.push_back(symbolic(v));
  for (mlir::Value h : handles)
    for (size_t i = 0; i < varArgs.size(); ++i)
      if (varArgs[i] == h)
        node.variables.push_back(variables[i]);
  return node;
}

std::vector<Tensor> TraceSession::nodeVJP(const TracedNode &node,
                                          const std::vector<Tensor> &inputs,
                                          const std::vector<Tensor> &dys,
                                          const std::vector<bool> &needed) {
  const char *api = "GradientTape.gradient";
  mlir::Operation *op = node.op;
  const std::string what = mlir::isa<mlir::tfc::IfOp>(op) ? "a traced cond"
                           : mlir::isa<mlir::tfc::WhileOp>(op)
                               ? "a traced while_loop"
                               : "a gradient computed in a trace";
  llvm::SmallVector<mlir::Value> tensors, handles;
  externalValues(op, tensors, handles);
  const size_t numTensors = tensors.size();
  if (inputs.size() != numTensors + handles.size() ||
      dys.size() > op->getNumResults())
    throw InvalidArgumentError(std::string(api) +
                               ": internal error: a traced node's inputs "
                               "changed");
  // The regions may read the variables (the copy below reads the values
  // the tape watched instead) but not write them.
  auto variableName = [&](mlir::Value handle) {
    for (size_t i = 0; i < varArgs.size(); ++i)
      if (varArgs[i] == handle)
        return variables[i]->name.empty()
                   ? std::string("a Variable")
                   : "Variable '" + variables[i]->name + "'";
    return std::string("a Variable");
  };
  op->walk([&](mlir::Operation *inner) {
    if (!mlir::isa<mlir::tfc::VarAssignOp, mlir::tfc::VarAssignAddOp,
                   mlir::tfc::VarAssignSubOp>(inner))
      return;
    throw InvalidArgumentError(std::string(api) + ": cannot differentiate " +
                               what + " whose body assigns " +
                               variableName(inner->getOperand(0)) +
                               " (assign it outside the cond/while_loop)");
  });
  // tfc-autodiff differentiates statically shaped code only.
  auto requireStatic = [&](mlir::Type t) {
    auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(t);
    if (tensor && !tensor.hasStaticShape())
      throw InvalidArgumentError(
          std::string(api) + ": cannot differentiate " + what +
          " with a value of dynamic shape " + typeString(t) +
          " (a reduce_retracing function): the gradient of traced control "
          "flow needs static shapes; trace without reduce_retracing");
  };
  for (mlir::Value v : tensors)
    requireStatic(v.getType());
  for (mlir::Type t : op->getResultTypes())
    requireStatic(t);
  op->walk([&](mlir::Operation *inner) {
    for (mlir::Region &region : inner->getRegions())
      for (mlir::Block &block : region)
        for (mlir::BlockArgument arg : block.getArguments())
          requireStatic(arg.getType());
  });

  std::vector<Tensor> grads(inputs.size());
  llvm::SmallVector<int64_t> wrt;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (needed[i] && is_floating(inputs[i].dtype()))
      wrt.push_back(static_cast<int64_t>(i));
  bool anyDy = false;
  for (size_t k = 0; k < dys.size(); ++k)
    anyDy |= dys[k].defined() && isFloat(op->getResult(k).getType());
  if (wrt.empty() || !anyDy)
    return grads;

  // @f(inputs..., dys...) = sum_k sum(result_k * dy_k), with a copy of `op`
  // computing the results: its gradient is the op's vector-Jacobian product.
  mlir::Location loc = op->getLoc();
  std::optional<mlir::Location> savedLocation = fixedLocation;
  fixedLocation = loc;
  auto restoreLocation =
      llvm::make_scope_exit([&] { fixedLocation = savedLocation; });
  llvm::SmallVector<mlir::Value> operands;
  for (const Tensor &t : inputs)
    operands.push_back(toValue(t, "GradientTape.gradient"));
  llvm::SmallVector<unsigned> seeded;
  for (size_t k = 0; k < dys.size(); ++k)
    if (dys[k].defined() && isFloat(op->getResult(k).getType())) {
      seeded.push_back(static_cast<unsigned>(k));
      operands.push_back(toValue(dys[k], "GradientTape.gradient"));
    }
  llvm::SmallVector<mlir::Type> argTypes;
  for (mlir::Value v : operands)
    argTypes.push_back(v.getType());
  std::string name;
  mlir::func::FuncOp fn;
  {
    mlir::OpBuilder::InsertionGuard guard(builder);
    for (size_t n = tapeGradients++;; n = tapeGradients++) {
      name = func.getName().str() + "_tape_grad_" + std::to_string(n);
      if (!module->lookupSymbol(name))
        break;
    }
    builder.setInsertionPoint(func);
    fn = mlir::func::FuncOp::create(builder, loc, name,
                                    builder.getFunctionType(argTypes, {}));
    fn.setPrivate();
    mlir::Block *entry = fn.addEntryBlock();
    builder.setInsertionPointToEnd(entry);
    mlir::IRMapping map;
    for (size_t i = 0; i < numTensors; ++i)
      map.map(tensors[i], entry->getArgument(i));
    mlir::Operation *copy = builder.clone(*op, map);
    // Reads of the variables become the arguments the tape watched; prints
    // and asserts already ran in the forward pass.
    llvm::SmallVector<mlir::Operation *> dead;
    copy->walk([&](mlir::Operation *inner) {
      if (auto read = mlir::dyn_cast<mlir::tfc::VarReadOp>(inner)) {
        for (size_t j = 0; j < handles.size(); ++j)
          if (read.getVar() == handles[j])
            read.getResult().replaceAllUsesWith(
                entry->getArgument(numTensors + j));
        dead.push_back(inner);
      } else if (mlir::isa<mlir::tfc::PrintOp, mlir::tfc::AssertOp>(inner)) {
        dead.push_back(inner);
      }
    });
    for (mlir::Operation *d : dead)
      d->erase();
    const bool f64 = llvm::any_of(seeded, [&](unsigned k) {
      return mlir::cast<mlir::RankedTensorType>(op->getResult(k).getType())
          .getElementType()
          .isF64();
    });
    Tensor total;
    std::source_location here = std::source_location::current();
    for (auto [j, k] : llvm::enumerate(seeded)) {
      Tensor parts[2] = {symbolic(copy->getResult(k)),
                         symbolic(entry->getArgument(inputs.size() + j))};
      Tensor term = IRTrace::op(OpKind::Mul, parts, 2, {}, here);
      if (!term.shape().empty()) {
        OpAttrs all;
        for (size_t d = 0; d < term.shape().size(); ++d)
          all.axes.push_back(static_cast<int64_t>(d));
        term = IRTrace::op(OpKind::ReduceSum, &term, 1, all, here);
      }
      if (f64 && term.dtype() != DType::Float64) {
        OpAttrs cast;
        cast.dtype = DType::Float64;
        term = IRTrace::op(OpKind::Cast, &term, 1, cast, here);
      }
      if (total.defined()) {
        Tensor sum[2] = {total, term};
        total = IRTrace::op(OpKind::Add, sum, 2, {}, here);
      } else {
        total = term;
      }
    }
    mlir::Value result = toValue(total, "GradientTape.gradient");
    mlir::func::ReturnOp::create(builder, loc, result);
    fn.setFunctionType(builder.getFunctionType(argTypes, {result.getType()}));
  } // back at the trace's insertion point
  // Only the inputs the adjoint reaches get a gradient (an explicit zero
  // would flow through the rules of what computed them).
  llvm::SmallVector<unsigned> active =
      mlir::tfc::activeArguments(module.get(), fn);
  llvm::erase_if(wrt, [&](int64_t i) {
    return !llvm::is_contained(active, static_cast<unsigned>(i));
  });
  if (wrt.empty()) {
    fn.erase();
    return grads;
  }
  llvm::SmallVector<mlir::Type> gradTypes;
  for (int64_t i : wrt)
    gradTypes.push_back(operands[i].getType());
  auto grad = mlir::tfc::GradOp::create(
      builder, loc, gradTypes, mlir::FlatSymbolRefAttr::get(fn),
      builder.getDenseI64ArrayAttr(wrt), operands);
  for (auto [j, i] : llvm::enumerate(wrt))
    grads[i] = symbolic(grad.getResult(j));
  return grads;
}

const void *traced_value_key(const Tensor &t) {
  return bridge::IRTrace::traced(t).second.getAsOpaquePointer();
}

std::optional<TracedNode> traced_node(const std::vector<Tensor> &outputs) {
  if (outputs.empty())
    return std::nullopt;
  auto [trace, value] = bridge::IRTrace::traced(outputs[0]);
  auto *session =
      dynamic_cast<TraceSession *>(const_cast<bridge::IRTrace *>(trace));
  if (!session)
    return std::nullopt;
  return session->tracedNode(outputs);
}

std::vector<Tensor> traced_node_vjp(const TracedNode &node,
                                    const std::vector<Tensor> &inputs,
                                    const std::vector<Tensor> &dys,
                                    const std::vector<bool> &needed) {
  return node.session->nodeVJP(node, inputs, dys, needed);
}

} // namespace tfc::detail
