// DRAM latency under streaming load. Coalesced 4-byte loads (one 128-byte line per warp load) stream through an
// array far larger than L2, each warp keeping exactly U loads in flight (U independent loads unrolled in the loop
// body, the loop itself not unrolled), from W warps on every SM (W/8 blocks of 256 threads per SM, one wave).
// Read-only kernels sum what they read; copy kernels store every loaded value to a second array (1:1 read/write,
// like STREAM's copy). With the bytes in flight known, Little's law gives the latency each load saw:
//   latency = read bytes in flight / read bandwidth = (SMs x W x U x 128 B) / (read bytes / time).
// As W x U grows the bandwidth approaches the DRAM's sustained rate and the latency grows: the curve a model needs
// when a kernel's loads in flight, not the DRAM's bandwidth, set its time (the validation suite's stream_copy keeps
// one 4-byte load per warp in flight and moves ~2.4 TB/s on H100, below the 2.8 TB/s of microbench_dram_mix).
//
// With --peer 1 the array read lives on GPU 1 and GPU 0's kernels read it over the link between them (peer access, as
// workloads/remote_access does); copies write to GPU 0's memory. The same curve then holds a remote load's latency
// under load: what the link and the peer's memory give at each number of lines in flight.
//
// With --host 1 the array read is pinned host memory mapped into GPU 0 (cudaHostAllocMapped): the kernels read it
// zero-copy over PCIe (paper 002's host-memory case, workloads/remote_access --remote host); copies write to GPU 0's
// memory. With --sms S (light load) the curve's first points give a host load's round trip.
//
// With --sms S only S blocks of 8 warps run (one on each of S SMs: light load) and U goes to 16, reads only: how
// long a warp's group of U loads in flight waits for its slowest at a DRAM the rest of the GPU leaves idle, the
// latency a few-block kernel's unrolled loop sees (correlation's column passes: 8 blocks, 16 loads in flight).
//
// Output, one line per kernel (bytes as requested; time the median CUDA-event time of --repeat launches):
//   inflight <read|copy|peer_read|peer_copy|host_read|host_copy> warps_per_sm <W> loads_per_warp <U> <us>
//            <read GB/s> <total GB/s>
//            <latency ns>
//   check microbench_dram_inflight PASS|FAIL ...
//
// Usage: ws_microbench_dram_inflight [--log2-floats L (22..28, default 26: 256 MiB per array)] [--repeat R] [--peer 1]
//                                   [--host 1]
//                                   [--sms S] [--ldg 1 (loads through the read-only path, __ldg, instead of __ldcs)]
//                                   [--window-log2-floats W (each launch reads the next 2^W floats of the array)]

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kWarpLoadBytes = 32 * sizeof(float);

template <int kInFlight, bool kCopy, bool kReadOnlyPath>
__global__ void __launch_bounds__(kThreads)
    stream(const float* __restrict__ in, float* __restrict__ out, size_t n, float* sink) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  float sum = 0;
#pragma unroll 1
  for (size_t base = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; base < n; base += stride * kInFlight) {
    float v[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      const size_t i = base + u * stride;
      v[u] = i < n ? (kReadOnlyPath ? __ldg(&in[i]) : __ldcs(&in[i])) : 0.f;
    }
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      const size_t i = base + u * stride;
      if (kCopy) {
        if (i < n) __stcs(&out[i], v[u]);
      } else {
        sum += v[u];
      }
    }
  }
  if (!kCopy) sink[blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x] = sum;
}

__global__ void fill(float* p, size_t n, float value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    p[i] = value;
  }
}

struct Context {
  size_t n = 0;  // floats per array
  int sms = 0;
  int repeat = 0;
  float* in = nullptr;
  float* out = nullptr;
  float* sink = nullptr;
  bool peer = false;  // `in` on GPU 1, read by GPU 0 over the link
  bool host = false;  // `in` in pinned host memory mapped into GPU 0, read over PCIe
  bool ldg = false;   // loads through the read-only path (__ldg: LDG.E.CONSTANT) instead of __ldcs
  size_t window = 0;  // floats each launch reads (0: the whole array), the next window each launch
  size_t launches = 0;
  bool ok = true;
  std::string detail;
};

// Every element of `in` is 1, so the copy holds 1 everywhere and the read-only sums add up to n.
bool result_correct(const Context& c, bool copy, int blocks) {
  if (copy) {
    const size_t n = c.window ? c.window : c.n;
    for (size_t i : {size_t{0}, n / 3, n - 1}) {
      float got = 0;
      WS_CHECK(cudaMemcpy(&got, &c.out[i], sizeof got, cudaMemcpyDeviceToHost));
      if (got != 1.f) return false;
    }
    return true;
  }
  const size_t threads = static_cast<size_t>(blocks) * kThreads;
  std::vector<float> sums(threads);
  WS_CHECK(cudaMemcpy(sums.data(), c.sink, threads * sizeof(float), cudaMemcpyDeviceToHost));
  double total = 0;
  for (float s : sums) total += s;
  return total == static_cast<double>(c.window ? c.window : c.n);
}

template <int kInFlight, bool kCopy>
void run(Context& c, int warps_per_sm) {
  const int blocks = c.sms * warps_per_sm / (kThreads / 32);
  if (kCopy) fill<<<c.sms * 8, kThreads>>>(c.out, c.n, -1.f);
  const size_t n = c.window ? c.window : c.n;
  const float ms = ws::median_launch_ms(
      [&] {
        // With a window, each launch reads the next one: data no launch read since the L2 could hold it.
        const float* in = c.window ? c.in + (c.launches++ % (c.n / c.window)) * c.window : c.in;
        if (c.ldg) {
          stream<kInFlight, kCopy, true><<<blocks, kThreads>>>(in, c.out, n, c.sink);
        } else {
          stream<kInFlight, kCopy, false><<<blocks, kThreads>>>(in, c.out, n, c.sink);
        }
      },
      c.repeat);
  const double read_bytes = static_cast<double>(n) * sizeof(float);
  const double read_gbs = read_bytes / (ms * 1e6);
  const double in_flight = static_cast<double>(c.sms) * warps_per_sm * kInFlight * kWarpLoadBytes;
  const double latency_ns = in_flight / read_gbs;  // bytes / (GB/s) = ns
  const char* where = c.peer ? "peer_" : c.host ? "host_" : "";
  const std::string kind = std::string(where) + (kCopy ? "copy" : "read") + (c.ldg ? "_ldg" : "");
  std::printf("inflight %s warps_per_sm %d loads_per_warp %d %.1f %.0f %.0f %.0f\n", kind.c_str(), warps_per_sm,
              kInFlight, ms * 1e3, read_gbs, read_gbs * (kCopy ? 2 : 1), latency_ns);
  if (!result_correct(c, kCopy, blocks)) {
    c.ok = false;
    c.detail += " " + kind + "_w" + std::to_string(warps_per_sm) + "_u" + std::to_string(kInFlight) + "_wrong";
  }
}

// Light load: one block of 8 warps on each of c.sms SMs, reads only, U from 1 to 16.
void light_sweep(Context& c) {
  constexpr int kWarps = kThreads / 32;
  run<1, false>(c, kWarps);
  run<2, false>(c, kWarps);
  run<4, false>(c, kWarps);
  run<8, false>(c, kWarps);
  run<16, false>(c, kWarps);
}

template <bool kCopy>
void sweep(Context& c) {
  for (int warps : {8, 16, 32, 64}) {
    run<1, kCopy>(c, warps);
    run<2, kCopy>(c, warps);
    run<4, kCopy>(c, warps);
    run<8, kCopy>(c, warps);
  }
}

// The array read: on GPU 0, or with --peer 1 on GPU 1 with GPU 0 granted access to it (exits with a message when there
// is no second GPU or no peer access). Filled with ones on its own GPU.
float* read_array(Context& c) {
  float* in = nullptr;
  if (c.host) {
    float* host = nullptr;
    WS_CHECK(cudaHostAlloc(&host, c.n * sizeof(float), cudaHostAllocMapped));
    std::fill(host, host + c.n, 1.f);
    WS_CHECK(cudaHostGetDevicePointer(&in, host, 0));
    return in;
  }
  const int home = c.peer ? 1 : 0;
  if (c.peer) {
    int gpus = 0, can = 0;
    WS_CHECK(cudaGetDeviceCount(&gpus));
    if (gpus >= 2) WS_CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
    if (!can) {
      std::fprintf(stderr, "microbench_dram_inflight: --peer needs two GPUs with peer access (found %d)\n", gpus);
      std::exit(2);
    }
    WS_CHECK(cudaDeviceEnablePeerAccess(1, 0));
  }
  WS_CHECK(cudaSetDevice(home));
  WS_CHECK(cudaMalloc(&in, c.n * sizeof(float)));
  fill<<<c.sms * 8, kThreads>>>(in, c.n, 1.f);
  WS_CHECK(cudaDeviceSynchronize());
  WS_CHECK(cudaSetDevice(0));
  return in;
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  Context c{};
  const long log2_floats = std::clamp(ws::arg_long(argc, argv, "log2-floats", 26), 22L, 28L);
  c.n = size_t{1} << log2_floats;
  c.repeat = ws::repeat_arg(argc, argv);
  c.sms = prop.multiProcessorCount;
  const long light_sms = ws::arg_long(argc, argv, "sms", 0);
  if (light_sms > 0) c.sms = static_cast<int>(std::min<long>(light_sms, prop.multiProcessorCount));
  c.peer = ws::arg_long(argc, argv, "peer", 0) != 0;
  c.host = !c.peer && ws::arg_long(argc, argv, "host", 0) != 0;
  c.ldg = ws::arg_long(argc, argv, "ldg", 0) != 0;
  const long window_log2 = ws::arg_long(argc, argv, "window-log2-floats", 0);
  if (window_log2 > 0 && window_log2 < log2_floats) c.window = size_t{1} << window_log2;
  c.in = read_array(c);
  WS_CHECK(cudaMalloc(&c.out, c.n * sizeof(float)));
  WS_CHECK(cudaMalloc(&c.sink, static_cast<size_t>(c.sms) * 64 * 32 * sizeof(float)));
  std::printf("device %s sms %d floats_per_array %zu%s%s\n", prop.name, c.sms, c.n,
              c.peer   ? " read_from_gpu 1"
              : c.host ? " read_from_host"
                       : "",
              light_sms > 0 ? " light" : "");
  if (light_sms > 0) {
    light_sweep(c);
  } else {
    sweep<false>(c);
    sweep<true>(c);
  }
  if (c.host) {
    WS_CHECK(cudaFreeHost(c.in));  // the mapped pointer is the host pointer (unified addressing)
  } else {
    WS_CHECK(cudaFree(c.in));
  }
  WS_CHECK(cudaFree(c.out));
  WS_CHECK(cudaFree(c.sink));
  return ws::report_check("microbench_dram_inflight", c.ok,
                          std::string(light_sms > 0 ? "kernels 5" : "kernels 32") + c.detail);
}
