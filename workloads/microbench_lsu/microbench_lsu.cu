// Load requests per SM clock through the L1: what bounds a kernel whose warps issue many 4-byte loads that hit L1
// (a naive matrix product's step is one broadcast and one coalesced 4-byte load per multiply-add). Every SM runs W
// warps (blocks of 256 threads); each thread makes kSteps independent loads, 8 in flight (unrolled, immediate
// offsets from one base: one instruction per load and one add), through ld.global.ca from a table of S bytes (16 KiB:
// every load hits L1; 4 MiB: every load misses L1 and hits L2). A warp load is:
//   coalesced - 128 consecutive bytes (one request, one L1 wavefront, 4 sectors),
//   broadcast - one word for all 32 lanes (one request, one sector; the lanes' address differs only by
//               (lane & a zero known at run time), so ptxas cannot make it a uniform load),
//   pair      - coalesced and broadcast in turn (the naive product),
//   vector16  - 512 consecutive bytes by 16-byte lanes (one request, four wavefronts: L1's bytes per clock).
// The question: does the L1 take one request per clock whatever its size, as the models' L1 data stage assumes?
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   lsu <kind> warps <W> set_bytes <S> <us> <requests per SM clock> <bytes per SM clock> (at --clock-mhz)
//   check microbench_lsu PASS|FAIL ...
//
// Usage: ws_microbench_lsu [--repeat R] [--clock-mhz F]

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kInFlight = 8;
constexpr int kSteps = 1024;    // loads per thread
constexpr int kLineWords = 32;  // 4-byte words in a 128-byte line

enum class Kind { kCoalesced, kBroadcast, kPair, kVector16 };

const char* name(Kind k) {
  switch (k) {
    case Kind::kCoalesced: return "coalesced";
    case Kind::kBroadcast: return "broadcast";
    case Kind::kPair: return "pair";
    case Kind::kVector16: return "vector16";
  }
  return "?";
}

// Words a thread's load covers: 16-byte lanes read four.
__host__ __device__ constexpr int words_per_load(Kind k) { return k == Kind::kVector16 ? 4 : 1; }

// One step: kInFlight loads from `line` (a multiple of 8 lines, inside the table and its padding), summed.
template <Kind K>
__device__ float load_step(const float* __restrict__ table, unsigned line, unsigned lane, unsigned broadcast_lane) {
  const float* coalesced = table + line * kLineWords + lane;
  const float* broadcast = table + line * kLineWords + broadcast_lane;
  float v[kInFlight];
#pragma unroll
  for (int u = 0; u < kInFlight; ++u) {
    if constexpr (K == Kind::kVector16) {
      const float4 x = __ldca(reinterpret_cast<const float4*>(table + (line + 4 * u) * kLineWords) + lane);
      v[u] = (x.x + x.y) + (x.z + x.w);
    } else {
      const bool coalesced_load = K == Kind::kCoalesced || (K == Kind::kPair && u % 2 == 0);
      v[u] = __ldca((coalesced_load ? coalesced : broadcast) + u * kLineWords);
    }
  }
  float sum = 0;
#pragma unroll
  for (int u = 0; u < kInFlight; ++u) sum += v[u];
  return sum;
}

template <Kind K>
__global__ void __launch_bounds__(kThreads)
    read_table(const float* __restrict__ table, unsigned lines_mask, unsigned zero, float* __restrict__ sink) {
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = thread / 32;
  constexpr unsigned kStepLines = kInFlight * words_per_load(K);  // lines one step covers
  float sum = 0;
#pragma unroll 1
  for (int step = 0; step < kSteps; step += kInFlight) {
    const unsigned line = ((warp + static_cast<unsigned>(step)) * kStepLines) & lines_mask;
    sum += load_step<K>(table, line, lane, lane & zero);
  }
  sink[thread] = sum;
}

template <Kind K>
void launch(int blocks, const float* table, unsigned lines_mask, float* sink) {
  read_table<K><<<blocks, kThreads>>>(table, lines_mask, 0u, sink);
}

void launch(Kind k, int blocks, const float* table, unsigned lines_mask, float* sink) {
  switch (k) {
    case Kind::kCoalesced: return launch<Kind::kCoalesced>(blocks, table, lines_mask, sink);
    case Kind::kBroadcast: return launch<Kind::kBroadcast>(blocks, table, lines_mask, sink);
    case Kind::kPair: return launch<Kind::kPair>(blocks, table, lines_mask, sink);
    case Kind::kVector16: return launch<Kind::kVector16>(blocks, table, lines_mask, sink);
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
  constexpr size_t kMaxSetBytes = size_t{4} << 20;
  constexpr size_t kPadWords = 4 * kInFlight * kLineWords * 4;  // a step's reach beyond its first line
  const size_t table_words = kMaxSetBytes / sizeof(float) + kPadWords;
  const int max_blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kThreads);
  float *table = nullptr, *sink = nullptr;
  WS_CHECK(cudaMalloc(&table, table_words * sizeof(float)));
  WS_CHECK(cudaMalloc(&sink, static_cast<size_t>(max_blocks) * kThreads * sizeof(float)));
  fill<<<max_blocks, kThreads>>>(table, table_words);
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, prop.multiProcessorCount, clock_mhz);
  bool ok = true;
  int runs = 0;
  std::vector<float> sums(static_cast<size_t>(max_blocks) * kThreads);
  for (size_t set_bytes : {size_t{16} << 10, kMaxSetBytes}) {
    const unsigned lines_mask = static_cast<unsigned>(set_bytes / 128 - 1);
    for (int warps : {16, 32, 64}) {
      const int blocks = prop.multiProcessorCount * warps * 32 / kThreads;
      const size_t threads = static_cast<size_t>(blocks) * kThreads;
      for (Kind k : {Kind::kCoalesced, Kind::kBroadcast, Kind::kPair, Kind::kVector16}) {
        const float ms = ws::median_launch_ms([&] { launch(k, blocks, table, lines_mask, sink); }, repeat);
        const double requests_per_sm = static_cast<double>(warps) * kSteps;
        const double bytes_per_request = k == Kind::kBroadcast ? 4
                                         : k == Kind::kPair    ? (128 + 4) / 2.0
                                                               : 128.0 * words_per_load(k);
        const double clocks = ms * 1e-3 * clock_mhz * 1e6;
        std::printf("lsu %s warps %d set_bytes %zu %.1f %.3f %.1f\n", name(k), warps, set_bytes, ms * 1e3,
                    requests_per_sm / clocks, requests_per_sm * bytes_per_request / clocks);
        WS_CHECK(cudaMemcpy(sums.data(), sink, threads * sizeof(float), cudaMemcpyDeviceToHost));
        const float expected = static_cast<float>(kSteps * words_per_load(k));
        for (size_t t = 0; t < threads; ++t) ok = ok && sums[t] == expected;
        ++runs;
      }
    }
  }
  WS_CHECK(cudaFree(table));
  WS_CHECK(cudaFree(sink));
  return ws::report_check("microbench_lsu", ok, "runs " + std::to_string(runs));
}
