#pragma once
// One cudaMalloc'd array whose cudaFree is tied to scope, with the copies the workloads need.

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "workload.h"

namespace ws {

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) { WS_CHECK(cudaMalloc(&ptr_, bytes())); }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return ptr_; }
  std::size_t count() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void upload(const T* host, std::size_t count) {
    WS_CHECK(cudaMemcpy(ptr_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void download(T* host, std::size_t count) const {
    WS_CHECK(cudaMemcpy(host, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  /// The whole buffer from / into a host vector (resized to fit on download).
  void upload(const std::vector<T>& host) { upload(host.data(), host.size()); }
  void download(std::vector<T>& host) const {
    host.resize(count_);
    download(host.data(), count_);
  }
  void zero() { WS_CHECK(cudaMemset(ptr_, 0, bytes())); }

 private:
  std::size_t count_;
  T* ptr_ = nullptr;
};

}  // namespace ws
