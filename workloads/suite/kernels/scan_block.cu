// scan_block: inclusive prefix sum of n 32-bit integers (default 2^25, 128 MB), by the three-phase "scan then
// propagate" method for large arrays of GPU Gems 3, chapter 39 (Harris, Sengupta & Owens, "Parallel Prefix Sum
// (Scan) with CUDA"):
//   1. scan_block_blelloch: each 512-thread block scans a 1024-element chunk in shared memory with the
//      work-efficient Blelloch scan (up-sweep and down-sweep, 2 x 10 tree levels, a __syncthreads() before each),
//      writes the chunk's inclusive scan and the chunk total to block_sums;
//   2. scan_block_sums: one 1024-thread block scans the n/1024 chunk totals in place: each thread scans a run of
//      consecutive totals sequentially, and the 1024 run totals are scanned with a Hillis-Steele (naive parallel,
//      log2(1024) = 10 steps, double-buffered) scan in shared memory;
//   3. scan_add_offsets: each block adds the inclusive total of all earlier chunks to its chunk.
//
// GPU behaviour exercised: barrier-heavy shared-memory trees (22 barriers per block in phase 1, with the number of
// active threads halving and doubling: idle warps), the unpadded Blelloch tree's shared-memory bank conflicts
// (stride 2^d word accesses: up to 16-way at the deep levels), a latency-bound one-block phase 2 on one SM (each
// thread walks its 32-element run twice with dependent, strided, uncoalesced global accesses), and DRAM-bound
// streaming in phases 1 and 3 (256 MB each).
// Launch shapes: phases 1 and 3: 512 threads per block, n/1024 = 32768 blocks (4 KB of shared memory per block in
// phase 1: 4 blocks, 64 warps per SM); phase 2: 1 block of 1024 threads (8 KB of shared memory).
//
// Usage: ws_scan_block [--n N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "scan_block";
constexpr int kBlock = 512;                  // threads per block, phases 1 and 3
constexpr int kChunk = 2 * kBlock;           // elements per block: two per thread
constexpr int kSumsBlock = 1024;             // threads of the one-block phase 2
constexpr int kMaxValue = 7;                 // inputs are 0..kMaxValue
constexpr long kMaxN = 1L << 26;             // the total (<= 7 * 2^26) fits in int; n/kChunk <= 64 * kSumsBlock

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels.

/// Blelloch scan of one kChunk-element chunk. Thread t owns elements t and t + kBlock (coalesced loads and
/// stores); out-of-range elements count as 0. The exclusive scan from the down-sweep plus the element itself gives
/// the inclusive scan.
__global__ void scan_block_blelloch(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ block_sums,
                                    int n) {
  __shared__ int s[kChunk];
  const int t = threadIdx.x;
  const long base = static_cast<long>(blockIdx.x) * kChunk;
  const long ia = base + t;
  const long ib = base + t + kBlock;
  const int va = ia < n ? in[ia] : 0;
  const int vb = ib < n ? in[ib] : 0;
  s[t] = va;
  s[t + kBlock] = vb;

  // Up-sweep (reduce): at level d, `active` threads add s[offset*(2t+1)-1] into s[offset*(2t+2)-1].
  int offset = 1;
  for (int active = kChunk / 2; active > 0; active /= 2) {
    __syncthreads();
    if (t < active) {
      const int ai = offset * (2 * t + 1) - 1;
      const int bi = offset * (2 * t + 2) - 1;
      s[bi] += s[ai];
    }
    offset *= 2;
  }
  __syncthreads();
  if (t == 0) {
    block_sums[blockIdx.x] = s[kChunk - 1];  // the chunk total
    s[kChunk - 1] = 0;
  }
  // Down-sweep: swap-and-add from the root back to the leaves gives the exclusive scan.
  for (int active = 1; active < kChunk; active *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < active) {
      const int ai = offset * (2 * t + 1) - 1;
      const int bi = offset * (2 * t + 2) - 1;
      const int left = s[ai];
      s[ai] = s[bi];
      s[bi] += left;
    }
  }
  __syncthreads();
  if (ia < n) out[ia] = s[t] + va;
  if (ib < n) out[ib] = s[t + kBlock] + vb;
}

/// In-place inclusive scan of `count` chunk totals by one block of kSumsBlock threads: thread t owns the run
/// [t * per, (t + 1) * per). Pass 1 sums the run, a Hillis-Steele scan over the run totals gives each thread's
/// exclusive offset, pass 2 rewrites the run as its inclusive scan plus the offset.
__global__ void scan_block_sums(int* __restrict__ sums, int count) {
  __shared__ int buffer[2][kSumsBlock];
  const int t = threadIdx.x;
  const int per = (count + kSumsBlock - 1) / kSumsBlock;
  const int begin = min(t * per, count);
  const int end = min(begin + per, count);
  int total = 0;
  for (int i = begin; i < end; ++i) total += sums[i];

  // Hillis-Steele: at step `step`, element t adds element t - step of the previous step's buffer. Reads and writes
  // go to different buffers, so one barrier per step suffices (it also orders the previous step's reads before
  // this step's overwrite of that buffer).
  int current = 0;
  buffer[current][t] = total;
  for (int step = 1; step < kSumsBlock; step *= 2) {
    __syncthreads();
    int v = buffer[current][t];
    if (t >= step) v += buffer[current][t - step];
    buffer[1 - current][t] = v;
    current = 1 - current;
  }
  __syncthreads();
  int running = buffer[current][t] - total;  // exclusive: the totals of all earlier runs
  for (int i = begin; i < end; ++i) {
    running += sums[i];
    sums[i] = running;
  }
}

/// Adds the inclusive total of chunks 0..b-1 to every element of chunk b (chunk 0 needs nothing).
__global__ void scan_add_offsets(int* __restrict__ out, const int* __restrict__ scanned_sums, int n) {
  if (blockIdx.x == 0) return;  // block-uniform
  const int add = scanned_sums[blockIdx.x - 1];
  const long base = static_cast<long>(blockIdx.x) * kChunk + threadIdx.x;
  if (base < n) out[base] += add;
  if (base + kBlock < n) out[base + kBlock] += add;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// A 32-bit integer hash (two multiply-xorshift rounds): deterministic pseudo-random bits from an index.
std::uint32_t hash32(std::uint32_t v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v;
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_scan_block: %s\nusage: ws_scan_block [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 1L << 25);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 1 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  std::vector<int> host_in(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) host_in[i] = static_cast<int>(hash32(static_cast<std::uint32_t>(i)) % (kMaxValue + 1));

  const int blocks = (n + kChunk - 1) / kChunk;
  DeviceBuffer<int> in(static_cast<std::size_t>(n));
  DeviceBuffer<int> out(static_cast<std::size_t>(n));
  DeviceBuffer<int> block_sums(static_cast<std::size_t>(blocks));
  in.upload(host_in);

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    WS_CHECK(cudaMemset(out.get(), 0xFF, out.bytes()));  // -1 everywhere: elements a kernel skips fail (untimed)
    timer.start();
    scan_block_blelloch<<<blocks, kBlock>>>(in.get(), out.get(), block_sums.get(), n);
    timer.stop("scan_block_blelloch");
    timer.start();
    scan_block_sums<<<1, kSumsBlock>>>(block_sums.get(), blocks);
    timer.stop("scan_block_sums");
    timer.start();
    scan_add_offsets<<<blocks, kBlock>>>(out.get(), block_sums.get(), n);
    timer.stop("scan_add_offsets");
  }

  // Integer sums: exact comparison of every element.
  std::vector<int> got;
  out.download(got);
  std::string failure;
  long long running = 0;
  for (int i = 0; i < n; ++i) {
    running += host_in[i];
    if (got[i] != running) {
      char text[120];
      std::snprintf(text, sizeof text, "out[%d]=%d want %lld", i, got[i], running);
      failure = text;
      break;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%d blocks=%d total=%lld %s", n, blocks, running,
                failure.empty() ? "all elements exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
