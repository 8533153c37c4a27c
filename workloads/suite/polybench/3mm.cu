// 3mm: G = (A * B) * (C * D) for square n x n single-precision matrices, as PolyBench's 3mm kernel computes it in
// three matrix products: E = A * B, F = C * D, G = E * F. Follows the CUDA version of PolyBench/GPU (Grauer-Gray et
// al., "Auto-tuning a high-level language targeted to GPU codes"): one thread per output element, 32 x 8 thread
// blocks, no shared-memory tiling, every operand read from global memory. Unlike PolyBench/GPU, each thread
// accumulates its inner product in a register and stores once (PolyBench/GPU read-modify-writes the output element
// in global memory on every k step).
//
// GPU behaviour exercised: three back-to-back naive matrix multiplies with identical launch shapes, the third
// consuming the first two's results (which are still partly in the 50 MB L2). threadIdx.x walks columns, so in
// each k step a warp reads one element of the left matrix (same address on all lanes: a broadcast) and one coalesced
// 128-byte line of the right matrix. Bound by L1 load throughput (two loads per FMA), not by DRAM. Few registers per
// thread: 8 blocks of 256 threads (64 warps, full occupancy) per SM.
//
// Usage: ws_3mm [--n N] [--repeat R]
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

constexpr const char* kWorkload = "3mm";
// PolyBench/GPU's 2-D block shape: 32 threads along a row (one warp), 8 rows.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kSamples = 4096;  // elements of each product checked against the CPU (full check: ~3 G multiply-adds)
constexpr long kMaxN = 8192;    // keeps i * n + k inside int and the seven matrices inside 1.75 GiB

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Row-major n x n matrices; (i, j) = (row, column) of the output, j from threadIdx.x. The three products
// are three launches of different kernels (as in PolyBench/GPU) so that each has its own label in the trace; they
// share the body.

__device__ __forceinline__ void matmul_element(const float* __restrict__ left, const float* __restrict__ right,
                                               float* __restrict__ out, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += left[i * n + k] * right[k * n + j];
  out[i * n + j] = sum;
}

/// E = A * B.
__global__ void mm3_kernel1(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ e, int n) {
  matmul_element(a, b, e, n);
}

/// F = C * D.
__global__ void mm3_kernel2(const float* __restrict__ c, const float* __restrict__ d, float* __restrict__ f, int n) {
  matmul_element(c, d, f, n);
}

/// G = E * F.
__global__ void mm3_kernel3(const float* __restrict__ e, const float* __restrict__ f, float* __restrict__ g, int n) {
  matmul_element(e, f, g, n);
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

/// Checks `count` sampled elements of out = left * right, the reference in double from the host copies given.
void check_product(Checker& checker, const char* name, const std::vector<float>& left,
                   const std::vector<float>& right, const std::vector<float>& out, int n, unsigned seed) {
  for (const auto& [i, j] : sample_points(n, kSamples, seed)) {
    double sum = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < n; ++k) {
      const double term = static_cast<double>(left[at(i, k, n)]) * static_cast<double>(right[at(k, j, n)]);
      sum += term;
      magnitude += std::fabs(term);
    }
    checker.add(name, i, j, out[at(i, j, n)], sum, magnitude);
  }
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_3mm: %s\nusage: ws_3mm [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 1024);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 1 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  std::vector<float> host_b(elements);
  std::vector<float> host_c(elements);
  std::vector<float> host_d(elements);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_b, 2u);
  ws::fill_random(host_c, 3u);
  ws::fill_random(host_d, 4u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> b(elements);
  DeviceBuffer<float> c(elements);
  DeviceBuffer<float> d(elements);
  DeviceBuffer<float> e(elements);
  DeviceBuffer<float> f(elements);
  DeviceBuffer<float> g(elements);
  a.upload(host_a);
  b.upload(host_b);
  c.upload(host_c);
  d.upload(host_d);
  // All-ones bytes are a NaN float: an element that a kernel skips fails the check.
  WS_CHECK(cudaMemset(e.get(), 0xFF, e.bytes()));
  WS_CHECK(cudaMemset(f.get(), 0xFF, f.bytes()));
  WS_CHECK(cudaMemset(g.get(), 0xFF, g.bytes()));

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX), static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    mm3_kernel1<<<grid, block>>>(a.get(), b.get(), e.get(), n);
    timer.stop("mm3_kernel1");
    timer.start();
    mm3_kernel2<<<grid, block>>>(c.get(), d.get(), f.get(), n);
    timer.stop("mm3_kernel2");
    timer.start();
    mm3_kernel3<<<grid, block>>>(e.get(), f.get(), g.get(), n);
    timer.stop("mm3_kernel3");
  }

  // Each kernel is checked on its own inputs: E against A and B, F against C and D, G against the GPU's E and F.
  std::vector<float> got_e;
  std::vector<float> got_f;
  std::vector<float> got_g;
  e.download(got_e);
  f.download(got_f);
  g.download(got_g);
  Checker checker;
  check_product(checker, "E", host_a, host_b, got_e, n, 12345u);
  check_product(checker, "F", host_c, host_d, got_f, n, 23456u);
  check_product(checker, "G", got_e, got_f, got_g, n, 34567u);
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
