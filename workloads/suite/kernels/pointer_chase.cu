// pointer_chase: dependent-load latency chains over a random cyclic permutation, the classic memory-latency
// microbenchmark (Saavedra & Smith's chase, as used by Mei & Chu "Dissecting GPU memory hierarchy through
// microbenchmarking" and Jia et al.'s GPU dissection reports). next[] is a single cycle built with Sattolo's
// algorithm, so a walk j <- next[j] never falls into a short loop; every load's address is the previous load's value.
//   chase_dram_latency    - 1 block of 32 threads over 2^24 ints (64 MiB, more than the 50 MB L2), each thread
//                           walking its own chain 4096 steps: one dependent DRAM access after another per thread,
//                           32 in flight on one SM: pure load latency (plus TLB misses).
//   chase_dram_throughput - 8 blocks of 256 threads per SM (64 warps per SM, full occupancy), each thread walking
//                           512 steps: ~270k independent chains, throughput set by Little's law (loads in flight /
//                           latency) and by random 32-byte sector traffic. The array is only ~1.3x the L2, so in
//                           steady state many of these random loads (up to about L2 size / array size) hit in L2.
//   chase_l2_latency      - like chase_dram_latency over a 2^18-int (1 MiB) permutation that stays in L2.
// Loads use __ldcg (ld.global.cg: cached in L2, not L1), so L1 plays no part and the chains measure L2/DRAM.
//
// L2 state: before each chase_dram_latency launch a 128 MiB scratch buffer is cleared (cudaMemset, untimed), so
// that none of the permutation is in L2; all chase_dram_throughput launches then follow each other (their own
// random loads set the L2 contents); the 1 MiB permutation is copied to the device just before the chase_l2_latency
// launches (the copy's writes pass through L2; after the first launch it is certainly resident, nothing else runs
// in between). So the launch order is A A A, B B B, C C C rather than (A B C) x 3.
// ptxas -v: 22 registers, no shared memory. Measured on one H100 SXM (CUDA events): chase_dram_latency 2.2 ms
// (~540 ns per dependent load), chase_dram_throughput 2.6 ms, chase_l2_latency 0.72 ms (~175 ns per load; the
// first of its launches ~1.0 ms; every kernel's first launch also carries the lazy module loading).
//
// Usage: ws_pointer_chase [--log2-n L (20..26)] [--steps-a S] [--steps-b S] [--steps-c S] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char* kWorkload = "pointer_chase";
constexpr int kLatencyThreads = 32;          // kernels A and C: one warp, one block
constexpr int kThroughputThreads = 256;      // kernel B: 8 warps per block
constexpr int kThroughputBlocksPerSm = 8;    // x 8 warps = 64 warps per SM
constexpr int kLog2Small = 18;               // kernel C: 2^18 ints = 1 MiB
constexpr std::size_t kFlushBytes = 128u << 20;  // more than twice the largest L2 (H200: 60 MB)
constexpr int kCheckedThroughputChains = 256;    // kernel B chains walked on the CPU (all of A's and C's are)

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels: one body; the three names give the three launches their own identity in the trace.

__device__ __forceinline__ void chase(const unsigned* __restrict__ next, const unsigned* __restrict__ starts,
                                      unsigned* __restrict__ ends, int steps) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned j = starts[t];
  for (int s = 0; s < steps; ++s) j = __ldcg(&next[j]);  // each address depends on the previous load
  ends[t] = j;
}

__global__ void chase_dram_latency(const unsigned* __restrict__ next, const unsigned* __restrict__ starts,
                                   unsigned* __restrict__ ends, int steps) {
  chase(next, starts, ends, steps);
}

__global__ void chase_dram_throughput(const unsigned* __restrict__ next, const unsigned* __restrict__ starts,
                                      unsigned* __restrict__ ends, int steps) {
  chase(next, starts, ends, steps);
}

__global__ void chase_l2_latency(const unsigned* __restrict__ next, const unsigned* __restrict__ starts,
                                 unsigned* __restrict__ ends, int steps) {
  chase(next, starts, ends, steps);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// splitmix64: a small, portable 64-bit generator.
std::uint64_t next_random(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Sattolo's algorithm: a uniformly random permutation consisting of one cycle through all n elements.
std::vector<unsigned> sattolo_cycle(std::size_t n, std::uint64_t seed) {
  std::vector<unsigned> next(n);
  for (std::size_t i = 0; i < n; ++i) next[i] = static_cast<unsigned>(i);
  std::uint64_t state = seed;
  for (std::size_t i = n - 1; i > 0; --i) {
    const std::size_t j = static_cast<std::size_t>(next_random(state) % i);  // j < i: never a fixed point
    std::swap(next[i], next[j]);
  }
  return next;
}

/// Chain starting points spread over the array (a multiplicative hash of the chain number).
std::vector<unsigned> chain_starts(std::size_t chains, std::size_t n) {
  std::vector<unsigned> starts(chains);
  for (std::size_t t = 0; t < chains; ++t) {
    starts[t] = static_cast<unsigned>((static_cast<std::uint64_t>(t) * 2654435761ull + 12345ull) % n);
  }
  return starts;
}

/// Walks chains on the CPU (every `stride`-th one) and compares their ends; returns "" or the first mismatch.
std::string check_chains(const char* name, const std::vector<unsigned>& next, const std::vector<unsigned>& starts,
                         const std::vector<unsigned>& ends, int steps, std::size_t stride) {
  for (std::size_t t = 0; t < starts.size(); t += stride) {
    unsigned j = starts[t];
    for (int s = 0; s < steps; ++s) j = next[j];
    if (ends[t] != j) {
      char text[160];
      std::snprintf(text, sizeof text, "%s chain %zu ends at %u want %u", name, t, ends[t], j);
      return text;
    }
  }
  return "";
}

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_pointer_chase: %s\nusage: ws_pointer_chase [--log2-n L (20..26)] [--steps-a S] [--steps-b S] "
               "[--steps-c S] [--repeat R]   (steps 1..65536)\n",
               message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long log2_n = ws::arg_long(argc, argv, "log2-n", 24);
  const long steps_a_arg = ws::arg_long(argc, argv, "steps-a", 4096);
  const long steps_b_arg = ws::arg_long(argc, argv, "steps-b", 512);
  const long steps_c_arg = ws::arg_long(argc, argv, "steps-c", 4096);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (log2_n < 20 || log2_n > 26) return usage("--log2-n out of range");
  for (long steps : {steps_a_arg, steps_b_arg, steps_c_arg}) {
    if (steps < 1 || steps > 65536) return usage("steps out of range");
  }
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const std::size_t n = std::size_t{1} << log2_n;
  const std::size_t n_small = std::size_t{1} << kLog2Small;
  const int steps_a = static_cast<int>(steps_a_arg);
  const int steps_b = static_cast<int>(steps_b_arg);
  const int steps_c = static_cast<int>(steps_c_arg);
  const int repeat = static_cast<int>(repeat_arg);

  int device = 0;
  WS_CHECK(cudaGetDevice(&device));
  int sms = 0;
  WS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const int throughput_blocks = sms * kThroughputBlocksPerSm;
  const std::size_t throughput_chains = static_cast<std::size_t>(throughput_blocks) * kThroughputThreads;

  const std::vector<unsigned> host_next = sattolo_cycle(n, 1u);
  const std::vector<unsigned> host_next_small = sattolo_cycle(n_small, 2u);
  const std::vector<unsigned> starts_a = chain_starts(kLatencyThreads, n);
  const std::vector<unsigned> starts_b = chain_starts(throughput_chains, n);
  const std::vector<unsigned> starts_c = chain_starts(kLatencyThreads, n_small);

  DeviceBuffer<unsigned> next(n);
  DeviceBuffer<unsigned> next_small(n_small);
  DeviceBuffer<unsigned> dev_starts_a(kLatencyThreads);
  DeviceBuffer<unsigned> dev_starts_b(throughput_chains);
  DeviceBuffer<unsigned> dev_starts_c(kLatencyThreads);
  DeviceBuffer<unsigned> ends_a(kLatencyThreads);
  DeviceBuffer<unsigned> ends_b(throughput_chains);
  DeviceBuffer<unsigned> ends_c(kLatencyThreads);
  DeviceBuffer<unsigned char> flush(kFlushBytes);
  next.upload(host_next);
  dev_starts_a.upload(starts_a);
  dev_starts_b.upload(starts_b);
  dev_starts_c.upload(starts_c);
  for (DeviceBuffer<unsigned>* ends : {&ends_a, &ends_b, &ends_c}) ends->zero();

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    WS_CHECK(cudaMemset(flush.get(), r, flush.bytes()));  // untimed: evicts the permutation from L2
    WS_CHECK(cudaDeviceSynchronize());
    timer.start();
    chase_dram_latency<<<1, kLatencyThreads>>>(next.get(), dev_starts_a.get(), ends_a.get(), steps_a);
    timer.stop("chase_dram_latency");
  }
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    chase_dram_throughput<<<throughput_blocks, kThroughputThreads>>>(next.get(), dev_starts_b.get(), ends_b.get(),
                                                                     steps_b);
    timer.stop("chase_dram_throughput");
  }
  next_small.upload(host_next_small);  // untimed; its writes go through L2
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    chase_l2_latency<<<1, kLatencyThreads>>>(next_small.get(), dev_starts_c.get(), ends_c.get(), steps_c);
    timer.stop("chase_l2_latency");
  }

  std::vector<unsigned> got_a;
  std::vector<unsigned> got_b;
  std::vector<unsigned> got_c;
  ends_a.download(got_a);
  ends_b.download(got_b);
  ends_c.download(got_c);
  const std::size_t b_stride = (throughput_chains + kCheckedThroughputChains - 1) / kCheckedThroughputChains;
  std::string failure = check_chains("chase_dram_latency", host_next, starts_a, got_a, steps_a, 1);
  if (failure.empty()) failure = check_chains("chase_dram_throughput", host_next, starts_b, got_b, steps_b, b_stride);
  if (failure.empty()) failure = check_chains("chase_l2_latency", host_next_small, starts_c, got_c, steps_c, 1);
  if (failure.empty()) {  // also the last chain of B, to catch a grid that stops short
    failure = check_chains("chase_dram_throughput", host_next,
                           std::vector<unsigned>{starts_b.back()}, std::vector<unsigned>{got_b.back()}, steps_b, 1);
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%zu chains_b=%zu checked_b_every=%zu %s", n, throughput_chains, b_stride,
                failure.empty() ? "all chain ends exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
