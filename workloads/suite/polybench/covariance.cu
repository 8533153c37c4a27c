// covariance: the m x m sample covariance matrix of n observations of m variables (an n x m single-precision data
// matrix, one row per observation), as PolyBench's covariance computes it: column means, the data centred on them,
// and symmat[j1][j2] = (sum over observations of centred[i][j1] * centred[i][j2]) / (n - 1). Follows the CUDA
// version of PolyBench/GPU (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes"): three
// kernels, covar_mean_kernel with one thread per column (1-D blocks of 256), covar_reduce_kernel with one thread
// per element (32 x 8 blocks). Departures: PolyBench/GPU's covariance kernel has one thread per row j1 of symmat
// that loops over all j2 >= j1 (the first thread's dependent chain of m * n multiply-adds alone would take ~10 ms
// at 2048 x 2048); here covar_kernel has one thread per symmat element (j1, j2) with j2 >= j1 (32 x 8 blocks, the
// threads of the lower triangle exit at once), each writing its value to both (j1, j2) and (j2, j1). The centred
// data go to a separate array rather than over the input, so that a repeat starts from the same input. Each thread
// accumulates in a register and stores once.
//
// GPU behaviour exercised: covar_mean_kernel launches only m / 256 = 8 blocks (8 of the 132 SMs, 8 warps each)
// whose threads walk their columns down n rows: every step a warp reads one coalesced 128-byte row segment, but
// with so few warps in flight the kernel is bound by memory latency, not bandwidth (measured ~81 us on an H100 at
// 2048 x 2048). covar_reduce_kernel is a streaming element-wise pass (16 MiB in, 16 MiB out, ~17 us). covar_kernel
// is a naive symmetric matrix product (centred^T centred on the upper triangle with the diagonal, 4.3 G
// multiply-adds): per step a warp loads one broadcast element and one coalesced row segment, so it is bound by L1
// load throughput (~1.57 ms); the mirrored store to (j2, j1) is a column walk (32 separate sectors per warp, once
// per thread). At most 32 registers per thread, full occupancy.
//
// Usage: ws_covariance [--m M (variables)] [--n N (observations)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "covariance";
constexpr int kBlock1 = 256;  // PolyBench/GPU's 1-D block size
constexpr int kBlockX = 32;   // PolyBench/GPU's 2-D block shape
constexpr int kBlockY = 8;
constexpr long kMaxDim = 8192;  // keeps every index inside int and the three arrays inside 768 MiB
constexpr int kSamples = 4096;  // off-diagonal symmat elements checked against the CPU

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x m data (row i = observation i, column j = variable j), m x m symmat.

/// mean[j] = (sum over i of data[i][j]) / n: one thread per column.
__global__ void covar_mean_kernel(const float* __restrict__ data, float* __restrict__ mean, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += data[i * m + j];
  mean[j] = sum / static_cast<float>(n);
}

/// centred[i][j] = data[i][j] - mean[j]: one thread per element.
__global__ void covar_reduce_kernel(const float* __restrict__ data, const float* __restrict__ mean,
                                    float* __restrict__ centred, int m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= m) return;
  centred[i * m + j] = data[i * m + j] - mean[j];
}

/// symmat[j1][j2] = symmat[j2][j1] = (sum over i of centred[i][j1] * centred[i][j2]) / (n - 1) for j2 >= j1.
/// j2 from threadIdx.x (coalesced), j1 from threadIdx.y (the same for a whole warp: a broadcast).
__global__ void covar_kernel(const float* __restrict__ centred, float* __restrict__ symmat, int m, int n) {
  const int j2 = blockIdx.x * blockDim.x + threadIdx.x;
  const int j1 = blockIdx.y * blockDim.y + threadIdx.y;
  if (j1 >= m || j2 >= m || j2 < j1) return;
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += centred[i * m + j1] * centred[i * m + j2];
  sum /= static_cast<float>(n - 1);
  symmat[j1 * m + j2] = sum;
  symmat[j2 * m + j1] = sum;  // the diagonal thread writes the same element twice
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

/// Checks symmat[j1][j2] against the double-precision product of the GPU's centred columns j1 and j2. Tolerance:
/// 1e-3 of the value plus 1e-5 of the magnitude sum (an n-term float sum errs by ~1e-6 of it).
void check_symmat(Checker& checker, const std::vector<float>& centred, const std::vector<float>& symmat, std::size_t wm,
                  std::size_t wn, std::size_t j1, std::size_t j2) {
  double dot = 0.0;
  double mag = 0.0;
  for (std::size_t i = 0; i < wn; ++i) {
    const double term = static_cast<double>(centred[i * wm + j1]) * static_cast<double>(centred[i * wm + j2]);
    dot += term;
    mag += std::fabs(term);
  }
  const double scale = 1.0 / static_cast<double>(wn - 1);
  checker.add("symmat", static_cast<long>(j1 * wm + j2), symmat[j1 * wm + j2], dot * scale,
              (1e-3 * std::fabs(dot) + 1e-5 * mag) * scale + 1e-9);
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_covariance: %s\nusage: ws_covariance [--m M (1..%ld)] [--n N (2..%ld)] [--repeat R]\n",
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
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int m = static_cast<int>(m_arg);
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);
  const std::size_t wm = static_cast<std::size_t>(m);
  const std::size_t wn = static_cast<std::size_t>(n);

  // Random values in [-1, 1), scaled (1, 1.25 or 1.5) and shifted (0, 0.25, 0.5 or 0.75) per column, so that the
  // columns differ in mean and variance and the centring matters.
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
  DeviceBuffer<float> centred(wn * wm);
  DeviceBuffer<float> symmat(wm * wm);
  data.upload(host_data);
  // All-ones bytes are a NaN float: an element that a kernel skips fails the check.
  WS_CHECK(cudaMemset(mean.get(), 0xFF, mean.bytes()));
  WS_CHECK(cudaMemset(centred.get(), 0xFF, centred.bytes()));
  WS_CHECK(cudaMemset(symmat.get(), 0xFF, symmat.bytes()));

  const unsigned blocks1 = static_cast<unsigned>((m + kBlock1 - 1) / kBlock1);
  const dim3 block2(kBlockX, kBlockY);
  const dim3 grid_reduce(static_cast<unsigned>((m + kBlockX - 1) / kBlockX),
                         static_cast<unsigned>((n + kBlockY - 1) / kBlockY));
  const dim3 grid_covar(static_cast<unsigned>((m + kBlockX - 1) / kBlockX),
                        static_cast<unsigned>((m + kBlockY - 1) / kBlockY));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    covar_mean_kernel<<<blocks1, kBlock1>>>(data.get(), mean.get(), m, n);
    timer.stop("covar_mean_kernel");
    timer.start();
    covar_reduce_kernel<<<grid_reduce, block2>>>(data.get(), mean.get(), centred.get(), m, n);
    timer.stop("covar_reduce_kernel");
    timer.start();
    covar_kernel<<<grid_covar, block2>>>(centred.get(), symmat.get(), m, n);
    timer.stop("covar_kernel");
  }

  // Each kernel is checked on its own inputs (the GPU's outputs of the kernels before it), in double, so that float
  // rounding does not compound from one check to the next.
  std::vector<float> got_mean;
  std::vector<float> got_centred;
  std::vector<float> got_symmat;
  mean.download(got_mean);
  centred.download(got_centred);
  symmat.download(got_symmat);
  Checker checker;

  // mean, all columns. Tolerance: 1e-5 of the mean magnitude of the terms plus 1e-4 of the value (an n-term float
  // sum errs by ~1e-6 of the magnitude sum; a missing or doubled row moves the result by ~1/n = 5e-4 of it).
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

  // centred, all elements, from the GPU's mean: one float subtraction (half an ulp of the operands).
  for (std::size_t i = 0; i < wn; ++i) {
    for (std::size_t j = 0; j < wm; ++j) {
      const double x = static_cast<double>(host_data[i * wm + j]);
      const double mu = static_cast<double>(got_mean[j]);
      checker.add("centred", static_cast<long>(i * wm + j), got_centred[i * wm + j], x - mu,
                  1e-6 * (std::fabs(x) + std::fabs(mu)) + 1e-9);
    }
  }

  // symmat: the whole diagonal and a deterministic sample of off-diagonal elements from both triangles, from the
  // GPU's centred data.
  for (std::size_t j = 0; j < wm; ++j) check_symmat(checker, got_centred, got_symmat, wm, wn, j, j);
  unsigned state = 777u;
  for (int s = 0; s < kSamples && m > 1; ++s) {
    state = state * 1664525u + 1013904223u;
    const std::size_t j1 = (state >> 8) % wm;
    state = state * 1664525u + 1013904223u;
    std::size_t j2 = (state >> 8) % wm;
    if (j2 == j1) j2 = (j2 + 1) % wm;
    check_symmat(checker, got_centred, got_symmat, wm, wn, j1, j2);
  }

  char detail[64];
  std::snprintf(detail, sizeof detail, "m=%d n=%d ", m, n);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
