//===- CompiledModule.h - The JIT embedding API -----------------*- C++ -*-===//
//
// Public and MLIR-free (included by <tfc/tfc.h>). A CompiledModule owns the
// JIT-compiled code of one tfc module; `call` runs a function on runtime
// tensors. Thread-safety: `call` may run concurrently on one module; a
// module must outlive its calls.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_JIT_COMPILEDMODULE_H
#define TFC_JIT_COMPILEDMODULE_H

#include "tfc/runtime/Tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tfc {

/// Where compiled code runs.
enum class Target { CPU, CUDA };

namespace jit {

struct CompileOptions {
  Target target = Target::CPU;
  int opt_level = 2; ///< LLVM -O level, 0..3.
  /// When non-empty, the IR after each stage is written there (like XLA's
  /// --xla_dump_to), one set of files per compile:
  /// <NNNN>-<function>.<index>-<stage>.mlir|.ll, MLIR with locations. The
  /// environment variable TFC_DUMP_DIR does the same (docs/environment.md).
  std::string dump_dir;
  /// Fuse elementwise producers into consumers (on by default).
  bool fuse = true;
  /// CPU: run each call with subnormal floats flushed to zero (x86-64
  /// FTZ + DAZ, inherited by the OpenMP workers), as TensorFlow and XLA run
  /// their CPU kernels; the caller's mode is restored after the call.
  /// Changes no code, so not part of the compile-cache key.
  bool flush_denormals = false;
  /// Call the runtime's kernels for ops that have one on the CPU (gather,
  /// segment sums, scans, pooling, random draws). false runs the loops the
  /// ops lower to instead, what the GPU pipeline runs: for testing them.
  bool kernel_calls = true;
  /// Persistent compile cache: object code kept on disk, keyed by the LLVM
  /// IR, target, opt level and versions, so that a later process compiling
  /// the same module skips LLVM optimisation and code generation.
  bool cache = true;
  /// The cache's directory; empty: default_compile_cache_dir().
  std::string cache_dir;
};

/// $TFC_CACHE_DIR when set (set but empty: "", the cache is off), else
/// $XDG_CACHE_HOME/tfc, else $HOME/.cache/tfc.
std::string default_compile_cache_dir();

/// Process-wide counters of the persistent compile cache.
struct CompileCacheStats {
  uint64_t hits = 0;     ///< Compiles that loaded object code from disk.
  uint64_t misses = 0;   ///< Compiles that ran LLVM (cache on, no entry).
  uint64_t stores = 0;   ///< Entries written.
  uint64_t rejected = 0; ///< Entries found corrupt or unusable (recompiled).
  uint64_t write_errors = 0; ///< Entries that could not be written.
};
CompileCacheStats compile_cache_stats();

class CompiledModule {
public:
  /// Parses, verifies, lowers and JIT-compiles `mlir_text`. Throws
  /// CompileError carrying the MLIR diagnostics (with locations) on failure.
  static CompiledModule from_source(std::string_view mlir_text,
                                    CompileOptions = {});
  static CompiledModule from_file(const std::string &path, CompileOptions = {});

  /// The public functions of the module, in order.
  std::vector<std::string> functions() const;
  /// Runs `function`. Arguments must match its signature (dtype, rank,
  /// static dims) else InvalidArgumentError; a failed tfc.assert throws
  /// RuntimeError. Results are adopted from compiled code without copies.
  /// Target::CUDA: arguments already on Device::cuda(0) are passed without
  /// a copy, others are copied there for the call; results stay on the
  /// device (Tensor::device() == Device::cuda(0)) until read or moved.
  /// Target::CPU reads CUDA arguments in place; its results are CPU
  /// tensors.
  std::vector<Tensor> call(std::string_view function,
                           const std::vector<Tensor> &args) const;
  /// IR at a stage: "tfc" (as given), "optimized" (tfc lowered to linalg on
  /// tensors, after fusion), "llvm-dialect", "llvm" (LLVM IR after -O; when
  /// the object code came from the compile cache, a note and the LLVM IR
  /// before -O, since optimisation was skipped).
  std::string ir(std::string_view stage) const;

  /// True when the object code was loaded from the persistent cache.
  bool from_cache() const;

  class Impl;
  explicit CompiledModule(std::shared_ptr<Impl> impl);
  const std::shared_ptr<Impl> &impl() const { return impl_; }

private:
  std::shared_ptr<Impl> impl_;
};

/// The MLIR bytecode of a tfc module given as text (what saved models
/// store). CompiledModule::from_source and from_file take either form.
/// Throws CompileError when the text does not parse.
std::string to_bytecode(std::string_view mlir_text);

/// Runs `function` of `mlir_text` op by op on the runtime kernels: the
/// reference semantics the JIT is tested against.
std::vector<Tensor> interpret(std::string_view mlir_text,
                              std::string_view function,
                              const std::vector<Tensor> &args);

} // namespace jit
} // namespace tfc

#endif // TFC_JIT_COMPILEDMODULE_H
