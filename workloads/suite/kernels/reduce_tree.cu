// reduce_tree: the sum of n single-precision floats (default 2^26, 256 MB), by the two-launch parallel reduction of
// Harris's "Optimizing Parallel Reduction in CUDA" (NVIDIA CUDA SDK), in two variants:
//   - shared-memory tree with sequential addressing (Harris's kernel 3 with "add during load"):
//     reduce_tree_partials: each 256-thread block sums a 2048-element chunk (8 coalesced loads per thread, summed
//     in a register), then halves the active threads log2(256) = 8 times in shared memory (s[t] += s[t + stride],
//     a __syncthreads() after every step) and writes one partial sum per block;
//     reduce_tree_final: one 1024-thread block reduces the partial sums the same way (10 tree steps);
//   - warp-shuffle variant (as in NVIDIA's "Faster Parallel Reductions on Kepler" blog):
//     reduce_warp_partials: the same loads, then __shfl_down_sync trees inside each warp, the 8 warp sums through
//     shared memory and one more shuffle tree in warp 0 (one barrier instead of eight);
//     reduce_warp_final: one 1024-thread block reduces the partial sums with the same scheme.
//
// GPU behaviour exercised: DRAM-bound streaming of 256 MB (the partial kernels), barrier-heavy shared-memory trees
// with shrinking active-thread counts (idle warps at each step) vs warp shuffles, and a one-block second launch
// that uses one SM of 132 (latency-bound, ~10 us: below the suite's usual 20 us by design).
// Launch shapes: partial kernels 256 threads per block, n/2048 = 32768 blocks (1 KB / 32 B of shared memory, full
// occupancy); final kernels 1 block of 1024 threads.
//
// Usage: ws_reduce_tree [--n N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "reduce_tree";
constexpr int kBlock = 256;           // threads per block of the partial kernels
constexpr int kPerThread = 8;         // elements each thread of a partial kernel adds while loading
constexpr int kChunk = kBlock * kPerThread;  // elements per block: 2048
constexpr int kFinalBlock = 1024;     // threads of the one-block final kernels
constexpr int kWarp = 32;
constexpr long kMaxN = 1L << 28;      // 1 GiB of input; n / kChunk partial sums

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Block sizes are powers of two (kBlock, kFinalBlock), as the trees require.

/// Each thread adds kPerThread elements of the block's chunk (stride kBlock: coalesced), then a shared-memory tree
/// with sequential addressing: at each step the lower half of the active threads adds the upper half's values.
__global__ void reduce_tree_partials(const float* __restrict__ in, float* __restrict__ partials, long n) {
  __shared__ float s[kBlock];
  const int t = threadIdx.x;
  const long base = static_cast<long>(blockIdx.x) * kChunk + t;
  float sum = 0.0f;
  for (int r = 0; r < kPerThread; ++r) {
    const long i = base + static_cast<long>(r) * kBlock;
    if (i < n) sum += in[i];
  }
  s[t] = sum;
  __syncthreads();
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = s[0];
}

/// One block of kFinalBlock threads: each thread adds partials t, t + kFinalBlock, ..., then the same tree.
__global__ void reduce_tree_final(const float* __restrict__ partials, float* __restrict__ result, int count) {
  __shared__ float s[kFinalBlock];
  const int t = threadIdx.x;
  float sum = 0.0f;
  for (int i = t; i < count; i += kFinalBlock) sum += partials[i];
  s[t] = sum;
  __syncthreads();
  for (int stride = kFinalBlock / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) *result = s[0];
}

/// Sum of `v` over the 32 lanes of the calling warp, in lane 0 (all lanes must call it).
__device__ float warp_sum(float v) {
  for (int offset = kWarp / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

/// Block-wide sum with shuffles: warp trees, the warp sums through shared memory, a last tree in warp 0.
/// Valid in thread 0. `warp_sums` holds blockDim.x / 32 floats; every thread of the block must call it.
__device__ float block_sum_shuffle(float v, float* warp_sums) {
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const int warps = blockDim.x / kWarp;
    v = lane < warps ? warp_sums[lane] : 0.0f;
    v = warp_sum(v);
  }
  return v;
}

/// The same loads as reduce_tree_partials, reduced with warp shuffles.
__global__ void reduce_warp_partials(const float* __restrict__ in, float* __restrict__ partials, long n) {
  __shared__ float warp_sums[kBlock / kWarp];
  const long base = static_cast<long>(blockIdx.x) * kChunk + threadIdx.x;
  float sum = 0.0f;
  for (int r = 0; r < kPerThread; ++r) {
    const long i = base + static_cast<long>(r) * kBlock;
    if (i < n) sum += in[i];
  }
  sum = block_sum_shuffle(sum, warp_sums);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

/// One block of kFinalBlock threads, shuffle trees.
__global__ void reduce_warp_final(const float* __restrict__ partials, float* __restrict__ result, int count) {
  __shared__ float warp_sums[kFinalBlock / kWarp];
  float sum = 0.0f;
  for (int i = threadIdx.x; i < count; i += kFinalBlock) sum += partials[i];
  sum = block_sum_shuffle(sum, warp_sums);
  if (threadIdx.x == 0) *result = sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr, "ws_reduce_tree: %s\nusage: ws_reduce_tree [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 1L << 26);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 1 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const long n = n_arg;
  const int repeat = static_cast<int>(repeat_arg);

  // Values in [0, 1): all of one sign, so that a missing 2048-element chunk changes the sum by ~3e-5 of it (with
  // mixed signs the sum would be ~sqrt(n) and a missing chunk could hide inside the rounding tolerance).
  std::vector<float> host_in(static_cast<std::size_t>(n));
  ws::fill_random(host_in, 31u);
  for (float& v : host_in) v = 0.5f * (v + 1.0f);
  double want = 0.0;
  for (const float v : host_in) want += static_cast<double>(v);

  const int blocks = static_cast<int>((n + kChunk - 1) / kChunk);
  DeviceBuffer<float> in(static_cast<std::size_t>(n));
  DeviceBuffer<float> partials(static_cast<std::size_t>(blocks));
  DeviceBuffer<float> results(2);  // [0]: tree variant, [1]: shuffle variant
  in.upload(host_in);
  WS_CHECK(cudaMemset(results.get(), 0xFF, results.bytes()));  // NaN until written

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    reduce_tree_partials<<<blocks, kBlock>>>(in.get(), partials.get(), n);
    timer.stop("reduce_tree_partials");
    timer.start();
    reduce_tree_final<<<1, kFinalBlock>>>(partials.get(), results.get(), blocks);
    timer.stop("reduce_tree_final");
    timer.start();
    reduce_warp_partials<<<blocks, kBlock>>>(in.get(), partials.get(), n);
    timer.stop("reduce_warp_partials");
    timer.start();
    reduce_warp_final<<<1, kFinalBlock>>>(partials.get(), results.get() + 1, blocks);
    timer.stop("reduce_warp_final");
  }

  // Tolerance: relative 1e-5. Every float addition chain here is at most ~60 additions deep (8 loads, 8 or 5+3
  // tree steps, 32 partials per final thread, 10 final steps), so the rounding error is below ~60 * 6e-8 = 3.6e-6
  // of the sum of these non-negative values; one missing chunk is ~3e-5 of it.
  std::vector<float> got;
  results.download(got);
  const char* names[2] = {"tree", "shuffle"};
  std::string failure;
  double worst = 0.0;
  for (int v = 0; v < 2; ++v) {
    const double error = std::fabs(static_cast<double>(got[v]) - want) / (want > 0.0 ? want : 1.0);
    if (error > worst || error != error) worst = error;
    if (!(error <= 1e-5) && failure.empty()) {  // negated so that NaN fails
      char text[160];
      std::snprintf(text, sizeof text, "%s sum=%.9g want %.9g (relative tolerance 1e-5)", names[v],
                    static_cast<double>(got[v]), want);
      failure = text;
    }
  }
  char detail[320];
  std::snprintf(detail, sizeof detail, "n=%ld tree=%.9g shuffle=%.9g want=%.9g worst_relative_error=%.3g %s", n,
                static_cast<double>(got[0]), static_cast<double>(got[1]), want, worst,
                failure.empty() ? "both within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
