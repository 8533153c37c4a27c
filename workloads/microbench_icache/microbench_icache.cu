// What does a warp pay to run code the SM has not fetched yet? The wave models take a warp's time from the SASS
// stall counts and its waits on results, as if every instruction were already in the SM's instruction caches; a short
// kernel whose warps run most of their code once (Rodinia lud's perimeter kernel runs its 942 instructions 3.2 times
// a warp) may wait on instruction fetches instead, which ncu shows as `no_instruction` stalls. Here one warp on every
// SM (nothing hides its stalls) runs straight-line code of B FFMAs over 8 independent chains (the compiler spaces them
// one cycle apart) three times in a row, B = 1024, 4096, 16384 (16, 64 and 256 KiB of code), timing each pass with
// the SM clock: the first pass fetches the code, the later ones find it cached where it fits.
//
// Output (medians over the SMs' warps of the in-kernel clock64 cycles; one launch after a warm-up launch of another
// kernel, so that the code is new to every SM):
//   icache body <B> code_bytes <bytes of the timed body> pass1 <cycles> pass2 <cycles> pass3 <cycles>
//          cold_extra_per_line <(pass1 - pass2) / (code bytes / 128)>
//   check microbench_icache PASS|FAIL ...
//
// Usage: ws_microbench_icache

#include "microbench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <utility>
#include <vector>

namespace {

constexpr int kChains = 8;
constexpr int kPasses = 3;
constexpr int kInstructionBytes = 16;  // every SASS instruction on sm_70 and later
constexpr int kLineBytes = 128;

// Keeps the compiler from moving the chains' FFMAs across a clock read: the empty volatile statement reads and
// "writes" every chain, so the work before it stays before it and the work after it stays after it.
__device__ inline void fence_chains(float (&a)[kChains]) {
  asm volatile("" : "+f"(a[0]), "+f"(a[1]), "+f"(a[2]), "+f"(a[3]), "+f"(a[4]), "+f"(a[5]), "+f"(a[6]), "+f"(a[7]));
}

// a = a * 0.5 + 0.5 converges to 1: every chain ends at 1, the sum at kChains. Each pass is the same straight-line
// code (the pass loop is not unrolled), so pass 2 runs exactly the instructions pass 1 fetched.
template <int kBody>
__global__ void straight_line(float* __restrict__ out, long long* __restrict__ cycles) {
  float a[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) a[c] = static_cast<float>(threadIdx.x % 5 + c);
#pragma unroll 1
  for (int pass = 0; pass < kPasses; ++pass) {
    fence_chains(a);
    const long long start = clock64();
    fence_chains(a);
#pragma unroll
    for (int s = 0; s < kBody / kChains; ++s) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) a[c] = fmaf(a[c], 0.5f, 0.5f);
    }
    fence_chains(a);
    const long long end = clock64();
    if (threadIdx.x == 0) cycles[blockIdx.x * kPasses + pass] = end - start;
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += a[c];
  out[blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x] = sum;
}

using Kernel = void (*)(float*, long long*);

long long median(std::vector<long long> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  (void)argc;
  (void)argv;
  const cudaDeviceProp prop = ws::device_properties();
  const int sms = prop.multiProcessorCount;
  constexpr int kThreads = 32;
  float* out = nullptr;
  long long* cycles = nullptr;
  WS_CHECK(cudaMalloc(&out, static_cast<size_t>(sms) * kThreads * sizeof(float)));
  WS_CHECK(cudaMalloc(&cycles, static_cast<size_t>(sms) * kPasses * sizeof(long long)));
  std::printf("device %s sms %d\n", prop.name, sms);
  bool ok = true;
  const std::pair<int, Kernel> kinds[] = {
      {1024, straight_line<1024>}, {4096, straight_line<4096>}, {16384, straight_line<16384>}};
  for (size_t k = 0; k < std::size(kinds); ++k) {
    const auto& [body, kernel] = kinds[k];
    // Warm up with another kind's code, so that this one is new to the SMs when timed.
    kinds[(k + 1) % std::size(kinds)].second<<<sms, kThreads>>>(out, cycles);
    kernel<<<sms, kThreads>>>(out, cycles);
    WS_CHECK(cudaDeviceSynchronize());
    std::vector<long long> c(static_cast<size_t>(sms) * kPasses);
    WS_CHECK(cudaMemcpy(c.data(), cycles, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    long long pass[kPasses];
    for (int p = 0; p < kPasses; ++p) {
      std::vector<long long> per_sm;
      for (int b = 0; b < sms; ++b) per_sm.push_back(c[static_cast<size_t>(b) * kPasses + p]);
      pass[p] = median(per_sm);
    }
    const double lines = static_cast<double>(body) * kInstructionBytes / kLineBytes;
    std::printf("icache body %d code_bytes %d pass1 %lld pass2 %lld pass3 %lld cold_extra_per_line %.2f\n", body,
                body * kInstructionBytes, pass[0], pass[1], pass[2], (pass[0] - pass[1]) / lines);
    std::vector<float> sums(static_cast<size_t>(sms) * kThreads);
    WS_CHECK(cudaMemcpy(sums.data(), out, sums.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (float s : sums) ok = ok && std::abs(s - kChains) < 1e-3f;
  }
  WS_CHECK(cudaFree(out));
  WS_CHECK(cudaFree(cycles));
  return ws::report_check("microbench_icache", ok, "kinds 3");
}
