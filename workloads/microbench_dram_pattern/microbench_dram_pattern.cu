// DRAM throughput by access pattern. Every kernel moves the same 2^L floats (256 MiB by default, five times the
// L2) from one array to another with one thread per element; only where the loads or the stores land changes:
//   copy_stream        out[i] = in[i]                          whole lines, in order
//   gather_line        out[i] = in[line(i)]                    whole 128-byte lines, in a random line order
//   gather_pair        out[i] = in[pair(i)]                    whole 64-byte halves of lines, random order
//   gather_sector      out[i] = in[perm(i)]                    one 4-byte word per sector, random sectors
//   gather_column      out[i] = in[column(i)]                  a warp's loads fall in 32 lines 128 bytes apart;
//                                                              each line is read whole, by 8 other warps, later
//   row_walk           out[t] = sum of in[64t .. 64t+63]       each thread walks its own 256-byte row: a warp
//                                                              request touches 32 lines, the next 7 hit its sectors
//   scatter_line / scatter_pair / scatter_sector / scatter_column   the same four patterns for the stores
// perm, line and pair are bijections (multiply-xorshift hashes modulo a power of two), so every element moves once
// and the check can recompute where. The question (the suite's scatter, local_spill and bfs kernels run at 1/3 of
// streaming DRAM bandwidth): which patterns DRAM serves slower, and which counters tell them apart. The recording in
// counters mode has per kernel the L2's missing requests and sectors for reads and writes and the DRAM bytes.
//
// Output, bytes as the kernel requests them:
//   dram_pattern <kernel> <ms> <GB/s>
//   check microbench_dram_pattern PASS|FAIL ...
//
// Usage: ws_microbench_dram_pattern [--log2-floats L (22..28, default 26)] [--repeat R]

#include "microbench.h"

#include <cstdio>
#include <string>

namespace {

constexpr int kThreads = 256;
constexpr unsigned kRowFloats = 64;

// A bijection of [0, 2^bits): multiplication by an odd constant and xor-shifts are both invertible modulo 2^bits.
__host__ __device__ unsigned perm(unsigned x, unsigned bits) {
  const unsigned mask = (bits >= 32u) ? ~0u : (1u << bits) - 1u;
  x = (x * 0x9e3779b1u + 0x7f4a7c15u) & mask;
  x ^= x >> ((bits + 1u) / 2u);
  x = (x * 0x85ebca6bu) & mask;
  x ^= x >> ((bits + 2u) / 3u);
  return (x * 0xc2b2ae35u) & mask;
}

enum class Where { kStream, kLine, kPair, kSector, kColumn };

// The element a thread's index i maps to. Lines are 32 floats, pairs (64-byte halves) 16.
__host__ __device__ unsigned place(Where where, unsigned i, unsigned bits) {
  switch (where) {
    case Where::kStream: return i;
    case Where::kLine: return perm(i >> 5, bits - 5) << 5 | (i & 31u);
    case Where::kPair: return perm(i >> 4, bits - 4) << 4 | (i & 15u);
    case Where::kSector: return perm(i, bits);
    case Where::kColumn: {
      const unsigned rows = 1u << (bits - 5);  // a (rows x 32) view, walked down its columns
      return (i & (rows - 1)) << 5 | (i >> (bits - 5));
    }
  }
  return i;
}

template <Where kLoad>
__global__ void __launch_bounds__(kThreads)
    gather(const float* __restrict__ in, float* __restrict__ out, unsigned bits) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[place(kLoad, i, bits)];
}

template <Where kStore>
__global__ void __launch_bounds__(kThreads)
    scatter(const float* __restrict__ in, float* __restrict__ out, unsigned bits) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[place(kStore, i, bits)] = in[i];
}

__global__ void __launch_bounds__(kThreads) row_walk(const float* __restrict__ in, float* __restrict__ out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const float* row = in + static_cast<size_t>(t) * kRowFloats;
  float sum = 0.f;
  for (unsigned k = 0; k < kRowFloats; ++k) sum += row[k];
  out[t] = sum;
}

// in[j] = j mod 4096, exact in a float; so out tells which element arrived.
__global__ void fill_index(float* p, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = static_cast<float>(i & 4095u);
}

struct Context {
  unsigned bits = 0;
  unsigned n = 0;
  int repeat = 0;
  float* in = nullptr;
  float* out = nullptr;
  bool ok = true;
  std::string detail;
};

void report(const char* name, float ms, double bytes) {
  std::printf("dram_pattern %s %.4f %.0f\n", name, ms, bytes / (ms * 1e6));
}

float element(const float* device, unsigned i) {
  float v = 0;
  WS_CHECK(cudaMemcpy(&v, device + i, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

// out[i] must be in[place(i)] (gather) or out[place(i)] must be in[i] (scatter), on a sample of i.
void check_moved(Context& c, const char* name, Where where, bool is_gather) {
  for (unsigned i : {0u, 1u, 31u, 32u, 4097u, c.n / 3u, c.n - 1u}) {
    const unsigned j = place(where, i, c.bits);
    const float got = is_gather ? element(c.out, i) : element(c.out, j);
    const float want = static_cast<float>((is_gather ? j : i) & 4095u);
    if (got != want) {
      c.ok = false;
      c.detail += std::string(" ") + name + "_wrong";
      return;
    }
  }
}

// One pattern's median time and bandwidth, then its check. kGather: the loads land there, else the stores.
template <Where kWhere, bool kGather>
void run_move(Context& c, const char* name) {
  const unsigned blocks = c.n / kThreads;
  const float ms = ws::median_launch_ms(
      [&] {
        if constexpr (kGather)
          gather<kWhere><<<blocks, kThreads>>>(c.in, c.out, c.bits);
        else
          scatter<kWhere><<<blocks, kThreads>>>(c.in, c.out, c.bits);
      },
      c.repeat);
  report(name, ms, 2.0 * c.n * sizeof(float));
  check_moved(c, name, kWhere, kGather);
}

void run_row_walk(Context& c) {
  const unsigned threads = c.n / kRowFloats;
  const float ms = ws::median_launch_ms([&] { row_walk<<<threads / kThreads, kThreads>>>(c.in, c.out); }, c.repeat);
  report("row_walk", ms, (static_cast<double>(c.n) + threads) * sizeof(float));
  // Row t holds t*64 .. t*64+63 mod 4096: 64 consecutive values, their sum known in closed form.
  for (unsigned t : {0u, 7u, threads - 1u}) {
    const unsigned first = (t * kRowFloats) & 4095u;
    const float want = static_cast<float>(kRowFloats * first + kRowFloats * (kRowFloats - 1) / 2);
    if (element(c.out, t) != want) {
      c.ok = false;
      c.detail += " row_walk_wrong";
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  Context c{};
  c.bits = static_cast<unsigned>(std::clamp(ws::arg_long(argc, argv, "log2-floats", 26), 22L, 28L));
  c.n = 1u << c.bits;
  c.repeat = ws::repeat_arg(argc, argv);
  WS_CHECK(cudaMalloc(&c.in, size_t{c.n} * sizeof(float)));
  WS_CHECK(cudaMalloc(&c.out, size_t{c.n} * sizeof(float)));
  fill_index<<<c.n / kThreads, kThreads>>>(c.in, c.n);
  WS_CHECK(cudaDeviceSynchronize());
  std::printf("device %s sms %d floats %u\n", prop.name, prop.multiProcessorCount, c.n);

  run_move<Where::kStream, true>(c, "copy_stream");
  run_move<Where::kLine, true>(c, "gather_line");
  run_move<Where::kPair, true>(c, "gather_pair");
  run_move<Where::kSector, true>(c, "gather_sector");
  run_move<Where::kColumn, true>(c, "gather_column");
  run_row_walk(c);
  run_move<Where::kLine, false>(c, "scatter_line");
  run_move<Where::kPair, false>(c, "scatter_pair");
  run_move<Where::kSector, false>(c, "scatter_sector");
  run_move<Where::kColumn, false>(c, "scatter_column");

  WS_CHECK(cudaFree(c.in));
  WS_CHECK(cudaFree(c.out));
  return ws::report_check("microbench_dram_pattern", c.ok, "patterns 10" + c.detail);
}
