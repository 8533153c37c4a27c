// Square single-precision matrix multiplication C = A * B, in two kernels that differ only in where the operands
// are read from: `matmul_naive` reads every A and B element from global memory, `matmul_tiled` stages 16x16 tiles
// in shared memory (the CUDA Programming Guide's classic). From the Petri-net paper (seeds 000), which validates its
// SM model with matrix multiplication next to radix sort.
//
// Usage: ws_matmul [--n N] [--variant naive|tiled|both] [--repeat R]
// Prints one `timing` line per launch and one `check` line per variant; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "gemm_reference.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "matmul";
// 16x16 = 256 threads per block: the Programming Guide's BLOCK_SIZE, used for both kernels so that their launch
// shapes match and only the memory used differs.
constexpr int kTile = 16;
constexpr int kSamples = 4096;   // C elements checked against the CPU (the full check would take minutes)
constexpr long kMaxN = 16384;    // keeps row * n + col inside int and the three matrices inside 3 GiB

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n matrices; threadIdx.x walks columns so that a warp's B and C accesses are contiguous.

/// One thread per C element; the inner product streams a row of A and a column of B straight from global memory.
__global__ void matmul_naive(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

/// One thread per C element; the block walks the shared dimension one kTile-wide step at a time, each thread
/// loading one element of the A tile and one of the B tile into shared memory, so that each global element is read
/// n / kTile times instead of n times.
__global__ void matmul_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  __shared__ float tile_a[kTile][kTile];
  __shared__ float tile_b[kTile][kTile];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;

  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += kTile) {
    // Out-of-range elements load as zero so that every thread (edge ones included) reaches both barriers and
    // n need not be a multiple of kTile.
    tile_a[ty][tx] = (row < n && k0 + tx < n) ? a[row * n + k0 + tx] : 0.0f;
    tile_b[ty][tx] = (k0 + ty < n && col < n) ? b[(k0 + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) sum += tile_a[ty][k] * tile_b[k][tx];
    __syncthreads();  // the next step overwrites the tiles
  }
  if (row < n && col < n) c[row * n + col] = sum;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

using Kernel = void (*)(const float*, const float*, float*, int);

/// Compares the sampled elements of C; returns "" when all agree, else a description of the first mismatch.
/// Tolerance: relative 1e-3 of the value, plus 1e-5 of the magnitude sum, because cancellation can bring a C
/// element close to zero while the float rounding error still scales with sum_k |a*b| (typical error for n = 2048
/// is ~1e-7 of that sum, so 1e-5 has a wide margin; a wrong or missing tile is off by ~1e-2 of it or more).
std::string compare_samples(const std::vector<float>& c, const std::vector<ws::GemmSample>& samples, int n) {
  for (const ws::GemmSample& s : samples) {
    const double got = static_cast<double>(c[ws::at(s.row, s.col, n)]);
    const double tolerance = 1e-3 * std::fabs(s.want) + 1e-5 * s.magnitude;
    if (!(std::fabs(got - s.want) <= tolerance)) {  // negated so that NaN fails
      char text[160];
      std::snprintf(text, sizeof text, "C[%d][%d]=%.6g want %.6g (tolerance %.3g)", s.row, s.col, got, s.want,
                    tolerance);
      return text;
    }
  }
  return "";
}

/// Launches one kernel `repeat` times on a C that starts as NaN (so that a kernel which skips elements cannot pass
/// on stale values), then checks the sampled elements. Returns the exit status of the check.
int run_variant(const char* name, Kernel kernel, ws::KernelTimer& timer, const DeviceBuffer<float>& a,
                const DeviceBuffer<float>& b, DeviceBuffer<float>& c, int n, int repeat,
                const std::vector<ws::GemmSample>& samples) {
  WS_CHECK(cudaMemset(c.get(), 0xFF, c.bytes()));  // all-ones bytes are a NaN float
  const dim3 block(kTile, kTile);
  const dim3 grid(static_cast<unsigned>((n + kTile - 1) / kTile), static_cast<unsigned>((n + kTile - 1) / kTile));
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    kernel<<<grid, block>>>(a.get(), b.get(), c.get(), n);
    WS_CHECK(cudaGetLastError());
    timer.stop(name);
  }
  std::vector<float> host_c;
  c.download(host_c);
  const std::string mismatch = compare_samples(host_c, samples, n);
  char detail[256];
  std::snprintf(detail, sizeof detail, "variant=%s n=%d samples=%zu %s", name, n, samples.size(),
                mismatch.empty() ? "all within tolerance" : mismatch.c_str());
  return ws::report_check(kWorkload, mismatch.empty(), detail);
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_matmul: %s\nusage: ws_matmul [--n N (1..%ld)] [--variant naive|tiled|both] [--repeat R]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 2048);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  const std::string variant = ws::arg_string(argc, argv, "variant", "both");
  if (n_arg < 1 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 1000) return usage("--repeat must be 1..1000");
  const bool run_naive = variant == "naive" || variant == "both";
  const bool run_tiled = variant == "tiled" || variant == "both";
  if (!run_naive && !run_tiled) return usage("--variant must be naive, tiled or both");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  std::vector<float> host_b(elements);
  ws::fill_random(host_a, 1u);
  ws::fill_random(host_b, 2u);
  const std::vector<ws::GemmSample> samples = ws::gemm_reference_samples(host_a, host_b, n, kSamples);

  DeviceBuffer<float> a(elements);
  DeviceBuffer<float> b(elements);
  DeviceBuffer<float> c(elements);
  a.upload(host_a);
  b.upload(host_b);

  ws::KernelTimer timer(kWorkload);
  int status = 0;
  if (run_naive && run_variant("matmul_naive", matmul_naive, timer, a, b, c, n, repeat, samples) != 0) status = 1;
  if (run_tiled && run_variant("matmul_tiled", matmul_tiled, timer, a, b, c, n, repeat, samples) != 0) status = 1;
  return status;
}
