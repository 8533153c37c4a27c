// transpose_naive: out = in^T for a square n x n single-precision matrix (default 8192 x 8192, 256 MB each way),
// the naive kernel of the CUDA SDK's "Optimizing Matrix Transpose in CUDA" (Ruetsch & Micikevicius): one thread
// per element, out[j][i] = in[i][j].
//
// GPU behaviour exercised: coalesced reads and strided writes. threadIdx.x walks the columns of `in`, so a warp
// reads 32 consecutive floats (one 128-byte line) but writes 32 floats that are n * 4 bytes apart: 32 separate
// sectors per store instruction, each only 4 of 32 bytes written. With 32 x 8 blocks the 8 warps of a block write
// 8 consecutive floats (one full 32-byte sector) of each output row, so the partial sector writes are merged in
// L2 before reaching DRAM; the cost is in L1/L2 store transactions (8x the coalesced count).
// Launch shape: 32 x 8 = 256 threads per block, (n/32) x (n/8) = 256 x 1024 blocks; full occupancy.
//
// Usage: ws_transpose_naive [--n N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "transpose_naive";
constexpr int kBlockX = 32;  // one warp along a row of `in`
constexpr int kBlockY = 8;
constexpr long kMaxN = 16384;  // keeps the two matrices inside 2 GiB

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Row-major n x n matrices.

/// One thread per element: reads in[row][col] (coalesced along threadIdx.x), writes out[col][row] (stride n).
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= n || col >= n) return;
  out[static_cast<std::size_t>(col) * n + row] = in[static_cast<std::size_t>(row) * n + col];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr, "ws_transpose_naive: %s\nusage: ws_transpose_naive [--n N (1..%ld)] [--repeat R]\n", message,
               kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 8192);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 1 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_in(elements);
  ws::fill_random(host_in, 21u);
  DeviceBuffer<float> in(elements);
  DeviceBuffer<float> out(elements);
  in.upload(host_in);
  WS_CHECK(cudaMemset(out.get(), 0xFF, out.bytes()));  // NaN: elements the kernel skips fail the check

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX), static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    transpose_naive<<<grid, block>>>(in.get(), out.get(), n);
    timer.stop("transpose_naive");
  }

  // A transpose moves bits: compare every element exactly (as bit patterns, so that NaN fails).
  std::vector<float> got;
  out.download(got);
  std::string failure;
  for (int i = 0; i < n && failure.empty(); ++i) {
    for (int j = 0; j < n; ++j) {
      const float want = host_in[static_cast<std::size_t>(j) * n + i];
      const float have = got[static_cast<std::size_t>(i) * n + j];
      if (std::memcmp(&want, &have, sizeof(float)) != 0) {
        char text[160];
        std::snprintf(text, sizeof text, "out[%d][%d]=%.7g want in[%d][%d]=%.7g", i, j, static_cast<double>(have), j,
                      i, static_cast<double>(want));
        failure = text;
        break;
      }
    }
  }
  char detail[256];
  std::snprintf(detail, sizeof detail, "n=%d %s", n, failure.empty() ? "all elements exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
