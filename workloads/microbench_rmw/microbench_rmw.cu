// What limits random read-modify-writes of a per-thread array that, over the resident threads, is larger than the L2?
// The validation suite's local_spill `local_array_shuffle` (each thread's float[64] in local memory, 12 rounds of
// a[k1] = a[k2] + c at random k) runs at 1.2 TB/s of DRAM traffic with DRAM 35% busy and its warps stalled on
// lg_throttle and long_scoreboard (ncu), and the wave models predict it 40% fast. Here the same work, one thread per
// element, 16384 blocks of 256, in three kinds:
//   local   - the array in local memory, as local_spill (STL/LDL);
//   global  - the same layout in global memory (word k of lane l of warp w at ((w * 64 + k) * 32 + l)), LDG/STG;
//   loads   - global, the rounds only read (sum += a[k2]): no stores, no dirty lines;
// each with 8, 4, 2 and 1 blocks resident per SM (unused dynamic shared memory), so that the time per round tells
// whether it is a rate (the same with fewer warps) or a latency (longer with fewer warps, shorter per warp).
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   rmw <kind> blocks_per_sm <B> rounds <R> <ms> <ns a wave takes per round> <GB/s of the rounds' 32-byte sectors>
//   check microbench_rmw PASS|FAIL ...
//
// Usage: ws_microbench_rmw [--rounds R (default 12)] [--repeat R]

#include "microbench.h"

#include <cstdio>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 16384;
constexpr int kArray = 64;  // floats per thread, as local_spill

__host__ __device__ inline unsigned lcg(unsigned s) { return s * 1664525u + 1013904223u; }

// Word k's value before the rounds (small integers: every sum is exact in float, in any order).
__host__ __device__ inline float initial_value(unsigned key, int k) {
  return static_cast<float>((key >> (k & 15)) & 7u);
}

// One round's random words, from the thread's LCG state: the kernel and the CPU's reference draw the same.
struct Draw {
  unsigned k1;  // the word written
  unsigned k2;  // the word read
};

__host__ __device__ inline Draw next_draw(unsigned& s) {
  s = lcg(s);
  const unsigned k1 = s >> 26;
  s = lcg(s);
  return {k1, s >> 26};
}

enum class Kind { kLocal, kGlobal, kLoads };

// Index of word k of this thread in the global layout: local memory's (a warp's lanes interleaved word by word).
__device__ inline size_t slot(int k) {
  const size_t warp = (blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) / 32;
  return (warp * kArray + static_cast<size_t>(k)) * 32 + threadIdx.x % 32;
}

template <Kind kKind>
__global__ void __launch_bounds__(kThreads) shuffle(float* __restrict__ store, float* __restrict__ out, int rounds) {
  extern __shared__ char unused[];  // only to lower the blocks resident per SM
  (void)unused;
  const unsigned key = blockIdx.x * blockDim.x + threadIdx.x;
  float local[kArray];
  float sum = 0;
#pragma unroll
  for (int k = 0; k < kArray; ++k) {
    const float v = initial_value(key, k);
    if (kKind == Kind::kLocal)
      local[k] = v;
    else
      store[slot(k)] = v;
  }
  unsigned s = key;
  for (int r = 0; r < rounds; ++r) {
    const auto [k1, k2] = next_draw(s);
    if (kKind == Kind::kLocal) local[k1] = local[k2] + static_cast<float>(r & 3);
    if (kKind == Kind::kGlobal)
      store[slot(static_cast<int>(k1))] = store[slot(static_cast<int>(k2))] + static_cast<float>(r & 3);
    if (kKind == Kind::kLoads) sum += store[slot(static_cast<int>(k2))];
  }
#pragma unroll
  for (int k = 0; k < kArray; ++k) sum += kKind == Kind::kLocal ? local[k] : store[slot(k)];
  out[key] = sum;
}

// The CPU's result for thread `key`: the same rounds on its own array.
float reference(unsigned key, int rounds, Kind kind) {
  float a[kArray];
  float sum = 0;
  for (int k = 0; k < kArray; ++k) a[k] = initial_value(key, k);
  unsigned s = key;
  for (int r = 0; r < rounds; ++r) {
    const auto [k1, k2] = next_draw(s);
    if (kind == Kind::kLoads)
      sum += a[k2];
    else
      a[k1] = a[k2] + static_cast<float>(r & 3);
  }
  for (int k = 0; k < kArray; ++k) sum += a[k];
  return sum;
}

using Kernel = void (*)(float*, float*, int);

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  const int rounds = static_cast<int>(ws::arg_long(argc, argv, "rounds", 12));
  const size_t threads = static_cast<size_t>(kBlocks) * kThreads;
  float *store = nullptr, *out = nullptr;
  WS_CHECK(cudaMalloc(&store, threads * kArray * sizeof(float)));
  WS_CHECK(cudaMalloc(&out, threads * sizeof(float)));
  std::printf("device %s sms %d threads %zu array_bytes_per_thread %d\n", prop.name, prop.multiProcessorCount, threads,
              kArray * 4);
  const struct {
    Kind kind;
    const char* name;
    Kernel kernel;
  } kinds[] = {{Kind::kLocal, "local", shuffle<Kind::kLocal>},
               {Kind::kGlobal, "global", shuffle<Kind::kGlobal>},
               {Kind::kLoads, "loads", shuffle<Kind::kLoads>}};
  bool ok = true;
  std::vector<float> result(threads);
  for (const auto& kind : kinds) {
    WS_CHECK(cudaFuncSetAttribute(kind.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200000));
    for (int blocks_per_sm : {8, 4, 2, 1}) {
      // 233472 bytes of shared memory per SM, 1 KiB reserved per block: this much keeps `blocks_per_sm` resident
      // (the values of workloads/remote_access, inside each step).
      const int smem = blocks_per_sm == 8 ? 0 : blocks_per_sm == 4 ? 57000 : blocks_per_sm == 2 ? 115000 : 200000;
      int resident = 0;
      WS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, kind.kernel, kThreads, smem));
      const float ms =
          ws::median_launch_ms([&] { kind.kernel<<<kBlocks, kThreads, smem>>>(store, out, rounds); }, repeat);
      const double waves = static_cast<double>(kBlocks) / (prop.multiProcessorCount * resident);
      const double ns_per_round = ms * 1e6 / waves / rounds;
      const double sectors = static_cast<double>(threads) * rounds * (kind.kind == Kind::kLoads ? 1 : 2);
      std::printf("rmw %s blocks_per_sm %d rounds %d %.3f %.1f %.0f\n", kind.name, resident, rounds, ms, ns_per_round,
                  sectors * 32 / (ms * 1e6));
      WS_CHECK(cudaMemcpy(result.data(), out, threads * sizeof(float), cudaMemcpyDeviceToHost));
      for (size_t t = 0; t < threads; t += 997)
        ok = ok && result[t] == reference(static_cast<unsigned>(t), rounds, kind.kind);
    }
  }
  WS_CHECK(cudaFree(store));
  WS_CHECK(cudaFree(out));
  return ws::report_check("microbench_rmw", ok, "kinds 3 occupancies 4");
}
