#pragma once
// Shared by the mechanism microbenchmarks (workloads/microbench_*): the clock their cycles are counted at, the
// median CUDA-event time of repeated launches after a warm-up, and a read that pushes earlier data out of the L2.

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "workload.h"

namespace ws {

/// Device 0's properties (the GPU every microbenchmark runs on).
inline cudaDeviceProp device_properties() {
  cudaDeviceProp prop{};
  WS_CHECK(cudaGetDeviceProperties(&prop, 0));
  return prop;
}

/// --repeat: the timed launches per measurement, at least 1 (default 5).
inline int repeat_arg(int argc, char** argv) {
  return std::max(1, static_cast<int>(arg_long(argc, argv, "repeat", 5)));
}

/// The clock cycles are counted at: --clock-mhz, else the device's maximum SM clock (what the models use).
inline double clock_mhz_arg(int argc, char** argv) {
  int clock_khz = 0;
  WS_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  return static_cast<double>(arg_long(argc, argv, "clock-mhz", clock_khz / 1000));
}

/// Reads `n` floats of `p` (a grid-stride loop), so that a buffer larger than the L2 pushes out what it held: the
/// untimed preparation of a measurement that must start from DRAM. `sink` is written only for a sum the reads never
/// make, which keeps them.
static __global__ void read_to_evict(const float* __restrict__ p, size_t n, float* sink) {
  float s = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    s += p[i];
  if (s == -1.f) *sink = s;
}

/// Sets `n` floats of `p` to `value` (a grid-stride loop): a microbenchmark's input, or its output before a run.
static __global__ void fill_floats(float* p, size_t n, float value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = value;
}

/// Whether the first, middle and last of `n` device floats hold `value`: a copy's spot check.
inline bool floats_hold(const float* p, size_t n, float value) {
  for (size_t i : {size_t{0}, n / 2, n - 1}) {
    float got = 0;
    WS_CHECK(cudaMemcpy(&got, &p[i], sizeof got, cudaMemcpyDeviceToHost));
    if (got != value) return false;
  }
  return true;
}

/// The middle value (the upper one of an even count).
inline float median(std::vector<float> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Median milliseconds of `repeat` launches on the default stream, each timed by CUDA events, after one untimed
/// warm-up launch (caches, clocks, lazy module loading); `prepare` runs before every launch, outside the events (e.g.
/// a kernel that pushes the data out of the L2).
template <typename Prepare, typename Launch>
float median_launch_ms(Prepare prepare, Launch launch, int repeat) {
  cudaEvent_t begin, end;
  WS_CHECK(cudaEventCreate(&begin));
  WS_CHECK(cudaEventCreate(&end));
  prepare();
  launch();
  WS_CHECK(cudaGetLastError());
  std::vector<float> ms;
  for (int r = 0; r < repeat; ++r) {
    prepare();
    WS_CHECK(cudaEventRecord(begin));
    launch();
    WS_CHECK(cudaEventRecord(end));
    WS_CHECK(cudaEventSynchronize(end));
    WS_CHECK(cudaGetLastError());
    float t = 0;
    WS_CHECK(cudaEventElapsedTime(&t, begin, end));
    ms.push_back(t);
  }
  WS_CHECK(cudaEventDestroy(begin));
  WS_CHECK(cudaEventDestroy(end));
  return median(ms);
}

/// The same with nothing to prepare.
template <typename Launch>
float median_launch_ms(Launch launch, int repeat) {
  return median_launch_ms([] {}, launch, repeat);
}

}  // namespace ws
