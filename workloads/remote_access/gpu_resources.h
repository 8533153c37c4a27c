#pragma once
// Owning handle for device memory on a given GPU, and peer-access setup. (The same few helpers exist in
// convolution/; each workload folder is self-contained.)

#include <cstddef>
#include <memory>

#include "workload.h"

namespace ra {

/// Makes `device` current for one scope and restores the previous device afterwards.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device) {
    WS_CHECK(cudaGetDevice(&previous_));
    WS_CHECK(cudaSetDevice(device));
  }
  ~ScopedDevice() { cudaSetDevice(previous_); }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  int previous_ = 0;
};

struct DeviceFree {
  int device = 0;
  void operator()(float* p) const {
    ScopedDevice on(device);
    cudaFree(p);
  }
};
using DeviceFloats = std::unique_ptr<float, DeviceFree>;

inline DeviceFloats device_floats(int device, std::size_t count) {
  ScopedDevice on(device);
  float* p = nullptr;
  WS_CHECK(cudaMalloc(&p, count * sizeof(float)));
  return DeviceFloats(p, DeviceFree{device});
}

/// Lets `device` dereference `peer`'s memory. Returns false (and changes nothing) when the hardware cannot.
inline bool enable_peer_access(int device, int peer) {
  int possible = 0;
  WS_CHECK(cudaDeviceCanAccessPeer(&possible, device, peer));
  if (possible == 0) return false;
  ScopedDevice on(device);
  const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
  if (status == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();  // not an error for us; clear it so later checks do not see it
    return true;
  }
  WS_CHECK(status);
  return true;
}

}  // namespace ra
