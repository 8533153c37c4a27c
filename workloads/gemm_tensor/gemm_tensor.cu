// Square GEMM C = A * B on Hopper's tensor cores the way real programs reach them, next to the non-tensor baseline:
// a hand-written nvcuda::wmma kernel (mma.sync: HMMA), cuBLAS fp16 / bf16 / tf32 GEMMs (sm90 wgmma kernels: GMMA),
// cuBLAS SGEMM (SIMT FFMA, no tensor cores) and cuBLAS DGEMM (FP64 tensor cores: DMMA). Written to validate the
// simulator's tensor-core model against traces of kernels whose instruction mix is known.
//
// Usage: ws_gemm_tensor [--n N] [--variant wmma_fp16|cublas_fp16|cublas_bf16|cublas_tf32|cublas_fp32|cublas_fp64|all]
//                       [--repeat R]
// Prints one `timing` line per launch (warm-ups under `gemm_tensor_warmup`), one `info` line with the TFLOP/s and one
// `check` line per variant; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "gemm_reference.h"
#include "workload.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define WS_CUBLAS_CHECK(call)                                                                           \
  do {                                                                                                  \
    cublasStatus_t ws_cublas_status_ = (call);                                                          \
    if (ws_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                         \
                   cublasGetStatusString(ws_cublas_status_));                                           \
      std::exit(2);                                                                                     \
    }                                                                                                   \
  } while (0)

namespace {

constexpr const char* kWorkload = "gemm_tensor";
constexpr const char* kWarmupWorkload = "gemm_tensor_warmup";  // the warm-up launches' timing lines
constexpr int kSamples = 256;            // C elements checked against the CPU per variant (corners included)
constexpr long kMaxN = 16384;            // keeps row * n + col inside int; fp64 matrices then take 6 GiB
constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;  // cuBLAS's recommended workspace on Hopper

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// WMMA kernel: fp16 inputs, fp32 accumulators, row-major A, B and C. Each 256-thread block computes a 128 x 128
// tile of C; its 8 warps sit 2 (rows) x 4 (columns), each owning 64 x 32 of the tile = 4 x 2 accumulator fragments
// of 16 x 16. The block walks K in steps of 32: it stages a 128 x 32 tile of A and a 32 x 128 tile of B in shared
// memory (16-byte loads, two per thread per tile), then each warp does two 16-deep steps of 4 x 2 mma_sync.
// n must be a multiple of 128 (checked on the host).

namespace wmma = nvcuda::wmma;

constexpr int kWmmaThreads = 256;
constexpr int kBlockM = 128;  // C rows per block
constexpr int kBlockN = 128;  // C columns per block
constexpr int kBlockK = 32;   // K per shared-memory stage
constexpr int kFrag = 16;     // WMMA m = n = k
constexpr int kWarpsN = 4;    // warps across the block's columns (2 down its rows)
constexpr int kWarpM = 64;    // C rows per warp
constexpr int kWarpN = 32;    // C columns per warp
constexpr int kFragsM = kWarpM / kFrag;  // 4
constexpr int kFragsN = kWarpN / kFrag;  // 2
// Rows padded by 8 halves (16 bytes): keeps every row and every fragment pointer 32-byte aligned (as
// load_matrix_sync requires) and puts the 8 rows of each 8x8 shared-memory load in different banks.
constexpr int kStrideA = kBlockK + 8;  // 40 halves
constexpr int kStrideB = kBlockN + 8;  // 136 halves
constexpr int kChunk = 8;              // halves per 16-byte load
constexpr int kLoadsPerThread = 2;     // 16-byte loads per thread per tile and stage

static_assert((kBlockM / kWarpM) * kWarpsN * 32 == kWmmaThreads, "warp layout must cover the block tile");
static_assert(kBlockM * kBlockK / kChunk == kLoadsPerThread * kWmmaThreads, "A tile: two 16-byte loads per thread");
static_assert(kBlockK * kBlockN / kChunk == kLoadsPerThread * kWmmaThreads, "B tile: two 16-byte loads per thread");

__global__ void __launch_bounds__(kWmmaThreads) gemm_wmma_fp16(const __half* __restrict__ a,
                                                               const __half* __restrict__ b, float* __restrict__ c,
                                                               int n) {
  __shared__ __align__(128) __half tile_a[kBlockM][kStrideA];
  __shared__ __align__(128) __half tile_b[kBlockK][kStrideB];
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const int warp_row = (warp / kWarpsN) * kWarpM;  // within the block tile
  const int warp_col = (warp % kWarpsN) * kWarpN;
  const int block_row = static_cast<int>(blockIdx.y) * kBlockM;
  const int block_col = static_cast<int>(blockIdx.x) * kBlockN;

  wmma::fragment<wmma::accumulator, kFrag, kFrag, kFrag, float> acc[kFragsM][kFragsN];
  for (int i = 0; i < kFragsM; ++i)
    for (int j = 0; j < kFragsN; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

  for (int k0 = 0; k0 < n; k0 += kBlockK) {
#pragma unroll
    for (int load = 0; load < kLoadsPerThread; ++load) {
      const int chunk = static_cast<int>(threadIdx.x) + load * kWmmaThreads;
      const int row = chunk / (kBlockK / kChunk);
      const int col = (chunk % (kBlockK / kChunk)) * kChunk;
      const std::size_t from = static_cast<std::size_t>(block_row + row) * static_cast<std::size_t>(n) +
                               static_cast<std::size_t>(k0 + col);
      *reinterpret_cast<uint4*>(&tile_a[row][col]) = *reinterpret_cast<const uint4*>(a + from);
    }
#pragma unroll
    for (int load = 0; load < kLoadsPerThread; ++load) {
      const int chunk = static_cast<int>(threadIdx.x) + load * kWmmaThreads;
      const int row = chunk / (kBlockN / kChunk);
      const int col = (chunk % (kBlockN / kChunk)) * kChunk;
      const std::size_t from = static_cast<std::size_t>(k0 + row) * static_cast<std::size_t>(n) +
                               static_cast<std::size_t>(block_col + col);
      *reinterpret_cast<uint4*>(&tile_b[row][col]) = *reinterpret_cast<const uint4*>(b + from);
    }
    __syncthreads();
#pragma unroll
    for (int kk = 0; kk < kBlockK; kk += kFrag) {
      wmma::fragment<wmma::matrix_a, kFrag, kFrag, kFrag, __half, wmma::row_major> frag_a[kFragsM];
      wmma::fragment<wmma::matrix_b, kFrag, kFrag, kFrag, __half, wmma::row_major> frag_b[kFragsN];
#pragma unroll
      for (int i = 0; i < kFragsM; ++i) wmma::load_matrix_sync(frag_a[i], &tile_a[warp_row + i * kFrag][kk], kStrideA);
#pragma unroll
      for (int j = 0; j < kFragsN; ++j) wmma::load_matrix_sync(frag_b[j], &tile_b[kk][warp_col + j * kFrag], kStrideB);
#pragma unroll
      for (int i = 0; i < kFragsM; ++i)
#pragma unroll
        for (int j = 0; j < kFragsN; ++j) wmma::mma_sync(acc[i][j], frag_a[i], frag_b[j], acc[i][j]);
    }
    __syncthreads();  // the next stage overwrites the tiles
  }

  for (int i = 0; i < kFragsM; ++i) {
    for (int j = 0; j < kFragsN; ++j) {
      const std::size_t to = static_cast<std::size_t>(block_row + warp_row + i * kFrag) * static_cast<std::size_t>(n) +
                             static_cast<std::size_t>(block_col + warp_col + j * kFrag);
      wmma::store_matrix_sync(c + to, acc[i][j], static_cast<unsigned>(n), wmma::mem_row_major);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Variants.

/// Which host inputs a variant multiplies.
enum class Inputs {
  kEighths,  // multiples of 1/8 in [-1, 1]: exact in fp16 and bf16, and every partial sum is exact in fp32
  kRandom,   // ws::fill_random floats in [-1, 1): full fp32 mantissas
};

struct Variant {
  const char* name;   // --variant value
  const char* label;  // timing label: the kernel name (WMMA) or the cuBLAS call that launches the kernel
  Inputs inputs;
  // Tolerance |got - want| <= relative * |want| + magnitude * sum_k |a_ik * b_kj| (see README.md).
  double relative;
  double magnitude;
};

// Launch order with --variant all.
constexpr Variant kVariants[] = {
    {"wmma_fp16", "gemm_wmma_fp16", Inputs::kEighths, 0.0, 1e-6},
    {"cublas_fp16", "cublasGemmEx[fp16]", Inputs::kEighths, 0.0, 1e-6},
    {"cublas_bf16", "cublasGemmEx[bf16]", Inputs::kEighths, 0.0, 1e-6},
    {"cublas_tf32", "cublasGemmEx[tf32]", Inputs::kRandom, 1e-2, 5e-4},
    {"cublas_fp32", "cublasSgemm", Inputs::kRandom, 1e-3, 1e-5},
    {"cublas_fp64", "cublasDgemm", Inputs::kRandom, 1e-9, 1e-11},
};

/// Deterministic multiples of 1/8 in [-1, 1] (17 values, from an integer LCG).
void fill_eighths(std::vector<float>& values, unsigned seed) {
  unsigned state = seed * 2654435761u + 1u;
  for (float& v : values) {
    state = state * 1664525u + 1013904223u;
    v = static_cast<float>(static_cast<int>((state >> 8) % 17u) - 8) / 8.0f;
  }
}

/// Compares the sampled elements of C; returns "" when all agree, else a description of the first mismatch.
/// `worst` receives the largest |got - want| / sum_k |a*b| seen (how far from exact the variant's arithmetic is).
template <typename Out>
std::string compare_samples(const std::vector<Out>& c, const std::vector<ws::GemmSample>& samples, int n,
                            const Variant& v, double& worst) {
  worst = 0.0;
  std::string mismatch;
  for (const ws::GemmSample& s : samples) {
    const double got = static_cast<double>(c[ws::at(s.row, s.col, n)]);
    const double error = std::fabs(got - s.want);
    if (s.magnitude > 0.0) worst = std::max(worst, error / s.magnitude);
    const double tolerance = v.relative * std::fabs(s.want) + v.magnitude * s.magnitude;
    if (!(error <= tolerance) && mismatch.empty()) {  // negated so that NaN fails
      char text[160];
      std::snprintf(text, sizeof text, "C[%d][%d]=%.9g want %.9g (tolerance %.3g)", s.row, s.col, got, s.want,
                    tolerance);
      mismatch = text;
    }
  }
  return mismatch;
}

/// Everything the variants share.
struct Context {
  int n;
  int repeat;
  cublasHandle_t handle;
  ws::KernelTimer& timer;
  ws::KernelTimer& warmup_timer;
  const std::vector<float>* eighths_a;
  const std::vector<float>* eighths_b;
  const std::vector<float>* random_a;
  const std::vector<float>* random_b;
  const std::vector<ws::GemmSample>* eighths_samples;
  const std::vector<ws::GemmSample>* random_samples;
};

/// Copies a host float matrix to the device as T (exact for every input set and type used here, tf32 excepted,
/// which cuBLAS rounds itself).
template <typename T, typename Convert>
void upload_converted(DeviceBuffer<T>& device, const std::vector<float>& host, Convert convert) {
  std::vector<T> staged(host.size());
  std::transform(host.begin(), host.end(), staged.begin(), convert);
  device.upload(staged);
}

/// One variant: upload its inputs as In, one warm-up launch (timed under gemm_tensor_warmup, left out of the
/// summary), C set to NaN, `repeat` timed launches, the TFLOP/s summary, then the check of the sampled elements.
/// `launch(a, b, c)` issues one GEMM on the default stream. Returns the exit status of the check.
template <typename In, typename Out, typename Convert, typename Launch>
int run_variant(const Variant& v, Context& ctx, Convert convert, Launch launch) {
  const bool eighths = v.inputs == Inputs::kEighths;
  const std::vector<float>& host_a = *(eighths ? ctx.eighths_a : ctx.random_a);
  const std::vector<float>& host_b = *(eighths ? ctx.eighths_b : ctx.random_b);
  const std::vector<ws::GemmSample>& samples = *(eighths ? ctx.eighths_samples : ctx.random_samples);

  DeviceBuffer<In> a(host_a.size());
  DeviceBuffer<In> b(host_b.size());
  DeviceBuffer<Out> c(host_a.size());
  upload_converted(a, host_a, convert);
  upload_converted(b, host_b, convert);

  // Warm-up: module loading (lazy loading), cuBLAS's kernel selection, cold L2 and TLBs.
  ctx.warmup_timer.start();
  launch(a.get(), b.get(), c.get());
  ctx.warmup_timer.stop(v.label);

  WS_CHECK(cudaMemset(c.get(), 0xFF, c.bytes()));  // all-ones bytes are a NaN float and double
  std::vector<double> times;
  for (int r = 0; r < ctx.repeat; ++r) {
    ctx.timer.start();
    launch(a.get(), b.get(), c.get());
    times.push_back(static_cast<double>(ctx.timer.stop(v.label)));
  }
  const double flop = 2.0 * static_cast<double>(ctx.n) * static_cast<double>(ctx.n) * static_cast<double>(ctx.n);
  const double best_ms = *std::min_element(times.begin(), times.end());
  double mean_ms = 0.0;
  for (double t : times) mean_ms += t / static_cast<double>(times.size());
  std::printf("info %s variant=%s n=%d launches=%d flop=%.6g best_ms=%.6f mean_ms=%.6f best_tflops=%.2f "
              "mean_tflops=%.2f\n",
              kWorkload, v.name, ctx.n, ctx.repeat, flop, best_ms, mean_ms, flop / (best_ms * 1e9),
              flop / (mean_ms * 1e9));

  std::vector<Out> host_c;
  c.download(host_c);
  double worst = 0.0;
  const std::string mismatch = compare_samples(host_c, samples, ctx.n, v, worst);
  char detail[320];
  std::snprintf(detail, sizeof detail, "variant=%s n=%d samples=%zu max_error=%.3g*sum|ab| %s", v.name, ctx.n,
                samples.size(), worst, mismatch.empty() ? "all within tolerance" : mismatch.c_str());
  return ws::report_check(kWorkload, mismatch.empty(), detail);
}

// cuBLAS is column-major: a row-major n x n buffer X is the column-major X^T, and row-major C = A * B is
// column-major C^T = B^T * A^T, so each call passes B as its first operand and A as its second (no transposes).

/// cublasGemmEx with `in` A and B, fp32 C, alpha = 1, beta = 0 (C is not read).
void gemm_ex(cublasHandle_t handle, int n, const void* a, const void* b, float* c, cudaDataType in,
             cublasComputeType_t compute) {
  const float alpha = 1.0f;
  const float beta = 0.0f;
  WS_CUBLAS_CHECK(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b, in, n, a, in, n, &beta, c,
                               CUDA_R_32F, n, compute, CUBLAS_GEMM_DEFAULT));
}

int run_named(const Variant& v, Context& ctx) {
  const int n = ctx.n;
  cublasHandle_t handle = ctx.handle;
  const std::string name = v.name;
  const auto to_half = [](float x) { return __float2half_rn(x); };
  const auto to_bf16 = [](float x) { return __float2bfloat16_rn(x); };
  const auto to_float = [](float x) { return x; };
  const auto to_double = [](float x) { return static_cast<double>(x); };

  if (name == "wmma_fp16") {
    const dim3 grid(static_cast<unsigned>(n / kBlockN), static_cast<unsigned>(n / kBlockM));
    return run_variant<__half, float>(v, ctx, to_half, [&](const __half* a, const __half* b, float* c) {
      gemm_wmma_fp16<<<grid, kWmmaThreads>>>(a, b, c, n);
      WS_CHECK(cudaGetLastError());
    });
  }
  if (name == "cublas_fp16") {
    return run_variant<__half, float>(v, ctx, to_half, [&](const __half* a, const __half* b, float* c) {
      gemm_ex(handle, n, a, b, c, CUDA_R_16F, CUBLAS_COMPUTE_32F);
    });
  }
  if (name == "cublas_bf16") {
    return run_variant<__nv_bfloat16, float>(
        v, ctx, to_bf16, [&](const __nv_bfloat16* a, const __nv_bfloat16* b, float* c) {
          gemm_ex(handle, n, a, b, c, CUDA_R_16BF, CUBLAS_COMPUTE_32F);
        });
  }
  if (name == "cublas_tf32") {
    return run_variant<float, float>(v, ctx, to_float, [&](const float* a, const float* b, float* c) {
      gemm_ex(handle, n, a, b, c, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32);
    });
  }
  if (name == "cublas_fp32") {
    // The handle's math mode is CUBLAS_DEFAULT_MATH: no TF32 (nor BF16x9 emulation) for cublasSgemm.
    return run_variant<float, float>(v, ctx, to_float, [&](const float* a, const float* b, float* c) {
      const float alpha = 1.0f;
      const float beta = 0.0f;
      WS_CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b, n, a, n, &beta, c, n));
    });
  }
  // cublas_fp64 (the names were checked in main)
  return run_variant<double, double>(v, ctx, to_double, [&](const double* a, const double* b, double* c) {
    const double alpha = 1.0;
    const double beta = 0.0;
    WS_CUBLAS_CHECK(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b, n, a, n, &beta, c, n));
  });
}

/// cublasCreate / cublasDestroy tied to scope (declared after the workspace buffer, so destroyed before it).
class CublasHandle {
 public:
  CublasHandle() { WS_CUBLAS_CHECK(cublasCreate(&handle_)); }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_gemm_tensor: %s\nusage: ws_gemm_tensor [--n N (1..%ld; a multiple of %d for wmma_fp16)] "
               "[--variant wmma_fp16|cublas_fp16|cublas_bf16|cublas_tf32|cublas_fp32|cublas_fp64|all] "
               "[--repeat R]\n",
               message, kMaxN, kBlockM);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  const std::string variant = ws::arg_string(argc, argv, "variant", "all");
  if (n_arg < 1 || n_arg > kMaxN) return usage("--n out of range");
  if (repeat_arg < 1 || repeat_arg > 1000) return usage("--repeat must be 1..1000");
  std::vector<const Variant*> selected;
  for (const Variant& v : kVariants)
    if (variant == "all" || variant == v.name) selected.push_back(&v);
  if (selected.empty()) return usage("unknown --variant");
  const int n = static_cast<int>(n_arg);
  const int repeat = static_cast<int>(repeat_arg);
  bool need_eighths = false;
  bool need_random = false;
  for (const Variant* v : selected) {
    if (std::string(v->name) == "wmma_fp16" && n % kBlockM != 0) return usage("wmma_fp16 needs n a multiple of 128");
    (v->inputs == Inputs::kEighths ? need_eighths : need_random) = true;
  }

  int device = 0;
  WS_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  WS_CHECK(cudaGetDeviceProperties(&prop, device));

  // One handle for every variant, on the default stream, with an explicit 32 MiB workspace (cuBLAS's recommended
  // size on Hopper; the same on every machine whatever CUBLAS_WORKSPACE_CONFIG says) and the default math mode.
  DeviceBuffer<unsigned char> workspace(kWorkspaceBytes);
  CublasHandle handle;
  WS_CUBLAS_CHECK(cublasSetMathMode(handle.get(), CUBLAS_DEFAULT_MATH));
  WS_CUBLAS_CHECK(cublasSetWorkspace(handle.get(), workspace.get(), workspace.bytes()));
  int cublas_version = 0;
  WS_CUBLAS_CHECK(cublasGetVersion(handle.get(), &cublas_version));
  std::printf("info %s n=%d repeat=%d variants=%zu cublas=%d.%d.%d sm=%d.%d sms=%d device=%s\n", kWorkload, n, repeat,
              selected.size(), cublas_version / 10000, cublas_version % 10000 / 100, cublas_version % 100, prop.major,
              prop.minor, prop.multiProcessorCount, prop.name);

  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> eighths_a;
  std::vector<float> eighths_b;
  std::vector<float> random_a;
  std::vector<float> random_b;
  std::vector<ws::GemmSample> eighths_samples;
  std::vector<ws::GemmSample> random_samples;
  if (need_eighths) {
    eighths_a.resize(elements);
    eighths_b.resize(elements);
    fill_eighths(eighths_a, 3u);
    fill_eighths(eighths_b, 4u);
    eighths_samples = ws::gemm_reference_samples(eighths_a, eighths_b, n, kSamples);
  }
  if (need_random) {
    random_a.resize(elements);
    random_b.resize(elements);
    ws::fill_random(random_a, 1u);
    ws::fill_random(random_b, 2u);
    random_samples = ws::gemm_reference_samples(random_a, random_b, n, kSamples);
  }

  ws::KernelTimer timer(kWorkload);
  ws::KernelTimer warmup_timer(kWarmupWorkload);
  Context ctx{n,          repeat,     handle.get(), timer,           warmup_timer,   &eighths_a,
              &eighths_b, &random_a, &random_b,    &eighths_samples, &random_samples};
  int status = 0;
  for (const Variant* v : selected)
    if (run_named(*v, ctx) != 0) status = 1;
  return status;
}
