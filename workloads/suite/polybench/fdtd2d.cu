// fdtd2d: 2-D finite-difference time-domain (Yee) update of the fields ex, ey, hz on an n x n single-precision grid
// (PolyBench's fdtd-2d): each time step sets the top row of ey to a source value, updates ey from the vertical
// difference of hz, ex from the horizontal difference of hz, then hz from the curl of (ex, ey). Follows the CUDA
// version of PolyBench/GPU (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes"): three
// kernels per step, one thread per grid point, 32 x 8 thread blocks. Iterates by nature, so there is no --repeat:
// `--tmax` time steps (default 8, 24 launches).
//
// GPU behaviour exercised: three bandwidth-bound streaming kernels over three 64 MiB fields (n = 4096; 192 MiB in
// all, beyond the 50 MiB L2). fdtd2d_kernel1 reads hz (this row and the one above: the row above is a reuse, mostly
// from L1/L2) and ey, and writes ey in place: ~192 MiB of DRAM traffic, measured ~80 us on an H100. fdtd2d_kernel2
// reads hz at j and j-1 (misaligned, an L1 hit) and ex, writes ex: the same traffic, ~82 us. fdtd2d_kernel3 reads
// ex (j, j+1), ey (rows i, i+1) and hz, writes hz: ~256 MiB, ~99 us. The branch for row 0 in kernel1 and the guards
// of the last row and column in kernel3 make a little divergence at the edges. Few registers, full occupancy
// (8 blocks of 256 per SM).
//
// Usage: ws_fdtd2d [--n N] [--tmax T]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "fdtd2d";
// PolyBench/GPU's 2-D block shape: 32 threads along a row (one warp), 8 rows.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr long kMaxN = 8192;    // keeps i * n + j inside int and the three fields inside 768 MiB
constexpr long kMaxSteps = 10;  // three launches per step: at most 30 launches

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n fields; (i, j) = (row, column), j from threadIdx.x so that a warp reads along a row.

/// ey[0][j] = source; ey[i][j] -= 0.5 * (hz[i][j] - hz[i-1][j]) for i > 0.
__global__ void fdtd2d_kernel1(float* __restrict__ ey, const float* __restrict__ hz, int n, float source) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  const int c = i * n + j;
  if (i == 0) {
    ey[c] = source;
  } else {
    ey[c] = ey[c] - 0.5f * (hz[c] - hz[c - n]);
  }
}

/// ex[i][j] -= 0.5 * (hz[i][j] - hz[i][j-1]) for j > 0.
__global__ void fdtd2d_kernel2(float* __restrict__ ex, const float* __restrict__ hz, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j < 1 || j >= n) return;
  const int c = i * n + j;
  ex[c] = ex[c] - 0.5f * (hz[c] - hz[c - 1]);
}

/// hz[i][j] -= 0.7 * (ex[i][j+1] - ex[i][j] + ey[i+1][j] - ey[i][j]) for i < n-1, j < n-1.
__global__ void fdtd2d_kernel3(const float* __restrict__ ex, const float* __restrict__ ey, float* __restrict__ hz,
                               int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n - 1 || j >= n - 1) return;
  const int c = i * n + j;
  hz[c] = hz[c] - 0.7f * (ex[c + 1] - ex[c] + ey[c + n] - ey[c]);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// The source value of time step t (PolyBench's _fict_[t] = t).
float source_at(int t) { return static_cast<float>(t); }

/// The same time steps on the CPU in float. The GPU may fuse each update's multiply and subtract (one rounding less),
/// so results differ by a few ulps per step; the check allows 1e-4 relative plus 1e-4 absolute (fields stay of order
/// 1-10 over 8 steps; a wrong neighbour or a missed update is off by ~0.1 or more).
void reference(std::vector<float>& ex, std::vector<float>& ey, std::vector<float>& hz, int n, int tmax) {
  const std::size_t w = static_cast<std::size_t>(n);
  for (int t = 0; t < tmax; ++t) {
    for (std::size_t j = 0; j < w; ++j) ey[j] = source_at(t);
    for (std::size_t i = 1; i < w; ++i) {
      for (std::size_t j = 0; j < w; ++j) ey[i * w + j] = ey[i * w + j] - 0.5f * (hz[i * w + j] - hz[(i - 1) * w + j]);
    }
    for (std::size_t i = 0; i < w; ++i) {
      for (std::size_t j = 1; j < w; ++j) ex[i * w + j] = ex[i * w + j] - 0.5f * (hz[i * w + j] - hz[i * w + j - 1]);
    }
    for (std::size_t i = 0; i + 1 < w; ++i) {
      for (std::size_t j = 0; j + 1 < w; ++j) {
        const std::size_t c = i * w + j;
        hz[c] = hz[c] - 0.7f * (ex[c + 1] - ex[c] + ey[c + w] - ey[c]);
      }
    }
  }
}

/// Appends "name[i][j]=got want want" for the first mismatch of `got` against `want`; returns true if all agree.
bool compare(const char* name, const std::vector<float>& got, const std::vector<float>& want, int n,
             std::string& detail) {
  const long bad = ws::first_mismatch(got, want, 1e-4f, 1e-4f);
  if (bad < 0) return true;
  char text[160];
  std::snprintf(text, sizeof text, " %s[%ld][%ld]=%.7g want %.7g", name, bad / n, bad % n,
                static_cast<double>(got[static_cast<std::size_t>(bad)]),
                static_cast<double>(want[static_cast<std::size_t>(bad)]));
  detail += text;
  return false;
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_fdtd2d: %s\nusage: ws_fdtd2d [--n N (2..%ld)] [--tmax T (1..%ld)]\n", message, kMaxN,
               kMaxSteps);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long tmax_arg = ws::arg_long(argc, argv, "tmax", 8);
  if (n_arg < 2 || n_arg > kMaxN) return usage("--n out of range");
  if (tmax_arg < 1 || tmax_arg > kMaxSteps) return usage("--tmax out of range");
  const int n = static_cast<int>(n_arg);
  const int tmax = static_cast<int>(tmax_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_ex(elements);
  std::vector<float> host_ey(elements);
  std::vector<float> host_hz(elements);
  ws::fill_random(host_ex, 1u);
  ws::fill_random(host_ey, 2u);
  ws::fill_random(host_hz, 3u);

  DeviceBuffer<float> ex(elements);
  DeviceBuffer<float> ey(elements);
  DeviceBuffer<float> hz(elements);
  ex.upload(host_ex);
  ey.upload(host_ey);
  hz.upload(host_hz);

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX),
                  static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int t = 0; t < tmax; ++t) {
    timer.start();
    fdtd2d_kernel1<<<grid, block>>>(ey.get(), hz.get(), n, source_at(t));
    timer.stop("fdtd2d_kernel1");
    timer.start();
    fdtd2d_kernel2<<<grid, block>>>(ex.get(), hz.get(), n);
    timer.stop("fdtd2d_kernel2");
    timer.start();
    fdtd2d_kernel3<<<grid, block>>>(ex.get(), ey.get(), hz.get(), n);
    timer.stop("fdtd2d_kernel3");
  }

  std::vector<float> got_ex;
  std::vector<float> got_ey;
  std::vector<float> got_hz;
  ex.download(got_ex);
  ey.download(got_ey);
  hz.download(got_hz);
  reference(host_ex, host_ey, host_hz, n, tmax);
  char head[64];
  std::snprintf(head, sizeof head, "n=%d tmax=%d", n, tmax);
  std::string detail = head;
  bool ok = compare("ex", got_ex, host_ex, n, detail);
  ok = compare("ey", got_ey, host_ey, n, detail) && ok;
  ok = compare("hz", got_hz, host_hz, n, detail) && ok;
  if (ok) detail += " ex, ey, hz all within tolerance";
  return ws::report_check(kWorkload, ok, detail);
}
