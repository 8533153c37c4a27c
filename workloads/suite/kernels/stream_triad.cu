// stream_triad: McCalpin's STREAM memory-bandwidth kernels on the GPU (as in the BabelStream / CUDA-STREAM ports),
// single precision over arrays of 2^26 floats (256 MiB each, 5x the L2):
//   stream_copy                - c[i] = a[i]                 (8 bytes moved per element)
//   stream_scale               - b[i] = s * c[i]             (8 bytes)
//   stream_triad               - a[i] = b[i] + s * c[i]      (12 bytes)
// all three with a grid-stride loop over a grid of one full wave (SMs x 8 blocks of 256 threads = 64 warps per
// SM), plus
//   stream_triad_per_element   - the triad with one thread per element (262144 blocks of 256 threads, no loop),
//                                here as c[i] = a[i] + s * b[i] so that its result feeds the check.
// Each repetition runs copy, scale, triad, triad_per_element in that order (STREAM's Add kernel is left out).
//
// GPU behaviour exercised: sustained DRAM bandwidth with perfectly coalesced 128-byte accesses, read/write mixes
// of 1:1 and 2:1, and the grid-stride (persistent threads) vs one-thread-per-element launch shapes. Measured on one
// H100 SXM (CUDA events): copy and scale 0.225 ms (512 MiB, ~2.4 TB/s), both triads 0.295 ms (768 MiB, ~2.7 TB/s).
// 12-18 registers, full occupancy.
// Values are checked exactly: the GPU uses explicit round-to-nearest multiplies and FMAs, which the CPU's
// std::fmaf reproduces bit for bit.
//
// Usage: ws_stream_triad [--log2-n L (10..27)] [--repeat R]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "stream_triad";
constexpr int kThreads = 256;
constexpr int kBlocksPerSm = 8;  // 8 x 256 threads = 2048 threads: a full wave at full occupancy
constexpr float kScalar = 3.0f;  // STREAM's scalar

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Indices are unsigned: n < 2^32 and i + stride cannot wrap for n <= 2^27.

__global__ void stream_copy(const float* __restrict__ a, float* __restrict__ c, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) c[i] = a[i];
}

__global__ void stream_scale(float* __restrict__ b, const float* __restrict__ c, float scalar, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) b[i] = __fmul_rn(scalar, c[i]);
}

__global__ void stream_triad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c,
                             float scalar, unsigned n) {
  const unsigned stride = gridDim.x * blockDim.x;
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) a[i] = __fmaf_rn(scalar, c[i], b[i]);
}

/// dst = x + scalar * y, one element per thread.
__global__ void stream_triad_per_element(float* __restrict__ dst, const float* __restrict__ x,
                                         const float* __restrict__ y, float scalar, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = __fmaf_rn(scalar, y[i], x[i]);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr, "ws_stream_triad: %s\nusage: ws_stream_triad [--log2-n L (10..27)] [--repeat R]\n", message);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long log2_n = ws::arg_long(argc, argv, "log2-n", 26);
  const long repeat_arg = ws::arg_long(argc, argv, "repeat", 3);
  if (log2_n < 10 || log2_n > 27) return usage("--log2-n out of range");
  if (repeat_arg < 1 || repeat_arg > 10) return usage("--repeat must be 1..10");
  const unsigned n = 1u << log2_n;
  const int repeat = static_cast<int>(repeat_arg);

  int device = 0;
  WS_CHECK(cudaGetDevice(&device));
  int sms = 0;
  WS_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const unsigned stride_blocks = static_cast<unsigned>(sms * kBlocksPerSm);
  const unsigned element_blocks = (n + kThreads - 1) / kThreads;

  // a starts random (values differ per element, so misplaced elements are caught); b and c are overwritten before
  // they are read, but start as NaN so that a kernel that skips elements fails.
  std::vector<float> host_a(n);
  ws::fill_random(host_a, 71u);
  DeviceBuffer<float> a(n);
  DeviceBuffer<float> b(n);
  DeviceBuffer<float> c(n);
  a.upload(host_a);
  WS_CHECK(cudaMemset(b.get(), 0xFF, b.bytes()));
  WS_CHECK(cudaMemset(c.get(), 0xFF, c.bytes()));

  ws::KernelTimer timer(kWorkload);
  for (int r = 0; r < repeat; ++r) {
    timer.start();
    stream_copy<<<stride_blocks, kThreads>>>(a.get(), c.get(), n);
    timer.stop("stream_copy");
    timer.start();
    stream_scale<<<stride_blocks, kThreads>>>(b.get(), c.get(), kScalar, n);
    timer.stop("stream_scale");
    timer.start();
    stream_triad<<<stride_blocks, kThreads>>>(a.get(), b.get(), c.get(), kScalar, n);
    timer.stop("stream_triad");
    timer.start();
    stream_triad_per_element<<<element_blocks, kThreads>>>(c.get(), a.get(), b.get(), kScalar, n);
    timer.stop("stream_triad_per_element");
  }

  // CPU: the same sequence per element, computed on the fly (a grows 6x per repetition: 6^10 stays far inside the
  // float range).
  std::vector<float> got_a;
  std::vector<float> got_b;
  std::vector<float> got_c;
  a.download(got_a);
  b.download(got_b);
  c.download(got_c);
  std::string failure;
  for (unsigned i = 0; i < n; ++i) {
    float want_a = host_a[i];
    float want_b = 0.0f;
    float want_c = 0.0f;
    for (int r = 0; r < repeat; ++r) {
      want_c = want_a;                                  // stream_copy
      want_b = kScalar * want_c;                        // stream_scale
      want_a = std::fmaf(kScalar, want_c, want_b);      // stream_triad
      want_c = std::fmaf(kScalar, want_b, want_a);      // stream_triad_per_element
    }
    const char* which = got_a[i] != want_a   ? "a (stream_triad)"
                        : got_b[i] != want_b ? "b (stream_scale, from stream_copy's c)"
                        : got_c[i] != want_c ? "c (stream_triad_per_element)"
                                             : nullptr;
    if (which != nullptr) {
      char text[200];
      std::snprintf(text, sizeof text, "%s wrong at %u: a=%.9g b=%.9g c=%.9g want %.9g %.9g %.9g", which, i,
                    static_cast<double>(got_a[i]), static_cast<double>(got_b[i]), static_cast<double>(got_c[i]),
                    static_cast<double>(want_a), static_cast<double>(want_b), static_cast<double>(want_c));
      failure = text;
      break;
    }
  }
  char detail[300];
  std::snprintf(detail, sizeof detail, "n=%u grid_stride_blocks=%u %s", n, stride_blocks,
                failure.empty() ? "all exact" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
