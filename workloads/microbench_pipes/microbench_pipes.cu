// How pipes that a loop keeps busy together share a sub-partition's time (a microbenchmark: the predictive rule
// allows model constants from these, never from the validation workloads' times).
//   ws_microbench_pipes [--clock-mhz F (default: the device's max clock)] [--repeat R (default 5)]
// Every kernel runs the same body many times with no dependence between bodies: L coalesced 4-byte loads that hit L1
// (ld.global.ca from a 16 KiB table: one 128-byte wavefront each, the LSU pipe and the L1 data stage), I 32-bit
// integer multiply-adds (IMAD, the FMA-heavy pipe), W 64-bit ones (IMAD.WIDE), F FP32 FMAs (FFMA, either FMA pipe);
// optionally the loads 8 bytes wide (two wavefronts each); A LOP3s (the ALU pipe), D DFMAs (FP64), M MUFU.EX2 (XU).
// Four blocks of 512 threads per SM (64 warps, a full SM). Output: `pipes <name> L I W F <FADDs> <load bytes> A D M
// <ns> <cycles per body per sub-partition>`, the median of R runs, cycles counted at --clock-mhz (the clock the models
// use). Each body's instructions are in the SASS (checked with cuobjdump).
#include <algorithm>
#include <cstdio>
#include <vector>

#include "microbench.h"
#include "workload.h"

namespace {

constexpr int kTableBytes = 16384;
constexpr int kThreads = 512;
constexpr int kBlocksPerSm = 4;
constexpr int kBodiesPerIteration = 8;
constexpr int kIterations = 2048;
constexpr int kSubPartitions = 4;

__device__ inline float load_ca(const float* p) {
  float v;
  asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}
__device__ inline float load_ca(const float2* p) {
  float2 v;
  asm volatile("ld.global.ca.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "l"(p));
  return v.x;
}
__device__ inline void imad(unsigned& acc, unsigned m, unsigned c) {
  asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(acc) : "r"(m), "r"(c));
}
__device__ inline void imad_wide(unsigned long long& acc, unsigned a, unsigned m) {
  asm volatile("mad.wide.u32 %0, %1, %2, %0;" : "+l"(acc) : "r"(a), "r"(m));
}
// Without a loaded multiplicand: the accumulator's own low word, a recurrence the compiler cannot reduce to
// additions (it splits the 64-bit add into IADD3s, and one chain's latency shows: not a pipe-bound body).
__device__ inline void imad_wide_recurrence(unsigned long long& acc, unsigned m) {
  asm volatile("{ .reg .u32 lo; cvt.u32.u64 lo, %0; mad.wide.u32 %0, lo, %1, %0; }" : "+l"(acc) : "r"(m));
}
__device__ inline void ffma(float& acc, float m, float c) {
  asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(acc) : "f"(m), "f"(c));
}
__device__ inline void lop3(unsigned& acc, unsigned a, unsigned b) {  // LOP3.LUT: the ALU pipe
  asm volatile("lop3.b32 %0, %0, %1, %2, 0x96;" : "+r"(acc) : "r"(a), "r"(b));
}
__device__ inline void dfma(double& acc, double m) {  // DFMA: the FP64 pipe
  asm volatile("fma.rn.f64 %0, %0, %1, %0;" : "+d"(acc) : "d"(m));
}
__device__ inline void mufu(float& acc) {  // MUFU.EX2: the XU (special function) pipe
  asm volatile("ex2.approx.ftz.f32 %0, %0;" : "+f"(acc));
}

// Four independent accumulators of each kind, so that no chain's latency shows with 16 warps per sub-partition; the
// multipliers differ per thread, so the vector pipes run them (not the uniform datapath). Load l's value is the
// addend of FFMA l, else of IMAD l, else added to a sum (one FADD: the `fadd` column); IMAD.WIDE i multiplies load
// i's value (the address arithmetic of an indexed load). The loads' addresses move
// with the iteration, so that none can be hoisted out of the loop.
template <typename T, int kLoads, int kImads, int kWides, int kFfmas, int kAlus, int kDfmas, int kMufus>
__global__ void pipe_mix(const T* __restrict__ table, unsigned long long* out, int iterations) {
  constexpr int kElements = kTableBytes / sizeof(T);
  constexpr int kSpan = (kLoads > 0 ? kLoads : 1) * kBodiesPerIteration * 32;
  const unsigned lane = threadIdx.x % 32;
  const unsigned m = 0x9E3779B9u + 2 * threadIdx.x;
  const float fm = 1.0f + 1e-7f * static_cast<float>(threadIdx.x);
  unsigned u[4] = {threadIdx.x, threadIdx.x + 1, threadIdx.x + 2, threadIdx.x + 3};
  unsigned long long w[4] = {m, m + 1ull, m + 2ull, m + 3ull};
  float f[4] = {fm, fm + 1, fm + 2, fm + 3};
  float sum = 0;
  unsigned logic[4] = {m, m ^ 1u, m ^ 2u, m ^ 3u};
  double d[4] = {fm, fm + 1.0, fm + 2.0, fm + 3.0};
  const double dm = 1.0 + 1e-9 * threadIdx.x;
  float e[4] = {0.5f * fm, 0.25f * fm, 0.125f * fm, 0.0625f * fm};
#pragma unroll 1
  for (int it = 0; it < iterations; ++it) {
    const T* p = table + lane + (it * kSpan) % kElements;
#pragma unroll
    for (int body = 0; body < kBodiesPerIteration; ++body) {
      float v[kLoads > 0 ? kLoads : 1] = {1.0f};
#pragma unroll
      for (int l = 0; l < kLoads; ++l) v[l] = load_ca(p + ((body * kLoads + l) * 32) % kElements);
#pragma unroll
      for (int i = 0; i < kFfmas; ++i) ffma(f[i % 4], fm, i < kLoads ? v[i] : 1.0f);
#pragma unroll
      for (int i = 0; i < kImads; ++i) imad(u[i % 4], m, i < kLoads && i >= kFfmas ? __float_as_uint(v[i]) : 1u);
#pragma unroll
      for (int i = 0; i < kWides; ++i) {
        if (kLoads > 0)
          imad_wide(w[i % 4], __float_as_uint(v[i % (kLoads > 0 ? kLoads : 1)]), m);
        else
          imad_wide_recurrence(w[i % 4], m);
      }
#pragma unroll
      for (int i = 0; i < kAlus; ++i) lop3(logic[i % 4], m, lane);
#pragma unroll
      for (int i = 0; i < kDfmas; ++i) dfma(d[i % 4], dm);
#pragma unroll
      for (int i = 0; i < kMufus; ++i) mufu(e[i % 4]);
#pragma unroll
      for (int l = 0; l < kLoads; ++l)
        if (l >= kFfmas && l >= kImads) sum += v[l];
    }
  }
  const unsigned long long all =
      u[0] + u[1] + u[2] + u[3] + w[0] + w[1] + w[2] + w[3] + logic[0] + logic[1] + logic[2] + logic[3] +
      static_cast<unsigned long long>(f[0] + f[1] + f[2] + f[3] + sum + e[0] + e[1] + e[2] + e[3]) +
      static_cast<unsigned long long>(d[0] + d[1] + d[2] + d[3]);
  if (all == 1) out[threadIdx.x] = all;  // never true for these inputs: keeps every result live
}

struct Run {
  const char* name;
  int loads, imads, wides, ffmas, load_bytes, alus, dfmas, mufus;
  void (*launch)(int blocks, const void* table, unsigned long long* out);
};

template <typename T, int L, int I, int W, int F, int A = 0, int D = 0, int M = 0>
Run make(const char* name) {
  return {name,
          L,
          I,
          W,
          F,
          static_cast<int>(sizeof(T)),
          A,
          D,
          M,
          [](int blocks, const void* table, unsigned long long* out) {
            pipe_mix<T, L, I, W, F, A, D, M><<<blocks, kThreads>>>(static_cast<const T*>(table), out, kIterations);
          }};
}

void measure(const Run& run, const void* table, unsigned long long* out, int sms, double clock_mhz, int repeat) {
  const int blocks = sms * kBlocksPerSm;
  const double seconds = ws::median_launch_ms([&] { run.launch(blocks, table, out); }, repeat) * 1e-3;
  const double warp_bodies_per_sub_partition =
      static_cast<double>(kBlocksPerSm) * (kThreads / 32) * kIterations * kBodiesPerIteration / kSubPartitions;
  const int fadds = std::max(0, run.loads - std::max(run.ffmas, run.imads));
  std::printf("pipes %s %d %d %d %d %d %d %d %d %d %.0f %.3f\n", run.name, run.loads, run.imads, run.wides, run.ffmas,
              fadds, run.load_bytes, run.alus, run.dfmas, run.mufus, seconds * 1e9,
              seconds * clock_mhz * 1e6 / warp_bodies_per_sub_partition);
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int repeat = static_cast<int>(ws::arg_long(argc, argv, "repeat", 5));
  void* table = nullptr;
  unsigned long long* out = nullptr;
  WS_CHECK(cudaMalloc(&table, kTableBytes));
  WS_CHECK(cudaMemset(table, 0, kTableBytes));
  WS_CHECK(cudaMalloc(&out, kThreads * sizeof(unsigned long long)));
  const int sms = prop.multiProcessorCount;
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, sms, clock_mhz);
  // Each pipe alone, then pairs and triples whose demands (cycles per body per sub-partition) are equal or not.
  const std::vector<Run> runs = {
      make<float, 1, 0, 0, 0>("ld"),
      make<float, 0, 1, 0, 0>("imad"),
      make<float, 0, 0, 1, 0>("imad_wide"),
      make<float, 0, 0, 0, 1>("ffma"),
      make<float, 0, 0, 0, 2>("ffma2"),
      make<float, 0, 0, 0, 4>("ffma4"),
      make<float, 0, 2, 0, 0>("imad2"),
      make<float, 0, 0, 2, 0>("imad_wide2"),
      make<float2, 1, 0, 0, 0>("ld8"),
      make<float, 1, 1, 0, 0>("ld_imad"),
      make<float, 1, 2, 0, 0>("ld_imad2"),
      make<float, 1, 3, 0, 0>("ld_imad3"),
      make<float, 1, 4, 0, 0>("ld_imad4"),
      make<float, 1, 6, 0, 0>("ld_imad6"),
      make<float, 2, 1, 0, 0>("ld2_imad"),
      make<float, 2, 2, 0, 0>("ld2_imad2"),
      make<float, 2, 3, 0, 0>("ld2_imad3"),
      make<float, 2, 4, 0, 0>("ld2_imad4"),
      make<float, 2, 5, 0, 0>("ld2_imad5"),
      make<float, 2, 6, 0, 0>("ld2_imad6"),
      make<float, 3, 4, 0, 0>("ld3_imad4"),
      make<float, 3, 6, 0, 0>("ld3_imad6"),
      make<float, 1, 0, 1, 0>("ld_wide"),
      make<float, 2, 0, 1, 0>("ld2_wide"),
      make<float, 2, 0, 2, 0>("ld2_wide2"),
      make<float, 3, 0, 2, 0>("ld3_wide2"),
      make<float, 1, 0, 1, 1>("ld_wide_ffma"),
      make<float, 2, 0, 2, 2>("ld2_wide2_ffma2"),
      make<float, 1, 0, 0, 2>("ld_ffma2"),
      make<float, 1, 0, 0, 3>("ld_ffma3"),
      make<float, 1, 0, 0, 4>("ld_ffma4"),
      make<float, 1, 0, 0, 6>("ld_ffma6"),
      make<float, 2, 0, 0, 2>("ld2_ffma2"),
      make<float, 0, 1, 0, 2>("imad_ffma2"),
      make<float, 0, 2, 0, 2>("imad2_ffma2"),
      make<float, 1, 2, 0, 2>("ld_imad2_ffma2"),
      make<float, 2, 2, 0, 2>("ld2_imad2_ffma2"),
      make<float2, 1, 2, 0, 0>("ld8_imad2"),
      make<float2, 1, 4, 0, 0>("ld8_imad4"),
      make<float2, 1, 0, 1, 0>("ld8_wide"),
      make<float2, 1, 0, 2, 0>("ld8_wide2"),
      make<float, 0, 0, 0, 0, 1>("alu"),
      make<float, 0, 0, 0, 0, 2>("alu2"),
      make<float, 1, 0, 0, 0, 2>("ld_alu2"),
      make<float, 1, 0, 0, 0, 1>("ld_alu"),
      make<float, 0, 2, 0, 0, 2>("imad2_alu2"),
      make<float, 0, 0, 0, 4, 2>("ffma4_alu2"),
      make<float, 0, 0, 0, 0, 0, 1>("dfma"),
      make<float, 0, 0, 0, 0, 0, 2>("dfma2"),
      make<float, 1, 0, 0, 0, 0, 2>("ld_dfma2"),
      make<float, 0, 0, 0, 2, 0, 2>("ffma2_dfma2"),
      make<float, 0, 0, 0, 0, 0, 0, 1>("mufu"),
      make<float, 1, 0, 0, 0, 0, 0, 1>("ld_mufu"),
      make<float, 0, 0, 0, 4, 0, 0, 1>("ffma4_mufu"),
      make<float, 0, 0, 0, 8, 0, 0, 1>("ffma8_mufu"),
  };

  for (const Run& run : runs) measure(run, table, out, sms, clock_mhz, repeat);
  std::printf("check microbench_pipes PASS\n");
  return 0;
}
