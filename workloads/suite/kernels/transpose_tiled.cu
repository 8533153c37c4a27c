// transpose_tiled: out = in^T for a square n x n single-precision matrix (default 8192 x 8192, 256 MB each way)
// through shared memory, as in the CUDA SDK's "Optimizing Matrix Transpose in CUDA" (Ruetsch & Micikevicius): a
// 32 x 8 thread block loads a 32 x 32 tile with coalesced reads (4 rows per thread), synchronises, and writes the
// transposed tile with coalesced writes, reading the tile by columns. Two kernels differ only in the tile's row
// pitch:
//   - transpose_tiled_padded:    float tile[32][33]: a tile column spans 32 different banks (conflict-free);
//   - transpose_tiled_conflicts: float tile[32][32]: the 32 words of a tile column are all in one bank, so each
//     shared-memory read of the write phase is a 32-way bank conflict (replayed 32 times).
//
// GPU behaviour exercised: shared-memory bank conflicts (32-way vs none) on top of a DRAM-bound, fully coalesced
// copy (512 MB moved per launch), and a __syncthreads() between the load and store phases.
// Launch shape: 32 x 8 = 256 threads per block, (n/32) x (n/32) = 256 x 256 blocks; 4.2 KB (4 KB) of shared memory
// per block and few registers, so 8 blocks (64 warps) per SM.
//
// Usage: ws_transpose_tiled [--n N (multiple of 32)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "transpose_tiled";
constexpr int kTile = 32;       // tile edge: one warp spans a tile row
constexpr int kBlockRows = 8;   // 32 x 8 threads, each moves kTile / kBlockRows = 4 elements
constexpr long kMaxN = 16384;   // keeps the two matrices inside 2 GiB

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrices, n a multiple of kTile (checked on the host), so no bounds checks are needed
// and every thread reaches the barrier.

/// The tile row pitch is kTile + 1 words, so tile[tx][ty + j] for tx = 0..31 falls in 32 different banks.
__global__ void transpose_tiled_padded(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  int col = blockIdx.x * kTile + tx;
  int row = blockIdx.y * kTile + ty;
  for (int j = 0; j < kTile; j += kBlockRows) tile[ty + j][tx] = in[static_cast<std::size_t>(row + j) * n + col];
  __syncthreads();
  // The block writes the transposed tile: output tile (blockIdx.x, blockIdx.y) swapped.
  col = blockIdx.y * kTile + tx;
  row = blockIdx.x * kTile + ty;
  for (int j = 0; j < kTile; j += kBlockRows) out[static_cast<std::size_t>(row + j) * n + col] = tile[tx][ty + j];
}

/// Identical except for the unpadded tile: tile[tx][ty + j] for tx = 0..31 are 32 words apart, all in one bank.
__global__ void transpose_tiled_conflicts(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTile][kTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  int col = blockIdx.x * kTile + tx;
  int row = blockIdx.y * kTile + ty;
  for (int j = 0; j < kTile; j += kBlockRows) tile[ty + j][tx] = in[static_cast<std::size_t>(row + j) * n + col];
  __syncthreads();
  col = blockIdx.y * kTile + tx;
  row = blockIdx.x * kTile + ty;
  for (int j = 0; j < kTile; j += kBlockRows) out[static_cast<std::size_t>(row + j) * n + col] = tile[tx][ty + j];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// A transpose moves bits: compares every element exactly (as bit patterns, so that NaN fails).
std::string check_transpose(const char* name, const std::vector<float>& got, const std::vector<float>& in, int n) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const float want = in[static_cast<std::size_t>(j) * n + i];
      const float have = got[static_cast<std::size_t>(i) * n + j];
      if (std::memcmp(&want, &have, sizeof(float)) != 0) {
        char text[160];
        std::snprintf(text, sizeof text, "%s: out[%d][%d]=%.7g want %.7g", name, i, j, static_cast<double>(have),
                      static_cast<double>(want));
        return text;
      }
    }
  }
  return "";
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_transpose_tiled: %s\nusage: ws_transpose_tiled [--n N (multiple of %d, <= %ld)] [--repeat R]\n",
               message, kTile, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 8192);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < kTile || n_arg > kMaxN || n_arg % kTile != 0) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_in(elements);
  ws::fill_random(host_in, 22u);
  DeviceBuffer<float> in(elements);
  DeviceBuffer<float> out_padded(elements);
  DeviceBuffer<float> out_conflicts(elements);
  in.upload(host_in);
  WS_CHECK(cudaMemset(out_padded.get(), 0xFF, out_padded.bytes()));  // NaN: skipped elements fail the check
  WS_CHECK(cudaMemset(out_conflicts.get(), 0xFF, out_conflicts.bytes()));

  const dim3 block(kTile, kBlockRows);
  const dim3 grid(static_cast<unsigned>(n / kTile), static_cast<unsigned>(n / kTile));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    transpose_tiled_padded<<<grid, block>>>(in.get(), out_padded.get(), n);
    timer.stop("transpose_tiled_padded");
    timer.start();
    transpose_tiled_conflicts<<<grid, block>>>(in.get(), out_conflicts.get(), n);
    timer.stop("transpose_tiled_conflicts");
  }

  std::vector<float> got;
  out_padded.download(got);
  std::string failure = check_transpose("padded", got, host_in, n);
  if (failure.empty()) {
    out_conflicts.download(got);
    failure = check_transpose("conflicts", got, host_in, n);
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%d %s", n, failure.empty() ? "all elements of both outputs exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
