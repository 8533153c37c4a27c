// jacobi2d: 2-D Jacobi relaxation on an n x n single-precision grid (PolyBench's jacobi-2d-imper): each time step
// computes B = 0.2 * (5-point neighbourhood sum of A) on the interior, then copies B's interior back into A; the
// border of A stays fixed. Follows the CUDA version of PolyBench/GPU (Grauer-Gray et al., "Auto-tuning a high-level
// language targeted to GPU codes"): two kernels per step, one thread per grid point, 32 x 8 thread blocks, no
// shared-memory tiling. Iterates by nature, so there is no --repeat: `--steps` time steps (default 10, 20 launches).
//
// GPU behaviour exercised: two bandwidth-bound streaming kernels that alternate between two 64 MiB arrays (n = 4096;
// together 128 MiB, beyond the 50 MiB L2, so each step streams from DRAM). jacobi2d_kernel1 reads A's row above,
// row below and the row itself at three offsets (misaligned j-1/j+1 loads, mostly L1 hits) and writes B:
// ~128 MiB of DRAM traffic, measured ~72 us on an H100. jacobi2d_kernel2 is a plain copy of the interior (read B,
// write A), the same traffic with no reuse at all, measured ~66 us. Few registers, full occupancy (8 blocks of 256
// per SM).
//
// Usage: ws_jacobi2d [--n N] [--steps T]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "jacobi2d";
// PolyBench/GPU's 2-D block shape: 32 threads along a row (one warp), 8 rows.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr long kMaxN = 12288;   // keeps i * n + j inside int and the two grids inside 1.2 GiB
constexpr long kMaxSteps = 15;  // two launches per step: at most 30 launches

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n grids; (i, j) = (row, column), j from threadIdx.x so that a warp reads along a row.

/// B[i][j] = 0.2 * (A[i][j] + A[i][j-1] + A[i][j+1] + A[i+1][j] + A[i-1][j]) on the interior.
__global__ void jacobi2d_kernel1(const float* __restrict__ a, float* __restrict__ b, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1) return;
  const int c = i * n + j;
  b[c] = 0.2f * (a[c] + a[c - 1] + a[c + 1] + a[c + n] + a[c - n]);
}

/// A[i][j] = B[i][j] on the interior.
__global__ void jacobi2d_kernel2(float* __restrict__ a, const float* __restrict__ b, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || i >= n - 1 || j < 1 || j >= n - 1) return;
  a[i * n + j] = b[i * n + j];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// The same time steps on the CPU in float, the same operation order as the kernel (the sum then the product: no
/// fused multiply-add can form), so the results should agree to the last bit; the check still allows 1e-5 relative.
void reference(std::vector<float>& a, int n, int steps) {
  std::vector<float> b(a.size());
  const std::size_t w = static_cast<std::size_t>(n);
  for (int t = 0; t < steps; ++t) {
    for (std::size_t i = 1; i + 1 < w; ++i) {
      for (std::size_t j = 1; j + 1 < w; ++j) {
        const std::size_t c = i * w + j;
        b[c] = 0.2f * (a[c] + a[c - 1] + a[c + 1] + a[c + w] + a[c - w]);
      }
    }
    for (std::size_t i = 1; i + 1 < w; ++i) {
      for (std::size_t j = 1; j + 1 < w; ++j) a[i * w + j] = b[i * w + j];
    }
  }
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_jacobi2d: %s\nusage: ws_jacobi2d [--n N (3..%ld)] [--steps T (1..%ld)]\n", message, kMaxN,
               kMaxSteps);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long steps_arg = ws::arg_long(argc, argv, "steps", 10);
  if (n_arg < 3 || n_arg > kMaxN) return usage("--n out of range");
  if (steps_arg < 1 || steps_arg > kMaxSteps) return usage("--steps out of range");
  const int n = static_cast<int>(n_arg);
  const int steps = static_cast<int>(steps_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  ws::fill_random(host_a, 1u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> b(elements);
  a.upload(host_a);
  // All-ones bytes are a NaN float: an interior point that kernel1 skips would poison A through kernel2.
  WS_CHECK(cudaMemset(b.get(), 0xFF, b.bytes()));

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int t = 0; t < steps; ++t) {
    timer.start();
    jacobi2d_kernel1<<<grid, block>>>(a.get(), b.get(), n);
    timer.stop("jacobi2d_kernel1");
    timer.start();
    jacobi2d_kernel2<<<grid, block>>>(a.get(), b.get(), n);
    timer.stop("jacobi2d_kernel2");
  }

  std::vector<float> got;
  a.download(got);
  reference(host_a, n, steps);
  const long bad = ws::first_mismatch(got, host_a, 1e-5f, 1e-6f);
  char detail[200];
  if (bad < 0) {
    std::snprintf(detail, sizeof detail, "n=%d steps=%d all %zu points within tolerance", n, steps, elements);
  } else {
    std::snprintf(detail, sizeof detail, "n=%d steps=%d A[%ld][%ld]=%.7g want %.7g", n, steps, bad / n, bad % n,
                  static_cast<double>(got[static_cast<std::size_t>(bad)]),
                  static_cast<double>(host_a[static_cast<std::size_t>(bad)]));
  }
  return ws::report_check(kWorkload, bad < 0, detail);
}
