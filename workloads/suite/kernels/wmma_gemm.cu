// wmma_gemm: square matrix multiplication C = A * B on the tensor cores through the CUDA C++ warp matrix API
// (nvcuda::wmma, CUDA Programming Guide "Warp Matrix Functions"): half-precision A and B, float accumulation and a
// float C, all row-major n x n. Shared-memory tiled like the Programming Guide's and the CUDA samples' tensor-core
// GEMM description: a block of 8 warps computes a 128 x 128 tile of C, stepping the shared dimension 32 at a time;
// each step stages a 128 x 32 slice of A and a 32 x 128 slice of B in shared memory with 16-byte loads, and each
// warp (2 x 4 warps per block) accumulates a 64 x 32 sub-tile = 4 x 2 fragments of 16 x 16 (16x16x16 mma_sync).
//
// GPU behaviour exercised: HMMA (wmma.mma.sync, m16n16k16, f16 in, f32 accumulate) fed by wmma.load from shared
// memory, with plain synchronous global->register->shared staging (no cp.async, no wgmma, no TMA, one buffer): a
// "first tensor-core kernel" that is far from cuBLAS speed and bound by the load/sync latency around the MMAs as
// much as by the tensor cores. Shared rows are padded by 8 halves (16 bytes) so fragment loads spread over banks
// while keeping every fragment pointer 32-byte aligned, as wmma::load_matrix_sync requires. ptxas -v: 126
// registers, 18.9 KB shared -> 2 blocks (16 warps) per SM, limited by registers; 1024 blocks for n = 4096.
// Measured on one H100 SXM (CUDA events): 0.65 ms for n = 4096 (~210 TFLOP/s; cuBLAS reaches ~650).
//
// Usage: ws_wmma_gemm [--n N (multiple of 128)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cuda_fp16.h>
#include <mma.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "wmma_gemm";
constexpr int kTileM = 128;                   // C rows per block
constexpr int kTileN = 128;                   // C columns per block
constexpr int kTileK = 32;                    // shared-dimension step
constexpr int kWarpsM = 2;                    // warps along the block's rows
constexpr int kWarpsN = 4;                    // warps along the block's columns
constexpr int kThreads = 32 * kWarpsM * kWarpsN;  // 256
constexpr int kWarpM = kTileM / kWarpsM;      // 64 rows per warp
constexpr int kWarpN = kTileN / kWarpsN;      // 32 columns per warp
constexpr int kFrag = 16;                     // wmma m = n = k
constexpr int kFragsM = kWarpM / kFrag;       // 4
constexpr int kFragsN = kWarpN / kFrag;       // 2
constexpr int kPad = 8;                       // halves of padding per shared row (16 bytes)
constexpr int kLdA = kTileK + kPad;           // 40 halves = 80 bytes
constexpr int kLdB = kTileN + kPad;           // 136 halves = 272 bytes
constexpr int kVec = 8;                       // halves per 16-byte load
constexpr int kSamples = 4096;                // C elements checked against the CPU
constexpr long kMaxN = 8192;

static_assert(kTileM * kTileK / kVec % kThreads == 0 && kTileK * kTileN / kVec % kThreads == 0,
              "tile loads must divide evenly among the threads");
static_assert((kLdA * 2) % 16 == 0 && (kLdB * 2) % 16 == 0, "shared rows must keep 16-byte alignment");

using ws::DeviceBuffer;
namespace wmma = nvcuda::wmma;

// ---------------------------------------------------------------------------------------------------------------
// Kernel. n must be a multiple of 128 (checked on the host): no edge tiles.

__global__ void __launch_bounds__(kThreads) wmma_gemm_tiled(const __half* __restrict__ a, const __half* __restrict__ b,
                                                            float* __restrict__ c, int n) {
  __shared__ __align__(128) __half tile_a[kTileM * kLdA];  // tile_a[m][k], row stride kLdA
  __shared__ __align__(128) __half tile_b[kTileK * kLdB];  // tile_b[k][n], row stride kLdB

  const int tid = threadIdx.x;
  const int warp = tid / 32;
  const int warp_row = warp / kWarpsN;  // 0..1
  const int warp_col = warp % kWarpsN;  // 0..3
  const int row0 = blockIdx.y * kTileM;
  const int col0 = blockIdx.x * kTileN;

  wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc[kFragsM][kFragsN];
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);
  }

  for (int k0 = 0; k0 < n; k0 += kTileK) {
    // A slice 128 x 32: 4 16-byte chunks per row, 2 chunks per thread; a warp reads 8 rows x 64 bytes.
#pragma unroll
    for (int l = 0; l < kTileM * kTileK / kVec / kThreads; ++l) {
      const int chunk = tid + l * kThreads;
      const int m = chunk / (kTileK / kVec);
      const int k = (chunk % (kTileK / kVec)) * kVec;
      *reinterpret_cast<uint4*>(&tile_a[m * kLdA + k]) =
          *reinterpret_cast<const uint4*>(&a[static_cast<std::size_t>(row0 + m) * n + (k0 + k)]);
    }
    // B slice 32 x 128: 16 chunks per row, 2 chunks per thread; a warp reads 2 rows x 256 bytes.
#pragma unroll
    for (int l = 0; l < kTileK * kTileN / kVec / kThreads; ++l) {
      const int chunk = tid + l * kThreads;
      const int k = chunk / (kTileN / kVec);
      const int col = (chunk % (kTileN / kVec)) * kVec;
      *reinterpret_cast<uint4*>(&tile_b[k * kLdB + col]) =
          *reinterpret_cast<const uint4*>(&b[static_cast<std::size_t>(k0 + k) * n + (col0 + col)]);
    }
    __syncthreads();

#pragma unroll
    for (int kk = 0; kk < kTileK; kk += kFrag) {
      wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> frag_a[kFragsM];
      wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> frag_b[kFragsN];
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
        wmma::load_matrix_sync(frag_a[i], &tile_a[(warp_row * kWarpM + i * kFrag) * kLdA + kk], kLdA);
      }
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) {
        wmma::load_matrix_sync(frag_b[j], &tile_b[kk * kLdB + warp_col * kWarpN + j * kFrag], kLdB);
      }
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], frag_a[i], frag_b[j], acc[i][j]);
      }
    }
    __syncthreads();  // the next step overwrites the tiles
  }

  // Each fragment straight to global memory (row-major, leading dimension n; 64-byte aligned pointers).
#pragma unroll
  for (int i = 0; i < kFragsM; ++i) {
#pragma unroll
    for (int j = 0; j < kFragsN; ++j) {
      const int row = row0 + warp_row * kWarpM + i * kFrag;
      const int col = col0 + warp_col * kWarpN + j * kFrag;
      wmma::store_matrix_sync(&c[static_cast<std::size_t>(row) * n + col], acc[i][j], n, wmma::mem_row_major);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

std::size_t at(int row, int col, int n) {
  return static_cast<std::size_t>(row) * static_cast<std::size_t>(n) + static_cast<std::size_t>(col);
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_wmma_gemm: %s\nusage: ws_wmma_gemm [--n N (128..%ld, multiple of 128)] [--repeat R]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < kTileM || n_arg > kMaxN || n_arg % kTileM != 0) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);

  // Inputs: random floats rounded to half; the CPU reference uses the rounded values (as floats, exactly).
  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  std::vector<float> host_b(elements);
  ws::fill_random(host_a, 21u);
  ws::fill_random(host_b, 22u);
  std::vector<__half> half_a(elements);
  std::vector<__half> half_b(elements);
  for (std::size_t i = 0; i < elements; ++i) {
    half_a[i] = __float2half(host_a[i]);
    host_a[i] = __half2float(half_a[i]);
    half_b[i] = __float2half(host_b[i]);
    host_b[i] = __half2float(half_b[i]);
  }

  DeviceBuffer<__half> a(elements);
  DeviceBuffer<__half> b(elements);
  DeviceBuffer<float> c(elements);
  a.upload(half_a);
  b.upload(half_b);
  WS_CHECK(cudaMemset(c.get(), 0xFF, c.bytes()));  // all-ones bytes are a NaN float: skipped elements fail

  const dim3 grid(static_cast<unsigned>(n / kTileN), static_cast<unsigned>(n / kTileM));
  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    wmma_gemm_tiled<<<grid, kThreads>>>(a.get(), b.get(), c.get(), n);
    timer.stop("wmma_gemm_tiled");
  }

  std::vector<float> host_c;
  c.download(host_c);

  // B transposed once so that each sampled inner product reads both operands contiguously.
  std::vector<float> host_bt(elements);
  for (int k = 0; k < n; ++k) {
    for (int j = 0; j < n; ++j) host_bt[at(j, k, n)] = host_b[at(k, j, n)];
  }
  // Tolerance: half x half products are exact in float, so the GPU's only error is its float accumulation
  // (~1e-6 of the magnitude sum sum_k |a*b| for n = 4096, whatever the tensor cores' rounding); 2e-4 of it leaves a
  // wide margin, while a lost 16-wide k step (~1e-3 of it) or a misplaced fragment fails.
  std::string failure;
  double worst = 0.0;
  unsigned state = 4242u;
  for (int s = 0; s < kSamples; ++s) {
    int row = (s & 1) ? n - 1 : 0;  // the four corners first
    int col = (s & 2) ? n - 1 : 0;
    if (s >= 4) {
      state = state * 1664525u + 1013904223u;
      row = static_cast<int>((state >> 8) % static_cast<unsigned>(n));
      state = state * 1664525u + 1013904223u;
      col = static_cast<int>((state >> 8) % static_cast<unsigned>(n));
    }
    const float* a_row = &host_a[at(row, 0, n)];
    const float* bt_row = &host_bt[at(col, 0, n)];
    double want = 0.0;
    double magnitude = 0.0;
    for (int k = 0; k < n; ++k) {
      const double term = static_cast<double>(a_row[k]) * static_cast<double>(bt_row[k]);
      want += term;
      magnitude += std::fabs(term);
    }
    const double got = host_c[at(row, col, n)];
    const double error = std::fabs(got - want);
    if (magnitude > 0.0 && error / magnitude > worst) worst = error / magnitude;
    const double tolerance = 1e-3 * std::fabs(want) + 2e-4 * magnitude;
    if (!(error <= tolerance) && failure.empty()) {  // negated so that NaN fails
      char text[160];
      std::snprintf(text, sizeof text, "C[%d][%d]=%.7g want %.7g (tolerance %.3g)", row, col, got, want, tolerance);
      failure = text;
    }
  }
  char detail[320];
  std::snprintf(detail, sizeof detail, "n=%d samples=%d worst_error/magnitude=%.3g %s", n, kSamples, worst,
                failure.empty() ? "all within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
