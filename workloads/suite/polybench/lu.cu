// lu: the first steps of an in-place LU decomposition without pivoting of an n x n single-precision matrix, as
// PolyBench's lu computes it: step k divides row k right of the diagonal by the pivot A[k][k] (Crout's form: U has
// a unit diagonal, L keeps the pivots), then subtracts A[i][k] * A[k][j] from every trailing element A[i][j],
// i, j > k. Follows the CUDA version of PolyBench/GPU (Grauer-Gray et al., "Auto-tuning a high-level
// language targeted to GPU codes"): two kernels per step, lu_kernel1 with one thread per column (1-D blocks of 256)
// and lu_kernel2 with one thread per matrix element over the whole matrix (32 x 8 blocks; the threads outside the
// trailing submatrix exit at once). The full factorisation would take 2n launches: only the first `--steps` steps
// are run (default 10, 20 launches) and checked against the CPU doing the same steps. The matrix is diagonally
// dominant (random entries in [-1, 1) plus n on the diagonal), so no pivoting is needed and values stay tame.
//
// GPU behaviour exercised: lu_kernel2 is a bandwidth-bound rank-1 update of a 64 MiB matrix (n = 4096; beyond the
// 50 MiB L2 only just, so part of each step's matrix is still in L2 from the step before): each warp reads and
// writes one 128-byte row segment, plus A[i][k] (one address per warp: a broadcast, the column walked across the
// 8 rows of a block) and A[k][j] (one row shared by every block: an L1/L2 hit). ~128 MiB of traffic, measured
// ~67 us on an H100. lu_kernel1 is tiny (one 16 KiB row, 16 blocks): ~6 us, launch-overhead and latency bound,
// kept because it is PolyBench's. Few registers, full occupancy.
//
// Usage: ws_lu [--n N] [--steps S]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "lu";
constexpr int kBlock1 = 256;  // PolyBench/GPU's 1-D block size (lu_kernel1)
constexpr int kBlockX = 32;   // PolyBench/GPU's 2-D block shape (lu_kernel2)
constexpr int kBlockY = 8;
constexpr long kMaxN = 16384;   // keeps i * n + j inside int and the matrix inside 1 GiB
constexpr long kMaxSteps = 15;  // two launches per step: at most 30 launches

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrix, updated in place.

/// A[k][j] /= A[k][k] for j > k. The pivot is read by every thread and written by none.
__global__ void lu_kernel1(float* __restrict__ a, int n, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < n) a[k * n + j] = a[k * n + j] / a[k * n + k];
}

/// A[i][j] -= A[i][k] * A[k][j] for i, j > k. Column k and row k are read, never written (i, j > k), so there is
/// no race between threads.
__global__ void lu_kernel2(float* __restrict__ a, int n, int k) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > k && j > k && i < n && j < n) a[i * n + j] = a[i * n + j] - a[i * n + k] * a[k * n + j];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// The same steps on the CPU, in double.
std::vector<double> reference(const std::vector<float>& a, int n, int steps) {
  std::vector<double> r(a.begin(), a.end());
  const std::size_t w = static_cast<std::size_t>(n);
  for (std::size_t k = 0; k < static_cast<std::size_t>(steps); ++k) {
    const double pivot = r[k * w + k];
    for (std::size_t j = k + 1; j < w; ++j) r[k * w + j] /= pivot;
    for (std::size_t i = k + 1; i < w; ++i) {
      const double m = r[i * w + k];
      double* row = r.data() + i * w;
      const double* upper = r.data() + k * w;
      for (std::size_t j = k + 1; j < w; ++j) row[j] -= m * upper[j];
    }
  }
  return r;
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_lu: %s\nusage: ws_lu [--n N (2..%ld)] [--steps S (1..min(n-1, %ld))]\n", message, kMaxN,
               kMaxSteps);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long steps_arg = ws::arg_long(argc, argv, "steps", 10);
  if (n_arg < 2 || n_arg > kMaxN) return usage("--n out of range");
  if (steps_arg < 1 || steps_arg > kMaxSteps || steps_arg > n_arg - 1) return usage("--steps out of range");
  const int n = static_cast<int>(n_arg);
  const int steps = static_cast<int>(steps_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  ws::fill_random(host_a, 1u);
  const std::size_t w = static_cast<std::size_t>(n);
  for (std::size_t i = 0; i < w; ++i) host_a[i * w + i] += static_cast<float>(n);

  DeviceBuffer<float> a(elements);
  a.upload(host_a);

  const unsigned blocks1 = static_cast<unsigned>((n + kBlock1 - 1) / kBlock1);
  const dim3 block2(kBlockX, kBlockY);
  const dim3 grid2(static_cast<unsigned>((n + kBlockX - 1) / kBlockX),
                   static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int k = 0; k < steps; ++k) {
    timer.start();
    lu_kernel1<<<blocks1, kBlock1>>>(a.get(), n, k);
    timer.stop("lu_kernel1");
    timer.start();
    lu_kernel2<<<grid2, block2>>>(a.get(), n, k);
    timer.stop("lu_kernel2");
  }

  // Full check. Tolerance: 1e-4 of the value plus 1e-6 absolute. Each element sees at most `steps` float updates of
  // size |A[i][k] * A[k][j]| ~ 0.5 * 0.5 / n, so its float rounding error stays near 1e-7 of the value (or of 0.5
  // where cancellation brings the value near zero); a missed or doubled update is off by ~1e-4 or more.
  std::vector<float> got;
  a.download(got);
  const std::vector<double> want = reference(host_a, n, steps);
  long bad = -1;
  double worst = 0.0;
  for (std::size_t e = 0; e < elements; ++e) {
    const double error = std::fabs(static_cast<double>(got[e]) - want[e]);
    const double tolerance = 1e-4 * std::fabs(want[e]) + 1e-6;
    if (error / tolerance > worst) worst = error / tolerance;
    if (!(error <= tolerance) && bad < 0) bad = static_cast<long>(e);
  }
  char detail[200];
  if (bad < 0) {
    std::snprintf(detail, sizeof detail, "n=%d steps=%d worst_error/tolerance=%.3g all %zu elements within tolerance",
                  n, steps, worst, elements);
  } else {
    std::snprintf(detail, sizeof detail, "n=%d steps=%d A[%ld][%ld]=%.7g want %.7g", n, steps, bad / n, bad % n,
                  static_cast<double>(got[static_cast<std::size_t>(bad)]), want[static_cast<std::size_t>(bad)]);
  }
  return ws::report_check(kWorkload, bad < 0, detail);
}
