// nbody: all-pairs gravitational n-body simulation, n = 32768 bodies, 3 time steps, following GPU Gems 3,
// chapter 31 (Nyland, Harris & Prins, "Fast N-Body Simulation with CUDA"): positions and masses in float4
// (x, y, z, m), every body accumulates the softened acceleration a_i = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 +
// eps^2)^(3/2) over all n bodies (the j = i term is zero), the bodies streamed through shared memory in tiles of
// blockDim.x = 128, the inverse distance from rsqrtf. Each step then integrates v += a dt, p += v dt
// (semi-implicit Euler) and writes new position/velocity arrays (ping-pong buffers).
//
// GPU behaviour exercised: FP32 FMA and SFU (rsqrtf) throughput with shared-memory broadcast reads (all lanes read
// the same tile element), one __syncthreads() pair per tile; compute bound (~20 flops per interaction, 2^30
// interactions per step). Only 256 blocks of 128 threads (4 warps) for 132 SMs: ~2 blocks, 8 warps per SM, so
// the dependent FMA chain latency matters and some SMs get fewer blocks (tail imbalance).
// Launch shape: 128 threads per block, n/128 = 256 blocks, 2 KB of shared memory per block.
//
// Usage: ws_nbody [--n N (multiple of 128)] [--steps S]
// The simulation iterates by nature: each step is one launch (no --repeat). Prints one `timing` line per launch and
// one `check` line; exits non-zero if a result is wrong.

#include "device_buffer.h"
#include "workload.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

namespace {

constexpr const char* kWorkload = "nbody";
constexpr int kBlock = 128;          // threads per block = bodies per shared-memory tile
constexpr float kSoftening2 = 0.01f;  // eps^2: keeps close pairs finite (eps = 0.1, bodies spread over a unit-2 cube)
constexpr float kDt = 0.01f;
constexpr long kMaxN = 1L << 18;
constexpr int kMaxSteps = 20;
constexpr int kSamples = 2048;       // bodies of the last step checked against the CPU

using ws::DeviceBuffer;

// ---------------------------------------------------------------------------------------------------------------
// Kernel.

/// Acceleration on body position `pi` from body `pj` (w = mass), added into `acc`: 3 subtractions, 3 FMAs for the
/// squared distance, rsqrtf, 3 multiplications for m / r^3, 3 FMAs.
__device__ __forceinline__ void body_body(float4 pi, float4 pj, float3& acc) {
  const float dx = pj.x - pi.x;
  const float dy = pj.y - pi.y;
  const float dz = pj.z - pi.z;
  const float dist2 = dx * dx + dy * dy + dz * dz + kSoftening2;
  const float inv = rsqrtf(dist2);
  const float s = pj.w * inv * inv * inv;
  acc.x += dx * s;
  acc.y += dy * s;
  acc.z += dz * s;
}

/// One time step: thread i accumulates body i's acceleration over all bodies, tile by tile through shared memory,
/// then integrates. n is a multiple of kBlock (checked on the host), so every thread has a body and reaches every
/// barrier.
__global__ void nbody_step(const float4* __restrict__ pos_in, const float4* __restrict__ vel_in,
                           float4* __restrict__ pos_out, float4* __restrict__ vel_out, int n) {
  __shared__ float4 tile[kBlock];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 pi = pos_in[i];
  float3 acc = make_float3(0.0f, 0.0f, 0.0f);
  for (int base = 0; base < n; base += kBlock) {
    tile[threadIdx.x] = pos_in[base + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < kBlock; ++j) body_body(pi, tile[j], acc);
    __syncthreads();  // the next tile overwrites this one
  }
  float4 v = vel_in[i];
  v.x += acc.x * kDt;
  v.y += acc.y * kDt;
  v.z += acc.z * kDt;
  vel_out[i] = v;
  pos_out[i] = make_float4(pi.x + v.x * kDt, pi.y + v.y * kDt, pi.z + v.z * kDt, pi.w);
}

// ---------------------------------------------------------------------------------------------------------------
// Host side.

int usage(const char* message) {
  std::fprintf(stderr, "ws_nbody: %s\nusage: ws_nbody [--n N (multiple of %d, <= %ld)] [--steps 1..%d]\n", message,
               kBlock, kMaxN, kMaxSteps);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const long n_arg = ws::arg_long(argc, argv, "n", 32768);
  const long steps_arg = ws::arg_long(argc, argv, "steps", 3);
  if (n_arg < kBlock || n_arg > kMaxN || n_arg % kBlock != 0) return usage("--n out of range");
  if (steps_arg < 1 || steps_arg > kMaxSteps) return usage("--steps out of range");
  const int n = static_cast<int>(n_arg);
  const int steps = static_cast<int>(steps_arg);

  // Positions uniform in [-1, 1)^3, masses in [0.5, 1.5) / n (total mass ~1, so accelerations are O(1) and
  // dv = a dt ~ 0.01), velocities in [-0.1, 0.1)^3.
  std::vector<float> random(static_cast<std::size_t>(n) * 8);
  ws::fill_random(random, 41u);
  std::vector<float4> host_pos(static_cast<std::size_t>(n));
  std::vector<float4> host_vel(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const float* r = &random[static_cast<std::size_t>(i) * 8];
    host_pos[i] = make_float4(r[0], r[1], r[2], (1.0f + 0.5f * r[3]) / static_cast<float>(n));
    host_vel[i] = make_float4(0.1f * r[4], 0.1f * r[5], 0.1f * r[6], 0.0f);
  }

  DeviceBuffer<float4> pos[2] = {DeviceBuffer<float4>(static_cast<std::size_t>(n)),
                                 DeviceBuffer<float4>(static_cast<std::size_t>(n))};
  DeviceBuffer<float4> vel[2] = {DeviceBuffer<float4>(static_cast<std::size_t>(n)),
                                 DeviceBuffer<float4>(static_cast<std::size_t>(n))};
  pos[0].upload(host_pos);
  vel[0].upload(host_vel);
  WS_CHECK(cudaMemset(pos[1].get(), 0xFF, pos[1].bytes()));  // NaN until written
  WS_CHECK(cudaMemset(vel[1].get(), 0xFF, vel[1].bytes()));

  ws::KernelTimer timer(kWorkload);
  int current = 0;  // buffers holding the state before the step
  for (int s = 0; s < steps; ++s) {
    timer.start();
    nbody_step<<<n / kBlock, kBlock>>>(pos[current].get(), vel[current].get(), pos[1 - current].get(),
                                       vel[1 - current].get(), n);
    timer.stop("nbody_step");
    current = 1 - current;
  }

  // Check the last step on sampled bodies, from the GPU's state before it (the other buffer pair): the CPU
  // recomputes the accelerations in double precision. Tolerances: the velocity change a*dt to relative 1e-3 of
  // |a| plus 1e-4 of the per-component magnitude sum sum_j |m_j d_j / r^3| (a float sum of n terms in one sequential
  // chain; one missing tile of 128 bodies is ~0.4% of that sum), plus float rounding of v and p themselves.
  std::vector<float4> before_pos;
  std::vector<float4> before_vel;
  std::vector<float4> after_pos;
  std::vector<float4> after_vel;
  pos[1 - current].download(before_pos);
  vel[1 - current].download(before_vel);
  pos[current].download(after_pos);
  vel[current].download(after_vel);

  std::string failure;
  double worst = 0.0;  // worst |a_gpu - a_ref| / magnitude, a_gpu = (v_after - v_before) / dt
  unsigned state = 777u;
  for (int sample = 0; sample < kSamples && failure.empty(); ++sample) {
    int i = sample;  // the first and last bodies, then LCG picks
    if (sample == 1) i = n - 1;
    if (sample >= 2) {
      state = state * 1664525u + 1013904223u;
      i = static_cast<int>((state >> 8) % static_cast<unsigned>(n));
    }
    const float4 pi = before_pos[i];
    double acc[3] = {0.0, 0.0, 0.0};
    double magnitude[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j < n; ++j) {
      const float4 pj = before_pos[j];
      const double d[3] = {static_cast<double>(pj.x) - pi.x, static_cast<double>(pj.y) - pi.y,
                           static_cast<double>(pj.z) - pi.z};
      const double dist2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + static_cast<double>(kSoftening2);
      const double s = static_cast<double>(pj.w) / (dist2 * std::sqrt(dist2));
      for (int c = 0; c < 3; ++c) {
        acc[c] += d[c] * s;
        magnitude[c] += std::fabs(d[c] * s);
      }
    }
    const double v_before[3] = {before_vel[i].x, before_vel[i].y, before_vel[i].z};
    const double v_after[3] = {after_vel[i].x, after_vel[i].y, after_vel[i].z};
    const double p_before[3] = {pi.x, pi.y, pi.z};
    const double p_after[3] = {after_pos[i].x, after_pos[i].y, after_pos[i].z};
    const double acc_norm = std::sqrt(acc[0] * acc[0] + acc[1] * acc[1] + acc[2] * acc[2]);
    for (int c = 0; c < 3 && failure.empty(); ++c) {
      const double dt = static_cast<double>(kDt);
      const double want_v = v_before[c] + acc[c] * dt;
      const double tol_v = dt * (1e-3 * acc_norm + 1e-4 * magnitude[c]) + 1e-6 * std::fabs(want_v);
      const double err_v = std::fabs(v_after[c] - want_v);
      if (magnitude[c] > 0.0) worst = std::max(worst, std::fabs((v_after[c] - v_before[c]) / dt - acc[c]) / magnitude[c]);
      // The position update from the GPU's own new velocity: only float rounding of p and v*dt.
      const double want_p = p_before[c] + v_after[c] * dt;
      const double tol_p = 1e-6 * std::fabs(want_p) + 1e-8;
      const double err_p = std::fabs(p_after[c] - want_p);
      if (!(err_v <= tol_v) || !(err_p <= tol_p)) {  // negated so that NaN fails
        char text[240];
        std::snprintf(text, sizeof text, "body %d component %d: v=%.7g want %.7g (tol %.3g), p=%.7g want %.7g (tol %.3g)",
                      i, c, v_after[c], want_v, tol_v, p_after[c], want_p, tol_p);
        failure = text;
      }
    }
    if (after_pos[i].w != pi.w && failure.empty()) failure = "mass changed for body " + std::to_string(i);
  }
  char detail[360];
  std::snprintf(detail, sizeof detail, "n=%d steps=%d samples=%d worst_accel_error/magnitude=%.3g %s", n, steps,
                kSamples, worst, failure.empty() ? "last step within tolerance" : failure.c_str());
  return ws::report_check(kWorkload, failure.empty(), detail);
}
