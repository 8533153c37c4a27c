// spmv_ell: sparse matrix-vector product y = A * x with A in ELLPACK (ELL) format, computed by the ELL kernel of
// Bell & Garland ("Efficient Sparse Matrix-Vector Multiplication on CUDA", NVIDIA technical report NVR-2008-004):
// every row is padded to the same width W (here the longest row, 32), and the rows x W column-index and value arrays
// are stored column-major (entry k of row r at k * rows + r), so that at each step k the threads of a warp, one per
// row, read 32 consecutive words. Padding entries have column -1 and value 0 and are skipped.
// The matrix is synthetic and deterministic: `rows` x `rows` (default 2^21), a power-law-like row length
// (log-uniform on 0..32, mean ~8, so ~75% of the stored entries are padding) and column indices from a hash (random
// gathers of the 8 MB x, which stays in the 50 MB L2).
//
// GPU behaviour exercised: perfectly coalesced streaming of the padded index/value arrays (512 MB, DRAM-bandwidth
// bound: every padded entry is read, as in Bell & Garland's kernel), a data-dependent branch per entry (lanes whose
// row has ended skip the x gather: divergence inside a warp) and random 4-byte gathers x[col] (L2 hits).
// Launch shape: 256 threads per block, one thread per row, rows/256 = 8192 blocks; few registers (full occupancy).
//
// Usage: ws_spmv_ell [--rows N] [--repeat R]
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

constexpr const char* kWorkload = "spmv_ell";
constexpr int kBlock = 256;
constexpr int kWidth = 32;           // ELL width: row lengths are 0..kWidth
constexpr long kMaxRows = 1L << 24;  // keeps kWidth * rows inside int and the arrays inside 1 GiB + x, y

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel.

/// One thread per row: the thread walks the row's kWidth slots; slot k of all rows is contiguous (column-major), so
/// consecutive threads read consecutive words. Padding slots (col < 0) are skipped.
__global__ void spmv_ell(int rows, const int* __restrict__ cols, const float* __restrict__ vals,
                         const float* __restrict__ x, float* __restrict__ y) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float sum = 0.0f;
  for (int k = 0; k < kWidth; ++k) {
    const int col = cols[k * rows + row];
    const float val = vals[k * rows + row];
    if (col >= 0) sum += val * x[col];
  }
  y[row] = sum;
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

/// Row length 0..kWidth, log-uniform on 1..kWidth+1 minus one (many short rows, a few full ones).
int row_length(int row) {
  const double u = static_cast<double>(hash32(2u * static_cast<std::uint32_t>(row) + 1u)) / 4294967296.0;
  const int len = static_cast<int>(std::exp2(u * std::log2(static_cast<double>(kWidth) + 2.0))) - 1;
  return std::min(std::max(len, 0), kWidth);
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_spmv_ell: %s\nusage: ws_spmv_ell [--rows N (1..%ld)] [--repeat R]\n", message, kMaxRows);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long rows_arg = ws::arg_long(argc, argv, "rows", 1L << 21);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (rows_arg < 1 || rows_arg > kMaxRows) return usage("--rows out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int rows = static_cast<int>(rows_arg);
  const int repeat = static_cast<int>(repeat_arg);

  // Column-major padded arrays; the values come from one LCG stream in (row, k) order.
  const std::size_t slots = static_cast<std::size_t>(kWidth) * static_cast<std::size_t>(rows);
  std::vector<int> host_cols(slots, -1);
  std::vector<float> host_vals(slots, 0.0f);
  std::vector<int> lengths(static_cast<std::size_t>(rows));
  std::vector<float> random_vals(static_cast<std::size_t>(kWidth));
  std::size_t nnz = 0;
  unsigned seed = 1000u;
  for (int r = 0; r < rows; ++r) {
    const int len = row_length(r);
    lengths[r] = len;
    ws::fill_random(random_vals, seed++);
    for (int k = 0; k < len; ++k) {
      const std::size_t slot = static_cast<std::size_t>(k) * static_cast<std::size_t>(rows) + static_cast<std::size_t>(r);
      host_cols[slot] = static_cast<int>(hash32(static_cast<std::uint32_t>(nnz + static_cast<std::size_t>(k)) ^ 0x9e3779b9u) %
                                         static_cast<std::uint32_t>(rows));
      host_vals[slot] = random_vals[k];
    }
    nnz += static_cast<std::size_t>(len);
  }
  std::vector<float> host_x(static_cast<std::size_t>(rows));
  ws::fill_random(host_x, 12u);

  DeviceBuffer<int> cols(slots);
  DeviceBuffer<float> vals(slots);
  DeviceBuffer<float> x(host_x.size());
  DeviceBuffer<float> y(static_cast<std::size_t>(rows));
  cols.upload(host_cols);
  vals.upload(host_vals);
  x.upload(host_x);
  WS_CHECK(cudaMemset(y.get(), 0xFF, y.bytes()));  // NaN: rows the kernel skips fail the check

  const unsigned grid = static_cast<unsigned>((rows + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    spmv_ell<<<grid, kBlock>>>(rows, cols.get(), vals.get(), x.get(), y.get());
    timer.stop("spmv_ell");
  }

  // Double-precision row sums. Tolerance: relative 1e-3 of the value plus 1e-5 of the row's magnitude sum
  // sum_k |a_k x_k| (a float sum of <= 32 terms is off by at most ~2e-6 of it; a missing term by ~1/len of it).
  std::vector<float> got;
  y.download(got);
  double worst = 0.0;
  std::string failure;
  for (int r = 0; r < rows && failure.empty(); ++r) {
    double sum = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < lengths[r]; ++k) {
      const std::size_t slot = static_cast<std::size_t>(k) * static_cast<std::size_t>(rows) + static_cast<std::size_t>(r);
      const double term = static_cast<double>(host_vals[slot]) * static_cast<double>(host_x[host_cols[slot]]);
      sum += term;
      magnitude += std::fabs(term);
    }
    const double error = std::fabs(static_cast<double>(got[r]) - sum);
    if (magnitude > 0.0) worst = std::max(worst, error / magnitude);
    const double tolerance = 1e-3 * std::fabs(sum) + 1e-5 * magnitude;
    if (!(error <= tolerance)) {  // negated so that NaN fails (an empty row must give exactly 0)
      char text[200];
      std::snprintf(text, sizeof text, "y[%d]=%.7g want %.7g (tolerance %.3g)", r, static_cast<double>(got[r]), sum,
                    tolerance);
      failure = text;
    }
  }
  char detail[320];
  std::snprintf(detail, sizeof detail, "rows=%d width=%d nnz=%zu worst_error/magnitude=%.3g %s", rows, kWidth, nnz,
                worst, failure.empty() ? "all within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
