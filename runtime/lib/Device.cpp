//===- Device.cpp - Devices and moving tensors between them ---------------===//
//
// A CUDA tensor's Storage owns CUDA managed memory from the runtime's driver
// wrapper (runtime/cuda, the driver opened with dlopen), freed through it on
// last release. Managed memory is host-readable, and every operation that
// produces a CUDA tensor finishes its GPU work before returning, so reads
// on the host (item, to_vector, printing, eager kernels) are valid; reads
// the user asks for still synchronize first (docs/gpu.md, "Memory model").
//
//===----------------------------------------------------------------------===//

#include "Internal.h"
#include "tfc/runtime/Cuda.h"
#include "tfc/runtime/Tensor.h"

#include <cstring>
#include <ostream>

using namespace tfc;
using namespace tfc::detail;

Device Device::cuda(int index) {
  if (index < 0 || index > INT16_MAX)
    fail("Device::cuda", "device index ", index, " is out of range");
  return Device(DeviceKind::CUDA, static_cast<int16_t>(index));
}

std::string Device::str() const {
  return (is_cuda() ? "CUDA:" : "CPU:") + std::to_string(index_);
}

std::ostream &tfc::operator<<(std::ostream &os, Device device) {
  return os << device.str();
}

namespace {
void releaseManaged(void *, void *ptr, size_t) { cuda::releaseManaged(ptr); }
} // namespace

void tfc::detail::wait_for_device(const Tensor &t, std::string_view what) {
  Storage *s = t.storage();
  if (!s || !s->device().is_cuda())
    return;
  if (std::string error = cuda::synchronize(); !error.empty())
    throw RuntimeError(std::string(what) + ": reading a " + s->device().str() +
                       " tensor failed: " + error);
}

Device Tensor::device() const {
  if (!impl)
    throw InvalidArgumentError(
        "device: the tensor is undefined (default-constructed)");
  return impl->storage ? impl->storage->device() : Device::cpu();
}

Tensor Tensor::to(Device device) const {
  if (!impl)
    throw InvalidArgumentError(
        "to: the tensor is undefined (default-constructed)");
  std::string op = "to(" + device.str() + ")";
  if (impl->symbolic)
    fail(op, "tensor of shape ", impl->shape, " and dtype ", impl->dtype,
         " is a symbolic tensor (created while tracing); only concrete "
         "tensors can move between devices");
  if (this->device() == device)
    return *this;
  size_t bytes = static_cast<size_t>(impl->numel) * dtype_size(impl->dtype);
  if (device.is_cpu()) {
    wait_for_device(*this, op);
    Tensor out = Tensor::empty(impl->dtype, impl->shape);
    if (bytes)
      std::memcpy(out.raw_data(), impl->data, bytes);
    return out;
  }
  // To CUDA. Check the driver before anything is allocated.
  if (!cuda::driverAvailable())
    throw RuntimeError("Tensor::" + op + ": " + cuda::driverError());
  if (device.index() != 0)
    fail(op, "only CUDA device 0 is supported");
  void *ptr = nullptr;
  if (bytes) {
    std::string error;
    ptr = cuda::allocManaged(bytes, error);
    if (!ptr)
      throw RuntimeError("Tensor::" + op + ": cannot allocate " +
                         std::to_string(bytes) + " bytes: " + error);
    // Host writes to managed memory: no kernel is running (see the top).
    std::memcpy(ptr, impl->data, bytes);
  }
  Storage *storage =
      Storage::adopt(ptr, bytes, &releaseManaged, nullptr, device);
  Tensor out = Tensor::from_storage(impl->dtype, impl->shape, storage, ptr);
  storage->release(); // from_storage retained it
  return out;
}
