// spmv_csr: sparse matrix-vector product y = A * x with A in compressed sparse row (CSR) format, computed by the
// two classic CSR kernels of Bell & Garland ("Efficient Sparse Matrix-Vector Multiplication on CUDA", NVIDIA
// technical report NVR-2008-004, and the CUSP library's descriptions of them):
//   - spmv_csr_scalar: one thread per row walks its row's nonzeros;
//   - spmv_csr_vector: one warp per row, the 32 lanes stride over the row's nonzeros and combine their partial sums
//     with a warp-shuffle tree.
// The matrix is synthetic and deterministic: `rows` x `rows` (default 2^21), a power-law-like row length (log-uniform
// on 1..64 nonzeros, mean ~15, ~31 M nonzeros, ~250 MB of column indices and values) and column indices from a
// hash, so every x access is a random gather (x is 8 MB: it stays in the 50 MB L2, the gathers mostly hit L2).
//
// GPU behaviour exercised:
//   - scalar kernel: irregular, uncoalesced loads. In one load instruction the 32 lanes of a warp read 32 different
//     rows' k-th nonzero, i.e. 32 scattered 4-byte words (up to 32 sectors per request); the line is reused by the
//     next iterations only through L1. Lanes of a warp run for as many iterations as the warp's longest row
//     (branch divergence from the skewed row lengths). Memory-latency and L1/L2-transaction bound.
//   - vector kernel: coalesced loads of each row's contiguous nonzeros, but with ~15 nonzeros per row on average
//     most lanes sit idle, and each row pays a 5-step shuffle reduction: bound by warp-instruction issue and
//     latency rather than DRAM bandwidth.
//   - both: random 4-byte gathers x[col] (L2 hits, ~1 sector per lane).
// Launch shapes: scalar 256 threads/block, rows/256 = 8192 blocks; vector 256 threads/block (8 rows per block),
// rows/8 = 262144 blocks. Both kernels use few registers (full occupancy, 64 warps per SM).
//
// Usage: ws_spmv_csr [--rows N] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "spmv_csr";
constexpr int kBlock = 256;          // threads per block, both kernels
constexpr int kWarp = 32;
constexpr int kMaxRowLength = 64;    // row lengths are 1..kMaxRowLength
constexpr long kMaxRows = 1L << 24;  // keeps rows * kMaxRowLength (the nonzero count bound) inside int

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels.

/// One thread per row: the thread walks the row's nonzeros sequentially.
__global__ void spmv_csr_scalar(int rows, const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  const int begin = row_ptr[row];
  const int end = row_ptr[row + 1];
  float sum = 0.0f;
  for (int k = begin; k < end; ++k) sum += vals[k] * x[cols[k]];
  y[row] = sum;
}

/// One warp per row: lane l takes nonzeros begin+l, begin+l+32, ...; the partial sums are combined with
/// __shfl_down_sync and lane 0 writes y. The row index is the same for all lanes of a warp, so the early return
/// is warp-uniform and every lane of a live warp reaches the full-mask shuffles.
__global__ void spmv_csr_vector(int rows, const int* __restrict__ row_ptr, const int* __restrict__ cols,
                                const float* __restrict__ vals, const float* __restrict__ x, float* __restrict__ y) {
  const int row = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  const int lane = threadIdx.x % kWarp;
  if (row >= rows) return;
  const int begin = row_ptr[row];
  const int end = row_ptr[row + 1];
  float sum = 0.0f;
  for (int k = begin + lane; k < end; k += kWarp) sum += vals[k] * x[cols[k]];
  for (int offset = kWarp / 2; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// A 32-bit integer hash (two multiply-xorshift rounds): deterministic pseudo-random bits from an index.
std::uint32_t hash32(std::uint32_t v) {
  v ^= v >> 16;
  v *= 0x7feb352du;
  v ^= v >> 15;
  v *= 0x846ca68bu;
  v ^= v >> 16;
  return v;
}

/// Row length 1..kMaxRowLength, log-uniform (P(len = k) ~ 1/k: many short rows, a few long ones).
int row_length(int row) {
  const double u = static_cast<double>(hash32(2u * static_cast<std::uint32_t>(row) + 1u)) / 4294967296.0;
  const int len = static_cast<int>(std::exp2(u * std::log2(static_cast<double>(kMaxRowLength) + 1.0)));
  return std::min(std::max(len, 1), kMaxRowLength);
}

struct Csr {
  std::vector<int> row_ptr;
  std::vector<int> cols;
  std::vector<float> vals;
};

Csr make_matrix(int rows) {
  Csr a;
  a.row_ptr.resize(static_cast<std::size_t>(rows) + 1);
  a.row_ptr[0] = 0;
  for (int r = 0; r < rows; ++r) a.row_ptr[r + 1] = a.row_ptr[r] + row_length(r);
  const std::size_t nnz = static_cast<std::size_t>(a.row_ptr[rows]);
  a.cols.resize(nnz);
  a.vals.resize(nnz);
  ws::fill_random(a.vals, 11u);
  for (std::size_t k = 0; k < nnz; ++k) {
    a.cols[k] = static_cast<int>(hash32(static_cast<std::uint32_t>(k) ^ 0x9e3779b9u) % static_cast<std::uint32_t>(rows));
  }
  return a;
}

/// Compares y with double-precision row sums. Tolerance: relative 1e-3 of the value plus 1e-5 of the row's
/// magnitude sum sum_k |a_k x_k| (a float sum of <= 64 terms is off by at most ~4e-6 of it; a missing or wrong
/// term is off by ~1/len of it).
std::string check_rows(const char* name, const std::vector<float>& y, const Csr& a, const std::vector<float>& x,
                       int rows, double* worst) {
  for (int r = 0; r < rows; ++r) {
    double sum = 0.0;
    double magnitude = 0.0;
    for (int k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      const double term = static_cast<double>(a.vals[k]) * static_cast<double>(x[a.cols[k]]);
      sum += term;
      magnitude += std::fabs(term);
    }
    const double error = std::fabs(static_cast<double>(y[r]) - sum);
    if (magnitude > 0.0) *worst = std::max(*worst, error / magnitude);
    const double tolerance = 1e-3 * std::fabs(sum) + 1e-5 * magnitude;
    if (!(error <= tolerance)) {  // negated so that NaN fails
      char text[200];
      std::snprintf(text, sizeof text, "%s: y[%d]=%.7g want %.7g (tolerance %.3g)", name, r,
                    static_cast<double>(y[r]), sum, tolerance);
      return text;
    }
  }
  return "";
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_spmv_csr: %s\nusage: ws_spmv_csr [--rows N (%d..%ld)] [--repeat R]\n", message, kWarp,
               kMaxRows);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long rows_arg = ws::arg_long(argc, argv, "rows", 1L << 21);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (rows_arg < kWarp || rows_arg > kMaxRows) return usage("--rows out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int rows = static_cast<int>(rows_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const Csr host_a = make_matrix(rows);
  const std::size_t nnz = host_a.cols.size();
  std::vector<float> host_x(static_cast<std::size_t>(rows));
  ws::fill_random(host_x, 12u);

  DeviceBuffer<int> row_ptr(host_a.row_ptr.size());
  DeviceBuffer<int> cols(nnz);
  DeviceBuffer<float> vals(nnz);
  DeviceBuffer<float> x(host_x.size());
  DeviceBuffer<float> y_scalar(static_cast<std::size_t>(rows));
  DeviceBuffer<float> y_vector(static_cast<std::size_t>(rows));
  row_ptr.upload(host_a.row_ptr);
  cols.upload(host_a.cols);
  vals.upload(host_a.vals);
  x.upload(host_x);
  WS_CHECK(cudaMemset(y_scalar.get(), 0xFF, y_scalar.bytes()));  // NaN: rows a kernel skips fail the check
  WS_CHECK(cudaMemset(y_vector.get(), 0xFF, y_vector.bytes()));

  const unsigned scalar_grid = static_cast<unsigned>((rows + kBlock - 1) / kBlock);
  const unsigned vector_grid = static_cast<unsigned>((static_cast<long>(rows) * kWarp + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    spmv_csr_scalar<<<scalar_grid, kBlock>>>(rows, row_ptr.get(), cols.get(), vals.get(), x.get(), y_scalar.get());
    timer.stop("spmv_csr_scalar");
    timer.start();
    spmv_csr_vector<<<vector_grid, kBlock>>>(rows, row_ptr.get(), cols.get(), vals.get(), x.get(), y_vector.get());
    timer.stop("spmv_csr_vector");
  }

  std::vector<float> got_scalar;
  std::vector<float> got_vector;
  y_scalar.download(got_scalar);
  y_vector.download(got_vector);
  double worst = 0.0;
  std::string failure = check_rows("scalar", got_scalar, host_a, host_x, rows, &worst);
  if (failure.empty()) failure = check_rows("vector", got_vector, host_a, host_x, rows, &worst);
  char detail[320];
  std::snprintf(detail, sizeof detail, "rows=%d nnz=%zu worst_error/magnitude=%.3g %s", rows, nnz, worst,
                failure.empty() ? "all within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
