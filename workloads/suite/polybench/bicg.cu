// bicg: the two matrix-vector products of the BiCG solver's inner step (PolyBench's bicg), q = A p and s = A^T r
// for a square n x n single-precision matrix A, in two kernels as the CUDA version of PolyBench/GPU computes them
// (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes"): one thread per output element,
// 1-D blocks of 256 threads. Each thread accumulates in a register and stores once (PolyBench/GPU read-modify-writes
// the output element in global memory on every step).
//
// GPU behaviour exercised: two independent passes over the same 256 MiB matrix that differ only in the direction
// of the walk. bicg_kernel1 (q) gives each thread a row: in every step the 32 lanes of a warp read 32 different
// rows (32 separate 128-byte lines, 32 KiB apart: uncoalesced), and the following 31 steps hit those lines in L1
// if they survive, so L1 miss handling and latency bound it. bicg_kernel2 (s) gives each thread a column: one
// coalesced 128-byte line per warp per step. Only n / 256 = 32 blocks at n = 8192: one 8-warp block on 32 of the
// H100's 132 SMs, so per-SM memory parallelism, not the chip's DRAM bandwidth, sets the time.
//
// Usage: ws_bicg [--n N] [--repeat R]
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

constexpr const char* kWorkload = "bicg";
constexpr int kBlock = 256;      // PolyBench/GPU's 1-D block size
constexpr long kMaxN = 16384;    // keeps i * n + j inside int and A at 1 GiB at most

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrix.

/// q = A p: thread i walks row i of A (uncoalesced across the warp; p is read by all lanes at the same address).
__global__ void bicg_kernel1(const float* __restrict__ a, const float* __restrict__ p, float* __restrict__ q, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += a[i * n + j] * p[j];
  q[i] = sum;
}

/// s = A^T r: thread j walks column j of A (coalesced across the warp; r is a broadcast).
__global__ void bicg_kernel2(const float* __restrict__ a, const float* __restrict__ r, float* __restrict__ s, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= n) return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += r[i] * a[i * n + j];
  s[j] = sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using ws::polybench::Checker;
using ws::polybench::check_columns;
using ws::polybench::check_rows;

int usage(const char* message) {
  std::fprintf(stderr, "ws_bicg: %s\nusage: ws_bicg [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
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
  std::vector<float> host_p(length);
  std::vector<float> host_r(length);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_p, 2u);
  ws::fill_random(host_r, 3u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> p(length);
  DeviceBuffer<float> r(length);
  DeviceBuffer<float> q(length);
  DeviceBuffer<float> s(length);
  a.upload(host_a);
  p.upload(host_p);
  r.upload(host_r);
  // All-ones bytes are a NaN float: an element that a kernel skips fails the check.
  WS_CHECK(cudaMemset(q.get(), 0xFF, q.bytes()));
  WS_CHECK(cudaMemset(s.get(), 0xFF, s.bytes()));

  const unsigned blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int rep = 0; rep < repeat; ++rep) {
    timer.start();
    bicg_kernel1<<<blocks, kBlock>>>(a.get(), p.get(), q.get(), n);
    timer.stop("bicg_kernel1");
    timer.start();
    bicg_kernel2<<<blocks, kBlock>>>(a.get(), r.get(), s.get(), n);
    timer.stop("bicg_kernel2");
  }

  std::vector<float> got_q;
  std::vector<float> got_s;
  q.download(got_q);
  s.download(got_s);
  Checker checker;
  check_rows(checker, "q", host_a, host_p, got_q, n);
  check_columns(checker, "s", host_a, host_r, got_s, n);
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
