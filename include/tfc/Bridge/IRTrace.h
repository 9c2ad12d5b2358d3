//===- IRTrace.h - Build tfc IR from dispatched ops -------------*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The bridge between the MLIR-free ops layer and the dialect. An IRTrace is
// a TraceHook (tfc/frontend/Dispatch.h): while installed on a thread, every
// op dispatched there (tfc::add, tfc::matmul, cond, while_loop, print, ...)
// appends the matching tfc op at the trace's insertion point and returns a
// symbolic tensor for its result. The frontend's tfc::function tracer
// derives from it (adding a func.func, variables and the cache); the
// autodiff pass uses it to run the gradient rules at an OpBuilder
// (GradientRules.h). Variables are a function's business: var_read and
// var_assign stay abstract.
//
// Not thread-safe: one IRTrace per thread, used by the thread that made it.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_BRIDGE_IRTRACE_H
#define TFC_BRIDGE_IRTRACE_H

#include "tfc/frontend/Dispatch.h"

#include "mlir/IR/Builders.h"

#include <optional>
#include <source_location>
#include <string_view>
#include <utility>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::bridge {

class IRTrace : public detail::TraceHook {
public:
  /// Builds at `at`'s insertion point. Not installed yet: call install().
  explicit IRTrace(mlir::OpBuilder &at);
  /// Restores the hook that was active before install().
  ~IRTrace() override;

  /// Makes this the thread's trace hook (remembering the previous one).
  void install();
  /// Puts the previous hook back (also done by the destructor).
  void restoreHook();

  /// A symbolic tensor for an existing value of tensor type.
  Tensor bind(mlir::Value value) { return symbolic(value); }
  /// The IR value of `t` at the insertion point: a traced value of this
  /// trace in scope, or a new constant for a concrete tensor. Throws
  /// InvalidArgumentError (naming `what`) for anything else.
  mlir::Value value(const Tensor &t, std::string_view what = "value") {
    return toValue(t, what);
  }
  /// Locates every op built from now on at `loc` instead of the caller's
  /// source line (the autodiff pass: the differentiated op's location).
  void setFixedLocation(mlir::Location loc) { fixedLocation = loc; }

  mlir::OpBuilder &getBuilder() { return builder; }

  /// The trace a symbolic tensor was built by and its IR value; {null, {}}
  /// for a concrete tensor or one of another kind of trace.
  static std::pair<const IRTrace *, mlir::Value> traced(const Tensor &t);

  // --- TraceHook ---------------------------------------------------------
  /// Builds the op (no folding: a subclass may fold concrete inputs).
  Tensor op(OpKind kind, const Tensor *inputs, size_t numInputs,
            const OpAttrs &attrs, const std::source_location &loc) override;
  Tensor constant(const Tensor &value) override;
  void print(std::string_view label,
             const std::vector<Tensor> &tensors) override;
  void assert_true(const Tensor &pred, std::string_view message,
                   const std::source_location &loc) override;
  std::vector<Tensor> cond(const Tensor &pred,
                           const std::function<std::vector<Tensor>()> &thenFn,
                           const std::function<std::vector<Tensor>()> &elseFn,
                           const std::source_location &loc) override;
  /// Emits `tfc.custom_gradient`: operands the inputs, `value` and the
  /// outer values `backward` uses (isolated regions take them as operands);
  /// forward yields `value`, backward is `backward` traced, zero for all but
  /// the inputs. Throws InvalidArgumentError for a wrong gradient count or
  /// type, or a dynamic shape it would need zeros of.
  Tensor
  custom_gradient(const std::vector<Tensor> &inputs, const Tensor &value,
                  const std::function<std::vector<Tensor>(const Tensor &)>
                      &backward) override;
  std::vector<Tensor> while_loop(
      const std::function<Tensor(const std::vector<Tensor> &)> &condFn,
      const std::function<std::vector<Tensor>(const std::vector<Tensor> &)>
          &bodyFn,
      const std::vector<Tensor> &loopVars, int64_t maximumIterations,
      const std::source_location &loc) override;

protected:
  /// For a subclass that sets the insertion point itself.
  explicit IRTrace(mlir::MLIRContext *context);

  Tensor symbolic(mlir::Value v);
  mlir::Value toValue(const Tensor &t, std::string_view what);
  mlir::Location location(const std::source_location &loc);
  static std::string describeTensor(const Tensor &t);
  mlir::Value scalarConstant(mlir::RankedTensorType type, int64_t v,
                             mlir::Location loc);
  mlir::Value constantValue(const Tensor &t, mlir::Location loc);
  /// A rank-0 "all true" of a bool tensor (assert_true takes any shape).
  mlir::Value reduceAll(mlir::Value p, mlir::Location loc);
  /// Creates the tfc op of `kind` (its name from the op list) and verifies
  /// it. The result type comes from the op's InferTypeOpInterface (ODS)
  /// unless the type is the op's own parameter (cast, reshape,
  /// broadcast_to, one_hot), which the caller passes as `resultType`.
  /// Inference and verifier messages become InvalidArgumentError.
  mlir::Value buildKernelOp(OpKind kind, llvm::ArrayRef<mlir::Value> operands,
                            mlir::Location loc,
                            llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                            mlir::Type resultType = {},
                            std::string_view apiName = {},
                            const std::source_location *srcLoc = nullptr);
  /// `v` broadcast to `shape`; a dynamic dim `v` cannot size takes its
  /// size from the first of `others` (the op's other operands) that has it,
  /// as the broadcast's `like` operand.
  mlir::Value broadcastTo(mlir::Value v, const std::vector<int64_t> &shape,
                          mlir::Location loc,
                          llvm::ArrayRef<mlir::Value> others = {});
  /// The tfc op of (kind, attrs) on `inputs`: explicit broadcasts for
  /// elementwise operands (the dialect's ops take equal shapes), the API's
  /// checks with TensorFlow's messages, ODS-inferred result types.
  Tensor buildOp(OpKind kind, const Tensor *inputs, size_t n,
                 const OpAttrs &attrs, const std::source_location &srcLoc);

  mlir::MLIRContext *ctx;
  mlir::OpBuilder builder;
  std::optional<mlir::Location> fixedLocation;

private:
  IRTrace(const IRTrace &) = delete;
  IRTrace &operator=(const IRTrace &) = delete;
  detail::TraceHook *previousHook = nullptr;
  bool installed = false;
};

} // namespace tfc::bridge
#pragma GCC visibility pop

#endif // TFC_BRIDGE_IRTRACE_H
