// conv2d: 3 x 3 two-dimensional convolution of an n x n single-precision image with fixed coefficients, B = conv(A),
// on the interior points (the one-element border of B is not written), as PolyBench's 2DCONV computes it. Follows
// the CUDA version of PolyBench/GPU (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes"):
// one thread per output element, 32 x 8 thread blocks, the nine coefficients PolyBench uses compiled in as
// immediates, every input read straight from global memory (no shared-memory tiling).
//
// GPU behaviour exercised: a streaming 9-point stencil. Each warp reads three 128-byte row segments, each at three
// offsets (j-1, j, j+1: misaligned, so a load touches two lines), and writes one; neighbouring threads and the
// 8 rows of a block share those lines, so most of the 9 loads per thread hit L1, and DRAM sees A read about once
// (plus the halo rows a block shares with the block above and below, mostly L2 hits) and B written once. At
// n = 8192 (256 MiB per array, far beyond the 50 MiB L2) a launch moves about 512 MiB of DRAM traffic; measured
// ~0.29 ms on an H100 (~1.9 TB/s), bound by DRAM bandwidth with L1 load throughput close behind. 28 registers per
// thread, so 8 blocks of 256 threads (64 warps, full occupancy) fit on each SM.
//
// Usage: ws_conv2d [--n N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "conv2d";
// PolyBench/GPU's 2-D block shape: 32 threads along a row (one warp), 8 rows.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr long kMaxN = 12288;  // keeps i * n + j inside int and the two images inside 1.2 GiB

// PolyBench's 2DCONV coefficients, named here by the neighbour they weight: kW<row offset><column offset> with
// m = -1, z = 0, p = +1 (PolyBench calls them c11..c33, first digit the column offset, second the row offset).
constexpr float kWmm = +0.2f;
constexpr float kWmz = +0.5f;
constexpr float kWmp = -0.8f;
constexpr float kWzm = -0.3f;
constexpr float kWzz = +0.6f;
constexpr float kWzp = -0.9f;
constexpr float kWpm = +0.4f;
constexpr float kWpz = +0.7f;
constexpr float kWpp = +0.1f;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Row-major n x n images; (i, j) = (row, column), j from threadIdx.x so that a warp reads along a row.

/// B[i][j] = sum of the 3 x 3 neighbourhood of A[i][j], each weighted by its fixed coefficient; interior only.
__global__ void conv2d_kernel(const float* __restrict__ a, float* __restrict__ b, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1) return;
  const float* above = a + (i - 1) * n + j;
  const float* here = a + i * n + j;
  const float* below = a + (i + 1) * n + j;
  b[i * n + j] = kWmm * above[-1] + kWmz * above[0] + kWmp * above[1] +  //
                 kWzm * here[-1] + kWzz * here[0] + kWzp * here[1] +     //
                 kWpm * below[-1] + kWpz * below[0] + kWpp * below[1];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// Counts comparisons, keeps the first failure and the worst error relative to its tolerance (printed in the check
/// line, so that the tolerance's margin is visible). NaN fails.
class Checker {
 public:
  void add(const char* array, long index, float got, double want, double tolerance) {
    ++count_;
    const double error = std::fabs(static_cast<double>(got) - want);
    if (error / tolerance > worst_) worst_ = error / tolerance;
    if (!(error <= tolerance) && failure_.empty()) {
      char text[200];
      std::snprintf(text, sizeof text, "%s[%ld]=%.7g want %.7g (tolerance %.3g)", array, index,
                    static_cast<double>(got), want, tolerance);
      failure_ = text;
    }
  }
  bool ok() const { return failure_.empty(); }
  std::string summary() const {
    char text[120];
    std::snprintf(text, sizeof text, "checked=%ld worst_error/tolerance=%.3g ", count_, worst_);
    return text + (ok() ? std::string("all within tolerance") : failure_);
  }

 private:
  long count_ = 0;
  double worst_ = 0.0;
  std::string failure_;
};

int usage(const char* message) {
  std::fprintf(stderr, "ws_conv2d: %s\nusage: ws_conv2d [--n N (3..%ld)] [--repeat R]\n", message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 8192);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 3 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  ws::fill_random(host_a, 1u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> b(elements);
  a.upload(host_a);
  // All-ones bytes are a NaN float: an interior element that the kernel skips fails the check.
  WS_CHECK(cudaMemset(b.get(), 0xFF, b.bytes()));

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    conv2d_kernel<<<grid, block>>>(a.get(), b.get(), n);
    timer.stop("conv2d_kernel");
  }

  // Full check of the interior in double. Tolerance: 1e-5 of the sum of the terms' magnitudes (a 9-term float sum
  // with fused multiply-adds errs by at most ~1e-6 of it; a wrong neighbour or coefficient is off by ~0.1 or more).
  std::vector<float> got;
  b.download(got);
  Checker checker;
  const double w[3][3] = {{kWmm, kWmz, kWmp}, {kWzm, kWzz, kWzp}, {kWpm, kWpz, kWpp}};
  for (int i = 1; i < n - 1; ++i) {
    for (int j = 1; j < n - 1; ++j) {
      double sum = 0.0;
      double magnitude = 0.0;
      for (int di = -1; di <= 1; ++di) {
        const float* row = host_a.data() + static_cast<std::size_t>(i + di) * static_cast<std::size_t>(n);
        for (int dj = -1; dj <= 1; ++dj) {
          const double term = w[di + 1][dj + 1] * static_cast<double>(row[j + dj]);
          sum += term;
          magnitude += std::fabs(term);
        }
      }
      const long index = static_cast<long>(i) * n + j;
      checker.add("B", index, got[static_cast<std::size_t>(index)], sum, 1e-5 * magnitude + 1e-7);
    }
  }
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
