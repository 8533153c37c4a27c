// bitonic_sort: ascending sort of n 32-bit unsigned keys (default 2^23, 32 MB) with Batcher's bitonic sorting
// network, organised as in the CUDA SDK's "sortingNetworks" sample: stages whose compare distance j fits inside a
// chunk of kChunk = 8192 keys run in shared memory, the larger-distance steps run on global memory.
//   - bitonic_sort_shared: each 1024-thread block loads an 8192-key chunk into shared memory (32 KB) and runs the
//     whole network for sizes k = 2..8192 (13 * 14 / 2 = 91 compare-exchange steps, each followed by a barrier),
//     sorting chunk c ascending or descending by bit k of its index, so pairs of chunks form bitonic sequences;
//   - for each merge size k = 16384..n: the global steps j = k/2 .. 8192, fused up to 4 at a time:
//     bitonic_global_<S>step (S = 1..4) lets each thread load the 2^S keys whose indices differ only in the S
//     stride bits, run the S compare-exchange steps in registers and store them back (every load and store is
//     coalesced: consecutive threads own consecutive indices); then bitonic_merge_shared finishes the steps
//     j = 4096..1 of size k inside each chunk in shared memory (13 steps).
// Launch count for n = 2^23 (m = log2(k / 8192) = 1..10 global steps per merge size, ceil(m / 4) launches each):
// 1 + (1+1+1+1+2+2+2+2+3+3) + 10 = 29 launches, hence --repeat defaults to 1 here.
//
// GPU behaviour exercised: barrier-bound shared-memory compare-exchange with data-dependent swaps (divergent
// stores), a long sequence of dependent launches, L2-resident streaming in the global steps (the 32 MB of keys fit
// in the 50 MB L2 of an H100).
// Launch shapes: shared kernels 1024 threads per block, n / 8192 = 1024 blocks, 32 KB of shared memory: 2 blocks
// (64 warps) per SM, 1024 / 264 = 3.9 waves; global kernels 256 threads per block, n / 2^S / 256 blocks.
//
// Usage: ws_bitonic_sort [--n N (power of two, 8192..2^26)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "bitonic_sort";
constexpr int kChunk = 8192;            // keys per shared-memory chunk (32 KB)
constexpr int kSharedThreads = 1024;    // threads of the shared kernels: 4 compare-exchanges each per step
constexpr int kPairsPerThread = kChunk / 2 / kSharedThreads;
constexpr int kKeysPerThread = kChunk / kSharedThreads;
constexpr int kGlobalThreads = 256;     // threads per block of the global kernels
constexpr int kMaxFused = 4;            // global steps per launch at most (2^4 = 16 keys per thread)
constexpr long kMaxN = 1L << 26;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. The network: for k = 2, 4, ..., n and j = k/2, k/4, ..., 1, every index i with (i & j) == 0 is
// compare-exchanged with i + j, ascending if (i & k) == 0, else descending. Within one step the pairs are
// disjoint, so the threads of a step need no ordering among themselves.

/// One compare-exchange step of distance j on the chunk in shared memory; `chunk_base` is the chunk's global index
/// (the direction depends on the global index). Pair p (0..kChunk/2-1) has its lower index at 2p - (p mod j).
__device__ __forceinline__ void shared_step(unsigned* s, unsigned chunk_base, unsigned k, unsigned j) {
  for (int r = 0; r < kPairsPerThread; ++r) {
    const unsigned p = threadIdx.x + r * kSharedThreads;
    const unsigned lo = 2 * p - (p & (j - 1));
    const unsigned hi = lo + j;
    const bool ascending = ((chunk_base + lo) & k) == 0;
    const unsigned a = s[lo];
    const unsigned b = s[hi];
    if ((a > b) == ascending) {
      s[lo] = b;
      s[hi] = a;
    }
  }
}

/// Sorts each kChunk-key chunk: all network steps with k <= kChunk. __launch_bounds__(1024, 2) caps the registers
/// at 32 so that two blocks (64 warps) fit on an SM (without it bitonic_merge_shared takes 40 and only one fits).
__global__ void __launch_bounds__(kSharedThreads, 2) bitonic_sort_shared(unsigned* __restrict__ keys) {
  __shared__ unsigned s[kChunk];
  const unsigned chunk_base = blockIdx.x * kChunk;
  for (int r = 0; r < kKeysPerThread; ++r) s[threadIdx.x + r * kSharedThreads] = keys[chunk_base + threadIdx.x + r * kSharedThreads];
  for (unsigned k = 2; k <= kChunk; k *= 2) {
    for (unsigned j = k / 2; j > 0; j /= 2) {
      __syncthreads();  // the previous step's (or the load's) writes
      shared_step(s, chunk_base, k, j);
    }
  }
  __syncthreads();
  for (int r = 0; r < kKeysPerThread; ++r) keys[chunk_base + threadIdx.x + r * kSharedThreads] = s[threadIdx.x + r * kSharedThreads];
}

/// The steps j = kChunk/2 .. 1 of merge size k (> kChunk) inside each chunk.
__global__ void __launch_bounds__(kSharedThreads, 2) bitonic_merge_shared(unsigned* __restrict__ keys, unsigned k) {
  __shared__ unsigned s[kChunk];
  const unsigned chunk_base = blockIdx.x * kChunk;
  for (int r = 0; r < kKeysPerThread; ++r) s[threadIdx.x + r * kSharedThreads] = keys[chunk_base + threadIdx.x + r * kSharedThreads];
  for (unsigned j = kChunk / 2; j > 0; j /= 2) {
    __syncthreads();
    shared_step(s, chunk_base, k, j);
  }
  __syncthreads();
  for (int r = 0; r < kKeysPerThread; ++r) keys[chunk_base + threadIdx.x + r * kSharedThreads] = s[threadIdx.x + r * kSharedThreads];
}

/// kSteps consecutive global steps j, j/2, ..., j/2^(kSteps-1) of merge size k. With L = j >> (kSteps-1) the
/// smallest distance, the 2^kSteps keys base + g*L (g = 0..2^kSteps-1) interact only with each other in these
/// steps; thread t's base is t with kSteps zero bits inserted at bit log2(L). Since 2j <= k and the inserted bits
/// are below bit log2(2j), (index & k) == (base & k) for the whole group: one direction per thread.
template <int kSteps>
__device__ __forceinline__ void global_steps(unsigned* keys, unsigned k, unsigned j, unsigned threads) {
  constexpr int kGroup = 1 << kSteps;
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= threads) return;
  const unsigned low = j >> (kSteps - 1);
  const unsigned base = ((t & ~(low - 1)) << kSteps) | (t & (low - 1));
  const bool ascending = (base & k) == 0;
  unsigned e[kGroup];
#pragma unroll
  for (int g = 0; g < kGroup; ++g) e[g] = keys[base + g * low];
#pragma unroll
  for (int stride = kGroup / 2; stride > 0; stride /= 2) {
#pragma unroll
    for (int g = 0; g < kGroup; ++g) {
      if ((g & stride) == 0) {
        const unsigned a = e[g];
        const unsigned b = e[g + stride];
        const bool swap = (a > b) == ascending;
        e[g] = swap ? b : a;
        e[g + stride] = swap ? a : b;
      }
    }
  }
#pragma unroll
  for (int g = 0; g < kGroup; ++g) keys[base + g * low] = e[g];
}

// One plain-named kernel per fusion depth, so that the trace's kernel names are exactly these labels.
__global__ void bitonic_global_1step(unsigned* __restrict__ keys, unsigned k, unsigned j, unsigned threads) {
  global_steps<1>(keys, k, j, threads);
}
__global__ void bitonic_global_2step(unsigned* __restrict__ keys, unsigned k, unsigned j, unsigned threads) {
  global_steps<2>(keys, k, j, threads);
}
__global__ void bitonic_global_3step(unsigned* __restrict__ keys, unsigned k, unsigned j, unsigned threads) {
  global_steps<3>(keys, k, j, threads);
}
__global__ void bitonic_global_4step(unsigned* __restrict__ keys, unsigned k, unsigned j, unsigned threads) {
  global_steps<4>(keys, k, j, threads);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// Runs the whole network on `keys` (n a power of two >= kChunk); returns the number of launches.
int bitonic_sort(ws::KernelTimer& timer, unsigned* keys, unsigned n) {
  using GlobalKernel = void (*)(unsigned*, unsigned, unsigned, unsigned);
  const GlobalKernel kernels[kMaxFused] = {bitonic_global_1step, bitonic_global_2step, bitonic_global_3step,
                                           bitonic_global_4step};
  const char* names[kMaxFused] = {"bitonic_global_1step", "bitonic_global_2step", "bitonic_global_3step",
                                  "bitonic_global_4step"};
  const unsigned chunks = n / kChunk;
  int launches = 0;
  timer.start();
  bitonic_sort_shared<<<chunks, kSharedThreads>>>(keys);
  timer.stop("bitonic_sort_shared");
  ++launches;
  for (unsigned k = 2 * kChunk; k <= n; k *= 2) {
    unsigned j = k / 2;
    while (j >= static_cast<unsigned>(kChunk)) {
      int steps = 0;  // how many steps j, j/2, ... down to kChunk this launch takes
      while (steps < kMaxFused && (j >> steps) >= static_cast<unsigned>(kChunk)) ++steps;
      const unsigned threads = n >> steps;
      const unsigned blocks = (threads + kGlobalThreads - 1) / kGlobalThreads;
      timer.start();
      kernels[steps - 1]<<<blocks, kGlobalThreads>>>(keys, k, j, threads);
      timer.stop(names[steps - 1]);
      ++launches;
      j >>= steps;
    }
    timer.start();
    bitonic_merge_shared<<<chunks, kSharedThreads>>>(keys, k);
    timer.stop("bitonic_merge_shared");
    ++launches;
  }
  return launches;
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_bitonic_sort: %s\nusage: ws_bitonic_sort [--n N (power of two, %d..%ld)] [--repeat R]\n",
               message, kChunk, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 1L << 23);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 1);
  if (n_arg < kChunk || n_arg > kMaxN || (n_arg & (n_arg - 1)) != 0) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const unsigned n = static_cast<unsigned>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  // Keys from an LCG over the full 32-bit range (duplicates are possible and fine).
  std::vector<unsigned> host_keys(n);
  unsigned state = 12345u;
  for (unsigned& key : host_keys) {
    state = state * 1664525u + 1013904223u;
    key = state ^ (state >> 15);
  }
  std::vector<unsigned> want = host_keys;
  std::sort(want.begin(), want.end());

  DeviceBuffer<unsigned> keys(n);
  ws::KernelTimer timer(kWorkload);
  int launches = 0;
  for (int r = 0; r < repeat; ++r) {
    keys.upload(host_keys);  // sorting is in place: every repetition starts unsorted (untimed)
    launches = bitonic_sort(timer, keys.get(), n);
  }

  std::vector<unsigned> got;
  keys.download(got);
  std::string failure;
  for (unsigned i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      char text[120];
      std::snprintf(text, sizeof text, "keys[%u]=%u want %u", i, got[i], want[i]);
      failure = text;
      break;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%u launches_per_sort=%d %s", n, launches,
                failure.empty() ? "sorted, equal to std::sort" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
