//===- CudaRuntime.cpp - mgpu* on the dlopen'ed CUDA driver -----*- C++ -*-===//
//
// Part of the tfc project.
//
//===----------------------------------------------------------------------===//
//
// The signatures follow what MLIR 22's gpu-to-llvm and the GPU dialect's
// LLVM translation emit (upstream's CudaRuntimeWrappers.cpp is the other
// implementation of this ABI). The driver types are declared here as opaque
// handles so the build needs no CUDA headers.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/Cuda.h"
#include "tfc/runtime/CudaInfo.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
using CUjit_option = int;

constexpr CUresult kSuccess = 0;
constexpr unsigned kMemAttachGlobal = 1;
constexpr unsigned kStreamNonBlocking = 1;
constexpr CUjit_option kJitErrorLogBuffer = 5;
constexpr CUjit_option kJitErrorLogBufferSize = 6;
constexpr CUjit_option kJitOptimizationLevel = 7;

/// The driver entry points this runtime uses, resolved once.
struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuGetErrorString)(CUresult, const char **);
  CUresult (*cuModuleLoadData)(CUmodule *, const void *);
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned,
                                 CUjit_option *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, CUstream, void **,
                             void **);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream);

  CUcontext context = nullptr;
  /// cuDeviceGetCount's answer once cuInit succeeded, else 0.
  int deviceCount = 0;
  /// Empty when usable.
  std::string error;
};

template <class Fn> bool resolve(void *lib, const char *name, Fn &slot) {
  slot = reinterpret_cast<Fn>(dlsym(lib, name));
  return slot != nullptr;
}

Driver &driver() {
  // Never destroyed: tensors in static storage free device memory at exit.
  static Driver &d = *new Driver([] {
    Driver d{};
    const char *path = std::getenv("TFC_CUDA_DRIVER");
    if (!path || !*path)
      path = "libcuda.so.1";
    // Never unloaded: compiled modules may hold driver handles until exit.
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *why = dlerror();
      d.error = std::string("the CUDA driver (") + path +
                ") was not found: " + (why ? why : "dlopen failed") +
                "; the CUDA target needs an NVIDIA driver (compile for "
                "Target::CPU instead)";
      return d;
    }
    // The _v2 names are the 64-bit entry points the headers map to.
    bool ok =
        resolve(lib, "cuInit", d.cuInit) &&
        resolve(lib, "cuDeviceGetCount", d.cuDeviceGetCount) &&
        resolve(lib, "cuDeviceGet", d.cuDeviceGet) &&
        resolve(lib, "cuDevicePrimaryCtxRetain", d.cuDevicePrimaryCtxRetain) &&
        resolve(lib, "cuCtxSetCurrent", d.cuCtxSetCurrent) &&
        resolve(lib, "cuCtxSynchronize", d.cuCtxSynchronize) &&
        resolve(lib, "cuGetErrorString", d.cuGetErrorString) &&
        resolve(lib, "cuModuleLoadData", d.cuModuleLoadData) &&
        resolve(lib, "cuModuleLoadDataEx", d.cuModuleLoadDataEx) &&
        resolve(lib, "cuModuleUnload", d.cuModuleUnload) &&
        resolve(lib, "cuModuleGetFunction", d.cuModuleGetFunction) &&
        resolve(lib, "cuLaunchKernel", d.cuLaunchKernel) &&
        resolve(lib, "cuStreamCreate", d.cuStreamCreate) &&
        resolve(lib, "cuStreamDestroy_v2", d.cuStreamDestroy) &&
        resolve(lib, "cuStreamSynchronize", d.cuStreamSynchronize) &&
        resolve(lib, "cuStreamWaitEvent", d.cuStreamWaitEvent) &&
        resolve(lib, "cuEventCreate", d.cuEventCreate) &&
        resolve(lib, "cuEventDestroy_v2", d.cuEventDestroy) &&
        resolve(lib, "cuEventRecord", d.cuEventRecord) &&
        resolve(lib, "cuEventSynchronize", d.cuEventSynchronize) &&
        resolve(lib, "cuMemAlloc_v2", d.cuMemAlloc) &&
        resolve(lib, "cuMemAllocManaged", d.cuMemAllocManaged) &&
        resolve(lib, "cuMemFree_v2", d.cuMemFree) &&
        resolve(lib, "cuMemcpyAsync", d.cuMemcpyAsync) &&
        resolve(lib, "cuMemsetD32Async", d.cuMemsetD32Async) &&
        resolve(lib, "cuMemsetD16Async", d.cuMemsetD16Async);
    if (!ok) {
      d.error = std::string("the CUDA driver (") + path +
                ") lacks a needed entry point: " + dlerror();
      return d;
    }
    auto describe = [&](CUresult r) {
      const char *s = nullptr;
      d.cuGetErrorString(r, &s);
      return std::string(s ? s : "unknown error") + " (" + std::to_string(r) +
             ")";
    };
    if (CUresult r = d.cuInit(0); r != kSuccess) {
      d.error = "the CUDA driver failed to initialise: " + describe(r);
      return d;
    }
    int count = 0;
    CUresult countResult = d.cuDeviceGetCount(&count);
    if (countResult == kSuccess)
      d.deviceCount = std::max(count, 0);
    if (CUresult r = countResult; r != kSuccess || count < 1) {
      d.error = "the CUDA driver reports no device" +
                (r != kSuccess ? ": " + describe(r) : std::string());
      return d;
    }
    CUdevice device = 0;
    if (CUresult r = d.cuDeviceGet(&device, 0); r != kSuccess) {
      d.error = "cuDeviceGet(0) failed: " + describe(r);
      return d;
    }
    if (CUresult r = d.cuDevicePrimaryCtxRetain(&d.context, device);
        r != kSuccess)
      d.error = "cannot create a CUDA context: " + describe(r);
    return d;
  }());
  return d;
}

//===----------------------------------------------------------------------===//
// Error slot
//===----------------------------------------------------------------------===//

thread_local bool pending = false;
thread_local std::string message;

void recordError(const std::string &what) {
  if (pending)
    return;
  pending = true;
  message = what;
}

std::string describeFailure(CUresult r, const char *call) {
  const char *s = nullptr;
  if (driver().cuGetErrorString)
    driver().cuGetErrorString(r, &s);
  return std::string("CUDA error in ") + call + ": " +
         (s ? s : "unknown error") + " (" + std::to_string(r) + ")";
}

/// Records a failed driver call; true when `r` is success.
bool check(CUresult r, const char *call) {
  if (r == kSuccess)
    return true;
  recordError(describeFailure(r, call));
  return false;
}

/// Makes the primary context current on this thread: "" or why not.
std::string makeCurrent() {
  Driver &d = driver();
  if (!d.error.empty())
    return d.error;
  thread_local bool current = false;
  if (!current) {
    if (CUresult r = d.cuCtxSetCurrent(d.context); r != kSuccess)
      return describeFailure(r, "cuCtxSetCurrent");
    current = true;
  }
  return "";
}

/// makeCurrent, recording a failure in the thread's error slot.
bool enter() {
  std::string error = makeCurrent();
  if (error.empty())
    return true;
  recordError(error);
  return false;
}

/// Bookkeeping of device memory. Heap-allocated and never destroyed:
/// tensors in static storage free their memory during exit.
struct Blocks {
  std::mutex mutex;
  /// Host memory handed out when a managed allocation fails, so compiled
  /// code never writes through a null pointer; the call then reports the
  /// failure.
  std::unordered_set<void *> fallback;
  /// Buffers compiled code allocated that nobody has freed or adopted: the
  /// only pointers callInto may adopt as results.
  std::unordered_set<void *> unadopted;
  /// Live driver allocations (for leak checks in tests).
  std::atomic<long> live{0};
  /// Successful allocManaged calls.
  std::atomic<long> made{0};
};
Blocks &blocks() {
  static Blocks &b = *new Blocks();
  return b;
}
alignas(256) char emptyBlock[256];

CUdeviceptr dptr(const void *p) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(p));
}

} // namespace

//===----------------------------------------------------------------------===//
// The mgpu* ABI
//===----------------------------------------------------------------------===//

extern "C" {

CUmodule mgpuModuleLoad(void *data, size_t /*gpuBlobSize*/) {
  CUmodule module = nullptr;
  if (enter())
    check(driver().cuModuleLoadData(&module, data), "cuModuleLoadData");
  return module;
}

/// `data` is null-terminated PTX; the driver compiles it for this GPU.
CUmodule mgpuModuleLoadJIT(void *data, int optLevel) {
  CUmodule module = nullptr;
  if (!enter())
    return nullptr;
  char log[8192] = {0};
  CUjit_option options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize,
                            kJitOptimizationLevel};
  void *values[] = {log, reinterpret_cast<void *>(sizeof(log)),
                    reinterpret_cast<void *>(static_cast<intptr_t>(
                        optLevel < 0 ? 0 : (optLevel > 4 ? 4 : optLevel)))};
  bool wasPending = pending;
  if (!check(driver().cuModuleLoadDataEx(&module, data, 3, options, values),
             "cuModuleLoadDataEx (PTX JIT)") &&
      !wasPending && log[0])
    message += std::string("\n") + log;
  return module;
}

void mgpuModuleUnload(CUmodule module) {
  if (module && enter())
    check(driver().cuModuleUnload(module), "cuModuleUnload");
}

CUfunction mgpuModuleGetFunction(CUmodule module, const char *name) {
  CUfunction fn = nullptr;
  if (!module) {
    recordError(std::string("GPU kernel '") + (name ? name : "?") +
                "' is not loaded (its module failed to load)");
    return nullptr;
  }
  if (enter())
    check(driver().cuModuleGetFunction(&fn, module, name),
          "cuModuleGetFunction");
  return fn;
}

void mgpuLaunchKernel(CUfunction fn, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, CUstream stream,
                      void **params, void **extra, size_t /*paramsCount*/) {
  // After a failure the data is garbage: skip the remaining work.
  if (pending || !fn)
    return;
  // An empty iteration space (empty tensors) launches nothing.
  if (gridX <= 0 || gridY <= 0 || gridZ <= 0 || blockX <= 0 || blockY <= 0 ||
      blockZ <= 0)
    return;
  if (enter())
    check(driver().cuLaunchKernel(fn, gridX, gridY, gridZ, blockX, blockY,
                                  blockZ, smem, stream, params, extra),
          "cuLaunchKernel");
}

CUstream mgpuStreamCreate() {
  CUstream stream = nullptr;
  if (enter())
    check(driver().cuStreamCreate(&stream, kStreamNonBlocking),
          "cuStreamCreate");
  return stream;
}

void mgpuStreamDestroy(CUstream stream) {
  if (stream && enter())
    check(driver().cuStreamDestroy(stream), "cuStreamDestroy");
}

void mgpuStreamSynchronize(CUstream stream) {
  if (enter())
    check(driver().cuStreamSynchronize(stream), "cuStreamSynchronize");
}

void mgpuStreamWaitEvent(CUstream stream, CUevent event) {
  if (enter())
    check(driver().cuStreamWaitEvent(stream, event, 0), "cuStreamWaitEvent");
}

CUevent mgpuEventCreate() {
  CUevent event = nullptr;
  // CU_EVENT_DISABLE_TIMING: the events only order streams.
  if (enter())
    check(driver().cuEventCreate(&event, 2), "cuEventCreate");
  return event;
}

void mgpuEventDestroy(CUevent event) {
  if (event && enter())
    check(driver().cuEventDestroy(event), "cuEventDestroy");
}

void mgpuEventSynchronize(CUevent event) {
  if (enter())
    check(driver().cuEventSynchronize(event), "cuEventSynchronize");
}

void mgpuEventRecord(CUevent event, CUstream stream) {
  if (enter())
    check(driver().cuEventRecord(event, stream), "cuEventRecord");
}

/// Host-shared memory is CUDA managed memory: host code and kernels both
/// read and write it (tfc's host code reads loop conditions from it).
void *mgpuMemAlloc(uint64_t sizeBytes, CUstream /*stream*/, bool isHostShared) {
  if (sizeBytes == 0)
    return emptyBlock;
  CUdeviceptr p = 0;
  if (enter()) {
    bool ok =
        isHostShared
            ? check(driver().cuMemAllocManaged(&p, sizeBytes, kMemAttachGlobal),
                    "cuMemAllocManaged")
            : check(driver().cuMemAlloc(&p, sizeBytes), "cuMemAlloc");
    if (ok) {
      void *block = reinterpret_cast<void *>(static_cast<uintptr_t>(p));
      Blocks &b = blocks();
      b.live.fetch_add(1, std::memory_order_relaxed);
      // Device-only memory is not host-readable: never a tensor's.
      if (isHostShared) {
        std::lock_guard<std::mutex> lock(b.mutex);
        b.unadopted.insert(block);
      }
      return block;
    }
  }
  void *host = std::aligned_alloc(256, (sizeBytes + 255) / 256 * 256);
  if (!host)
    return emptyBlock; // The recorded failure fails the call.
  std::lock_guard<std::mutex> lock(blocks().mutex);
  blocks().fallback.insert(host);
  return host;
}

/// Frees a block from mgpuMemAlloc or allocateManaged (host fallback or
/// managed memory). `report` records a driver failure for compiled code
/// (mgpuMemFree); a tensor's deleter has no one to report to.
static void freeBlock(void *ptr, bool report) {
  if (!ptr || ptr == emptyBlock)
    return;
  Blocks &b = blocks();
  {
    std::lock_guard<std::mutex> lock(b.mutex);
    if (b.fallback.erase(ptr)) {
      std::free(ptr);
      return;
    }
    b.unadopted.erase(ptr);
  }
  bool freed =
      report
          ? enter() && check(driver().cuMemFree(dptr(ptr)), "cuMemFree")
          : makeCurrent().empty() && driver().cuMemFree(dptr(ptr)) == kSuccess;
  if (freed)
    b.live.fetch_sub(1, std::memory_order_relaxed);
}

void mgpuMemFree(void *ptr, CUstream /*stream*/) {
  freeBlock(ptr, /*report=*/true);
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, CUstream stream) {
  if (pending || sizeBytes == 0)
    return;
  if (enter())
    check(driver().cuMemcpyAsync(dptr(dst), dptr(src), sizeBytes, stream),
          "cuMemcpyAsync");
}

void mgpuMemset32(void *dst, unsigned int value, size_t count,
                  CUstream stream) {
  if (pending || count == 0)
    return;
  if (enter())
    check(driver().cuMemsetD32Async(dptr(dst), value, count, stream),
          "cuMemsetD32Async");
}

void mgpuMemset16(void *dst, unsigned short value, size_t count,
                  CUstream stream) {
  if (pending || count == 0)
    return;
  if (enter())
    check(driver().cuMemsetD16Async(dptr(dst), value, count, stream),
          "cuMemsetD16Async");
}

void mgpuSetDefaultDevice(int32_t device) {
  // One device (ordinal 0) is used; anything else is reported.
  if (device != 0)
    recordError("only CUDA device 0 is supported, got " +
                std::to_string(device));
}

bool tfc_cuda_ok() { return !pending; }

const char *tfc_cuda_error_message() {
  pending = false;
  return message.c_str();
}

} // extern "C"

//===----------------------------------------------------------------------===//
// C++ API
//===----------------------------------------------------------------------===//

const std::string &tfc::cuda::driverError() { return driver().error; }

bool tfc::cuda::is_available() noexcept {
  try {
    return driver().error.empty();
  } catch (...) { // Only bad_alloc building the driver's message.
    return false;
  }
}

int tfc::cuda::device_count() noexcept {
  try {
    return driver().deviceCount;
  } catch (...) {
    return 0;
  }
}

void *tfc::cuda::allocManaged(size_t bytes, std::string &error) {
  error = makeCurrent();
  if (!error.empty())
    return nullptr;
  CUdeviceptr p = 0;
  if (CUresult r = driver().cuMemAllocManaged(&p, bytes, kMemAttachGlobal);
      r != kSuccess) {
    error = describeFailure(r, "cuMemAllocManaged");
    return nullptr;
  }
  blocks().live.fetch_add(1, std::memory_order_relaxed);
  blocks().made.fetch_add(1, std::memory_order_relaxed);
  return reinterpret_cast<void *>(static_cast<uintptr_t>(p));
}

void tfc::cuda::releaseManaged(void *ptr) {
  // Only a pointer from the driver gets here, so the driver is usable.
  freeBlock(ptr, /*report=*/false);
}

bool tfc::cuda::adoptAllocation(const void *ptr) {
  if (ptr == emptyBlock)
    return true; // Zero bytes: nothing to free.
  Blocks &b = blocks();
  void *p = const_cast<void *>(ptr);
  std::lock_guard<std::mutex> lock(b.mutex);
  return b.unadopted.erase(p) || b.fallback.count(p);
}

std::string tfc::cuda::synchronize() {
  std::string error = makeCurrent();
  if (!error.empty())
    return error;
  if (CUresult r = driver().cuCtxSynchronize(); r != kSuccess)
    return describeFailure(r, "cuCtxSynchronize");
  return "";
}

long tfc::cuda::liveAllocations() {
  return blocks().live.load(std::memory_order_relaxed);
}

long tfc::cuda::managedAllocationsMade() {
  return blocks().made.load(std::memory_order_relaxed);
}

std::string tfc::cuda::takeError() {
  if (!pending)
    return "";
  pending = false;
  return message;
}

const std::vector<tfc::cuda::HostSymbol> &tfc::cuda::hostSymbols() {
  static const std::vector<HostSymbol> symbols = {
#define TFC_SYMBOL(name) {#name, reinterpret_cast<void *>(&name)}
      TFC_SYMBOL(mgpuModuleLoad),
      TFC_SYMBOL(mgpuModuleLoadJIT),
      TFC_SYMBOL(mgpuModuleUnload),
      TFC_SYMBOL(mgpuModuleGetFunction),
      TFC_SYMBOL(mgpuLaunchKernel),
      TFC_SYMBOL(mgpuStreamCreate),
      TFC_SYMBOL(mgpuStreamDestroy),
      TFC_SYMBOL(mgpuStreamSynchronize),
      TFC_SYMBOL(mgpuStreamWaitEvent),
      TFC_SYMBOL(mgpuEventCreate),
      TFC_SYMBOL(mgpuEventDestroy),
      TFC_SYMBOL(mgpuEventSynchronize),
      TFC_SYMBOL(mgpuEventRecord),
      TFC_SYMBOL(mgpuMemAlloc),
      TFC_SYMBOL(mgpuMemFree),
      TFC_SYMBOL(mgpuMemcpy),
      TFC_SYMBOL(mgpuMemset32),
      TFC_SYMBOL(mgpuMemset16),
      TFC_SYMBOL(mgpuSetDefaultDevice),
      TFC_SYMBOL(tfc_cuda_ok),
      TFC_SYMBOL(tfc_cuda_error_message),
#undef TFC_SYMBOL
  };
  return symbols;
}
