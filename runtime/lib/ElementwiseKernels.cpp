//===- ElementwiseKernels.cpp - Unary, binary, compare, select, cast ------===//
//
// Floating kernels evaluate Eigen expressions over Eigen::Map views of the
// raw data (vectorized exp/log/tanh/...); integer kernels are plain loops in
// unsigned arithmetic (overflow wraps, as in TensorFlow, without C++ UB),
// which GCC vectorizes. Big tensors are split across threads (Parallel.h).
// Binary kernels take fast paths for same-shape and scalar operands and fall
// back to a collapsed broadcast plan (Broadcast.h) otherwise.
//
//===----------------------------------------------------------------------===//

#include "Broadcast.h"
#include "DTypeMask.h"
#include "Internal.h"
#include "Parallel.h"
#include "tfc/runtime/Kernels.h"

#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <type_traits>

using namespace tfc;
using namespace tfc::detail;

void tfc::detail::fail_dtype(std::string_view op, unsigned allowed, DType got) {
  switch (allowed) {
  case kMaskFloats:
    fail(op, "expected a floating dtype, got ", got);
  case kMaskBool:
    fail(op, "expected dtype bool, got ", got);
  case kMaskInts:
    fail(op, "expected an integer dtype (int32, int64), got ", got);
  case kMaskNumeric:
    fail(op, "expected a numeric dtype (int32, int64, float32, float64), got ",
         got);
  default:
    break;
  }
  std::string list;
  for (DType t : {DType::Bool, DType::Int32, DType::Int64, DType::Float32,
                  DType::Float64})
    if (allowed & dtype_bit(t))
      list += (list.empty() ? "" : ", ") + std::string(to_string(t));
  fail(op, "expected one of (", list, "), got ", got);
}

namespace {

template <class T>
using ArrMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using CArrMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T> using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;

template <class T> using U = std::make_unsigned_t<T>;

/// Below this many elements a scalar loop beats setting up an Eigen
/// assignment (peeling for alignment, packet loop).
constexpr int64_t kEigenMin = 16;

template <class Op, class T> constexpr bool accepts() {
  return (Op::kAllowed & dtype_bit(dtype_of<T>)) != 0;
}

template <class T> const elem_t<T> *cdata(const Tensor &t) {
  return static_cast<const elem_t<T> *>(t.unsafe_impl()->data);
}
template <class T> elem_t<T> *mdata(const Tensor &t) {
  return static_cast<elem_t<T> *>(t.unsafe_impl()->data);
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

template <class Op>
concept HasEigen1 = requires(CArrMap<float> a) {
  Op::eigen(a);
};

struct NegOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T x) {
    if constexpr (std::is_integral_v<T>)
      return T(U<T>(0) - U<T>(x));
    else
      return -x;
  }
  template <class A> static auto eigen(const A &a) { return -a; }
};
struct AbsOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T x) {
    if constexpr (std::is_integral_v<T>)
      return x < 0 ? T(U<T>(0) - U<T>(x)) : x;
    else
      return std::abs(x);
  }
  template <class A> static auto eigen(const A &a) { return a.abs(); }
};
struct SquareOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T x) {
    if constexpr (std::is_integral_v<T>)
      return T(U<T>(x) * U<T>(x));
    else
      return x * x;
  }
  template <class A> static auto eigen(const A &a) { return a.square(); }
};
struct ReluOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  // NaN stays NaN (as TensorFlow): only values below zero are clamped.
  template <class T> static T f(T x) { return x < T(0) ? T(0) : x; }
};
#define TFC_FLOAT_UNARY(Name, expr, scalar, cost)                              \
  struct Name {                                                                \
    static constexpr unsigned kAllowed = kMaskFloats;                          \
    static constexpr int64_t kCost = cost;                                     \
    template <class T> static T f(T x) { return scalar; }                      \
    template <class A> static auto eigen(const A &a) { return expr; }          \
  };
TFC_FLOAT_UNARY(ExpOp, a.exp(), std::exp(x), 8)
TFC_FLOAT_UNARY(LogOp, a.log(), std::log(x), 8)
TFC_FLOAT_UNARY(Log1pOp, a.log1p(), std::log1p(x), 8)
TFC_FLOAT_UNARY(SqrtOp, a.sqrt(), std::sqrt(x), 2)
TFC_FLOAT_UNARY(FloorOp, a.floor(), std::floor(x), 1)
TFC_FLOAT_UNARY(SinOp, a.sin(), std::sin(x), 8)
TFC_FLOAT_UNARY(CosOp, a.cos(), std::cos(x), 8)
TFC_FLOAT_UNARY(TanhOp, a.tanh(), std::tanh(x), 8)
// 1 / (1 + exp(-x)): exact tails (exp overflow gives 1/inf = 0).
TFC_FLOAT_UNARY(SigmoidOp, (1 + (-a).exp()).inverse(),
                T(1) / (T(1) + std::exp(-x)), 10)
#undef TFC_FLOAT_UNARY
// libm's erf (Eigen's is in its unsupported module).
struct ErfOp {
  static constexpr unsigned kAllowed = kMaskFloats;
  static constexpr int64_t kCost = 10;
  template <class T> static T f(T x) { return std::erf(x); }
};
struct LogicalNotOp {
  static constexpr unsigned kAllowed = kMaskBool;
  static constexpr int64_t kCost = 1;
  static uint8_t f(uint8_t x) { return x ? 0 : 1; }
};

template <class Op> Tensor unary(std::string_view name, const Tensor &x) {
  require_concrete(name, x);
  const TensorImpl *xi = x.unsafe_impl();
  DType dt = xi->dtype;
  require_dtype(name, Op::kAllowed, dt);
  int64_t n = xi->numel;
  Tensor out = make_tensor(dt, xi->shape, n);
  dispatch_dtype(dt, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (accepts<Op, T>()) {
      using E = elem_t<T>;
      const E *xp = cdata<T>(x);
      E *yp = mdata<T>(out);
      parallel_for(n, Op::kCost, [&](int64_t b, int64_t e) {
        if constexpr (std::is_floating_point_v<T> && HasEigen1<Op>) {
          if (e - b >= kEigenMin) {
            ArrMap<T>(yp + b, e - b) = Op::eigen(CArrMap<T>(xp + b, e - b));
            return;
          }
        }
        for (int64_t i = b; i < e; ++i)
          yp[i] = Op::f(xp[i]);
      });
    }
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

template <class Op>
concept HasEigen2 = requires(CArrMap<float> a, CArrMap<float> b) {
  Op::eigen(a, b);
};
template <class Op>
concept HasPrecheck = requires(const Tensor &a, const Tensor &b) {
  Op::template precheck<int32_t>("", a, b);
};

template <class Op> struct ResultOf {
  template <class T> using type = elem_t<T>;
};

struct AddOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return T(U<T>(a) + U<T>(b));
    else
      return a + b;
  }
  template <class A, class B> static auto eigen(const A &a, const B &b) {
    return a + b;
  }
};
struct SubOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return T(U<T>(a) - U<T>(b));
    else
      return a - b;
  }
  template <class A, class B> static auto eigen(const A &a, const B &b) {
    return a - b;
  }
};
struct MulOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>)
      return T(U<T>(a) * U<T>(b));
    else
      return a * b;
  }
  template <class A, class B> static auto eigen(const A &a, const B &b) {
    return a * b;
  }
};
struct DivOp {
  static constexpr unsigned kAllowed = kMaskFloats;
  static constexpr int64_t kCost = 2;
  template <class T> static T f(T a, T b) { return a / b; }
  template <class A, class B> static auto eigen(const A &a, const B &b) {
    return a / b;
  }
};
// NaN-propagating, as NumPy's maximum/minimum and TensorFlow's.
struct MaximumOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      return (a > b || a != a) ? a : b;
    else
      return a > b ? a : b;
  }
};
struct MinimumOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 1;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
      return (a < b || a != a) ? a : b;
    else
      return a < b ? a : b;
  }
};

/// Throws when any element of the divisor tensor `b` is zero.
template <class T>
void checkNoZeroDivisor(std::string_view name, const Tensor &a,
                        const Tensor &b) {
  const T *p = cdata<T>(b);
  int64_t n = b.numel();
  bool zero = false;
  for (int64_t i = 0; i < n; ++i)
    zero |= p[i] == 0;
  if (zero)
    fail(name, "integer division by zero (", a.dtype(), " operands of shapes ",
         a.shape(), " and ", b.shape(), ")");
}

struct FloorDivOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 4;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      if (b == -1) // Avoids the INT_MIN / -1 trap; wraps as TensorFlow does.
        return T(U<T>(0) - U<T>(a));
      T q = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? T(q - 1) : q;
    } else {
      return std::floor(a / b);
    }
  }
  template <class T>
  static void precheck(std::string_view name, const Tensor &a,
                       const Tensor &b) {
    if constexpr (std::is_integral_v<T>)
      checkNoZeroDivisor<T>(name, a, b);
  }
};
struct ModOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 4;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      if (b == -1)
        return 0;
      T r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? T(r + b) : r;
    } else {
      // The result takes the divisor's sign (Python / TensorFlow FloorMod).
      T r = std::fmod(a, b);
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
  }
  template <class T>
  static void precheck(std::string_view name, const Tensor &a,
                       const Tensor &b) {
    if constexpr (std::is_integral_v<T>)
      checkNoZeroDivisor<T>(name, a, b);
  }
};
struct PowOp {
  static constexpr unsigned kAllowed = kMaskNumeric;
  static constexpr int64_t kCost = 8;
  template <class T> static T f(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      // Exponentiation by squaring in wrapping unsigned arithmetic.
      U<T> base = U<T>(a), r = 1;
      for (U<T> e = U<T>(b); e; e >>= 1) {
        if (e & 1)
          r *= base;
        base *= base;
      }
      return T(r);
    } else {
      return std::pow(a, b);
    }
  }
  template <class T>
  static void precheck(std::string_view name, const Tensor &a,
                       const Tensor &b) {
    if constexpr (std::is_integral_v<T>) {
      const T *p = cdata<T>(b);
      for (int64_t i = 0, n = b.numel(); i < n; ++i)
        if (p[i] < 0)
          fail(name,
               "integers to negative integer powers are not allowed "
               "(exponent ",
               p[i], "; ", a.dtype(), " operands of shapes ", a.shape(),
               " and ", b.shape(), ")");
    }
  }
};
struct LogicalAndOp {
  static constexpr unsigned kAllowed = kMaskBool;
  static constexpr int64_t kCost = 1;
  static uint8_t f(uint8_t a, uint8_t b) { return (a != 0) & (b != 0); }
};
struct LogicalOrOp {
  static constexpr unsigned kAllowed = kMaskBool;
  static constexpr int64_t kCost = 1;
  static uint8_t f(uint8_t a, uint8_t b) { return (a != 0) | (b != 0); }
};
template <kernels::CmpPredicate P> struct CmpOp {
  static constexpr unsigned kAllowed = kMaskAll;
  static constexpr int64_t kCost = 1;
  static constexpr bool kBoolResult = true;
  template <class T> static uint8_t f(T a, T b) {
    using kernels::CmpPredicate;
    if constexpr (P == CmpPredicate::EQ)
      return a == b;
    else if constexpr (P == CmpPredicate::NE)
      return a != b;
    else if constexpr (P == CmpPredicate::LT)
      return a < b;
    else if constexpr (P == CmpPredicate::LE)
      return a <= b;
    else if constexpr (P == CmpPredicate::GT)
      return a > b;
    else
      return a >= b;
  }
};

template <class Op>
concept BoolResult = Op::kBoolResult;

/// One innermost run: o[i] = f(a[i*sa], b[i*sb]) with sa, sb in {0, 1}.
template <class Op, class E, class R>
inline void binaryRun(R *__restrict o, const E *__restrict a, int64_t sa,
                      const E *__restrict b, int64_t sb, int64_t n) {
  constexpr bool useEigen =
      std::is_floating_point_v<E> && std::is_same_v<E, R> && HasEigen2<Op>;
  if (sa && sb) {
    if constexpr (useEigen)
      if (n >= kEigenMin) {
        ArrMap<R>(o, n) = Op::eigen(CArrMap<E>(a, n), CArrMap<E>(b, n));
        return;
      }
    for (int64_t i = 0; i < n; ++i)
      o[i] = Op::f(a[i], b[i]);
  } else if (sa) {
    E bv = *b;
    if constexpr (useEigen)
      if (n >= kEigenMin) {
        ArrMap<R>(o, n) = Op::eigen(CArrMap<E>(a, n), Arr<E>::Constant(n, bv));
        return;
      }
    for (int64_t i = 0; i < n; ++i)
      o[i] = Op::f(a[i], bv);
  } else if (sb) {
    E av = *a;
    if constexpr (useEigen)
      if (n >= kEigenMin) {
        ArrMap<R>(o, n) = Op::eigen(Arr<E>::Constant(n, av), CArrMap<E>(b, n));
        return;
      }
    for (int64_t i = 0; i < n; ++i)
      o[i] = Op::f(av, b[i]);
  } else {
    R v = Op::f(*a, *b);
    for (int64_t i = 0; i < n; ++i)
      o[i] = v;
  }
}

/// Shape equality without a memcmp call (ranks are tiny).
inline bool sameShape(const std::vector<int64_t> &a,
                      const std::vector<int64_t> &b) {
  size_t n = a.size();
  if (n != b.size())
    return false;
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return false;
  return true;
}

[[noreturn]] [[gnu::cold]] void failShapes(std::string_view name,
                                           const Tensor &a, const Tensor &b) {
  fail(name, "incompatible shapes ", a.shape(), " and ", b.shape(), " (",
       a.dtype(), " vs ", b.dtype(), ")");
}

/// Product of broadcast dims; throws when it cannot be addressed.
int64_t broadcastNumel(std::string_view name, const SmallVec<int64_t> &dims,
                       DType dt) {
  int64_t n = 1;
  for (size_t i = 0; i < dims.size(); ++i)
    if (__builtin_mul_overflow(n, dims[i], &n) || n > (int64_t(1) << 48))
      fail(name, "broadcast result of dtype ", dt, " is too large");
  return n;
}

template <class Op>
Tensor binary(std::string_view name, const Tensor &a, const Tensor &b) {
  require_concrete(name, a);
  require_concrete(name, b);
  const TensorImpl *ai = a.unsafe_impl(), *bi = b.unsafe_impl();
  DType dt = ai->dtype;
  if (dt != bi->dtype) [[unlikely]]
    fail(name, "mixed dtypes ", dt, " and ", bi->dtype);
  require_dtype(name, Op::kAllowed, dt);
  DType rdt = BoolResult<Op> ? DType::Bool : dt;
  const std::vector<int64_t> &sa = ai->shape, &sb = bi->shape;
  Tensor out;
  dispatch_dtype(dt, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (accepts<Op, T>()) {
      using E = elem_t<T>;
      using R = std::conditional_t<BoolResult<Op>, uint8_t, E>;
      const E *ap = cdata<T>(a), *bp = cdata<T>(b);
      if (sameShape(sa, sb)) {
        int64_t n = ai->numel;
        if constexpr (HasPrecheck<Op>)
          if (n)
            Op::template precheck<E>(name, a, b);
        out = make_tensor(rdt, sa, n);
        R *op = static_cast<R *>(out.unsafe_impl()->data);
        parallel_for(n, Op::kCost, [&](int64_t lo, int64_t hi) {
          binaryRun<Op>(op + lo, ap + lo, 1, bp + lo, 1, hi - lo);
        });
        return;
      }
      SmallVec<int64_t> os;
      if (!broadcast_into(sa, sb, os)) [[unlikely]]
        failShapes(name, a, b);
      int64_t n = broadcastNumel(name, os, rdt);
      if constexpr (HasPrecheck<Op>)
        if (n)
          Op::template precheck<E>(name, a, b);
      out = make_tensor(rdt, os.data(), os.size(), n);
      R *op = static_cast<R *>(out.unsafe_impl()->data);
      if (n == 0)
        return;
      // Scalar operand against a tensor of the output's shape.
      if (bi->numel == 1 && ai->numel == n) {
        parallel_for(n, Op::kCost, [&](int64_t lo, int64_t hi) {
          binaryRun<Op>(op + lo, ap + lo, 1, bp, 0, hi - lo);
        });
        return;
      }
      if (ai->numel == 1 && bi->numel == n) {
        parallel_for(n, Op::kCost, [&](int64_t lo, int64_t hi) {
          binaryRun<Op>(op + lo, ap, 0, bp + lo, 1, hi - lo);
        });
        return;
      }
      BroadcastPlan<2> plan;
      const std::vector<int64_t> *ins[2] = {&sa, &sb};
      plan.build(os.data(), os.size(), ins);
      int64_t ia = plan.innerStride(0), ib = plan.innerStride(1);
      plan.forEachRun(
          Op::kCost, [&](int64_t oo, const int64_t *off, int64_t len) {
            binaryRun<Op>(op + oo, ap + off[0], ia, bp + off[1], ib, len);
          });
    }
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

/// C++ conversion, except that NaN or out-of-range floats converted to an
/// integer give the integer's minimum (what x86 and thus TensorFlow and
/// NumPy produce) instead of undefined behaviour.
template <class To, class From> inline To convert(From v) {
  if constexpr (std::is_same_v<To, uint8_t>) { // to bool
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> &&
                       std::is_integral_v<To>) {
    constexpr From lim = From(std::numeric_limits<To>::max()) + From(1);
    if (!(v >= -lim && v < lim)) // NaN fails both.
      return std::numeric_limits<To>::min();
    return static_cast<To>(v);
  } else if constexpr (std::is_same_v<From, uint8_t>) { // from bool
    return v ? To(1) : To(0);
  } else {
    return static_cast<To>(v);
  }
}

} // namespace

namespace tfc::kernels {

Tensor neg(const Tensor &x) { return unary<NegOp>("neg", x); }
Tensor abs(const Tensor &x) { return unary<AbsOp>("abs", x); }
Tensor exp(const Tensor &x) { return unary<ExpOp>("exp", x); }
Tensor log(const Tensor &x) { return unary<LogOp>("log", x); }
Tensor log1p(const Tensor &x) { return unary<Log1pOp>("log1p", x); }
Tensor sqrt(const Tensor &x) { return unary<SqrtOp>("sqrt", x); }
Tensor square(const Tensor &x) { return unary<SquareOp>("square", x); }
Tensor sin(const Tensor &x) { return unary<SinOp>("sin", x); }
Tensor cos(const Tensor &x) { return unary<CosOp>("cos", x); }
Tensor tanh(const Tensor &x) { return unary<TanhOp>("tanh", x); }
Tensor sigmoid(const Tensor &x) { return unary<SigmoidOp>("sigmoid", x); }
Tensor relu(const Tensor &x) { return unary<ReluOp>("relu", x); }
Tensor floor(const Tensor &x) { return unary<FloorOp>("floor", x); }
Tensor erf(const Tensor &x) { return unary<ErfOp>("erf", x); }
Tensor logical_not(const Tensor &x) {
  return unary<LogicalNotOp>("logical_not", x);
}

Tensor add(const Tensor &a, const Tensor &b) {
  return binary<AddOp>("add", a, b);
}
Tensor sub(const Tensor &a, const Tensor &b) {
  return binary<SubOp>("sub", a, b);
}
Tensor mul(const Tensor &a, const Tensor &b) {
  return binary<MulOp>("mul", a, b);
}
Tensor div(const Tensor &a, const Tensor &b) {
  return binary<DivOp>("div", a, b);
}
Tensor pow(const Tensor &a, const Tensor &b) {
  return binary<PowOp>("pow", a, b);
}
Tensor maximum(const Tensor &a, const Tensor &b) {
  return binary<MaximumOp>("maximum", a, b);
}
Tensor minimum(const Tensor &a, const Tensor &b) {
  return binary<MinimumOp>("minimum", a, b);
}
Tensor floor_div(const Tensor &a, const Tensor &b) {
  return binary<FloorDivOp>("floor_div", a, b);
}
Tensor mod(const Tensor &a, const Tensor &b) {
  return binary<ModOp>("mod", a, b);
}
Tensor logical_and(const Tensor &a, const Tensor &b) {
  return binary<LogicalAndOp>("logical_and", a, b);
}
Tensor logical_or(const Tensor &a, const Tensor &b) {
  return binary<LogicalOrOp>("logical_or", a, b);
}

std::string_view to_string(CmpPredicate p) {
  switch (p) {
  case CmpPredicate::EQ:
    return "eq";
  case CmpPredicate::NE:
    return "ne";
  case CmpPredicate::LT:
    return "lt";
  case CmpPredicate::LE:
    return "le";
  case CmpPredicate::GT:
    return "gt";
  case CmpPredicate::GE:
    return "ge";
  }
  return "<invalid predicate>";
}

Tensor compare(CmpPredicate pred, const Tensor &a, const Tensor &b) {
  switch (pred) {
  case CmpPredicate::EQ:
    return binary<CmpOp<CmpPredicate::EQ>>("cmp eq", a, b);
  case CmpPredicate::NE:
    return binary<CmpOp<CmpPredicate::NE>>("cmp ne", a, b);
  default:
    break;
  }
  // Ordering predicates: bool is unordered (as TensorFlow's Less etc.).
  std::string name = concat_str("cmp ", to_string(pred));
  if (a.defined() && !a.is_symbolic() && a.dtype() == DType::Bool)
    fail(name, "ordering comparison of bool tensors is not supported (only "
               "eq and ne); cast them first");
  switch (pred) {
  case CmpPredicate::LT:
    return binary<CmpOp<CmpPredicate::LT>>(name, a, b);
  case CmpPredicate::LE:
    return binary<CmpOp<CmpPredicate::LE>>(name, a, b);
  case CmpPredicate::GT:
    return binary<CmpOp<CmpPredicate::GT>>(name, a, b);
  case CmpPredicate::GE:
    return binary<CmpOp<CmpPredicate::GE>>(name, a, b);
  default:
    break;
  }
  fail("cmp", "invalid predicate ", static_cast<int>(pred));
}

Tensor select(const Tensor &cond, const Tensor &a, const Tensor &b) {
  constexpr std::string_view name = "select";
  require_concrete(name, cond);
  require_concrete(name, a);
  require_concrete(name, b);
  if (cond.dtype() != DType::Bool)
    fail(name, "condition must be bool, got ", cond.dtype(), " of shape ",
         cond.shape());
  if (a.dtype() != b.dtype())
    fail(name, "mixed dtypes ", a.dtype(), " and ", b.dtype());
  SmallVec<int64_t> ab, os;
  bool ok = broadcast_into(a.shape(), b.shape(), ab);
  std::vector<int64_t> abShape(ab.data(), ab.data() + ab.size());
  ok = ok && broadcast_into(cond.shape(), abShape, os);
  if (!ok)
    fail(name, "incompatible shapes ", cond.shape(), " (condition), ",
         a.shape(), " and ", b.shape(), " (bool, ", a.dtype(), " vs ",
         b.dtype(), ")");
  int64_t n = broadcastNumel(name, os, a.dtype());
  Tensor out = make_tensor(a.dtype(), os.data(), os.size(), n);
  if (n == 0)
    return out;
  BroadcastPlan<3> plan;
  const std::vector<int64_t> *ins[3] = {&cond.shape(), &a.shape(), &b.shape()};
  plan.build(os.data(), os.size(), ins);
  int64_t sc = plan.innerStride(0), sa = plan.innerStride(1),
          sb = plan.innerStride(2);
  dispatch_dtype(a.dtype(), [&](auto tag) {
    using E = elem_t<decltype(tag)>;
    const uint8_t *cp = cdata<bool>(cond);
    const E *ap = cdata<decltype(tag)>(a), *bp = cdata<decltype(tag)>(b);
    E *op = mdata<decltype(tag)>(out);
    plan.forEachRun(1, [&](int64_t oo, const int64_t *off, int64_t len) {
      const uint8_t *c = cp + off[0];
      const E *x = ap + off[1], *y = bp + off[2];
      E *o = op + oo;
      if (sc && sa && sb) {
        for (int64_t i = 0; i < len; ++i)
          o[i] = c[i] ? x[i] : y[i];
      } else {
        for (int64_t i = 0; i < len; ++i)
          o[i] = c[i * sc] ? x[i * sa] : y[i * sb];
      }
    });
  });
  return out;
}

Tensor cast(const Tensor &x, DType dtype) {
  require_concrete("cast", x);
  if (static_cast<unsigned>(dtype) > static_cast<unsigned>(DType::Float64))
    fail("cast", "invalid target dtype ", static_cast<int>(dtype));
  if (x.dtype() == dtype)
    return detail::alias(x, x.shape()); // Immutable: share the data.
  int64_t n = x.numel();
  Tensor out = make_tensor(dtype, x.shape(), n);
  dispatch_dtype(x.dtype(), [&](auto fromTag) {
    using From = elem_t<decltype(fromTag)>;
    dispatch_dtype(dtype, [&](auto toTag) {
      using To = elem_t<decltype(toTag)>;
      const From *src = cdata<decltype(fromTag)>(x);
      To *dst = mdata<decltype(toTag)>(out);
      parallel_for(n, 1, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i)
          dst[i] = convert<To>(src[i]);
      });
    });
  });
  return out;
}

} // namespace tfc::kernels
