#pragma once
// Owning handles for device memory and streams on a given GPU, peer-access setup, and a host barrier that lines up
// the per-GPU threads before each launch.

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>

#include "workload.h"

namespace ws {

/// A CUDA event (timing enabled, no blocking sync) destroyed on scope exit.
class Event {
 public:
  Event() { WS_CHECK(cudaEventCreate(&event_)); }
  ~Event() { cudaEventDestroy(event_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_{};
};

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

struct StreamDestroy {
  int device = 0;
  void operator()(cudaStream_t s) const {
    ScopedDevice on(device);
    cudaStreamDestroy(s);
  }
};
using Stream = std::unique_ptr<CUstream_st, StreamDestroy>;

inline Stream make_stream(int device) {
  ScopedDevice on(device);
  cudaStream_t s = nullptr;
  WS_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  return Stream(s, StreamDestroy{device});
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

/// Reusable barrier for a fixed number of threads (std::barrier is C++20; the CUDA sources are C++17).
class Barrier {
 public:
  explicit Barrier(int parties) : parties_(parties) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++arrived_ == parties_) {
      arrived_ = 0;
      ++generation_;
      released_.notify_all();
      return;
    }
    released_.wait(lock, [&] { return generation_ != generation; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable released_;
  const int parties_;
  int arrived_ = 0;
  long generation_ = 0;
};

}  // namespace ws
