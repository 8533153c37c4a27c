// A one-element DRAM copy with work beside its load: how the time of `microbench_blocks`' copy (262144 blocks of 256
// threads, one 4-byte load and store per thread, arrays past the L2) grows when each thread does more than copy.
// `remote_access`'s local kernel is such a copy with 43 instructions a warp against the copy's 18, and takes 1.3x its
// time on H200; this tells where such work costs:
//   copy        - out[i] = in[i], `__restrict__` (microbench_blocks' copy_block)
//   plain       - the same without `__restrict__` (the ordinary load path, as remote_access reads)
//   pre<K>      - the load's index through K dependent IMADs first (x * 1 + 0, the operands kernel arguments, so the
//                 compiler keeps them): work the load waits for
//   post<K>     - the loaded value through K dependent FFMAs (x * 1 + 0) before its store: work after the load
//   side<K>     - K IMADs in four independent chains beside the load, folded into the stored value as 0: work the load
//                 does not wait for, the warp's issue only
// Output (time: median CUDA-event time of --repeat launches after a warm-up):
//   copy_work <kind> <K> <us> <GB/s of requested bytes>
//   check microbench_copy_work PASS|FAIL ...
//
// Usage: ws_microbench_copy_work [--repeat R]

#include "microbench.h"

#include <cstdio>
#include <string>

namespace {

constexpr int kThreads = 256;
constexpr unsigned kBlocks = 262144;

__device__ __forceinline__ unsigned index_of() { return blockIdx.x * kThreads + threadIdx.x; }

__global__ void __launch_bounds__(kThreads) copy_kernel(const float* __restrict__ in, float* __restrict__ out) {
  const unsigned i = index_of();
  out[i] = in[i];
}

__global__ void __launch_bounds__(kThreads) plain_kernel(const float* in, float* out) {
  const unsigned i = index_of();
  out[i] = in[i];
}

template <int K>
__global__ void __launch_bounds__(kThreads) pre_kernel(const float* in, float* out, unsigned one, unsigned zero) {
  unsigned i = index_of();
#pragma unroll
  for (int k = 0; k < K; ++k) i = i * one + zero;
  out[i] = in[i];
}

template <int K>
__global__ void __launch_bounds__(kThreads) post_kernel(const float* in, float* out, float one, float zero) {
  const unsigned i = index_of();
  float x = in[i];
#pragma unroll
  for (int k = 0; k < K; ++k) x = fmaf(x, one, zero);
  out[i] = x;
}

template <int K>
__global__ void __launch_bounds__(kThreads) side_kernel(const float* in, float* out, unsigned one, unsigned zero) {
  const unsigned i = index_of();
  const float x = in[i];
  unsigned chain[4] = {i, i + 1, i + 2, i + 3};
#pragma unroll
  for (int k = 0; k < K / 4; ++k) {
#pragma unroll
    for (int c = 0; c < 4; ++c) chain[c] = chain[c] * one + zero;
  }
  // zero is 0, so the folded chains add nothing to the value; the compiler cannot know it.
  const unsigned folded = (chain[0] ^ chain[1] ^ chain[2] ^ chain[3]) * zero;
  out[i] = x + static_cast<float>(folded);
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  const size_t n = size_t{kBlocks} * kThreads;
  const double bytes = 2.0 * n * sizeof(float);
  float *in = nullptr, *out = nullptr;
  WS_CHECK(cudaMalloc(&in, n * sizeof(float)));
  WS_CHECK(cudaMalloc(&out, n * sizeof(float)));
  ws::fill_floats<<<1024, kThreads>>>(in, n, 1.f);
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d blocks %u threads %d\n", prop.name, prop.multiProcessorCount, kBlocks, kThreads);
  bool ok = true;
  std::string detail;
  int points = 0;
  const auto measure = [&](const char* kind, int k, auto launch) {
    ws::fill_floats<<<1024, kThreads>>>(out, n, -1.f);
    const float ms = ws::median_launch_ms(launch, repeat);
    std::printf("copy_work %s %d %.1f %.0f\n", kind, k, ms * 1e3, bytes / (ms * 1e6));
    ++points;
    if (!ws::floats_hold(out, n, 1.f)) {
      ok = false;
      detail += std::string(" ") + kind + std::to_string(k) + "_wrong";
    }
  };
  measure("copy", 0, [&] { copy_kernel<<<kBlocks, kThreads>>>(in, out); });
  measure("plain", 0, [&] { plain_kernel<<<kBlocks, kThreads>>>(in, out); });
  measure("pre", 4, [&] { pre_kernel<4><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  measure("pre", 8, [&] { pre_kernel<8><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  measure("pre", 16, [&] { pre_kernel<16><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  measure("pre", 32, [&] { pre_kernel<32><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  measure("post", 4, [&] { post_kernel<4><<<kBlocks, kThreads>>>(in, out, 1.f, 0.f); });
  measure("post", 16, [&] { post_kernel<16><<<kBlocks, kThreads>>>(in, out, 1.f, 0.f); });
  measure("post", 64, [&] { post_kernel<64><<<kBlocks, kThreads>>>(in, out, 1.f, 0.f); });
  measure("side", 8, [&] { side_kernel<8><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  measure("side", 16, [&] { side_kernel<16><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  measure("side", 32, [&] { side_kernel<32><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  measure("side", 64, [&] { side_kernel<64><<<kBlocks, kThreads>>>(in, out, 1u, 0u); });
  WS_CHECK(cudaFree(in));
  WS_CHECK(cudaFree(out));
  return ws::report_check("microbench_copy_work", ok, "points " + std::to_string(points) + detail);
}
