//===- ProgramGenerator.cpp - Random well-typed tfc programs ----*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The generator writes MLIR text directly, op by op, while tracking for every
// SSA value its type, a bound on its magnitude and an error estimate (see the
// header). Values live in lexical scopes: a region of tfc.if / tfc.while sees
// everything defined around it, and its own values disappear when it closes.
//
// Most ops need operands of one exact type. `obtain` finds or makes one: an
// existing value of that type, or one derived from a value of another type
// (cast, broadcast_to, reshape, slice, transpose), or a constant. This keeps
// programs well typed by construction while the data flows through many ops.
//
//===----------------------------------------------------------------------===//

#include "ProgramGenerator.h"

#include "tfc/runtime/ConvGeometry.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

using namespace tfc;
using namespace tfc::fuzz;

namespace {

//===----------------------------------------------------------------------===//
// Numeric model
//===----------------------------------------------------------------------===//

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Unit roundoff: the relative error of one correctly rounded operation.
double unitRoundoff(DType t) { return t == DType::Float32 ? 0x1p-24 : 0x1p-53; }

/// How many ulps two implementations of a transcendental function (libm,
/// Eigen's vectorised versions, MLIR's polynomial approximations) may differ.
constexpr double kTranscendentalUlps = 16;

/// Slack of a loop-carried float that may be inexact, in units of roundoff
/// times its bound: the loop body may add this much error in total.
constexpr double kLoopSlackUlps = 1024;

/// Largest magnitude a value of `t` may reach: integers never wrap and
/// floats stay far from overflow (and keep absolute errors meaningful).
double limitOf(DType t) {
  switch (t) {
  case DType::Bool:
    return 1;
  case DType::Int32:
    return 0x1p30;
  case DType::Int64:
    return 0x1p40;
  case DType::Float32:
    return 1e6;
  case DType::Float64:
    return 1e9;
  }
  return 1;
}

bool isFloat(DType t) { return is_floating(t); }
bool isNumeric(DType t) { return t != DType::Bool; }

int64_t numelOf(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

/// A tensor type as the generator sees it: the actual (run-time) shape of
/// the value, and which dims the IR declares dynamic (`?`).
struct TType {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  /// Dims declared `?`; shorter than `shape` (or empty) means static.
  std::vector<bool> dyn;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  bool isDyn(int64_t i) const {
    return static_cast<size_t>(i) < dyn.size() && dyn[static_cast<size_t>(i)];
  }
  int dynCount() const {
    return static_cast<int>(std::count(dyn.begin(), dyn.end(), true));
  }
  bool hasDyn() const { return dynCount() > 0; }
  void setDyn(int64_t i, bool d) {
    if (dyn.size() < shape.size())
      dyn.resize(shape.size(), false);
    dyn[static_cast<size_t>(i)] = d;
  }
  /// The same value type with every dim static.
  TType staticType() const { return TType{dtype, shape, {}}; }
  TType withDType(DType d) const { return TType{d, shape, dyn}; }
  void insertDim(int64_t i, int64_t size, bool d = false) {
    dyn.resize(shape.size(), false);
    shape.insert(shape.begin() + i, size);
    dyn.insert(dyn.begin() + i, d);
  }
  void eraseDim(int64_t i) {
    dyn.resize(shape.size(), false);
    shape.erase(shape.begin() + i);
    dyn.erase(dyn.begin() + i);
  }
  bool sameShape(const TType &o) const {
    if (shape != o.shape)
      return false;
    for (int64_t i = 0; i < rank(); ++i)
      if (isDyn(i) != o.isDyn(i))
        return false;
    return true;
  }
  bool operator==(const TType &o) const {
    return dtype == o.dtype && sameShape(o);
  }
};

std::string typeString(const TType &t) {
  std::string s = "tensor<";
  for (int64_t i = 0; i < t.rank(); ++i)
    s += (t.isDyn(i) ? std::string("?") : std::to_string(t.shape[i])) + "x";
  return s + elementTypeName(t.dtype) + ">";
}

/// A float as MLIR and tfc-run parse it back exactly.
std::string formatFloat(double v, DType t) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (t == DType::Float32)
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(float(v)));
  else
    std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  // MLIR reads an integer literal as an integer; floats need a '.' or 'e'.
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

std::string formatScalar(double v, DType t) {
  switch (t) {
  case DType::Bool:
    return v != 0 ? "true" : "false";
  case DType::Int32:
  case DType::Int64:
    return std::to_string(static_cast<int64_t>(v));
  default:
    return formatFloat(v, t);
  }
}

/// Nested brackets of `values` (row-major) in the shape `shape`.
std::string nestedLiteral(const std::vector<std::string> &values,
                          const std::vector<int64_t> &shape, size_t dim,
                          size_t &next) {
  if (dim == shape.size())
    return values[next++];
  std::string s = "[";
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i)
      s += ", ";
    s += nestedLiteral(values, shape, dim + 1, next);
  }
  return s + "]";
}

/// One SSA value the generator knows about.
struct Val {
  std::string name;
  TType type;
  double bound = 0;           ///< Upper bound of |element|.
  double err = 0;             ///< Estimated |interpreter - JIT|; 0: bit-exact.
  bool primary = false;       ///< Result of a primary op (a result candidate).
  bool used = false;          ///< Consumed by some op.
  bool fromBroadcast = false; ///< Defined by tfc.broadcast_to.
  /// A view of a slice (a slice, or a reshape of one): may share its buffer
  /// with a bigger value in the compiled code.
  bool sliceView = false;
};

/// The window of a tfc.conv2d or a pooling op (or of their gradients), per
/// spatial dim (height, width): taps, stride, dilation (1 for pooling),
/// input and output size.
struct ConvWindow {
  int64_t k[2] = {1, 1}, stride[2] = {1, 1}, dilation[2] = {1, 1};
  int64_t in[2] = {1, 1}, out[2] = {1, 1};
  bool same = false;

  std::string attrs() const {
    auto pair = [](const int64_t v[2]) {
      return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "]";
    };
    return "strides = " + pair(stride) + ", dilations = " + pair(dilation) +
           ", padding = \"" + (same ? "SAME" : "VALID") + "\"";
  }
  /// The attributes of a pooling op.
  std::string poolAttrs() const {
    auto pair = [](const int64_t v[2]) {
      return "[" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + "]";
    };
    return "ksize = " + pair(k) + ", strides = " + pair(stride) +
           ", padding = \"" + (same ? "SAME" : "VALID") + "\"";
  }
  /// The most windows that hold one input element (a sum's term count in
  /// the gradients).
  int64_t overlap() const {
    int64_t n = 1;
    for (int d = 0; d < 2; ++d)
      n *= ((k[d] - 1) * dilation[d] + stride[d]) / stride[d];
    return n;
  }
};

std::string listOf(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

//===----------------------------------------------------------------------===//
// The generator
//===----------------------------------------------------------------------===//

class Generator {
public:
  Generator(uint64_t seed, const GeneratorOptions &options)
      : rng(mix(seed)), opt(options) {}

  GeneratedProgram run(uint64_t seed);

private:
  // --- randomness --------------------------------------------------------
  static uint64_t mix(uint64_t x) { // splitmix64: decorrelates close seeds
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
  }
  int64_t uniform(int64_t lo, int64_t hi) { // inclusive
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  double real(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  bool chance(double p) { return real(0, 1) < p; }
  template <class T> const T &pickOf(const std::vector<T> &v) {
    return v[static_cast<size_t>(
        uniform(0, static_cast<int64_t>(v.size()) - 1))];
  }

  // --- types and data ------------------------------------------------------
  DType randomDType(bool numericOnly = false);
  std::vector<int64_t> randomShape(int maxRank);
  TType randomType(bool numericOnly = false) {
    return {randomDType(numericOnly), randomShape(opt.maxRank)};
  }
  double randomElement(DType t, double maxAbs);
  Tensor makeArgument(const TType &t, bool special, double &bound);

  // --- emission ------------------------------------------------------------
  void line(const std::string &s) {
    text += std::string(2 * (indent + 1), ' ') + s + "\n";
  }
  std::string freshName() { return "%v" + std::to_string(nextName++); }
  int define(const std::string &rhs, const TType &t, double bound, double err,
             bool primary = false);
  int addValue(const std::string &name, const TType &t, double bound,
               double err, bool primary);
  Val &val(int id) { return vals[static_cast<size_t>(id)]; }
  const std::string &use(int id) {
    vals[static_cast<size_t>(id)].used = true;
    return vals[static_cast<size_t>(id)].name;
  }

  // --- scopes --------------------------------------------------------------
  std::vector<int> visible(const std::function<bool(const Val &)> &ok) const;
  int pick(const std::function<bool(const Val &)> &ok);

  // --- helpers (not counted as primary ops) ---------------------------------
  int constant(const TType &t, double maxAbs);
  int splat(const TType &t, double v);
  int dynamize(int id, const TType &t);
  bool knownBroadcastFoldBug(const Val &operand, const TType &t) const;
  void inheritFolds(int r, std::initializer_list<int> operands);
  bool knownCollapseCrash(const Val &operand) const;
  int tame(int id, double maxBound);
  int unaryHelper(const std::string &op, int id, double bound, double err);
  int binaryHelper(const std::string &op, int a, int b, double bound,
                   double err);
  int positive(int id, double offset);
  int obtain(const TType &t, double maxErr = kInf);
  int deriveCast(const TType &t, double maxErr);
  int deriveBroadcast(const TType &t, double maxErr);
  int deriveReshape(const TType &t, double maxErr);
  int deriveSlice(const TType &t, double maxErr);
  int deriveTranspose(const TType &t, double maxErr);
  int castTo(int id, DType to, bool remask = false);
  TType randomMask(const TType &t, DType dt);
  TType randomImage(DType dt);
  void randomTaps(ConvWindow &w, int d, bool pool);
  ConvWindow convWindow(int64_t h, int64_t w, bool pool = false);
  ConvWindow convWindowFor(int64_t outH, int64_t outW, bool pool = false);
  int makePredicate();
  std::string cmpPredicate(DType operands);
  /// Rounding error a correctly rounded op adds to a result of `bound` whose
  /// operands carry `inErr`: none when the operands are exact.
  double rounding(DType t, double inErr, double bound) const {
    return isFloat(t) && inErr > 0 ? unitRoundoff(t) * bound : 0;
  }
  double transcendental(DType t, double bound) const {
    return kTranscendentalUlps * unitRoundoff(t) * std::max(bound, 1.0);
  }

  // --- primary ops ---------------------------------------------------------
  void genOps(int count);
  bool genOne();
  bool genUnary();
  bool genBinary();
  bool genCmp();
  bool genSelect();
  bool genCast();
  bool genBroadcast();
  bool genReduce();
  bool genMatmul();
  bool genTranspose();
  bool genReshape();
  bool genExpandDims();
  bool genSqueeze();
  bool genConcat();
  bool genSlice();
  bool genArgmax();
  bool genSoftmax();
  bool genCrossEntropy();
  bool genOneHot();
  bool genConv();
  bool genPool();
  bool genGather();
  bool genSegmentSum();
  bool genCumsum();
  bool genTopK();
  bool genSparseCrossEntropy();
  bool genRandom();
  int indexConstant(const std::vector<int64_t> &shape, int64_t lo, int64_t hi);
  bool genIf();
  bool genWhile();
  bool genPrint();
  bool genAssert();

  // --- special-value programs ----------------------------------------------
  void genSpecialBody();

  std::mt19937_64 rng;
  const GeneratorOptions &opt;
  std::vector<Val> vals;
  std::vector<std::vector<int>> scopes;
  std::string text;
  int indent = 0;
  int nextName = 0;
  int nesting = 0;
  std::set<int> loose; ///< Special-program results compared loosely.
  int budget = 0;      ///< Primary ops still to generate.
  int primary = 0;     ///< Primary ops generated.
  int labels = 0;
};

//===----------------------------------------------------------------------===//
// Types and data
//===----------------------------------------------------------------------===//

DType Generator::randomDType(bool numericOnly) {
  // f32 most often (the common case), then the others.
  static const std::vector<std::pair<DType, int>> weights = {
      {DType::Float32, 35},
      {DType::Float64, 20},
      {DType::Int32, 20},
      {DType::Int64, 10},
      {DType::Bool, 15}};
  int total = 0;
  for (auto &[t, w] : weights)
    if (!numericOnly || t != DType::Bool)
      total += w;
  int64_t r = uniform(0, total - 1);
  for (auto &[t, w] : weights) {
    if (numericOnly && t == DType::Bool)
      continue;
    if (r < w)
      return t;
    r -= w;
  }
  return DType::Float32;
}

std::vector<int64_t> Generator::randomShape(int maxRank) {
  int rank = static_cast<int>(uniform(0, 9));
  rank = rank < 1 ? 0 : rank < 4 ? 1 : rank < 8 ? 2 : 3; // 10/30/40/20 %
  rank = std::min(rank, maxRank);
  std::vector<int64_t> shape;
  for (int i = 0; i < rank; ++i)
    shape.push_back(chance(0.2) ? 1 : uniform(1, opt.maxDim));
  return shape;
}

double Generator::randomElement(DType t, double maxAbs) {
  switch (t) {
  case DType::Bool:
    return chance(0.5) ? 1 : 0;
  case DType::Int32:
  case DType::Int64: {
    int64_t m = static_cast<int64_t>(std::floor(maxAbs));
    return static_cast<double>(uniform(-m, m));
  }
  default: {
    // Quarter-grid values make ties and exact results common (argmax ties,
    // cmp eq, floor_div/mod at exact multiples); arbitrary reals make
    // rounding realistic.
    if (chance(0.6)) {
      int64_t q = static_cast<int64_t>(std::floor(maxAbs * 4));
      return static_cast<double>(uniform(-q, q)) / 4;
    }
    double v = real(-maxAbs, maxAbs);
    return t == DType::Float32 ? static_cast<double>(static_cast<float>(v)) : v;
  }
  }
}

Tensor Generator::makeArgument(const TType &t, bool special, double &bound) {
  Tensor tensor = Tensor::empty(t.dtype, t.shape);
  int64_t n = tensor.numel();
  double intRange = chance(0.2) ? 1000 : 20;
  static const std::vector<double> specials = {
      std::numeric_limits<double>::quiet_NaN(),
      kInf,
      -kInf,
      0.0,
      -0.0,
      1.0,
      -1.0,
      0.5,
      -2.5,
      3.0,
      1e-3,
      88.5,
      -100.0,
      1e30,
      -1e30};
  bound = 0;
  dispatch_dtype(t.dtype, [&](auto tag) {
    using T = decltype(tag);
    T *p = tensor.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      double v;
      if (special && isFloat(t.dtype))
        v = chance(0.7) ? pickOf(specials) : randomElement(t.dtype, 4);
      else
        v = randomElement(t.dtype, isFloat(t.dtype) ? 4 : intRange);
      p[i] = static_cast<T>(v);
      if (!std::isnan(v))
        bound = std::max(bound, std::fabs(static_cast<double>(p[i])));
    }
  });
  return tensor;
}

//===----------------------------------------------------------------------===//
// Emission and scopes
//===----------------------------------------------------------------------===//

int Generator::addValue(const std::string &name, const TType &t, double bound,
                        double err, bool isPrimary) {
  Val v;
  v.name = name;
  v.type = t;
  v.bound = t.dtype == DType::Bool ? 1 : bound;
  v.err = isFloat(t.dtype) ? err : 0;
  v.primary = isPrimary;
  vals.push_back(std::move(v));
  int id = static_cast<int>(vals.size()) - 1;
  scopes.back().push_back(id);
  return id;
}

int Generator::define(const std::string &rhs, const TType &t, double bound,
                      double err, bool isPrimary) {
  std::string name = freshName();
  line(name + " = " + rhs);
  if (isPrimary)
    ++primary;
  int id = addValue(name, t, bound, err, isPrimary);
  val(id).fromBroadcast = rhs.rfind("tfc.broadcast_to ", 0) == 0;
  val(id).sliceView = rhs.rfind("tfc.slice ", 0) == 0;
  return id;
}

std::vector<int>
Generator::visible(const std::function<bool(const Val &)> &ok) const {
  std::vector<int> ids;
  for (const auto &scope : scopes)
    for (int id : scope)
      if (ok(vals[static_cast<size_t>(id)]))
        ids.push_back(id);
  return ids;
}

int Generator::pick(const std::function<bool(const Val &)> &ok) {
  std::vector<int> ids = visible(ok);
  if (ids.empty())
    return -1;
  // Unused values first: every value should flow somewhere observable.
  std::vector<double> weights;
  for (int id : ids)
    weights.push_back(val(id).used ? 1.0 : 4.0);
  std::discrete_distribution<size_t> d(weights.begin(), weights.end());
  return ids[d(rng)];
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

int Generator::constant(const TType &t, double maxAbs) {
  if (t.hasDyn())
    return dynamize(constant(t.staticType(), maxAbs), t);
  int64_t n = numelOf(t.shape);
  std::vector<std::string> text;
  double bound = 0;
  bool splatValue = chance(0.3);
  double first = randomElement(t.dtype, maxAbs);
  for (int64_t i = 0; i < n; ++i) {
    double v = splatValue ? first : randomElement(t.dtype, maxAbs);
    if (t.dtype == DType::Float32)
      v = static_cast<float>(v);
    bound = std::max(bound, std::fabs(v));
    text.push_back(formatScalar(v, t.dtype));
  }
  std::string literal;
  if (splatValue || n == 1) {
    literal = text.front();
  } else {
    size_t next = 0;
    literal = nestedLiteral(text, t.shape, 0, next);
  }
  return define("tfc.constant dense<" + literal + "> : " + typeString(t), t,
                bound, 0);
}

int Generator::splat(const TType &t, double v) {
  if (t.hasDyn()) // constants are static; broadcast_to declares the `?`s
    return dynamize(splat(t.staticType(), v), t);
  return define("tfc.constant dense<" + formatScalar(v, t.dtype) +
                    "> : " + typeString(t),
                t, std::fabs(v), 0);
}

/// `id` (static, broadcastable to `t`) as a value of type `t`: a
/// broadcast_to whose dynamic dims take their size from the operand.
int Generator::dynamize(int id, const TType &t) {
  const Val x = val(id);
  return define("tfc.broadcast_to " + use(id) + " : " + typeString(x.type) +
                    " to " + typeString(t),
                t, x.bound, x.err);
}

/// Clamps `id` into [-maxBound, maxBound] when its bound exceeds maxBound.
/// Exact stays exact; a clamp never increases the error.
int Generator::tame(int id, double maxBound) {
  const TType t = val(id).type;
  if (!isNumeric(t.dtype) || val(id).bound <= maxBound)
    return id;
  double b;
  if (isFloat(t.dtype))
    b = std::exp2(std::floor(std::log2(maxBound))); // exact in f32 and f64
  else
    b = std::max(1.0, std::floor(maxBound));
  double err = val(id).err;
  int lo = splat(t, -b), hi = splat(t, b);
  int a =
      define("tfc.maximum " + use(id) + ", " + use(lo) + " : " + typeString(t),
             t, val(id).bound, err);
  return define("tfc.minimum " + use(a) + ", " + use(hi) + " : " +
                    typeString(t),
                t, b, err);
}

int Generator::unaryHelper(const std::string &op, int id, double bound,
                           double err) {
  const TType t = val(id).type;
  return define("tfc." + op + " " + use(id) + " : " + typeString(t), t, bound,
                err);
}

int Generator::binaryHelper(const std::string &op, int a, int b, double bound,
                            double err) {
  const TType t = val(a).type;
  std::string lhs = use(a), rhs = use(b);
  return define("tfc." + op + " " + lhs + ", " + rhs + " : " + typeString(t), t,
                bound, err);
}

/// abs(x) + offset: a divisor or logarithm argument that is >= offset.
int Generator::positive(int id, double offset) {
  const Val x = val(id);
  int a = unaryHelper("abs", id, x.bound, x.err);
  int c = splat(x.type, offset);
  double bound = x.bound + offset;
  return binaryHelper("add", a, c, bound,
                      x.err + rounding(x.type.dtype, x.err, bound));
}

/// A type of the same dtype `dt` and size as `t` whose dims are each
/// dynamic with probability 0.3.
TType Generator::randomMask(const TType &t, DType dt) {
  TType r{dt, t.shape, {}};
  for (int64_t i = 0; i < r.rank(); ++i)
    r.setDyn(i, chance(0.3));
  return r;
}

/// Casts `id` to `to`, clamping first where the target range needs it. With
/// `remask`, the result declares a random set of dims dynamic.
int Generator::castTo(int id, DType to, bool remask) {
  Val x = val(id);
  if (x.type.dtype == to && !remask)
    return id;
  if (to != DType::Bool && isNumeric(x.type.dtype))
    id = tame(id, limitOf(to));
  x = val(id);
  TType t = remask ? randomMask(x.type, to) : x.type.withDType(to);
  double bound = to == DType::Bool ? 1 : x.bound;
  double err = 0;
  if (isFloat(to) && isFloat(x.type.dtype))
    err = x.err + rounding(to, x.err, x.bound);
  return define("tfc.cast " + use(id) + " : " + typeString(x.type) + " to " +
                    typeString(t),
                t, bound, err);
}

int Generator::deriveCast(const TType &t, double maxErr) {
  int id = pick([&](const Val &v) {
    if (!v.type.sameShape(t) || v.type.dtype == t.dtype)
      return false;
    // Float -> int/bool is discontinuous: only exact floats go there.
    if (isFloat(v.type.dtype) && !isFloat(t.dtype))
      return v.err == 0;
    if (isFloat(t.dtype) && isFloat(v.type.dtype))
      return v.err + rounding(t.dtype, v.err, v.bound) <= maxErr;
    return true;
  });
  return id < 0 ? -1 : castTo(id, t.dtype);
}

int Generator::deriveBroadcast(const TType &t, double maxErr) {
  int id = pick([&](const Val &v) {
    if (v.type.dtype != t.dtype || v.err > maxErr || v.type.rank() > t.rank() ||
        v.type.sameShape(t))
      return false;
    int64_t off = t.rank() - v.type.rank();
    for (int64_t i = 0; i < v.type.rank(); ++i)
      if (v.type.shape[i] != 1 && v.type.shape[i] != t.shape[i + off])
        return false;
    // A dynamic target dim takes the size of the operand dim under it.
    for (int64_t j = 0; j < t.rank(); ++j)
      if (t.isDyn(j) && (j < off || v.type.shape[j - off] != t.shape[j]))
        return false;
    return !knownBroadcastFoldBug(v, t);
  });
  if (id < 0)
    return -1;
  const Val x = val(id);
  return define("tfc.broadcast_to " + use(id) + " : " + typeString(x.type) +
                    " to " + typeString(t),
                t, x.bound, x.err);
}

int Generator::deriveReshape(const TType &t, double maxErr) {
  int id = pick([&](const Val &v) {
    // The interpreter infers at most one dynamic dim of a reshape.
    return v.type.dtype == t.dtype && v.err <= maxErr && t.dynCount() <= 1 &&
           !knownCollapseCrash(v) && !v.type.sameShape(t) &&
           numelOf(v.type.shape) == numelOf(t.shape);
  });
  if (id < 0)
    return -1;
  const Val x = val(id);
  int r = define("tfc.reshape " + use(id) + " : " + typeString(x.type) +
                     " -> " + typeString(t),
                 t, x.bound, x.err);
  val(r).sliceView = x.sliceView;
  return r;
}

int Generator::deriveSlice(const TType &t, double maxErr) {
  int id = pick([&](const Val &v) {
    // A slice's type is its static size; its operand may be dynamic.
    if (v.type.dtype != t.dtype || v.err > maxErr || t.hasDyn() ||
        v.type.rank() != t.rank() || t.rank() == 0 || v.type.sameShape(t))
      return false;
    for (int64_t i = 0; i < t.rank(); ++i)
      if (v.type.shape[i] < t.shape[i])
        return false;
    return true;
  });
  if (id < 0)
    return -1;
  const Val x = val(id);
  std::string begin, size;
  for (int64_t i = 0; i < t.rank(); ++i) {
    int64_t b = uniform(0, x.type.shape[i] - t.shape[i]);
    begin += (i ? ", " : "") + std::to_string(b);
    size += (i ? ", " : "") + std::to_string(t.shape[i]);
  }
  return define("tfc.slice " + use(id) + ", begin = [" + begin + "], size = [" +
                    size + "] : " + typeString(x.type) + " -> " + typeString(t),
                t, x.bound, x.err);
}

int Generator::deriveTranspose(const TType &t, double maxErr) {
  std::vector<int64_t> perm;
  // Dims as (size, dynamic) pairs: a transpose permutes both.
  auto dims = [](const TType &ty) {
    std::vector<std::pair<int64_t, bool>> d;
    for (int64_t i = 0; i < ty.rank(); ++i)
      d.emplace_back(ty.shape[i], ty.isDyn(i));
    return d;
  };
  int id = pick([&](const Val &v) {
    if (v.type.dtype != t.dtype || v.err > maxErr ||
        v.type.rank() != t.rank() || t.rank() < 2 || v.type.sameShape(t))
      return false;
    auto a = dims(v.type), b = dims(t);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    return a == b;
  });
  if (id < 0)
    return -1;
  const Val x = val(id);
  // Result dim i is operand dim perm[i]: match dims greedily.
  std::vector<bool> taken(static_cast<size_t>(t.rank()), false);
  for (int64_t i = 0; i < t.rank(); ++i)
    for (int64_t j = 0; j < t.rank(); ++j)
      if (!taken[j] && x.type.shape[j] == t.shape[i] &&
          x.type.isDyn(j) == t.isDyn(i)) {
        taken[j] = true;
        perm.push_back(j);
        break;
      }
  std::string p;
  for (size_t i = 0; i < perm.size(); ++i)
    p += (i ? ", " : "") + std::to_string(perm[i]);
  return define("tfc.transpose " + use(id) + ", perm = [" + p +
                    "] : " + typeString(x.type) + " -> " + typeString(t),
                t, x.bound, x.err);
}

/// Folders may replace `r` by one of `operands` (select of equal operands
/// or a constant condition, x + 0, neg(neg(x)), ...): it inherits what the
/// known-bug checks need to know about them.
void Generator::inheritFolds(int r, std::initializer_list<int> operands) {
  for (int id : operands) {
    val(r).fromBroadcast = val(r).fromBroadcast || val(id).fromBroadcast;
    val(r).sliceView = val(r).sliceView || val(id).sliceView;
  }
}

/// Known bug (upstream llvm-project#186830, fixed in LLVM 23): reshaping a
/// value with two or more `?` dims collapses them into one group; fusion
/// moves that through elementwise ops as an expand_shape with two dynamic
/// dims in a group, and expand-strided-metadata then crashes the process.
bool Generator::knownCollapseCrash(const Val &operand) const {
  return opt.avoidKnownBugs && operand.type.dynCount() >= 2;
}

/// Known bug: the tfc.broadcast_to folder composes nested broadcasts, which
/// changes the size of a `?` dim of the outer target.
bool Generator::knownBroadcastFoldBug(const Val &operand,
                                      const TType &t) const {
  return opt.avoidKnownBugs && operand.fromBroadcast && t.hasDyn();
}

/// A value of type `t` with error at most `maxErr`: an existing one, one
/// derived from another value, or a constant.
int Generator::obtain(const TType &t, double maxErr) {
  auto exact = [&](const Val &v) { return v.type == t && v.err <= maxErr; };
  bool have = !visible(exact).empty();
  if (have && chance(0.6))
    return pick(exact);
  std::vector<int> order = {0, 1, 2, 3, 4};
  std::shuffle(order.begin(), order.end(), rng);
  for (int k : order) {
    if (!chance(0.7))
      continue;
    int id = -1;
    switch (k) {
    case 0:
      id = deriveCast(t, maxErr);
      break;
    case 1:
      id = deriveBroadcast(t, maxErr);
      break;
    case 2:
      id = deriveReshape(t, maxErr);
      break;
    case 3:
      id = deriveSlice(t, maxErr);
      break;
    case 4:
      id = deriveTranspose(t, maxErr);
      break;
    }
    if (id >= 0)
      return id;
  }
  if (have)
    return pick(exact);
  return constant(t, isFloat(t.dtype) ? 4 : 10);
}

/// A random tfc.cmp predicate for operands of `operands`.
std::string Generator::cmpPredicate(DType operands) {
  static const std::vector<std::string> all = {"eq", "ne", "lt",
                                               "le", "gt", "ge"};
  // Known bug: the interpreter rejects ordered comparisons of i1, which the
  // dialect defines (false < true).
  if (operands == DType::Bool && opt.avoidKnownBugs)
    return chance(0.5) ? "eq" : "ne";
  return pickOf(all);
}

/// A rank-0 `tensor<i1>` computed exactly from the data in scope.
int Generator::makePredicate() {
  TType predType{DType::Bool, {}};
  if (chance(0.3)) {
    int id = pick([&](const Val &v) { return v.type == predType; });
    if (id >= 0)
      return id;
  }
  int id = pick([](const Val &v) { return v.err == 0; });
  if (id < 0)
    return constant(predType, 1);
  Val x = val(id);
  if (x.type.dtype == DType::Bool) {
    id = castTo(id, DType::Int32);
    x = val(id);
  }
  if (x.type.rank() > 0) {
    // max/min reductions are exact, unlike sums.
    std::string axes;
    for (int64_t i = 0; i < x.type.rank(); ++i)
      axes += (i ? ", " : "") + std::to_string(i);
    TType s{x.type.dtype, {}};
    id =
        define("tfc." + std::string(chance(0.5) ? "reduce_max" : "reduce_min") +
                   " " + use(id) + ", axes = [" + axes +
                   "], keepdims = false : " + typeString(x.type) + " -> " +
                   typeString(s),
               s, x.bound, 0);
    x = val(id);
  }
  int rhs = chance(0.5) ? obtain(x.type, 0) : constant(x.type, 2);
  std::string lhs = use(id);
  return define("tfc.cmp " + cmpPredicate(x.type.dtype) + ", " + lhs + ", " +
                    use(rhs) + " : " + typeString(x.type),
                predType, 1, 0);
}

//===----------------------------------------------------------------------===//
// Primary ops
//===----------------------------------------------------------------------===//

void Generator::genOps(int count) {
  for (int i = 0; i < count && budget > 0; ++i)
    if (genOne())
      --budget;
}

bool Generator::genOne() {
  using Fn = bool (Generator::*)();
  struct Entry {
    Fn fn;
    int weight;
  };
  static const std::vector<Entry> table = {
      {&Generator::genUnary, 14},
      {&Generator::genBinary, 18},
      {&Generator::genCmp, 5},
      {&Generator::genSelect, 5},
      {&Generator::genCast, 5},
      {&Generator::genBroadcast, 5},
      {&Generator::genReduce, 8},
      {&Generator::genMatmul, 5},
      {&Generator::genTranspose, 3},
      {&Generator::genReshape, 3},
      {&Generator::genExpandDims, 2},
      {&Generator::genSqueeze, 2},
      {&Generator::genConcat, 3},
      {&Generator::genSlice, 3},
      {&Generator::genArgmax, 3},
      {&Generator::genSoftmax, 3},
      {&Generator::genCrossEntropy, 1},
      {&Generator::genOneHot, 2},
      {&Generator::genConv, 3},
      {&Generator::genPool, 3},
      {&Generator::genGather, 3},
      {&Generator::genSegmentSum, 2},
      {&Generator::genCumsum, 2},
      {&Generator::genTopK, 2},
      {&Generator::genSparseCrossEntropy, 1},
      {&Generator::genRandom, 1},
      {&Generator::genIf, 4},
      {&Generator::genWhile, 4},
      {&Generator::genPrint, 1},
      {&Generator::genAssert, 1}};
  std::vector<double> weights;
  for (const Entry &e : table)
    weights.push_back(e.weight);
  std::discrete_distribution<size_t> d(weights.begin(), weights.end());
  for (int attempt = 0; attempt < 20; ++attempt)
    if ((this->*table[d(rng)].fn)())
      return true;
  return false;
}

bool Generator::genUnary() {
  int id = pick([](const Val &) { return true; });
  if (id < 0)
    return false;
  Val x = val(id);
  DType dt = x.type.dtype;
  std::vector<std::string> ops = {"stop_gradient"};
  if (dt == DType::Bool) {
    ops.push_back("logical_not");
  } else {
    ops.insert(ops.end(), {"neg", "abs", "square", "relu"});
    if (isFloat(dt))
      ops.insert(ops.end(), {"exp", "log", "log1p", "sqrt", "sin", "cos",
                             "tanh", "sigmoid", "exp", "log", "tanh", "erf"});
    // floor jumps at every integer: exact operands only.
    if (isFloat(dt) && x.err == 0)
      ops.push_back("floor");
  }
  std::string op = pickOf(ops);
  double u = isFloat(dt) ? unitRoundoff(dt) : 0;
  double bound = x.bound, err = x.err;
  if (op == "square") {
    id = tame(id, std::sqrt(limitOf(dt)));
    x = val(id);
    bound = x.bound * x.bound;
    err = 2 * x.bound * x.err + rounding(dt, x.err, bound);
  } else if (op == "exp") {
    // exp of a tame argument: tanh first, or a clamp into [-8, 8].
    if (chance(0.5)) {
      id = unaryHelper("tanh", id, std::min(x.bound, 1.0),
                       x.err + transcendental(dt, 1));
    } else {
      id = tame(id, 8);
    }
    x = val(id);
    bound = std::exp(x.bound);
    err = bound * x.err + transcendental(dt, bound);
  } else if (op == "log") {
    id = positive(id, 1);
    x = val(id);
    bound = std::log(x.bound);
    err = x.err + transcendental(dt, bound);
  } else if (op == "log1p") {
    id = unaryHelper("abs", id, x.bound, x.err);
    x = val(id);
    bound = std::log1p(x.bound);
    err = x.err + transcendental(dt, bound);
  } else if (op == "sqrt") {
    // sqrt is correctly rounded: exact on exact operands. Near 0 its slope
    // is unbounded, so an inexact operand is moved to >= 1 first.
    if (x.err == 0 && chance(0.5))
      id = unaryHelper("abs", id, x.bound, 0);
    else
      id = positive(id, 1);
    x = val(id);
    bound = std::sqrt(x.bound);
    err = x.err / 2 + rounding(dt, x.err, bound);
    // Known bug: the runtime's f32 sqrt (Eigen's fast-math rsqrt + Newton
    // step) is not correctly rounded; allow it a few ulps.
    if (opt.avoidKnownBugs && dt == DType::Float32)
      err += 4 * u * std::max(bound, 1.0);
  } else if (op == "sin" || op == "cos") {
    id = tame(id, 64);
    x = val(id);
    bound = 1;
    err = x.err + kTranscendentalUlps * u * std::max(x.bound, 1.0);
  } else if (op == "tanh") {
    bound = std::min(x.bound, 1.0);
    err = x.err + transcendental(dt, 1);
  } else if (op == "sigmoid") {
    bound = 1;
    err = x.err / 4 + transcendental(dt, 1);
  } else if (op == "erf") {
    // Slope at most 2 / sqrt(pi).
    bound = std::min(x.bound, 1.0);
    err = 1.13 * x.err + transcendental(dt, 1);
  } else if (op == "floor") {
    bound = x.bound + 1;
    err = 0; // exact operand, exact result
  }
  x = val(id);
  int r = define("tfc." + op + " " + use(id) + " : " + typeString(x.type),
                 x.type, bound, err, true);
  if (op == "stop_gradient") // lowers to its operand
    val(r).sliceView = x.sliceView;
  inheritFolds(r, {id});
  return true;
}

bool Generator::genBinary() {
  int a = pick([](const Val &) { return true; });
  if (a < 0)
    return false;
  Val x = val(a);
  DType dt = x.type.dtype;
  std::vector<std::string> ops;
  if (dt == DType::Bool)
    ops = {"logical_and", "logical_or"};
  else
    ops = {"add", "sub", "mul", "maximum",   "minimum",
           "pow", "add", "mul", "floor_div", "mod"};
  if (isFloat(dt))
    ops.insert(ops.end(), {"div", "div"});
  std::string op = pickOf(ops);
  bool discontinuous = op == "floor_div" || op == "mod";
  // Float floor_div/mod jump at multiples of the divisor: exact inputs only.
  if (isFloat(dt) && discontinuous && x.err > 0)
    return false;
  double limit = limitOf(dt);
  double bound = 0, err = 0;
  int b = obtain(x.type, isFloat(dt) && discontinuous ? 0 : kInf);
  if (op == "add" || op == "sub") {
    a = tame(a, limit / 2);
    b = tame(b, limit / 2);
    bound = val(a).bound + val(b).bound;
    err = val(a).err + val(b).err;
    err += rounding(dt, err, bound);
  } else if (op == "mul") {
    a = tame(a, std::sqrt(limit));
    b = tame(b, std::sqrt(limit));
    const Val &p = val(a), &q = val(b);
    bound = p.bound * q.bound;
    err = p.err * q.bound + q.err * p.bound + p.err * q.err;
    err += rounding(dt, err, bound);
  } else if (op == "maximum" || op == "minimum") {
    bound = std::max(val(a).bound, val(b).bound);
    err = std::max(val(a).err, val(b).err);
  } else if (op == "div") {
    // Divisors are >= 1 in magnitude: abs(y) + 1, sometimes negated.
    b = positive(b, 1);
    if (chance(0.3))
      b = unaryHelper("neg", b, val(b).bound, val(b).err);
    const Val &p = val(a), &q = val(b);
    bound = p.bound;
    err = p.err + p.bound * q.err;
    err += rounding(dt, err, bound);
  } else if (discontinuous) {
    // Nonzero divisors: abs(y) + 1, sometimes negated (mod takes its sign).
    b = positive(b, 1);
    if (chance(0.4))
      b = unaryHelper("neg", b, val(b).bound, 0);
    bound = op == "mod" ? val(b).bound : val(a).bound + 1;
    err = 0;
  } else if (op == "pow") {
    if (!isFloat(dt) || chance(0.4)) {
      // A small non-negative integer exponent: mod(y, 4) in [0, 3].
      int y = isFloat(dt) ? obtain(x.type.withDType(DType::Int32)) : b;
      TType yt = val(y).type;
      int four = splat(yt, 4);
      y = binaryHelper("mod", y, four, 3, 0);
      if (isFloat(dt))
        y = castTo(y, dt);
      b = y;
      a = tame(a, std::cbrt(limit));
      bound = std::max(1.0, std::pow(val(a).bound, 3));
      err = 3 * std::max(1.0, val(a).bound * val(a).bound) * val(a).err;
      if (isFloat(dt))
        err += transcendental(dt, bound);
    } else {
      // A real exponent in [-4, 4] of a base in [0.5, 8].
      a = positive(a, 0.5);
      a = tame(a, 8);
      b = tame(b, 4);
      const Val &p = val(a), &q = val(b);
      bound = std::pow(p.bound, q.bound);
      double lo = 0.5, hi = p.bound;
      double maxPow = std::max(std::pow(hi, q.bound), std::pow(lo, -q.bound));
      err = q.bound * maxPow / lo * p.err +
            maxPow * std::log(std::max(hi, 1 / lo)) * q.err +
            transcendental(dt, maxPow);
      bound = maxPow;
    }
  } else if (op == "logical_and" || op == "logical_or") {
    bound = 1;
  }
  x = val(a);
  std::string lhs = use(a), rhs = use(b);
  int r =
      define("tfc." + op + " " + lhs + ", " + rhs + " : " + typeString(x.type),
             x.type, bound, err, true);
  inheritFolds(r, {a, b});
  return true;
}

bool Generator::genCmp() {
  int a = pick([](const Val &v) { return v.err == 0; });
  if (a < 0)
    return false;
  TType t = val(a).type;
  int b = obtain(t, 0);
  std::string lhs = use(a), rhs = use(b);
  return define("tfc.cmp " + cmpPredicate(t.dtype) + ", " + lhs + ", " + rhs +
                    " : " + typeString(t),
                t.withDType(DType::Bool), 1, 0, true) >= 0;
}

bool Generator::genSelect() {
  int a = pick([](const Val &) { return true; });
  if (a < 0)
    return false;
  TType t = val(a).type;
  // The condition needs only a compatible shape: sometimes static where the
  // values are dynamic, or the other way round.
  TType ct =
      chance(0.8) ? t.withDType(DType::Bool) : randomMask(t, DType::Bool);
  int c = obtain(ct, 0);
  int b = obtain(t);
  double bound = std::max(val(a).bound, val(b).bound);
  double err = std::max(val(a).err, val(b).err);
  std::string cs = use(c), as = use(a), bs = use(b);
  int r = define("tfc.select " + cs + ", " + as + ", " + bs + " : " +
                     typeString(ct) + ", " + typeString(t),
                 t, bound, err, true);
  inheritFolds(r, {a, b});
  return true;
}

bool Generator::genCast() {
  int a = pick([](const Val &) { return true; });
  if (a < 0)
    return false;
  Val x = val(a);
  DType to = randomDType();
  if (to == x.type.dtype)
    return false;
  if (isFloat(x.type.dtype) && !isFloat(to) && x.err > 0)
    return false;
  // A cast may also change which dims are static (compatible shapes).
  int r = castTo(a, to, chance(0.2));
  val(r).primary = true;
  ++primary;
  return true;
}

bool Generator::genBroadcast() {
  int a = pick([](const Val &v) { return v.type.rank() < 4; });
  if (a < 0)
    return false;
  Val x = val(a);
  TType t{x.type.dtype, {}, {}};
  int64_t extra = uniform(0, 3 - std::min<int64_t>(x.type.rank(), 3));
  for (int64_t i = 0; i < extra; ++i)
    t.insertDim(t.rank(), uniform(1, 4));
  for (int64_t i = 0; i < x.type.rank(); ++i) {
    int64_t d = x.type.shape[i];
    // Size-1 dims (static or dynamic) may expand; a kept dim may be
    // declared dynamic: it then takes the operand's size at run time.
    if (d == 1 && chance(0.6))
      t.insertDim(t.rank(), uniform(2, 4));
    else
      t.insertDim(t.rank(), d, x.type.isDyn(i) ? chance(0.7) : chance(0.15));
  }
  if (t.sameShape(x.type) || knownBroadcastFoldBug(x, t))
    return false;
  return define("tfc.broadcast_to " + use(a) + " : " + typeString(x.type) +
                    " to " + typeString(t),
                t, x.bound, x.err, true) >= 0;
}

bool Generator::genReduce() {
  int a = pick([](const Val &v) { return isNumeric(v.type.dtype); });
  if (a < 0)
    return false;
  Val x = val(a);
  DType dt = x.type.dtype;
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < x.type.rank(); ++i)
    if (chance(0.5))
      axes.push_back(i);
  if (axes.empty() && x.type.rank() > 0 && chance(0.7))
    axes.push_back(uniform(0, x.type.rank() - 1));
  bool keepdims = chance(0.4);
  double count = 1;
  for (int64_t ax : axes)
    count *= static_cast<double>(x.type.shape[ax]);
  static const std::vector<std::string> kinds = {
      "reduce_sum",  "reduce_mean", "reduce_max", "reduce_min",
      "reduce_prod", "reduce_sum",  "reduce_max"};
  std::string kind = pickOf(kinds);
  double limit = limitOf(dt), u = isFloat(dt) ? unitRoundoff(dt) : 0;
  double bound = x.bound, err = x.err;
  if (kind == "reduce_sum" || kind == "reduce_mean") {
    a = tame(a, limit / count);
    x = val(a);
    bool mean = kind == "reduce_mean";
    bound = mean ? x.bound : x.bound * count;
    // The summation order differs (Eigen vs a sequential loop).
    err = (mean ? x.err : x.err * count) +
          (isFloat(dt) && count > 1 ? count * u * x.bound * (mean ? 1 : count)
                                    : 0);
    if (isFloat(dt) && mean)
      err += u * x.bound;
  } else if (kind == "reduce_prod") {
    a = tame(a, std::max(1.0, std::pow(limit, 1 / count)));
    x = val(a);
    bound = std::pow(x.bound, count);
    err = count * std::pow(std::max(x.bound, 1.0), count - 1) * x.err +
          (isFloat(dt) && count > 1 ? 2 * count * u * bound : 0);
  }
  // Kept dims keep their `?`; reduced ones vanish or become a static 1.
  TType t{dt, {}, {}};
  for (int64_t i = 0; i < x.type.rank(); ++i) {
    bool reduced = std::find(axes.begin(), axes.end(), i) != axes.end();
    if (!reduced)
      t.insertDim(t.rank(), x.type.shape[i], x.type.isDyn(i));
    else if (keepdims)
      t.insertDim(t.rank(), 1);
  }
  std::string list;
  for (size_t i = 0; i < axes.size(); ++i)
    list += (i ? ", " : "") + std::to_string(axes[i]);
  return define("tfc." + kind + " " + use(a) + ", axes = [" + list +
                    "], keepdims = " + (keepdims ? "true" : "false") + " : " +
                    typeString(x.type) + " -> " + typeString(t),
                t, bound, err, true) >= 0;
}

bool Generator::genMatmul() {
  int a = pick([](const Val &v) {
    return isNumeric(v.type.dtype) && v.type.rank() >= 2;
  });
  TType lt;
  if (a < 0 || chance(0.2)) {
    lt.dtype = randomDType(/*numericOnly=*/true);
    if (chance(0.4))
      lt.shape.push_back(uniform(1, 4)); // batched
    lt.shape.push_back(uniform(1, 5));
    lt.shape.push_back(uniform(1, 5));
    a = obtain(lt);
  }
  lt = val(a).type;
  DType dt = lt.dtype;
  int64_t rank = lt.rank();
  int64_t k = lt.shape[rank - 1];
  // Batch dims as the lhs (so the inferred ones are the lhs's); k and n
  // static or dynamic at random.
  TType rt = lt;
  rt.shape[rank - 2] = k;
  rt.shape[rank - 1] = uniform(1, 5);
  rt.setDyn(rank - 2, chance(0.15));
  rt.setDyn(rank - 1, chance(0.15));
  int b = obtain(rt);
  double limit = limitOf(dt);
  double kk = static_cast<double>(k);
  a = tame(a, std::sqrt(limit / kk));
  b = tame(b, std::sqrt(limit / kk));
  const Val &p = val(a), &q = val(b);
  double bound = kk * p.bound * q.bound;
  double err = kk * (p.err * q.bound + q.err * p.bound + p.err * q.err);
  if (isFloat(dt) && k > 1)
    err += 2 * kk * unitRoundoff(dt) * bound;
  TType t = lt;
  t.shape[rank - 1] = rt.shape[rank - 1];
  t.setDyn(rank - 1, rt.isDyn(rank - 1));
  std::string lhs = use(a), rhs = use(b);
  return define("tfc.matmul " + lhs + ", " + rhs + " : (" + typeString(lt) +
                    ", " + typeString(rt) + ") -> " + typeString(t),
                t, bound, err, true) >= 0;
}

bool Generator::genTranspose() {
  int a = pick([](const Val &v) { return v.type.rank() >= 2; });
  if (a < 0)
    return false;
  Val x = val(a);
  std::vector<int64_t> perm(static_cast<size_t>(x.type.rank()));
  std::iota(perm.begin(), perm.end(), 0);
  while (std::is_sorted(perm.begin(), perm.end()))
    std::shuffle(perm.begin(), perm.end(), rng);
  TType t = x.type;
  std::string p;
  for (size_t i = 0; i < perm.size(); ++i) {
    t.shape[i] = x.type.shape[static_cast<size_t>(perm[i])];
    t.setDyn(static_cast<int64_t>(i), x.type.isDyn(perm[i]));
    p += (i ? ", " : "") + std::to_string(perm[i]);
  }
  return define("tfc.transpose " + use(a) + ", perm = [" + p +
                    "] : " + typeString(x.type) + " -> " + typeString(t),
                t, x.bound, x.err, true) >= 0;
}

bool Generator::genReshape() {
  int a = pick([&](const Val &v) { return !knownCollapseCrash(v); });
  if (a < 0)
    return false;
  Val x = val(a);
  // A random factorisation of the element count into up to 4 dims.
  int64_t n = numelOf(x.type.shape);
  std::vector<int64_t> shape;
  int rank = static_cast<int>(uniform(0, 4));
  int64_t rest = n;
  for (int i = 0; i + 1 < rank; ++i) {
    std::vector<int64_t> divisors;
    for (int64_t d = 1; d <= rest; ++d)
      if (rest % d == 0)
        divisors.push_back(d);
    int64_t d = pickOf(divisors);
    shape.push_back(d);
    rest /= d;
  }
  if (rank > 0)
    shape.push_back(rest);
  else if (n != 1)
    shape.push_back(n);
  TType t{x.type.dtype, shape, {}};
  // At most one dynamic dim: the interpreter infers one, like NumPy's -1.
  if (t.rank() > 0 && chance(0.2))
    t.setDyn(uniform(0, t.rank() - 1), true);
  if (t.sameShape(x.type))
    return false;
  int r = define("tfc.reshape " + use(a) + " : " + typeString(x.type) + " -> " +
                     typeString(t),
                 t, x.bound, x.err, true);
  val(r).sliceView = val(a).sliceView; // a view of the same buffer
  return true;
}

bool Generator::genExpandDims() {
  int a = pick([](const Val &v) { return v.type.rank() < 4; });
  if (a < 0)
    return false;
  Val x = val(a);
  int64_t axis = uniform(0, x.type.rank());
  TType t = x.type;
  t.insertDim(axis, 1);
  int r =
      define("tfc.expand_dims " + use(a) + ", axis = " + std::to_string(axis) +
                 " : " + typeString(x.type) + " -> " + typeString(t),
             t, x.bound, x.err, true);
  val(r).sliceView = val(a).sliceView; // a view of the same buffer
  return true;
}

bool Generator::genSqueeze() {
  int a = pick([](const Val &v) {
    for (int64_t i = 0; i < v.type.rank(); ++i)
      if (v.type.shape[i] == 1 && !v.type.isDyn(i))
        return true;
    return false;
  });
  if (a < 0)
    return false;
  Val x = val(a);
  std::vector<int64_t> axes;
  for (int64_t i = 0; i < x.type.rank(); ++i)
    if (x.type.shape[i] == 1 && !x.type.isDyn(i) && chance(0.7))
      axes.push_back(i);
  if (axes.empty())
    return false;
  TType t{x.type.dtype, {}, {}};
  std::string list;
  for (int64_t i = 0; i < x.type.rank(); ++i)
    if (std::find(axes.begin(), axes.end(), i) == axes.end())
      t.insertDim(t.rank(), x.type.shape[i], x.type.isDyn(i));
  for (size_t i = 0; i < axes.size(); ++i)
    list += (i ? ", " : "") + std::to_string(axes[i]);
  int r = define("tfc.squeeze " + use(a) + ", axes = [" + list +
                     "] : " + typeString(x.type) + " -> " + typeString(t),
                 t, x.bound, x.err, true);
  val(r).sliceView = val(a).sliceView; // a view of the same buffer
  return true;
}

bool Generator::genConcat() {
  int a = pick([](const Val &v) { return v.type.rank() >= 1; });
  if (a < 0)
    return false;
  TType first = val(a).type;
  int64_t axis = uniform(0, first.rank() - 1);
  std::vector<int> ins = {a};
  int64_t n = uniform(1, 2);
  for (int64_t i = 0; i < n; ++i) {
    TType t = first;
    t.shape[axis] = chance(0.5) ? first.shape[axis] : uniform(1, 4);
    // Inputs may disagree on which dims are dynamic.
    for (int64_t d = 0; d < t.rank(); ++d)
      if (chance(0.15))
        t.setDyn(d, !t.isDyn(d));
    ins.push_back(obtain(t));
  }
  // Inferred: the axis dim is dynamic if any input's is; another dim is
  // static if any input's is.
  TType r = first;
  r.shape[axis] = 0;
  for (int64_t d = 0; d < r.rank(); ++d) {
    bool anyDyn = false, allDyn = true;
    for (int id : ins) {
      anyDyn |= val(id).type.isDyn(d);
      allDyn &= val(id).type.isDyn(d);
    }
    r.setDyn(d, d == axis ? anyDyn : allDyn);
  }
  double bound = 0, err = 0;
  std::string names, types;
  for (size_t i = 0; i < ins.size(); ++i) {
    const Val &v = val(ins[i]);
    r.shape[axis] += v.type.shape[axis];
    bound = std::max(bound, v.bound);
    err = std::max(err, v.err);
    names += (i ? ", " : "") + use(ins[i]);
    types += (i ? ", " : "") + typeString(val(ins[i]).type);
  }
  return define("tfc.concat " + names + " axis = " + std::to_string(axis) +
                    " : (" + types + ") -> " + typeString(r),
                r, bound, err, true) >= 0;
}

bool Generator::genSlice() {
  int a = pick([](const Val &v) { return v.type.rank() >= 1; });
  if (a < 0)
    return false;
  Val x = val(a);
  TType t = x.type.staticType(); // the result shape is `size`
  std::string begin, size;
  for (int64_t i = 0; i < t.rank(); ++i) {
    int64_t s = uniform(1, x.type.shape[i]);
    int64_t b = uniform(0, x.type.shape[i] - s);
    t.shape[i] = s;
    begin += (i ? ", " : "") + std::to_string(b);
    size += (i ? ", " : "") + std::to_string(s);
  }
  return define("tfc.slice " + use(a) + ", begin = [" + begin + "], size = [" +
                    size + "] : " + typeString(x.type) + " -> " + typeString(t),
                t, x.bound, x.err, true) >= 0;
}

bool Generator::genArgmax() {
  // Argmax picks an index: one ulp can move it, so exact operands only.
  int a = pick([](const Val &v) {
    return isNumeric(v.type.dtype) && v.type.rank() >= 1 && v.err == 0;
  });
  if (a < 0)
    return false;
  Val x = val(a);
  int64_t axis = uniform(0, x.type.rank() - 1);
  TType t = x.type.withDType(DType::Int64);
  t.eraseDim(axis);
  return define("tfc.argmax " + use(a) + ", axis = " + std::to_string(axis) +
                    " : " + typeString(x.type) + " -> " + typeString(t),
                t, static_cast<double>(x.type.shape[axis] - 1), 0, true) >= 0;
}

bool Generator::genSoftmax() {
  int a = pick(
      [](const Val &v) { return isFloat(v.type.dtype) && v.type.rank() >= 1; });
  if (a < 0)
    return false;
  Val x = val(a);
  DType dt = x.type.dtype;
  int64_t axis = uniform(0, x.type.rank() - 1);
  double n = static_cast<double>(x.type.shape[axis]);
  bool log = chance(0.4);
  // Both are 1-Lipschitz per element in the max norm (up to a factor 2).
  double bound = log ? 2 * x.bound + std::log(n) : 1;
  double err = 2 * x.err + kTranscendentalUlps * unitRoundoff(dt) *
                               (n + 2 * x.bound + std::log(n) + 1);
  return define(std::string("tfc.") + (log ? "log_softmax " : "softmax ") +
                    use(a) + ", axis = " + std::to_string(axis) + " : " +
                    typeString(x.type),
                x.type, bound, err, true) >= 0;
}

bool Generator::genCrossEntropy() {
  int a = pick(
      [](const Val &v) { return isFloat(v.type.dtype) && v.type.rank() >= 1; });
  if (a < 0)
    return false;
  Val x = val(a);
  DType dt = x.type.dtype;
  int lab = obtain(x.type);
  if (chance(0.6)) { // labels as a distribution, as in training
    const Val &l = val(lab);
    lab = define(
        "tfc.softmax " + use(lab) + ", axis = " +
            std::to_string(x.type.rank() - 1) + " : " + typeString(x.type),
        x.type, 1,
        2 * l.err + kTranscendentalUlps * unitRoundoff(dt) * (8 + 2 * l.bound));
  }
  const Val &l = val(lab);
  double n = static_cast<double>(x.type.shape.back());
  double lsBound = 2 * x.bound + std::log(n);
  double lsErr =
      2 * x.err + kTranscendentalUlps * unitRoundoff(dt) * (n + lsBound + 1);
  double bound = n * l.bound * lsBound;
  double err = n * (l.err * lsBound + l.bound * lsErr + l.err * lsErr) +
               2 * n * unitRoundoff(dt) * bound;
  TType t = x.type;
  t.eraseDim(t.rank() - 1);
  std::string ls = use(lab), lg = use(a);
  return define("tfc.softmax_cross_entropy " + ls + ", " + lg + " : " +
                    typeString(x.type) + " -> " + typeString(t),
                t, bound, err, true) >= 0;
}

bool Generator::genOneHot() {
  int a = pick([](const Val &v) {
    return (v.type.dtype == DType::Int32 || v.type.dtype == DType::Int64) &&
           v.type.rank() < 4;
  });
  if (a < 0)
    return false;
  Val x = val(a);
  int64_t depth = uniform(1, 5);
  // Out-of-range and negative indices give all-zero rows: keep some.
  if (x.bound > 8 && chance(0.7)) {
    int m = splat(x.type, static_cast<double>(depth + 1));
    a = binaryHelper("mod", a, m, static_cast<double>(depth + 1), 0);
    x = val(a);
  }
  TType t = x.type.withDType(randomDType());
  t.insertDim(t.rank(), depth);
  return define("tfc.one_hot " + use(a) + ", depth = " + std::to_string(depth) +
                    " : " + typeString(x.type) + " -> " + typeString(t),
                t, 1, 0, true) >= 0;
}

/// An int32 or int64 constant of `shape` with elements in [lo, hi).
int Generator::indexConstant(const std::vector<int64_t> &shape, int64_t lo,
                             int64_t hi) {
  TType t{chance(0.5) ? DType::Int32 : DType::Int64, shape, {}};
  std::vector<std::string> text;
  double bound = 0;
  for (int64_t i = 0; i < numelOf(shape); ++i) {
    int64_t v = uniform(lo, hi - 1);
    bound = std::max(bound, std::fabs(static_cast<double>(v)));
    text.push_back(std::to_string(v));
  }
  std::string literal;
  if (shape.empty()) {
    literal = text.front();
  } else {
    size_t next = 0;
    literal = nestedLiteral(text, shape, 0, next);
  }
  return define("tfc.constant dense<" + literal + "> : " + typeString(t), t,
                bound, 0);
}

bool Generator::genGather() {
  int a = pick([](const Val &v) { return v.type.rank() >= 1; });
  if (a < 0)
    return false;
  Val x = val(a);
  int64_t axis = uniform(0, x.type.rank() - 1);
  int64_t n = x.type.shape[axis];
  if (n == 0)
    return false;
  std::vector<int64_t> ishape;
  for (int64_t r = uniform(0, 2); r > 0; --r)
    ishape.push_back(uniform(1, 3));
  int idx = indexConstant(ishape, 0, n);
  TType t{x.type.dtype, {}, {}};
  for (int64_t d = 0; d < x.type.rank(); ++d) {
    if (d == axis) {
      for (int64_t s : ishape)
        t.insertDim(t.rank(), s);
      continue;
    }
    t.insertDim(t.rank(), x.type.shape[d], x.type.isDyn(d));
  }
  const Val &iv = val(idx);
  return define("tfc.gather " + use(a) + ", " + use(idx) + ", axis = " +
                    std::to_string(axis) + " : (" + typeString(x.type) + ", " +
                    typeString(iv.type) + ") -> " + typeString(t),
                t, x.bound, x.err, true) >= 0;
}

bool Generator::genSegmentSum() {
  int a = pick([](const Val &v) {
    return isNumeric(v.type.dtype) && v.type.rank() >= 1 && !v.type.isDyn(0);
  });
  if (a < 0)
    return false;
  Val x = val(a);
  DType dt = x.type.dtype;
  int64_t m = x.type.shape[0], n = uniform(1, 5);
  // Integer sums must not wrap: small operands only.
  if (!isFloat(dt)) {
    a = tame(a, 1 << 20);
    x = val(a);
  }
  // Ids in [-1, n): -1 drops its slice.
  int ids = indexConstant({m}, -1, n);
  TType t = x.type;
  t.shape[0] = n;
  double terms = static_cast<double>(std::max<int64_t>(m, 1));
  double bound = terms * x.bound;
  double err =
      isFloat(dt) ? terms * x.err + 2 * terms * unitRoundoff(dt) * bound : 0;
  const Val &iv = val(ids);
  return define("tfc.unsorted_segment_sum " + use(a) + ", " + use(ids) +
                    ", num_segments = " + std::to_string(n) + " : (" +
                    typeString(x.type) + ", " + typeString(iv.type) + ") -> " +
                    typeString(t),
                t, bound, err, true) >= 0;
}

bool Generator::genCumsum() {
  int a = pick([](const Val &v) {
    return isNumeric(v.type.dtype) && v.type.rank() >= 1;
  });
  if (a < 0)
    return false;
  Val x = val(a);
  DType dt = x.type.dtype;
  if (!isFloat(dt)) {
    a = tame(a, 1 << 20);
    x = val(a);
  }
  int64_t axis = uniform(0, x.type.rank() - 1);
  double terms = static_cast<double>(std::max<int64_t>(x.type.shape[axis], 1));
  double bound = terms * x.bound;
  double err =
      isFloat(dt) ? terms * x.err + 2 * terms * unitRoundoff(dt) * bound : 0;
  bool exclusive = chance(0.5), reverse = chance(0.5);
  return define("tfc.cumsum " + use(a) + ", axis = " + std::to_string(axis) +
                    ", exclusive = " + (exclusive ? "true" : "false") +
                    ", reverse = " + (reverse ? "true" : "false") + " : " +
                    typeString(x.type),
                x.type, bound, err, true) >= 0;
}

bool Generator::genTopK() {
  // The order of exact values only: one ulp could swap two.
  int a = pick([](const Val &v) {
    return isNumeric(v.type.dtype) && v.type.rank() >= 1 && v.err == 0 &&
           !v.type.isDyn(v.type.rank() - 1);
  });
  if (a < 0)
    return false;
  Val x = val(a);
  // k >= 1: later ops are not generated for empty tensors.
  int64_t n = x.type.shape.back();
  if (n == 0)
    return false;
  int64_t k = uniform(1, n);
  TType t = x.type.withDType(DType::Int32);
  t.shape.back() = k;
  return define("tfc.top_k_indices " + use(a) + ", k = " + std::to_string(k) +
                    " : " + typeString(x.type) + " -> " + typeString(t),
                t, static_cast<double>(std::max<int64_t>(n - 1, 0)), 0,
                true) >= 0;
}

bool Generator::genSparseCrossEntropy() {
  int a = pick([](const Val &v) {
    return isFloat(v.type.dtype) && v.type.rank() >= 1 &&
           !v.type.isDyn(v.type.rank() - 1) && v.type.shape.back() > 0;
  });
  if (a < 0)
    return false;
  Val x = val(a);
  DType dt = x.type.dtype;
  int64_t n = x.type.shape.back();
  std::vector<int64_t> lshape(x.type.shape.begin(), x.type.shape.end() - 1);
  int lab = indexConstant(lshape, 0, n);
  TType lt = val(lab).type;
  TType t = x.type;
  t.eraseDim(t.rank() - 1);
  // Labels of the logits' leading type (dynamic dims included).
  for (int64_t d = 0; d < lt.rank(); ++d)
    if (t.isDyn(d))
      lt.setDyn(d, true);
  if (lt.hasDyn())
    lab = dynamize(lab, lt);
  double bound = 2 * x.bound + std::log(static_cast<double>(n));
  double err = 2 * x.err + kTranscendentalUlps * unitRoundoff(dt) *
                               (static_cast<double>(n) + bound + 1);
  return define("tfc.sparse_softmax_cross_entropy " + use(lab) + ", " + use(a) +
                    " : (" + typeString(lt) + ", " + typeString(x.type) +
                    ") -> " + typeString(t),
                t, bound, err, true) >= 0;
}

bool Generator::genRandom() {
  TType st{DType::Int64, {2}, {}};
  int64_t key = uniform(0, int64_t(1) << 40), counter = uniform(0, 1 << 20);
  int s = define("tfc.constant dense<[" + std::to_string(key) + ", " +
                     std::to_string(counter) + "]> : " + typeString(st),
                 st, static_cast<double>(key), 0);
  DType dt = chance(0.5) ? DType::Float32 : DType::Float64;
  TType t{dt, {}, {}};
  for (int64_t r = uniform(0, 3); r > 0; --r)
    t.insertDim(t.rank(), uniform(1, 4));
  std::string dist =
      pickOf(std::vector<std::string>{"uniform", "normal", "truncated_normal"});
  // Both modes call the runtime's kernel: the same bits.
  double bound = dist == "uniform" ? 1 : dist == "normal" ? 9 : 2;
  return define("tfc.philox_random " + use(s) + ", \"" + dist +
                    "\" : " + typeString(st) + " -> " + typeString(t),
                t, bound, 0, true) >= 0;
}

/// A small NHWC image of dtype `dt`: batch 1-2, height and width 1-6,
/// channels 1-3; the batch now and then dynamic (the one dim the conv
/// lowering takes dynamic).
TType Generator::randomImage(DType dt) {
  TType t{dt, {uniform(1, 2), uniform(1, 6), uniform(1, 6), uniform(1, 3)}};
  t.setDyn(0, chance(0.15));
  return t;
}

/// Taps 1-3, stride 1-2 and dilation 1-2 along dim `d` of `w`; for a
/// `pool`, stride 1-3 (windows that skip elements too) and no dilation.
void Generator::randomTaps(ConvWindow &w, int d, bool pool) {
  w.k[d] = uniform(1, 3);
  w.stride[d] = uniform(1, pool ? 3 : 2);
  w.dilation[d] = !pool && chance(0.3) ? 2 : 1;
}

/// A random window over an input of `h` x `w`: SAME or VALID, VALID windows
/// shrunk to fit (the verifier rejects longer ones).
ConvWindow Generator::convWindow(int64_t h, int64_t w, bool pool) {
  ConvWindow c;
  c.same = chance(0.5);
  c.in[0] = h;
  c.in[1] = w;
  for (int d = 0; d < 2; ++d) {
    randomTaps(c, d, pool);
    if (!c.same && (c.k[d] - 1) * c.dilation[d] + 1 > c.in[d]) {
      c.dilation[d] = 1;
      c.k[d] = std::min(c.k[d], c.in[d]);
    }
    c.out[d] =
        kernels::window_dim(c.in[d], c.k[d], c.stride[d], c.dilation[d], c.same)
            ->out;
  }
  return c;
}

/// A random window whose output is `outH` x `outW`, with an input size
/// that gives it: what a gradient op needs when its dy comes first.
ConvWindow Generator::convWindowFor(int64_t outH, int64_t outW, bool pool) {
  ConvWindow c;
  c.same = chance(0.5);
  c.out[0] = outH;
  c.out[1] = outW;
  for (int d = 0; d < 2; ++d) {
    randomTaps(c, d, pool);
    int64_t span = (c.k[d] - 1) * c.dilation[d] + 1, s = c.stride[d];
    // SAME: out = ceil(in / s); VALID: out = (in - span) / s + 1.
    c.in[d] = (c.out[d] - 1) * s +
              (c.same ? uniform(1, s) : span + uniform(0, s - 1));
    assert(
        kernels::window_dim(c.in[d], c.k[d], s, c.dilation[d], c.same)->out ==
        c.out[d]);
  }
  return c;
}

/// Rank-4 float values small enough to convolve or pool, height and width
/// at most `maxHW`; height, width and channels static (the lowerings need
/// static windows).
std::function<bool(const Val &)> imageOf(int64_t maxHW) {
  return [maxHW](const Val &v) {
    const TType &t = v.type;
    return isFloat(t.dtype) && t.rank() == 4 && !t.isDyn(1) && !t.isDyn(2) &&
           !t.isDyn(3) && t.shape[0] <= 4 && t.shape[1] <= maxHW &&
           t.shape[2] <= maxHW && t.shape[3] <= 4;
  };
}

bool Generator::genConv() {
  auto image = imageOf;
  DType dt = chance(0.65) ? DType::Float32 : DType::Float64;
  int64_t kind = uniform(0, 4); // conv2d 3/5, each gradient op 1/5
  std::string op, attrs;
  int a = -1, b = -1; // the two operands
  TType t;            // the result
  double terms = 1;   // products summed per result element
  if (kind == 3) {
    // conv2d_backprop_input(filter, dy): dy first, often an existing value
    // (a conv2d's result, as in a backward pass), the input size solved
    // for its geometry.
    int dy = chance(0.6) ? pick(image(6)) : -1;
    TType dyt = dy >= 0 ? val(dy).type : randomImage(dt);
    dt = dyt.dtype;
    ConvWindow w = convWindowFor(dyt.shape[1], dyt.shape[2]);
    int64_t c = uniform(1, 3), o = dyt.shape[3];
    t = TType{dt, {dyt.shape[0], w.in[0], w.in[1], c}};
    a = obtain(TType{dt, {w.k[0], w.k[1], c, o}});
    b = dy >= 0 ? dy : obtain(dyt);
    op = "conv2d_backprop_input";
    attrs = "input_shape = " + listOf(t.shape) + ", " + w.attrs();
    terms = static_cast<double>(w.k[0] * w.k[1] * o);
  } else {
    int x = chance(0.7) ? pick(image(8)) : -1;
    TType xt = x >= 0 ? val(x).type : randomImage(dt);
    dt = xt.dtype;
    if (x < 0)
      x = obtain(xt);
    ConvWindow w = convWindow(xt.shape[1], xt.shape[2]);
    int64_t n = xt.shape[0], c = xt.shape[3], o = uniform(1, 3);
    TType yt{dt, {n, w.out[0], w.out[1], o}};
    yt.setDyn(0, xt.isDyn(0));
    a = x;
    if (kind < 3) {
      b = obtain(TType{dt, {w.k[0], w.k[1], c, o}});
      t = yt;
      op = "conv2d";
      attrs = w.attrs();
      terms = static_cast<double>(w.k[0] * w.k[1] * c);
    } else {
      // dy's batch may be dynamic where the input's is not (compatible).
      TType dyt = yt;
      dyt.setDyn(0, chance(0.3) ? !xt.isDyn(0) : xt.isDyn(0));
      b = obtain(dyt);
      t = TType{dt, {w.k[0], w.k[1], c, o}};
      op = "conv2d_backprop_filter";
      attrs = "filter_shape = " + listOf(t.shape) + ", " + w.attrs();
      terms = static_cast<double>(n * w.out[0] * w.out[1]);
    }
  }
  // Sums of products, as matmul: the summation order differs (im2col +
  // GEMM in the runtime, linalg loops or the same kernels compiled).
  double limit = limitOf(dt);
  a = tame(a, std::sqrt(limit / terms));
  b = tame(b, std::sqrt(limit / terms));
  const Val &p = val(a), &q = val(b);
  double bound = terms * p.bound * q.bound;
  double err = terms * (p.err * q.bound + q.err * p.bound + p.err * q.err);
  err += terms > 1 ? 2 * terms * unitRoundoff(dt) * bound
                   : rounding(dt, err, bound);
  std::string types = "(" + typeString(p.type) + ", " + typeString(q.type) +
                      ") -> " + typeString(t);
  std::string lhs = use(a), rhs = use(b);
  return define("tfc." + op + " " + lhs + ", " + rhs + ", " + attrs + " : " +
                    types,
                t, bound, err, true) >= 0;
}

/// max_pool2d, avg_pool2d and their gradients. Which element is a window's
/// first maximum jumps with the input: max_pool2d_grad and
/// max_pool2d_grad_grad take exact inputs only (as floor does), so both
/// executors pick the same one, ties included; max_pool2d itself is
/// continuous (as maximum) and takes any.
bool Generator::genPool() {
  DType dt = chance(0.65) ? DType::Float32 : DType::Float64;
  int64_t kind = uniform(0, 5); // max_pool2d 2/6, the others 1/6 each
  std::string op, operands, attrs, types;
  TType t; // the result
  double bound = 0, err = 0;
  if (kind == 5) {
    // avg_pool2d_grad(dy): dy first, often an existing value (a pool's
    // result, as in a backward pass), the input size solved for it.
    int dy = chance(0.6) ? pick(imageOf(6)) : -1;
    TType dyt = dy >= 0 ? val(dy).type : randomImage(dt);
    dt = dyt.dtype;
    ConvWindow w = convWindowFor(dyt.shape[1], dyt.shape[2], /*pool=*/true);
    t = TType{dt, {dyt.shape[0], w.in[0], w.in[1], dyt.shape[3]}};
    double terms = static_cast<double>(w.overlap());
    dy = tame(dy >= 0 ? dy : obtain(dyt), limitOf(dt) / terms);
    const Val &g = val(dy);
    // dy / count summed over the windows holding the element (the runtime
    // scales by 1 / count, the compiled code divides: an ulp apart).
    bound = terms * g.bound;
    err = terms * g.err + (2 * terms + 2) * unitRoundoff(dt) * bound;
    op = "avg_pool2d_grad";
    operands = use(dy);
    attrs = "input_shape = " + listOf(t.shape) + ", " + w.poolAttrs();
    types = typeString(g.type) + " -> " + typeString(t);
  } else {
    bool exact = kind == 3 || kind == 4; // where the maxima are decides
    auto image = imageOf(8);
    int x = chance(0.7) ? pick([&](const Val &v) {
      return image(v) && (!exact || v.err == 0);
    })
                        : -1;
    TType xt = x >= 0 ? val(x).type : randomImage(dt);
    dt = xt.dtype;
    if (x < 0)
      x = obtain(xt, exact ? 0 : kInf);
    ConvWindow w = convWindow(xt.shape[1], xt.shape[2], /*pool=*/true);
    TType yt{dt, {xt.shape[0], w.out[0], w.out[1], xt.shape[3]}};
    yt.setDyn(0, xt.isDyn(0));
    attrs = w.poolAttrs();
    double u = unitRoundoff(dt);
    if (kind < 3) {
      const Val &p = val(x);
      t = yt;
      bound = p.bound;
      err = p.err;
      op = kind < 2 ? "max_pool2d" : "avg_pool2d";
      if (kind == 2) {
        // A sum in the window's row-major order in both executors, then a
        // division by the count; the model does not rely on the order.
        double terms = static_cast<double>(std::min(w.k[0], w.in[0]) *
                                           std::min(w.k[1], w.in[1]));
        err += terms > 1 ? 2 * terms * u * bound : 0;
      }
      operands = use(x);
      types = typeString(p.type) + " -> " + typeString(t);
    } else {
      // The second operand's batch may be dynamic where the input's is not
      // (compatible): dy shaped like the result (max_pool2d_grad), grad
      // like the input (max_pool2d_grad_grad).
      TType bt = kind == 3 ? yt : xt;
      bt.setDyn(0, chance(0.3) ? !xt.isDyn(0) : xt.isDyn(0));
      int b = obtain(bt);
      if (kind == 3) {
        // dy summed over the windows whose maximum the element is.
        double terms = static_cast<double>(w.overlap());
        b = tame(b, limitOf(dt) / terms);
        const Val &q = val(b);
        t = xt;
        bound = terms * q.bound;
        err = terms * q.err + (terms > 1 ? 2 * terms * u * bound : 0);
        op = "max_pool2d_grad";
      } else {
        const Val &q = val(b);
        t = yt;
        bound = q.bound;
        err = q.err;
        op = "max_pool2d_grad_grad";
      }
      const Val &p = val(x), &q = val(b);
      types = "(" + typeString(p.type) + ", " + typeString(q.type) + ") -> " +
              typeString(t);
      std::string lhs = use(x);
      operands = lhs + ", " + use(b);
    }
  }
  return define("tfc." + op + " " + operands + ", " + attrs + " : " + types, t,
                bound, err, true) >= 0;
}

bool Generator::genIf() {
  if (nesting >= opt.maxNesting || budget < 3)
    return false;
  int pred = makePredicate();
  std::vector<TType> types;
  int64_t n = uniform(1, 3);
  for (int64_t i = 0; i < n; ++i) {
    int id = pick([](const Val &) { return true; });
    types.push_back(id >= 0 && chance(0.7) ? val(id).type : randomType());
  }
  std::string typeList;
  for (size_t i = 0; i < types.size(); ++i)
    typeList += (i ? ", " : "") + typeString(types[i]);
  std::string result = freshName();
  line(result + (n > 1 ? ":" + std::to_string(n) : "") + " = tfc.if " +
       use(pred) + " -> (" + typeList + ") {");
  --budget; // the if itself
  ++primary;
  std::vector<double> bounds(types.size(), 0), errs(types.size(), 0);
  std::vector<bool> views(types.size(), false);
  ++nesting;
  for (int branch = 0; branch < 2; ++branch) {
    if (branch == 1)
      line("} else {");
    ++indent;
    scopes.emplace_back();
    genOps(static_cast<int>(uniform(0, std::min(4, budget))));
    std::string names;
    for (size_t i = 0; i < types.size(); ++i) {
      int y = obtain(types[i]);
      bounds[i] = std::max(bounds[i], val(y).bound);
      errs[i] = std::max(errs[i], val(y).err);
      views[i] = views[i] || val(y).sliceView;
      names += (i ? ", " : "") + use(y);
    }
    line("tfc.yield " + names + " : " + typeList);
    scopes.pop_back();
    --indent;
  }
  --nesting;
  line("}");
  for (size_t i = 0; i < types.size(); ++i) {
    int r = addValue(n > 1 ? result + "#" + std::to_string(i) : result,
                     types[i], bounds[i], errs[i], true);
    val(r).sliceView = views[i];
  }
  // The caller counts one op; the if was counted above.
  ++budget;
  return true;
}

bool Generator::genWhile() {
  if (nesting >= opt.maxNesting || budget < 3)
    return false;
  struct Carried {
    TType type;
    int init;
    double bound, err;
    bool view = false; ///< Some value it takes is a slice view.
  };
  TType counterType{DType::Int32, {}};
  int64_t start = uniform(-2, 2);
  int64_t trips = uniform(0, opt.maxTripCount);
  std::vector<Carried> carried;
  int c0 = splat(counterType, static_cast<double>(start));
  int limit = splat(counterType, static_cast<double>(start + trips));
  int one = splat(counterType, 1);
  double counterBound =
      static_cast<double>(std::max(std::abs(start), std::abs(start + trips)));
  carried.push_back({counterType, c0, counterBound, 0});
  int64_t n = uniform(1, 3);
  for (int64_t i = 0; i < n; ++i) {
    int id = pick([](const Val &) { return true; });
    if (id < 0)
      break;
    Val x = val(id);
    DType dt = x.type.dtype;
    // The body may grow a carried value up to its bound; yields are clamped
    // back into it, so the bound holds in every iteration.
    double b = 1;
    if (isNumeric(dt)) {
      static const std::vector<double> bounds = {1, 4, 16, 100, 1000};
      b = std::min(pickOf(bounds), limitOf(dt) / 4);
      id = tame(id, b);
      x = val(id);
      b = std::max(b, x.bound);
    }
    double err = 0;
    if (isFloat(dt) && (x.err > 0 || chance(0.4)))
      err = std::max(x.err, kLoopSlackUlps * unitRoundoff(dt) * b);
    carried.push_back({x.type, id, b, err});
  }
  std::string typeList, inits;
  std::vector<std::string> beforeArgs, afterArgs;
  for (size_t i = 0; i < carried.size(); ++i) {
    typeList += (i ? ", " : "") + typeString(carried[i].type);
    beforeArgs.push_back(freshName());
    inits += (i ? ", " : "") + beforeArgs[i] + " = " + use(carried[i].init);
  }
  std::string result = freshName();
  line(result + ":" + std::to_string(carried.size()) + " = tfc.while (" +
       inits + ") : (" + typeList + ") -> (" + typeList + ") {");
  --budget;
  ++primary;
  ++nesting;

  // Before region: the counter test, maybe with a data-dependent exit.
  ++indent;
  scopes.emplace_back();
  std::vector<int> args;
  for (size_t i = 0; i < carried.size(); ++i)
    args.push_back(addValue(beforeArgs[i], carried[i].type, carried[i].bound,
                            carried[i].err, false));
  genOps(static_cast<int>(uniform(0, std::min(2, budget))));
  std::string counterName = use(args[0]);
  int cond = define("tfc.cmp lt, " + counterName + ", " + use(limit) + " : " +
                        typeString(counterType),
                    TType{DType::Bool, {}}, 1, 0);
  if (chance(0.3)) {
    int p = makePredicate();
    std::string cs = use(cond), ps = use(p);
    cond = define("tfc.logical_and " + cs + ", " + ps + " : tensor<i1>",
                  TType{DType::Bool, {}}, 1, 0);
  }
  std::string passed = counterName;
  for (size_t i = 1; i < carried.size(); ++i) {
    int v = args[i];
    if (chance(0.25))
      v = tame(obtain(carried[i].type, carried[i].err), carried[i].bound);
    carried[i].view = carried[i].view || val(v).sliceView;
    passed += ", " + use(v);
  }
  line("tfc.condition(" + use(cond) + ") " + passed + " : " + typeList);
  scopes.pop_back();
  --indent;

  // After region: the body, then the yields clamped into the bounds.
  line("} do {");
  ++indent;
  scopes.emplace_back();
  std::string header;
  args.clear();
  for (size_t i = 0; i < carried.size(); ++i) {
    afterArgs.push_back(freshName());
    header +=
        (i ? ", " : "") + afterArgs[i] + ": " + typeString(carried[i].type);
    args.push_back(addValue(afterArgs[i], carried[i].type, carried[i].bound,
                            carried[i].err, false));
  }
  --indent;
  line("^bb0(" + header + "):");
  ++indent;
  genOps(static_cast<int>(uniform(1, std::max(1, std::min(5, budget)))));
  std::string next = use(args[0]);
  int inc = define("tfc.add " + next + ", " + use(one) + " : " +
                       typeString(counterType),
                   counterType, counterBound + 1, 0);
  std::string yields = use(inc);
  for (size_t i = 1; i < carried.size(); ++i) {
    int y = tame(obtain(carried[i].type, carried[i].err), carried[i].bound);
    carried[i].view = carried[i].view || val(y).sliceView;
    yields += ", " + use(y);
  }
  line("tfc.yield " + yields + " : " + typeList);
  scopes.pop_back();
  --indent;
  --nesting;
  line("}");
  for (size_t i = 0; i < carried.size(); ++i) {
    int r = addValue(result + "#" + std::to_string(i), carried[i].type,
                     carried[i].bound, carried[i].err, i > 0);
    val(r).sliceView = carried[i].view || val(carried[i].init).sliceView;
  }
  ++budget;
  return true;
}

bool Generator::genPrint() {
  // Printed text is compared too: only exact values, so digits match.
  int a = pick([](const Val &v) { return v.err == 0; });
  if (a < 0)
    return false;
  std::string names = use(a), types = typeString(val(a).type);
  if (chance(0.4)) {
    int b = pick([](const Val &v) { return v.err == 0; });
    names += ", " + use(b);
    types += ", " + typeString(val(b).type);
  }
  line("tfc.print \"p" + std::to_string(labels++) + "\" " + names + " : " +
       types);
  ++primary;
  return true;
}

bool Generator::genAssert() {
  // p || !p: always holds, so the call must not fail.
  int p = makePredicate();
  int q = unaryHelper("logical_not", p, 1, 0);
  int c = binaryHelper("logical_or", p, q, 1, 0);
  line("tfc.assert " + use(c) + ", \"p or not p\" : tensor<i1>");
  ++primary;
  return true;
}

//===----------------------------------------------------------------------===//
// Special-value programs
//===----------------------------------------------------------------------===//

/// A few float ops applied to arguments full of NaN, infinities, -0 and huge
/// values. No clamps: this probes how each executor handles IEEE special
/// cases (NaN propagation of maximum, relu(NaN), log of negatives, overflow
/// of exp, ...), which the ordinary programs carefully avoid.
void Generator::genSpecialBody() {
  std::vector<int> pool = scopes.back();
  int64_t n = uniform(2, 6);
  for (int64_t i = 0; i < n; ++i) {
    int a = pickOf(pool);
    TType t = val(a).type;
    int b = pickOf(pool);
    if (!(val(b).type == t))
      b = a;
    std::string as = use(a), bs = use(b), ts = typeString(t);
    int r = -1;
    int64_t kind = uniform(0, 7);
    // argmax needs a dim (reductions give rank-0 values); pooling an
    // argument's shape or its own result's.
    if ((kind == 5 && t.rank() == 0) ||
        (kind == 7 && t.rank() != 1 && t.rank() != 2 && t.rank() != 4))
      kind = 4;
    switch (kind) {
    case 0: {
      static const std::vector<std::string> ops = {
          "neg",    "abs",  "exp",     "log",  "log1p", "sqrt",
          "square", "tanh", "sigmoid", "relu", "sin",   "cos"};
      // Known bug: the f32 sin/cos approximations return garbage (even
      // -inf) for huge arguments. They are the last two entries.
      size_t n = ops.size() - (opt.avoidKnownBugs ? 2 : 0);
      std::string op = ops[static_cast<size_t>(uniform(0, n - 1))];
      // Known bug: f64 log1p is compiled as log(1 + x), which loses the
      // small arguments (0.001) special programs feed it.
      if (op == "log1p" && t.dtype == DType::Float64 && opt.avoidKnownBugs)
        op = "log";
      r = define("tfc." + op + " " + as + " : " + ts, t, 0, 0, true);
      // Away from special values, sin/cos approximations lose accuracy in
      // proportion to |x| (range reduction in f32): compare them only for
      // range and NaN/inf.
      if (op == "sin" || op == "cos")
        loose.insert(r);
      // Results that are not correctly rounded (transcendentals; the
      // runtime's f32 sqrt) are returned but feed no further op: a cmp or
      // cast of them would turn one ulp (or a flushed subnormal) into a
      // different bool.
      if (op != "neg" && op != "abs" && op != "square" && op != "relu")
        continue;
      break;
    }
    case 1: {
      static const std::vector<std::string> ops = {
          "add",     "sub", "mul",       "div", "maximum",
          "minimum", "pow", "floor_div", "mod"};
      std::string op = pickOf(ops);
      r = define("tfc." + op + " " + as + ", " + bs + " : " + ts, t, 0, 0,
                 true);
      if (op == "pow")
        continue; // not correctly rounded, as above
      break;
    }
    case 2: {
      r = define("tfc.cmp " + cmpPredicate(t.dtype) + ", " + as + ", " + bs +
                     " : " + ts,
                 TType{DType::Bool, t.shape}, 1, 0, true);
      break;
    }
    case 3: {
      // NaN and infinities to int are undefined; to i1 and floats they are
      // defined ("!= 0", IEEE conversion).
      DType to = chance(0.5) ? DType::Bool
                             : (t.dtype == DType::Float32 ? DType::Float64
                                                          : DType::Float32);
      TType rt{to, t.shape};
      r = define("tfc.cast " + as + " : " + ts + " to " + typeString(rt), rt, 0,
                 0, true);
      break;
    }
    case 4: {
      // Sums are left out: their order differs between the executors, and
      // with 1e30 next to 1 the order decides the result.
      static const std::vector<std::string> kinds = {"reduce_max",
                                                     "reduce_min"};
      TType rt{t.dtype, {}};
      std::string axes;
      for (int64_t k = 0; k < t.rank(); ++k)
        axes += (k ? ", " : "") + std::to_string(k);
      r = define("tfc." + pickOf(kinds) + " " + as + ", axes = [" + axes +
                     "], keepdims = false : " + ts + " -> " + typeString(rt),
                 rt, 0, 0, true);
      break;
    }
    case 5: {
      TType rt{DType::Int64, t.shape};
      rt.shape.pop_back();
      r = define("tfc.argmax " + as +
                     ", axis = " + std::to_string(t.rank() - 1) + " : " + ts +
                     " -> " + typeString(rt),
                 rt, 0, 0, true);
      break;
    }
    case 7: {
      // Pooling over the values laid out as a one-channel NHWC image: NaN
      // propagation, first maxima among NaN, infinities and +-0, padding
      // that never counts. The windows do not overlap, so a gradient sums
      // one term per element (with several, the order would decide).
      TType it = t;
      if (t.rank() != 4)
        it = TType{t.dtype,
                   {1, t.rank() == 1 ? 1 : t.shape[0], t.shape.back(), 1}};
      auto image = [&](const std::string &name) {
        if (t.rank() == 4)
          return name;
        return val(define("tfc.reshape " + name + " : " + ts + " -> " +
                              typeString(it),
                          it, 0, 0))
            .name;
      };
      std::string xs = image(as), ys = b == a ? xs : image(bs);
      ConvWindow w;
      w.same = chance(0.5);
      for (int d = 0; d < 2; ++d) {
        w.in[d] = it.shape[1 + d];
        w.k[d] = uniform(1, 3);
        if (!w.same)
          w.k[d] = std::min(w.k[d], w.in[d]);
        w.stride[d] = w.k[d] + uniform(0, 1);
        w.out[d] =
            kernels::window_dim(w.in[d], w.k[d], w.stride[d], 1, w.same)->out;
      }
      TType pt{t.dtype, {1, w.out[0], w.out[1], 1}};
      std::string its = typeString(it), pts = typeString(pt),
                  attrs = ", " + w.poolAttrs() + " : ";
      int64_t op = uniform(0, 4);
      // The gradients' dy: the other image max-pooled.
      std::string dy;
      if (op == 2 || op == 4)
        dy = val(define("tfc.max_pool2d " + ys + attrs + its + " -> " + pts, pt,
                        0, 0))
                 .name;
      std::string rhs;
      TType rt = pt;
      if (op < 2) {
        rhs = std::string(op == 0 ? "tfc.max_pool2d " : "tfc.avg_pool2d ") +
              xs + attrs + its + " -> " + pts;
      } else if (op == 2) {
        rhs = "tfc.max_pool2d_grad " + xs + ", " + dy + attrs + "(" + its +
              ", " + pts + ") -> " + its;
        rt = it;
      } else if (op == 3) {
        rhs = "tfc.max_pool2d_grad_grad " + xs + ", " + ys + attrs + "(" + its +
              ", " + its + ") -> " + pts;
      } else {
        rhs = "tfc.avg_pool2d_grad " + dy +
              ", input_shape = " + listOf(it.shape) + attrs + pts + " -> " +
              its;
        rt = it;
      }
      r = define(rhs, rt, 0, 0, true);
      break;
    }
    default: {
      int c = define("tfc.cmp gt, " + as + ", " + bs + " : " + ts,
                     TType{DType::Bool, t.shape}, 1, 0);
      std::string cs = use(c);
      r = define("tfc.select " + cs + ", " + as + ", " + bs + " : " +
                     typeString(TType{DType::Bool, t.shape}) + ", " + ts,
                 t, 0, 0, true);
      break;
    }
    }
    if (isFloat(val(r).type.dtype))
      pool.push_back(r);
  }
}

//===----------------------------------------------------------------------===//
// The program
//===----------------------------------------------------------------------===//

GeneratedProgram Generator::run(uint64_t seed) {
  GeneratedProgram program;
  program.seed = seed;
  program.special = chance(opt.specialValueRate);
  scopes.emplace_back();

  // Arguments: shapes often shared, so data meets without adapters.
  std::vector<TType> argTypes;
  int64_t nargs = uniform(1, std::max(1, opt.maxArgs));
  for (int64_t i = 0; i < nargs; ++i) {
    TType t;
    if (program.special) {
      t.dtype = chance(0.6) ? DType::Float32 : DType::Float64;
      if (!argTypes.empty())
        t = argTypes.front();
      else
        t.shape = chance(0.5) ? std::vector<int64_t>{uniform(4, 8)}
                              : std::vector<int64_t>{2, uniform(2, 4)};
    } else if (!argTypes.empty() && chance(0.5)) {
      t = pickOf(argTypes);
      t.dtype = randomDType();
    } else {
      t = randomType();
    }
    argTypes.push_back(t);
  }
  // Now and then an NHWC image in place of an argument, so that gradients
  // flow into tfc.conv2d and its gradient ops from an argument.
  int64_t image = -1;
  if (!program.special && chance(opt.imageArgRate)) {
    image = uniform(0, nargs - 1);
    argTypes[image] =
        randomImage(chance(0.65) ? DType::Float32 : DType::Float64);
  }
  // Some programs declare dims of their arguments dynamic (`?`): the data
  // is the same, the lowering takes its dynamic-shape paths.
  if (!program.special && chance(opt.dynamicRate))
    for (TType &t : argTypes)
      for (int64_t i = 0; i < t.rank(); ++i)
        t.setDyn(i, chance(0.5));
  // The image keeps a static height, width and channels: the conv lowering
  // takes only the batch dynamic.
  if (image >= 0)
    for (int64_t i = 1; i < 4; ++i)
      argTypes[image].setDyn(i, false);
  std::string signature;
  for (size_t i = 0; i < argTypes.size(); ++i) {
    double bound = 0;
    program.args.push_back(makeArgument(argTypes[i], program.special, bound));
    std::string name = "%arg" + std::to_string(i);
    signature += (i ? ", " : "") + name + ": " + typeString(argTypes[i]);
    addValue(name, argTypes[i], bound, 0, false);
  }

  if (program.special) {
    genSpecialBody();
  } else {
    budget =
        static_cast<int>(uniform(opt.minOps, std::max(opt.minOps, opt.maxOps)));
    while (budget > 0)
      if (genOne())
        --budget;
      else
        break; // cannot happen with arguments in scope; stay finite anyway
  }

  // Results: the unused primary values, latest first. Known bug: the JIT
  // sizes the storage of results sharing one buffer by the first of them,
  // so a slice view returned before a bigger alias fails to be adopted.
  auto returnable = [&](int id) {
    return val(id).primary && !(opt.avoidKnownBugs && val(id).sliceView);
  };
  std::vector<int> results;
  for (auto it = scopes.front().rbegin(); it != scopes.front().rend(); ++it)
    if (returnable(*it) && !val(*it).used &&
        static_cast<int>(results.size()) < opt.maxResults)
      results.push_back(*it);
  if (results.empty())
    for (auto it = scopes.front().rbegin();
         it != scopes.front().rend() && results.size() < 2; ++it)
      if (returnable(*it))
        results.push_back(*it);
  if (results.empty())
    results.push_back(scopes.front().back());
  std::reverse(results.begin(), results.end());

  std::string names, types;
  for (size_t i = 0; i < results.size(); ++i) {
    const Val &v = val(results[i]);
    names += (i ? ", " : "") + v.name;
    types += (i ? ", " : "") + typeString(v.type);
    ResultCheck check;
    check.dtype = v.type.dtype;
    check.shape = v.type.shape;
    if (isFloat(v.type.dtype)) {
      double u = unitRoundoff(v.type.dtype);
      if (program.special) {
        // Specials compare at a few ulps: transcendentals may differ there.
        // Below the smallest normal, differences are flushed subnormals.
        check.rtol = 64 * u;
        check.atol = loose.count(results[i])
                         ? 2
                         : (v.type.dtype == DType::Float32
                                ? std::numeric_limits<float>::min()
                                : std::numeric_limits<double>::min());
      } else if (v.err > 0) {
        // The estimate is first order; a factor 8 covers what it neglects.
        check.atol = 8 * v.err;
        check.rtol = 8 * u;
      }
    }
    program.checks.push_back(check);
  }
  program.primaryOps = primary;
  program.text = "// tfc-difftest program, seed " + std::to_string(seed) +
                 "\nfunc.func @main(" + signature + ") -> (" + types + ") {\n" +
                 text + "  return " + names + " : " + types + "\n}\n";
  return program;
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

std::string tfc::fuzz::elementTypeName(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "i1";
  case DType::Int32:
    return "i32";
  case DType::Int64:
    return "i64";
  case DType::Float32:
    return "f32";
  case DType::Float64:
    return "f64";
  }
  return "f32";
}

GeneratedProgram tfc::fuzz::generateProgram(uint64_t seed,
                                            const GeneratorOptions &options) {
  Generator generator(seed, options);
  return generator.run(seed);
}

std::string tfc::fuzz::toTensorLiteral(const Tensor &t) {
  std::vector<std::string> items;
  dispatch_dtype(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *p = t.data<T>();
    for (int64_t i = 0, n = t.numel(); i < n; ++i)
      items.push_back(formatScalar(static_cast<double>(p[i]), t.dtype()));
  });
  std::string body;
  if (t.rank() == 0) {
    body = items.front();
  } else {
    size_t next = 0;
    body = nestedLiteral(items, t.shape(), 0, next);
  }
  // tfc-run spells no spaces inside a literal argument.
  body.erase(std::remove(body.begin(), body.end(), ' '), body.end());
  return body + ":" + elementTypeName(t.dtype());
}
