// gesummv: PolyBench's scalar, vector and matrix multiplication, y = alpha * A x + beta * B x for square n x n
// single-precision matrices A and B, in one kernel as the CUDA version of PolyBench/GPU computes it (Grauer-Gray et
// al., "Auto-tuning a high-level language targeted to GPU codes"): one thread per row walks that row of both
// matrices, 1-D blocks of 256 threads. Each thread accumulates in registers and stores once (PolyBench/GPU
// read-modify-writes tmp and y in global memory on every step).
//
// GPU behaviour exercised: two interleaved uncoalesced row walks. In every step the 32 lanes of a warp read 32
// different rows of A and 32 of B (64 separate 128-byte lines, 32 KiB apart), and the following 31 steps hit those
// lines in L1 if they survive: 512 MiB of matrix behind an L1 miss-handling and latency bound. Only n / 256 = 32
// blocks at n = 8192 (one 8-warp block on 32 of the H100's 132 SMs: low occupancy), so per-SM memory parallelism,
// not the chip's DRAM bandwidth, sets the time.
//
// Usage: ws_gesummv [--n N] [--repeat R]
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

constexpr const char* kWorkload = "gesummv";
constexpr int kBlock = 256;      // PolyBench/GPU's 1-D block size
constexpr long kMaxN = 12288;    // keeps i * n + j inside int and A plus B at 1.125 GiB at most
constexpr float kAlpha = 1.5f;
constexpr float kBeta = 1.2f;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Row-major n x n matrices.

/// y = alpha * A x + beta * B x: thread i walks row i of A and of B (uncoalesced across the warp; x is a broadcast).
__global__ void gesummv_kernel(const float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ x,
                               float* __restrict__ y, int n, float alpha, float beta) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum_a = 0.0f;
  float sum_b = 0.0f;
  for (int j = 0; j < n; ++j) {
    const float xj = x[j];
    sum_a += a[i * n + j] * xj;
    sum_b += b[i * n + j] * xj;
  }
  y[i] = alpha * sum_a + beta * sum_b;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using ws::polybench::Checker;

int usage(const char* message) {
  std::fprintf(stderr, "ws_gesummv: %s\nusage: ws_gesummv [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
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
  std::vector<float> host_b(elements);
  std::vector<float> host_x(length);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_b, 2u);
  ws::fill_random(host_x, 3u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> b(elements);
  DeviceBuffer<float> x(length);
  DeviceBuffer<float> y(length);
  a.upload(host_a);
  b.upload(host_b);
  x.upload(host_x);
  WS_CHECK(cudaMemset(y.get(), 0xFF, y.bytes()));  // all-ones bytes are a NaN float: skipped rows fail

  const unsigned blocks = static_cast<unsigned>((n + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    gesummv_kernel<<<blocks, kBlock>>>(a.get(), b.get(), x.get(), y.get(), n, kAlpha, kBeta);
    timer.stop("gesummv_kernel");
  }

  // Full check: magnitude is |alpha| sum |A x terms| + |beta| sum |B x terms|.
  std::vector<float> got_y;
  y.download(got_y);
  Checker checker;
  for (int i = 0; i < n; ++i) {
    const float* row_a = host_a.data() + static_cast<std::size_t>(i) * length;
    const float* row_b = host_b.data() + static_cast<std::size_t>(i) * length;
    double sum_a = 0.0;
    double sum_b = 0.0;
    double magnitude_a = 0.0;
    double magnitude_b = 0.0;
    for (int j = 0; j < n; ++j) {
      const double xj = host_x[j];
      const double term_a = static_cast<double>(row_a[j]) * xj;
      const double term_b = static_cast<double>(row_b[j]) * xj;
      sum_a += term_a;
      sum_b += term_b;
      magnitude_a += std::fabs(term_a);
      magnitude_b += std::fabs(term_b);
    }
    checker.add("y", i, got_y[i], kAlpha * sum_a + kBeta * sum_b,
                std::fabs(kAlpha) * magnitude_a + std::fabs(kBeta) * magnitude_b);
  }
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
