// How far a kernel's busy units overlap. A wave model bounds a kernel by each unit alone (issue, the L1's data stage,
// the L2, DRAM) and takes the largest; a kernel that keeps two units about equally busy may take longer than either
// needs, as two equally busy pipes do (workloads/microbench_pipes: 1.31x). Here DRAM streaming is paired with each of
// the others in turn, in one full wave (8 blocks of 256 threads on every SM), every iteration of a warp's loop doing
//   - kFar independent coalesced 4-byte loads from a 1 GiB array (one line each, streaming: DRAM), and
//   - N "near" units of work: N/4 x 4 independent FFMA chains (`fma`), N coalesced loads of a 64 KiB array through L1
//     (`l1`: ld.ca, L1 hits), or N coalesced loads of a 16 MiB array past L1 (`l2`: ld.cg, L2 hits),
// summed so that nothing is dead. Each pairing runs three ways with the same loop: both kinds of work, the near work
// alone, the DRAM loads alone; the pairs' times against the alone ones give the overlap (a p-norm exponent:
// t_both^p = t_near^p + t_far^p).
//
// Output (median CUDA-event time of --repeat launches after a warm-up):
//   overlap <fma|l1|l2> <N> <both|near|far> <us>
//   check microbench_overlap PASS|FAIL ...
//
// Usage: ws_microbench_overlap [--repeat R] [--iterations I]

#include "microbench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kFar = 4;                         // DRAM loads per iteration, in flight together
constexpr size_t kFarFloats = size_t{1} << 28;  // 1 GiB
constexpr unsigned kL1Floats = 1u << 14;        // 64 KiB: stays in L1
constexpr unsigned kL2Floats = 1u << 22;        // 16 MiB: stays in L2, not in L1

enum class Near { kFma, kL1, kL2 };

const char* name(Near n) {
  switch (n) {
    case Near::kFma: return "fma";
    case Near::kL1: return "l1";
    case Near::kL2: return "l2";
  }
  return "?";
}

__device__ float load_near(const float* p, Near kind) {
  float v;
  if (kind == Near::kL1) {
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
  } else {
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(v) : "l"(p));
  }
  return v;
}

template <Near kKind, bool kWithFar, bool kWithNear>
__global__ void __launch_bounds__(kThreads) mix(const float* __restrict__ far, const float* __restrict__ near, int n,
                                                int iterations, float* __restrict__ sink) {
  const size_t thread = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
  const unsigned near_mask = (kKind == Near::kL1 ? kL1Floats : kL2Floats) - 1;
  float f0 = 0, f1 = 0, f2 = 0, f3 = 0;  // the DRAM loads' sums
  float a0 = 1, a1 = 2, a2 = 3, a3 = 4;  // near work
  size_t index = thread;
  // A warp's near loads: its lanes on consecutive words (one line a warp load), each load on a new line.
  unsigned near_index = static_cast<unsigned>(thread / 32 * 32u * 7919u + threadIdx.x % 32);
#pragma unroll 1
  for (int it = 0; it < iterations; ++it) {
    float v0 = 0, v1 = 0, v2 = 0, v3 = 0;
    if (kWithFar) {
      v0 = __ldcs(&far[index]);
      v1 = __ldcs(&far[(index + threads) & (kFarFloats - 1)]);
      v2 = __ldcs(&far[(index + 2 * threads) & (kFarFloats - 1)]);
      v3 = __ldcs(&far[(index + 3 * threads) & (kFarFloats - 1)]);
      index = (index + kFar * threads) & (kFarFloats - 1);
    }
    if (kWithNear) {
      if (kKind == Near::kFma) {
#pragma unroll 4
        for (int k = 0; k < n; k += 4) {
          a0 = fmaf(a0, 0.999f, 0.5f);
          a1 = fmaf(a1, 0.999f, 0.5f);
          a2 = fmaf(a2, 0.999f, 0.5f);
          a3 = fmaf(a3, 0.999f, 0.5f);
        }
      } else {
#pragma unroll 4
        for (int k = 0; k < n; ++k) {
          a0 += load_near(near + ((near_index + static_cast<unsigned>(k) * 32u * 9u) & near_mask), kKind);
        }
        near_index += 32u * 9u * static_cast<unsigned>(n);
      }
    }
    f0 += v0;
    f1 += v1;
    f2 += v2;
    f3 += v3;
  }
  sink[thread] = f0 + f1 + f2 + f3 + a0 + a1 + a2 + a3;
}

using Kernel = void (*)(const float*, const float*, int, int, float*);

template <Near kKind>
Kernel pick(bool with_far, bool with_near) {
  if (with_far && with_near) return mix<kKind, true, true>;
  if (with_far) return mix<kKind, true, false>;
  return mix<kKind, false, true>;
}

Kernel pick(Near kind, bool with_far, bool with_near) {
  switch (kind) {
    case Near::kFma: return pick<Near::kFma>(with_far, with_near);
    case Near::kL1: return pick<Near::kL1>(with_far, with_near);
    case Near::kL2: return pick<Near::kL2>(with_far, with_near);
  }
  return nullptr;
}

__global__ void fill(float* p, size_t n, float value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = value;
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  const int iterations = std::max(1, static_cast<int>(ws::arg_long(argc, argv, "iterations", 256)));
  const int blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kThreads);
  const size_t threads = static_cast<size_t>(blocks) * kThreads;
  float *far = nullptr, *near = nullptr, *sink = nullptr;
  WS_CHECK(cudaMalloc(&far, kFarFloats * sizeof(float)));
  WS_CHECK(cudaMalloc(&near, kL2Floats * sizeof(float)));
  WS_CHECK(cudaMalloc(&sink, threads * sizeof(float)));
  fill<<<1024, kThreads>>>(far, kFarFloats, 1.f);
  fill<<<1024, kThreads>>>(near, kL2Floats, 0.f);
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d blocks %d iterations %d\n", prop.name, prop.multiProcessorCount, blocks, iterations);
  struct Sweep {
    Near kind;
    std::vector<int> n;
  };
  const std::vector<Sweep> sweeps = {
      {Near::kFma, {64, 128, 192, 256, 384}}, {Near::kL1, {8, 16, 32, 48, 64}}, {Near::kL2, {2, 4, 8, 12, 16}}};
  bool ok = true;
  std::vector<float> host(threads);
  for (const Sweep& s : sweeps) {
    for (int n : s.n) {
      for (const auto& [label, with_far, with_near] :
           {std::tuple{"both", true, true}, std::tuple{"near", false, true}, std::tuple{"far", true, false}}) {
        const Kernel kernel = pick(s.kind, with_far, with_near);
        const float ms =
            ws::median_launch_ms([&] { kernel<<<blocks, kThreads>>>(far, near, n, iterations, sink); }, repeat);
        std::printf("overlap %s %d %s %.1f\n", name(s.kind), n, label, ms * 1e3);
        // The DRAM loads read ones: a thread's far sum is kFar x iterations (the near work adds a finite amount).
        WS_CHECK(cudaMemcpy(host.data(), sink, threads * sizeof(float), cudaMemcpyDeviceToHost));
        const float far_sum = with_far ? static_cast<float>(kFar * iterations) : 0.f;
        ok = ok && std::isfinite(host[0]) && host[0] >= far_sum;
      }
    }
  }
  WS_CHECK(cudaFree(far));
  WS_CHECK(cudaFree(near));
  WS_CHECK(cudaFree(sink));
  return ws::report_check("microbench_overlap", ok, "pairings 3");
}
