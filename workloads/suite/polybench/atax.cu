// atax: y = A^T (A x) for a square n x n single-precision matrix A (PolyBench's atax), in two kernels as the CUDA
// version of PolyBench/GPU computes it (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU
// codes"): atax_kernel1 computes tmp = A x with one thread per row, atax_kernel2 computes y = A^T tmp with one
// thread per column. 1-D blocks of 256 threads. Each thread accumulates in a register and stores once (PolyBench/GPU
// read-modify-writes the output element in global memory on every step).
//
// GPU behaviour exercised: the same 256 MiB matrix walked two ways. atax_kernel1's threads each walk their own row,
// so in every step the 32 lanes of a warp read 32 different rows (32 separate 128-byte lines, 32 KiB apart: an
// uncoalesced access); the next 31 steps find those lines in L1 if they survive, so the kernel is bound by L1 miss
// handling and latency rather than DRAM bandwidth. atax_kernel2's lanes read consecutive columns of one row in every
// step (one coalesced line per warp). Both launch only n / 256 = 32 blocks at n = 8192, i.e. one 8-warp block on 32
// of the H100's 132 SMs: low occupancy, so per-SM memory parallelism, not the whole chip's bandwidth, sets the time.
//
// Usage: ws_atax [--n N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "matvec_check.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "atax";
constexpr int kBlock = 256;      // PolyBench/GPU's 1-D block size
constexpr long kMaxN = 16384;    // keeps i * n + j inside int and A at 1 GiB at most

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrix.

/// tmp = A x: thread i walks row i of A (uncoalesced across the warp; x is read by all lanes at the same address).
__global__ void atax_kernel1(const float* __restrict__ a, const float* __restrict__ x, float* __restrict__ tmp,
                             int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += a[i * n + j] * x[j];
  tmp[i] = sum;
}

/// y = A^T tmp: thread j walks column j of A (coalesced across the warp; tmp is a broadcast).
__global__ void atax_kernel2(const float* __restrict__ a, const float* __restrict__ tmp, float* __restrict__ y,
                             int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += a[i * n + j] * tmp[i];
  y[j] = sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using ws::polybench::Checker;
using ws::polybench::check_columns;
using ws::polybench::check_rows;

int usage(const char* message) {
  std::fprintf(stderr, "ws_atax: %s\nusage: ws_atax [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
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
  std::vector<float> host_a(elements);
  std::vector<float> host_x(static_cast<std::size_t>(n));
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_x, 2u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> x(static_cast<std::size_t>(n));
  DeviceBuffer<float> tmp(static_cast<std::size_t>(n));
  DeviceBuffer<float> y(static_cast<std::size_t>(n));
  a.upload(host_a);
  x.upload(host_x);
  // All-ones bytes are a NaN float: an element that a kernel skips fails the check.
  WS_CHECK(cudaMemset(tmp.get(), 0xFF, tmp.bytes()));
  WS_CHECK(cudaMemset(y.get(), 0xFF, y.bytes()));

  const unsigned blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    atax_kernel1<<<blocks, kBlock>>>(a.get(), x.get(), tmp.get(), n);
    timer.stop("atax_kernel1");
    timer.start();
    atax_kernel2<<<blocks, kBlock>>>(a.get(), tmp.get(), y.get(), n);
    timer.stop("atax_kernel2");
  }

  // Each kernel is checked in full on its own inputs: tmp against A and x, y against A and the GPU's tmp.
  std::vector<float> got_tmp;
  std::vector<float> got_y;
  tmp.download(got_tmp);
  y.download(got_y);
  Checker checker;
  check_rows(checker, "tmp", host_a, host_x, got_tmp, n);
  check_columns(checker, "y", host_a, got_tmp, got_y, n);
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
