//===- CudaInfo.h - Is CUDA usable here? ------------------------*- C++ -*-===//
//
// The public questions about the CUDA driver (as torch.cuda.is_available /
// device_count). The driver is opened with dlopen("libcuda.so.1", or
// $TFC_CUDA_DRIVER) on first use, once per process; on a machine without a
// driver or a device both answer false / 0. Neither throws, from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef TFC_RUNTIME_CUDAINFO_H
#define TFC_RUNTIME_CUDAINFO_H

namespace tfc::cuda {

/// True when tensors and functions can use Device::cuda(0): the driver
/// loaded, cuInit succeeded, it reports a device and device 0's context
/// could be made current.
bool is_available() noexcept;
/// Devices the driver reports (cuDeviceGetCount); 0 when the driver is
/// missing, lacks an entry point or cuInit fails.
int device_count() noexcept;

} // namespace tfc::cuda

#endif // TFC_RUNTIME_CUDAINFO_H
