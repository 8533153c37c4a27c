// low_occupancy: one memory-streaming kernel (y[i] = cubic polynomial of x[i] over 2^26 floats, grid-stride loop,
// blocks of 256 threads) launched at three occupancies, set only by the dynamic shared memory each block reserves
// (the kernel does not use it), the way large shared-memory tiles limit occupancy in real kernels (CUDA Best
// Practices Guide, "Occupancy"):
//   stream_occupancy_full    - no shared memory: 8 blocks = 64 warps per SM (14 registers per thread)
//   stream_occupancy_2blocks - 96 KiB per block: 2 blocks = 16 warps per SM (3 x 97 KiB > 228 KiB per SM)
//   stream_occupancy_1block  - 160 KiB per block: 1 block = 8 warps per SM (2 x 161 KiB > 228 KiB)
// Both shared-memory sizes exceed 48 KiB, so they are enabled with cudaFuncSetAttribute
// (cudaFuncAttributeMaxDynamicSharedMemorySize). Each launch is one full wave: grid = SMs x resident blocks per SM
// (from cudaOccupancyMaxActiveBlocksPerMultiprocessor, printed to stderr), so the three launches do the same work
// with 64, 16 and 8 warps per SM, each thread walking the array with the grid stride.
//
// GPU behaviour exercised: latency hiding by occupancy (Little's law): with few warps per SM there are too few
// loads in flight to cover the DRAM latency, so the bandwidth drops. Measured on one H100 SXM (CUDA events):
// 0.23 ms at 64 warps per SM (512 MiB at ~2.4 TB/s), 0.48 ms at 16, 0.88 ms at 8.
//
// Usage: ws_low_occupancy [--log2-n L (10..27)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "low_occupancy";
constexpr int kThreads = 256;
constexpr int kSmem2Blocks = 96 * 1024;   // bytes of dynamic shared memory per block: 2 blocks per SM
constexpr int kSmem1Block = 160 * 1024;   // 1 block per SM
constexpr float kC0 = 0.5f;
constexpr float kC1 = -1.25f;
constexpr float kC2 = 0.75f;
constexpr float kC3 = 0.125f;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels: one body; the three names give the three occupancies their own identity in the trace. Explicit
// round-to-nearest FMAs so that the CPU's std::fmaf gives bit-identical results.

__device__ __forceinline__ void stream_body(const float* __restrict__ x, float* __restrict__ y, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float v = x[i];
    y[i] = __fmaf_rn(__fmaf_rn(__fmaf_rn(kC3, v, kC2), v, kC1), v, kC0);
  }
}

__global__ void __launch_bounds__(kThreads) stream_occupancy_full(const float* __restrict__ x, float* __restrict__ y,
                                                                  unsigned n) {
  stream_body(x, y, n);
}

__global__ void __launch_bounds__(kThreads) stream_occupancy_2blocks(const float* __restrict__ x,
                                                                     float* __restrict__ y, unsigned n) {
  stream_body(x, y, n);
}

__global__ void __launch_bounds__(kThreads) stream_occupancy_1block(const float* __restrict__ x,
                                                                    float* __restrict__ y, unsigned n) {
  stream_body(x, y, n);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using Kernel = void (*)(const float*, float*, unsigned);

struct Variant {
  const char* name;
  Kernel kernel;
  int smem_bytes;
  int blocks_per_sm = 0;  // filled in from the occupancy calculator
  DeviceBuffer<float>* out = nullptr;
};

int usage(const char* message) {
  std::fprintf(stderr, "ws_low_occupancy: %s\nusage: ws_low_occupancy [--log2-n L (10..27)] [--repeat R]\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long log2_n = ws::arg_long(argc, argv, "log2-n", 26);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (log2_n < 10 || log2_n > 27) return usage("--log2-n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const unsigned n = 1u << log2_n;
  const int repeat = static_cast<int>(repeat_arg);

  int device = 0;
  WS_CHECK(cudaGetDevice(&device));
  int sms = 0;
  WS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));

  std::vector<float> host_x(n);
  ws::fill_random(host_x, 61u);
  DeviceBuffer<float> x(n);
  DeviceBuffer<float> y_full(n);
  DeviceBuffer<float> y_2blocks(n);
  DeviceBuffer<float> y_1block(n);
  x.upload(host_x);

  Variant variants[] = {{"stream_occupancy_full", stream_occupancy_full, 0, 0, &y_full},
                        {"stream_occupancy_2blocks", stream_occupancy_2blocks, kSmem2Blocks, 0, &y_2blocks},
                        {"stream_occupancy_1block", stream_occupancy_1block, kSmem1Block, 0, &y_1block}};
  for (Variant& v : variants) {
    if (v.smem_bytes > 48 * 1024) {
      WS_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(v.kernel),
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, v.smem_bytes));
    }
    WS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&v.blocks_per_sm, v.kernel, kThreads,
                                                           static_cast<std::size_t>(v.smem_bytes)));
    if (v.blocks_per_sm < 1) {
      std::fprintf(stderr, "ws_low_occupancy: %s cannot run with %d bytes of shared memory\n", v.name, v.smem_bytes);
      return 2;
    }
    std::fprintf(stderr, "%s: %d bytes dynamic shared memory, %d blocks (%d warps) per SM, grid %d\n", v.name,
                 v.smem_bytes, v.blocks_per_sm, v.blocks_per_sm * kThreads / 32, v.blocks_per_sm * sms);
    WS_CHECK(cudaMemset(v.out->get(), 0xFF, v.out->bytes()));  // NaN: unwritten elements fail
  }

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    for (const Variant& v : variants) {
      timer.start();
      v.kernel<<<v.blocks_per_sm * sms, kThreads, static_cast<std::size_t>(v.smem_bytes)>>>(x.get(), v.out->get(), n);
      timer.stop(v.name);
    }
  }

  std::vector<float> want(n);
  for (unsigned i = 0; i < n; ++i) {
    const float v = host_x[i];
    want[i] = std::fmaf(std::fmaf(std::fmaf(kC3, v, kC2), v, kC1), v, kC0);
  }
  std::string failure;
  for (const Variant& v : variants) {
    std::vector<float> got;
    v.out->download(got);
    for (unsigned i = 0; i < n; ++i) {
      if (got[i] != want[i]) {  // same fused operations in the same order: bit-identical
        char text[160];
        std::snprintf(text, sizeof text, "%s y[%u]=%.9g want %.9g", v.name, i, static_cast<double>(got[i]),
                      static_cast<double>(want[i]));
        failure = text;
        break;
      }
    }
    if (!failure.empty()) break;
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%u blocks_per_sm=%d/%d/%d %s", n, variants[0].blocks_per_sm,
                variants[1].blocks_per_sm, variants[2].blocks_per_sm, failure.empty() ? "all exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
