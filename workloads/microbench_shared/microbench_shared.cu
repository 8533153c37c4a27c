// Shared-memory bank conflicts and block barriers, for the platform files' shared-memory and __syncthreads() costs (a
// microbenchmark: the predictive rule allows platform numbers from these, never from the validation workloads'
// times).
//   ws_microbench_shared [--clock-mhz F (default: the device's max clock)] [--repeat R (default 5)]
// Conflicts: four blocks of 512 threads per SM (64 warps, a full SM) issue independent 4-byte shared loads
// (ld.volatile.shared.u32, 16 per loop body, unrolled, addresses fixed before the loop, results summed and stored).
// In a warp the 32 lanes read W distinct words of one bank (word (lane mod W) * 32: W-way conflict, W wavefronts;
// W = 1 is one word for all lanes, a broadcast), and, as a reference, 32 words in 32 banks (word lane: no conflict).
// Barriers: blocks of 64, 256 and 1024 threads, 1, 2 or 4 blocks per SM (held to exactly that many by their dynamic
// shared-memory size), run a loop of __syncthreads() with nothing between them but the loop counter.
// Output, the median of R runs, time by CUDA events, cycles at --clock-mhz:
//   shared conflict <ways> <warp loads per cycle per SM>
//   shared distinct_banks 32 <warp loads per cycle per SM>
//   shared barrier <threads per block> <blocks per SM> <cycles per barrier, each block>
// Check: every thread's sum of loaded words equals the host's, and every barrier block ran its loop on an SM that held
// exactly <blocks per SM> blocks.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "microbench.h"
#include "workload.h"

namespace {

constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;
constexpr int kUnroll = 16;             // independent loads per loop body
constexpr unsigned kTableWords = 2048;  // 8 KiB: row k (32 words) holds word k*32 of bank 0 for k < 32, + 16 offsets
constexpr int kConflictLoads = 8192 * kUnroll;  // loads per thread at one way; W ways do 1/W of them (same time)
constexpr int kBarriers = 1 << 17;              // per block and run
constexpr int kDistinctBanks = 0;               // the `ways` value of the conflict-free reference

__device__ inline unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

template <int kOffset>
__device__ inline unsigned load_shared(unsigned address) {
  unsigned v;
  // .volatile: the table never changes inside the loop, and ptxas would otherwise hoist plain loads out of it.
  asm volatile("ld.volatile.shared.u32 %0, [%1+%2];" : "=r"(v) : "r"(address), "n"(kOffset * 4));
  return v;
}

template <int... kOffsets>
__device__ inline unsigned load_all(unsigned address, std::integer_sequence<int, kOffsets...>) {
  unsigned sum = 0;
  ((sum += load_shared<kOffsets>(address)), ...);  // the 16 loads are independent; only the adds chain
  return sum;
}

// Lane l reads word (l mod ways) * 32 + j, j = 0..15: every load of a warp touches `ways` distinct words of one bank
// (bank j). ways == 0: word l + j, 32 banks.
__device__ inline unsigned first_word(unsigned lane, int ways) { return ways == 0 ? lane : (lane % ways) * 32; }

__global__ void __launch_bounds__(kThreads, kBlocksPerSm) conflicts(int ways, int iterations, unsigned* sums) {
  __shared__ unsigned table[kTableWords];
  for (unsigned i = threadIdx.x; i < kTableWords; i += blockDim.x) table[i] = i;  // word w holds w
  __syncthreads();
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(&table[first_word(threadIdx.x % 32, ways)]));
  unsigned sum = 0;
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) sum += load_all(address, std::make_integer_sequence<int, kUnroll>{});
  sums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A loop of barriers; the dynamic shared memory (unused) only limits how many blocks an SM takes.
__global__ void barriers(int count, int* done, unsigned* block_sm) {
  extern __shared__ unsigned reserve[];
  int i = 0;
#pragma unroll 1
  for (; i < count; i += 8) {
    __syncthreads();
    __syncthreads();
    __syncthreads();
    __syncthreads();
    __syncthreads();
    __syncthreads();
    __syncthreads();
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    done[blockIdx.x] = i;
    block_sm[blockIdx.x] = sm_id();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = ws::repeat_arg(argc, argv);
  const int sms = prop.multiProcessorCount;
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, sms, clock_mhz);
  bool ok = true;
  std::string detail;

  // Bank conflicts.
  const int blocks = sms * kBlocksPerSm;
  const size_t threads = static_cast<size_t>(blocks) * kThreads;
  unsigned* sums = nullptr;
  WS_CHECK(cudaMalloc(&sums, threads * sizeof(unsigned)));
  std::vector<unsigned> got(threads);
  for (int ways : {1, 2, 4, 8, 16, 32, kDistinctBanks}) {
    const int iterations = kConflictLoads / kUnroll / std::max(ways, 1);
    const float ms = ws::median_launch_ms([&] { conflicts<<<blocks, kThreads>>>(ways, iterations, sums); }, repeat);
    const double warp_loads = static_cast<double>(threads / 32) * iterations * kUnroll;
    const double per_cycle_per_sm = warp_loads / (ms * 1e-3) / sms / (clock_mhz * 1e6);
    if (ways == kDistinctBanks) {
      std::printf("shared distinct_banks 32 %.3f\n", per_cycle_per_sm);
    } else {
      std::printf("shared conflict %d %.3f\n", ways, per_cycle_per_sm);
    }
    WS_CHECK(cudaMemcpy(got.data(), sums, threads * sizeof(unsigned), cudaMemcpyDeviceToHost));
    size_t wrong = 0;
    for (size_t t = 0; t < threads; ++t) {
      const unsigned lane = static_cast<unsigned>(t % 32);
      const unsigned first = ways == kDistinctBanks ? lane : (lane % static_cast<unsigned>(ways)) * 32;
      unsigned body = 0;
      for (unsigned j = 0; j < kUnroll; ++j) body += first + j;
      wrong += got[t] != body * static_cast<unsigned>(iterations);
    }
    if (wrong != 0) {
      ok = false;
      detail += " conflict_" + std::to_string(ways) + "_wrong_sums_" + std::to_string(wrong);
    }
  }
  WS_CHECK(cudaFree(sums));

  // Barriers. Dynamic shared memory of about 1/b of the SM's makes at most b blocks fit on an SM.
  const size_t sm_shared = prop.sharedMemPerMultiprocessor;
  const size_t reserved = prop.reservedSharedMemPerBlock;
  WS_CHECK(cudaFuncSetAttribute(barriers, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(prop.sharedMemPerBlockOptin)));
  WS_CHECK(
      cudaFuncSetAttribute(barriers, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
  int* done = nullptr;
  unsigned* block_sm = nullptr;
  WS_CHECK(cudaMalloc(&done, static_cast<size_t>(sms) * 4 * sizeof(int)));
  WS_CHECK(cudaMalloc(&block_sm, static_cast<size_t>(sms) * 4 * sizeof(unsigned)));
  int configs = 0;
  for (int block_threads : {64, 256, 1024}) {
    for (int per_sm : {1, 2, 4}) {
      if (block_threads * per_sm > prop.maxThreadsPerMultiProcessor) continue;
      const size_t dynamic = std::min<size_t>(sm_shared / per_sm - reserved, prop.sharedMemPerBlockOptin);
      int fit = 0;
      WS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, barriers, block_threads, dynamic));
      const int grid = sms * per_sm;
      const float ms =
          ws::median_launch_ms([&] { barriers<<<grid, block_threads, dynamic>>>(kBarriers, done, block_sm); }, repeat);
      std::printf("shared barrier %d %d %.2f\n", block_threads, per_sm, ms * 1e-3 * clock_mhz * 1e6 / kBarriers);
      ++configs;
      std::vector<int> counts(grid);
      std::vector<unsigned> sm_of(grid);
      WS_CHECK(cudaMemcpy(counts.data(), done, grid * sizeof(int), cudaMemcpyDeviceToHost));
      WS_CHECK(cudaMemcpy(sm_of.data(), block_sm, grid * sizeof(unsigned), cudaMemcpyDeviceToHost));
      std::sort(sm_of.begin(), sm_of.end());
      bool even = fit == per_sm;
      for (int b = 0; b < grid; b += per_sm) {
        even = even && sm_of[b] == sm_of[b + per_sm - 1] && (b == 0 || sm_of[b] != sm_of[b - 1]);
      }
      const bool all_done = std::all_of(counts.begin(), counts.end(), [](int n) { return n == kBarriers; });
      const std::string config = std::to_string(block_threads) + "x" + std::to_string(per_sm);
      if (!even) {
        ok = false;
        detail += " barrier_" + config + "_not_" + std::to_string(per_sm) + "_blocks_per_sm_fit_" + std::to_string(fit);
      }
      if (!all_done) {
        ok = false;
        detail += " barrier_" + config + "_loop_incomplete";
      }
    }
  }
  WS_CHECK(cudaFree(block_sm));
  WS_CHECK(cudaFree(done));
  return ws::report_check("microbench_shared", ok,
                          "conflict_patterns 7 barrier_configs " + std::to_string(configs) + detail);
}
