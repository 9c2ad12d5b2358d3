//===- GradientRunner.cpp - Eager vs compiled vs finite differences -------===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//

#include "GradientRunner.h"

#include <tfc/tfc.h>

#include "tfc/Bridge/OpDecoding.h"
#include "tfc/Bridge/Types.h"
#include "tfc/JIT/JIT.h"
#include "tfc/SharedContext.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/runtime/Error.h"
#include "tfc/runtime/Ops.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/DenseMap.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numeric>
#include <sstream>

namespace tfc::fuzz {

const char *gradOutcomeName(GradOutcome outcome) {
  switch (outcome) {
  case GradOutcome::Agreed:
    return "agreed";
  case GradOutcome::Disagreed:
    return "disagreed";
  case GradOutcome::Skipped:
    return "skipped";
  case GradOutcome::Error:
    return "error";
  }
  return "?";
}

namespace {

//===----------------------------------------------------------------------===//
// The program as plain data
//===----------------------------------------------------------------------===//

struct Node;

/// A block: its arguments, its ops, and what its terminator passes on
/// (`pred` is the tfc.condition predicate, -1 elsewhere). Values are ids.
struct Block {
  std::vector<int> args;
  std::vector<Node> ops;
  std::vector<int> yields;
  int pred = -1;
};

struct Node {
  enum class Type { Kernel, Constant, If, While, Print, Assert };
  Type type = Type::Kernel;
  OpKind kind = OpKind::Add;
  OpAttrs attrs;
  bool identity = false;         ///< Reduction/squeeze with no axes.
  bool resolveBroadcast = false; ///< broadcast_to into `?` dims.
  bool resolveReshape = false;   ///< reshape to one `?` dim.
  std::vector<int> operands, results;
  Tensor constant, constant64; ///< constant64: f32 promoted to f64.
  std::string message;
  std::vector<Block> regions;
};

struct Program {
  Block body;
  int numValues = 0;
  std::vector<DType> resultDTypes;
};

/// Decodes the module's @main. Returns "" or why it cannot be replayed.
class Decoder {
public:
  std::string error;
  int next = 0;

  void block(mlir::Block &b, Block &out) {
    for (mlir::BlockArgument arg : b.getArguments())
      out.args.push_back(id(arg));
    for (mlir::Operation &op : b) {
      if (!error.empty())
        return;
      llvm::StringRef name = op.getName().getStringRef();
      if (name == "func.return" || name == "tfc.yield") {
        for (mlir::Value v : op.getOperands())
          out.yields.push_back(id(v));
      } else if (name == "tfc.condition") {
        out.pred = id(op.getOperand(0));
        for (mlir::Value v : op.getOperands().drop_front())
          out.yields.push_back(id(v));
      } else {
        out.ops.emplace_back();
        node(op, out.ops.back());
      }
    }
  }

private:
  llvm::DenseMap<mlir::Value, int> ids;

  int id(mlir::Value v) {
    auto [it, inserted] = ids.try_emplace(v, next);
    if (inserted)
      ++next;
    return it->second;
  }

  static bool isFloatType(mlir::Type type) {
    auto ranked = llvm::dyn_cast<mlir::RankedTensorType>(type);
    return ranked && llvm::isa<mlir::FloatType>(ranked.getElementType());
  }

  DType dtypeOf(mlir::Type type) {
    DType d = DType::Float32;
    auto ranked = llvm::dyn_cast<mlir::RankedTensorType>(type);
    if (!ranked || !bridge::toDType(ranked.getElementType(), d))
      error = "unsupported type";
    return d;
  }

  void node(mlir::Operation &op, Node &n) {
    for (mlir::Value v : op.getOperands())
      n.operands.push_back(id(v));
    for (mlir::Value v : op.getResults())
      n.results.push_back(id(v));
    llvm::StringRef name = op.getName().getStringRef();
    if (name == "tfc.constant") {
      n.type = Node::Type::Constant;
      auto attr = op.getAttrOfType<mlir::DenseElementsAttr>("value");
      auto type = attr ? llvm::dyn_cast<mlir::RankedTensorType>(attr.getType())
                       : mlir::RankedTensorType();
      if (!type || !type.hasStaticShape()) {
        error = "non-dense constant";
        return;
      }
      DType dtype = dtypeOf(type);
      n.constant =
          Tensor::empty(dtype, std::vector<int64_t>(type.getShape().begin(),
                                                    type.getShape().end()));
      if (n.constant.numel() > 0)
        dispatch_dtype(dtype, [&](auto tag) {
          using T = decltype(tag);
          T *out = n.constant.data<T>();
          int64_t i = 0;
          for (T v : attr.getValues<T>())
            out[i++] = v;
        });
      return;
    }
    if (name == "tfc.if" || name == "tfc.while") {
      n.type = name == "tfc.if" ? Node::Type::If : Node::Type::While;
      if (op.getNumRegions() != 2 || op.getRegion(0).empty() ||
          op.getRegion(1).empty()) {
        error = name.str() + " without two regions";
        return;
      }
      n.regions.resize(2);
      block(op.getRegion(0).front(), n.regions[0]);
      block(op.getRegion(1).front(), n.regions[1]);
      return;
    }
    if (name == "tfc.print") {
      n.type = Node::Type::Print;
      return;
    }
    if (name == "tfc.assert") {
      n.type = Node::Type::Assert;
      if (auto m = op.getAttrOfType<mlir::StringAttr>("message"))
        n.message = m.str();
      return;
    }
    std::string why;
    std::optional<bridge::DecodedOp> decoded = bridge::decodeKernelOp(&op, why);
    if (!decoded) {
      error = "unsupported op " + name.str() + ": " + why;
      return;
    }
    n.kind = decoded->kind;
    n.attrs = std::move(decoded->attrs);
    n.identity = decoded->identity;
    if (n.kind == OpKind::Reshape || n.kind == OpKind::BroadcastTo) {
      auto dynamic = llvm::count(n.attrs.shape, -1);
      if (n.kind == OpKind::Reshape && dynamic > 1)
        error = "reshape to several dynamic dims";
      (n.kind == OpKind::Reshape ? n.resolveReshape : n.resolveBroadcast) =
          dynamic > 0;
    }
  }
};

/// Parses and decodes `text`; nullopt with `why` set when it cannot.
std::optional<Program> decode(const std::string &text, std::string &why) {
  std::lock_guard<std::recursive_mutex> lock(::tfc::contextMutex());
  mlir::MLIRContext &ctx = ::tfc::sharedContext();
  mlir::ScopedDiagnosticHandler quiet(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  if (!module) {
    why = "does not parse";
    return std::nullopt;
  }
  mlir::Operation *main = module->lookupSymbol("main");
  if (!main || main->getNumRegions() != 1 || main->getRegion(0).empty()) {
    why = "no @main";
    return std::nullopt;
  }
  Program program;
  Decoder decoder;
  decoder.block(main->getRegion(0).front(), program.body);
  if (auto fn = llvm::dyn_cast<mlir::FunctionOpInterface>(main))
    for (mlir::Type t : fn.getResultTypes()) {
      DType d = DType::Float32;
      auto ranked = llvm::dyn_cast<mlir::RankedTensorType>(t);
      if (!ranked || !bridge::toDType(ranked.getElementType(), d))
        decoder.error = "unsupported result type";
      program.resultDTypes.push_back(d);
    }
  if (!decoder.error.empty()) {
    why = decoder.error;
    return std::nullopt;
  }
  program.numValues = decoder.next;
  return program;
}

bool isFloat(DType d) { return d == DType::Float32 || d == DType::Float64; }

/// Promoted copies of the f32 constants (made eagerly, before any tape).
void promoteConstants(Block &b) {
  for (Node &n : b.ops) {
    if (n.type == Node::Type::Constant)
      n.constant64 = n.constant.dtype() == DType::Float32
                         ? cast(n.constant, DType::Float64)
                         : n.constant;
    for (Block &r : n.regions)
      promoteConstants(r);
  }
}

//===----------------------------------------------------------------------===//
// Replaying the program through the public API
//===----------------------------------------------------------------------===//

/// Runs a decoded program with tfc ops: eagerly, or traced when called
/// inside tfc::function. With `promote`, every f32 value is f64.
/// stop_gradient can be frozen: Record keeps each result it computes, Replay
/// returns those instead, so finite differences see it as the constant the
/// tape treats it as.
class Replay {
public:
  enum class Freeze { Off, Record, Replay };

  Replay(const Program &p, bool promote) : p(p), promote(promote) {}
  Freeze freeze = Freeze::Off;
  /// With `hashPath`, a hash of every integer and bool value computed (the
  /// comparisons, casts, argmaxes, loop counters that choose the path).
  /// Finite differences are valid only where the perturbation keeps it.
  bool hashPath = false;
  uint64_t pathHash = 0;

  std::vector<Tensor> run(const std::vector<Tensor> &args) {
    std::vector<Tensor> env(size_t(p.numValues));
    counters.clear();
    pathHash = 1469598103934665603ull;
    if (freeze == Freeze::Record)
      frozen.clear();
    bindArgs(env, p.body.args, args);
    runBlock(p.body, env);
    return collect(env, p.body.yields);
  }

private:
  const Program &p;
  bool promote;
  std::map<const Node *, std::vector<Tensor>> frozen;
  std::map<const Node *, size_t> counters;

  static void bindArgs(std::vector<Tensor> &env, const std::vector<int> &ids,
                       const std::vector<Tensor> &values) {
    for (size_t i = 0; i < ids.size() && i < values.size(); ++i)
      env[size_t(ids[i])] = values[i];
  }
  static std::vector<Tensor> collect(const std::vector<Tensor> &env,
                                     const std::vector<int> &ids) {
    std::vector<Tensor> out;
    for (int i : ids)
      out.push_back(env[size_t(i)]);
    return out;
  }

  void runBlock(const Block &b, std::vector<Tensor> &env) {
    for (const Node &n : b.ops)
      runNode(n, env);
  }

  void runNode(const Node &n, std::vector<Tensor> &env) {
    switch (n.type) {
    case Node::Type::Constant:
      env[size_t(n.results[0])] = promote ? n.constant64 : n.constant;
      return;
    case Node::Type::Print: // Prints are the forward tester's business.
      return;
    case Node::Type::Assert:
      assert_true(env[size_t(n.operands[0])], n.message);
      return;
    case Node::Type::If: {
      auto branch = [&](const Block &b) {
        return [&]() {
          runBlock(b, env);
          return collect(env, b.yields);
        };
      };
      std::vector<Tensor> out =
          cond(env[size_t(n.operands[0])], branch(n.regions[0]),
               branch(n.regions[1]));
      bindArgs(env, n.results, out);
      return;
    }
    case Node::Type::While: {
      // tfc.while's before region may compute what it passes on; the API's
      // cond_fn returns only the predicate, so the body and the exit
      // recompute the before region (it is pure).
      const Block &before = n.regions[0], &after = n.regions[1];
      auto runBefore = [&](const std::vector<Tensor> &vars) {
        bindArgs(env, before.args, vars);
        runBlock(before, env);
      };
      std::vector<Tensor> final = while_loop(
          [&](const std::vector<Tensor> &vars) {
            runBefore(vars);
            return env[size_t(before.pred)];
          },
          [&](const std::vector<Tensor> &vars) {
            runBefore(vars);
            bindArgs(env, after.args, collect(env, before.yields));
            runBlock(after, env);
            return collect(env, after.yields);
          },
          collect(env, n.operands));
      runBefore(final);
      bindArgs(env, n.results, collect(env, before.yields));
      return;
    }
    case Node::Type::Kernel:
      break;
    }
    std::vector<Tensor> in = collect(env, n.operands);
    Tensor &out = env[size_t(n.results[0])];
    if (n.identity) {
      out = in[0];
      return;
    }
    if (n.kind == OpKind::StopGradient && freeze != Freeze::Off) {
      size_t k = counters[&n]++;
      std::vector<Tensor> &kept = frozen[&n];
      if (freeze == Freeze::Replay && k < kept.size() &&
          kept[k].shape() == in[0].shape()) {
        out = kept[k];
        return;
      }
      out = detail::dispatch(n.kind, in.data(), in.size(), n.attrs);
      if (freeze == Freeze::Record)
        kept.push_back(out);
      return;
    }
    OpAttrs attrs = n.attrs;
    if (promote && (n.kind == OpKind::Cast || n.kind == OpKind::OneHot) &&
        attrs.dtype == DType::Float32)
      attrs.dtype = DType::Float64;
    const std::vector<int64_t> &inShape = in[0].shape();
    if (n.resolveBroadcast) {
      int64_t lead = int64_t(attrs.shape.size()) - int64_t(inShape.size());
      for (size_t i = 0; i < attrs.shape.size(); ++i)
        if (attrs.shape[i] < 0 && int64_t(i) >= lead)
          attrs.shape[i] = inShape[size_t(int64_t(i) - lead)];
    }
    if (n.resolveReshape) {
      int64_t known = 1;
      for (int64_t d : attrs.shape)
        known *= d < 0 ? 1 : d;
      for (int64_t &d : attrs.shape)
        if (d < 0)
          d = known ? in[0].numel() / known : 0;
    }
    out = detail::dispatch(n.kind, in.data(), in.size(), attrs);
    // A float32 draw promoted: the same numbers, widened (a float64 draw
    // would use other bits).
    if (promote && n.kind == OpKind::PhiloxRandom &&
        out.dtype() == DType::Float32)
      out = cast(out, DType::Float64);
    if (!hashPath)
      return;
    if (!isFloat(out.dtype()))
      hash(out);
    else
      hashTies(n.kind, in, out, attrs);
  }

  void hash(const Tensor &t) {
    for (int64_t v : cast(t, DType::Int64).to_vector<int64_t>())
      pathHash = (pathHash ^ uint64_t(v)) * 1099511628211ull;
  }

  /// Where a float op's local derivative changes (relu/abs at 0, ties of
  /// maximum/minimum, of reduce_max/min and of a max pooling window), the
  /// tape's rule picks one
  /// side. Hashing which elements sit there lets finite differences skip
  /// points where a perturbation moves one, even when the loss happens to
  /// be flat on both sides (a tied minimum of relu(x) - x at x = 0).
  void hashTies(OpKind kind, const std::vector<Tensor> &in, const Tensor &out,
                const OpAttrs &attrs) {
    switch (kind) {
    case OpKind::Floor:
      // Piecewise constant: a perturbation that crosses an integer jumps.
      hash(out);
      return;
    case OpKind::Relu:
    case OpKind::Abs:
      hash(in[0] == 0.0);
      hash(in[0] > 0.0);
      return;
    case OpKind::Maximum:
    case OpKind::Minimum:
      hash(equal(in[0], in[1]));
      hash(greater(in[0], in[1]));
      return;
    case OpKind::ReduceMax:
    case OpKind::ReduceMin: {
      OpAttrs keep = attrs;
      keep.keepdims = true;
      Tensor extreme = detail::dispatch(kind, in.data(), 1, keep);
      hash(equal(in[0], broadcast_to(extreme, in[0].shape())));
      return;
    }
    case OpKind::MaxPool2D:
    case OpKind::MaxPool2DGrad:
    case OpKind::MaxPool2DGradGrad: {
      // Each window's first maximum receives its dy (max_pool2d's rule),
      // routes max_pool2d_grad's dy and is what max_pool2d_grad_grad reads:
      // where they are is the path. max_pool2d_grad of 1, 2, ... (one
      // number per window) marks each element with the windows it wins.
      const Tensor &pooled = kind == OpKind::MaxPool2DGrad ? in[1] : out;
      std::vector<double> marks(size_t(pooled.numel()));
      std::iota(marks.begin(), marks.end(), 1.0);
      Tensor operands[2] = {
          in[0], cast(from_vector(marks, pooled.shape()), in[0].dtype())};
      hash(detail::dispatch(OpKind::MaxPool2DGrad, operands, 2, attrs));
      return;
    }
    default:
      (void)out;
      return;
    }
  }
};

//===----------------------------------------------------------------------===//
// Comparing
//===----------------------------------------------------------------------===//

std::vector<double> toDoubles(const Tensor &t) {
  Tensor c = t.dtype() == DType::Float64 ? t : cast(t, DType::Float64);
  return c.to_vector<double>();
}

bool within(double a, double b, double atol, double rtol) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b))
    return a == b;
  return std::fabs(a - b) <= atol + rtol * std::max(std::fabs(a), std::fabs(b));
}

double maxAbs(const std::vector<double> &v) {
  double m = 0;
  for (double x : v)
    if (std::isfinite(x))
      m = std::max(m, std::fabs(x));
  return m;
}

std::string fmt(double x) {
  std::ostringstream os;
  os.precision(17);
  os << x;
  return os.str();
}

/// sum over float results of reduce_sum(result), in float64.
Tensor lossOf(const std::vector<Tensor> &outs) {
  Tensor loss;
  for (const Tensor &o : outs) {
    if (!isFloat(o.dtype()))
      continue;
    Tensor s =
        reduce_sum(o.dtype() == DType::Float64 ? o : cast(o, DType::Float64));
    loss = loss.defined() ? loss + s : s;
  }
  return loss;
}

/// Whether any value of the program is f32 (then gradients carry float32
/// rounding and get float32 tolerances).
bool usesFloat32(const std::string &text) {
  return text.find("f32") != std::string::npos;
}

template <class F>
std::vector<Tensor> callWith(F &f, const std::vector<Tensor> &a) {
  switch (a.size()) {
  case 1:
    return f(a[0]);
  case 2:
    return f(a[0], a[1]);
  case 3:
    return f(a[0], a[1], a[2]);
  case 4:
    return f(a[0], a[1], a[2], a[3]);
  case 5:
    return f(a[0], a[1], a[2], a[3], a[4]);
  case 6:
    return f(a[0], a[1], a[2], a[3], a[4], a[5]);
  }
  throw InvalidArgumentError("callWith: too many arguments");
}

} // namespace

GradResult runGradientDifferential(const GeneratedProgram &program,
                                   const GradientOptions &options) {
  GradResult r;
  auto skip = [&](std::string why) {
    r.outcome = GradOutcome::Skipped;
    r.detail = std::move(why);
    return r;
  };
  if (program.special)
    return skip("special-value program");
  if (program.args.empty() || program.args.size() > 6)
    return skip("argument count");
  std::vector<size_t> floatArgs;
  for (size_t i = 0; i < program.args.size(); ++i)
    if (isFloat(program.args[i].dtype()))
      floatArgs.push_back(i);
  if (floatArgs.empty())
    return skip("no float argument");
  std::string why;
  std::optional<Program> decoded = decode(program.text, why);
  if (!decoded)
    return skip(why);
  Program &prog = *decoded;
  try {
    promoteConstants(prog.body);
  } catch (const Error &e) {
    return skip(std::string("constant: ") + e.what());
  }
  if (std::none_of(prog.resultDTypes.begin(), prog.resultDTypes.end(), isFloat))
    return skip("no float result");

  bool f32 = usesFloat32(program.text);
  // Eager vs compiled: same precision, different kernels (Eigen vs generated
  // code, polynomial transcendentals), so a few ulps amplified.
  double rtolEC = f32 ? 1e-3 : 1e-9, atolEC = f32 ? 1e-4 : 1e-10;
  // Against float64 finite differences: float32 rounding of the program
  // itself, and the differences' own truncation and rounding.
  double rtolFD = f32 ? 1e-2 : 1e-5, atolFD = f32 ? 2e-3 : 1e-6;

  // The forward JIT run prints; the forward tester compares prints.
  set_print_sink([](std::string_view) {});
  struct RestoreSink {
    ~RestoreSink() { set_print_sink(nullptr); }
  } restoreSink;

  std::vector<Tensor> forward, eagerGrads, compiledGrads, aroundGrads;
  Replay replay(prog, /*promote=*/false);
  std::string stage = "eager replay";
  try {
    forward = replay.run(program.args);
    stage = "JIT forward";
    jit::CompileOptions co;
    co.opt_level = options.optLevel;
    co.fuse = options.fuse;
    std::vector<Tensor> jitted =
        jit::CompiledModule::from_source(program.text, co)
            .call("main", program.args);
    for (size_t k = 0; k < forward.size() && k < jitted.size(); ++k) {
      const ResultCheck &c = program.checks[k];
      std::vector<double> a = toDoubles(forward[k]), b = toDoubles(jitted[k]);
      if (forward[k].shape() != jitted[k].shape()) {
        r.outcome = GradOutcome::Disagreed;
        r.detail = "eager replay vs JIT: result " + std::to_string(k) +
                   " has shape " + shape_to_string(forward[k].shape()) +
                   " vs " + shape_to_string(jitted[k].shape());
        return r;
      }
      for (size_t i = 0; i < a.size(); ++i)
        if (!within(a[i], b[i], c.atol, c.rtol)) {
          r.outcome = GradOutcome::Disagreed;
          r.detail = "eager replay vs JIT: result " + std::to_string(k) +
                     " element " + std::to_string(i) + ": " + fmt(a[i]) +
                     " vs " + fmt(b[i]);
          return r;
        }
    }

    stage = "eager gradient";
    {
      GradientTape tape;
      std::vector<Tensor> sources;
      for (size_t i : floatArgs) {
        tape.watch(program.args[i]);
        sources.push_back(program.args[i]);
      }
      Tensor loss = lossOf(replay.run(program.args));
      eagerGrads = tape.gradient(loss, sources);
    }

    stage = "compiled gradient";
    FunctionOptions fo;
    fo.opt_level = options.optLevel;
    fo.fuse = options.fuse;
    auto compiled = function(
        [&](const auto &...a) {
          std::vector<Tensor> all{Tensor(a)...};
          GradientTape tape;
          std::vector<Tensor> sources;
          for (size_t i : floatArgs) {
            tape.watch(all[i]);
            sources.push_back(all[i]);
          }
          Tensor loss = lossOf(replay.run(all));
          return tape.gradient(loss, sources);
        },
        fo);
    compiledGrads = callWith(compiled, program.args);

    // The tape outside, around a call of the compiled loss: the call's
    // compiled VJP (tfc-vjp) instead of the tape's traced backward.
    stage = "gradient around a compiled call";
    auto lossFn = function(
        [&](const auto &...a) {
          return std::vector<Tensor>{
              lossOf(replay.run(std::vector<Tensor>{Tensor(a)...}))};
        },
        fo);
    {
      GradientTape tape;
      std::vector<Tensor> sources;
      for (size_t i : floatArgs) {
        tape.watch(program.args[i]);
        sources.push_back(program.args[i]);
      }
      Tensor loss = callWith(lossFn, program.args)[0];
      aroundGrads = tape.gradient(loss, sources);
    }
  } catch (const Error &e) {
    r.outcome = GradOutcome::Error;
    r.detail = stage + ": " + e.what();
    return r;
  }

  // Eager vs compiled.
  std::vector<std::vector<double>> ge;
  for (size_t s = 0; s < floatArgs.size(); ++s) {
    ge.push_back(toDoubles(eagerGrads[s]));
    std::vector<double> gc = toDoubles(compiledGrads[s]);
    std::vector<double> ga = toDoubles(aroundGrads[s]);
    double scale = 1 + maxAbs(ge[s]);
    for (size_t i = 0; i < ge[s].size(); ++i) {
      if (!within(ge[s][i], gc[i], atolEC * scale, rtolEC)) {
        r.outcome = GradOutcome::Disagreed;
        r.detail = "eager vs compiled gradient w.r.t. argument " +
                   std::to_string(floatArgs[s]) + " element " +
                   std::to_string(i) + ": " + fmt(ge[s][i]) + " vs " +
                   fmt(gc[i]);
        return r;
      }
      if (!within(ge[s][i], ga[i], atolEC * scale, rtolEC)) {
        r.outcome = GradOutcome::Disagreed;
        r.detail = "eager vs around-a-compiled-call gradient w.r.t. "
                   "argument " +
                   std::to_string(floatArgs[s]) + " element " +
                   std::to_string(i) + ": " + fmt(ge[s][i]) + " vs " +
                   fmt(ga[i]);
        return r;
      }
    }
  }
  if (!options.finiteDifferences)
    return r;

  // Finite differences in float64.
  try {
    std::vector<Tensor> args64;
    for (const Tensor &a : program.args)
      args64.push_back(a.dtype() == DType::Float32 ? cast(a, DType::Float64)
                                                   : a);
    Replay wide(prog, /*promote=*/true);
    wide.freeze = Replay::Freeze::Record;
    std::vector<Tensor> outs64 = wide.run(args64);
    // The float64 program must compute what the float32 one does, up to
    // float32 rounding; otherwise a comparison or loop exit went another way.
    double sumAbs = 0;
    for (size_t k = 0; k < outs64.size(); ++k) {
      std::vector<double> a = toDoubles(forward[k]), b = toDoubles(outs64[k]);
      bool exact = !isFloat(forward[k].dtype());
      double tol = exact ? 0 : 1e-3 * (1 + maxAbs(a));
      for (size_t i = 0; i < a.size(); ++i) {
        if (!exact && std::isfinite(b[i]))
          sumAbs += std::fabs(b[i]);
        if (!within(a[i], b[i], tol, exact ? 0 : 1e-3))
          r.fdSkipped = true;
      }
    }
    if (r.fdSkipped)
      return r;
    wide.freeze = Replay::Freeze::Replay;
    wide.hashPath = true;
    double l0 = lossOf(wide.run(args64)).item<double>();
    uint64_t basePath = wide.pathHash;
    // Rounding noise of the float64 loss, divided by the step below.
    double noise = 1e-13 * (1 + sumAbs);
    for (size_t s = 0; s < floatArgs.size(); ++s) {
      const Tensor &x = args64[floatArgs[s]];
      std::vector<double> xs = x.to_vector<double>();
      double scale = 1 + maxAbs(ge[s]);
      for (size_t i = 0; i < xs.size(); ++i) {
        double h = 1e-4 * std::max(1.0, std::fabs(xs[i]));
        auto lossAt = [&](double xi) {
          std::vector<double> moved = xs;
          moved[i] = xi;
          std::vector<Tensor> a = args64;
          a[floatArgs[s]] = from_vector(moved, x.shape());
          return lossOf(wide.run(a)).item<double>();
        };
        // Central differences at h and h/2, combined by Richardson
        // extrapolation (error O(h^4)): a steep smooth function (tanh of a
        // product near 0) otherwise shows its curvature at 1e-5.
        bool samePath = true;
        auto at = [&](double xi) {
          double l = lossAt(xi);
          samePath = samePath && wide.pathHash == basePath;
          return l;
        };
        double lp = at(xs[i] + h), lm = at(xs[i] - h);
        double lp2 = at(xs[i] + h / 2), lm2 = at(xs[i] - h / 2);
        double fwd = (lp2 - l0) / (h / 2), bwd = (l0 - lm2) / (h / 2);
        double d1 = (lp - lm) / 2 / h, d2 = (lp2 - lm2) / h;
        double fd = d2 + (d2 - d1) / 3;
        if (!samePath || !std::isfinite(fd) || !std::isfinite(ge[s][i]) ||
            std::fabs(fwd - bwd) > 1e-2 * (1 + std::fabs(fd)) + noise / h) {
          ++r.fdNonSmooth;
          continue;
        }
        ++r.fdChecked;
        if (!within(ge[s][i], fd, atolFD * scale + noise / h, rtolFD)) {
          r.outcome = GradOutcome::Disagreed;
          r.detail = "gradient vs finite differences w.r.t. argument " +
                     std::to_string(floatArgs[s]) + " element " +
                     std::to_string(i) + ": " + fmt(ge[s][i]) + " vs " +
                     fmt(fd) + " (one-sided " + fmt(fwd) + ", " + fmt(bwd) +
                     ")";
          return r;
        }
      }
    }
  } catch (const Error &e) {
    r.outcome = GradOutcome::Error;
    r.detail = std::string("float64 replay: ") + e.what();
  }
  return r;
}

} // namespace tfc::fuzz
