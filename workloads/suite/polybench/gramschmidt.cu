// gramschmidt: the first steps of a QR decomposition by modified Gram-Schmidt of a tall m x n single-precision
// matrix A (PolyBench's gramschmidt): step k computes R[k][k] = ||A[:,k]||, Q[:,k] = A[:,k] / R[k][k], and for every
// column j > k, R[k][j] = Q[:,k] . A[:,j] followed by A[:,j] -= Q[:,k] * R[k][j]. Follows the structure of
// PolyBench/GPU's CUDA version (Grauer-Gray et al., "Auto-tuning a high-level language targeted to GPU codes"):
// three kernels per step (norm, normalise, update of the remaining columns), row-major arrays, 256-thread blocks.
// Departures, so that each launch does a meaningful amount of parallel work: PolyBench/GPU computes the norm in a
// single thread; here gramschmidt_kernel1 is a single block of 256 threads that reduces the column in shared
// memory. PolyBench/GPU's update kernel has one thread per column j walking all rows twice; here
// gramschmidt_kernel3 has one block per column j, its threads reducing the dot product over the rows in shared
// memory and then updating the column. Only the first `--cols` columns are processed (default 8: 24 launches; the
// full decomposition would take 3n launches) and checked against the CPU doing the same steps.
//
// GPU behaviour exercised: column walks of a row-major matrix, i.e. uncoalesced accesses. With n = 32 a row is one
// 128-byte line, so in every access the 32 lanes of a warp touch 32 different lines (one 32-byte sector each).
// gramschmidt_kernel1 runs on one SM only (one block, 8 warps) over m = 2^19 rows: bound by that SM's memory
// latency and miss handling, measured ~0.28 ms on an H100. gramschmidt_kernel2 is one thread per row (2048
// blocks): one sector read and one partial-sector write per row, ~32 MiB of sector traffic, ~35 us.
// gramschmidt_kernel3 runs n-k-1 blocks (31 down to 24: a quarter of the 132 SMs, one block each), each reading
// Q[:,k] and A[:,j] twice and writing A[:,j] once, all 2^19-row column walks: bound by per-SM L1 miss throughput
// (32 sectors per warp access), ~1.8 ms. The blocks of kernel3 share Q[:,k] and the 128-byte lines of A (the 8 floats
// of a sector belong to 8 different blocks), so most of their traffic is L2 hits; A and Q are 64 MiB each. The
// shared-memory reduction has __syncthreads() reached by all threads. Few registers, so occupancy is set by the grid,
// not the SM.
//
// Usage: ws_gramschmidt [--m M (rows)] [--n N (columns)] [--cols K (steps)]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "gramschmidt";
constexpr int kBlock = 256;              // PolyBench/GPU's 1-D block size; a power of two for the tree reductions
constexpr long kMaxElements = 1L << 27;  // m * n: keeps i * n + j inside int and A, Q inside 512 MiB each
constexpr long kMaxCols = 10;            // three launches per step: at most 30 launches
constexpr long kMaxN = 4096;             // keeps the n x n R small

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major m x n A and Q, n x n R; column k is a walk with stride n.

/// Sums `value` over the block (kBlock threads) through shared memory; every thread gets the total. Must be reached
/// by all threads of the block.
__device__ float block_sum(float value, float* partial) {
  const int t = threadIdx.x;
  partial[t] = value;
  __syncthreads();
  for (int s = kBlock / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  return partial[0];
}

/// R[k][k] = sqrt(sum over i of A[i][k]^2): one block of kBlock threads.
__global__ void gramschmidt_kernel1(const float* __restrict__ a, float* __restrict__ r, int m, int n, int k) {
  __shared__ float partial[kBlock];
  float sum = 0.0f;
  for (int i = threadIdx.x; i < m; i += kBlock) {
    const float v = a[i * n + k];
    sum += v * v;
  }
  const float total = block_sum(sum, partial);
  if (threadIdx.x == 0) r[k * n + k] = sqrtf(total);
}

/// Q[i][k] = A[i][k] / R[k][k]: one thread per row.
__global__ void gramschmidt_kernel2(const float* __restrict__ a, const float* __restrict__ r, float* __restrict__ q,
                                    int m, int n, int k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) q[i * n + k] = a[i * n + k] / r[k * n + k];
}

/// For column j = k + 1 + blockIdx.x: R[k][j] = sum over i of Q[i][k] * A[i][j], then A[i][j] -= Q[i][k] * R[k][j].
/// One block of kBlock threads per column; the first loop must finish (block_sum's barriers) before the second.
__global__ void gramschmidt_kernel3(float* __restrict__ a, float* __restrict__ r, const float* __restrict__ q, int m,
                                    int n, int k) {
  __shared__ float partial[kBlock];
  const int j = k + 1 + blockIdx.x;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < m; i += kBlock) sum += q[i * n + k] * a[i * n + j];
  const float rkj = block_sum(sum, partial);
  if (threadIdx.x == 0) r[k * n + j] = rkj;
  for (int i = threadIdx.x; i < m; i += kBlock) a[i * n + j] = a[i * n + j] - q[i * n + k] * rkj;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// Counts comparisons, keeps the first failure and the worst error relative to its tolerance (printed in the check
/// line, so that the tolerance's margin is visible). NaN fails.
class Checker {
 public:
  void add(const char* array, long row, long col, float got, double want, double tolerance) {
    ++count_;
    const double error = std::fabs(static_cast<double>(got) - want);
    if (error / tolerance > worst_) worst_ = error / tolerance;
    if (!(error <= tolerance) && failure_.empty()) {
      char text[200];
      std::snprintf(text, sizeof text, "%s[%ld][%ld]=%.7g want %.7g (tolerance %.3g)", array, row, col,
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

/// The CPU's result of the first `cols` steps, in double: the updated A, Q's first `cols` columns, R's first `cols`
/// rows, and for each R element the sum of its terms' magnitudes (for the tolerance).
struct Reference {
  std::vector<double> a;
  std::vector<double> q;
  std::vector<double> r;
  std::vector<double> r_magnitude;
};

Reference reference(const std::vector<float>& a_in, std::size_t m, std::size_t n, std::size_t cols) {
  Reference ref;
  ref.a.assign(a_in.begin(), a_in.end());
  ref.q.assign(m * n, 0.0);
  ref.r.assign(n * n, 0.0);
  ref.r_magnitude.assign(n * n, 0.0);
  std::vector<double>& a = ref.a;
  for (std::size_t k = 0; k < cols; ++k) {
    double nrm = 0.0;
    for (std::size_t i = 0; i < m; ++i) nrm += a[i * n + k] * a[i * n + k];
    const double rkk = std::sqrt(nrm);
    ref.r[k * n + k] = rkk;
    ref.r_magnitude[k * n + k] = rkk;
    for (std::size_t i = 0; i < m; ++i) ref.q[i * n + k] = a[i * n + k] / rkk;
    // Dot products with every later column, rows outer so that the CPU streams A.
    for (std::size_t i = 0; i < m; ++i) {
      const double qik = ref.q[i * n + k];
      const double* row = a.data() + i * n;
      for (std::size_t j = k + 1; j < n; ++j) {
        ref.r[k * n + j] += qik * row[j];
        ref.r_magnitude[k * n + j] += std::fabs(qik * row[j]);
      }
    }
    for (std::size_t i = 0; i < m; ++i) {
      const double qik = ref.q[i * n + k];
      double* row = a.data() + i * n;
      for (std::size_t j = k + 1; j < n; ++j) row[j] -= qik * ref.r[k * n + j];
    }
  }
  return ref;
}

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_gramschmidt: %s\nusage: ws_gramschmidt [--m M] [--n N (2..%ld)] [--cols K (1..min(n-1, %ld))] "
               "with m * n <= %ld\n",
               message, kMaxN, kMaxCols, kMaxElements);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long m_arg = ws::arg_long(argc, argv, "m", 1L << 19);
  const long n_arg = ws::arg_long(argc, argv, "n", 32);
  const long cols_arg = ws::arg_long(argc, argv, "cols", 8);
  if (m_arg < 1 || n_arg < 2 || n_arg > kMaxN || m_arg > kMaxElements / n_arg) return usage("--m or --n out of range");
  if (cols_arg < 1 || cols_arg > kMaxCols || cols_arg > n_arg - 1) return usage("--cols out of range");
  const int m = static_cast<int>(m_arg);
  const int n = static_cast<int>(n_arg);
  const int cols = static_cast<int>(cols_arg);
  const std::size_t wm = static_cast<std::size_t>(m);
  const std::size_t wn = static_cast<std::size_t>(n);

  // Random entries in [-1, 1): the columns of a tall random matrix are far from dependent, so Gram-Schmidt is
  // well conditioned and float and double results stay close.
  std::vector<float> host_a(wm * wn);
  ws::fill_random(host_a, 1u);

  DeviceBuffer<float> a(wm * wn);
  DeviceBuffer<float> q(wm * wn);
  DeviceBuffer<float> r(wn * wn);
  a.upload(host_a);
  // All-ones bytes are a NaN float: an element that a kernel skips fails the check.
  WS_CHECK(cudaMemset(q.get(), 0xFF, q.bytes()));
  WS_CHECK(cudaMemset(r.get(), 0xFF, r.bytes()));

  const unsigned row_blocks = static_cast<unsigned>((m + kBlock - 1) / kBlock);
  ws::KernelTimer timer(kWorkload);
  for (int k = 0; k < cols; ++k) {
    timer.start();
    gramschmidt_kernel1<<<1, kBlock>>>(a.get(), r.get(), m, n, k);
    timer.stop("gramschmidt_kernel1");
    timer.start();
    gramschmidt_kernel2<<<row_blocks, kBlock>>>(a.get(), r.get(), q.get(), m, n, k);
    timer.stop("gramschmidt_kernel2");
    timer.start();
    gramschmidt_kernel3<<<static_cast<unsigned>(n - k - 1), kBlock>>>(a.get(), r.get(), q.get(), m, n, k);
    timer.stop("gramschmidt_kernel3");
  }

  std::vector<float> got_a;
  std::vector<float> got_q;
  std::vector<float> got_r;
  a.download(got_a);
  q.download(got_q);
  r.download(got_r);
  const Reference ref = reference(host_a, wm, wn, static_cast<std::size_t>(cols));

  // Tolerances. R: 1e-4 of the value plus 1e-5 of its terms' magnitude sum (the float sums of 2^19 terms err by
  // ~1e-6 of it; a missing block of rows is off by ~1e-3 of it or more). Q and A are element-wise results of those:
  // 1e-3 of the value plus an absolute floor well below their typical size (Q ~ 1/sqrt(m) ~ 1e-3, A ~ 0.5).
  Checker checker;
  for (std::size_t k = 0; k < static_cast<std::size_t>(cols); ++k) {
    for (std::size_t j = k; j < wn; ++j) {
      const std::size_t e = k * wn + j;
      checker.add("R", static_cast<long>(k), static_cast<long>(j), got_r[e], ref.r[e],
                  1e-4 * std::fabs(ref.r[e]) + 1e-5 * ref.r_magnitude[e]);
    }
  }
  for (std::size_t i = 0; i < wm; ++i) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(cols); ++k) {
      const std::size_t e = i * wn + k;
      checker.add("Q", static_cast<long>(i), static_cast<long>(k), got_q[e], ref.q[e],
                  1e-3 * std::fabs(ref.q[e]) + 1e-7);
    }
    for (std::size_t j = 0; j < wn; ++j) {
      const std::size_t e = i * wn + j;
      checker.add("A", static_cast<long>(i), static_cast<long>(j), got_a[e], ref.a[e],
                  1e-3 * std::fabs(ref.a[e]) + 1e-5);
    }
  }
  char detail[80];
  std::snprintf(detail, sizeof detail, "m=%d n=%d cols=%d ", m, n, cols);
  return ws::report_check(kWorkload, checker.ok(), detail + checker.summary());
}
