// histogram_shared: 256-bin histogram of n bytes (default 2^26, 64 MB) with per-block privatised histograms in
// shared memory, the shared-atomics kernel of "CUDA by Example" (Sanders & Kandrot, chapter 9) and of NVIDIA's
// "GPU Pro Tip: Fast Histograms Using Shared Atomics on Maxwell" blog: each block zeroes a 256-bin shared
// histogram, counts its 64 KB slice of the data with shared-memory atomicAdd, then merges into the global
// histogram with one global atomicAdd per (non-empty) bin. Same skewed data as histogram_global: HOT percent of the
// bytes (default 50) take one of 4 hot values, the rest are uniform (histogram_global uses 2^23 of the same bytes).
//
// GPU behaviour exercised: shared-memory atomics under contention (lanes of a warp hitting the same shared word
// are serialised by the SM's atomic unit), two __syncthreads() per block, and a light global merge (256 atomics per
// block, 1024 blocks: 262144 global atomics instead of 2^26). Coalesced 32-bit loads.
// Launch shape: 256 threads per block, 64 words (256 bytes) per thread, n/65536 = 1024 blocks; 1 KB of shared
// memory and few registers let 8 blocks (64 warps) share an SM, so the 1024 blocks are about one wave on 132 SMs.
//
// Usage: ws_histogram_shared [--n N (multiple of 4)] [--hot HOT_PERCENT] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "histogram_shared";
constexpr int kBins = 256;
constexpr int kBlock = 256;        // = kBins: thread t zeroes and merges bin t
constexpr int kWordsPerThread = 64;
constexpr long kMaxN = 1L << 30;   // 1 GiB of bytes; word indices stay inside int

static_assert(kBlock == kBins, "one thread per bin for the zeroing and merging");

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel.

/// Thread t of block b takes words b * 16384 + r * 256 + t, r = 0..63 (coalesced), counting the 4 bytes of each
/// in the block's shared histogram; then thread t adds bin t to the global histogram.
__global__ void histogram_shared(const unsigned* __restrict__ data, unsigned* __restrict__ hist, int words) {
  __shared__ unsigned local[kBins];
  const int t = threadIdx.x;
  local[t] = 0;
  __syncthreads();
  const int base = blockIdx.x * (kBlock * kWordsPerThread) + t;
  for (int r = 0; r < kWordsPerThread; ++r) {
    const int i = base + r * kBlock;
    if (i >= words) break;  // no barrier inside the loop: every thread still reaches the one below
    const unsigned w = data[i];
    atomicAdd(&local[w & 0xFFu], 1u);
    atomicAdd(&local[(w >> 8) & 0xFFu], 1u);
    atomicAdd(&local[(w >> 16) & 0xFFu], 1u);
    atomicAdd(&local[w >> 24], 1u);
  }
  __syncthreads();
  const unsigned count = local[t];
  if (count != 0) atomicAdd(&hist[t], count);
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

/// Byte i: with probability hot/100 one of 4 hot values, else uniform (the same data as histogram_global).
std::vector<unsigned char> make_data(long n, int hot_percent) {
  static const unsigned char kHot[4] = {7, 64, 129, 250};
  std::vector<unsigned char> data(static_cast<std::size_t>(n));
  for (long i = 0; i < n; ++i) {
    const std::uint32_t h = hash32(static_cast<std::uint32_t>(i));
    const bool hot = (h % 100u) < static_cast<std::uint32_t>(hot_percent);
    data[static_cast<std::size_t>(i)] = hot ? kHot[(h >> 8) & 3u] : static_cast<unsigned char>(h >> 24);
  }
  return data;
}

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_histogram_shared: %s\nusage: ws_histogram_shared [--n N (multiple of 4, <= %ld)] [--hot 0..100] "
               "[--repeat R]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n = ws::arg_long(argc, argv, "n", 1L << 26);
  const long hot_arg = ws::arg_long(argc, argv, "hot", 50);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n < 4 || n > kMaxN || n % 4 != 0) return usage("--n out of range");
  if (hot_arg < 0 || hot_arg > 100) return usage("--hot must be 0..100");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int hot_percent = static_cast<int>(hot_arg);
  const int repeat = static_cast<int>(repeat_arg);
  const int words = static_cast<int>(n / 4);

  const std::vector<unsigned char> host_data = make_data(n, hot_percent);
  std::vector<unsigned> host_words(static_cast<std::size_t>(words));
  std::memcpy(host_words.data(), host_data.data(), static_cast<std::size_t>(n));  // bytes in memory order
  std::vector<unsigned long long> want(kBins, 0);
  for (const unsigned char b : host_data) ++want[b];

  DeviceBuffer<unsigned> data(static_cast<std::size_t>(words));
  DeviceBuffer<unsigned> hist(kBins);
  data.upload(host_words);

  const int per_block = kBlock * kWordsPerThread;
  const unsigned grid = static_cast<unsigned>((words + per_block - 1) / per_block);
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    hist.zero();  // untimed
    timer.start();
    histogram_shared<<<grid, kBlock>>>(data.get(), hist.get(), words);
    timer.stop("histogram_shared");
  }

  // Counts are integers: exact comparison of every bin.
  std::vector<unsigned> got;
  hist.download(got);
  std::string failure;
  unsigned long long max_bin = 0;
  for (int b = 0; b < kBins; ++b) {
    if (want[b] > max_bin) max_bin = want[b];
    if (static_cast<unsigned long long>(got[b]) != want[b] && failure.empty()) {
      char text[120];
      std::snprintf(text, sizeof text, "bin %d = %u want %llu", b, got[b], want[b]);
      failure = text;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%ld hot=%d%% largest_bin=%llu %s", n, hot_percent, max_bin,
                failure.empty() ? "all bins exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
