// What the FMA pipes sustain for FP16: packed half2 FMAs (HFMA2, two FP16 FMAs a lane) against FP32 FFMAs. The GPU
// files give FP16 a lane count from the datasheet's non-tensor FP16 peak (twice FP32's FLOPs), and sm_90's compiler
// spaces a warp's HFMA2s two cycles apart where it spaces FFMAs one apart (its stall counts), so the pipe rate and the
// dependent latency are measured here rather than read off either. Each thread runs C independent chains of
// `a = a * m + b` (C = 1: the latency; C = 8: the rate), 16 steps a chain per loop iteration, with 1, 4 or 16 warps on
// each scheduler (blocks of 128 threads, 1, 4 or 16 of them on every SM), in three forms: FFMA alone, HFMA2 alone, and
// both (C/2 chains of each, interleaved).
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   fp16 <ffma|hfma2|mixed> chains <C> warps_per_scheduler <W> <us> <warp FMA instructions per scheduler per clock
//   at --clock-mhz>
//   check microbench_fp16 PASS|FAIL ...
//
// Usage: ws_microbench_fp16 [--repeat R] [--iterations I] [--clock-mhz F]

#include <cuda_fp16.h>

#include "microbench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 128;  // one warp per scheduler
constexpr int kSteps = 16;     // steps of every chain per loop iteration

enum class Op { kFfma, kHfma2, kMixed };

const char* name(Op op) {
  switch (op) {
    case Op::kFfma: return "ffma";
    case Op::kHfma2: return "hfma2";
    case Op::kMixed: return "mixed";
  }
  return "?";
}

// a = a * m + b converges to b / (1 - m) = 1 from any start: every result is finite and checkable.
template <Op kOp, int kChains>
__global__ void __launch_bounds__(kThreads) chains(float* __restrict__ out, int iterations) {
  constexpr int kHalfChains = kOp == Op::kFfma ? 0 : (kOp == Op::kHfma2 ? kChains : kChains / 2);
  constexpr int kFloatChains = kChains - kHalfChains;
  float f[kFloatChains > 0 ? kFloatChains : 1];
  __half2 h[kHalfChains > 0 ? kHalfChains : 1];
  const float start = static_cast<float>(threadIdx.x % 7);
#pragma unroll
  for (int c = 0; c < kFloatChains; ++c) f[c] = start + static_cast<float>(c);
#pragma unroll
  for (int c = 0; c < kHalfChains; ++c) h[c] = __floats2half2_rn(start, static_cast<float>(c));
  const __half2 hm = __floats2half2_rn(0.5f, 0.5f), hb = __floats2half2_rn(0.5f, 0.5f);
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) {
        if (c < kHalfChains) {
          h[c] = __hfma2(h[c], hm, hb);
        } else if (kFloatChains > 0) {
          f[c - kHalfChains] = fmaf(f[c - kHalfChains], 0.5f, 0.5f);
        }
      }
    }
  }
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kFloatChains; ++c) sum += f[c];
#pragma unroll
  for (int c = 0; c < kHalfChains; ++c) sum += __low2float(h[c]) + __high2float(h[c]);
  out[blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x] = sum;
}

using Kernel = void (*)(float*, int);

template <Op kOp>
Kernel pick(int chain_count) {
  return chain_count == 1 ? chains<kOp, 1> : chains<kOp, 8>;
}

Kernel pick(Op op, int chain_count) {
  switch (op) {
    case Op::kFfma: return pick<Op::kFfma>(chain_count);
    case Op::kHfma2: return pick<Op::kHfma2>(chain_count);
    case Op::kMixed: return pick<Op::kMixed>(chain_count);
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  const int iterations = std::max(1, static_cast<int>(ws::arg_long(argc, argv, "iterations", 4096)));
  const double clock_mhz = ws::clock_mhz_arg(argc, argv);
  const int sms = prop.multiProcessorCount;
  const size_t max_threads = static_cast<size_t>(sms) * 16 * kThreads;
  float* out = nullptr;
  WS_CHECK(cudaMalloc(&out, max_threads * sizeof(float)));
  std::printf("device %s sms %d iterations %d clock_mhz %.0f\n", prop.name, sms, iterations, clock_mhz);
  std::vector<float> host(max_threads);
  bool ok = true;
  for (Op op : {Op::kFfma, Op::kHfma2, Op::kMixed}) {
    for (int chain_count : {1, 8}) {
      if (op == Op::kMixed && chain_count == 1) continue;  // a mix needs a chain of each
      for (int warps_per_scheduler : {1, 4, 16}) {
        const int blocks = sms * warps_per_scheduler;  // one block = one warp on each of an SM's schedulers
        const Kernel kernel = pick(op, chain_count);
        const float ms = ws::median_launch_ms([&] { kernel<<<blocks, kThreads>>>(out, iterations); }, repeat);
        // FMA warp instructions one scheduler issues: its warps x chains x steps x iterations.
        const double per_scheduler =
            static_cast<double>(warps_per_scheduler) * chain_count * kSteps * static_cast<double>(iterations);
        const double cycles = static_cast<double>(ms) * 1e-3 * clock_mhz * 1e6;
        std::printf("fp16 %s chains %d warps_per_scheduler %d %.1f %.3f\n", name(op), chain_count,
                    warps_per_scheduler, static_cast<double>(ms) * 1e3, per_scheduler / cycles);
        const size_t threads = static_cast<size_t>(blocks) * kThreads;
        WS_CHECK(cudaMemcpy(host.data(), out, threads * sizeof(float), cudaMemcpyDeviceToHost));
        // Every chain converges to 1 (a float chain adds 1, a half2 chain 2): the sum is the chain count.
        const float want = static_cast<float>(op == Op::kFfma ? chain_count
                                                              : (op == Op::kHfma2 ? 2 * chain_count
                                                                                  : chain_count / 2 * 3));
        for (size_t t = 0; t < threads && ok; ++t) ok = std::fabs(host[t] - want) < 1e-2f * want;
      }
    }
  }
  WS_CHECK(cudaFree(out));
  return ws::report_check("microbench_fp16", ok, "forms 3");
}
