// 2mm: D = alpha * A * B * C + beta * D for square n x n single-precision matrices, computed as PolyBench's 2mm
// kernel does it, in two matrix products: tmp = alpha * A * B, then D = tmp * C + beta * D. Follows the CUDA
// version of PolyBench/GPU (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes"): one
// thread per output element, 32 x 8 thread blocks, no shared-memory tiling, every operand read from global memory.
// Unlike PolyBench/GPU, each thread accumulates its inner product in a register and stores once (PolyBench/GPU's
// kernels read-modify-write the output element in global memory on every k step).
//
// GPU behaviour exercised: naive matrix multiply. threadIdx.x walks columns, so in each k step a warp reads one
// A element (the same address for all 32 lanes: a broadcast) and 32 consecutive B elements (one coalesced 128-byte
// line); the 8 warps of a block share the B line and the rows of A are reused from L1 by the 32 lanes. The kernels
// are bound by L1 load throughput (two loads per FMA), not by DRAM; the second kernel also reads and writes D once.
// Each thread uses few registers, so 8 blocks of 256 threads (full occupancy, 64 warps) fit on each SM.
//
// Usage: ws_2mm [--n N] [--repeat R]
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

constexpr const char* kWorkload = "2mm";
// PolyBench/GPU's 2-D block shape: 32 threads along a row (one warp), 8 rows.
constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr int kSamples = 4096;  // elements of each output checked against the CPU (full check: ~2 G multiply-adds)
constexpr long kMaxN = 8192;    // keeps i * n + k inside int and the five matrices inside 1.25 GiB
constexpr float kAlpha = 1.5f;
constexpr float kBeta = 1.2f;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrices; (i, j) = (row, column) of the output, j from threadIdx.x.

/// tmp = alpha * A * B: one thread per tmp element, the inner product straight from global memory.
__global__ void mm2_kernel1(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ tmp, int n,
                            float alpha) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
  tmp[i * n + j] = alpha * sum;
}

/// D = tmp * C + beta * D: one thread per D element, D read and written in place.
__global__ void mm2_kernel2(const float* __restrict__ tmp, const float* __restrict__ c, float* __restrict__ d, int n,
                            float beta) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += tmp[i * n + k] * c[k * n + j];
  d[i * n + j] = sum + beta * d[i * n + j];
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
  std::fprintf(stderr, "ws_2mm: %s\nusage: ws_2mm [--n N (1..%ld)] [--repeat R]\n", message, kMaxN);
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
  std::vector<float> host_d0(elements);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_b, 2u);
  ws::fill_random(host_c, 3u);
  ws::fill_random(host_d0, 4u);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> b(elements);
  DeviceBuffer<float> c(elements);
  DeviceBuffer<float> d(elements);
  DeviceBuffer<float> tmp(elements);
  a.upload(host_a);
  b.upload(host_b);
  c.upload(host_c);
  WS_CHECK(cudaMemset(tmp.get(), 0xFF, tmp.bytes()));  // all-ones bytes are a NaN float: skipped elements fail

  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(static_cast<unsigned>((n + kBlockX - 1) / kBlockX), static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    d.upload(host_d0);  // D is updated in place: every repetition starts from the same D (untimed)
    timer.start();
    mm2_kernel1<<<grid, block>>>(a.get(), b.get(), tmp.get(), n, kAlpha);
    timer.stop("mm2_kernel1");
    timer.start();
    mm2_kernel2<<<grid, block>>>(tmp.get(), c.get(), d.get(), n, kBeta);
    timer.stop("mm2_kernel2");
  }

  // Each kernel is checked on its own inputs: tmp against A and B, D against the GPU's tmp, C and the initial D.
  std::vector<float> got_tmp;
  std::vector<float> got_d;
  tmp.download(got_tmp);
  d.download(got_d);
  Checker checker;
  for (const auto& [i, j] : sample_points(n, kSamples, 12345u)) {
    double sum = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < n; ++k) {
      const double term = static_cast<double>(host_a[at(i, k, n)]) * static_cast<double>(host_b[at(k, j, n)]);
      sum += term;
      magnitude += std::fabs(term);
    }
    checker.add("tmp", i, j, got_tmp[at(i, j, n)], kAlpha * sum, kAlpha * magnitude);
  }
  for (const auto& [i, j] : sample_points(n, kSamples, 67890u)) {
    const double scaled_d = static_cast<double>(kBeta) * static_cast<double>(host_d0[at(i, j, n)]);
    double sum = scaled_d;
    double magnitude = std::fabs(scaled_d);
    for (int k = 0; k < n; ++k) {
      const double term = static_cast<double>(got_tmp[at(i, k, n)]) * static_cast<double>(host_c[at(k, j, n)]);
      sum += term;
      magnitude += std::fabs(term);
    }
    checker.add("D", i, j, got_d[at(i, j, n)], sum, magnitude);
  }
  char detail[64];
  std::snprintf(detail, sizeof detail, "n=%d ", n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
