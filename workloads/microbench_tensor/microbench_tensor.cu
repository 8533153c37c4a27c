// Sustained tensor-core throughput: what the GPU files' tensor rates (flops per SM clock) should be.
//
// - mma: every SM runs 16 warps, each issuing warp-level `mma.sync` from registers only (no memory), 8 independent
//   accumulators a warp so that the pipe, not a dependence, sets the pace: FP16 inputs with FP32 accumulation
//   (m16n8k16, 4096 FLOP a warp instruction), TF32 (m16n8k8, 2048) and FP64 (m8n8k4, 512). Each block also reads
//   the SM's clock64() at its start and end, so that the clock the SMs really ran at shows (a GPU may lower its
//   clock under a heavy tensor load): cycles / event time.
// - gemm: cuBLAS's own GEMM (whichever kernel it picks: on Hopper its warpgroup `wgmma` kernels) for n x n x n,
//   FP16 and BF16 inputs with FP32 output and accumulation, TF32 and FP64: the rate the vendor's best code sustains.
//
// Time: median CUDA-event time of --repeat launches after a warm-up. FLOP per SM clock at --clock-mhz (the clock the
// GPU files count in, the maximum SM clock by default).
//
// Output:
//   tensor mma <f16|tf32|f64> <us> <TFLOP/s> <FLOP per SM clock at --clock-mhz> <SM MHz from clock64>
//   tensor gemm <f16|bf16|tf32|f64> <n> <us> <TFLOP/s> <FLOP per SM clock at --clock-mhz>
//   check microbench_tensor PASS|FAIL ...
//
// Usage: ws_microbench_tensor [--iterations I (mma loop trips, default 4096)] [--n N (GEMM size, default 8192)]
//                             [--repeat R] [--clock-mhz F]
#include "microbench.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

namespace {

constexpr int kWarpsPerBlock = 4;
constexpr int kBlocksPerSm = 4;  // 16 warps per SM: 4 per scheduler
constexpr int kChains = 8;       // independent accumulators per warp

#define WS_CUBLAS(call)                                                                         \
  do {                                                                                          \
    const cublasStatus_t status_ = (call);                                                      \
    if (status_ != CUBLAS_STATUS_SUCCESS) {                                                     \
      std::fprintf(stderr, "%s:%d: cuBLAS error %d: %s\n", __FILE__, __LINE__, status_, #call); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

enum class Kind { kF16, kTf32, kF64 };

const char* name_of(Kind kind) { return kind == Kind::kF16 ? "f16" : kind == Kind::kTf32 ? "tf32" : "f64"; }

// FLOP of one warp instruction: 2 m n k.
double flop_per_mma(Kind kind) {
  return kind == Kind::kF16 ? 2.0 * 16 * 8 * 16 : kind == Kind::kTf32 ? 2.0 * 16 * 8 * 8 : 2.0 * 8 * 8 * 4;
}

// What each accumulator element holds after `iterations` steps with every input 1: k per step.
double expected_accumulator(Kind kind, int iterations) {
  const int k = kind == Kind::kF16 ? 16 : kind == Kind::kTf32 ? 8 : 4;
  return static_cast<double>(k) * iterations;
}

// FP16 x FP16 + FP32: inputs 1.0 (0x3c00 in each half).
__device__ void mma_f16(float (&d)[4]) {
  const uint32_t one2 = 0x3c003c00u;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, {%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(one2));
}

// TF32 x TF32 + FP32: inputs 1.0f (its bit pattern is a valid TF32 1.0).
__device__ void mma_tf32(float (&d)[4]) {
  const uint32_t one = 0x3f800000u;
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%4,%4}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(one));
}

// FP64 x FP64 + FP64: inputs 1.0.
__device__ void mma_f64(double (&d)[2]) {
  const double one = 1.0;
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%2}, {%0,%1};"
               : "+d"(d[0]), "+d"(d[1])
               : "d"(one));
}

// Each warp runs `iterations` x kChains independent mma; thread 0 of a block keeps the block's clock64 span.
template <Kind kKind>
__global__ void __launch_bounds__(kWarpsPerBlock * 32) mma_loop(int iterations, double* out, long long* cycles) {
  const long long start = clock64();
  using Acc = std::conditional_t<kKind == Kind::kF64, double[2], float[4]>;
  Acc acc[kChains] = {};
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) {
      if constexpr (kKind == Kind::kF16) mma_f16(acc[c]);
      if constexpr (kKind == Kind::kTf32) mma_tf32(acc[c]);
      if constexpr (kKind == Kind::kF64) mma_f64(acc[c]);
    }
  }
  double sum = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c) sum += static_cast<double>(acc[c][0]);
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  out[thread] = sum;
  __syncthreads();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - start;
}

struct Context {
  int sms = 0;
  int iterations = 0;
  int n = 0;
  int repeat = 0;
  double clock_mhz = 0;
  bool ok = true;
  std::string detail;
};

template <Kind kKind>
void run_mma(Context& c) {
  const int blocks = c.sms * kBlocksPerSm;
  const int threads = blocks * kWarpsPerBlock * 32;
  double* out = nullptr;
  long long* cycles = nullptr;
  WS_CHECK(cudaMalloc(&out, threads * sizeof(double)));
  WS_CHECK(cudaMalloc(&cycles, blocks * sizeof(long long)));
  const float ms = ws::median_launch_ms(
      [&] { mma_loop<kKind><<<blocks, kWarpsPerBlock * 32>>>(c.iterations, out, cycles); }, c.repeat);
  std::vector<double> sums(threads);
  std::vector<long long> spans(blocks);
  WS_CHECK(cudaMemcpy(sums.data(), out, threads * sizeof(double), cudaMemcpyDeviceToHost));
  WS_CHECK(cudaMemcpy(spans.data(), cycles, blocks * sizeof(long long), cudaMemcpyDeviceToHost));
  WS_CHECK(cudaFree(out));
  WS_CHECK(cudaFree(cycles));
  const double want = kChains * expected_accumulator(kKind, c.iterations);
  for (double s : sums) {
    if (s != want) {
      c.ok = false;
      c.detail += std::string(" mma_") + name_of(kKind) + "_sum=" + std::to_string(s);
      break;
    }
  }
  long long longest = 0;
  for (long long s : spans) longest = std::max(longest, s);
  const double flop = static_cast<double>(blocks) * kWarpsPerBlock * kChains * c.iterations * flop_per_mma(kKind);
  const double seconds = ms * 1e-3;
  std::printf("tensor mma %s %.1f %.1f %.0f %.0f\n", name_of(kKind), ms * 1e3, flop / seconds / 1e12,
              flop / seconds / (c.sms * c.clock_mhz * 1e6), static_cast<double>(longest) / seconds / 1e6);
}

__global__ void fill_half(__half* p, size_t count) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = __float2half(1.0f);
}

__global__ void fill_bf16(__nv_bfloat16* p, size_t count) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = __float2bfloat16(1.0f);
}

template <typename T>
__global__ void fill_value(T* p, size_t count) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = T(1);
}

// C = A B with every input 1: every element of C is n (exact in FP32 and FP64 for the sizes used).
template <typename Out>
bool gemm_correct(const void* c_device, int n) {
  Out first{}, middle{};
  const size_t count = static_cast<size_t>(n) * n;
  WS_CHECK(cudaMemcpy(&first, c_device, sizeof(Out), cudaMemcpyDeviceToHost));
  WS_CHECK(cudaMemcpy(&middle, static_cast<const Out*>(c_device) + count / 2 + 7, sizeof(Out), cudaMemcpyDeviceToHost));
  return static_cast<double>(first) == n && static_cast<double>(middle) == n;
}

void run_gemm(Context& c, cublasHandle_t handle, const char* name) {
  const std::string kind = name;
  const int n = c.n;
  const size_t count = static_cast<size_t>(n) * n;
  const bool f64 = kind == "f64";
  const bool float_in = kind == "tf32" || f64;
  const size_t in_bytes = f64 ? sizeof(double) : float_in ? sizeof(float) : sizeof(__half);
  const size_t out_bytes = f64 ? sizeof(double) : sizeof(float);
  void *a = nullptr, *b = nullptr, *out = nullptr;
  WS_CHECK(cudaMalloc(&a, count * in_bytes));
  WS_CHECK(cudaMalloc(&b, count * in_bytes));
  WS_CHECK(cudaMalloc(&out, count * out_bytes));
  for (void* p : {a, b}) {
    if (kind == "f16") fill_half<<<1024, 256>>>(static_cast<__half*>(p), count);
    if (kind == "bf16") fill_bf16<<<1024, 256>>>(static_cast<__nv_bfloat16*>(p), count);
    if (kind == "tf32") fill_value<float><<<1024, 256>>>(static_cast<float*>(p), count);
    if (f64) fill_value<double><<<1024, 256>>>(static_cast<double*>(p), count);
  }
  WS_CHECK(cudaDeviceSynchronize());
  const cudaDataType in_type = kind == "f16"    ? CUDA_R_16F
                               : kind == "bf16" ? CUDA_R_16BF
                               : f64            ? CUDA_R_64F
                                                : CUDA_R_32F;
  const cudaDataType out_type = f64 ? CUDA_R_64F : CUDA_R_32F;
  const cublasComputeType_t compute = f64              ? CUBLAS_COMPUTE_64F
                                      : kind == "tf32" ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                       : CUBLAS_COMPUTE_32F;
  const float alpha32 = 1, beta32 = 0;
  const double alpha64 = 1, beta64 = 0;
  const void* alpha = f64 ? static_cast<const void*>(&alpha64) : &alpha32;
  const void* beta = f64 ? static_cast<const void*>(&beta64) : &beta32;
  const float ms = ws::median_launch_ms(
      [&] {
        WS_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, alpha, a, in_type, n, b, in_type, n, beta,
                               out, out_type, n, compute, CUBLAS_GEMM_DEFAULT));
      },
      c.repeat);
  const bool correct = f64 ? gemm_correct<double>(out, n) : gemm_correct<float>(out, n);
  if (!correct) {
    c.ok = false;
    c.detail += " gemm_" + kind + "_wrong";
  }
  const double flop = 2.0 * n * static_cast<double>(n) * n;
  const double seconds = ms * 1e-3;
  std::printf("tensor gemm %s %d %.1f %.1f %.0f\n", name, n, ms * 1e3, flop / seconds / 1e12,
              flop / seconds / (c.sms * c.clock_mhz * 1e6));
  for (void* p : {a, b, out}) WS_CHECK(cudaFree(p));
}

}  // namespace

int main(int argc, char** argv) {
  const cudaDeviceProp prop = ws::device_properties();
  Context c;
  c.sms = prop.multiProcessorCount;
  c.iterations = static_cast<int>(std::clamp(ws::arg_long(argc, argv, "iterations", 4096), 1L, 1L << 20));
  c.n = static_cast<int>(std::clamp(ws::arg_long(argc, argv, "n", 8192), 256L, 16384L));
  c.repeat = ws::repeat_arg(argc, argv);
  c.clock_mhz = ws::clock_mhz_arg(argc, argv);
  std::printf("device %s sms %d clock_mhz %.0f\n", prop.name, c.sms, c.clock_mhz);
  run_mma<Kind::kF16>(c);
  run_mma<Kind::kTf32>(c);
  run_mma<Kind::kF64>(c);
  cublasHandle_t handle;
  WS_CUBLAS(cublasCreate(&handle));
  for (const char* kind : {"f16", "bf16", "tf32", "f64"}) run_gemm(c, handle, kind);
  WS_CUBLAS(cublasDestroy(handle));
  return ws::report_check("microbench_tensor", c.ok, "mma 3 gemm 4" + c.detail);
}
