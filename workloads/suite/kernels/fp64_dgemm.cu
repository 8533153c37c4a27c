// fp64_dgemm: square double-precision matrix multiplication C = A * B (n x n, row-major), the textbook
// shared-memory tiled GEMM (CUDA Programming Guide's tiled matrix multiply, extended with register blocking as in
// Volkov & Demmel's "Benchmarking GPUs to tune dense linear algebra"): a 256-thread block computes a 64 x 64 tile of
// C, walking the shared dimension 16 at a time; each step stages a 64 x 16 slice of A and a 16 x 64 slice of B in
// shared memory, and each thread accumulates a 4 x 4 block of C in registers.
//
// GPU behaviour exercised: the FP64 FMA pipe (DFMA, no tensor cores: plain C++ double fma, not DMMA), fed from
// shared memory. Per k step a warp issues 16 DFMA and 8 LDS.64 (4 broadcasts of A, 4 conflict-free 128-byte rows
// of B), so the kernel is bound by DFMA issue (64 lanes/clock/SM on H100) with shared-memory load throughput close
// behind. The A slice is stored transposed with one double of padding per row so that the 16 different k of a
// warp's store land in distinct banks. ptxas -v: 80 registers, 16.5 KB shared per block, no spills -> 3 blocks
// (24 warps) per SM, limited by registers; grid (n/64)^2 = 1024 blocks for n = 2048, ~2.6 waves on 132 SMs.
// Measured on one H100 SXM (CUDA events): 1.08 ms for n = 2048 (16 TFLOP/s, about half the FP64 FMA peak).
//
// Usage: ws_fp64_dgemm [--n N (multiple of 64)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "gemm_reference.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "fp64_dgemm";
constexpr int kTileM = 64;   // rows of C per block
constexpr int kTileN = 64;   // columns of C per block
constexpr int kTileK = 16;   // shared-dimension step
constexpr int kThreadsX = 16;
constexpr int kThreadsY = 16;
constexpr int kThreads = kThreadsX * kThreadsY;        // 256
constexpr int kPerThread = kTileM / kThreadsY;         // 4 x 4 C elements per thread
constexpr int kSamples = 4096;                         // C elements checked against the CPU
constexpr long kMaxN = 8192;                           // three 8192^2 double matrices: 1.5 GiB

static_assert(kTileM * kTileK % kThreads == 0 && kTileK * kTileN % kThreads == 0, "tile loads must divide evenly");

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. Thread (ty, tx) owns C rows row0 + ty + 16*i and columns col0 + tx + 16*j (i, j < 4): a warp (two values
// of ty, sixteen of tx) reads two broadcast A values and sixteen consecutive B values per shared load, and its C
// stores are 128-byte rows. n must be a multiple of 64 (checked on the host), so there are no edge tiles.

__global__ void __launch_bounds__(kThreads) dgemm_tiled(const double* __restrict__ a, const double* __restrict__ b,
                                                        double* __restrict__ c, int n) {
  __shared__ double tile_a[kTileK][kTileM + 1];  // transposed: tile_a[k][m]; +1 double keeps the stores conflict-free
  __shared__ double tile_b[kTileK][kTileN];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * kThreadsX + tx;
  const int row0 = blockIdx.y * kTileM;
  const int col0 = blockIdx.x * kTileN;

  double acc[kPerThread][kPerThread];
#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) acc[i][j] = 0.0;
  }

  for (int k0 = 0; k0 < n; k0 += kTileK) {
    // A slice: 64 rows x 16 k; consecutive threads read consecutive k of a row (128-byte segments).
#pragma unroll
    for (int l = 0; l < kTileM * kTileK / kThreads; ++l) {
      const int idx = tid + l * kThreads;
      const int m = idx / kTileK;
      const int k = idx % kTileK;
      tile_a[k][m] = a[static_cast<std::size_t>(row0 + m) * n + (k0 + k)];
    }
    // B slice: 16 k x 64 columns; consecutive threads read consecutive columns.
#pragma unroll
    for (int l = 0; l < kTileK * kTileN / kThreads; ++l) {
      const int idx = tid + l * kThreads;
      const int k = idx / kTileN;
      const int col = idx % kTileN;
      tile_b[k][col] = b[static_cast<std::size_t>(k0 + k) * n + (col0 + col)];
    }
    __syncthreads();

#pragma unroll
    for (int k = 0; k < kTileK; ++k) {
      double av[kPerThread];
      double bv[kPerThread];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) av[i] = tile_a[k][ty + kThreadsY * i];
#pragma unroll
      for (int j = 0; j < kPerThread; ++j) bv[j] = tile_b[k][tx + kThreadsX * j];
#pragma unroll
      for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) acc[i][j] = fma(av[i], bv[j], acc[i][j]);
      }
    }
    __syncthreads();  // the next step overwrites the tiles
  }

#pragma unroll
  for (int i = 0; i < kPerThread; ++i) {
#pragma unroll
    for (int j = 0; j < kPerThread; ++j) {
      c[static_cast<std::size_t>(row0 + ty + kThreadsY * i) * n + (col0 + tx + kThreadsX * j)] = acc[i][j];
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr, "ws_fp64_dgemm: %s\nusage: ws_fp64_dgemm [--n N (64..%ld, multiple of 64)] [--repeat R]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 2048);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < kTileM || n_arg > kMaxN || n_arg % kTileM != 0) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  // Inputs are floats widened to double: the CPU reference (in double) then sees exactly the GPU's operands.
  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a32(elements);
  std::vector<float> host_b32(elements);
  ws::fill_random(host_a32, 11u);
  ws::fill_random(host_b32, 12u);
  const std::vector<double> host_a(host_a32.begin(), host_a32.end());
  const std::vector<double> host_b(host_b32.begin(), host_b32.end());
  const std::vector<ws::GemmSample> samples = ws::gemm_reference_samples(host_a32, host_b32, n, kSamples);

  DeviceBuffer<double> a(elements);
  DeviceBuffer<double> b(elements);
  DeviceBuffer<double> c(elements);
  a.upload(host_a);
  b.upload(host_b);
  WS_CHECK(cudaMemset(c.get(), 0xFF, c.bytes()));  // all-ones bytes are a NaN double: skipped elements fail

  const dim3 block(kThreadsX, kThreadsY);
  const dim3 grid(static_cast<unsigned>(n / kTileN), static_cast<unsigned>(n / kTileM));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    dgemm_tiled<<<grid, block>>>(a.get(), b.get(), c.get(), n);
    timer.stop("dgemm_tiled");
  }

  std::vector<double> host_c;
  c.download(host_c);
  // Tolerance: the GPU sums in double in a different order from the CPU, so the two differ by ~n * 1e-16 of the
  // magnitude sum (~2e-13 for n = 2048); 1e-10 of it leaves a wide margin, while a float accumulation (~1e-7) or a
  // missing k term (~1/n of the magnitude) fails.
  std::string failure;
  double worst = 0.0;
  for (const ws::GemmSample& s : samples) {
    const double got = host_c[ws::at(s.row, s.col, n)];
    const double error = std::fabs(got - s.want);
    if (s.magnitude > 0.0 && error / s.magnitude > worst) worst = error / s.magnitude;
    const double tolerance = 1e-10 * (s.magnitude + std::fabs(s.want));
    if (!(error <= tolerance) && failure.empty()) {  // negated so that NaN fails
      char text[160];
      std::snprintf(text, sizeof text, "C[%d][%d]=%.15g want %.15g (tolerance %.3g)", s.row, s.col, got, s.want,
                    tolerance);
      failure = text;
    }
  }
  char detail[320];
  std::snprintf(detail, sizeof detail, "n=%d samples=%zu worst_error/magnitude=%.3g %s", n, samples.size(), worst,
                failure.empty() ? "all within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
