// L1 and shared-memory load throughput per SM, for the platform files' l1_bytes_per_cycle (a microbenchmark: the
// predictive rule allows platform numbers from these, never from the validation workloads' times).
//   ws_microbench_l1 [--clock-mhz F (default: the device's max clock)] [--repeat R (default 5)]
// Every block reads a 16 KiB table that stays in L1 (or in shared memory) over and over, with 4- and 16-byte loads;
// four blocks of 512 threads per SM (64 warps, a full SM).
// Then the whole GPU reads a 16 MiB table through L2 only (ld.global.cg): L2 read throughput.
// Output: `l1 <kind> <bytes per load> <GB/s> <bytes per cycle per SM>`, the median of R runs, cycles counted at
// --clock-mhz (the clock the models use).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "workload.h"

namespace {

constexpr int kTableBytes = 16384;
constexpr int kIterations = 4096;
constexpr int kThreads = 512;
constexpr unsigned kL2TableBytes = 16u << 20;  // fits the 50-60 MiB L2 of H100/H200, not any L1
constexpr int kL2Iterations = 1024;

// Loads through inline PTX (ld.global.ca: cached in L1). Each address depends on the one before, so no load can be
// merged with another; a load costs four instructions (load, add, index add and mask), and issue (4 per clock per SM)
// (with the loop counter, six) allows 2/3 of a 16-byte-per-thread load per clock, 341 bytes: above the L1's rate, which therefore sets the time. The
// 4-byte loads can be issue-bound (128 bytes per clock at most).
__device__ inline float load_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}
__device__ inline float load_ca(const float4* p) {
  float4 v;
  asm volatile("ld.global.ca.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v.x;
}
__device__ inline float load_cg(const float4* p) {  // cached in L2 only: every load is served by L2
  float4 v;
  asm volatile("ld.global.cg.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
  return v.x;
}
__device__ inline float load_shared(const float* p) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p))));
  return v;
}
__device__ inline float load_shared(const float4* p) {
  float4 v;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(p))));
  return v.x;
}


template <typename T>
__global__ void global_loads(const T* __restrict__ table, float* out) {
  constexpr int kElements = kTableBytes / sizeof(T);
  float acc = 0;
  unsigned index = threadIdx.x;
#pragma unroll 1  // no unrolling: no two loads in one body can be proven equal and merged
  for (int i = 0; i < kIterations; ++i) {
    acc += load_ca(&table[index]);
    index = (index + kThreads) & (kElements - 1);
  }
  if (acc == -1.0f) out[threadIdx.x] = 1;  // never true (the table is zeros)
}

// The whole grid sweeps a table that fits in L2 but not in L1, bypassing L1: GPU-wide L2 read throughput.
__global__ void l2_loads(const float4* __restrict__ table, float* out) {
  constexpr unsigned kElements = kL2TableBytes / sizeof(float4);
  const unsigned stride = gridDim.x * blockDim.x;
  float acc = 0;
  unsigned index = (blockIdx.x * blockDim.x + threadIdx.x) & (kElements - 1);
#pragma unroll 1
  for (int i = 0; i < kL2Iterations; ++i) {
    acc += load_cg(&table[index]);
    index = (index + stride) & (kElements - 1);
  }
  if (acc == -1.0f) out[threadIdx.x] = 1;
}

template <typename T>
__global__ void shared_loads(const T* __restrict__ table, float* out) {
  constexpr int kElements = kTableBytes / sizeof(T);
  __shared__ T tile[kElements];
  for (int i = threadIdx.x; i < kElements; i += blockDim.x) tile[i] = table[i];
  __syncthreads();
  float acc = 0;
  unsigned index = threadIdx.x;
#pragma unroll 1  // no unrolling: no two loads in one body can be proven equal and merged
  for (int i = 0; i < kIterations; ++i) {
    acc += load_shared(&tile[index]);
    index = (index + kThreads) & (kElements - 1);
  }
  if (acc == -1.0f) out[threadIdx.x] = 1;
}

template <typename T>
void run(const char* kind, void (*kernel)(const T*, float*), const void* table, float* out, int sms, double clock_mhz,
         int repeat, int iterations = kIterations) {
  const int blocks = sms * 4;
  cudaEvent_t begin, end;
  WS_CHECK(cudaEventCreate(&begin));
  WS_CHECK(cudaEventCreate(&end));
  const T* typed = static_cast<const T*>(table);
  kernel<<<blocks, kThreads>>>(typed, out);  // warm-up
  WS_CHECK(cudaGetLastError());
  std::vector<float> ms;
  for (int r = 0; r < repeat; ++r) {
    WS_CHECK(cudaEventRecord(begin));
    kernel<<<blocks, kThreads>>>(typed, out);
    WS_CHECK(cudaEventRecord(end));
    WS_CHECK(cudaEventSynchronize(end));
    float t = 0;
    WS_CHECK(cudaEventElapsedTime(&t, begin, end));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double bytes = static_cast<double>(blocks) * kThreads * iterations * sizeof(T);
  const double per_s = bytes / (ms[ms.size() / 2] * 1e-3);
  std::printf("l1 %s %zu %.1f %.2f\n", kind, sizeof(T), per_s * 1e-9, per_s / sms / (clock_mhz * 1e6));
  WS_CHECK(cudaEventDestroy(begin));
  WS_CHECK(cudaEventDestroy(end));
}

}  // namespace

int main(int argc, char** argv) {
  cudaDeviceProp prop{};
  WS_CHECK(cudaGetDeviceProperties(&prop, 0));
  int clock_khz = 0;
  WS_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  const double clock_mhz = static_cast<double>(ws::arg_long(argc, argv, "clock-mhz", clock_khz / 1000));
  const int repeat = static_cast<int>(ws::arg_long(argc, argv, "repeat", 5));
  void* table = nullptr;
  float* out = nullptr;
  WS_CHECK(cudaMalloc(&table, kTableBytes));
  WS_CHECK(cudaMemset(table, 0, kTableBytes));
  WS_CHECK(cudaMalloc(&out, kThreads * sizeof(float)));
  const int sms = prop.multiProcessorCount;
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, sms, clock_mhz);
  run<float>("global_ld", global_loads<float>, table, out, sms, clock_mhz, repeat);
  run<float4>("global_ld", global_loads<float4>, table, out, sms, clock_mhz, repeat);
  run<float>("shared_ld", shared_loads<float>, table, out, sms, clock_mhz, repeat);
  run<float4>("shared_ld", shared_loads<float4>, table, out, sms, clock_mhz, repeat);
  // L2: a 16 MiB table read through ld.global.cg; the last column is then bytes per cycle per SM of L2 throughput.
  void* l2_table = nullptr;
  WS_CHECK(cudaMalloc(&l2_table, kL2TableBytes));
  WS_CHECK(cudaMemset(l2_table, 0, kL2TableBytes));
  run<float4>("l2_ld_cg", l2_loads, l2_table, out, sms, clock_mhz, repeat, kL2Iterations);
  std::printf("check microbench_l1 PASS\n");
  return 0;
}
