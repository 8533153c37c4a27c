// DRAM bandwidth of SM loads and stores by read/write mix: streaming kernels that read R arrays and write W arrays
// (R:W from 1:0 to 0:1), far larger than L2, from a full GPU. The question: does mixing writes into a read stream
// cost DRAM bandwidth (bus turnarounds), so that a model would need a separate write rate? (On H100: little; see
// README.md.)
//
// Each thread walks the arrays with a grid stride, 16 bytes (float4) per array and step, unrolled 4 steps, so that
// many loads are in flight (latency is not the limit: Little's law needs ~2 MB in flight on H100, these keep
// 132 SMs x 2048 threads x 4 x 16 B x R). The written value is the sum of the read ones, so the check (a sample of
// every written array) proves the reads happened; a read-only kernel keeps its sum in one store per thread.
//
// Then the same mixes with plain 4-byte loads and stores (default caching: write-back L2, stores allocate), in two
// forms: `stride` (a full wave, grid stride, 4 steps unrolled) and `element` (one element per thread, a block per
// 256 elements: many short blocks, as most kernels are written). Read:write up to 1:5 (a stencil writing five arrays
// from one). Does a write-heavy mix of plain stores reach the streaming rate?
//
// Output, bytes as the kernel requests them (the counters-mode recording has the DRAM's own read and write bytes):
//   dram_mix r<R>w<W> <read GB/s> <write GB/s> <total GB/s>
//   dram_mix_plain <stride|element> r<R>w<W> <read GB/s> <write GB/s> <total GB/s>
//   check microbench_dram_mix PASS|FAIL ...
//
// Usage: ws_microbench_dram_mix [--log2-floats L (20..28, default 26: 256 MiB per array)] [--repeat R]

#include "microbench.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;
constexpr int kMaxArrays = 3;
constexpr int kMaxPlainWrites = 5;

struct Arrays {
  const float4* in[kMaxArrays];
  float4* out[kMaxArrays];
};

// The same arrays as 4-byte words, with up to five outputs.
struct PlainArrays {
  const float* in[kMaxArrays];
  float* out[kMaxPlainWrites];
};

template <int kReads, int kWrites>
__global__ void __launch_bounds__(kThreads) stream_mix(Arrays a, size_t n4, float* sink) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  float4 keep = make_float4(0, 0, 0, 0);
  for (size_t base = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; base < n4; base += stride * kUnroll) {
    float4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const float start = kReads == 0 ? 7.f : 0.f;
      v[u] = make_float4(start, start, start, start);
    }
#pragma unroll
    for (int r = 0; r < kReads; ++r) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const size_t i = base + u * stride;
        if (i < n4) {
          const float4 x = __ldcs(&a.in[r][i]);  // streaming: no reuse
          v[u].x += x.x; v[u].y += x.y; v[u].z += x.z; v[u].w += x.w;
        }
      }
    }
#pragma unroll
    for (int w = 0; w < kWrites; ++w) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const size_t i = base + u * stride;
        if (i < n4) __stcs(&a.out[w][i], v[u]);
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) keep.x += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  if (kWrites == 0) sink[blockIdx.x * blockDim.x + threadIdx.x] = keep.x;
}

// Plain loads and stores, a full wave with a grid stride (4 steps unrolled): each written word is the sum of the read
// ones plus its array's index.
template <int kReads, int kWrites>
__global__ void __launch_bounds__(kThreads) plain_stride(PlainArrays a, size_t n, float* sink) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  float keep = 0;
  for (size_t base = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; base < n; base += stride * kUnroll) {
    float v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = 0;
#pragma unroll
    for (int r = 0; r < kReads; ++r) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const size_t i = base + u * stride;
        if (i < n) v[u] += a.in[r][i];
      }
    }
#pragma unroll
    for (int w = 0; w < kWrites; ++w) {
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const size_t i = base + u * stride;
        if (i < n) a.out[w][i] = v[u] + static_cast<float>(w);
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) keep += v[u];
  }
  if (kWrites == 0) sink[blockIdx.x * blockDim.x + threadIdx.x] = keep;
}

// Plain loads and stores, one element per thread.
template <int kReads, int kWrites>
__global__ void __launch_bounds__(kThreads) plain_element(PlainArrays a, size_t n, float* sink) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float v = 0;
#pragma unroll
  for (int r = 0; r < kReads; ++r) v += a.in[r][i];
#pragma unroll
  for (int w = 0; w < kWrites; ++w) a.out[w][i] = v + static_cast<float>(w);
  if (kWrites == 0 && v == -1.f) sink[i % kThreads] = v;  // never true (inputs are positive): keeps the reads
}

__global__ void fill(float4* p, size_t n4, float value) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n4;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    p[i] = make_float4(value, value, value, value);
  }
}

struct Context {
  size_t n4 = 0;  // float4 elements per array
  int blocks = 0;
  int repeat = 0;
  Arrays arrays{};
  PlainArrays plain{};
  float* sink = nullptr;
  bool ok = true;
  std::string detail;
};

// Every written array must hold 1 + 2 + ... + R (array r holds r + 1), or 7 when nothing is read.
bool written_correctly(const Context& c, int reads, int writes) {
  const float want = reads == 0 ? 7.f : static_cast<float>(reads * (reads + 1) / 2);
  for (int w = 0; w < writes; ++w) {
    for (size_t i : {size_t{0}, c.n4 / 3, c.n4 - 1}) {
      float4 got{};
      WS_CHECK(cudaMemcpy(&got, &c.arrays.out[w][i], sizeof got, cudaMemcpyDeviceToHost));
      if (got.x != want || got.w != want) return false;
    }
  }
  return true;
}

template <int kReads, int kWrites>
void run(Context& c) {
  for (int w = 0; w < kWrites; ++w) fill<<<c.blocks, kThreads>>>(c.arrays.out[w], c.n4, -1.f);
  const float ms = ws::median_launch_ms(
      [&] { stream_mix<kReads, kWrites><<<c.blocks, kThreads>>>(c.arrays, c.n4, c.sink); }, c.repeat);
  const double bytes = static_cast<double>(c.n4) * sizeof(float4);
  const double read_gbs = kReads * bytes / (ms * 1e6);
  const double write_gbs = kWrites * bytes / (ms * 1e6);
  std::printf("dram_mix r%dw%d %.0f %.0f %.0f\n", kReads, kWrites, read_gbs, write_gbs, read_gbs + write_gbs);
  if (!written_correctly(c, kReads, kWrites)) {
    c.ok = false;
    c.detail += " r" + std::to_string(kReads) + "w" + std::to_string(kWrites) + "_wrong";
  }
}

// Every plain-written array w must hold 1 + 2 + ... + R + w.
bool plain_written_correctly(const Context& c, int reads, int writes) {
  const size_t n = c.n4 * 4;
  for (int w = 0; w < writes; ++w) {
    const float want = static_cast<float>(reads * (reads + 1) / 2 + w);
    for (size_t i : {size_t{0}, n / 3, n - 1}) {
      float got = 0;
      WS_CHECK(cudaMemcpy(&got, &c.plain.out[w][i], sizeof got, cudaMemcpyDeviceToHost));
      if (got != want) return false;
    }
  }
  return true;
}

template <int kReads, int kWrites>
void run_plain(Context& c, bool element) {
  const size_t n = c.n4 * 4;
  for (int w = 0; w < kWrites; ++w) fill<<<c.blocks, kThreads>>>(reinterpret_cast<float4*>(c.plain.out[w]), c.n4, -1.f);
  const auto grid = static_cast<unsigned>(element ? (n + kThreads - 1) / kThreads : static_cast<size_t>(c.blocks));
  const float ms = ws::median_launch_ms(
      [&] {
        if (element)
          plain_element<kReads, kWrites><<<grid, kThreads>>>(c.plain, n, c.sink);
        else
          plain_stride<kReads, kWrites><<<grid, kThreads>>>(c.plain, n, c.sink);
      },
      c.repeat);
  const double bytes = static_cast<double>(n) * sizeof(float);
  const double read_gbs = kReads * bytes / (ms * 1e6);
  const double write_gbs = kWrites * bytes / (ms * 1e6);
  std::printf("dram_mix_plain %s r%dw%d %.0f %.0f %.0f\n", element ? "element" : "stride", kReads, kWrites, read_gbs,
              write_gbs, read_gbs + write_gbs);
  if (!plain_written_correctly(c, kReads, kWrites)) {
    c.ok = false;
    c.detail += std::string(" plain_") + (element ? "element" : "stride") + "_r" + std::to_string(kReads) + "w" +
                std::to_string(kWrites) + "_wrong";
  }
}

void run_plain_mixes(Context& c, bool element) {
  run_plain<1, 0>(c, element);
  run_plain<2, 1>(c, element);
  run_plain<1, 1>(c, element);
  run_plain<1, 2>(c, element);
  run_plain<1, 5>(c, element);
  run_plain<0, 1>(c, element);
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  Context c{};
  const long log2_floats = std::clamp(ws::arg_long(argc, argv, "log2-floats", 26), 20L, 28L);
  c.n4 = (size_t{1} << log2_floats) / 4;
  c.repeat = ws::repeat_arg(argc, argv);
  c.blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / kThreads);  // one full wave
  for (int i = 0; i < kMaxArrays; ++i) {
    float4* in = nullptr;
    float4* out = nullptr;
    WS_CHECK(cudaMalloc(&in, c.n4 * sizeof(float4)));
    WS_CHECK(cudaMalloc(&out, c.n4 * sizeof(float4)));
    fill<<<c.blocks, kThreads>>>(in, c.n4, static_cast<float>(i + 1));
    c.arrays.in[i] = in;
    c.arrays.out[i] = out;
  }
  // The plain forms read the same inputs as words and write five more arrays of their own.
  for (int i = 0; i < kMaxArrays; ++i) c.plain.in[i] = reinterpret_cast<const float*>(c.arrays.in[i]);
  for (float*& out : c.plain.out) WS_CHECK(cudaMalloc(&out, c.n4 * sizeof(float4)));
  WS_CHECK(cudaMalloc(&c.sink, static_cast<size_t>(c.blocks) * kThreads * sizeof(float)));
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d floats_per_array %zu\n", prop.name, prop.multiProcessorCount, c.n4 * 4);

  run<1, 0>(c);
  run<3, 1>(c);
  run<2, 1>(c);
  run<1, 1>(c);
  run<1, 2>(c);
  run<0, 1>(c);
  run_plain_mixes(c, false);
  run_plain_mixes(c, true);

  for (float* out : c.plain.out) WS_CHECK(cudaFree(out));
  for (int i = 0; i < kMaxArrays; ++i) {
    WS_CHECK(cudaFree(const_cast<float4*>(c.arrays.in[i])));
    WS_CHECK(cudaFree(c.arrays.out[i]));
  }
  WS_CHECK(cudaFree(c.sink));
  return ws::report_check("microbench_dram_mix", c.ok, "mixes 6 plain 12" + c.detail);
}
