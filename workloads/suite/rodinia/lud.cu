// lud: blocked right-looking LU decomposition without pivoting, A = L U in place (L unit lower triangular), in the
// manner of Rodinia's lud: the matrix is cut into 16x16 blocks and each block step s (offset o = 16 s) runs
//   lud_diagonal  (1 block of 16 threads): factors the 16x16 diagonal block A11 = L11 U11 in shared memory;
//   lud_perimeter (one block of 32 threads per remaining block column): the first 16 threads turn a block of the
//                 row strip into U12 = L11^-1 A12 (one column each, forward substitution), the other 16 turn a block
//                 of the column strip into L21 = A21 U11^-1 (one row each);
//   lud_internal  (one 16x16 block per trailing block): A22 -= L21 U12, both 16x16 operands staged in shared memory.
// A full factorization of n = 4096 would take 256 steps (766 launches), so the program runs the first 9 block steps
// (27 launches): the first 144 rows and columns then hold their final L and U, and the trailing 3952 x 3952 block
// holds the Schur complement A22 - L21 U12 of those 144 pivots. The matrix is diagonally dominant (off-diagonal
// entries in [-1, 1), diagonal n), so no pivoting is needed.
//
// Size: n = 4096 (64 MiB), 9 steps. lud_internal covers 255^2 .. 247^2 blocks of 256 threads and streams the
// trailing matrix in and out (~128 MiB of DRAM traffic plus L2-served operand tiles; measured ~120-135 us on an
// H100); lud_perimeter (255..247 blocks of one warp, each a dependent 16-step substitution, ~15-20 us) and
// lud_diagonal (one block of half a warp, ~10 us) are latency-bound and short, as in Rodinia.
//
// GPU behaviour exercised: a tiny one-block kernel and a one-warp-per-block kernel whose two half-warps take
// different branches (divergence), both bound by shared-memory latency and __syncthreads, next to a wide
// shared-memory-tiled update whose operands are shared by whole block rows / columns (L2 reuse).
//
// Usage: ws_lud [--n N (multiple of 16)] [--steps S (block steps, 1..10)]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "lud";
constexpr int kB = 16;             // Rodinia's BLOCK_SIZE
constexpr int kSamples = 8192;     // trailing-matrix entries checked (each costs 2 * 16 * steps flops on the CPU)
constexpr long kMaxN = 8192;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrix; `o` is the current step's offset (a multiple of kB). Shared rows are padded to
// kB + 1 floats where a thread walks its own row, so that the 16 threads' rows sit in different banks.

/// In-place LU of the diagonal block: thread t owns row t; at pivot k the rows below k compute their multiplier and
/// eliminate column k from the rest of their row.
__global__ void lud_diagonal(float* __restrict__ a, int n, int o) {
  __shared__ float d[kB][kB + 1];
  const int t = threadIdx.x;
  for (int r = 0; r < kB; ++r) d[r][t] = a[static_cast<long>(o + r) * n + o + t];
  __syncthreads();
  for (int k = 0; k < kB - 1; ++k) {
    if (t > k) {
      const float l = d[t][k] / d[k][k];
      d[t][k] = l;
      for (int j = k + 1; j < kB; ++j) d[t][j] -= l * d[k][j];
    }
    __syncthreads();
  }
  for (int r = 0; r < kB; ++r) a[static_cast<long>(o + r) * n + o + t] = d[r][t];
}

/// Block b handles block column / row b + 1 after the diagonal: threads 0..15 compute U12 (column t of the row-strip
/// block), threads 16..31 compute L21 (row t - 16 of the column-strip block).
__global__ void lud_perimeter(float* __restrict__ a, int n, int o) {
  __shared__ float dia[kB][kB + 1];
  __shared__ float row_blk[kB][kB + 1];   // rows o.., columns of this block: becomes U12
  __shared__ float col_blk[kB][kB + 1];   // rows of this block, columns o..: becomes L21
  const int t = threadIdx.x;
  const int other = o + (static_cast<int>(blockIdx.x) + 1) * kB;
  for (int i = t; i < kB * kB; i += 2 * kB) {
    const int r = i / kB;
    const int c = i % kB;
    dia[r][c] = a[static_cast<long>(o + r) * n + o + c];
    row_blk[r][c] = a[static_cast<long>(o + r) * n + other + c];
    col_blk[r][c] = a[static_cast<long>(other + r) * n + o + c];
  }
  __syncthreads();
  if (t < kB) {
    // Forward substitution with the unit lower triangle of the diagonal block, down column t.
    for (int i = 1; i < kB; ++i) {
      float v = row_blk[i][t];
      for (int k = 0; k < i; ++k) v -= dia[i][k] * row_blk[k][t];
      row_blk[i][t] = v;
    }
  } else {
    // Solve x U11 = row r of A21, left to right.
    const int r = t - kB;
    for (int k = 0; k < kB; ++k) {
      float v = col_blk[r][k];
      for (int m = 0; m < k; ++m) v -= col_blk[r][m] * dia[m][k];
      col_blk[r][k] = v / dia[k][k];
    }
  }
  __syncthreads();
  for (int i = t; i < kB * kB; i += 2 * kB) {
    const int r = i / kB;
    const int c = i % kB;
    a[static_cast<long>(o + r) * n + other + c] = row_blk[r][c];
    a[static_cast<long>(other + r) * n + o + c] = col_blk[r][c];
  }
}

/// Trailing block (blockIdx.y + 1, blockIdx.x + 1) after the diagonal: A22 -= L21 U12.
__global__ void lud_internal(float* __restrict__ a, int n, int o) {
  __shared__ float l_tile[kB][kB];
  __shared__ float u_tile[kB][kB];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = o + (static_cast<int>(blockIdx.y) + 1) * kB + ty;
  const int col = o + (static_cast<int>(blockIdx.x) + 1) * kB + tx;
  l_tile[ty][tx] = a[static_cast<long>(row) * n + o + tx];
  u_tile[ty][tx] = a[static_cast<long>(o + ty) * n + col];
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kB; ++k) sum += l_tile[ty][k] * u_tile[k][tx];
  a[static_cast<long>(row) * n + col] -= sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// Keeps the first failure and the largest error relative to the magnitude of the terms.
class Checker {
 public:
  void add(const char* what, int r, int c, float got, double want, double magnitude) {
    ++count_;
    const double error = std::fabs(static_cast<double>(got) - want);
    worst_ = std::max(worst_, error / magnitude);
    if (!(error <= 3e-5 * magnitude) && failure_.empty()) {  // negated so that NaN fails
      char text[160];
      std::snprintf(text, sizeof text, "%s a[%d][%d]=%.8g want %.8g (magnitude %.3g)", what, r, c,
                    static_cast<double>(got), want, magnitude);
      failure_ = text;
    }
  }
  bool ok() const { return failure_.empty(); }
  std::string summary() const {
    char text[96];
    std::snprintf(text, sizeof text, "checked=%ld worst_error/magnitude=%.3g ", count_, worst_);
    return text + (ok() ? std::string("all within tolerance") : failure_);
  }

 private:
  long count_ = 0;
  double worst_ = 0.0;
  std::string failure_;
};

int usage(const char* message) {
  std::fprintf(stderr, "ws_lud: %s\nusage: ws_lud [--n N (32..%ld, multiple of 16)] [--steps S (1..10)]\n", message,
               kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long steps_arg = ws::arg_long(argc, argv, "steps", 9);
  if (n_arg < 2 * kB || n_arg > kMaxN || n_arg % kB != 0) return usage("--n out of range");
  if (steps_arg < 1 || steps_arg > 10 || steps_arg > n_arg / kB) return usage("--steps out of range");
  const int n = static_cast<int>(n_arg);
  const int steps = static_cast<int>(steps_arg);
  const int blocks = n / kB;
  const int panel = steps * kB;  // K: rows / columns fully factored

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  ws::fill_random(host_a, 51u);
  for (int i = 0; i < n; ++i) host_a[static_cast<std::size_t>(i) * n + i] = static_cast<float>(n);

  DeviceBuffer<float> a(elements);
  a.upload(host_a);
  ws::KernelTimer timer(kWorkload);
  for (int s = 0; s < steps; ++s) {
    const int o = s * kB;
    const int rest = blocks - s - 1;  // blocks after the diagonal one in this step's row / column
    timer.start();
    lud_diagonal<<<1, kB>>>(a.get(), n, o);
    timer.stop("lud_diagonal");
    if (rest == 0) break;
    timer.start();
    lud_perimeter<<<rest, 2 * kB>>>(a.get(), n, o);
    timer.stop("lud_perimeter");
    timer.start();
    lud_internal<<<dim3(rest, rest), dim3(kB, kB)>>>(a.get(), n, o);
    timer.stop("lud_internal");
  }
  std::vector<float> got;
  a.download(got);

  // Reference: Crout-style (row of U, then column of L) for the first K = panel pivots in double, which gives the
  // same factors as the blocked order in exact arithmetic, with the magnitude sum_m |L U| + |A| of every entry.
  // Tolerance 3e-5 of that magnitude: the float kernels' rounding is ~1e-7 of it; a missing or wrong term is
  // ~|L| ~ 1 / n ~ 2.4e-4 of it for off-diagonal entries.
  const auto at = [n](int r, int c) { return static_cast<std::size_t>(r) * n + c; };
  const std::size_t k_cols = static_cast<std::size_t>(panel);
  std::vector<double> u(k_cols * n, 0.0);        // u[k * n + j], j >= k
  std::vector<double> u_mag(k_cols * n, 0.0);
  std::vector<double> l(static_cast<std::size_t>(n) * k_cols, 0.0);  // l[i * K + k], i > k
  std::vector<double> l_mag(static_cast<std::size_t>(n) * k_cols, 0.0);
  std::vector<double> ucol(k_cols);
  for (int k = 0; k < panel; ++k) {
    double* urow = u.data() + static_cast<std::size_t>(k) * n;
    double* umag = u_mag.data() + static_cast<std::size_t>(k) * n;
    for (int j = k; j < n; ++j) {
      urow[j] = host_a[at(k, j)];
      umag[j] = std::fabs(urow[j]);
    }
    for (int m = 0; m < k; ++m) {
      const double lkm = l[static_cast<std::size_t>(k) * k_cols + m];
      const double* um = u.data() + static_cast<std::size_t>(m) * n;
      for (int j = k; j < n; ++j) {
        urow[j] -= lkm * um[j];
        umag[j] += std::fabs(lkm * um[j]);
      }
    }
    for (int m = 0; m <= k; ++m) ucol[static_cast<std::size_t>(m)] = u[static_cast<std::size_t>(m) * n + k];
    const double pivot = ucol[static_cast<std::size_t>(k)];
    for (int i = k + 1; i < n; ++i) {
      const double* li = l.data() + static_cast<std::size_t>(i) * k_cols;
      double v = host_a[at(i, k)];
      double mag = std::fabs(v);
      for (int m = 0; m < k; ++m) {
        v -= li[m] * ucol[static_cast<std::size_t>(m)];
        mag += std::fabs(li[m] * ucol[static_cast<std::size_t>(m)]);
      }
      l[static_cast<std::size_t>(i) * k_cols + k] = v / pivot;
      l_mag[static_cast<std::size_t>(i) * k_cols + k] = mag / std::fabs(pivot);
    }
  }

  Checker checker;
  for (int r = 0; r < n; ++r) {
    const int c_end = r < panel ? n : panel;  // rows below the panel: only their first K columns are final
    for (int c = 0; c < c_end; ++c) {
      if (r <= c) {
        checker.add("U", r, c, got[at(r, c)], u[static_cast<std::size_t>(r) * n + c],
                    u_mag[static_cast<std::size_t>(r) * n + c]);
      } else {
        checker.add("L", r, c, got[at(r, c)], l[static_cast<std::size_t>(r) * k_cols + c],
                    l_mag[static_cast<std::size_t>(r) * k_cols + c]);
      }
    }
  }
  if (panel < n) {
    unsigned state = 777u;
    const unsigned span = static_cast<unsigned>(n - panel);
    for (int sample = 0; sample < kSamples; ++sample) {
      state = state * 1664525u + 1013904223u;
      const int r = panel + static_cast<int>((state >> 8) % span);
      state = state * 1664525u + 1013904223u;
      const int c = panel + static_cast<int>((state >> 8) % span);
      double v = host_a[at(r, c)];
      double mag = std::fabs(v);
      for (int m = 0; m < panel; ++m) {
        const double term = l[static_cast<std::size_t>(r) * k_cols + m] * u[static_cast<std::size_t>(m) * n + c];
        v -= term;
        mag += std::fabs(term);
      }
      checker.add("Schur", r, c, got[at(r, c)], v, mag);
    }
  }
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d steps=%d ", n, steps);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
