// syr2k: the symmetric rank-2k update C = alpha * (A B^T + B A^T) + beta * C (PolyBench's syr2k) for an n x n
// single-precision C and n x m A and B, in one kernel as the CUDA version of PolyBench/GPU computes it (Grauer-Gray
// et al., "Auto-tuning a high-level language targeted to GPU codes"): one thread per element of the full C (both
// triangles), 32 x 8 thread blocks, no shared-memory tiling. Each thread accumulates in a register and updates its
// C element once (PolyBench/GPU read-modify-writes it in global memory on every k step).
//
// GPU behaviour exercised: two interleaved products with transposed right operands. Thread (i, j) with j from
// threadIdx.x reads A[i][k] and B[i][k] (broadcasts: one address for all lanes of a warp) and B[j][k] and A[j][k]:
// the 32 lanes read 32 different rows, m * 4 bytes apart, i.e. 32 separate 128-byte lines per warp load of each
// matrix (uncoalesced); the 8 warps of a block share those lines, and the next 31 k steps find them in L1. Four
// loads per two FMAs, half of them scattered: bound by L1 request handling, not by DRAM. Few registers per thread:
// 8 blocks of 256 threads (64 warps, full occupancy) per SM.
//
// Default size n = 1024, m = 512.
//
// Usage: ws_syr2k [--n N] [--m M] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr const char* kWorkload = "syr2k";
// PolyBench/GPU's 2-D block shape: 32 threads along a row of C (one warp), 8 rows.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kSamples = 4096;  // C elements checked against the CPU (full check: ~1 G multiply-adds)
constexpr long kMaxDim = 8192;  // keeps i * n + j and i * m + k inside int and A, B and C inside 768 MiB
constexpr float kAlpha = 1.5f;
constexpr float kBeta = 1.2f;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Row-major matrices: C is n x n, A and B are n x m; (i, j) = (row, column) of C, j from threadIdx.x.

/// C = alpha * (A B^T + B A^T) + beta * C: one thread per C element; rows j of A and B are walked across the
/// warp's lanes uncoalesced.
__global__ void syr2k_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n,
                             int m, float alpha, float beta) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < m; ++k) sum += a[i * m + k] * b[j * m + k] + b[i * m + k] * a[j * m + k];
  c[i * n + j] = alpha * sum + beta * c[i * n + j];
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

std::size_t at(int row, int col, int n) {
  return static_cast<std::size_t>(row) * static_cast<std::size_t>(n) + static_cast<std::size_t>(col);
}

/// `count` (row, col) pairs from an integer LCG, the four corners first (to catch edge handling).
std::vector<std::pair<int, int>> sample_points(int n, int count, unsigned seed) {
  std::vector<std::pair<int, int>> points;
  points.push_back({0, 0});
  points.push_back({0, n - 1});
  points.push_back({n - 1, 0});
  points.push_back({n - 1, n - 1});
  unsigned state = seed;
  while (static_cast<int>(points.size()) < count) {
    state = state * 1664525u + 1013904223u;
    const int row = static_cast<int>((state >> 8) % static_cast<unsigned>(n));
    state = state * 1664525u + 1013904223u;
    const int col = static_cast<int>((state >> 8) % static_cast<unsigned>(n));
    points.push_back({row, col});
  }
  return points;
}

/// Compares GPU values with double-precision references. Tolerance: relative 1e-3 of the value plus 1e-5 of the
/// sum of the magnitudes of the terms (cancellation can bring a value near zero while float rounding still scales
/// with that sum; the typical rounding error of a 1024-term float sum is ~1e-7 of it, a wrong or missing term is
/// ~1e-3 of it). Keeps the first failure and the worst error relative to the magnitude, printed in the check line.
class Checker {
 public:
  void add(const char* array, int row, int col, float got, double want, double magnitude) {
    ++count_;
    const double error = std::fabs(static_cast<double>(got) - want);
    if (magnitude > 0.0 && error / magnitude > worst_) worst_ = error / magnitude;
    const double tolerance = 1e-3 * std::fabs(want) + 1e-5 * magnitude;
    if (!(error <= tolerance) && failure_.empty()) {  // negated so that NaN fails
      char text[200];
      std::snprintf(text, sizeof text, "%s[%d][%d]=%.7g want %.7g (tolerance %.3g)", array, row, col,
                    static_cast<double>(got), want, tolerance);
      failure_ = text;
    }
  }
  bool ok() const { return failure_.empty(); }
  std::string summary() const {
    char text[120];
    std::snprintf(text, sizeof text, "checked=%ld worst_error/magnitude=%.3g ", count_, worst_);
    return text + (ok() ? std::string("all within tolerance") : failure_);
  }

 private:
  long count_ = 0;
  double worst_ = 0.0;
  std::string failure_;
};

int usage(const char* message) {
  std::fprintf(stderr, "ws_syr2k: %s\nusage: ws_syr2k [--n N (1..%ld)] [--m M (1..%ld)] [--repeat R]\n", message,
               kMaxDim, kMaxDim);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 1024);
  // m = 512 (half of syrk's): with two scattered operands per step, m = 1024 would make one launch take ~9 ms.
  const long m_arg = ws::arg_long(argc, argv, "m", 512);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 1 || n_arg > kMaxDim) return usage("--n out of range");
  if (m_arg < 1 || m_arg > kMaxDim) return usage("--m out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int m = static_cast<int>(m_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const std::size_t ab_elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(m);
  const std::size_t c_elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(ab_elements);
  std::vector<float> host_b(ab_elements);
  std::vector<float> host_c0(c_elements);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_b, 2u);
  ws::fill_random(host_c0, 3u);

  DeviceBuffer<float> a(ab_elements);
  DeviceBuffer<float> b(ab_elements);
  DeviceBuffer<float> c(c_elements);
  a.upload(host_a);
  b.upload(host_b);

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX), static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    c.upload(host_c0);  // C is updated in place: every repetition starts from the same C (untimed)
    timer.start();
    syr2k_kernel<<<grid, block>>>(a.get(), b.get(), c.get(), n, m, kAlpha, kBeta);
    timer.stop("syr2k_kernel");
  }

  std::vector<float> got_c;
  c.download(got_c);
  Checker checker;
  for (const auto& [i, j] : sample_points(n, kSamples, 12345u)) {
    double sum = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < m; ++k) {
      const double term1 = static_cast<double>(host_a[at(i, k, m)]) * static_cast<double>(host_b[at(j, k, m)]);
      const double term2 = static_cast<double>(host_b[at(i, k, m)]) * static_cast<double>(host_a[at(j, k, m)]);
      sum += term1 + term2;
      magnitude += std::fabs(term1) + std::fabs(term2);
    }
    const double scaled_c = static_cast<double>(kBeta) * static_cast<double>(host_c0[at(i, j, n)]);
    checker.add("C", i, j, got_c[at(i, j, n)], kAlpha * sum + scaled_c,
                std::fabs(kAlpha) * magnitude + std::fabs(scaled_c));
  }
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d m=%d ", n, m);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
