#pragma once
// Shared by the mechanism microbenchmarks (workloads/microbench_*): the clock their cycles are counted at, the
// median CUDA-event time of repeated launches after a warm-up.

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "workload.h"

namespace ws {

/// The clock cycles are counted at: --clock-mhz, else the device's maximum SM clock (what the models use).
inline double clock_mhz_arg(int argc, char** argv) {
  int clock_khz = 0;
  WS_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  return static_cast<double>(arg_long(argc, argv, "clock-mhz", clock_khz / 1000));
}

/// The middle value (the upper one of an even count).
inline float median(std::vector<float> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

/// Median milliseconds of `repeat` launches on the default stream, each timed by CUDA events, after one untimed
/// warm-up launch (caches, clocks, lazy module loading).
template <typename Launch>
float median_launch_ms(Launch launch, int repeat) {
  cudaEvent_t begin, end;
  WS_CHECK(cudaEventCreate(&begin));
  WS_CHECK(cudaEventCreate(&end));
  launch();
  WS_CHECK(cudaGetLastError());
  std::vector<float> ms;
  for (int r = 0; r < repeat; ++r) {
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

}  // namespace ws
