// vendor_libs: one process that calls cuBLAS, cuFFT, cuSPARSE and Thrust/CUB in turn, each step --repeat times, the
// way real applications mix vendor-library kernels in one run. It reproduces the tracer's counters-mode crash when
// kernels of several libraries are profiled in one process (../../../shared/notes/tracer-vendor-libraries.md) and
// gives the simulator library kernels (nvjet / xmma GEMMs, gemv, FFT, SpMV / SpMM, CUB radix sort, scan, reduce).
//
// Usage: ws_vendor_libs [--repeat R] [--only blas|fft|sparse|thrust] [--small]
// Prints one `timing` line per step and repetition (CUDA events), one `info` line per step, one `check` line per
// step (and a `FAILED ...` line for each failing one); exits 0 only when every check passes. See README.md.

#include "device_buffer.h"
#include "gemm_reference.h"
#include "workload.h"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cufft.h>
#include <cusparse.h>
#include <nvtx3/nvToolsExt.h>

#include <cub/device/device_reduce.cuh>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/version.h>

#include <algorithm>
#include <cstdarg>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#define WS_CUBLAS_CHECK(call)                                                                           \
  do {                                                                                                  \
    cublasStatus_t ws_cublas_status_ = (call);                                                          \
    if (ws_cublas_status_ != CUBLAS_STATUS_SUCCESS) {                                                   \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                         \
                   cublasGetStatusString(ws_cublas_status_));                                           \
      std::printf("FAILED vendor_libs cuBLAS error in %s\n", #call);                                    \
      std::exit(2);                                                                                     \
    }                                                                                                   \
  } while (0)

#define WS_CUFFT_CHECK(call)                                                                            \
  do {                                                                                                  \
    cufftResult ws_cufft_status_ = (call);                                                              \
    if (ws_cufft_status_ != CUFFT_SUCCESS) {                                                            \
      std::fprintf(stderr, "%s:%d: %s failed: cufftResult %d\n", __FILE__, __LINE__, #call,             \
                   static_cast<int>(ws_cufft_status_));                                                 \
      std::printf("FAILED vendor_libs cuFFT error in %s\n", #call);                                     \
      std::exit(2);                                                                                     \
    }                                                                                                   \
  } while (0)

#define WS_CUSPARSE_CHECK(call)                                                                         \
  do {                                                                                                  \
    cusparseStatus_t ws_cusparse_status_ = (call);                                                      \
    if (ws_cusparse_status_ != CUSPARSE_STATUS_SUCCESS) {                                               \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                         \
                   cusparseGetErrorString(ws_cusparse_status_));                                        \
      std::printf("FAILED vendor_libs cuSPARSE error in %s\n", #call);                                  \
      std::exit(2);                                                                                     \
    }                                                                                                   \
  } while (0)

namespace {

constexpr const char* kWorkload = "vendor_libs";
constexpr int kGemmSamples = 128;                               // sampled C elements per GEMM (corners first)
constexpr std::size_t kWorkspaceBytes = std::size_t{32} << 20;  // cuBLAS's recommended workspace on Hopper

using ws::DeviceBuffer;

/// Problem sizes: the full run and --small (each dimension divided so that the whole run takes seconds).
struct Sizes {
  int gemm_n;             // SGEMM and TF32 GEMM: n x n x n, SGEMV: n x n
  int half_n;             // FP16 and BF16 GEMMs: n x n x n
  int skinny_m;           // FP16 GEMM: skinny_m x half_n x half_n
  int fft2d_n;            // 2D C2C: n x n
  int fft1d_len;          // batched 1D C2C: fft1d_batch transforms of fft1d_len points
  int fft1d_batch;
  int sparse_rows;        // square CSR matrix, 8..24 (mean 16) nonzeros per row
  int spmm_cols;          // columns of the dense matrix of SpMM
  std::size_t sort_n;     // thrust::sort keys (unsigned)
  std::size_t reduce_n;   // thrust::reduce, thrust::inclusive_scan, cub::DeviceReduce::Sum (float)
};

constexpr Sizes kFull{4096, 8192, 1024, 4096, 1 << 20, 16, 1 << 20, 8, std::size_t{1} << 24, std::size_t{1} << 26};
constexpr Sizes kSmall{1024, 2048, 256, 1024, 1 << 16, 16, 1 << 16, 8, std::size_t{1} << 20, std::size_t{1} << 22};

/// splitmix64: deterministic on every host, good in all bits (the sort keys use all 32).
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1), 24 random bits (exact in float).
  float uniform() { return static_cast<float>(next() >> 40) / 8388608.0f - 1.0f; }
  unsigned below(unsigned bound) { return static_cast<unsigned>(next() % bound); }

 private:
  std::uint64_t state_;
};

/// Everything the steps share: the repeat count, the timer and the tally of checks.
struct Run {
  int repeat;
  ws::KernelTimer& timer;
  int checks = 0;
  std::vector<std::string> failed;
};

/// Prints the step's `check` line, and a `FAILED` line when it failed.
void check(Run& run, const std::string& step, bool ok, const std::string& detail) {
  ++run.checks;
  ws::report_check(kWorkload, ok, "step=" + step + " " + detail);
  if (!ok) {
    run.failed.push_back(step);
    std::printf("FAILED %s step=%s %s\n", kWorkload, step.c_str(), detail.c_str());
  }
  std::fflush(stdout);  // a tracer crash later in the run must not lose the lines of the steps before
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char text[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  return text;
}

/// One step: `repeat` times, prepare() (untimed, on `stream` before the start event) then call() between two CUDA
/// events on `stream`; one `timing` line per repetition and an `info` line with the best and mean. The repetitions
/// sit inside an NVTX range "vendor_libs:<label>" so the trace shows which kernels each step launched.
template <typename Prepare, typename Call>
void timed_step(Run& run, const std::string& label, cudaStream_t stream, Prepare prepare, Call call) {
  const std::string range = std::string(kWorkload) + ":" + label;
  nvtxRangePushA(range.c_str());
  std::vector<double> times;
  for (int r = 0; r < run.repeat; ++r) {
    prepare();
    run.timer.start(stream);
    call();
    times.push_back(static_cast<double>(run.timer.stop(label.c_str(), stream)));
  }
  nvtxRangePop();
  double mean = 0.0;
  for (double t : times) mean += t / static_cast<double>(times.size());
  // The first repetition carries the library's one-time work (lazy module loading, kernel selection): the mean
  // of the others is the steady-state time.
  double rest = times.front();
  if (times.size() > 1) {
    rest = 0.0;
    for (std::size_t i = 1; i < times.size(); ++i) rest += times[i] / static_cast<double>(times.size() - 1);
  }
  std::printf("info %s step=%s launches=%d best_ms=%.6f mean_ms=%.6f first_ms=%.6f mean_after_first_ms=%.6f\n",
              kWorkload, label.c_str(), run.repeat, *std::min_element(times.begin(), times.end()), mean,
              times.front(), rest);
}

template <typename Call>
void timed_step(Run& run, const std::string& label, cudaStream_t stream, Call call) {
  timed_step(run, label, stream, [] {}, call);
}

// ---------------------------------------------------------------------------------------------------------------
// cuBLAS (on a created stream). cuBLAS is column-major: a row-major m x k buffer X is the column-major k x m X^T,
// and row-major C = A * B is column-major C^T = B^T * A^T, so each GEMM passes B first and A second, no transposes.

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

/// A created stream, destroyed on scope exit. Blocking (cudaStreamCreate's default): it orders itself after work on
/// the legacy default stream, where the pageable cudaMemcpy uploads go.
class StreamHandle {
 public:
  StreamHandle() { WS_CHECK(cudaStreamCreate(&stream_)); }
  ~StreamHandle() { cudaStreamDestroy(stream_); }
  StreamHandle(const StreamHandle&) = delete;
  StreamHandle& operator=(const StreamHandle&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Multiples of 1/8 in [-1, 1] stored as codes 0..16 (value = (code - 8) / 8): exact in fp16 and bf16, products are
/// multiples of 1/64 and every partial sum of a GEMM of these sizes is exact in fp32, so a correct GEMM is exact.
double eighth(std::uint8_t code) { return (static_cast<double>(code) - 8.0) / 8.0; }

std::vector<std::uint8_t> eighth_codes(std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<std::uint8_t> codes(count);
  for (std::uint8_t& c : codes) c = static_cast<std::uint8_t>(rng.below(17));
  return codes;
}

/// Reference elements of row-major C (m x n) = A (m x k, lda k) * B (k x n, ldb n) for eighth codes: the four
/// corners, then pseudo-random (row, col), each an inner product in double.
std::vector<ws::GemmSample> eighth_samples(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                                           int m, int n, int k, int count) {
  std::vector<ws::GemmSample> samples;
  Rng rng(99);
  const int corners[4][2] = {{0, 0}, {0, n - 1}, {m - 1, 0}, {m - 1, n - 1}};
  for (int s = 0; s < count; ++s) {
    const int row = s < 4 ? corners[s][0] : static_cast<int>(rng.below(static_cast<unsigned>(m)));
    const int col = s < 4 ? corners[s][1] : static_cast<int>(rng.below(static_cast<unsigned>(n)));
    double want = 0.0;
    double magnitude = 0.0;
    for (int kk = 0; kk < k; ++kk) {
      const double term = eighth(a[ws::at(row, kk, k)]) * eighth(b[ws::at(kk, col, n)]);
      want += term;
      magnitude += std::fabs(term);
    }
    samples.push_back({row, col, want, magnitude});
  }
  return samples;
}

/// Compares sampled elements of a row-major C with `ldc` columns: |got - want| <= rel*|want| + mag*sum_k|a*b|.
/// Returns "" when all agree, else the first mismatch; `worst` gets the largest error / sum_k |a*b|.
std::string compare_gemm(const std::vector<float>& c, int ldc, const std::vector<ws::GemmSample>& samples,
                         double rel, double mag, double& worst) {
  worst = 0.0;
  std::string mismatch;
  for (const ws::GemmSample& s : samples) {
    const double got = static_cast<double>(c[ws::at(s.row, s.col, ldc)]);
    const double error = std::fabs(got - s.want);
    if (s.magnitude > 0.0) worst = std::max(worst, error / s.magnitude);
    const double tolerance = rel * std::fabs(s.want) + mag * s.magnitude;
    if (!(error <= tolerance) && mismatch.empty())  // negated so that NaN fails
      mismatch = format("C[%d][%d]=%.9g want %.9g (tolerance %.3g)", s.row, s.col, got, s.want, tolerance);
  }
  return mismatch;
}

void check_gemm(Run& run, const std::string& step, const DeviceBuffer<float>& c, std::size_t count, int ldc,
                const std::vector<ws::GemmSample>& samples, double rel, double mag) {
  std::vector<float> host(count);
  c.download(host.data(), count);
  double worst = 0.0;
  const std::string mismatch = compare_gemm(host, ldc, samples, rel, mag, worst);
  check(run, step, mismatch.empty(),
        format("samples=%zu max_error=%.3g*sum|ab| %s", samples.size(), worst,
               mismatch.empty() ? "all within tolerance" : mismatch.c_str()));
}

/// Host copy of eighth codes as T (fp16 or bf16; exact).
template <typename T, typename Convert>
std::vector<T> eighths_as(const std::vector<std::uint8_t>& codes, Convert convert) {
  T table[17];
  for (int c = 0; c < 17; ++c) table[c] = convert(static_cast<float>(eighth(static_cast<std::uint8_t>(c))));
  std::vector<T> out(codes.size());
  for (std::size_t i = 0; i < codes.size(); ++i) out[i] = table[codes[i]];
  return out;
}

void run_blas(Run& run, const Sizes& sizes) {
  StreamHandle stream;
  DeviceBuffer<unsigned char> workspace(kWorkspaceBytes);
  CublasHandle handle;
  cublasHandle_t h = handle.get();
  // cublasSetStream resets a user workspace, so the stream first, then the workspace (fixed, whatever
  // CUBLAS_WORKSPACE_CONFIG says).
  WS_CUBLAS_CHECK(cublasSetStream(h, stream.get()));
  WS_CUBLAS_CHECK(cublasSetWorkspace(h, workspace.get(), workspace.bytes()));
  const float one = 1.0f;
  const float zero = 0.0f;

  {  // FP32: SGEMM (pedantic), SGEMV (pedantic), TF32 GemmEx; ws::fill_random inputs
    const int n = sizes.gemm_n;
    const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    std::vector<float> a(elements);
    std::vector<float> b(elements);
    std::vector<float> x(static_cast<std::size_t>(n));
    ws::fill_random(a, 1u);
    ws::fill_random(b, 2u);
    ws::fill_random(x, 3u);
    DeviceBuffer<float> da(elements);
    DeviceBuffer<float> db(elements);
    DeviceBuffer<float> dc(elements);
    DeviceBuffer<float> dx(x.size());
    DeviceBuffer<float> dy(x.size());
    da.upload(a);
    db.upload(b);
    dx.upload(x);
    const std::vector<ws::GemmSample> samples = ws::gemm_reference_samples(a, b, n, kGemmSamples);

    WS_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH));
    WS_CHECK(cudaMemsetAsync(dc.get(), 0xFF, dc.bytes(), stream.get()));  // NaN: a skipped element fails
    const std::string sgemm = format("cublasSgemm[pedantic,n=%d]", n);
    timed_step(run, sgemm, stream.get(), [&] {
      WS_CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db.get(), n, da.get(), n, &zero,
                                  dc.get(), n));
    });
    check_gemm(run, sgemm, dc, elements, n, samples, 1e-3, 1e-5);

    // y = A x: the row-major A is the column-major A^T, so op T.
    WS_CHECK(cudaMemsetAsync(dy.get(), 0xFF, dy.bytes(), stream.get()));
    const std::string sgemv = format("cublasSgemv[pedantic,n=%d]", n);
    timed_step(run, sgemv, stream.get(), [&] {
      WS_CUBLAS_CHECK(cublasSgemv(h, CUBLAS_OP_T, n, n, &one, da.get(), n, dx.get(), 1, &zero, dy.get(), 1));
    });
    {
      std::vector<float> y;
      dy.download(y);
      std::string mismatch;
      double worst = 0.0;
      for (int row = 0; row < n; ++row) {
        double want = 0.0;
        double magnitude = 0.0;
        for (int k = 0; k < n; ++k) {
          const double term = static_cast<double>(a[ws::at(row, k, n)]) * static_cast<double>(x[static_cast<std::size_t>(k)]);
          want += term;
          magnitude += std::fabs(term);
        }
        const double got = static_cast<double>(y[static_cast<std::size_t>(row)]);
        const double error = std::fabs(got - want);
        if (magnitude > 0.0) worst = std::max(worst, error / magnitude);
        if (!(error <= 1e-3 * std::fabs(want) + 1e-5 * magnitude) && mismatch.empty())
          mismatch = format("y[%d]=%.9g want %.9g", row, got, want);
      }
      check(run, sgemv, mismatch.empty(),
            format("rows=%d (all) max_error=%.3g*sum|ax| %s", n, worst,
                   mismatch.empty() ? "all within tolerance" : mismatch.c_str()));
    }

    // TF32 tensor cores; default math mode so that the compute type alone decides.
    WS_CUBLAS_CHECK(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    WS_CHECK(cudaMemsetAsync(dc.get(), 0xFF, dc.bytes(), stream.get()));
    const std::string tf32 = format("cublasGemmEx[tf32,n=%d]", n);
    timed_step(run, tf32, stream.get(), [&] {
      WS_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db.get(), CUDA_R_32F, n, da.get(),
                                   CUDA_R_32F, n, &zero, dc.get(), CUDA_R_32F, n, CUBLAS_COMPUTE_32F_FAST_TF32,
                                   CUBLAS_GEMM_DEFAULT));
    });
    check_gemm(run, tf32, dc, elements, n, samples, 1e-2, 5e-4);
  }

  {  // FP16 and BF16 n x n x n, then FP16 m x n x n, FP32 accumulate and output; exact inputs (eighths)
    const int n = sizes.half_n;
    const int m = sizes.skinny_m;
    const std::size_t elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    const std::vector<std::uint8_t> a = eighth_codes(elements, 5);
    const std::vector<std::uint8_t> b = eighth_codes(elements, 6);
    DeviceBuffer<__half> ha(elements);
    DeviceBuffer<__half> hb(elements);
    DeviceBuffer<__nv_bfloat16> ba(elements);
    DeviceBuffer<__nv_bfloat16> bb(elements);
    DeviceBuffer<float> dc(elements);
    const auto to_half = [](float v) { return __float2half_rn(v); };
    const auto to_bf16 = [](float v) { return __float2bfloat16_rn(v); };
    ha.upload(eighths_as<__half>(a, to_half));
    hb.upload(eighths_as<__half>(b, to_half));
    ba.upload(eighths_as<__nv_bfloat16>(a, to_bf16));
    bb.upload(eighths_as<__nv_bfloat16>(b, to_bf16));
    const std::vector<ws::GemmSample> square = eighth_samples(a, b, n, n, n, kGemmSamples);
    const std::vector<ws::GemmSample> skinny = eighth_samples(a, b, m, n, n, kGemmSamples);

    const auto gemm_ex = [&](const void* pa, const void* pb, cudaDataType type, int rows) {
      WS_CUBLAS_CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, rows, n, &one, pb, type, n, pa, type, n, &zero,
                                   dc.get(), CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    };
    WS_CHECK(cudaMemsetAsync(dc.get(), 0xFF, dc.bytes(), stream.get()));
    const std::string fp16 = format("cublasGemmEx[fp16,n=%d]", n);
    timed_step(run, fp16, stream.get(), [&] { gemm_ex(ha.get(), hb.get(), CUDA_R_16F, n); });
    check_gemm(run, fp16, dc, elements, n, square, 0.0, 1e-6);

    WS_CHECK(cudaMemsetAsync(dc.get(), 0xFF, dc.bytes(), stream.get()));
    const std::string bf16 = format("cublasGemmEx[bf16,n=%d]", n);
    timed_step(run, bf16, stream.get(), [&] { gemm_ex(ba.get(), bb.get(), CUDA_R_16BF, n); });
    check_gemm(run, bf16, dc, elements, n, square, 0.0, 1e-6);

    // A: the first m rows of the n x n A (row-major, so contiguous), C: m x n.
    WS_CHECK(cudaMemsetAsync(dc.get(), 0xFF, dc.bytes(), stream.get()));
    const std::string fp16_skinny = format("cublasGemmEx[fp16,m=%d,n=%d,k=%d]", m, n, n);
    timed_step(run, fp16_skinny, stream.get(), [&] { gemm_ex(ha.get(), hb.get(), CUDA_R_16F, m); });
    check_gemm(run, fp16_skinny, dc, static_cast<std::size_t>(m) * static_cast<std::size_t>(n), n, skinny, 0.0,
               1e-6);
  }
  WS_CHECK(cudaStreamSynchronize(stream.get()));
}

// ---------------------------------------------------------------------------------------------------------------
// cuFFT (default stream): forward C2C transforms, out of place, unnormalized: X[k] = sum_j x[j] e^{-2 pi i jk/N}.

class FftPlan {
 public:
  FftPlan() = default;
  ~FftPlan() {
    if (plan_ != 0) cufftDestroy(plan_);
  }
  FftPlan(const FftPlan&) = delete;
  FftPlan& operator=(const FftPlan&) = delete;
  cufftHandle* out() { return &plan_; }
  cufftHandle get() const { return plan_; }

 private:
  cufftHandle plan_ = 0;
};

/// e^{-2 pi i j / n} for j in [0, n), in double.
struct Twiddles {
  std::vector<double> re;
  std::vector<double> im;
  explicit Twiddles(std::size_t n) : re(n), im(n) {
    const double pi = std::acos(-1.0);
    for (std::size_t j = 0; j < n; ++j) {
      const double angle = -2.0 * pi * static_cast<double>(j) / static_cast<double>(n);
      re[j] = std::cos(angle);
      im[j] = std::sin(angle);
    }
  }
};

struct Complex {
  double re = 0.0;
  double im = 0.0;
};

/// Bin k of the DFT of x[0..len) (len = the twiddle table's size), in double.
Complex direct_dft(const cufftComplex* x, std::size_t k, const Twiddles& w) {
  const std::size_t len = w.re.size();
  Complex sum;
  std::size_t index = 0;  // j * k mod len
  for (std::size_t j = 0; j < len; ++j) {
    const double xr = static_cast<double>(x[j].x);
    const double xi = static_cast<double>(x[j].y);
    sum.re += xr * w.re[index] - xi * w.im[index];
    sum.im += xr * w.im[index] + xi * w.re[index];
    index += k;
    if (index >= len) index -= len;
  }
  return sum;
}

double energy(const cufftComplex* x, std::size_t count) {
  double sum = 0.0;
  for (std::size_t i = 0; i < count; ++i)
    sum += static_cast<double>(x[i].x) * static_cast<double>(x[i].x) +
           static_cast<double>(x[i].y) * static_cast<double>(x[i].y);
  return sum;
}

std::vector<cufftComplex> random_complex(std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<cufftComplex> x(count);
  for (cufftComplex& v : x) {
    v.x = rng.uniform();
    v.y = rng.uniform();
  }
  return x;
}

/// Checks one transform of `len` points (`input`, `output`) at the given bins: each bin against the direct DFT,
/// tolerance 1e-5 * log2(len) * ||x||_2 (fp32 FFT error grows like eps * sqrt(log len) * ||x||: this is ~100x that,
/// and ~1e-4 of a typical bin), and Parseval: sum |X|^2 = len * sum |x|^2 within 1e-4.
/// `dft(k)` computes the reference bin k. Returns "" or the first problem; `worst` gets the largest error / ||x||.
template <typename Dft>
std::string check_transform(const cufftComplex* input, const cufftComplex* output, std::size_t len,
                            const std::vector<std::size_t>& bins, Dft dft, double& worst) {
  const double in_energy = energy(input, len);
  const double out_energy = energy(output, len);
  const double norm = std::sqrt(in_energy);
  const double tolerance = 1e-5 * std::log2(static_cast<double>(len)) * norm;
  std::string problem;
  for (std::size_t k : bins) {
    const Complex want = dft(k);
    const double error = std::hypot(static_cast<double>(output[k].x) - want.re, static_cast<double>(output[k].y) - want.im);
    worst = std::max(worst, error / norm);
    if (!(error <= tolerance) && problem.empty())
      problem = format("bin %zu = (%.6g, %.6g) want (%.6g, %.6g), tolerance %.3g", k, static_cast<double>(output[k].x),
                       static_cast<double>(output[k].y), want.re, want.im, tolerance);
  }
  const double parseval = std::fabs(out_energy - static_cast<double>(len) * in_energy) /
                          (static_cast<double>(len) * in_energy);
  if (!(parseval <= 1e-4) && problem.empty())
    problem = format("Parseval: sum|X|^2 / (N sum|x|^2) - 1 = %.3g", parseval);
  return problem;
}

void run_fft(Run& run, const Sizes& sizes) {
  {  // 2D n x n (row-major: x[n1 * n + n2])
    const int n = sizes.fft2d_n;
    const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    const std::vector<cufftComplex> input = random_complex(count, 21);
    DeviceBuffer<cufftComplex> din(count);
    DeviceBuffer<cufftComplex> dout(count);
    din.upload(input);
    FftPlan plan;
    WS_CUFFT_CHECK(cufftPlan2d(plan.out(), n, n, CUFFT_C2C));
    WS_CHECK(cudaMemset(dout.get(), 0xFF, dout.bytes()));
    const std::string label = format("cufftExecC2C[2d,%dx%d]", n, n);
    timed_step(run, label, nullptr,
               [&] { WS_CUFFT_CHECK(cufftExecC2C(plan.get(), din.get(), dout.get(), CUFFT_FORWARD)); });
    std::vector<cufftComplex> output;
    dout.download(output);

    const Twiddles w(static_cast<std::size_t>(n));
    const std::size_t un = static_cast<std::size_t>(n);
    // Bin (k1, k2) = sum_n1 w^(k1 n1) * (1D DFT of row n1 at k2).
    const auto dft2d = [&](std::size_t bin) {
      const std::size_t k1 = bin / un;
      const std::size_t k2 = bin % un;
      Complex sum;
      std::size_t index = 0;  // n1 * k1 mod n
      for (std::size_t n1 = 0; n1 < un; ++n1) {
        const Complex row = direct_dft(input.data() + n1 * un, k2, w);
        sum.re += row.re * w.re[index] - row.im * w.im[index];
        sum.im += row.re * w.im[index] + row.im * w.re[index];
        index += k1;
        if (index >= un) index -= un;
      }
      return sum;
    };
    Rng rng(23);
    std::vector<std::size_t> bins = {0, 1, un, count - 1, (un / 2) * un + un / 3};
    for (int i = 0; i < 3; ++i) bins.push_back(static_cast<std::size_t>(rng.next() % count));
    double worst = 0.0;
    const std::string problem = check_transform(input.data(), output.data(), count, bins, dft2d, worst);
    check(run, label, problem.empty(),
          format("bins=%zu (direct DFT) + Parseval max_error=%.3g*||x|| %s", bins.size(), worst,
                 problem.empty() ? "all within tolerance" : problem.c_str()));
  }
  {  // batched 1D: batch transforms of len points, contiguous
    const int len = sizes.fft1d_len;
    const int batch = sizes.fft1d_batch;
    const std::size_t ulen = static_cast<std::size_t>(len);
    const std::size_t count = ulen * static_cast<std::size_t>(batch);
    const std::vector<cufftComplex> input = random_complex(count, 31);
    DeviceBuffer<cufftComplex> din(count);
    DeviceBuffer<cufftComplex> dout(count);
    din.upload(input);
    FftPlan plan;
    int dims[1] = {len};
    WS_CUFFT_CHECK(cufftPlanMany(plan.out(), 1, dims, nullptr, 1, len, nullptr, 1, len, CUFFT_C2C, batch));
    WS_CHECK(cudaMemset(dout.get(), 0xFF, dout.bytes()));
    const std::string label = format("cufftExecC2C[1d,%dx%d]", batch, len);
    timed_step(run, label, nullptr,
               [&] { WS_CUFFT_CHECK(cufftExecC2C(plan.get(), din.get(), dout.get(), CUFFT_FORWARD)); });
    std::vector<cufftComplex> output;
    dout.download(output);

    const Twiddles w(ulen);
    Rng rng(33);
    std::string problem;
    double worst = 0.0;
    int bins_checked = 0;
    for (int t = 0; t < batch; ++t) {
      const cufftComplex* x = input.data() + static_cast<std::size_t>(t) * ulen;
      const cufftComplex* y = output.data() + static_cast<std::size_t>(t) * ulen;
      // Every transform: Parseval and bin 0; the first and last also bins 1 and len-1; two random bins each.
      std::vector<std::size_t> bins = {0};
      if (t == 0 || t == batch - 1) {
        bins.push_back(1);
        bins.push_back(ulen - 1);
      }
      for (int i = 0; i < 2; ++i) bins.push_back(static_cast<std::size_t>(rng.next() % ulen));
      bins_checked += static_cast<int>(bins.size());
      const std::string p = check_transform(x, y, ulen, bins, [&](std::size_t k) { return direct_dft(x, k, w); }, worst);
      if (!p.empty() && problem.empty()) problem = format("transform %d: %s", t, p.c_str());
    }
    check(run, label, problem.empty(),
          format("transforms=%d bins=%d (direct DFT) + Parseval each max_error=%.3g*||x|| %s", batch, bins_checked,
                 worst, problem.empty() ? "all within tolerance" : problem.c_str()));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// cuSPARSE (default stream): SpMV y = A x and SpMM Y = A X (X, Y column-major, spmm_cols columns), A square CSR
// float with 8..24 distinct sorted column indices per row, made on the host from fixed seeds.

class CusparseHandle {
 public:
  CusparseHandle() { WS_CUSPARSE_CHECK(cusparseCreate(&handle_)); }
  ~CusparseHandle() { cusparseDestroy(handle_); }
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  cusparseHandle_t get() const { return handle_; }

 private:
  cusparseHandle_t handle_ = nullptr;
};

struct Csr {
  int rows = 0;
  std::vector<int> offsets;  // rows + 1
  std::vector<int> columns;
  std::vector<float> values;
};

Csr random_csr(int rows, std::uint64_t seed) {
  Rng rng(seed);
  Csr a;
  a.rows = rows;
  a.offsets.reserve(static_cast<std::size_t>(rows) + 1);
  a.offsets.push_back(0);
  std::vector<int> picked;
  for (int r = 0; r < rows; ++r) {
    const std::size_t want = 8 + rng.below(17);  // 8..24, mean 16
    picked.clear();
    while (picked.size() < want) {
      while (picked.size() < want) picked.push_back(static_cast<int>(rng.below(static_cast<unsigned>(rows))));
      std::sort(picked.begin(), picked.end());
      picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    }
    for (int c : picked) {
      a.columns.push_back(c);
      a.values.push_back(rng.uniform());
    }
    a.offsets.push_back(static_cast<int>(a.columns.size()));
  }
  return a;
}

/// Checks every element of the column-major result y (rows x cols) of A * x against double; tolerance
/// 1e-5 * sum_k |a*x| (<= 24 fp32 products per row: worst-case rounding is ~24 * 6e-8 of that).
std::string check_spmm(const Csr& a, const std::vector<float>& x, const std::vector<float>& y, int cols,
                       double& worst) {
  const std::size_t rows = static_cast<std::size_t>(a.rows);
  std::string problem;
  for (int col = 0; col < cols; ++col) {
    const float* xc = x.data() + static_cast<std::size_t>(col) * rows;
    const float* yc = y.data() + static_cast<std::size_t>(col) * rows;
    for (std::size_t r = 0; r < rows; ++r) {
      double want = 0.0;
      double magnitude = 0.0;
      for (int j = a.offsets[r]; j < a.offsets[r + 1]; ++j) {
        const std::size_t uj = static_cast<std::size_t>(j);
        const double term = static_cast<double>(a.values[uj]) * static_cast<double>(xc[a.columns[uj]]);
        want += term;
        magnitude += std::fabs(term);
      }
      const double error = std::fabs(static_cast<double>(yc[r]) - want);
      if (magnitude > 0.0) worst = std::max(worst, error / magnitude);
      if (!(error <= 1e-5 * magnitude + 1e-30) && problem.empty())
        problem = format("y[%zu][%d]=%.9g want %.9g", r, col, static_cast<double>(yc[r]), want);
    }
  }
  return problem;
}

void run_sparse(Run& run, const Sizes& sizes) {
  const int rows = sizes.sparse_rows;
  const int k = sizes.spmm_cols;
  const Csr a = random_csr(rows, 41);
  const std::size_t nnz = a.columns.size();
  const std::size_t urows = static_cast<std::size_t>(rows);
  std::vector<float> x(urows * static_cast<std::size_t>(k));  // SpMM's X; its first column is SpMV's x
  Rng rng(43);
  for (float& v : x) v = rng.uniform();

  DeviceBuffer<int> doffsets(a.offsets.size());
  DeviceBuffer<int> dcolumns(nnz);
  DeviceBuffer<float> dvalues(nnz);
  DeviceBuffer<float> dx(x.size());
  DeviceBuffer<float> dy(x.size());
  doffsets.upload(a.offsets);
  dcolumns.upload(a.columns);
  dvalues.upload(a.values);
  dx.upload(x);

  CusparseHandle handle;
  cusparseHandle_t h = handle.get();
  cusparseSpMatDescr_t mat = nullptr;
  WS_CUSPARSE_CHECK(cusparseCreateCsr(&mat, rows, rows, static_cast<std::int64_t>(nnz), doffsets.get(),
                                      dcolumns.get(), dvalues.get(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                      CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  const float one = 1.0f;
  const float zero = 0.0f;

  {  // SpMV
    cusparseDnVecDescr_t vx = nullptr;
    cusparseDnVecDescr_t vy = nullptr;
    WS_CUSPARSE_CHECK(cusparseCreateDnVec(&vx, rows, dx.get(), CUDA_R_32F));
    WS_CUSPARSE_CHECK(cusparseCreateDnVec(&vy, rows, dy.get(), CUDA_R_32F));
    std::size_t buffer_bytes = 0;
    WS_CUSPARSE_CHECK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy,
                                              CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &buffer_bytes));
    DeviceBuffer<unsigned char> buffer(std::max<std::size_t>(buffer_bytes, 1));
    WS_CHECK(cudaMemset(dy.get(), 0xFF, dy.bytes()));
    const std::string label = format("cusparseSpMV[csr,rows=%d,nnz=%zu]", rows, nnz);
    timed_step(run, label, nullptr, [&] {
      WS_CUSPARSE_CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat, vx, &zero, vy, CUDA_R_32F,
                                     CUSPARSE_SPMV_ALG_DEFAULT, buffer.get()));
    });
    std::vector<float> y(urows);
    dy.download(y.data(), urows);
    double worst = 0.0;
    const std::string problem = check_spmm(a, x, y, 1, worst);
    check(run, label, problem.empty(),
          format("rows=%d (all) max_error=%.3g*sum|ax| %s", rows, worst,
                 problem.empty() ? "all within tolerance" : problem.c_str()));
    cusparseDestroyDnVec(vx);
    cusparseDestroyDnVec(vy);
  }
  {  // SpMM
    cusparseDnMatDescr_t mx = nullptr;
    cusparseDnMatDescr_t my = nullptr;
    WS_CUSPARSE_CHECK(cusparseCreateDnMat(&mx, rows, k, rows, dx.get(), CUDA_R_32F, CUSPARSE_ORDER_COL));
    WS_CUSPARSE_CHECK(cusparseCreateDnMat(&my, rows, k, rows, dy.get(), CUDA_R_32F, CUSPARSE_ORDER_COL));
    std::size_t buffer_bytes = 0;
    WS_CUSPARSE_CHECK(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                              &one, mat, mx, &zero, my, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT,
                                              &buffer_bytes));
    DeviceBuffer<unsigned char> buffer(std::max<std::size_t>(buffer_bytes, 1));
    WS_CHECK(cudaMemset(dy.get(), 0xFF, dy.bytes()));
    const std::string label = format("cusparseSpMM[csr,rows=%d,nnz=%zu,cols=%d]", rows, nnz, k);
    timed_step(run, label, nullptr, [&] {
      WS_CUSPARSE_CHECK(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, mat,
                                     mx, &zero, my, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer.get()));
    });
    std::vector<float> y;
    dy.download(y);
    double worst = 0.0;
    const std::string problem = check_spmm(a, x, y, k, worst);
    check(run, label, problem.empty(),
          format("rows=%d cols=%d (all) max_error=%.3g*sum|ax| %s", rows, k, worst,
                 problem.empty() ? "all within tolerance" : problem.c_str()));
    cusparseDestroyDnMat(mx);
    cusparseDestroyDnMat(my);
  }
  cusparseDestroySpMat(mat);
}

// ---------------------------------------------------------------------------------------------------------------
// Thrust and CUB (default stream; raw device pointers with thrust::cuda::par).

/// Order-independent fingerprint of a multiset of keys: count, sum and sum of squares modulo 2^64.
struct KeySums {
  std::uint64_t sum = 0;
  std::uint64_t squares = 0;
  void add(unsigned key) {
    sum += key;
    squares += static_cast<std::uint64_t>(key) * key;
  }
  bool operator==(const KeySums& other) const { return sum == other.sum && squares == other.squares; }
};

/// Sum check for a float reduction of `x`: |got - sum| <= 1e-6 * sum|x| + 1e-3 (fp32 tree and per-thread sums
/// round at ~6e-8 * log2(n) * sum|x| in the worst case; in practice far less).
std::string check_sum(double got, double want, double magnitude) {
  const double tolerance = 1e-6 * magnitude + 1e-3;
  if (std::fabs(got - want) <= tolerance) return "";
  return format("sum=%.9g want %.9g (tolerance %.3g)", got, want, tolerance);
}

void run_thrust(Run& run, const Sizes& sizes) {
  {  // thrust::sort of unsigned keys, uploaded from pinned memory with cudaMemcpyAsync
    const std::size_t n = sizes.sort_n;
    unsigned* pinned = nullptr;
    WS_CHECK(cudaMallocHost(&pinned, n * sizeof(unsigned)));
    Rng rng(51);
    KeySums input_sums;
    for (std::size_t i = 0; i < n; ++i) {
      pinned[i] = static_cast<unsigned>(rng.next() >> 32);
      input_sums.add(pinned[i]);
    }
    DeviceBuffer<unsigned> pristine(n);
    DeviceBuffer<unsigned> keys(n);
    WS_CHECK(cudaMemcpyAsync(pristine.get(), pinned, n * sizeof(unsigned), cudaMemcpyHostToDevice, nullptr));
    WS_CHECK(cudaStreamSynchronize(nullptr));
    WS_CHECK(cudaFreeHost(pinned));
    const std::string label = format("thrust::sort[u32,n=%zu]", n);
    timed_step(
        run, label, nullptr,
        [&] {  // fresh unsorted keys before each sort, outside the timed events
          WS_CHECK(cudaMemcpyAsync(keys.get(), pristine.get(), keys.bytes(), cudaMemcpyDeviceToDevice, nullptr));
        },
        [&] { thrust::sort(thrust::cuda::par, keys.get(), keys.get() + n); });
    std::vector<unsigned> sorted;
    keys.download(sorted);
    KeySums output_sums;
    for (unsigned key : sorted) output_sums.add(key);
    const bool in_order = std::is_sorted(sorted.begin(), sorted.end());
    const bool same = output_sums == input_sums;
    check(run, label, in_order && same,
          format("n=%zu sorted=%s checksum=%s", n, in_order ? "yes" : "NO", same ? "equal" : "DIFFERENT"));
  }

  // 64M floats in [-1, 1), pageable cudaMemcpy
  const std::size_t n = sizes.reduce_n;
  std::vector<float> x(n);
  ws::fill_random(x, 61u);
  double sum = 0.0;
  double magnitude = 0.0;
  for (float v : x) {
    sum += static_cast<double>(v);
    magnitude += std::fabs(static_cast<double>(v));
  }
  DeviceBuffer<float> dx(n);
  DeviceBuffer<float> dout(n);
  dx.upload(x);

  {  // thrust::reduce: the result comes back to the host (a DtoH copy inside the call)
    float result = 0.0f;
    const std::string label = format("thrust::reduce[f32,n=%zu]", n);
    timed_step(run, label, nullptr, [&] { result = thrust::reduce(thrust::cuda::par, dx.get(), dx.get() + n, 0.0f); });
    const std::string problem = check_sum(static_cast<double>(result), sum, magnitude);
    check(run, label, problem.empty(), format("n=%zu sum=%.9g %s", n, static_cast<double>(result),
                                              problem.empty() ? "within tolerance of the double sum" : problem.c_str()));
  }
  {  // thrust::inclusive_scan
    WS_CHECK(cudaMemset(dout.get(), 0xFF, dout.bytes()));
    const std::string label = format("thrust::inclusive_scan[f32,n=%zu]", n);
    timed_step(run, label, nullptr,
               [&] { thrust::inclusive_scan(thrust::cuda::par, dx.get(), dx.get() + n, dout.get()); });
    std::vector<float> y;
    dout.download(y);
    // Two checks per element: against the double prefix sum (tolerance 1e-6 * sum_{j<=i} |x_j| + 1e-3, for the
    // drift of the fp32 carries between tiles), and locally: y[i] - y[i-1] must be x[i] within 16 ulp of the largest
    // |prefix| (the magnitude of the carries and partial sums both values went through): a missing or doubled
    // element fails there wherever the drift tolerance is loose.
    double largest = 1.0;
    {
      double prefix = 0.0;
      for (float v : x) {
        prefix += static_cast<double>(v);
        largest = std::max(largest, std::fabs(prefix));
      }
    }
    const double step_tolerance = 16.0 * 1.2e-7 * largest;
    std::string problem;
    double prefix = 0.0;
    double prefix_abs = 0.0;
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      const double xi = static_cast<double>(x[i]);
      prefix += xi;
      prefix_abs += std::fabs(xi);
      const double got = static_cast<double>(y[i]);
      const double error = std::fabs(got - prefix);
      worst = std::max(worst, error);
      if (!(error <= 1e-6 * prefix_abs + 1e-3) && problem.empty())
        problem = format("y[%zu]=%.9g want %.9g", i, got, prefix);
      const double previous = i == 0 ? 0.0 : static_cast<double>(y[i - 1]);
      const double step_error = std::fabs((got - previous) - xi);
      if (!(step_error <= step_tolerance) && problem.empty())
        problem = format("y[%zu]-y[%zu]=%.9g want x[%zu]=%.9g (tolerance %.3g)", i, i == 0 ? 0 : i - 1,
                         got - previous, i, xi, step_tolerance);
    }
    check(run, label, problem.empty(),
          format("n=%zu (all) max_abs_error=%.3g %s", n, worst,
                 problem.empty() ? "all within tolerance" : problem.c_str()));
  }
  {  // cub::DeviceReduce::Sum with explicit temporary storage: size query, cudaMalloc, then the timed calls
    DeviceBuffer<float> dsum(1);
    std::size_t temp_bytes = 0;
    WS_CHECK(cub::DeviceReduce::Sum(nullptr, temp_bytes, dx.get(), dsum.get(), static_cast<std::int64_t>(n), nullptr));
    DeviceBuffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1));
    const std::string label = format("cub::DeviceReduce::Sum[f32,n=%zu]", n);
    timed_step(run, label, nullptr, [&] {
      WS_CHECK(cub::DeviceReduce::Sum(temp.get(), temp_bytes, dx.get(), dsum.get(), static_cast<std::int64_t>(n),
                                      nullptr));
    });
    float result = 0.0f;
    dsum.download(&result, 1);
    const std::string problem = check_sum(static_cast<double>(result), sum, magnitude);
    check(run, label, problem.empty(),
          format("n=%zu temp_bytes=%zu sum=%.9g %s", n, temp_bytes, static_cast<double>(result),
                 problem.empty() ? "within tolerance of the double sum" : problem.c_str()));
  }
}

// ---------------------------------------------------------------------------------------------------------------

int usage(const char* message) {
  std::fprintf(stderr,
               "ws_vendor_libs: %s\nusage: ws_vendor_libs [--repeat R (1..1000, default 15)] "
               "[--only blas|fft|sparse|thrust] [--small]\n",
               message);
  return 2;
}

struct Options {
  int repeat = 15;
  std::string only = "all";
  bool small = false;
};

/// Parses argv strictly (an unknown argument is an error, so a typo cannot silently run the full program).
bool parse(int argc, char** argv, Options& options, std::string& error) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    std::string value;
    bool has_value = false;
    std::string name = arg;
    if (const std::size_t eq = arg.find('='); eq != std::string::npos) {
      name = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      has_value = true;
    }
    if (name == "--small" && !has_value) {
      options.small = true;
      continue;
    }
    if (name != "--repeat" && name != "--only") {
      error = "unknown argument '" + arg + "'";
      return false;
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        error = name + " needs a value";
        return false;
      }
      value = argv[++i];
    }
    if (name == "--repeat") {
      char* end = nullptr;
      const long repeat = std::strtol(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0' || repeat < 1 || repeat > 1000) {
        error = "--repeat must be 1..1000";
        return false;
      }
      options.repeat = static_cast<int>(repeat);
    } else {
      if (value != "blas" && value != "fft" && value != "sparse" && value != "thrust" && value != "all") {
        error = "--only must be blas, fft, sparse or thrust";
        return false;
      }
      options.only = value;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (std::string error; !parse(argc, argv, options, error)) return usage(error.c_str());
  const Sizes& sizes = options.small ? kSmall : kFull;

  int device = 0;
  WS_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  WS_CHECK(cudaGetDeviceProperties(&prop, device));
  int versions[3][3] = {};
  const libraryPropertyType parts[3] = {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL};
  for (int p = 0; p < 3; ++p) {
    WS_CUBLAS_CHECK(cublasGetProperty(parts[p], &versions[0][p]));
    WS_CUFFT_CHECK(cufftGetProperty(parts[p], &versions[1][p]));
    WS_CUSPARSE_CHECK(cusparseGetProperty(parts[p], &versions[2][p]));
  }
  std::printf("info %s repeat=%d only=%s small=%d cublas=%d.%d.%d cufft=%d.%d.%d cusparse=%d.%d.%d thrust=%d.%d.%d "
              "sm=%d.%d sms=%d device=%s\n",
              kWorkload, options.repeat, options.only.c_str(), options.small ? 1 : 0, versions[0][0], versions[0][1],
              versions[0][2], versions[1][0], versions[1][1], versions[1][2], versions[2][0], versions[2][1],
              versions[2][2], THRUST_MAJOR_VERSION, THRUST_MINOR_VERSION, THRUST_SUBMINOR_VERSION, prop.major,
              prop.minor, prop.multiProcessorCount, prop.name);
  std::printf("info %s sizes gemm_n=%d half_n=%d skinny_m=%d fft2d=%dx%d fft1d=%dx%d sparse_rows=%d spmm_cols=%d "
              "sort_n=%zu reduce_n=%zu\n",
              kWorkload, sizes.gemm_n, sizes.half_n, sizes.skinny_m, sizes.fft2d_n, sizes.fft2d_n, sizes.fft1d_batch,
              sizes.fft1d_len, sizes.sparse_rows, sizes.spmm_cols, sizes.sort_n, sizes.reduce_n);
  std::fflush(stdout);

  ws::KernelTimer timer(kWorkload);
  Run run{options.repeat, timer, 0, {}};
  struct Section {
    const char* name;
    void (*body)(Run&, const Sizes&);
  };
  const Section sections[] = {{"blas", run_blas}, {"fft", run_fft}, {"sparse", run_sparse}, {"thrust", run_thrust}};
  try {
    for (const Section& section : sections) {
      if (options.only != "all" && options.only != section.name) continue;
      const auto begin = std::chrono::steady_clock::now();
      section.body(run, sizes);
      WS_CHECK(cudaDeviceSynchronize());
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      std::printf("info %s section=%s wall_s=%.3f\n", kWorkload, section.name, seconds);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {  // thrust reports CUDA errors as exceptions
    std::printf("FAILED %s exception: %s\n", kWorkload, e.what());
    return 2;
  }

  std::printf("info %s checks=%d passed=%d failed=%zu\n", kWorkload, run.checks,
              run.checks - static_cast<int>(run.failed.size()), run.failed.size());
  if (!run.failed.empty()) {
    std::string list;
    for (const std::string& step : run.failed) list += (list.empty() ? "" : ", ") + step;
    std::printf("FAILED %s: %zu of %d checks failed: %s\n", kWorkload, run.failed.size(), run.checks, list.c_str());
    return 1;
  }
  return 0;
}
