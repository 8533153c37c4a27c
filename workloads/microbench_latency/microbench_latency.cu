// Memory latency by pointer chasing, unloaded (one thread) and under load (many independent chains per SM), for the
// platform files' L1/L2/DRAM latencies and the latency-vs-bandwidth curve of the memory models (a microbenchmark: the
// predictive rule allows platform numbers from these, never from the validation workloads' times).
//   ws_microbench_latency [--clock-mhz F (default: the device's max clock)] [--repeat R (default 5)]
// Every chase walks one random cyclic permutation (Sattolo) of 128-byte lines: each line holds, in its first 8 bytes,
// the address of the next line, so every load depends on the one before and consecutive loads fall in unrelated
// lines (no prefetcher, no coalescing, no two loads in flight for one chain).
// Unloaded: one thread chases a 16 KiB set through L1 (ld.global.ca), a 4 MiB set through L2 (ld.global.cg), and
// 256 MiB and 1 GiB sets in DRAM (ld.global.cg; the two sizes show TLB reach). Each timed run continues the chase
// where the last one stopped, so the DRAM sets never hit lines an earlier run brought into L2.
// Unloaded in order: the same one-thread chase through the 4 MiB (L2) and 256 MiB (DRAM) sets along cycles that
// visit the lines in strided order, 1 line (sequential) or 64 lines (8 KiB: a column walk down a row-major matrix of
// 2048 floats, as PolyBench's column passes make), still one dependent load at a time: what a streaming warp's load
// waits, against the random order's TLB and DRAM-row misses.
// Loaded: 1 GiB set, every SM runs W warps (1..64); each warp chases one chain (lane 0) or 32 chains (a chain per
// lane); the chains start evenly spaced along the one cycle.
// Output, the median of R runs, time by CUDA events:
//   latency unloaded <level> <working-set bytes> <cycles at --clock-mhz> <ns>   (per dependent load)
//   latency strided <stride lines> <level> <working-set bytes> <cycles at --clock-mhz> <ns>
//   latency sm_clock <level> <working-set bytes> <clock64 cycles per load> <SM MHz implied by clock64 and the events>
//   latency loaded <chains per warp> <warps per SM> <ns per dependent load> <GB/s of 32-byte sectors>
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "microbench.h"
#include "workload.h"

namespace {

constexpr unsigned kLineBytes = 128;
constexpr unsigned kLineWords = kLineBytes / 8;  // 64-bit words per line; word 0 holds the next line's address
constexpr size_t kMaxSetBytes = size_t{1} << 30;
constexpr unsigned kMaxLines = static_cast<unsigned>(kMaxSetBytes / kLineBytes);
constexpr int kUnroll = 16;         // dependent loads per loop body (the loop counter runs beside the chain)
constexpr int kLoadedSteps = 2048;  // dependent loads per chain and run, loaded test
constexpr int kWarpCounts[] = {1, 2, 4, 8, 16, 32, 64};

struct Level {
  const char* label;
  size_t bytes;
  bool l1;     // ld.global.ca (L1) or ld.global.cg (L2 only)
  long steps;  // dependent loads per run
};
// Steps chosen for roughly 10-25 ms a run at the expected latencies (L1 ~20 ns, L2 ~150 ns, DRAM ~600 ns).
constexpr Level kLevels[] = {
    {"l1", 16u << 10, true, 1l << 20},
    {"l2", 4u << 20, false, 1l << 17},
    {"dram", 256u << 20, false, 1l << 15},
    {"dram", kMaxSetBytes, false, 1l << 15},
};

struct StridedLevel {
  Level level;
  unsigned stride_lines;
};
constexpr StridedLevel kStridedLevels[] = {
    {{"l2", 4u << 20, false, 1l << 17}, 1},
    {{"l2", 4u << 20, false, 1l << 17}, 64},
    {{"dram", 256u << 20, false, 1l << 15}, 1},
    {{"dram", 256u << 20, false, 1l << 15}, 64},
};

template <bool kL1>
__device__ inline unsigned long long next_line(unsigned long long p) {
  unsigned long long v;
  if (kL1) {
    asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p));
  } else {
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(v) : "l"(p));
  }
  return v;
}

__device__ inline unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}

// Writes the cycle: line i points at line next[i] (an absolute device address, so the chase needs no arithmetic).
__global__ void build_chain(unsigned long long* lines, const unsigned* next, unsigned count) {
  const unsigned long long base = reinterpret_cast<unsigned long long>(lines);
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    lines[static_cast<size_t>(i) * kLineWords] = base + static_cast<unsigned long long>(next[i]) * kLineBytes;
  }
}

// Reads a buffer twice the size of L2 (zeros) through L2: evicts (and writes back) whatever the last build or chase
// left there, so no run finds lines of its set in L2 that it did not bring itself.
__global__ void flush_l2(const uint4* buffer, size_t count, unsigned* sink) {
  unsigned acc = 0;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    unsigned x, y, z, w;
    asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "l"(buffer + i));
    acc ^= x ^ y ^ z ^ w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;  // never true (the buffer is zeros)
}

// One thread: `steps` dependent loads from *cursor on; leaves the end in *cursor and the clock64 span in *cycles.
template <bool kL1>
__global__ void chase_one(unsigned long long* cursor, long steps, long long* cycles) {
  unsigned long long p = *cursor;
  const long long begin = clock64();
#pragma unroll 1
  for (long i = 0; i < steps; i += kUnroll) {
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) p = next_line<kL1>(p);
  }
  const long long end = clock64();
  *cursor = p;
  *cycles = end - begin;
}

// Each warp chases one chain (lane 0; the other lanes leave at once) or 32 (one per lane), `steps` loads each, from
// cursors[chain] on; the ends go back to cursors. block_sm records where each block ran.
template <int kChainsPerWarp>
__global__ void __launch_bounds__(1024, 2) chase_loaded(unsigned long long* cursors, int steps, unsigned* block_sm) {
  if (threadIdx.x == 0) block_sm[blockIdx.x] = sm_id();
  const unsigned lane = threadIdx.x % 32;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (kChainsPerWarp == 1 && lane != 0) return;
  const unsigned chain = kChainsPerWarp == 1 ? warp : warp * 32 + lane;
  unsigned long long p = cursors[chain];
#pragma unroll 1
  for (int i = 0; i < steps; i += kUnroll) {
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) p = next_line<false>(p);
  }
  cursors[chain] = p;
}

// splitmix64: the same sequence on every host (no <random> differences).
struct Rng {
  unsigned long long state;
  unsigned long long next() {
    unsigned long long z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

// Sattolo's shuffle of the identity: next[i] is a single cycle through all n lines, uniformly chosen.
std::vector<unsigned> random_cycle(unsigned n, unsigned long long seed) {
  std::vector<unsigned> next(n);
  for (unsigned i = 0; i < n; ++i) next[i] = i;
  Rng rng{seed};
  for (unsigned i = n - 1; i > 0; --i) std::swap(next[i], next[static_cast<unsigned>(rng.next() % i)]);
  return next;
}

// A single cycle through n lines (n a multiple of stride) in strided order: line k * stride, k from 0 up, then the
// same from line 1, and so on.
std::vector<unsigned> strided_cycle(unsigned n, unsigned stride) {
  const unsigned rows = n / stride;
  auto line_at = [&](unsigned k) { return (k % rows) * stride + k / rows; };
  std::vector<unsigned> next(n);
  for (unsigned k = 0; k < n; ++k) next[line_at(k)] = line_at((k + 1) % n);
  return next;
}

unsigned walk(const std::vector<unsigned>& next, unsigned from, unsigned long long steps) {
  steps %= next.size();  // one cycle through all lines: position repeats every n steps
  for (unsigned long long s = 0; s < steps; ++s) from = next[from];
  return from;
}

class Events {
 public:
  Events() {
    WS_CHECK(cudaEventCreate(&begin_));
    WS_CHECK(cudaEventCreate(&end_));
  }
  ~Events() {
    cudaEventDestroy(begin_);
    cudaEventDestroy(end_);
  }
  template <typename Launch>
  float time_ms(Launch launch) {
    WS_CHECK(cudaEventRecord(begin_));
    launch();
    WS_CHECK(cudaEventRecord(end_));
    WS_CHECK(cudaEventSynchronize(end_));
    WS_CHECK(cudaGetLastError());
    float ms = 0;
    WS_CHECK(cudaEventElapsedTime(&ms, begin_, end_));
    return ms;
  }

 private:
  cudaEvent_t begin_{};
  cudaEvent_t end_{};
};

struct FlushBuffer {
  uint4* data = nullptr;
  size_t count = 0;  // uint4 elements
  unsigned* sink = nullptr;
};

void flush(const FlushBuffer& f) {
  flush_l2<<<1024, 256>>>(f.data, f.count, f.sink);
  WS_CHECK(cudaGetLastError());
  WS_CHECK(cudaDeviceSynchronize());
}

// Uploads `next`, lays the cycle into the first next.size() lines of `lines`, then empties L2 of it.
void build(unsigned long long* lines, unsigned* next_dev, const std::vector<unsigned>& next, const FlushBuffer& f) {
  WS_CHECK(cudaMemcpy(next_dev, next.data(), next.size() * sizeof(unsigned), cudaMemcpyHostToDevice));
  build_chain<<<1024, 256>>>(lines, next_dev, static_cast<unsigned>(next.size()));
  WS_CHECK(cudaGetLastError());
  WS_CHECK(cudaDeviceSynchronize());
  flush(f);
}

unsigned long long line_address(const unsigned long long* lines, unsigned line) {
  return reinterpret_cast<unsigned long long>(lines) + static_cast<unsigned long long>(line) * kLineBytes;
}

struct UnloadedResult {
  double ns = 0;            // per dependent load, CUDA events
  double clocks = 0;        // clock64 cycles per load
  bool ended_right = true;  // the chase stopped where the host's walk along `next` does
};

// One thread chases the cycle `next` (already built in `lines`) from line 0: a warm-up run, then `repeat` timed runs
// of level.steps loads, each continuing where the last stopped.
UnloadedResult chase_unloaded(const Level& level, const std::vector<unsigned>& next, unsigned long long* lines,
                              unsigned long long* cursor, long long* cycles_dev, Events& events, int repeat) {
  const unsigned long long start = line_address(lines, 0);
  WS_CHECK(cudaMemcpy(cursor, &start, sizeof start, cudaMemcpyHostToDevice));
  std::vector<float> ms;
  std::vector<float> clocks;
  for (int r = 0; r <= repeat; ++r) {  // run 0 warms up (and fills L1 or L2 for those levels)
    const float t = events.time_ms([&] {
      if (level.l1) {
        chase_one<true><<<1, 1>>>(cursor, level.steps, cycles_dev);
      } else {
        chase_one<false><<<1, 1>>>(cursor, level.steps, cycles_dev);
      }
    });
    long long cycles = 0;
    WS_CHECK(cudaMemcpy(&cycles, cycles_dev, sizeof cycles, cudaMemcpyDeviceToHost));
    if (r == 0) continue;
    ms.push_back(t);
    clocks.push_back(static_cast<float>(static_cast<double>(cycles) / level.steps));
  }
  UnloadedResult result;
  result.ns = ws::median(ms) * 1e6 / level.steps;
  result.clocks = ws::median(clocks);
  unsigned long long end = 0;
  WS_CHECK(cudaMemcpy(&end, cursor, sizeof end, cudaMemcpyDeviceToHost));
  const unsigned want = walk(next, 0, static_cast<unsigned long long>(level.steps) * (repeat + 1));
  result.ended_right = end == line_address(lines, want);
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = ws::repeat_arg(argc, argv);
  const int sms = prop.multiProcessorCount;
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, sms, clock_mhz);

  unsigned long long* lines = nullptr;
  unsigned* next_dev = nullptr;
  unsigned long long* cursor = nullptr;
  long long* cycles_dev = nullptr;
  WS_CHECK(cudaMalloc(&lines, kMaxSetBytes));
  WS_CHECK(cudaMalloc(&next_dev, size_t{kMaxLines} * sizeof(unsigned)));
  WS_CHECK(cudaMalloc(&cursor, sizeof(unsigned long long)));
  WS_CHECK(cudaMalloc(&cycles_dev, sizeof(long long)));
  FlushBuffer flusher;
  const size_t flush_bytes = std::max<size_t>(2 * static_cast<size_t>(prop.l2CacheSize), size_t{64} << 20);
  flusher.count = flush_bytes / sizeof(uint4);
  WS_CHECK(cudaMalloc(&flusher.data, flush_bytes));
  WS_CHECK(cudaMemset(flusher.data, 0, flush_bytes));
  WS_CHECK(cudaMalloc(&flusher.sink, sizeof(unsigned)));
  Events events;
  bool ok = true;
  std::string detail;

  // Unloaded: one thread, one chain, continuing across the warm-up and the R timed runs.
  std::vector<unsigned> next;
  for (const StridedLevel& strided : kStridedLevels) {
    const Level& level = strided.level;
    next = strided_cycle(static_cast<unsigned>(level.bytes / kLineBytes), strided.stride_lines);
    build(lines, next_dev, next, flusher);
    const UnloadedResult r = chase_unloaded(level, next, lines, cursor, cycles_dev, events, repeat);
    std::printf("latency strided %u %s %zu %.1f %.1f\n", strided.stride_lines, level.label, level.bytes,
                r.ns * clock_mhz * 1e-3, r.ns);
    if (!r.ended_right) {
      ok = false;
      detail += std::string(" strided_") + std::to_string(strided.stride_lines) + "_" + level.label + "_wrong_end";
    }
  }
  for (const Level& level : kLevels) {
    const unsigned count = static_cast<unsigned>(level.bytes / kLineBytes);
    next = random_cycle(count, 0x1234 + count);
    build(lines, next_dev, next, flusher);
    const UnloadedResult r = chase_unloaded(level, next, lines, cursor, cycles_dev, events, repeat);
    std::printf("latency unloaded %s %zu %.1f %.1f\n", level.label, level.bytes, r.ns * clock_mhz * 1e-3, r.ns);
    std::printf("latency sm_clock %s %zu %.1f %.0f\n", level.label, level.bytes, r.clocks, r.clocks / r.ns * 1e3);
    if (!r.ended_right) {
      ok = false;
      detail += std::string(" unloaded_") + level.label + "_" + std::to_string(level.bytes) + "_wrong_end";
    }
  }

  // Loaded: the 1 GiB cycle (the last level built). order[k] is the line k steps from line 0.
  const unsigned count = kMaxLines;
  std::vector<unsigned> order(count);
  order[0] = 0;
  for (unsigned k = 1; k < count; ++k) order[k] = next[order[k - 1]];
  next.clear();
  next.shrink_to_fit();
  const unsigned max_chains = static_cast<unsigned>(sms) * 64 * 32;
  unsigned long long* cursors = nullptr;
  unsigned* block_sm = nullptr;
  WS_CHECK(cudaMalloc(&cursors, size_t{max_chains} * sizeof(unsigned long long)));
  WS_CHECK(cudaMalloc(&block_sm, static_cast<size_t>(sms) * 2 * sizeof(unsigned)));
  long chains_checked = 0;
  for (int chains_per_warp : {1, 32}) {
    for (int warps : kWarpCounts) {
      const int block_warps = std::min(warps, 32);
      const int blocks_per_sm = warps / block_warps;
      const int blocks = sms * blocks_per_sm;
      const unsigned chains = static_cast<unsigned>(blocks) * block_warps * chains_per_warp;
      // Chain c starts at position c * count / chains of the cycle: the chains never share a line within
      // count / chains steps, and after that each follows lines the one ahead of it left a whole cycle ago.
      std::vector<unsigned long long> position(chains);
      std::vector<unsigned long long> start(chains);
      for (unsigned c = 0; c < chains; ++c) {
        position[c] = static_cast<unsigned long long>(c) * count / chains;
        start[c] = line_address(lines, order[position[c]]);
      }
      WS_CHECK(cudaMemcpy(cursors, start.data(), chains * sizeof(unsigned long long), cudaMemcpyHostToDevice));
      flush(flusher);
      std::vector<float> ms;
      for (int r = 0; r <= repeat; ++r) {  // run 0 warms up; every run goes on from where the last one ended
        const float t = events.time_ms([&] {
          if (chains_per_warp == 1) {
            chase_loaded<1><<<blocks, block_warps * 32>>>(cursors, kLoadedSteps, block_sm);
          } else {
            chase_loaded<32><<<blocks, block_warps * 32>>>(cursors, kLoadedSteps, block_sm);
          }
        });
        if (r > 0) ms.push_back(t);
      }
      const double seconds = ws::median(ms) * 1e-3;
      const double ns_per_load = seconds * 1e9 / kLoadedSteps;
      const double gb_per_s = static_cast<double>(chains) * kLoadedSteps * 32 / seconds * 1e-9;
      std::printf("latency loaded %d %d %.1f %.1f\n", chains_per_warp, warps, ns_per_load, gb_per_s);

      // Every chain must end where the CPU's walk along the cycle ends.
      std::vector<unsigned long long> end(chains);
      WS_CHECK(cudaMemcpy(end.data(), cursors, chains * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
      const unsigned long long walked = static_cast<unsigned long long>(kLoadedSteps) * (repeat + 1);
      unsigned wrong = 0;
      for (unsigned c = 0; c < chains; ++c) {
        if (end[c] != line_address(lines, order[(position[c] + walked) % count])) ++wrong;
      }
      chains_checked += chains;
      // Every SM must have held exactly blocks_per_sm blocks (of the last run), or "per SM" would be wrong.
      std::vector<unsigned> sm_of(blocks);
      WS_CHECK(cudaMemcpy(sm_of.data(), block_sm, blocks * sizeof(unsigned), cudaMemcpyDeviceToHost));
      std::sort(sm_of.begin(), sm_of.end());
      int distinct = 0;
      bool even = true;
      for (int b = 0; b < blocks; b += blocks_per_sm) {
        ++distinct;
        even = even && sm_of[b] == sm_of[b + blocks_per_sm - 1] && (b == 0 || sm_of[b] != sm_of[b - 1]);
      }
      const std::string config = std::to_string(chains_per_warp) + "x" + std::to_string(warps);
      if (wrong != 0) {
        ok = false;
        detail += " loaded_" + config + "_wrong_ends_" + std::to_string(wrong);
      }
      if (!even || distinct != sms) {
        ok = false;
        detail += " loaded_" + config + "_uneven_blocks_per_sm";
      }
    }
  }
  detail = "unloaded_levels " + std::to_string(sizeof(kLevels) / sizeof(kLevels[0])) + " loaded_chains_checked " +
           std::to_string(chains_checked) + detail;
  WS_CHECK(cudaFree(flusher.sink));
  WS_CHECK(cudaFree(flusher.data));
  WS_CHECK(cudaFree(block_sm));
  WS_CHECK(cudaFree(cursors));
  WS_CHECK(cudaFree(cycles_dev));
  WS_CHECK(cudaFree(cursor));
  WS_CHECK(cudaFree(next_dev));
  WS_CHECK(cudaFree(lines));
  return ws::report_check("microbench_latency", ok, detail);
}
