// One L2 slice under a hot spot. A flag that many warps set (Rodinia bfs's "changed": every warp with an updated
// vertex stores 1 to it) sends all those stores to the one L2 slice that holds the flag's sector. Every SM runs 64
// warps. A warp that stores to one address again and again has its stores merged before the L2 (64 in a row from
// each warp of the GPU reached the L2 as 352 sectors, H100), so each warp stores once, as bfs's do, and the grid is
// kWaves full waves of blocks; `spread` makes kStores stores per thread. Every warp store is one request (inline
// PTX, so the compiler merges none):
//   same_word_u32 - all lanes store the same 4-byte word (one sector of one slice, every warp of the GPU),
//   same_word_u8  - the same with 1-byte stores (bfs's flag is an unsigned char),
//   same_line     - lane i stores word i of one 128-byte line (4 sectors of one slice),
//   spread_once   - each warp stores its own line of an 8 MiB region (every slice evenly): the same grid, no hot
//                   spot, so that its time is what the others' dispatch and stores cost without one,
//   spread        - the same, 64 stores per thread in one wave: the slices' rate for spread stores.
// The counters recording (warpsim record --mode counters) gives the busiest slice's sectors (lts__t_sectors.max),
// and so the sectors per clock one slice serves to each pattern.
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   hotspot <pattern> <us> <warp stores per clock, whole GPU, at --clock-mhz>   (spread: 64 per thread, one wave;
//   the others: one per thread, 64 waves)
//   check microbench_l2_hotspot PASS|FAIL ...
//
// Usage: ws_microbench_l2_hotspot [--repeat R] [--clock-mhz F]

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kStores = 64;  // per thread of `spread`
constexpr int kWaves = 64;   // waves of blocks of the one-store patterns
constexpr unsigned kSpreadLines = (8u << 20) / 128;

enum class Pattern { kSameWordU32, kSameWordU8, kSameLine, kSpreadOnce, kSpread };

const char* name(Pattern p) {
  switch (p) {
    case Pattern::kSameWordU32: return "same_word_u32";
    case Pattern::kSameWordU8: return "same_word_u8";
    case Pattern::kSameLine: return "same_line";
    case Pattern::kSpreadOnce: return "spread_once";
    case Pattern::kSpread: return "spread";
  }
  return "?";
}

__device__ void store_u32(unsigned* p, unsigned v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ void store_u8(unsigned char* p, unsigned v) {
  asm volatile("st.global.u8 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

constexpr int stores_per_thread(Pattern p) { return p == Pattern::kSpread ? kStores : 1; }
constexpr int waves(Pattern p) { return p == Pattern::kSpread ? 1 : kWaves; }

template <Pattern P>
__global__ void __launch_bounds__(kThreads) store(unsigned* __restrict__ region, unsigned value) {
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = thread / 32;
#pragma unroll 4
  for (unsigned i = 0; i < (P == Pattern::kSpread ? kStores : 1); ++i) {
    if constexpr (P == Pattern::kSameWordU32) store_u32(region, value);
    if constexpr (P == Pattern::kSameWordU8) store_u8(reinterpret_cast<unsigned char*>(region), value);
    if constexpr (P == Pattern::kSameLine) store_u32(region + lane, value);
    if constexpr (P == Pattern::kSpread || P == Pattern::kSpreadOnce)
      store_u32(region + ((warp + i * 4099u) % kSpreadLines) * 32 + lane, value);
  }
}

template <Pattern P>
void launch(int blocks, unsigned* region, unsigned value) {
  store<P><<<blocks, kThreads>>>(region, value);
}

void launch(Pattern p, int blocks, unsigned* region, unsigned value) {
  switch (p) {
    case Pattern::kSameWordU32: return launch<Pattern::kSameWordU32>(blocks, region, value);
    case Pattern::kSameWordU8: return launch<Pattern::kSameWordU8>(blocks, region, value);
    case Pattern::kSameLine: return launch<Pattern::kSameLine>(blocks, region, value);
    case Pattern::kSpreadOnce: return launch<Pattern::kSpreadOnce>(blocks, region, value);
    case Pattern::kSpread: return launch<Pattern::kSpread>(blocks, region, value);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = ws::repeat_arg(argc, argv);
  const int wave_blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kThreads);
  unsigned* region = nullptr;
  const size_t words = static_cast<size_t>(kSpreadLines) * 32;
  WS_CHECK(cudaMalloc(&region, words * sizeof(unsigned)));
  std::printf("device %s sms %d wave_blocks %d\n", prop.name, prop.multiProcessorCount, wave_blocks);
  bool ok = true;
  std::vector<unsigned> head(32);
  unsigned value = 1;
  for (Pattern p :
       {Pattern::kSameWordU32, Pattern::kSameWordU8, Pattern::kSameLine, Pattern::kSpreadOnce, Pattern::kSpread}) {
    WS_CHECK(cudaMemset(region, 0, words * sizeof(unsigned)));
    ++value;  // each pattern stores its own value, so the check sees this pattern's stores landed
    const int blocks = wave_blocks * waves(p);
    const double warp_stores = static_cast<double>(blocks) * (kThreads / 32) * stores_per_thread(p);
    const float ms = ws::median_launch_ms([&] { launch(p, blocks, region, value); }, repeat);
    std::printf("hotspot %s %.1f %.3f\n", name(p), ms * 1e3, warp_stores / (ms * 1e-3 * clock_mhz * 1e6));
    WS_CHECK(cudaMemcpy(head.data(), region, head.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    const unsigned expected_word0 = p == Pattern::kSameWordU8 ? (value & 0xffu) : value;
    ok = ok && head[0] == expected_word0;
  }
  WS_CHECK(cudaFree(region));
  return ws::report_check("microbench_l2_hotspot", ok, "patterns 5");
}
