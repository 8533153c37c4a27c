// How long does a warp wait for a group of U loads issued back to back? PolyBench's column passes (correlation's
// corr_mean_kernel: one thread per column, 8 blocks of 256 threads, each walking its column down n rows) compile to a
// main loop of 16 LDGs, one after the other, then 16 dependent FADDs: each warp waits for 16 lines at a time. The
// wave models take a group's wait as the slowest of its loads at the unloaded latency; corr_mean takes about 1.46x
// that per group (74 us for 128 groups a warp, H100), and microbench_dram_inflight's light-load loads, spread out by
// their 64-bit index arithmetic, 2.1x. Here the loop is corr_mean's own (`sum += data[i * m + j]`, unrolled U times,
// U = 1, 2, 4, 8, 16), on S SMs (S blocks of 256 threads: m = 256 S columns), S = 8, 32 and all: from DRAM, n rows
// making 64 MiB (a 256 MiB array is read before each timed launch, outside its events, to push them out of the L2),
// and from the L2, n rows making 8 MiB (read by the untimed warm-up launch just before).
//
// Output (median CUDA-event time of --repeat launches after a warm-up; a group = U loads of one warp):
//   column_walk sms <S> loads <U> <dram|l2> <us> <ns per group> <SM cycles per group at --clock-mhz>
//   check microbench_column_walk PASS|FAIL ...
//
// Usage: ws_microbench_column_walk [--repeat R] [--clock-mhz F]

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr size_t kArrayBytes = size_t{64} << 20;
constexpr size_t kFlushBytes = size_t{256} << 20;

template <int kUnroll>
__global__ void __launch_bounds__(kThreads)
    column_sum(const float* __restrict__ data, float* __restrict__ out, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float sum = 0.0f;
#pragma unroll kUnroll
  for (int i = 0; i < n; ++i) sum += data[static_cast<size_t>(i) * m + j];
  out[j] = sum;
}

__global__ void fill(float* p, size_t n, float value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = value;
}

using Kernel = void (*)(const float*, float*, int, int);

Kernel kernel_for(int unroll) {
  switch (unroll) {
    case 1: return column_sum<1>;
    case 2: return column_sum<2>;
    case 4: return column_sum<4>;
    case 8: return column_sum<8>;
    default: return column_sum<16>;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = ws::repeat_arg(argc, argv);
  float *data = nullptr, *flush = nullptr, *out = nullptr, *sink = nullptr;
  WS_CHECK(cudaMalloc(&data, kArrayBytes));
  WS_CHECK(cudaMalloc(&flush, kFlushBytes));
  WS_CHECK(cudaMalloc(&out, static_cast<size_t>(prop.multiProcessorCount) * kThreads * sizeof(float)));
  WS_CHECK(cudaMalloc(&sink, sizeof(float)));
  fill<<<1024, kThreads>>>(data, kArrayBytes / sizeof(float), 1.f);
  fill<<<1024, kThreads>>>(flush, kFlushBytes / sizeof(float), 0.f);
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, prop.multiProcessorCount, clock_mhz);
  bool ok = true;
  std::vector<float> host(static_cast<size_t>(prop.multiProcessorCount) * kThreads);
  for (int sms : {8, 32, prop.multiProcessorCount}) {
    const int m = sms * kThreads;
    for (int unroll : {1, 2, 4, 8, 16}) {
      for (const bool from_l2 : {false, true}) {
        // From L2: 8 MiB of rows (fits the L2), read once just before; from DRAM: the whole 64 MiB after the flush.
        const int n = static_cast<int>((from_l2 ? kArrayBytes / 8 : kArrayBytes) / sizeof(float) / m);
        const Kernel kernel = kernel_for(unroll);
        // Time the column walk alone: from DRAM, the flush runs before each launch on the same stream, outside the
        // events.
        const float ms = ws::median_launch_ms(
            [&] {
              if (!from_l2) ws::read_to_evict<<<1024, kThreads>>>(flush, kFlushBytes / sizeof(float), sink);
            },
            [&] { kernel<<<sms, kThreads>>>(data, out, m, n); }, repeat);
        const double groups = static_cast<double>(n) / unroll;
        const double ns = ms * 1e6 / groups;
        std::printf("column_walk sms %d loads %d %s %.1f %.1f %.0f\n", sms, unroll, from_l2 ? "l2" : "dram", ms * 1e3,
                    ns, ns * clock_mhz * 1e-3);
        WS_CHECK(cudaMemcpy(host.data(), out, static_cast<size_t>(m) * sizeof(float), cudaMemcpyDeviceToHost));
        ok = ok && host[0] == static_cast<float>(n) && host[static_cast<size_t>(m) - 1] == static_cast<float>(n);
      }
    }
  }
  WS_CHECK(cudaFree(data));
  WS_CHECK(cudaFree(flush));
  WS_CHECK(cudaFree(out));
  WS_CHECK(cudaFree(sink));
  return ws::report_check("microbench_column_walk", ok, "configurations 30");
}
