// srad: speckle-reducing anisotropic diffusion of an ultrasound-like image (Yu & Acton, "Speckle Reducing
// Anisotropic Diffusion", IEEE TIP 2002), as Rodinia's srad runs it. Per iteration:
//   1. srad_reduce: sum and sum of squares of the image J (one partial per block, in double; the host adds the
//      partials) -> q0^2 = var(J) / mean(J)^2, the speckle scale of the whole image;
//   2. srad_coefficient: for each pixel the four one-sided differences dN, dS, dW, dE to its neighbours (image edges
//      replicate the pixel), G2 = sum d^2 / J^2, L = sum d / J, q^2 = (G2 / 2 - L^2 / 16) / (1 + L / 4)^2, and the
//      diffusion coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))) clamped to [0, 1];
//   3. srad_update: J += (lambda / 4) * (c * dN + c_S * dS + c * dW + c_E * dE), where c_S and c_E are the
//      coefficients of the south and east neighbours.
// Like Rodinia's srad_v2, both stencil kernels stage a 16x16 tile (and the halo row / column they need) in shared
// memory. The image is J = exp(I / 255) for a synthetic 8-bit image I (smooth structures plus speckle noise).
//
// Size: 4096 x 4096 pixels, 6 iterations of 3 kernels (18 launches); the stencil kernels move ~7 image-sized
// float arrays (J, four differences, c) = ~450 MiB per iteration; the reduction reads 64 MiB.
//
// GPU behaviour exercised: bandwidth-bound stencils with five output streams (srad_coefficient writes 320 MiB),
// shared-memory halo loads by a subset of threads (divergent), many divides per pixel; a grid-stride block
// reduction in FP64 through shared memory. Measured on an H100 (event timing): srad_reduce ~32 us,
// srad_coefficient ~170 us, srad_update ~200 us.
//
// Usage: ws_srad [--n N (image side, multiple of 16)] [--iterations I]
// Prints one `timing` line per launch and one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "srad";
constexpr int kTile = 16;              // 16x16 threads per block, one pixel each
constexpr int kReduceBlock = 256;
constexpr int kReduceBlocks = 1024;    // grid-stride: 64 pixels per thread at 4096^2
constexpr float kLambda = 0.5f;
constexpr long kMaxN = 8192;

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernels. Row-major n x n float arrays; n is a multiple of kTile.

/// Per-block partial sums of J and J^2 (double), grid-stride over the image; partial[2 * b] and [2 * b + 1].
__global__ void srad_reduce(const float* __restrict__ image, double* __restrict__ partial, long count) {
  __shared__ double s_sum[kReduceBlock];
  __shared__ double s_sq[kReduceBlock];
  double sum = 0.0;
  double sq = 0.0;
  const long stride = static_cast<long>(gridDim.x) * blockDim.x;
  for (long i = static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    const double v = image[i];
    sum += v;
    sq += v * v;
  }
  s_sum[threadIdx.x] = sum;
  s_sq[threadIdx.x] = sq;
  __syncthreads();
  for (int half = kReduceBlock / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half) {
      s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
      s_sq[threadIdx.x] += s_sq[threadIdx.x + half];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[2 * blockIdx.x] = s_sum[0];
    partial[2 * blockIdx.x + 1] = s_sq[0];
  }
}

/// Differences to the four neighbours and the diffusion coefficient of every pixel. The tile gets a one-pixel halo
/// on all sides (clamped to the image, which replicates the edge pixel), loaded by the threads on the tile's edges.
__global__ void srad_coefficient(const float* __restrict__ image, float* __restrict__ d_n, float* __restrict__ d_s,
                                 float* __restrict__ d_w, float* __restrict__ d_e, float* __restrict__ coeff, int n,
                                 float q0sqr) {
  __shared__ float tile[kTile + 2][kTile + 2];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int x = blockIdx.x * kTile + tx;
  const int y = blockIdx.y * kTile + ty;
  const long index = static_cast<long>(y) * n + x;
  tile[ty + 1][tx + 1] = image[index];
  if (ty == 0) tile[0][tx + 1] = image[static_cast<long>(y > 0 ? y - 1 : 0) * n + x];
  if (ty == kTile - 1) tile[kTile + 1][tx + 1] = image[static_cast<long>(y < n - 1 ? y + 1 : n - 1) * n + x];
  if (tx == 0) tile[ty + 1][0] = image[static_cast<long>(y) * n + (x > 0 ? x - 1 : 0)];
  if (tx == kTile - 1) tile[ty + 1][kTile + 1] = image[static_cast<long>(y) * n + (x < n - 1 ? x + 1 : n - 1)];
  __syncthreads();

  const float jc = tile[ty + 1][tx + 1];
  const float dn = tile[ty][tx + 1] - jc;
  const float ds = tile[ty + 2][tx + 1] - jc;
  const float dw = tile[ty + 1][tx] - jc;
  const float de = tile[ty + 1][tx + 2] - jc;
  const float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
  const float l = (dn + ds + dw + de) / jc;
  const float num = 0.5f * g2 - 0.0625f * (l * l);
  const float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  const float spread = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float c = 1.0f / (1.0f + spread);
  c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
  d_n[index] = dn;
  d_s[index] = ds;
  d_w[index] = dw;
  d_e[index] = de;
  coeff[index] = c;
}

/// Divergence step: each pixel needs its own coefficient and those of its south and east neighbours, staged in a
/// tile with a one-row / one-column halo (clamped at the image edge).
__global__ void srad_update(float* __restrict__ image, const float* __restrict__ d_n, const float* __restrict__ d_s,
                            const float* __restrict__ d_w, const float* __restrict__ d_e,
                            const float* __restrict__ coeff, int n, float lambda) {
  __shared__ float tile[kTile + 1][kTile + 1];
  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int x = blockIdx.x * kTile + tx;
  const int y = blockIdx.y * kTile + ty;
  const long index = static_cast<long>(y) * n + x;
  tile[ty][tx] = coeff[index];
  if (ty == kTile - 1) tile[kTile][tx] = coeff[static_cast<long>(y < n - 1 ? y + 1 : n - 1) * n + x];
  if (tx == kTile - 1) tile[ty][kTile] = coeff[static_cast<long>(y) * n + (x < n - 1 ? x + 1 : n - 1)];
  __syncthreads();

  const float c = tile[ty][tx];
  const float divergence =
      c * d_n[index] + tile[ty + 1][tx] * d_s[index] + c * d_w[index] + tile[ty][tx + 1] * d_e[index];
  image[index] = image[index] + 0.25f * lambda * divergence;
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

/// q0^2 = variance / mean^2 from the sum and sum of squares of `count` pixels.
float q0_squared(double sum, double sq, double count) {
  const double mean = sum / count;
  const double variance = sq / count - mean * mean;
  return static_cast<float>(variance / (mean * mean));
}

/// The diffusion coefficient of a pixel, as srad_coefficient computes it.
inline float coefficient(float jc, float dn, float ds, float dw, float de, float q0sqr) {
  const float g2 = (dn * dn + ds * ds + dw * dw + de * de) / (jc * jc);
  const float l = (dn + ds + dw + de) / jc;
  const float num = 0.5f * g2 - 0.0625f * (l * l);
  const float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  const float spread = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  const float c = 1.0f / (1.0f + spread);
  return std::min(std::max(c, 0.0f), 1.0f);  // = the kernel's clamp for every non-NaN c
}

/// One reference iteration in float, with the kernels' formulas (the GPU may contract into FMAs; the check allows
/// for that). Edge columns are done apart from the interior so that the interior loops vectorise.
void cpu_iteration(std::vector<float>& image, std::vector<float>& dn, std::vector<float>& ds, std::vector<float>& dw,
                   std::vector<float>& de, std::vector<float>& cf, int n, float lambda) {
  double sum = 0.0;
  double sq = 0.0;
  for (float v : image) {
    sum += v;
    sq += static_cast<double>(v) * v;
  }
  const float q0sqr = q0_squared(sum, sq, static_cast<double>(image.size()));
  for (int y = 0; y < n; ++y) {
    const std::size_t base = static_cast<std::size_t>(y) * n;
    const float* mid = image.data() + base;
    const float* up = image.data() + static_cast<std::size_t>(y > 0 ? y - 1 : 0) * n;
    const float* down = image.data() + static_cast<std::size_t>(y < n - 1 ? y + 1 : n - 1) * n;
    float* on = dn.data() + base;
    float* os = ds.data() + base;
    float* ow = dw.data() + base;
    float* oe = de.data() + base;
    float* oc = cf.data() + base;
    const auto pixel = [&](int x, float west, float east) {
      const float jc = mid[x];
      on[x] = up[x] - jc;
      os[x] = down[x] - jc;
      ow[x] = west - jc;
      oe[x] = east - jc;
      oc[x] = coefficient(jc, on[x], os[x], ow[x], oe[x], q0sqr);
    };
    pixel(0, mid[0], mid[1]);
    for (int x = 1; x < n - 1; ++x) pixel(x, mid[x - 1], mid[x + 1]);
    pixel(n - 1, mid[n - 2], mid[n - 1]);
  }
  const float step = 0.25f * lambda;
  for (int y = 0; y < n; ++y) {
    const std::size_t base = static_cast<std::size_t>(y) * n;
    const float* c = cf.data() + base;
    const float* c_down = cf.data() + static_cast<std::size_t>(y < n - 1 ? y + 1 : n - 1) * n;
    const float* in = dn.data() + base;
    const float* is = ds.data() + base;
    const float* iw = dw.data() + base;
    const float* ie = de.data() + base;
    float* j = image.data() + base;
    for (int x = 0; x < n - 1; ++x) {
      j[x] = j[x] + step * (c[x] * in[x] + c_down[x] * is[x] + c[x] * iw[x] + c[x + 1] * ie[x]);
    }
    j[n - 1] = j[n - 1] + step * (c[n - 1] * in[n - 1] + c_down[n - 1] * is[n - 1] + c[n - 1] * iw[n - 1] +
                                  c[n - 1] * ie[n - 1]);
  }
}

int usage(const char* message) {
  std::fprintf(stderr, "ws_srad: %s\nusage: ws_srad [--n N (16..%ld, multiple of 16)] [--iterations I (1..10)]\n",
               message, kMaxN);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 4096);
  const long iterations_arg = ws::arg_long(argc, argv, "iterations", 6);
  if (n_arg < 16 || n_arg > kMaxN || n_arg % kTile != 0) return usage("--n out of range");
  if (iterations_arg < 1 || iterations_arg > 10) return usage("--iterations out of range");  // 3 launches each
  const int n = static_cast<int>(n_arg);
  const int iterations = static_cast<int>(iterations_arg);

  // I = smooth bright/dark structures (0..200) plus multiplicative-looking speckle; J = exp(I / 255) in [1, e].
  const std::size_t pixels = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  std::vector<float> noise(pixels);
  ws::fill_random(noise, 21u);
  std::vector<float> host_image(pixels);
  std::vector<float> wave_x(static_cast<std::size_t>(n));
  std::vector<float> wave_y(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    wave_x[static_cast<std::size_t>(i)] = std::sin(0.013f * static_cast<float>(i));
    wave_y[static_cast<std::size_t>(i)] = std::cos(0.021f * static_cast<float>(i));
  }
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * n + x;
      const float structure =
          100.0f + 60.0f * wave_x[static_cast<std::size_t>(x)] * wave_y[static_cast<std::size_t>(y)];
      const float intensity = structure * (1.0f + 0.25f * noise[i]);
      host_image[i] = std::exp(intensity / 255.0f);
    }
  }

  DeviceBuffer<float> image(pixels);
  DeviceBuffer<float> d_n(pixels);
  DeviceBuffer<float> d_s(pixels);
  DeviceBuffer<float> d_w(pixels);
  DeviceBuffer<float> d_e(pixels);
  DeviceBuffer<float> coeff(pixels);
  DeviceBuffer<double> partial(2 * kReduceBlocks);
  image.upload(host_image);

  const dim3 block(kTile, kTile);
  const dim3 grid(static_cast<unsigned>(n / kTile), static_cast<unsigned>(n / kTile));
  std::vector<double> host_partial(2 * kReduceBlocks);
  ws::KernelTimer timer(kWorkload);
  for (int it = 0; it < iterations; ++it) {
    timer.start();
    srad_reduce<<<kReduceBlocks, kReduceBlock>>>(image.get(), partial.get(), static_cast<long>(pixels));
    timer.stop("srad_reduce");
    partial.download(host_partial);
    double sum = 0.0;
    double sq = 0.0;
    for (int b = 0; b < kReduceBlocks; ++b) {
      sum += host_partial[2 * b];
      sq += host_partial[2 * b + 1];
    }
    const float q0sqr = q0_squared(sum, sq, static_cast<double>(pixels));
    timer.start();
    srad_coefficient<<<grid, block>>>(image.get(), d_n.get(), d_s.get(), d_w.get(), d_e.get(), coeff.get(), n, q0sqr);
    timer.stop("srad_coefficient");
    timer.start();
    srad_update<<<grid, block>>>(image.get(), d_n.get(), d_s.get(), d_w.get(), d_e.get(), coeff.get(), n, kLambda);
    timer.stop("srad_update");
  }
  std::vector<float> got;
  image.download(got);

  // Reference: the same iterations in float. Tolerance 1e-4 absolute + 1e-4 relative on J in [1, e]: float rounding
  // and FMA contraction differ by ~1e-7 per step (c's formula has no catastrophic cancellation: G2/2 >= L^2/8 by
  // Cauchy-Schwarz), while a wrong neighbour, coefficient or step changes pixels by 1e-2 or more.
  std::vector<float> want(host_image);
  std::vector<float> dn(pixels), ds(pixels), dw(pixels), de(pixels), cf(pixels);
  for (int it = 0; it < iterations; ++it) cpu_iteration(want, dn, ds, dw, de, cf, n, kLambda);
  double worst = 0.0;
  double mean_change = 0.0;
  for (std::size_t i = 0; i < pixels; ++i) {
    worst = std::max(worst, std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i])));
    mean_change += std::fabs(static_cast<double>(want[i]) - static_cast<double>(host_image[i]));
  }
  mean_change /= static_cast<double>(pixels);
  const long bad = ws::first_mismatch(got, want, 1e-4f, 1e-4f);
  char detail[256];
  if (bad < 0) {
    std::snprintf(detail, sizeof detail, "n=%d iterations=%d mean_change=%.3g worst_error=%.3g all within tolerance",
                  n, iterations, mean_change, worst);
  } else {
    std::snprintf(detail, sizeof detail, "n=%d iterations=%d J[%ld][%ld]=%.7g want %.7g", n, iterations, bad / n,
                  bad % n, static_cast<double>(got[static_cast<std::size_t>(bad)]),
                  static_cast<double>(want[static_cast<std::size_t>(bad)]));
  }
  return ws::report_check(kWorkload, bad < 0, detail);
}
