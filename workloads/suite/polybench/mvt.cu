// mvt: the matrix-vector product and transpose (PolyBench's mvt), x1 += A y1 and x2 += A^T y2 for a square n x n
// single-precision matrix A, in two kernels as the CUDA version of PolyBench/GPU computes them (Grauer-Gray et al.,
// "Auto-tuning a high-level language targeted to GPU codes"): one thread per output element, 1-D blocks of 256
// threads. Each thread accumulates in a register, then adds to and stores its output element once (PolyBench/GPU
// read-modify-writes the element in global memory on every step).
//
// GPU behaviour exercised: the same 256 MiB matrix walked by rows and by columns. mvt_kernel1 (x1) gives each
// thread a row: in every step the 32 lanes of a warp read 32 different rows (32 separate 128-byte lines, 32 KiB
// apart: uncoalesced), and the following 31 steps hit those lines in L1 if they survive, so L1 miss handling and
// latency bound it. mvt_kernel2 (x2) gives each thread a column: one coalesced 128-byte line per warp per step.
// Only n / 256 = 32 blocks at n = 8192: one 8-warp block on 32 of the H100's 132 SMs, so per-SM memory
// parallelism, not the chip's DRAM bandwidth, sets the time.
//
// Usage: ws_mvt [--n N] [--repeat R]
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

constexpr const char* kWorkload = "mvt";
constexpr int kBlock = 256;      // PolyBench/GPU's 1-D block size
constexpr long kMaxN = 16384;    // keeps i * n + j inside int and A at 1 GiB at most

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrix.

/// x1 += A y1: thread i walks row i of A (uncoalesced across the warp; y1 is a broadcast).
__global__ void mvt_kernel1(const float* __restrict__ a, const float* __restrict__ y1, float* __restrict__ x1, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += a[i * n + j] * y1[j];
  x1[i] += sum;
}

/// x2 += A^T y2: thread i walks column i of A (coalesced across the warp; y2 is a broadcast).
__global__ void mvt_kernel2(const float* __restrict__ a, const float* __restrict__ y2, float* __restrict__ x2, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += a[j * n + i] * y2[j];
  x2[i] += sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using ws::polybench::Checker;
using ws::polybench::check_columns;
using ws::polybench::check_rows;

int usage(const char* message) {
  std::fprintf(stderr, "ws_mvt: %s\nusage: ws_mvt [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
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
  const std::size_t length = static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  std::vector<float> host_y1(length);
  std::vector<float> host_y2(length);
  std::vector<float> host_x1(length);
  std::vector<float> host_x2(length);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_y1, 2u);
  ws::fill_random(host_y2, 3u);
  ws::fill_random(host_x1, 4u);
  ws::fill_random(host_x2, 5u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> y1(length);
  DeviceBuffer<float> y2(length);
  DeviceBuffer<float> x1(length);
  DeviceBuffer<float> x2(length);
  a.upload(host_a);
  y1.upload(host_y1);
  y2.upload(host_y2);

  const unsigned blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    // x1 and x2 are updated in place: every repetition starts from the same values (untimed, 2 x 32 KiB).
    x1.upload(host_x1);
    x2.upload(host_x2);
    timer.start();
    mvt_kernel1<<<blocks, kBlock>>>(a.get(), y1.get(), x1.get(), n);
    timer.stop("mvt_kernel1");
    timer.start();
    mvt_kernel2<<<blocks, kBlock>>>(a.get(), y2.get(), x2.get(), n);
    timer.stop("mvt_kernel2");
  }

  std::vector<float> got_x1;
  std::vector<float> got_x2;
  x1.download(got_x1);
  x2.download(got_x2);
  Checker checker;
  check_rows(checker, "x1", host_a, host_y1, got_x1, n, 1.0, &host_x1);
  check_columns(checker, "x2", host_a, host_y2, got_x2, n, 1.0, &host_x2);
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
