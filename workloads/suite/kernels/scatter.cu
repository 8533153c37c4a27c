// scatter: out[idx[i]] = in[i] over 2^26 floats, the indexed-store ("scatter") pattern of permutations, sorting's
// final placement and sparse updates (the SCATTER kernel of the RAJAPerf / Spatter gather-scatter benchmarks):
//   scatter_random  - idx is a pseudo-random permutation of [0, n) (a bijective integer hash, so every element is
//                     written exactly once): a warp's 32 4-byte stores land in ~32 different sectors spread over
//                     the 256 MiB output, i.e. partial-sector writes the L2 must merge before writing back to DRAM.
//   scatter_strided - out[(i mod (n/32)) * 32 + i / (n/32)] = in[i], computed in the kernel (no index array):
//                     consecutive threads store 32 floats = 128 bytes apart, one line per lane, every line
//                     eventually filled completely (a transposition of an (n/32) x 32 view of the array).
// in and idx are read coalesced. One thread per element, 262144 blocks of 256 threads, ~10 registers.
//
// GPU behaviour exercised: uncoalesced stores (one L2 write transaction per lane, 4 useful bytes per 32-byte
// sector) and the L2 write-back / DRAM read-modify-write behaviour of partially written sectors, random against
// regular. Measured on one H100 SXM (CUDA events): scatter_random 4.9 ms, scatter_strided 3.35 ms (the contiguous
// in/idx reads alone would take ~0.2 ms).
//
// Usage: ws_scatter [--log2-n L (10..26)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "scatter";
constexpr int kThreads = 256;
constexpr unsigned kStride = 32;  // floats between consecutive threads' stores in scatter_strided

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels.

__global__ void scatter_random(const float* __restrict__ in, const unsigned* __restrict__ idx, float* __restrict__ out,
                               unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[idx[i]] = in[i];
}

/// rows = n / 32: element i goes to row i % rows, column i / rows of a rows x 32 row-major matrix.
__global__ void scatter_strided(const float* __restrict__ in, float* __restrict__ out, unsigned n, unsigned rows) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[(i % rows) * kStride + i / rows] = in[i];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// A bijection of [0, 2^bits): odd multiplications and xor-shifts, each invertible modulo 2^bits.
unsigned permute(unsigned x, unsigned bits) {
  const unsigned mask = (bits == 32u) ? ~0u : (1u << bits) - 1u;
  x = (x * 0x2c1b3c6du + 0x297a2d39u) & mask;
  x ^= x >> (bits / 2u);
  x = (x * 0x9e3779b1u) & mask;
  x ^= x >> (bits / 3u + 1u);
  x = (x * 0x85ebca6bu) & mask;
  x ^= x >> (bits / 2u);
  return x;
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_scatter: %s\nusage: ws_scatter [--log2-n L (10..26)] [--repeat R]\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long log2_n = ws::arg_long(argc, argv, "log2-n", 26);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (log2_n < 10 || log2_n > 26) return usage("--log2-n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const unsigned n = 1u << log2_n;
  const unsigned rows = n / kStride;
  const int repeat = static_cast<int>(repeat_arg);

  std::vector<float> host_in(n);
  ws::fill_random(host_in, 51u);
  std::vector<unsigned> host_idx(n);
  for (unsigned i = 0; i < n; ++i) host_idx[i] = permute(i, static_cast<unsigned>(log2_n));

  DeviceBuffer<float> in(n);
  DeviceBuffer<unsigned> idx(n);
  DeviceBuffer<float> out_random(n);
  DeviceBuffer<float> out_strided(n);
  in.upload(host_in);
  idx.upload(host_idx);
  WS_CHECK(cudaMemset(out_random.get(), 0xFF, out_random.bytes()));  // NaN: unwritten elements fail
  WS_CHECK(cudaMemset(out_strided.get(), 0xFF, out_strided.bytes()));

  const unsigned blocks = (n + kThreads - 1) / kThreads;
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    scatter_random<<<blocks, kThreads>>>(in.get(), idx.get(), out_random.get(), n);
    timer.stop("scatter_random");
    timer.start();
    scatter_strided<<<blocks, kThreads>>>(in.get(), out_strided.get(), n, rows);
    timer.stop("scatter_strided");
  }

  std::vector<float> got_random;
  std::vector<float> got_strided;
  out_random.download(got_random);
  out_strided.download(got_strided);
  // Every output element must hold the input element that maps to it. Because each mapping is a bijection, also
  // checking that no output is left NaN is implied: every position is some element's target.
  std::string failure;
  for (unsigned i = 0; i < n; ++i) {
    const unsigned to_random = host_idx[i];
    const unsigned to_strided = (i % rows) * kStride + i / rows;
    const char* which = got_random[to_random] != host_in[i]
                            ? "scatter_random"
                            : (got_strided[to_strided] != host_in[i] ? "scatter_strided" : nullptr);
    if (which != nullptr) {
      char text[160];
      std::snprintf(text, sizeof text, "%s: element %u not found at its target (random %u, strided %u)", which, i,
                    to_random, to_strided);
      failure = text;
      break;
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%u %s", n, failure.empty() ? "all exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
