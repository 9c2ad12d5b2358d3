//===- Cuda.h - The CUDA driver, opened at run time -------------*- C++ -*-===//
//
// The functions that JIT-compiled host code calls to load PTX, launch
// kernels and manage memory (MLIR's `mgpu*` ABI, as `gpu-to-llvm` emits it),
// implemented on the CUDA driver API opened with dlopen("libcuda.so.1").
// Nothing links against CUDA: on a machine without a driver the library
// loads, `driverError()` says why CUDA cannot be used, and nothing crashes.
//
// Errors: the mgpu* functions are called from compiled code and must not
// throw, so a failing driver call records a message in a thread-local slot
// (the first one wins) and later launches and copies on that thread are
// skipped. Compiled code asks `tfc_cuda_ok` before it returns and reports
// the message through the runtime's assert channel (a RuntimeError).
//
// Thread-safety: every function may be called from any thread; the driver
// is loaded once, and each thread makes the device's primary context current
// on first use.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_CUDA_H
#define TFC_RUNTIME_CUDA_H

#include <cstddef>
#include <string>
#include <vector>

// Internal to libtfc.so: not exported (docs/architecture.md).
#pragma GCC visibility push(hidden)
namespace tfc::cuda {

/// Loads the driver on first use. Empty when CUDA is usable; otherwise why
/// not, e.g. "the CUDA driver (libcuda.so.1) was not found: ...". The
/// environment variable TFC_CUDA_DRIVER names another library to open (tests
/// use it to check the no-driver path on machines that have one).
const std::string &driverError();
inline bool driverAvailable() { return driverError().empty(); }

/// The first CUDA failure recorded on this thread since the last call, or
/// "" if none; clears it.
std::string takeError();

// --- Device memory for tensors (Tensor::to, results of CUDA calls) ---------

/// `bytes` (> 0) of CUDA managed memory on device 0, readable by the host
/// and by kernels. Null, with `error` set, when the driver is unusable or
/// the allocation fails. Never records into the thread's error slot.
void *allocManaged(size_t bytes, std::string &error);
/// Frees memory from allocManaged, or a buffer compiled code allocated
/// (mgpuMemAlloc) and the caller adopted. Never throws or records an error:
/// it runs in destructors, where a failed free can only leak.
void releaseManaged(void *ptr);
/// True when `ptr` is a live buffer that compiled code allocated with
/// mgpuMemAlloc and nobody adopted yet; marks it adopted (the caller now
/// frees it with releaseManaged). False for anything else (host memory,
/// an argument's buffer, a buffer already adopted).
bool adoptAllocation(const void *ptr);
/// Waits for all work on device 0 (cuCtxSynchronize). Empty on success,
/// else why it failed. Never records into the thread's error slot.
std::string synchronize();
/// Live device allocations (allocManaged and mgpuMemAlloc, not yet freed):
/// lets tests check that nothing leaks or that nothing was allocated.
long liveAllocations();
/// How many allocManaged calls have succeeded (never decreases): tests
/// check that a CUDA tensor passed to a CUDA function is not copied.
long managedAllocationsMade();

/// One C entry point of this runtime, for registration with a JIT.
struct HostSymbol {
  const char *name;
  void *address;
};
/// Every mgpu* function and the tfc_cuda_* error hooks.
const std::vector<HostSymbol> &hostSymbols();

} // namespace tfc::cuda
#pragma GCC visibility pop

extern "C" {
/// False when a CUDA call failed on this thread since the last check.
bool tfc_cuda_ok();
/// The pending failure's message (valid until the next failure on this
/// thread); clears the failure.
const char *tfc_cuda_error_message();
}

#endif // TFC_RUNTIME_CUDA_H
