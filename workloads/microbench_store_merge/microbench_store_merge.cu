// Stores from different warps to one line. Rodinia bfs's bfs_update stores three bytes a thread (four warps fill a
// line) and a flag every warp sets; the L1 sends the L2 fewer write requests than the warps issue (H100: 1.05 M warp
// stores, 0.47 M L2 write requests), and the kernel takes 4-6x what the models predict. Do stores that land on a
// line other warps of the SM are storing to wait for each other?
//
// One wave (8 blocks of 256 threads on every SM), kRounds rounds; in each round every warp stores once, and a warp's
// rounds go to different lines (round r uses its own stretch of the region), so only warps of one round share a
// line. Every store is one request (inline PTX: the compiler merges none):
//   share_<S>  - lane 0 stores a 4-byte word; S consecutive warps (one block for S <= 8) store to the S words of one
//                line, S = 1 (a line each, no sharing), 2, 4, 8;
//   bytes_4    - all lanes store a byte: 32 bytes a warp, four consecutive warps fill one line (bfs's arrays);
//   sm_line    - lane 0 stores a word; all warps of an SM store to one line per round (the SM's id picks it);
//   gpu_line   - lane 0 stores a word; every warp of the GPU stores to one line per round.
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   store_merge <pattern> <us> <SM cycles per warp store of an SM, at --clock-mhz>
//   check microbench_store_merge PASS|FAIL ...
//
// Usage: ws_microbench_store_merge [--repeat R] [--clock-mhz F]

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;
constexpr int kRounds = 64;
constexpr unsigned kLineWords = 32;

enum class Pattern { kShare1, kShare2, kShare4, kShare8, kBytes4, kSmLine, kGpuLine };

const char* name(Pattern p) {
  switch (p) {
    case Pattern::kShare1: return "share_1";
    case Pattern::kShare2: return "share_2";
    case Pattern::kShare4: return "share_4";
    case Pattern::kShare8: return "share_8";
    case Pattern::kBytes4: return "bytes_4";
    case Pattern::kSmLine: return "sm_line";
    case Pattern::kGpuLine: return "gpu_line";
  }
  return "?";
}

/// Warps sharing a line in the share_<S> patterns.
__host__ __device__ constexpr unsigned sharing(Pattern p) {
  switch (p) {
    case Pattern::kShare2: return 2;
    case Pattern::kShare4: return 4;
    case Pattern::kShare8: return 8;
    default: return 1;
  }
}

__device__ void store_u32(unsigned* p, unsigned v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ void store_u8(unsigned char* p, unsigned v) {
  asm volatile("st.global.u8 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

__device__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

/// Each round's stretch of the region: as many lines as the GPU has warps, so no pattern's lines repeat across rounds.
template <Pattern P>
__global__ void __launch_bounds__(kThreads) store(unsigned* __restrict__ region, unsigned warps, unsigned value) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const unsigned sm = sm_id();
  for (unsigned r = 0; r < kRounds; ++r) {
    unsigned* round = region + static_cast<size_t>(r) * warps * kLineWords;
    if constexpr (P == Pattern::kBytes4) {
      store_u8(reinterpret_cast<unsigned char*>(round) + warp * 32 + lane, value);
    } else if (lane == 0) {
      if constexpr (P == Pattern::kSmLine) store_u32(round + sm * kLineWords + warp % kLineWords, value);
      if constexpr (P == Pattern::kGpuLine) store_u32(round + warp % kLineWords, value);
      if constexpr (P != Pattern::kSmLine && P != Pattern::kGpuLine)
        store_u32(round + (warp / sharing(P)) * kLineWords + warp % sharing(P), value);
    }
  }
}

void launch(Pattern p, int blocks, unsigned* region, unsigned warps, unsigned value) {
  switch (p) {
    case Pattern::kShare1: return store<Pattern::kShare1><<<blocks, kThreads>>>(region, warps, value);
    case Pattern::kShare2: return store<Pattern::kShare2><<<blocks, kThreads>>>(region, warps, value);
    case Pattern::kShare4: return store<Pattern::kShare4><<<blocks, kThreads>>>(region, warps, value);
    case Pattern::kShare8: return store<Pattern::kShare8><<<blocks, kThreads>>>(region, warps, value);
    case Pattern::kBytes4: return store<Pattern::kBytes4><<<blocks, kThreads>>>(region, warps, value);
    case Pattern::kSmLine: return store<Pattern::kSmLine><<<blocks, kThreads>>>(region, warps, value);
    case Pattern::kGpuLine: return store<Pattern::kGpuLine><<<blocks, kThreads>>>(region, warps, value);
  }
}

/// The first word of the region after a pattern stored `value`: warp 0's first round writes it whole (bytes_4: lanes
/// 0-3 each write one of its bytes).
unsigned first_word(Pattern p, unsigned value) { return p == Pattern::kBytes4 ? (value & 0xffu) * 0x01010101u : value; }

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = ws::repeat_arg(argc, argv);
  const int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kThreads);
  const unsigned warps = static_cast<unsigned>(blocks * kWarpsPerBlock);
  const size_t words = static_cast<size_t>(kRounds) * warps * kLineWords;
  unsigned* region = nullptr;
  WS_CHECK(cudaMalloc(&region, words * sizeof(unsigned)));
  std::printf("device %s sms %d blocks %d warps %u rounds %d\n", prop.name, prop.multiProcessorCount, blocks, warps,
              kRounds);
  const double stores_per_sm = static_cast<double>(warps) * kRounds / prop.multiProcessorCount;
  bool ok = true;
  unsigned value = 1;
  for (Pattern p : {Pattern::kShare1, Pattern::kShare2, Pattern::kShare4, Pattern::kShare8, Pattern::kBytes4,
                    Pattern::kSmLine, Pattern::kGpuLine}) {
    WS_CHECK(cudaMemset(region, 0, words * sizeof(unsigned)));
    ++value;  // each pattern stores its own value, so the check sees this pattern's stores landed
    const float ms = ws::median_launch_ms([&] { launch(p, blocks, region, warps, value); }, repeat);
    std::printf("store_merge %s %.1f %.2f\n", name(p), ms * 1e3, ms * 1e-3 * clock_mhz * 1e6 / stores_per_sm);
    unsigned word0 = 0;
    WS_CHECK(cudaMemcpy(&word0, region, sizeof word0, cudaMemcpyDeviceToHost));
    ok = ok && word0 == first_word(p, value);
  }
  WS_CHECK(cudaFree(region));
  return ws::report_check("microbench_store_merge", ok, "patterns 7");
}
