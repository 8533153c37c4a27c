// correlation: the m x m correlation matrix of n observations of m variables (an n x m single-precision data
// matrix, one row per observation), as PolyBench's correlation computes it: column means, column standard
// deviations (population form; a deviation at or below 0.005 is replaced by 1), the data centred and scaled by
// sqrt(n) * std, and symmat = the products of the normalised columns. Follows the CUDA version of PolyBench/GPU
// (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes"): four kernels, corr_mean_kernel
// and corr_std_kernel with one thread per column (1-D blocks of 256), corr_reduce_kernel with one thread per
// element (32 x 8 blocks). Departures: PolyBench/GPU's correlation kernel has one thread per row j1 of symmat that
// loops over all j2 > j1 (the first thread's dependent chain of m * n multiply-adds alone would take ~10 ms at
// 2048 x 2048); here corr_kernel has one thread per symmat element (j1, j2) with j2 >= j1 (32 x 8 blocks, the
// threads of the lower triangle exit at once), each writing its value to both (j1, j2) and (j2, j1). The normalised
// data go to a separate array rather than over the input, so that a repeat starts from the same input. Each thread
// accumulates in a register and stores once.
//
// GPU behaviour exercised: corr_mean_kernel and corr_std_kernel launch only m / 256 = 8 blocks (8 of the 132 SMs,
// 8 warps each) whose threads walk their columns down n rows: every step a warp reads one coalesced 128-byte row
// segment, but with so few warps in flight the kernels are bound by memory latency, not bandwidth (measured on an
// H100 at 2048 x 2048: corr_mean_kernel ~80 us from DRAM, corr_std_kernel ~41 us with the data then in L2).
// corr_reduce_kernel is a streaming element-wise pass (16 MiB in, 16 MiB out, ~18 us). corr_kernel is a naive
// symmetric matrix product (data^T data on the upper triangle, 4.3 G multiply-adds): per step a warp loads one
// broadcast A[i][j1] and one coalesced row segment A[i][j2], so it is bound by L1 load throughput (~1.55 ms); the
// mirrored store to (j2, j1) is a column walk (32 separate sectors per warp, once per thread). At most 32
// registers per thread, full occupancy.
//
// Usage: ws_correlation [--m M (variables)] [--n N (observations)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "correlation";
constexpr int kBlock1 = 256;  // PolyBench/GPU's 1-D block size
constexpr int kBlockX = 32;   // PolyBench/GPU's 2-D block shape
constexpr int kBlockY = 8;
constexpr long kMaxDim = 8192;  // keeps every index inside int and the four arrays inside 1 GiB
constexpr float kEps = 0.005f;  // PolyBench's threshold below which a standard deviation is taken as 1
constexpr int kSamples = 4096;  // symmat elements checked against the CPU

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x m data (row i = observation i, column j = variable j), m x m symmat.

/// mean[j] = (sum over i of data[i][j]) / n: one thread per column.
__global__ void corr_mean_kernel(const float* __restrict__ data, float* __restrict__ mean, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += data[i * m + j];
  mean[j] = sum / static_cast<float>(n);
}

/// std[j] = sqrt((sum over i of (data[i][j] - mean[j])^2) / n), 1 where that is <= eps: one thread per column.
__global__ void corr_std_kernel(const float* __restrict__ data, const float* __restrict__ mean,
                                float* __restrict__ stddev, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  const float mu = mean[j];
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) {
    const float d = data[i * m + j] - mu;
    sum += d * d;
  }
  const float s = sqrtf(sum / static_cast<float>(n));
  stddev[j] = s <= kEps ? 1.0f : s;
}

/// norm[i][j] = (data[i][j] - mean[j]) / (sqrt(n) * std[j]): one thread per element.
__global__ void corr_reduce_kernel(const float* __restrict__ data, const float* __restrict__ mean,
                                   const float* __restrict__ stddev, float* __restrict__ norm, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  norm[i * m + j] = (data[i * m + j] - mean[j]) / (sqrtf(static_cast<float>(n)) * stddev[j]);
}

/// symmat[j1][j2] = symmat[j2][j1] = sum over i of norm[i][j1] * norm[i][j2] for j2 > j1; symmat[j1][j1] = 1.
/// j2 from threadIdx.x (coalesced), j1 from threadIdx.y (the same for a whole warp: a broadcast).
__global__ void corr_kernel(const float* __restrict__ norm, float* __restrict__ symmat, int m, int n) {
  const int j2 = blockIdx.x * blockDim.x + threadIdx.x;
  const int j1 = blockIdx.y * blockDim.y + threadIdx.y;
  if (j1 >= m || j2 >= m || j2 < j1) return;
  if (j2 == j1) {
    symmat[j1 * m + j1] = 1.0f;
    return;
  }
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += norm[i * m + j1] * norm[i * m + j2];
  symmat[j1 * m + j2] = sum;
  symmat[j2 * m + j1] = sum;
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
  std::fprintf(stderr, "ws_correlation: %s\nusage: ws_correlation [--m M (1..%ld)] [--n N (2..%ld)] [--repeat R]\n",
               message, kMaxDim, kMaxDim);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long m_arg = ws::arg_long(argc, argv, "m", 2048);
  const long n_arg = ws::arg_long(argc, argv, "n", 2048);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (m_arg < 1 || m_arg > kMaxDim) return usage("--m out of range");
  if (n_arg < 2 || n_arg > kMaxDim) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 7) return usage("--repeat must be 1..7");
  const int m = static_cast<int>(m_arg);
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);
  const std::size_t wm = static_cast<std::size_t>(m);
  const std::size_t wn = static_cast<std::size_t>(n);

  // Random values in [-1, 1), scaled (1, 1.25 or 1.5) and shifted (0, 0.25, 0.5 or 0.75) per column, so that the
  // columns differ in mean and deviation and the centring and scaling matter.
  std::vector<float> host_data(wn * wm);
  ws::fill_random(host_data, 1u);
  for (std::size_t i = 0; i < wn; ++i) {
    for (std::size_t j = 0; j < wm; ++j) {
      float& v = host_data[i * wm + j];
      v = v * (1.0f + 0.25f * static_cast<float>(j % 3)) + 0.25f * static_cast<float>(j % 4);
    }
  }

  DeviceBuffer<float> data(wn * wm);
  DeviceBuffer<float> mean(wm);
  DeviceBuffer<float> stddev(wm);
  DeviceBuffer<float> norm(wn * wm);
  DeviceBuffer<float> symmat(wm * wm);
  data.upload(host_data);
  // All-ones bytes are a NaN float: an element that a kernel skips fails the check.
  WS_CHECK(cudaMemset(mean.get(), 0xFF, mean.bytes()));
  WS_CHECK(cudaMemset(stddev.get(), 0xFF, stddev.bytes()));
  WS_CHECK(cudaMemset(norm.get(), 0xFF, norm.bytes()));
  WS_CHECK(cudaMemset(symmat.get(), 0xFF, symmat.bytes()));

  const unsigned blocks1 = static_cast<unsigned>((m + kBlock1 - 1) / kBlock1);
  const dim3 block2(kBlockX, kBlockY);
  const dim3 grid_reduce(static_cast<unsigned>((m + kBlockX - 1) / kBlockX),
                         static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  const dim3 grid_corr(static_cast<unsigned>((m + kBlockX - 1) / kBlockX),
                       static_cast<unsigned>((m + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    corr_mean_kernel<<<blocks1, kBlock1>>>(data.get(), mean.get(), m, n);
    timer.stop("corr_mean_kernel");
    timer.start();
    corr_std_kernel<<<blocks1, kBlock1>>>(data.get(), mean.get(), stddev.get(), m, n);
    timer.stop("corr_std_kernel");
    timer.start();
    corr_reduce_kernel<<<grid_reduce, block2>>>(data.get(), mean.get(), stddev.get(), norm.get(), m, n);
    timer.stop("corr_reduce_kernel");
    timer.start();
    corr_kernel<<<grid_corr, block2>>>(norm.get(), symmat.get(), m, n);
    timer.stop("corr_kernel");
  }

  // Each kernel is checked on its own inputs (the GPU's outputs of the kernels before it), in double, so that float
  // rounding does not compound from one check to the next.
  std::vector<float> got_mean;
  std::vector<float> got_std;
  std::vector<float> got_norm;
  std::vector<float> got_symmat;
  mean.download(got_mean);
  stddev.download(got_std);
  norm.download(got_norm);
  symmat.download(got_symmat);
  Checker checker;

  // mean and std, all columns. Tolerance: 1e-5 of the mean magnitude of the terms plus 1e-4 of the value (an n-term
  // float sum errs by ~1e-6 of the magnitude sum; a missing or doubled row moves the result by ~1/n = 5e-4 of it).
  std::vector<double> sum(wm, 0.0);
  std::vector<double> magnitude(wm, 0.0);
  for (std::size_t i = 0; i < wn; ++i) {
    for (std::size_t j = 0; j < wm; ++j) {
      const double v = static_cast<double>(host_data[i * wm + j]);
      sum[j] += v;
      magnitude[j] += std::fabs(v);
    }
  }
  for (std::size_t j = 0; j < wm; ++j) {
    checker.add("mean", static_cast<long>(j), got_mean[j], sum[j] / n,
                1e-5 * magnitude[j] / n + 1e-4 * std::fabs(sum[j] / n));
  }
  std::vector<double> squares(wm, 0.0);
  for (std::size_t i = 0; i < wn; ++i) {
    for (std::size_t j = 0; j < wm; ++j) {
      const double d = static_cast<double>(host_data[i * wm + j]) - static_cast<double>(got_mean[j]);
      squares[j] += d * d;
    }
  }
  for (std::size_t j = 0; j < wm; ++j) {
    double s = std::sqrt(squares[j] / n);
    if (s <= static_cast<double>(kEps)) s = 1.0;
    checker.add("std", static_cast<long>(j), got_std[j], s, 1e-4 * s);
  }

  // norm, all elements, from the GPU's mean and std: one subtraction, one product, one division (a few ulps).
  const double root_n = std::sqrt(static_cast<double>(n));
  for (std::size_t i = 0; i < wn; ++i) {
    for (std::size_t j = 0; j < wm; ++j) {
      const double x = static_cast<double>(host_data[i * wm + j]);
      const double mu = static_cast<double>(got_mean[j]);
      const double scale = root_n * static_cast<double>(got_std[j]);
      const double want = (x - mu) / scale;
      const double tolerance = 1e-5 * (std::fabs(x) + std::fabs(mu)) / scale + 1e-5 * std::fabs(want);
      checker.add("norm", static_cast<long>(i * wm + j), got_norm[i * wm + j], want, tolerance + 1e-9);
    }
  }

  // symmat: the whole diagonal, and a deterministic sample of elements from both triangles, from the GPU's norm.
  // Tolerance: 1e-3 of the value plus 1e-5 of the magnitude sum (~1 here, by Cauchy-Schwarz).
  for (std::size_t j = 0; j < wm; ++j) {
    checker.add("symmat", static_cast<long>(j * wm + j), got_symmat[j * wm + j], 1.0, 1e-6);
  }
  unsigned state = 777u;
  for (int s = 0; s < kSamples && m > 1; ++s) {
    state = state * 1664525u + 1013904223u;
    const std::size_t j1 = (state >> 8) % wm;
    state = state * 1664525u + 1013904223u;
    std::size_t j2 = (state >> 8) % wm;
    if (j2 == j1) j2 = (j2 + 1) % wm;
    double dot = 0.0;
    double mag = 0.0;
    for (std::size_t i = 0; i < wn; ++i) {
      const double term = static_cast<double>(got_norm[i * wm + j1]) * static_cast<double>(got_norm[i * wm + j2]);
      dot += term;
      mag += std::fabs(term);
    }
    checker.add("symmat", static_cast<long>(j1 * wm + j2), got_symmat[j1 * wm + j2], dot,
                1e-3 * std::fabs(dot) + 1e-5 * mag + 1e-9);
  }

  char detail[64];
  std::snprintf(detail, sizeof detail, "m=%d n=%d ", m, n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
