// cublas_hgemm: vendor-library matrix multiplications through cuBLAS, as applications call them: a half-precision
// GEMM on the tensor cores (cublasGemmEx, A and B in FP16, FP32 compute and FP32 C, n = 4096) and a single-precision
// GEMM (cublasSgemm, FP32 throughout, default math mode so no TF32, n = 2048). C = A * B for row-major square
// matrices, computed as the column-major product C^T = B^T * A^T (A and B swapped in the call).
//
// GPU behaviour exercised: whatever cuBLAS's heuristics pick for Hopper: typically a warp-specialised wgmma kernel
// with TMA loads and a deep shared-memory pipeline for the FP16 GEMM (hundreds of TFLOP/s), and a tuned FFMA
// (SIMT) kernel for the SGEMM. The kernel names cannot be known in advance, so each timing is labelled with the
// cuBLAS call ("cublasGemmEx", "cublasSgemm"); the trace is matched by launch order. If cuBLAS splits a call into
// several kernels (split-K plus a reduction), the one timing covers them all. The first call of each kind also
// includes cuBLAS's lazy loading of its kernel module (there is no untimed warm-up launch, since every launch in the
// trace must have a timing), so the later repetitions are the steady-state ones. Measured on one H100 SXM (CUDA
// events): cublasGemmEx 0.20-0.28 ms (~600 TFLOP/s), cublasSgemm 0.35 ms (~49 TFLOP/s); the first call of each
// took 60-120 ms (library initialisation and module loading between the start event and the kernel).
//
// Usage: ws_cublas_hgemm [--n N (FP16 GEMM, multiple of 8)] [--ns NS (SGEMM)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "gemm_reference.h"
#include "workload.h"

#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define WS_CUBLAS(call)                                                                                 \
  do {                                                                                                  \
    cublasStatus_t ws_cublas_status_ = (call);                                                          \
    if (ws_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: cuBLAS status %d\n", __FILE__, __LINE__, #call,          \
                   static_cast<int>(ws_cublas_status_));                                                \
      std::exit(2);                                                                                     \
    }                                                                                                   \
  } while (0)

namespace {

constexpr const char* kWorkload = "cublas_hgemm";
constexpr int kSamples = 4096;  // C elements of each product checked against the CPU
constexpr long kMaxN = 8192;

using ws::DeviceBuffer;

/// Compares sampled elements of a row-major n x n C with double-precision references; keeps the first failure and
/// the worst error relative to the magnitude sum_k |a*b|.
class Checker {
 public:
  Checker(const char* name, double rel_value, double rel_magnitude)
      : name_(name), rel_value_(rel_value), rel_magnitude_(rel_magnitude) {}
  void add(int row, int col, double got, double want, double magnitude) {
    ++count_;
    const double error = std::fabs(got - want);
    if (magnitude > 0.0 && error / magnitude > worst_) worst_ = error / magnitude;
    const double tolerance = rel_value_ * std::fabs(want) + rel_magnitude_ * magnitude;
    if (!(error <= tolerance) && failure_.empty()) {  // negated so that NaN fails
      char text[200];
      std::snprintf(text, sizeof text, "%s C[%d][%d]=%.7g want %.7g (tolerance %.3g)", name_, row, col, got, want,
                    tolerance);
      failure_ = text;
    }
  }
  bool ok() const { return failure_.empty(); }
  std::string summary() const {
    char text[320];
    std::snprintf(text, sizeof text, "%s: checked=%ld worst_error/magnitude=%.3g %s", name_, count_, worst_,
                  ok() ? "all within tolerance" : failure_.c_str());
    return text;
  }

 private:
  const char* name_;
  double rel_value_;
  double rel_magnitude_;
  long count_ = 0;
  double worst_ = 0.0;
  std::string failure_;
};

std::size_t at(int row, int col, int n) {
  return static_cast<std::size_t>(row) * static_cast<std::size_t>(n) + static_cast<std::size_t>(col);
}

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_cublas_hgemm: %s\nusage: ws_cublas_hgemm [--n N (8..%ld, multiple of 8)] [--ns NS (1..%ld)] "
               "[--repeat R]\n",
               message, kMaxN, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long ns_arg = ws::arg_long(argc, argv, "ns", 2048);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (n_arg < 8 || n_arg > kMaxN || n_arg % 8 != 0) return usage("--n out of range");
  if (ns_arg < 1 || ns_arg > kMaxN) return usage("--ns out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const int n = static_cast<int>(n_arg);    // FP16 GEMM size
  const int ns = static_cast<int>(ns_arg);  // SGEMM size
  const int repeat = static_cast<int>(repeat_arg);

  // FP16 operands: random floats rounded to half; the CPU uses the rounded values.
  const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> host_a(elements);
  std::vector<float> host_b(elements);
  ws::fill_random(host_a, 31u);
  ws::fill_random(host_b, 32u);
  std::vector<__half> half_a(elements);
  std::vector<__half> half_b(elements);
  for (std::size_t i = 0; i < elements; ++i) {
    half_a[i] = __float2half(host_a[i]);
    host_a[i] = __half2float(half_a[i]);
    half_b[i] = __float2half(host_b[i]);
    host_b[i] = __half2float(half_b[i]);
  }
  // FP32 operands of the SGEMM.
  const std::size_t elements_s = static_cast<std::size_t>(ns) * static_cast<std::size_t>(ns);
  std::vector<float> host_as(elements_s);
  std::vector<float> host_bs(elements_s);
  ws::fill_random(host_as, 33u);
  ws::fill_random(host_bs, 34u);

  DeviceBuffer<__half> a(elements);
  DeviceBuffer<__half> b(elements);
  DeviceBuffer<float> c(elements);
  DeviceBuffer<float> as(elements_s);
  DeviceBuffer<float> bs(elements_s);
  DeviceBuffer<float> cs(elements_s);
  a.upload(half_a);
  b.upload(half_b);
  as.upload(host_as);
  bs.upload(host_bs);
  WS_CHECK(cudaMemset(c.get(), 0xFF, c.bytes()));  // all-ones bytes are a NaN float: skipped elements fail
  WS_CHECK(cudaMemset(cs.get(), 0xFF, cs.bytes()));

  cublasHandle_t handle = nullptr;
  WS_CUBLAS(cublasCreate(&handle));
  WS_CUBLAS(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));  // no TF32 for the SGEMM
  const float alpha = 1.0f;
  const float beta = 0.0f;

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    // Row-major C = A * B is column-major C^T = B^T * A^T: B goes first.
    timer.start();
    WS_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, b.get(), CUDA_R_16F, n, a.get(),
                           CUDA_R_16F, n, &beta, c.get(), CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    timer.stop("cublasGemmEx");
    timer.start();
    WS_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, ns, ns, ns, &alpha, bs.get(), ns, as.get(), ns, &beta,
                          cs.get(), ns));
    timer.stop("cublasSgemm");
  }
  WS_CUBLAS(cublasDestroy(handle));

  std::vector<float> host_c;
  std::vector<float> host_cs;
  c.download(host_c);
  cs.download(host_cs);

  // FP16 GEMM: half x half products are exact in float, so the error is the float accumulation's (~1e-6 of the
  // magnitude sum for n = 4096); 2e-4 of it leaves a wide margin while a lost k step or misplaced tile fails.
  // B is transposed once so that each sampled inner product reads both operands contiguously.
  Checker half_check("GemmEx", 1e-3, 2e-4);
  {
    std::vector<float> host_bt(elements);
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < n; ++j) host_bt[at(j, k, n)] = host_b[at(k, j, n)];
    }
    unsigned state = 777u;
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
      half_check.add(row, col, host_c[at(row, col, n)], want, magnitude);
    }
  }
  // SGEMM: float rounding (~1e-7 of the magnitude sum for n = 2048) against 1e-5 of it; TF32 (~2e-5) would fail.
  Checker float_check("Sgemm", 1e-3, 1e-5);
  for (const ws::GemmSample& s : ws::gemm_reference_samples(host_as, host_bs, ns, kSamples)) {
    float_check.add(s.row, s.col, host_cs[at(s.row, s.col, ns)], s.want, s.magnitude);
  }

  char detail[700];
  std::snprintf(detail, sizeof detail, "n=%d ns=%d %s; %s", n, ns, half_check.summary().c_str(),
                float_check.summary().c_str());
  return ws::report_check(kWorkload, half_check.ok() && float_check.ok(), detail);
}
