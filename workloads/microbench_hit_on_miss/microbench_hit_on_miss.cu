// How long does a load wait that finds its line still on its way from DRAM because another warp asked for it first,
// and does the L1 count it as a hit?
// A tiled kernel's blocks start together and load the same tiles (the validation suite's lud_internal: 40% L1 hits,
// yet ncu has its three loads waiting ~1700 cycles a warp), and the wave models take an L1 hit's latency from the hit
// rate. One wave (8 blocks of 256 threads on every SM); every warp runs R dependent rounds, each one coalesced line
// load whose value (0) forms the next round's address, so each round waits for its load. Which line a warp loads:
//   own    - a line of its own every round (no two warps share a line: every load misses the L1)
//   block  - the same line for the 8 warps of a block (one fetch, seven loads that find it in flight or arrived)
//   blocks8 - the same line for the 64 warps of 8 consecutive blocks (spread over SMs by the block scheduler: the
//             other SMs' requests find it in flight in the L2, not in their L1)
// Every group loads a new line every round (consecutive lines of a 1 GiB array), none in the L2 when the timed launch
// starts (a 256 MiB buffer is read first, outside the events).
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   hit_on_miss <own|block|blocks8> rounds <R> <us> <SM cycles per round at --clock-mhz>
//   check microbench_hit_on_miss PASS|FAIL ...
//
// Usage: ws_microbench_hit_on_miss [--repeat R] [--rounds N] [--clock-mhz C]

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;
constexpr size_t kArrayFloats = size_t{1} << 28;  // 1 GiB
constexpr size_t kLineFloats = 32;                // one 128-byte line
constexpr size_t kFlushFloats = size_t{1} << 26;  // 256 MiB

enum class Sharing { kOwn, kBlock, kSm };

const char* name(Sharing s) {
  switch (s) {
    case Sharing::kOwn: return "own";
    case Sharing::kBlock: return "block";
    case Sharing::kSm: return "blocks8";
  }
  return "?";
}

template <Sharing kSharing>
__global__ void __launch_bounds__(kThreads) rounds(const float* __restrict__ data, int count, float* __restrict__ out) {
  const unsigned warp = threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  // The group of warps that share a line, and its index among all groups.
  unsigned group = 0, groups = 0;
  if (kSharing == Sharing::kOwn) {
    group = blockIdx.x * kWarpsPerBlock + warp;
    groups = gridDim.x * kWarpsPerBlock;
  } else if (kSharing == Sharing::kBlock) {
    group = blockIdx.x;
    groups = gridDim.x;
  } else {
    group = blockIdx.x / 8;
    groups = (gridDim.x + 7) / 8;
  }
  float carried = 0;  // always 0: each round's address depends on the last round's load
  for (int r = 0; r < count; ++r) {
    // A new line for every group and round (1 GiB holds 8 M lines; one wave of 8 blocks of 8 warps on 132 SMs for 256
    // rounds touches 2.2 M): every first touch comes from DRAM.
    const size_t line = (static_cast<size_t>(r) * groups + group) % (kArrayFloats / kLineFloats);
    const size_t index = line * kLineFloats + lane + static_cast<size_t>(carried);
    carried = data[index];  // a plain load: cached in L1
  }
  out[blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x] = carried;
}

using Kernel = void (*)(const float*, int, float*);

Kernel pick(Sharing s) {
  switch (s) {
    case Sharing::kOwn: return rounds<Sharing::kOwn>;
    case Sharing::kBlock: return rounds<Sharing::kBlock>;
    case Sharing::kSm: return rounds<Sharing::kSm>;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  const int count = std::max(1, static_cast<int>(ws::arg_long(argc, argv, "rounds", 256)));
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int blocks = prop.multiProcessorCount * 8;  // one wave of 8 blocks of 256 threads on every SM
  float *data = nullptr, *flush = nullptr, *out = nullptr;
  WS_CHECK(cudaMalloc(&data, kArrayFloats * sizeof(float)));
  WS_CHECK(cudaMalloc(&flush, kFlushFloats * sizeof(float)));
  WS_CHECK(cudaMalloc(&out, static_cast<size_t>(blocks) * kThreads * sizeof(float)));
  WS_CHECK(cudaMemset(data, 0, kArrayFloats * sizeof(float)));
  WS_CHECK(cudaMemset(flush, 0, kFlushFloats * sizeof(float)));
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d blocks %d rounds %d clock_mhz %.0f\n", prop.name, prop.multiProcessorCount, blocks,
              count, clock_mhz);
  std::vector<float> host(static_cast<size_t>(blocks) * kThreads);
  bool ok = true;
  for (Sharing s : {Sharing::kOwn, Sharing::kBlock, Sharing::kSm}) {
    const Kernel kernel = pick(s);
    const float ms = ws::median_launch_ms([&] { ws::read_to_evict<<<1024, 256>>>(flush, kFlushFloats, out); },
                                          [&] { kernel<<<blocks, kThreads>>>(data, count, out); }, repeat);
    const double cycles = static_cast<double>(ms) * 1e-3 * clock_mhz * 1e6;
    std::printf("hit_on_miss %s rounds %d %.1f %.1f\n", name(s), count, static_cast<double>(ms) * 1e3, cycles / count);
    WS_CHECK(cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (float v : host) ok = ok && v == 0.f;
  }
  WS_CHECK(cudaFree(data));
  WS_CHECK(cudaFree(flush));
  WS_CHECK(cudaFree(out));
  return ws::report_check("microbench_hit_on_miss", ok, "patterns 3");
}
