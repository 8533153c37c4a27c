#pragma once
// Small owners for CUDA resources. Each remembers its device and makes it current while it is created and destroyed,
// because the multi-GPU modes hold buffers, streams and events of several devices at once.

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "workload.h"

namespace stencil {

/// Makes `device` current for the scope and restores the previous one.
class ScopedDevice {
 public:
  explicit ScopedDevice(int device) {
    WS_CHECK(cudaGetDevice(&previous_));
    WS_CHECK(cudaSetDevice(device));
  }
  ~ScopedDevice() { (void)cudaSetDevice(previous_); }
  ScopedDevice(const ScopedDevice&) = delete;
  ScopedDevice& operator=(const ScopedDevice&) = delete;

 private:
  int previous_ = 0;
};

/// cudaMalloc'd floats on one device.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(int device, std::size_t count) : device_(device), count_(count) {
    ScopedDevice guard(device_);
    WS_CHECK(cudaMalloc(&data_, bytes()));
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      device_ = other.device_;
      count_ = std::exchange(other.count_, 0);
      data_ = std::exchange(other.data_, nullptr);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  float* get() const { return data_; }
  std::size_t count() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(float); }

  void upload(const std::vector<float>& host) {
    ScopedDevice guard(device_);
    WS_CHECK(cudaMemcpy(data_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  std::vector<float> download() const {
    std::vector<float> host(count_);
    ScopedDevice guard(device_);
    WS_CHECK(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost));
    return host;
  }

 private:
  void release() {
    if (data_ == nullptr) return;
    ScopedDevice guard(device_);
    (void)cudaFree(data_);
    data_ = nullptr;
  }

  int device_ = 0;
  std::size_t count_ = 0;
  float* data_ = nullptr;
};

/// A non-blocking stream (no implicit synchronisation with the legacy default stream).
class Stream {
 public:
  explicit Stream(int device) : device_(device) {
    ScopedDevice guard(device_);
    WS_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~Stream() {
    if (stream_ == nullptr) return;
    ScopedDevice guard(device_);
    (void)cudaStreamDestroy(stream_);
  }
  Stream(Stream&& other) noexcept : device_(other.device_), stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&&) = delete;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  cudaStream_t get() const { return stream_; }

 private:
  int device_;
  cudaStream_t stream_ = nullptr;
};

/// An event; `timing` false gives a cheaper event used only for ordering streams.
class Event {
 public:
  Event(int device, bool timing) : device_(device) {
    ScopedDevice guard(device_);
    WS_CHECK(cudaEventCreateWithFlags(&event_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (event_ == nullptr) return;
    ScopedDevice guard(device_);
    (void)cudaEventDestroy(event_);
  }
  Event(Event&& other) noexcept : device_(other.device_), event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const { return event_; }

 private:
  int device_;
  cudaEvent_t event_ = nullptr;
};

}  // namespace stencil
