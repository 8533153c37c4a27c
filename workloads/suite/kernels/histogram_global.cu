// histogram_global: 256-bin histogram of n bytes (default 2^23, 8 MB) with one global-memory atomicAdd per byte,
// the straightforward kernel of the CUDA SDK's histogram sample discussion and of "CUDA by Example" (Sanders &
// Kandrot, chapter 9, the global-atomics version). The data are skewed on purpose: HOT percent of the bytes
// (default 50) take one of 4 "hot" values, the rest are uniform over 0..255, so ~1/8 of all atomics each go to
// the same 4 addresses. The data generator is histogram_shared's; the default n is 8x smaller than its 2^26
// because global atomics on 256 bins run ~100x slower than the shared-memory version (2^26 bytes would take
// ~20 ms per launch).
//
// GPU behaviour exercised: global atomics under heavy contention. Each thread loads one 32-bit word (4 bytes;
// coalesced) per step and issues 4 RED.ADD operations; the 256 bins are 1 KB, only eight 128-byte lines, so all
// SMs' atomics funnel into a few L2 slices, and a warp's 32 atomics of one instruction often hit the same bin
// (the hot ones). Bound by L2 atomic throughput on those lines, not by DRAM (the 8 MB read takes a few us).
// Launch shape: 256 threads per block, 4 words (16 bytes) per thread, n/4096 = 2048 blocks; full occupancy.
//
// Usage: ws_histogram_global [--n N (multiple of 4)] [--hot HOT_PERCENT] [--repeat R]
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

constexpr const char* kWorkload = "histogram_global";
constexpr int kBins = 256;
constexpr int kBlock = 256;
constexpr int kWordsPerThread = 4;
constexpr long kMaxN = 1L << 30;  // 1 GiB of bytes; word indices stay inside int

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel.

/// Thread t of block b takes words b * 1024 + r * 256 + t, r = 0..3 (coalesced), and adds one to the bin of each
/// of the word's 4 bytes with a global atomic. `words` = n / 4.
__global__ void histogram_global(const unsigned* __restrict__ data, unsigned* __restrict__ hist, int words) {
  const int base = blockIdx.x * (kBlock * kWordsPerThread) + threadIdx.x;
  for (int r = 0; r < kWordsPerThread; ++r) {
    const int i = base + r * kBlock;
    if (i >= words) return;
    const unsigned w = data[i];
    atomicAdd(&hist[w & 0xFFu], 1u);
    atomicAdd(&hist[(w >> 8) & 0xFFu], 1u);
    atomicAdd(&hist[(w >> 16) & 0xFFu], 1u);
    atomicAdd(&hist[w >> 24], 1u);
  }
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

/// Byte i: with probability hot/100 one of 4 hot values (spread over the bins' cache lines), else uniform.
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
               "ws_histogram_global: %s\nusage: ws_histogram_global [--n N (multiple of 4, <= %ld)] [--hot 0..100] "
               "[--repeat R]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n = ws::arg_long(argc, argv, "n", 1L << 23);
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
    histogram_global<<<grid, kBlock>>>(data.get(), hist.get(), words);
    timer.stop("histogram_global");
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
