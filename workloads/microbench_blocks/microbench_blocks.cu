// Block turnaround: the time of grids of many short blocks, to tell the cost of handing out and retiring blocks from
// the work the blocks do. One thread per element, 256-thread blocks, grids from one wave (SMs x 8 blocks) to 262144
// blocks, three kinds of block:
//   empty - nothing (the launch microbenchmark's kernel),
//   load  - one coalesced 4-byte load per thread, kept only if it is negative (never: the data are positive),
//   copy  - one coalesced 4-byte load and one store per thread (STREAM's copy with one element per thread),
// and, for comparison at the largest size, the same copy as a grid-stride loop over one wave of blocks. The arrays
// hold blocks x 256 floats, so bytes grow with the grid and the DRAM rate of each point can be read off. Last, empty
// and load blocks with dynamic shared memory that leaves 1, 2, 4 or 8 of them on an SM (`empty_resN`, `load_resN`),
// 64 waves each: with one resident block a wave lasts one block's whole turnaround; and the largest grid's copy with
// 1, 2, 4 or 8 resident blocks (`copy_resN`, from DRAM).
//
// Output (time: median CUDA-event time of --repeat launches after a warm-up):
//   blocks <empty|load|copy|copy_stride|empty_resN|load_resN|copy_resN> grid <B> <us> <ns per block> <GB/s of requested bytes>
//   check microbench_blocks PASS|FAIL ...
//
// Usage: ws_microbench_blocks [--repeat R]

#include "microbench.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr int kThreads = 256;
constexpr unsigned kMaxBlocks = 262144;

__global__ void __launch_bounds__(kThreads) empty_block() {}

__global__ void __launch_bounds__(kThreads) load_block(const float* __restrict__ in, float* __restrict__ sink) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  const float v = in[i];
  if (v < 0.f) sink[i] = v;  // never: keeps the load
}

__global__ void __launch_bounds__(kThreads) copy_block(const float* __restrict__ in, float* __restrict__ out) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  out[i] = in[i];
}

__global__ void __launch_bounds__(kThreads)
    copy_stride(const float* __restrict__ in, float* __restrict__ out, size_t n) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += stride) out[i] = in[i];
}

// Dynamic shared memory that leaves exactly `resident` 256-thread blocks on an SM (checked by the occupancy API);
// 0 when none does.
size_t shared_for_residency(const cudaDeviceProp& prop, int resident, const void* kernel) {
  const size_t per_block = prop.sharedMemPerMultiprocessor / resident - prop.reservedSharedMemPerBlock;
  for (size_t bytes = std::min(per_block, prop.sharedMemPerBlockOptin); bytes > 1024; bytes -= 1024) {
    WS_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
    int blocks = 0;
    WS_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, bytes));
    if (blocks == resident) return bytes;
    if (blocks > resident) return 0;
  }
  return 0;
}

void report(const char* kind, unsigned blocks, float ms, double bytes) {
  std::printf("blocks %s grid %u %.1f %.3f %.0f\n", kind, blocks, ms * 1e3, ms * 1e6 / blocks, bytes / (ms * 1e6));
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  const int repeat = ws::repeat_arg(argc, argv);
  const unsigned wave = static_cast<unsigned>(prop.multiProcessorCount) * (prop.maxThreadsPerMultiProcessor / kThreads);
  const size_t max_n = size_t{kMaxBlocks} * kThreads;
  float *in = nullptr, *out = nullptr;
  WS_CHECK(cudaMalloc(&in, max_n * sizeof(float)));
  WS_CHECK(cudaMalloc(&out, max_n * sizeof(float)));
  ws::fill_floats<<<wave, kThreads>>>(in, max_n, 1.f);
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d one_wave_blocks %u\n", prop.name, prop.multiProcessorCount, wave);
  bool ok = true;
  std::string detail;
  for (unsigned blocks : {wave, 4 * wave, 16 * wave, 64 * wave, kMaxBlocks}) {
    const size_t n = size_t{blocks} * kThreads;
    report("empty", blocks, ws::median_launch_ms([&] { empty_block<<<blocks, kThreads>>>(); }, repeat), 0);
    report("load", blocks, ws::median_launch_ms([&] { load_block<<<blocks, kThreads>>>(in, out); }, repeat),
           n * sizeof(float));
    ws::fill_floats<<<wave, kThreads>>>(out, n, -1.f);
    report("copy", blocks, ws::median_launch_ms([&] { copy_block<<<blocks, kThreads>>>(in, out); }, repeat),
           2.0 * n * sizeof(float));
    if (!ws::floats_hold(out, n, 1.f)) {
      ok = false;
      detail += " copy_" + std::to_string(blocks) + "_wrong";
    }
  }
  // Residency: the same empty and one-load blocks with shared memory that leaves 1, 2, 4 or 8 of them on an SM, 64
  // waves each: with one resident block an SM runs its blocks one after another, so a wave's time is one block's
  // whole turnaround (handed out, started, finished, retired), which the dispatcher's rate cannot hide.
  for (int resident : {1, 2, 4, 8}) {
    const unsigned blocks = static_cast<unsigned>(prop.multiProcessorCount * resident * 64);
    char kind[32];
    const size_t empty_shared = shared_for_residency(prop, resident, reinterpret_cast<const void*>(empty_block));
    std::snprintf(kind, sizeof kind, "empty_res%d", resident);
    report(kind, blocks, ws::median_launch_ms([&] { empty_block<<<blocks, kThreads, empty_shared>>>(); }, repeat), 0);
    const size_t load_shared = shared_for_residency(prop, resident, reinterpret_cast<const void*>(load_block));
    std::snprintf(kind, sizeof kind, "load_res%d", resident);
    report(kind, blocks, ws::median_launch_ms([&] { load_block<<<blocks, kThreads, load_shared>>>(in, out); }, repeat),
           static_cast<double>(blocks) * kThreads * sizeof(float));
    if (empty_shared == 0 || load_shared == 0) {
      ok = false;
      detail += " residency_" + std::to_string(resident) + "_unreachable";
    }
  }
  // The largest grid's one-element copies (arrays past the L2: DRAM-bound when every block slot is used) with 1, 2, 4
  // or 8 resident blocks: how far few resident blocks, each turning over, thin the loads a DRAM copy keeps in flight.
  for (int resident : {1, 2, 4, 8}) {
    const size_t copy_shared = shared_for_residency(prop, resident, reinterpret_cast<const void*>(copy_block));
    char kind[32];
    std::snprintf(kind, sizeof kind, "copy_res%d", resident);
    ws::fill_floats<<<wave, kThreads>>>(out, max_n, -1.f);
    report(kind, kMaxBlocks,
           ws::median_launch_ms([&] { copy_block<<<kMaxBlocks, kThreads, copy_shared>>>(in, out); }, repeat),
           2.0 * max_n * sizeof(float));
    if (copy_shared == 0 || !ws::floats_hold(out, max_n, 1.f)) {
      ok = false;
      detail += " copy_res" + std::to_string(resident) + "_wrong";
    }
  }
  ws::fill_floats<<<wave, kThreads>>>(out, max_n, -1.f);
  report("copy_stride", wave, ws::median_launch_ms([&] { copy_stride<<<wave, kThreads>>>(in, out, max_n); }, repeat),
         2.0 * max_n * sizeof(float));
  if (!ws::floats_hold(out, max_n, 1.f)) {
    ok = false;
    detail += " copy_stride_wrong";
  }
  WS_CHECK(cudaFree(in));
  WS_CHECK(cudaFree(out));
  return ws::report_check("microbench_blocks", ok, "grids 5 residencies 4 copy residencies 4" + detail);
}
