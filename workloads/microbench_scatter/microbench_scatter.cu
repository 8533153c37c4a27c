// Scattered (uncoalesced) global access throughput per SM: every thread of a warp touches its own 128-byte line, so
// one warp request needs 32 sectors in 32 lines. For the platform files' uncoalesced rate (a microbenchmark: the
// predictive rule allows platform numbers from these, never from the validation workloads' times).
//   ws_microbench_scatter [--clock-mhz F (default: the device's max clock)] [--repeat R (default 5)]
// Loads read a 64 KiB table that stays in L1 (ld.global.ca), each address depending on the value loaded before (no
// two loads can merge); stores write 4 bytes to a distinct line per thread (L1 writes through to L2). Four blocks of
// 512 threads per SM (64 warps, a full SM).
// Output: `scatter <kind> <sectors per cycle per SM> <bytes per cycle per SM>`, the median of R runs, cycles counted
// at --clock-mhz (the clock the models use); one sector (32 bytes) per thread access.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "microbench.h"
#include "workload.h"

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;
constexpr int kIterations = 2048;
constexpr unsigned kTableFloats = 16384;    // 64 KiB: 512 lines of 128 bytes, resident in a 256 KiB L1
constexpr unsigned kLineFloats = 32;        // 128 bytes
constexpr unsigned kWarpSpanFloats = 1024;  // a warp's 32 threads, one line each: 4 KiB
constexpr unsigned kStoreFloatsPerBlock = kThreads * kLineFloats;  // one line per thread of a block

__device__ inline float load_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// Thread `lane` of a warp reads line `lane` of its warp's 4 KiB span, a different word of it each iteration.
__global__ void scattered_loads(const float* __restrict__ table, float* out) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const unsigned base = (warp * kWarpSpanFloats) % kTableFloats + lane * kLineFloats;
  float acc = 0;
  unsigned word = 0;
#pragma unroll 1  // no unrolling: each load's address depends on the value before
  for (int i = 0; i < kIterations; ++i) {
    const float v = load_ca(&table[base + word]);
    acc += v;
    word = (word + 1 + static_cast<unsigned>(v)) % kLineFloats;  // v is 0: the dependence is only for the compiler
  }
  if (acc == -1.0f) out[threadIdx.x] = 1;  // never true (the table is zeros)
}

// Thread t of a block writes line t of the block's region, a different word of it each iteration.
__global__ void scattered_stores(float* region) {
  float* mine = region + (blockIdx.x % kBlocksPerSm) * kStoreFloatsPerBlock + threadIdx.x * kLineFloats;
#pragma unroll 1
  for (int i = 0; i < kIterations; ++i) mine[i % kLineFloats] = static_cast<float>(i);
}

void report(const char* kind, float ms, int sms, double clock_mhz) {
  const double sectors = static_cast<double>(sms) * kBlocksPerSm * kThreads * kIterations;  // one per access
  const double per_cycle_per_sm = sectors / (ms * 1e-3) / sms / (clock_mhz * 1e6);
  std::printf("scatter %s %.3f %.1f\n", kind, per_cycle_per_sm, per_cycle_per_sm * 32);
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = static_cast<int>(ws::arg_long(argc, argv, "repeat", 5));
  const int sms = prop.multiProcessorCount;
  const int blocks = sms * kBlocksPerSm;
  float* table = nullptr;
  float* out = nullptr;
  float* region = nullptr;
  WS_CHECK(cudaMalloc(&table, kTableFloats * sizeof(float)));
  WS_CHECK(cudaMemset(table, 0, kTableFloats * sizeof(float)));
  WS_CHECK(cudaMalloc(&out, kThreads * sizeof(float)));
  WS_CHECK(cudaMalloc(&region, kBlocksPerSm * kStoreFloatsPerBlock * sizeof(float)));
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, sms, clock_mhz);
  // The warm-up launch of each measurement loads the table into L1.
  report("global_ld", ws::median_launch_ms([&] { scattered_loads<<<blocks, kThreads>>>(table, out); }, repeat), sms,
         clock_mhz);
  report("global_st", ws::median_launch_ms([&] { scattered_stores<<<blocks, kThreads>>>(region); }, repeat), sms,
         clock_mhz);
  // One block alone on one SM (the single-block kernels of a scan): the same per-SM rate if the SM, not the GPU,
  // limits it.
  const float one_ld = ws::median_launch_ms([&] { scattered_loads<<<1, kThreads>>>(table, out); }, repeat);
  const float one_st = ws::median_launch_ms([&] { scattered_stores<<<1, kThreads>>>(region); }, repeat);
  const double one_block_sectors = static_cast<double>(kThreads) * kIterations;
  std::printf("scatter global_ld_one_block %.3f\n", one_block_sectors / (one_ld * 1e-3) / (clock_mhz * 1e6));
  std::printf("scatter global_st_one_block %.3f\n", one_block_sectors / (one_st * 1e-3) / (clock_mhz * 1e6));
  std::printf("check microbench_scatter PASS\n");
  return 0;
}
