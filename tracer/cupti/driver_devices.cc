#include "cupti/driver_devices.h"

#include <cuda.h>

#include <cstring>

namespace warpsim::tracer {
namespace {

std::optional<std::uint32_t> attribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  if (cuDeviceGetAttribute(&value, which, device) != CUDA_SUCCESS || value < 0) return std::nullopt;
  return static_cast<std::uint32_t>(value);
}

DriverDeviceInfo describe(CUdevice device, int ordinal, int count) {
  DriverDeviceInfo info;
  info.ordinal = static_cast<std::uint32_t>(ordinal);
  char text[256] = {};
  if (cuDeviceGetName(text, sizeof text, device) == CUDA_SUCCESS) info.name = text;
  CUuuid uuid{};
  if (cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS) std::memcpy(info.uuid.data(), uuid.bytes, info.uuid.size());
  if (cuDeviceGetPCIBusId(text, sizeof text, device) == CUDA_SUCCESS) info.pci_bus_id = text;
  info.sm_clock_khz = attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
  info.memory_clock_khz = attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
  info.memory_bus_width_bits = attribute(device, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
  info.max_shared_memory_per_block_optin = attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  info.async_engine_count = attribute(device, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT);
  info.max_threads_per_sm = attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  info.sm_count = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  info.cc_major = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  info.cc_minor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  info.l2_cache_bytes = attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
  std::size_t bytes = 0;
  if (cuDeviceTotalMem(&bytes, device) == CUDA_SUCCESS) info.total_memory_bytes = bytes;
  info.peer_access.assign(static_cast<std::size_t>(count), false);
  for (int peer = 0; peer < count; ++peer) {
    CUdevice other = 0;
    int can = 0;
    if (peer != ordinal && cuDeviceGet(&other, peer) == CUDA_SUCCESS &&
        cuDeviceCanAccessPeer(&can, device, other) == CUDA_SUCCESS)
      info.peer_access[static_cast<std::size_t>(peer)] = can != 0;
  }
  return info;
}

}  // namespace

std::vector<DriverDeviceInfo> read_driver_devices() {
  std::vector<DriverDeviceInfo> devices;
  int count = 0;
  if (cuDeviceGetCount(&count) != CUDA_SUCCESS) return devices;
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    if (cuDeviceGet(&device, ordinal) == CUDA_SUCCESS) devices.push_back(describe(device, ordinal, count));
  }
  return devices;
}

std::optional<std::uint32_t> device_architecture(std::uint32_t ordinal) {
  CUdevice device = 0;
  if (cuDeviceGet(&device, static_cast<int>(ordinal)) != CUDA_SUCCESS) return std::nullopt;
  const auto major = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  const auto minor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  if (!major || !minor) return std::nullopt;
  return *major * 10 + *minor;
}

}  // namespace warpsim::tracer
