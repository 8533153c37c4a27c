// gemver: PolyBench's vector multiplication and matrix addition, for a square n x n single-precision matrix A:
//   A_hat = A + u1 v1^T + u2 v2^T;   x = beta * A_hat^T y + z;   w = alpha * A_hat x
// in three kernels as the CUDA version of PolyBench/GPU computes them (Grauer-Gray et al., "Auto-tuning a
// high-level language targeted to GPU codes"): gemver_kernel1 with one thread per matrix element in 32 x 8 blocks,
// gemver_kernel2 and gemver_kernel3 with one thread per vector element in 1-D blocks of 256 threads. Unlike
// PolyBench/GPU, A_hat goes to its own buffer (so that repeated runs see the same A) and the matrix-vector kernels
// accumulate in a register and store once (PolyBench/GPU read-modify-writes the element on every step).
//
// GPU behaviour exercised: three access patterns over 256 MiB matrices. gemver_kernel1 is a streaming, fully
// coalesced read of A and write of A_hat (512 MiB moved, DRAM-bandwidth bound, 262144 blocks). gemver_kernel2 walks
// columns of A_hat (coalesced: one 128-byte line per warp per step). gemver_kernel3 walks rows (the 32 lanes of a
// warp read 32 rows 32 KiB apart in each step: uncoalesced, bound by L1 miss handling). The two matrix-vector
// kernels launch only n / 256 = 32 blocks at n = 8192 (one 8-warp block on 32 of 132 SMs: low occupancy), and the
// first of them reads A_hat right after kernel1 wrote it (the last ~50 MB may still be in L2).
//
// Usage: ws_gemver [--n N] [--repeat R]
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

constexpr const char* kWorkload = "gemver";
constexpr int kBlockX = 32;      // PolyBench/GPU's 2-D block shape for the matrix update
constexpr int kBlockY = 8;
constexpr int kBlock = 256;      // and its 1-D block size for the matrix-vector products
constexpr long kMaxN = 12288;    // keeps i * n + j inside int and A plus A_hat at 1.125 GiB at most
constexpr float kAlpha = 1.5f;
constexpr float kBeta = 1.2f;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrices.

/// A_hat = A + u1 v1^T + u2 v2^T: one thread per element, j from threadIdx.x (coalesced rows).
__global__ void gemver_kernel1(const float* __restrict__ a, const float* __restrict__ u1,
                               const float* __restrict__ v1, const float* __restrict__ u2,
                               const float* __restrict__ v2, float* __restrict__ a_hat, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  a_hat[i * n + j] = a[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
}

/// x = beta * A_hat^T y + z: thread i walks column i of A_hat (coalesced across the warp; y is a broadcast).
__global__ void gemver_kernel2(const float* __restrict__ a_hat, const float* __restrict__ y,
                               const float* __restrict__ z, float* __restrict__ x, int n, float beta) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += a_hat[j * n + i] * y[j];
  x[i] = beta * sum + z[i];
}

/// w = alpha * A_hat x: thread i walks row i of A_hat (uncoalesced across the warp; x is a broadcast).
__global__ void gemver_kernel3(const float* __restrict__ a_hat, const float* __restrict__ x, float* __restrict__ w,
                               int n, float alpha) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.0f;
  for (int j = 0; j < n; ++j) sum += a_hat[i * n + j] * x[j];
  w[i] = alpha * sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using ws::polybench::Checker;
using ws::polybench::check_columns;
using ws::polybench::check_rows;

int usage(const char* message) {
  std::fprintf(stderr, "ws_gemver: %s\nusage: ws_gemver [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
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
  std::vector<float> host_u1(length);
  std::vector<float> host_v1(length);
  std::vector<float> host_u2(length);
  std::vector<float> host_v2(length);
  std::vector<float> host_y(length);
  std::vector<float> host_z(length);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_u1, 2u);
  ws::fill_random(host_v1, 3u);
  ws::fill_random(host_u2, 4u);
  ws::fill_random(host_v2, 5u);
  ws::fill_random(host_y, 6u);
  ws::fill_random(host_z, 7u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> a_hat(elements);
  DeviceBuffer<float> u1(length);
  DeviceBuffer<float> v1(length);
  DeviceBuffer<float> u2(length);
  DeviceBuffer<float> v2(length);
  DeviceBuffer<float> y(length);
  DeviceBuffer<float> z(length);
  DeviceBuffer<float> x(length);
  DeviceBuffer<float> w(length);
  a.upload(host_a);
  u1.upload(host_u1);
  v1.upload(host_v1);
  u2.upload(host_u2);
  v2.upload(host_v2);
  y.upload(host_y);
  z.upload(host_z);
  // All-ones bytes are a NaN float: an element that a kernel skips fails the check.
  WS_CHECK(cudaMemset(a_hat.get(), 0xFF, a_hat.bytes()));
  WS_CHECK(cudaMemset(x.get(), 0xFF, x.bytes()));
  WS_CHECK(cudaMemset(w.get(), 0xFF, w.bytes()));

  const dim3 block2d(kBlockX, kBlockY);
  const dim3 grid2d(static_cast<unsigned>((n + kBlockX - 1) / kBlockX),
                    static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  const unsigned blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    gemver_kernel1<<<grid2d, block2d>>>(a.get(), u1.get(), v1.get(), u2.get(), v2.get(), a_hat.get(), n);
    timer.stop("gemver_kernel1");
    timer.start();
    gemver_kernel2<<<blocks, kBlock>>>(a_hat.get(), y.get(), z.get(), x.get(), n, kBeta);
    timer.stop("gemver_kernel2");
    timer.start();
    gemver_kernel3<<<blocks, kBlock>>>(a_hat.get(), x.get(), w.get(), n, kAlpha);
    timer.stop("gemver_kernel3");
  }

  // Each kernel is checked in full on its own inputs: A_hat against A, u and v; x against the GPU's A_hat, y and z;
  // w against the GPU's A_hat and x. A_hat's magnitude is |A| + |u1 v1| + |u2 v2| (a few float roundings of it).
  std::vector<float> got_a_hat;
  std::vector<float> got_x;
  std::vector<float> got_w;
  a_hat.download(got_a_hat);
  x.download(got_x);
  w.download(got_w);
  Checker checker;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const std::size_t k = static_cast<std::size_t>(i) * length + static_cast<std::size_t>(j);
      const double a_ij = host_a[k];
      const double t1 = static_cast<double>(host_u1[i]) * static_cast<double>(host_v1[j]);
      const double t2 = static_cast<double>(host_u2[i]) * static_cast<double>(host_v2[j]);
      checker.add("A_hat", static_cast<long>(k), got_a_hat[k], a_ij + t1 + t2,
                  std::fabs(a_ij) + std::fabs(t1) + std::fabs(t2));
    }
  }
  check_columns(checker, "x", got_a_hat, host_y, got_x, n, kBeta, &host_z);
  check_rows(checker, "w", got_a_hat, got_x, got_w, n, kAlpha);
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
