// conv3d: 3 x 3 x 3 three-dimensional convolution of an n x n x n single-precision volume with fixed coefficients,
// B = conv(A), on the interior points (the one-element border of B is not written), after PolyBench's 3DCONV.
// Follows the CUDA version of PolyBench/GPU (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU
// codes"): one thread per output element, 32 x 8 thread blocks over a (j, k) plane, coefficients compiled in as
// immediates, every input read straight from global memory. Two departures: PolyBench/GPU launches one kernel per
// i-plane (n launches), here one launch covers the whole volume with blockIdx.z as the plane; and all 27 neighbours
// are weighted (PolyBench's 3DCONV sums an irregular subset of them), each by its row/column coefficient from
// PolyBench's 2DCONV table times a per-plane factor.
//
// GPU behaviour exercised: a 27-point stencil streaming through a volume. Each warp reads nine 128-byte row
// segments (three rows in each of three planes), each at three offsets (k-1, k, k+1: misaligned, two lines per
// load), and writes one. Within a block most of the 27 loads per thread hit L1; across blocks the rows shared with
// the blocks above/below and the planes shared with planes i-1 and i+1 (which run close in time, since the grid is
// dispatched plane by plane) come from L2. At n = 384 (216 MiB per array) a launch moves about 432 MiB of DRAM
// traffic and 27 loads per output through L1; measured ~0.37 ms on an H100 (~1.2 TB/s of DRAM traffic), so L1
// load throughput (27 loads per output, most misaligned) and L2 traffic, rather than DRAM bandwidth, set the time.
// 32 registers per thread, so 8 blocks of 256 threads (full occupancy) fit on each SM.
//
// Usage: ws_conv3d [--n N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "conv3d";
// PolyBench/GPU's 2-D block shape: 32 threads along a row (one warp), 8 rows; blockIdx.z is the plane.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr long kMaxN = 512;      // keeps i * n * n + j * n + k inside int and the two volumes inside 1 GiB
constexpr int kSamples = 65536;  // points checked besides the full planes

/// Weight of neighbour (i + di, j + dj, k + dk): PolyBench's 2DCONV coefficient for the (dj, dk) offset times a
/// factor for the plane di. Evaluated at compile time in the unrolled kernel loop, so the weights are immediates.
__host__ __device__ constexpr float weight(int di, int dj, int dk) {
  constexpr float kPlane[3] = {0.5f, 1.0f, -0.25f};
  constexpr float kRowCol[3][3] = {{+0.2f, +0.5f, -0.8f}, {-0.3f, +0.6f, -0.9f}, {+0.4f, +0.7f, +0.1f}};
  return kPlane[di + 1] * kRowCol[dj + 1][dk + 1];
}

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Row-major n x n x n volumes, index (i * n + j) * n + k; k from threadIdx.x so that a warp reads along a row.

/// B[i][j][k] = weighted sum of the 3 x 3 x 3 neighbourhood of A[i][j][k]; interior only.
__global__ void conv3d_kernel(const float* __restrict__ a, float* __restrict__ b, int n) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int i = blockIdx.z;
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1 || k < 1 || k >= n - 1) return;
  const int center = (i * n + j) * n + k;
  const int plane = n * n;
  float sum = 0.0f;
#pragma unroll
  for (int di = -1; di <= 1; ++di) {
#pragma unroll
    for (int dj = -1; dj <= 1; ++dj) {
      const float* row = a + center + di * plane + dj * n;
#pragma unroll
      for (int dk = -1; dk <= 1; ++dk) sum += weight(di, dj, dk) * row[dk];
    }
  }
  b[center] = sum;
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

/// Checks B at interior point (i, j, k) against the convolution in double. Tolerance: 1e-5 of the sum of the terms'
/// magnitudes (a 27-term float sum errs by at most ~2e-6 of it; a wrong neighbour or weight is off by ~1e-2 or more).
void check_point(Checker& checker, const std::vector<float>& a, const std::vector<float>& got, int n, int i, int j,
                 int k) {
  const long center = (static_cast<long>(i) * n + j) * n + k;
  double sum = 0.0;
  double magnitude = 0.0;
  for (int di = -1; di <= 1; ++di) {
    for (int dj = -1; dj <= 1; ++dj) {
      for (int dk = -1; dk <= 1; ++dk) {
        const long index = center + (static_cast<long>(di) * n + dj) * n + dk;
        const double term =
            static_cast<double>(weight(di, dj, dk)) * static_cast<double>(a[static_cast<std::size_t>(index)]);
        sum += term;
        magnitude += std::fabs(term);
      }
    }
  }
  checker.add("B", center, got[static_cast<std::size_t>(center)], sum, 1e-5 * magnitude + 1e-7);
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_conv3d: %s\nusage: ws_conv3d [--n N (3..%ld)] [--repeat R]\n", message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 384);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 3 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  ws::fill_random(host_a, 1u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> b(elements);
  a.upload(host_a);
  // All-ones bytes are a NaN float: an interior element that the kernel skips fails the check.
  WS_CHECK(cudaMemset(b.get(), 0xFF, b.bytes()));

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>((n + kBlockY - 1) / kBlockY), static_cast<unsigned>(n));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    conv3d_kernel<<<grid, block>>>(a.get(), b.get(), n);
    timer.stop("conv3d_kernel");
  }

  // The full check would take ~1.5 G multiply-adds: check four whole interior planes (the first two, the middle
  // and the last, which cover the plane edges of the grid) and a deterministic scatter of points elsewhere.
  std::vector<float> got;
  b.download(got);
  Checker checker;
  const int planes[4] = {1, n > 3 ? 2 : 1, n / 2 > 0 ? n / 2 : 1, n - 2};
  for (int i : planes) {
    if (i < 1 || i > n - 2) continue;
    for (int j = 1; j < n - 1; ++j) {
      for (int k = 1; k < n - 1; ++k) check_point(checker, host_a, got, n, i, j, k);
    }
  }
  unsigned state = 12345u;
  const unsigned interior = static_cast<unsigned>(n - 2);
  for (int s = 0; s < kSamples; ++s) {
    state = state * 1664525u + 1013904223u;
    const int i = 1 + static_cast<int>((state >> 8) % interior);
    state = state * 1664525u + 1013904223u;
    const int j = 1 + static_cast<int>((state >> 8) % interior);
    state = state * 1664525u + 1013904223u;
    const int k = 1 + static_cast<int>((state >> 8) % interior);
    check_point(checker, host_a, got, n, i, j, k);
  }
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
