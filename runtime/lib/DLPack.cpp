//===- DLPack.cpp - to_dlpack / from_dlpack -------------------------------===//
//
// Export keeps a Tensor handle alive in the DLManagedTensor's manager_ctx;
// import wraps the producer's memory in a Storage whose deleter calls the
// DLManagedTensor's. Every check runs before anything is allocated or owned.
//
//===----------------------------------------------------------------------===//

#include "tfc/runtime/DLPack.h"

#include "External.h"
#include "Internal.h"
#include "tfc/runtime/Cuda.h"

#include <cstring>
#include <memory>

using namespace tfc;
using namespace tfc::detail;

namespace {

/// What manager_ctx points at: the exported DLManagedTensor and what its
/// pointers refer to.
struct ExportHolder {
  DLManagedTensor managed;
  Tensor keep; ///< Keeps the data alive until the consumer's deleter.
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
};

void deleteExport(DLManagedTensor *self) {
  delete static_cast<ExportHolder *>(self->manager_ctx);
}

DLDataType toDLType(DType t) {
  switch (t) {
  case DType::Bool:
    return {kDLPackBool, 8, 1};
  case DType::Int32:
    return {kDLInt, 32, 1};
  case DType::Int64:
    return {kDLInt, 64, 1};
  case DType::Float32:
    return {kDLFloat, 32, 1};
  case DType::Float64:
    return {kDLFloat, 64, 1};
  }
  return {kDLFloat, 64, 1};
}

std::string typeCodeName(uint8_t code) {
  switch (code) {
  case kDLInt:
    return "kDLInt";
  case kDLUInt:
    return "kDLUInt";
  case kDLFloat:
    return "kDLFloat";
  case kDLOpaqueHandle:
    return "kDLOpaqueHandle";
  case kDLBfloat:
    return "kDLBfloat";
  case kDLComplex:
    return "kDLComplex";
  case kDLPackBool:
    return "kDLBool";
  }
  return "unknown type code " + std::to_string(code);
}

DType fromDLType(DLDataType t) {
  constexpr std::string_view op = "from_dlpack";
  if (t.lanes != 1)
    fail(op, "vector dtypes are not supported: ", typeCodeName(t.code), " ",
         int(t.bits), " bits has ", int(t.lanes), " lanes (tfc needs 1)");
  if (t.code == kDLInt && t.bits == 32)
    return DType::Int32;
  if (t.code == kDLInt && t.bits == 64)
    return DType::Int64;
  if (t.code == kDLFloat && t.bits == 32)
    return DType::Float32;
  if (t.code == kDLFloat && t.bits == 64)
    return DType::Float64;
  if (t.code == kDLPackBool && t.bits == 8)
    return DType::Bool;
  fail(op, "unsupported dtype ", typeCodeName(t.code), " with ", int(t.bits),
       " bits; tfc supports kDLBool 8 (bool), kDLInt 32 and 64 (int32, "
       "int64), kDLFloat 32 and 64 (float32, float64)");
}

/// The device type's value as an integer, without loading it as the enum
/// (a producer may hand any value; loading an out-of-range enum is UB).
int32_t deviceTypeOf(const DLDevice &d) {
  int32_t type = 0;
  static_assert(sizeof(d.device_type) == sizeof(type));
  std::memcpy(&type, &d.device_type, sizeof(type));
  return type;
}

std::string deviceName(const DLDevice &d) {
  std::string name;
  int32_t type = deviceTypeOf(d);
  switch (type) {
  case kDLCPU:
    name = "kDLCPU";
    break;
  case kDLCUDA:
    name = "kDLCUDA";
    break;
  case kDLCUDAHost:
    name = "kDLCUDAHost";
    break;
  case kDLOpenCL:
    name = "kDLOpenCL";
    break;
  case kDLVulkan:
    name = "kDLVulkan";
    break;
  case kDLMetal:
    name = "kDLMetal";
    break;
  case kDLVPI:
    name = "kDLVPI";
    break;
  case kDLROCM:
    name = "kDLROCM";
    break;
  case kDLROCMHost:
    name = "kDLROCMHost";
    break;
  case kDLExtDev:
    name = "kDLExtDev";
    break;
  case kDLCUDAManaged:
    name = "kDLCUDAManaged";
    break;
  default:
    name = "DLDeviceType(" + std::to_string(type) + ")";
    break;
  }
  return name + ":" + std::to_string(d.device_id);
}

void releaseImport(void *ctx, void *, size_t) {
  auto *src = static_cast<DLManagedTensor *>(ctx);
  if (src->deleter)
    src->deleter(src);
}

/// Copies a strided view into a fresh row-major tensor (element by element:
/// the rare path; compact inputs are never copied).
Tensor gather(const char *base, const std::vector<int64_t> &shape,
              const int64_t *strides, DType dtype, int64_t numel) {
  Tensor out = Tensor::empty(dtype, shape);
  size_t elem = dtype_size(dtype);
  char *dst = static_cast<char *>(out.raw_data());
  size_t rank = shape.size();
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0; // elements from base, by `strides`
  for (int64_t i = 0; i < numel; ++i) {
    std::memcpy(dst + static_cast<size_t>(i) * elem,
                base + offset * static_cast<int64_t>(elem), elem);
    for (size_t d = rank; d-- > 0;) {
      offset += strides[d];
      if (++index[d] < shape[d])
        break;
      offset -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
  return out;
}

} // namespace

DLManagedTensor *tfc::to_dlpack(const Tensor &t) {
  require_concrete("to_dlpack", t);
  auto holder = std::make_unique<ExportHolder>();
  holder->keep = t;
  holder->shape = t.shape();
  size_t rank = holder->shape.size();
  holder->strides.resize(rank);
  int64_t stride = 1;
  for (size_t d = rank; d-- > 0;) {
    holder->strides[d] = stride;
    stride *= holder->shape[d];
  }
  DLTensor &dl = holder->managed.dl_tensor;
  dl.data = t.raw_data();
  dl.device =
      t.device().is_cuda() ? DLDevice{kDLCUDAManaged, 0} : DLDevice{kDLCPU, 0};
  dl.ndim = static_cast<int>(rank);
  dl.dtype = toDLType(t.dtype());
  dl.shape = holder->shape.data();
  dl.strides = holder->strides.data();
  dl.byte_offset = 0;
  holder->managed.manager_ctx = holder.get();
  holder->managed.deleter = &deleteExport;
  return &holder.release()->managed;
}

Tensor tfc::from_dlpack(DLManagedTensor *src) {
  constexpr std::string_view op = "from_dlpack";
  if (!src)
    fail(op, "null DLManagedTensor");
  const DLTensor &dl = src->dl_tensor;
  Device device;
  switch (deviceTypeOf(dl.device)) {
  case kDLCPU:
  case kDLCUDAHost: // pinned host memory: an ordinary CPU pointer
    break;
  case kDLCUDAManaged:
    if (!cuda::driverAvailable())
      throw RuntimeError(
          "from_dlpack: a " + deviceName(dl.device) +
          " tensor needs the CUDA driver: " + cuda::driverError());
    device = Device::cuda(0);
    break;
  case kDLCUDA:
    fail(op, "unsupported device ", deviceName(dl.device),
         ": tfc's CUDA tensors are CUDA managed memory (kDLCUDAManaged), "
         "which the host reads too; plain device memory is not supported");
  default:
    fail(op, "unsupported device ", deviceName(dl.device),
         "; tfc supports kDLCPU, kDLCUDAHost and kDLCUDAManaged");
  }
  DType dtype = fromDLType(dl.dtype);
  if (dl.ndim < 0)
    fail(op, "negative ndim ", dl.ndim);
  if (dl.ndim > 0 && !dl.shape)
    fail(op, "null shape for ndim ", dl.ndim);
  std::vector<int64_t> shape(dl.shape, dl.shape + dl.ndim);
  char *data = static_cast<char *>(dl.data);
  if (data)
    data += dl.byte_offset;
  else if (dl.byte_offset)
    fail(op, "byte_offset ", dl.byte_offset, " with a null data pointer");
  int64_t numel = check_external(op, data, shape, dtype);

  bool compact = true;
  if (dl.strides && numel > 0) {
    int64_t expect = 1;
    for (int d = dl.ndim - 1; d >= 0; --d) {
      if (shape[d] != 1 && dl.strides[d] != expect)
        compact = false;
      expect *= shape[d];
    }
  }
  if (!compact) {
    if (device.is_cuda()) // the host reads managed memory: wait for kernels
      if (std::string error = cuda::synchronize(); !error.empty())
        throw RuntimeError("from_dlpack: reading a " + deviceName(dl.device) +
                           " tensor failed: " + error);
    Tensor copy = gather(data, shape, dl.strides, dtype, numel);
    if (device.is_cuda())
      copy = copy.to(device);
    releaseImport(src, nullptr, 0); // The copy needs the source no longer.
    return copy;
  }
  return wrap_external(data, std::move(shape), dtype, numel, &releaseImport,
                       src, device);
}
