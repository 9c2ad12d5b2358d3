//===- CompiledCallGradient.cpp - Tapes around compiled calls -------------===//
//
// A GradientTape alive around a call of a tfc::function does not see the ops
// inside the call: they run as compiled code, not through the dispatch
// funnel. The call is recorded instead as one node whose gradient is the
// function's vector-Jacobian product, generated from the traced IR by the
// tfc-vjp pass (the same reverse-mode engine as tfc.grad) once per traced
// signature, each function compiled on first use:
//
//   @f_fwd(args) -> (results, residuals)   run instead of @f under a tape
//   @f_bwd(args, residuals, dys) -> dargs  the backward, no recomputation
//   @f_vjp(args, dys) -> dargs             when the backward is recorded
//                                          itself (higher orders), or when
//                                          the residuals are not tensors
//
// See docs/gradients.md, "Tapes around compiled calls".
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include "tfc/Dialect/Tfc/Transforms/Autodiff.h"
#include "tfc/Pipelines/Pipelines.h"
#include "tfc/SharedContext.h"
#include "tfc/frontend/Creation.h"
#include "tfc/frontend/Dispatch.h"
#include "tfc/frontend/Gradients.h"
#include "tfc/runtime/Error.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <string>

using namespace tfc;
using namespace tfc::detail;

/// The generated gradient code of one traced signature. The module holding
/// @f_fwd, @f_bwd and both @f_vjp is kept as text; each function is compiled
/// on first use in a module of its own (the others dropped), so a call under
/// a tape compiles @f_fwd and the backward it runs, never the VJP that only
/// a recorded backward (higher orders) calls.
struct DifferentiableFunction::Gradient {
  /// Empty when the tfc-vjp pass could not split the VJP (a loop keeps its
  /// values on stacks): the backward then runs @f_vjp, recomputing.
  std::string fwdName, bwdName;
  /// @f_vjp, itself differentiable: what a recorded backward calls. For a
  /// function with loops it is generated without stacks (each adjoint
  /// iteration recomputes its inputs, O(N^2)), so it can be differentiated
  /// again; `vjpStacksName` is the O(N) one, for a backward nothing records.
  std::string vjpName, vjpStacksName;
  /// The gradient module's text (with locations).
  std::string text;
  jit::CompileOptions options;
  bool recompute = false;

  struct Compiled {
    std::shared_ptr<jit::CompiledModule::Impl> module;
    const jit::FunctionSignature *signature = nullptr;
  };
  /// `name` alone, compiled once.
  const Compiled &function(const std::string &name);
  /// @f_bwd returning the adjoints of the float arguments `needed` says
  /// (the others, and the work only they need, fold away): one compile per
  /// needed-set.
  const Compiled &bwdFor(const std::vector<bool> &needed);
  /// @f_vjp as a function a tape can differentiate, built on first use.
  const std::shared_ptr<DifferentiableFunction> &vjp();

private:
  /// Parses `text`, keeps `name` public (symbol-dce drops what it does not
  /// call), lets `edit` change it, and compiles.
  Compiled compileOnly(const std::string &name,
                       const std::function<void(mlir::func::FuncOp)> &edit);
  std::mutex mutex;
  std::map<std::string, Compiled> functions;
  std::map<std::vector<bool>, Compiled> masked;
  std::shared_ptr<DifferentiableFunction> vjpFunction;
};

namespace {

std::shared_ptr<DifferentiableFunction::Gradient>
buildGradient(const DifferentiableFunction &fn) {
  std::lock_guard<std::recursive_mutex> lock(contextMutex());
  mlir::MLIRContext &ctx = sharedContext();
  std::string diagnostics;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string vjpName, vjpStacksName, fwdName, bwdName, text;
  auto gradient = std::make_shared<DifferentiableFunction::Gradient>();
  {
    jit::detail::DiagnosticCollector diags(ctx);
    auto fail = [&](const std::string &what) {
      return InvalidArgumentError(
          what + (diags.text.empty() ? "" : ":\n" + diags.text));
    };
    module = mlir::parseSourceString<mlir::ModuleOp>(fn.ir, &ctx);
    if (!module)
      throw fail("its IR did not parse again");
    // Variables become arguments and results, as for the forward's compile.
    mlir::PassManager pm(&ctx);
    mlir::tfc::buildTfcPreparePipeline(pm);
    if (mlir::failed(pm.run(*module)))
      throw fail("tfc-prepare-pipeline failed");
    auto func = module->lookupSymbol<mlir::func::FuncOp>(fn.name);
    if (!func)
      throw fail("no function @" + fn.name + " in its module");
    mlir::FailureOr<mlir::tfc::GeneratedVJP> generated =
        mlir::tfc::generateVJP(*module, func);
    if (mlir::failed(generated))
      throw fail("tfc-vjp failed");
    vjpName = generated->vjp.getSymName().str();
    if (generated->fwd) {
      fwdName = generated->fwd.getSymName().str();
      bwdName = generated->bwd.getSymName().str();
    } else {
      // Loops: their stacks cannot be residuals, nor be differentiated.
      vjpStacksName = vjpName;
      mlir::FailureOr<mlir::tfc::GeneratedVJP> recomputing =
          mlir::tfc::generateVJP(*module, func, /*recomputeLoops=*/true);
      if (mlir::failed(recomputing))
        throw fail("tfc-vjp (recompute-loops) failed");
      vjpName = recomputing->vjp.getSymName().str();
    }
    llvm::raw_string_ostream os(text);
    module->print(os, mlir::OpPrintingFlags().enableDebugInfo());
  }
  gradient->text = std::move(text);
  gradient->fwdName = fwdName;
  gradient->bwdName = bwdName;
  gradient->vjpName = vjpName;
  gradient->vjpStacksName = vjpStacksName.empty() ? vjpName : vjpStacksName;
  gradient->options = fn.options;
  gradient->recompute = fn.recompute;
  return gradient;
}

/// Runs `sig` of `module` on `args`.
std::vector<Tensor> callCompiled(const jit::CompiledModule::Impl &module,
                                 const jit::FunctionSignature &sig,
                                 const std::vector<Tensor> &args) {
  std::vector<const Tensor *> pointers;
  for (const Tensor &t : args)
    pointers.push_back(&t);
  std::vector<Tensor> results(sig.results.size());
  module.callInto(sig, pointers.data(), pointers.size(), results.data(),
                  /*validated=*/false);
  return results;
}

} // namespace

DifferentiableFunction::Gradient::Compiled
DifferentiableFunction::Gradient::compileOnly(
    const std::string &name,
    const std::function<void(mlir::func::FuncOp)> &edit) {
  std::lock_guard<std::recursive_mutex> lock(contextMutex());
  mlir::MLIRContext &ctx = sharedContext();
  jit::detail::DiagnosticCollector diags(ctx);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  if (!module)
    throw InvalidArgumentError(
        "gradient: the gradient's IR did not parse again:\n" + diags.text);
  for (auto fn : module->getOps<mlir::func::FuncOp>())
    if (fn.getSymName() != name)
      fn.setPrivate();
  auto fn = module->lookupSymbol<mlir::func::FuncOp>(name);
  if (!fn)
    throw InvalidArgumentError("gradient: internal error: no @" + name +
                               " in the gradient module");
  if (edit)
    edit(fn);
  Compiled c;
  c.module = jit::CompiledModule::Impl::compile(*module, options);
  c.signature = c.module->lookup(name);
  return c;
}

const DifferentiableFunction::Gradient::Compiled &
DifferentiableFunction::Gradient::function(const std::string &name) {
  std::lock_guard<std::mutex> guard(mutex);
  if (auto it = functions.find(name); it != functions.end())
    return it->second;
  return functions.emplace(name, compileOnly(name, nullptr)).first->second;
}

const DifferentiableFunction::Gradient::Compiled &
DifferentiableFunction::Gradient::bwdFor(const std::vector<bool> &needed) {
  std::lock_guard<std::mutex> guard(mutex);
  if (auto it = masked.find(needed); it != masked.end())
    return it->second;
  Compiled c = compileOnly(bwdName, [&](mlir::func::FuncOp bwd) {
    auto ret =
        mlir::cast<mlir::func::ReturnOp>(bwd.getBody().front().getTerminator());
    llvm::SmallVector<mlir::Value> kept;
    for (size_t i = 0; i < needed.size(); ++i)
      if (needed[i])
        kept.push_back(ret.getOperand(i));
    ret->setOperands(kept);
    bwd.setFunctionType(mlir::FunctionType::get(
        bwd.getContext(), bwd.getFunctionType().getInputs(),
        mlir::ValueRange(kept).getTypes()));
  });
  return masked.emplace(needed, std::move(c)).first->second;
}

const std::shared_ptr<DifferentiableFunction> &
DifferentiableFunction::Gradient::vjp() {
  {
    std::lock_guard<std::mutex> guard(mutex);
    if (vjpFunction)
      return vjpFunction;
  }
  const Compiled &c = function(vjpName);
  auto f = std::make_shared<DifferentiableFunction>();
  f->ir = text;
  f->name = vjpName;
  f->options = options;
  f->recompute = recompute;
  f->module = c.module;
  f->signature = c.signature;
  std::lock_guard<std::mutex> guard(mutex);
  if (!vjpFunction)
    vjpFunction = std::move(f);
  return vjpFunction;
}

DifferentiableFunction::Gradient &DifferentiableFunction::gradient() {
  std::lock_guard<std::mutex> guard(mutex);
  if (built)
    return *built;
  if (error.empty()) {
    try {
      built = buildGradient(*this);
      return *built;
    } catch (const Error &e) {
      error = "gradient: cannot differentiate the compiled function '" + name +
              "': " + e.what();
    }
  }
  throw InvalidArgumentError(error);
}

std::vector<Tensor> tfc::detail::call_differentiable(
    const std::shared_ptr<DifferentiableFunction> &fn,
    const std::vector<Tensor> &inputs, size_t numRecorded) {
  // No tape would record the call: run it as is, build no gradient code.
  if (!any_tape_records(inputs))
    return callCompiled(*fn->module, *fn->signature, inputs);
  DifferentiableFunction::Gradient *gradient = nullptr;
  std::string why;
  try {
    gradient = &fn->gradient();
  } catch (const Error &e) {
    why = e.what();
  }
  // The forward: @f_fwd keeps the residuals where the VJP was split.
  std::vector<Tensor> results, residuals;
  const size_t numResults = fn->signature->results.size();
  if (gradient && !gradient->fwdName.empty() && !fn->recompute) {
    const DifferentiableFunction::Gradient::Compiled &fwd =
        gradient->function(gradient->fwdName);
    results = callCompiled(*fwd.module, *fwd.signature, inputs);
    residuals.assign(std::make_move_iterator(results.begin() + numResults),
                     std::make_move_iterator(results.end()));
    results.resize(numResults);
  } else {
    results = callCompiled(*fn->module, *fn->signature, inputs);
  }

  std::vector<Tensor> floatInputs;
  std::vector<size_t> floatArgs;
  for (size_t i = 0; i < inputs.size(); ++i)
    if (is_floating(inputs[i].dtype())) {
      floatInputs.push_back(inputs[i]);
      floatArgs.push_back(i);
    }
  if (floatInputs.empty())
    return results;
  // What every node's backward needs, shared.
  struct Saved {
    std::shared_ptr<DifferentiableFunction> fn;
    std::vector<Tensor> inputs, residuals;
    std::vector<std::vector<int64_t>> shapes; ///< Of the float results.
    std::vector<DType> dtypes;
    std::vector<size_t> floatResults;
    std::string why; ///< Non-empty: the function cannot be differentiated.
  };
  auto saved = std::make_shared<Saved>();
  saved->fn = fn;
  saved->inputs = inputs;
  saved->residuals = std::move(residuals);
  saved->why = why;
  for (size_t i = 0; i < results.size(); ++i)
    if (is_floating(results[i].dtype())) {
      saved->floatResults.push_back(i);
      saved->shapes.push_back(results[i].shape());
      saved->dtypes.push_back(results[i].dtype());
    }

  // One node for the recorded float results: one backward call, whatever
  // number of them the gradient reaches.
  std::vector<size_t> recorded;
  std::vector<Tensor> values;
  for (size_t k = 0; k < saved->floatResults.size(); ++k)
    if (saved->floatResults[k] < numRecorded) {
      recorded.push_back(k);
      values.push_back(results[saved->floatResults[k]]);
    }
  if (values.empty())
    return results;
  values = record_multi_output_gradient(
      floatInputs, std::move(values),
      [saved,
       recorded](const std::vector<Tensor> &nodeDys,
                 const std::vector<bool> &needed) -> std::vector<Tensor> {
        if (!saved->why.empty())
          throw InvalidArgumentError(saved->why);
        DifferentiableFunction::Gradient &g = saved->fn->gradient();
        // One dy per float result of the function: the node's where a
        // gradient reached it, zeros elsewhere (a result nothing used, a
        // variable's new value).
        std::vector<Tensor> dys;
        for (size_t j = 0; j < saved->floatResults.size(); ++j)
          dys.push_back(zeros(saved->shapes[j], saved->dtypes[j]));
        std::vector<Tensor> recordable = saved->inputs;
        for (size_t i = 0; i < recorded.size(); ++i)
          if (nodeDys[i].defined()) {
            dys[recorded[i]] = nodeDys[i];
            recordable.push_back(nodeDys[i]);
          }
        std::vector<Tensor> args = saved->inputs;
        if (any_tape_records(recordable)) {
          // Recorded itself (a tape differentiates this gradient): a
          // recorded call of the differentiable VJP, which runs the forward
          // again from the inputs the recording tapes see.
          args.insert(args.end(), dys.begin(), dys.end());
          const std::shared_ptr<DifferentiableFunction> &vjp = g.vjp();
          return call_differentiable(vjp, args, vjp->signature->results.size());
        }
        if (g.bwdName.empty() || saved->fn->recompute) {
          // No residuals (loops), or asked to recompute.
          args.insert(args.end(), dys.begin(), dys.end());
          const DifferentiableFunction::Gradient::Compiled &vjp =
              g.function(g.vjpStacksName);
          return callCompiled(*vjp.module, *vjp.signature, args);
        }
        args.insert(args.end(), saved->residuals.begin(),
                    saved->residuals.end());
        args.insert(args.end(), dys.begin(), dys.end());
        // Only the adjoints the tape needs: the backward of the others (a
        // weight's transpose for an input nobody watches) is not run.
        const DifferentiableFunction::Gradient::Compiled &m = g.bwdFor(needed);
        std::vector<Tensor> some = callCompiled(*m.module, *m.signature, args);
        std::vector<Tensor> dargs(needed.size());
        for (size_t i = 0, k = 0; i < needed.size(); ++i)
          if (needed[i])
            dargs[i] = std::move(some[k++]);
        return dargs;
      });
  for (size_t i = 0; i < recorded.size(); ++i)
    results[saved->floatResults[recorded[i]]] = std::move(values[i]);
  return results;
}
