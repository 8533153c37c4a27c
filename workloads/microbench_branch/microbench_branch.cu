// What does a taken branch cost a warp beyond the compiler's issue spacing? A wave model that follows the SASS stall
// counts (the cycles the compiler puts between a warp's issues) takes a latency-bound warp's time as the sum of those
// counts plus its waits on variable-latency results; ncu shows such warps also stalled on `branch_resolving` and
// `no_instruction` (the next instruction not fetched yet), most after a taken branch. Here one warp on every SM (one
// per SM: nothing hides its stalls) runs a loop whose body is B FFMAs over 8 independent chains (no dependent stall
// inside the body: the compiler spaces them one cycle apart), B = 8, 16, 32, 64, 128, 256, for a fixed number of
// FFMAs: the iterations fall as B grows, so time = FFMAs x spacing + iterations x (what one iteration's branch and
// loop control cost).
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   branch body <B> iterations <I> <us> <SM cycles per iteration at --clock-mhz>
//   check microbench_branch PASS|FAIL ...
//
// Usage: ws_microbench_branch [--repeat R] [--ffmas F] [--clock-mhz C]

#include "microbench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace {

constexpr int kChains = 8;

// a = a * 0.5 + 0.5 converges to 1: every chain ends at 1, the sum at kChains.
template <int kBody>
__global__ void loop(float* __restrict__ out, int iterations) {
  float a[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) a[c] = static_cast<float>(threadIdx.x % 5 + c);
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int s = 0; s < kBody / kChains; ++s) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) a[c] = fmaf(a[c], 0.5f, 0.5f);
    }
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += a[c];
  out[blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x] = sum;
}

using Kernel = void (*)(float*, int);

Kernel kernel_for(int body) {
  switch (body) {
    case 8: return loop<8>;
    case 16: return loop<16>;
    case 32: return loop<32>;
    case 64: return loop<64>;
    case 128: return loop<128>;
    default: return loop<256>;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  const long ffmas = std::max(256L, ws::arg_long(argc, argv, "ffmas", 1L << 21));
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int blocks = prop.multiProcessorCount;  // one warp on every SM
  constexpr int kThreads = 32;
  float* out = nullptr;
  WS_CHECK(cudaMalloc(&out, static_cast<size_t>(blocks) * kThreads * sizeof(float)));
  std::printf("device %s sms %d ffmas %ld clock_mhz %.0f\n", prop.name, blocks, ffmas, clock_mhz);
  std::vector<float> host(static_cast<size_t>(blocks) * kThreads);
  bool ok = true;
  for (int body : {8, 16, 32, 64, 128, 256}) {
    const int iterations = static_cast<int>(ffmas / body);
    const Kernel kernel = kernel_for(body);
    const float ms = ws::median_launch_ms([&] { kernel<<<blocks, kThreads>>>(out, iterations); }, repeat);
    const double cycles = static_cast<double>(ms) * 1e-3 * clock_mhz * 1e6;
    std::printf("branch body %d iterations %d %.1f %.2f\n", body, iterations, static_cast<double>(ms) * 1e3,
                cycles / iterations);
    WS_CHECK(cudaMemcpy(host.data(), out, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (float v : host) ok = ok && std::fabs(v - kChains) < 1e-3f;
  }
  WS_CHECK(cudaFree(out));
  return ws::report_check("microbench_branch", ok, "bodies 6");
}
