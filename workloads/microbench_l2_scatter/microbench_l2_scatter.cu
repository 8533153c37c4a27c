// L2 throughput for scattered loads and stores. Every SM runs 64 warps; each thread makes `steps` independent 4-byte
// accesses (loads 8 in flight: unrolled, the addresses do not depend on loaded data) to a set that fits in L2
// (default 8 MiB; loads through ld.global.cg so that L1 does not serve them, stores write through L1 anyway):
//   coalesced        - a warp reads 128 consecutive bytes (4 sectors of one line) per load,
//   scattered        - each lane reads a 4-byte word at a pseudo-random address (32 sectors in 32 lines per warp load),
//   store_coalesced  - a warp writes 128 consecutive bytes per store (4 whole sectors of one line),
//   store_sector     - each 8 lanes write one whole pseudo-random sector (4 whole sectors in 4 lines per warp store),
//   store_scattered  - each lane writes a 4-byte word at a pseudo-random address (32 partial sectors in 32 lines),
// and the L2's throughput follows as sectors per second. The questions: does the L2 serve a scattered sector as fast
// as a streamed one, and a store of part of a sector as fast as one of a whole sector? (The models' L2 level streams
// every byte at memory.l2_bandwidth_gb_per_s, single-sector reads and written sectors at their own measured rates.)
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   l2 <kind> set_bytes <S> <us> <GB/s of 32-byte sectors> <sectors per SM clock at --clock-mhz>
//   check microbench_l2_scatter PASS|FAIL ...
//
// Usage: ws_microbench_l2_scatter [--set-mib M (1..1024, default 8; rounded down to a power of two)] [--repeat R]
//                                 [--clock-mhz F]
// Sets beyond the L2 (64 MiB and up) show what DRAM adds: the scattered stores' sectors are then written back, or
// first read (a partial sector that misses), one by one.

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kInFlight = 8;
constexpr int kSteps = 512;  // loads per thread

template <bool kScattered>
__global__ void __launch_bounds__(kThreads)
    read_set(const float* __restrict__ set, unsigned words_mask, float* __restrict__ sink) {
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
  float sum = 0;
#pragma unroll 1
  for (int step = 0; step < kSteps; step += kInFlight) {
    float v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      const unsigned k = static_cast<unsigned>(step + u) * threads + thread;
      const unsigned word = kScattered ? ws::lowbias32(k) & words_mask : k & words_mask;
      v[u] = __ldcg(&set[word]);
    }
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) sum += v[u];
  }
  sink[thread] = sum;
}

enum class Store { kCoalesced, kSector, kScattered };

// Sectors a pattern's warp store touches per thread store: 4 of 32 lanes' words share a sector coalesced or by sector
// (8 lanes a sector), a scattered lane has its own.
constexpr double sectors_per_thread_store(Store pattern) { return pattern == Store::kScattered ? 1.0 : 1.0 / 8; }

// Every thread writes 1.0 to `kSteps` words of the set (which holds 1.0 everywhere, so the check can read it back).
template <Store kPattern>
__global__ void __launch_bounds__(kThreads) write_set(float* __restrict__ set, unsigned words_mask) {
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned threads = gridDim.x * blockDim.x;
#pragma unroll 8
  for (int step = 0; step < kSteps; ++step) {
    const unsigned k = static_cast<unsigned>(step) * threads + thread;
    unsigned word = k;
    if (kPattern == Store::kSector) word = ws::lowbias32(k >> 3) * 8 + (k & 7);  // 8 consecutive lanes, one sector
    if (kPattern == Store::kScattered) word = ws::lowbias32(k);
    set[word & words_mask] = 1.f;
  }
}

__global__ void fill(float* p, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    p[i] = 1.f;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = ws::repeat_arg(argc, argv);
  const long asked_mib = std::clamp(ws::arg_long(argc, argv, "set-mib", 8), 1L, 1024L);
  size_t set_mib = 1;
  while (set_mib * 2 <= static_cast<size_t>(asked_mib)) set_mib *= 2;
  const size_t words = set_mib << 18;  // 4-byte words, a power of two (the addresses' mask)
  const int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kThreads);
  const size_t threads = static_cast<size_t>(blocks) * kThreads;
  float *set = nullptr, *sink = nullptr;
  WS_CHECK(cudaMalloc(&set, words * sizeof(float)));
  WS_CHECK(cudaMalloc(&sink, threads * sizeof(float)));
  fill<<<blocks, kThreads>>>(set, words);
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d blocks %d set_bytes %zu\n", prop.name, prop.multiProcessorCount, blocks,
              words * sizeof(float));
  const unsigned mask = static_cast<unsigned>(words - 1);
  bool ok = true;
  std::vector<float> sums(threads);
  for (bool scattered : {false, true}) {
    const float ms = ws::median_launch_ms(
        [&] {
          if (scattered) {
            read_set<true><<<blocks, kThreads>>>(set, mask, sink);
          } else {
            read_set<false><<<blocks, kThreads>>>(set, mask, sink);
          }
        },
        repeat);
    // A coalesced warp load is 4 sectors, a scattered one 32: sectors = loads x (4 / 32 or 1) per thread load.
    const double loads = static_cast<double>(threads) * kSteps;
    const double sectors = scattered ? loads : loads / 8;
    const double gbs = sectors * 32 / (ms * 1e6);
    const double per_clock = sectors / (ms * 1e-3) / (clock_mhz * 1e6);
    std::printf("l2 %s set_bytes %zu %.1f %.0f %.1f\n", scattered ? "scattered" : "coalesced", words * sizeof(float),
                ms * 1e3, gbs, per_clock);
    WS_CHECK(cudaMemcpy(sums.data(), sink, threads * sizeof(float), cudaMemcpyDeviceToHost));
    for (float s : sums) ok = ok && s == static_cast<float>(kSteps);
  }
  const auto store_kind = [&](Store pattern, const char* name) {
    const float ms = ws::median_launch_ms(
        [&] {
          switch (pattern) {
            case Store::kCoalesced: write_set<Store::kCoalesced><<<blocks, kThreads>>>(set, mask); break;
            case Store::kSector: write_set<Store::kSector><<<blocks, kThreads>>>(set, mask); break;
            case Store::kScattered: write_set<Store::kScattered><<<blocks, kThreads>>>(set, mask); break;
          }
        },
        repeat);
    const double sectors = static_cast<double>(threads) * kSteps * sectors_per_thread_store(pattern);
    std::printf("l2 %s set_bytes %zu %.1f %.0f %.1f\n", name, words * sizeof(float), ms * 1e3,
                sectors * 32 / (ms * 1e6), sectors / (ms * 1e-3) / (clock_mhz * 1e6));
  };
  store_kind(Store::kCoalesced, "store_coalesced");
  store_kind(Store::kSector, "store_sector");
  store_kind(Store::kScattered, "store_scattered");
  std::vector<float> contents(words);
  WS_CHECK(cudaMemcpy(contents.data(), set, words * sizeof(float), cudaMemcpyDeviceToHost));
  for (float v : contents) ok = ok && v == 1.f;
  WS_CHECK(cudaFree(set));
  WS_CHECK(cudaFree(sink));
  return ws::report_check("microbench_l2_scatter", ok, "kinds 5");
}
